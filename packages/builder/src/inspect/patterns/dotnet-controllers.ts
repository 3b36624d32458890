/**
 * ASP.NET Core MVC attribute routing: `[HttpPost("x")]` on an action, the controller's
 * `[Route("api/[controller]/[action]")]` before it, a method-level `[Route("{id}")]` beside a bare
 * `[HttpDelete]`; the `[controller]` and `[action]` tokens replaced; `/` or `~/` makes a template absolute.
 */
import { formatLocation, lineAtOffset } from '../location.js';
import type { EndpointFinding, MutatingMethod } from '../types.js';
import { bodyTypeOf } from './dotnet-body.js';
import { attributeStrings, closingBracket, declarationStart, enclosingType, methodAt, parameters, type CSharpSource } from './dotnet-syntax.js';

const VERB: Record<string, MutatingMethod> = { Post: 'POST', Put: 'PUT', Patch: 'PATCH', Delete: 'DELETE' };

/** True when the route names a webhook or PayPal IPN, or the handler verifies a Stripe/Adyen signature. */
export function isWebhook(route: string, body: string): boolean {
  return /webhook|\bipn\b/i.test(route) || /EventUtility\.ConstructEvent|HmacValidator/.test(body);
}

/**
 * An action template under its controller's: a template starting with `/` or `~/` replaces the
 * controller's (ASP.NET's override rule), any other is appended.
 * @example joinControllerRoute('api/orders', '{id}') // '/api/orders/{id}'
 */
export function joinControllerRoute(prefix: string, path: string): string {
  if (path.startsWith('/') || path.startsWith('~/')) return path.replace(/^~/, '');
  return `/${[prefix, path].map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
}

/**
 * `[controller]` and `[action]` as ASP.NET fills them: the class name without `Controller`, the
 * action's `[ActionName]` or method name without `Async` (MVC's SuppressAsyncSuffixInActionNames
 * default). ASP.NET keeps their case but matches paths case-insensitively; both are lower-cased
 * here, the convention this scanner already used for `[controller]`, so one route reads one way.
 */
function replaceTokens(route: string, controller: string, action: string): string {
  return route.replace(/\[controller\]/gi, controller.toLowerCase()).replace(/\[action\]/gi, action.toLowerCase());
}

/**
 * Every mutating controller action of a file, one endpoint per controller route × action template.
 * @example controllerEndpoints(parseCSharp('[Route("api/[controller]")] public class OrdersController { [HttpPost] public IActionResult Pay() => Ok(); }'), 'O.cs')[0].route // '/api/orders'
 */
export function controllerEndpoints(source: CSharpSource, relPath: string): EndpointFinding[] {
  const { masked } = source;
  const out: EndpointFinding[] = [];
  for (const match of masked.matchAll(/[[,]\s*(?:[\w.]*\.)?Http(Post|Put|Patch|Delete)(?:Attribute)?\b/g)) {
    const at = match.index ?? 0;
    const verb = match[1] ?? '';
    const attributeOpen = masked[at] === '[' ? at : masked.lastIndexOf('[', at);
    const attributeClose = closingBracket(masked, attributeOpen);
    if (attributeClose < 0) continue;
    const line = lineAtOffset(source.text, at);
    const template = attributeStrings(source, `Http${verb}`, at, attributeClose + 1)[0];
    const method = methodAt(source, attributeClose + 1);
    // The action's own attributes: those before the verb attribute and those between it and the method.
    const runStart = declarationStart(masked, attributeOpen);
    const runEnd = method?.start ?? attributeClose + 1;
    const controller = enclosingType(source, at);
    const classRun = controller ? { start: declarationStart(masked, controller.index), end: controller.index } : undefined;
    const controllerRoutes = classRun ? attributeStrings(source, 'Route', classRun.start, classRun.end) : [];
    const actionRoutes = template !== undefined ? [template] : attributeStrings(source, 'Route', runStart, runEnd);
    const action = attributeStrings(source, 'ActionName', runStart, runEnd)[0] ?? method?.name.replace(/Async$/, '') ?? '';
    const controllerName = (controller?.name ?? '').replace(/Controller$/, '');
    // `[ApiController]` binds a complex parameter from the body without `[FromBody]`.
    const infers = (classRun !== undefined && /\bApiController\b/.test(masked.slice(classRun.start, classRun.end))) || /\[\s*assembly\s*:\s*ApiController\b/.test(masked);
    const params = method ? parameters(source, method.parameters.start, method.parameters.end) : [];
    const body = method ? source.text.slice(method.start, method.body.end + 1) : '';
    const routes = new Set<string>();
    for (const prefix of controllerRoutes.length > 0 ? controllerRoutes : ['']) {
      for (const actionRoute of actionRoutes.length > 0 ? actionRoutes : ['']) routes.add(replaceTokens(joinControllerRoute(prefix, actionRoute), controllerName, action));
    }
    for (const route of routes) {
      const bodyType = bodyTypeOf(source, params, route, at, infers);
      out.push({
        method: VERB[verb] as MutatingMethod,
        route,
        framework: 'aspnet',
        location: formatLocation(relPath, line),
        ...(method ? { handler: method.name } : {}),
        bodyFields: [],
        ...(bodyType ? { bodyType } : {}),
        webhook: isWebhook(route, body),
        span: method ? { start: lineAtOffset(source.text, method.start), end: lineAtOffset(source.text, method.body.end) } : { start: line, end: line },
      });
    }
  }
  return out;
}
