/**
 * Django views as routes below their urls.py mount (python-django-urls.ts): plain function views
 * (`@require_POST`, `@require_http_methods([...])`, an `if request.method == "POST":` check, or no
 * check at all) and DRF class views with the actions they inherit (ModelViewSet, the model mixins
 * on a GenericViewSet, the concrete generic views) as well as those they define.
 */
import type { MutatingMethod } from '../types.js';
import { callText, indentBlockEnd, matchesWithLines, nextLineMatching, sliceLines } from './line-patterns.js';
import type { PyDef } from './python.js';

const MUTATING: Record<string, MutatingMethod> = { POST: 'POST', PUT: 'PUT', PATCH: 'PATCH', DELETE: 'DELETE' };

/** A Django route found in a views file; the route is the part below the view's urls.py mount. */
export interface DjangoViewRoute {
  readonly method: MutatingMethod;
  readonly route: string;
  readonly line: number;
  /** The handler's def; `null` when the action is inherited (no body in this file). */
  readonly def: PyDef | null;
  /** The view's name, as urls.py routes it (`django:view:<name>`). */
  readonly view: string;
  /** The serializer whose fields the body carries, when the action is DRF's own. */
  readonly bodyType?: string;
  /** The view never checks the method: every method runs it (any-method-routes.ts settles it). */
  readonly anyMethod?: { readonly readsBody: boolean };
}

/**
 * The mutating methods named in an HTTP-method list (`["POST", "get"]`, `('DELETE',)`, `{"PUT"}`).
 * @example mutatingMethods('("POST", "get")') // ['POST']
 */
export function mutatingMethods(list: string): MutatingMethod[] {
  return [...new Set((list.match(/\w+/g) ?? []).map((m) => MUTATING[m.toUpperCase()]).filter((m): m is MutatingMethod => m !== undefined))];
}

/** `methods=[...]`, `methods=(...)` or `methods={...}`: the list's text; undefined when absent. */
export function methodsArgument(args: string, keyword = 'methods'): string | undefined {
  return new RegExp(String.raw`\b${keyword}\s*=\s*[[({]([^\])}]*)[\])}]`).exec(args)?.[1];
}

