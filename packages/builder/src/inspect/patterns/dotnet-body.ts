/**
 * Which parameter of an ASP.NET handler is the JSON body, the way ASP.NET binds it: `[FromBody]`
 * wins; otherwise, where the framework infers the body (minimal APIs, `[ApiController]`), the one
 * complex parameter that is not a service, not a route value and not bound from query, header or form.
 */
import { typeCandidates, type CSharpParameter, type CSharpSource } from './dotnet-syntax.js';

// Parameters bound from elsewhere than the body.
const NOT_BODY_ATTRIBUTE = /^(FromServices|FromKeyedServices|FromRoute|FromQuery|FromHeader|FromForm|AsParameters)$/;

// Values ASP.NET binds from the route or query string, never from the body.
const SIMPLE_TYPE = /^(string|char|bool|byte|sbyte|short|ushort|int|uint|long|ulong|float|double|decimal|nint|nuint|object|Guid|DateTime|DateTimeOffset|DateOnly|TimeOnly|TimeSpan|Uri|Version|String|Int32|Int64|Boolean|Decimal|Double)(\?|\[\])?$/;

// Types the framework injects (request context, DI services): a handler's parameter of such a type is never the body.
const INJECTED_TYPE = /^(HttpContext|HttpRequest|HttpResponse|CancellationToken|ClaimsPrincipal|IFormFile|IFormFileCollection|IFormCollection|Stream|PipeReader|LinkGenerator|HttpClient|IServiceProvider|UserManager|SignInManager|RoleManager|ILogger|IOptions|IMediator|ISender)\b|^I[A-Z]\w*(<.*>)?$|(DbContext|Service)(<.*>)?$/;

/**
 * Types this file registers with the container (`AddScoped<CurrentUser>()`, `AddHttpClient<AuthClient>()`,
 * `AddDbContext<AppDb>()`) or declares as a `DbContext` subclass: injected, never the body.
 */
export function localServices(source: CSharpSource): Set<string> {
  const services = new Set<string>();
  for (const match of source.masked.matchAll(/\.Add(?:Keyed)?(?:Scoped|Singleton|Transient|HttpClient|DbContext|DbContextPool|DbContextFactory|Sqlite|SqlServer|Npgsql|MySql|Cosmos)\s*<([^>]*)>/g)) {
    for (const type of (match[1] ?? '').split(',')) services.add(type.trim());
  }
  for (const match of source.masked.matchAll(/\bclass\s+(\w+)[^{;]*?:\s*[\w.]*DbContext\b/g)) services.add(match[1] ?? '');
  return services;
}

/** Route-template parameter names (`{id}`, `{id:int}`, `{*path}`, `{id?}`), lower-cased: ASP.NET matches them so. */
function routeValues(route: string): Set<string> {
  return new Set([...route.matchAll(/\{\*{0,2}(\w+)[^}]*\}/g)].map((m) => (m[1] ?? '').toLowerCase()));
}

/**
 * The body type of a handler as the shape names it may refer to (`A|B`), or undefined when no
 * parameter is bound from the body. `infer`: the framework binds a lone complex parameter from the
 * body without `[FromBody]` (minimal APIs, `[ApiController]` controllers).
 */
export function bodyTypeOf(source: CSharpSource, params: readonly CSharpParameter[], route: string, at: number, infer: boolean): string | undefined {
  const explicit = params.find((p) => p.attributes.includes('FromBody'));
  if (explicit) return typeCandidates(source, explicit.type, at);
  if (!infer) return undefined;
  const services = localServices(source);
  const fromRoute = routeValues(route);
  const complex = params.filter((p) => !p.attributes.some((a) => NOT_BODY_ATTRIBUTE.test(a))
    && !fromRoute.has(p.name.toLowerCase())
    && !SIMPLE_TYPE.test(p.type)
    && !INJECTED_TYPE.test(p.type)
    && !services.has(p.type.replace(/\?$/, '')));
  // Services registered in another file look like any other class here: when several remain, each
  // is offered in parameter order and the inspector keeps the first that is a known body shape.
  return complex.length > 0 ? complex.map((p) => typeCandidates(source, p.type, at)).join('|') : undefined;
}
