/**
 * Routes that every HTTP method runs — Next.js pages-router handlers that never check
 * `req.method` — settled once the whole codebase is read. Their method is the one the app's own
 * callers use (POST, stated as an assumption, when no caller is found), and they stay mutating
 * entry points only when what the handler does mutates: a write, a message or outbound call, a
 * provider call, a verified webhook. Reading `req.body` to look something up is no mutation.
 */
import type { ClientCall, ClientFacts } from './ts/ts-client-calls.js';
import type { EndpointFinding, MutatingMethod } from './types.js';

/** A file worth reading for calls to the app's API or for a helper that sends a fixed method. */
export const CALLER_HINT = /\/api\b|\bmethod\s*:\s*['"`]/;
/** Caller files parsed at most: past it the methods rest on the files read, and a note says so. */
const MAX_CALLER_FILES = 2_000;
const MUTATING: readonly MutatingMethod[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * True when a call path (`/api/books/edit/:p`) reaches a route (`/api/books/edit/:id`): a route
 * parameter takes any one segment, a catch-all (`*slug`) the rest; a literal only itself.
 * @example routeMatches('/api/orders/:id', '/api/orders/:p') // true
 */
export function routeMatches(route: string, path: string): boolean {
  const want = route.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  for (const [index, segment] of want.entries()) {
    if (segment.startsWith('*')) return got.length >= index;
    const part = got[index];
    if (part === undefined) return false;
    if (segment.startsWith(':')) continue;
    if (part !== segment) return false;
  }
  return want.length === got.length;
}

/** The method of a call: stated by the call, else by the one helper of that name (none when helpers disagree). */
function callMethod(call: ClientCall, helpers: ReadonlyMap<string, ReadonlySet<string>>): string | undefined {
  if (call.method) return call.method;
  const methods = helpers.get(call.callee.slice(call.callee.lastIndexOf('.') + 1));
  return methods?.size === 1 ? [...methods][0] : undefined;
}

/**
 * Reads the API calls of the candidate files, only when some route needs them (the parse of
 * component files is what the pre-filter saves otherwise).
 * @example await readClientFacts(endpoints, files, read, notes)
 */
export async function readClientFacts(
  endpoints: readonly EndpointFinding[],
  files: ReadonlyArray<{ readonly relPath: string; readonly absPath: string }>,
  read: (absPath: string) => string,
  notes: string[],
): Promise<ClientFacts[]> {
  if (!endpoints.some((e) => e.anyMethod)) return [];
  const { scanClientCalls } = await import('./ts/ts-client-calls.js');
  if (files.length > MAX_CALLER_FILES) notes.push(`Only the first ${MAX_CALLER_FILES} of ${files.length} files that may call the app's own API were read for the methods of handlers that never check req.method.`);
  const facts: ClientFacts[] = [];
  for (const file of files.slice(0, MAX_CALLER_FILES)) {
    try {
      facts.push(scanClientCalls(file.relPath, read(file.absPath)));
    } catch (error) {
      notes.push(`${file.relPath} could not be read for API calls: ${(error as Error).message}`);
    }
  }
  return facts;
}

/**
 * Gives every any-method route the mutating methods its callers use — one endpoint per method —
 * or keeps POST as a stated assumption; the basis is noted by `keepMutating` if the route stays.
 * @example settleMethods(endpoints, facts).map((e) => e.method) // ['PUT'] for a handler called through fetchPutJSON
 */
export function settleMethods(endpoints: readonly EndpointFinding[], facts: readonly ClientFacts[]): EndpointFinding[] {
  const helpers = new Map<string, Set<string>>();
  for (const helper of facts.flatMap((f) => f.helpers)) helpers.set(helper.name, new Set([...(helpers.get(helper.name) ?? []), helper.method]));
  const calls = facts.flatMap((f) => f.calls);
  const out = endpoints.flatMap((endpoint): EndpointFinding[] => {
    const { anyMethod } = endpoint;
    if (!anyMethod) return [endpoint];
    const callers = calls.filter((c) => routeMatches(endpoint.route, c.path)).map((c) => ({ call: c, method: callMethod(c, helpers) }));
    const methods = MUTATING.filter((m) => callers.some((c) => c.method === m));
    const said = (list: typeof callers) => list.map((c) => `${c.call.location} (${c.call.callee}${c.call.method ? '' : ` → ${c.method ?? 'method unknown'}`})`).join(', ');
    if (methods.length === 0) {
      const others = callers.length > 0 ? `; the calls found do not send a mutating method: ${said(callers)}` : `; no call to ${endpoint.route} was found in this codebase`;
      const basis = `${endpoint.location}: the handler never checks req.method, so every method runs it; shown as POST (assumed: a request that carries data is sent with POST)${others}.`;
      return [{ ...endpoint, anyMethod: { ...anyMethod, basis } }];
    }
    return methods.map((method) => {
      const basis = `${endpoint.location}: the handler never checks req.method; ${method} is how this codebase calls ${endpoint.route}: ${said(callers.filter((c) => c.method === method))}.`;
      return { ...endpoint, method, anyMethod: { ...anyMethod, basis } };
    });
  });
  return out;
}

/**
 * Drops the any-method routes whose handler does not mutate (their duplicate cost says so), with a
 * note each; the internal mark goes.
 * @example keepMutating(assessed).endpoints.every((e) => e.anyMethod === undefined) // true
 */
export function keepMutating(endpoints: readonly EndpointFinding[]): { endpoints: EndpointFinding[]; notes: string[] } {
  const notes: string[] = [];
  const kept = endpoints.flatMap(({ anyMethod, ...endpoint }) => {
    if (!anyMethod) return [endpoint];
    const level = endpoint.cost?.level;
    // A login that reads credentials stays (the plan lists it as not protected); one that reads nothing is a page hit.
    const mutates = endpoint.webhook || level === 'money' || level === 'external' || level === 'write' || (level === 'auth' && anyMethod.readsBody);
    if (mutates) {
      if (anyMethod.basis) notes.push(anyMethod.basis);
      return [endpoint];
    }
    // A reader that takes no body is what a pages/api file mostly is (`api/hello`): dropped silently.
    if (anyMethod.readsBody) notes.push(`${endpoint.location}: ${endpoint.route} is not reported as a mutating entry point: its handler never checks req.method and only reads (${endpoint.cost?.evidence.join('; ') ?? 'nothing seen'}). Add it in an answers file if it changes state through a call the inspector does not follow.`);
    return [];
  });
  return { endpoints: kept, notes };
}