/** The decorator lines directly above the def on `defLine` (1-based), joined. */
function decoratorsAbove(lines: readonly string[], defLine: number): string {
  const out: string[] = [];
  for (let i = defLine - 2; i >= 0; i -= 1) {
    const line = (lines[i] ?? '').trim();
    if (line.startsWith('@') || (out.length > 0 && line !== '' && !line.startsWith('def ') && /^[\w"'\s,)\]]+$/.test(line))) out.unshift(line);
    else if (line.startsWith('#')) continue;
    else break;
  }
  return out.join('\n');
}

/** Files a function view with no method signal is looked for in: views modules and webhook handlers. */
const VIEWS_FILE = /(^|\/)(\w*views?|webhooks?|\w*_webhooks?)\.py$|(^|\/)views\//;
/** What reading the request body of a Django view looks like. */
const READS_BODY = /\brequest\.(POST|body|FILES|data)\b|json\.loads\(\s*request\b/;
const SIGNED_WEBHOOK = /construct_event|verify_webhook_signature|is_valid_hmac/;

/**
 * Django function views (`def view(request, …)` at the top of a module). The methods come from
 * `@require_POST` / `@require_http_methods`, or from the `request.method` comparisons in the body;
 * `@require_GET` / `@require_safe` views are not mutating. A view with no method check runs for
 * every method: it is reported as an any-method route (POST, assumed) and kept only when what it
 * does mutates — the rule Next.js pages handlers follow (any-method-routes.ts).
 * @example djangoFunctionViews('shop/views.py', '@require_POST\ndef refund(request):\n    ...')[0].method // 'POST'
 */
export function djangoFunctionViews(relPath: string, text: string): DjangoViewRoute[] {
  const lines = text.split('\n');
  const out: DjangoViewRoute[] = [];
  for (const { match, line } of matchesWithLines(text, /^(?:async\s+)?def (\w+)\(\s*request\b(\s*,\s*exception\b)?/gm)) {
    const name = match[1] ?? '';
    // `_helper(request)` is private; `(request, exception)` is an error handler (`handler404`), no route.
    if (name.startsWith('_') || match[2]) continue;
    const decorators = decoratorsAbove(lines, line);
    // DRF's `@api_view`, any router decorator (`@app.post`, Ninja's `@api.api_operation`) and Litestar's
    // `@post(…)` are read by their own scanners.
    if (/@api_view\b|@\w+\.(route|get|post|put|patch|delete|api_route|api_operation)\(|@(?:litestar\.)?(?:get|post|put|patch|delete|route)\(/.test(decorators)) continue;
    if (/@require_(GET|safe)\b/.test(decorators)) continue;
    const body = sliceLines(text, line, indentBlockEnd(text, line));
    const def: PyDef = { line, name };
    const view = name;
    const declared = /@require_POST\b/.test(decorators) ? ['POST' as const] : mutatingMethods(/@require_http_methods\(\s*(?:request_method_list\s*=\s*)?[[({]([^\])}]*)/.exec(decorators)?.[1] ?? '');
    if (/@require_(POST|http_methods)\b/.test(decorators)) {
      for (const method of declared) out.push({ method, route: '', line, def, view });
      continue;
    }
    // `request.method == "POST"`, `!= 'POST'` (the else branch handles POST), `in ("PUT", "PATCH")`.
    const compared = [...body.matchAll(/\brequest\.method\s*(?:[!=]=\s*["'](\w+)["']|(?:not\s+)?in\s*[[({]([^\])}]*))/g)].map((m) => m[1] ?? m[2] ?? '').join(' ');
    const checked = mutatingMethods(compared);
    if (checked.length > 0) {
      for (const method of checked) out.push({ method, route: '', line, def, view });
      continue;
    }
    // No method named: every method runs the view. Only modules that hold views are read this way.
    if (!VIEWS_FILE.test(relPath) && !SIGNED_WEBHOOK.test(body)) continue;
    out.push({ method: 'POST', route: '', line, def, view, anyMethod: { readsBody: READS_BODY.test(body) } });
  }
  return out;
}

type Action = 'create' | 'update' | 'partial_update' | 'destroy';
const ACTION_METHOD: Record<Action, MutatingMethod> = { create: 'POST', update: 'PUT', partial_update: 'PATCH', destroy: 'DELETE' };
const HANDLER_METHOD: Record<string, MutatingMethod> = { post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' };

/** Actions a ViewSet inherits, by base (rest_framework/viewsets.py, mixins.py). */
const VIEWSET_BASES: Array<[RegExp, Action[]]> = [
  [/\bModelViewSet\b/, ['create', 'update', 'partial_update', 'destroy']],
  [/\bCreateModelMixin\b/, ['create']],
  [/\bUpdateModelMixin\b/, ['update', 'partial_update']],
  [/\bDestroyModelMixin\b/, ['destroy']],
];

/**
 * The actions a concrete generic view serves through its own `post`/`put`/`patch`/`delete`
 * (rest_framework/generics.py): `patch` calls `partial_update`, which calls `update`.
 */
const GENERIC_BASES: Array<[RegExp, Action[]]> = [
  [/\b(?:CreateAPIView|ListCreateAPIView)\b/, ['create']],
  [/\b(?:UpdateAPIView|RetrieveUpdateAPIView)\b/, ['update', 'partial_update']],
  [/\b(?:DestroyAPIView|RetrieveDestroyAPIView)\b/, ['destroy']],
  [/\bRetrieveUpdateDestroyAPIView\b/, ['update', 'partial_update', 'destroy']],
];

const inherited = (bases: string, table: Array<[RegExp, Action[]]>): Set<Action> => new Set(table.flatMap(([pattern, actions]) => (pattern.test(bases) ? actions : [])));

/** A ViewSet's detail route below its router prefix (`/{pk}`, `/{pk}/refund`). */
function detailRoute(lookup: string, segment = ''): string {
  return `/{${lookup}}${segment ? `/${segment}` : ''}`;
}

/**
 * DRF (and Django) class-based views: `post`/`put`/`patch`/`delete` methods, ViewSet actions
 * defined or inherited (a router serves an action only when the class has it), the actions a
 * concrete generic view serves (an `update` override serves PUT and PATCH), and `@action`s.
 * @example drfClassViews('class OrderViewSet(viewsets.ModelViewSet):\n    serializer_class = OrderSerializer\n').map((r) => r.method) // ['POST', 'PUT', 'PATCH', 'DELETE']
 */
export function drfClassViews(text: string): DjangoViewRoute[] {
  const out: DjangoViewRoute[] = [];
  for (const { match, line } of matchesWithLines(text, /^class (\w+)\(([^)]*(?:APIView|View|ViewSet|GenericAPIView|Mixin)[^)]*)\):/gm)) {
    const view = match[1] ?? '';
    const bases = match[2] ?? '';
    // Measured from the header's last line at the `class` line's level: a multi-line header may close with `):` there.
    const body = sliceLines(text, line, indentBlockEnd(text, line, line + (match[0].match(/\n/g)?.length ?? 0)));
    const bodyStart = line;
    // A router's detail routes carry the view's lookup (`lookup_field = "slug"` → `{slug}`), `pk` by default.
    const lookup = /^[ \t]+lookup_url_kwarg\s*=\s*["'](\w+)/m.exec(body)?.[1] ?? /^[ \t]+lookup_field\s*=\s*["'](\w+)/m.exec(body)?.[1] ?? 'pk';
    // Kept as written (`serializers.OrderSerializer`): the file's imports say which module declares it (python-shape-imports.ts).
    const serializer = /^[ \t]+serializer_class\s*=\s*([\w.]+)/m.exec(body)?.[1];
    const defs = new Map<string, PyDef>();
    for (const method of matchesWithLines(body, /^[ \t]+(?:async\s+)?def (\w+)\(self/gm)) {
      const name = method.match[1] ?? '';
      if (!defs.has(name)) defs.set(name, { line: bodyStart + method.line - 1, name });
    }
    const viewSet = /ViewSet\b/.test(bases);
    // Handlers written out (`def post(self, request)`) win over the action DRF would call.
    const written = new Set<MutatingMethod>();
    for (const [name, def] of defs) {
      const method = HANDLER_METHOD[name];
      if (!method) continue;
      written.add(method);
      out.push({ method, route: '', line: def.line, def, view });
    }
    const actions = viewSet
      ? new Set<Action>([...inherited(bases, VIEWSET_BASES), ...(Object.keys(ACTION_METHOD) as Action[]).filter((a) => defs.has(a))])
      : inherited(bases, GENERIC_BASES);
    for (const action of actions) {
      const method = ACTION_METHOD[action];
      if (written.has(method)) continue;
      // `partial_update` is `update(partial=True)`: an `update` override handles PATCH too. An inherited
      // action's own work is the `perform_create`/`perform_update`/`perform_destroy` hook, when overridden.
      const hook = defs.get(`perform_${action === 'partial_update' ? 'update' : action}`);
      const own = defs.get(action) ?? (action === 'partial_update' ? defs.get('update') : undefined);
      const def = own ?? hook ?? null;
      // A generic view routed by `as_view()` has its whole path, parameters included, in urls.py.
      const route = viewSet && action !== 'create' ? detailRoute(lookup) : '';
      const ownBody = def ? sliceLines(text, def.line, indentBlockEnd(text, def.line)) : '';
      // DRF's own action validates `request.data` with the serializer; an override that does so too.
      // A destroy takes no body.
      const bodyType = serializer && action !== 'destroy' && (!own || /data\s*=\s*request\.data\b(?!\.)/.test(ownBody)) ? serializer : undefined;
      out.push({ method, route, line: def?.line ?? line, def, view, ...(bodyType ? { bodyType } : {}) });
    }
    // DRF extra actions: `@action(detail=True, methods=["post"])` above `def refund(self, …)`.
    for (const action of matchesWithLines(body, /^[ \t]+@action\(/gm)) {
      const def = nextLineMatching(body, action.line, /def (\w+)\(/, 6);
      // Read to the balanced parenthesis: `methods=('post',)` closes a tuple first.
      const args = callText(body, action.index);
      const path = /url_path\s*=\s*["']([^"']+)/.exec(args)?.[1] ?? def?.match[1] ?? '';
      const route = /detail\s*=\s*True/.test(args) ? detailRoute(lookup, path) : `/${path}`;
      // `@action(detail=True)` without `methods` serves GET only.
      for (const method of mutatingMethods(methodsArgument(args) ?? '')) {
        out.push({ method, route, line: bodyStart + action.line - 1, def: def ? { line: bodyStart + def.line - 1, name: def.match[1] ?? '' } : null, view });
      }
    }
  }
  return out;
}
