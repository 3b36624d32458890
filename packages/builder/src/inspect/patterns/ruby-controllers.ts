/**
 * Rails controller actions (`app/controllers/admin/orders_controller.rb` `def create … end`) and
 * the link from each route to the action that answers it. A routes file names `admin/orders#create`
 * but the action lives in another file, read once every file is known: the endpoint's span then
 * points into the controller, so its duplicate cost is read from the action's own body, and its
 * body fields are the ones the action permits.
 */
import type { EndpointFinding } from '../types.js';
import { maskCode } from './code-mask.js';
import { callText } from './line-patterns.js';
import { needsAppAction, withoutAppActionMark } from './ruby-routes.js';

/** Parameters Rails fills from the route and the request itself, never from the body. */
const ROUTING_PARAMS = new Set(['id', 'format', 'controller', 'action']);

interface RubyMethod {
  readonly name: string;
  /** 1-based lines of `def` and of its `end`. */
  readonly start: number;
  readonly end: number;
  readonly isPublic: boolean;
}

type Read = (relPath: string) => string | undefined;

/**
 * Routes given the controller action that answers them: span into the controller file and the
 * fields the action reads from `params` (path parameters left out). A route whose action is not in
 * the app (no such file, an inherited action) keeps no span, so its cost stays "defined
 * elsewhere"; a Devise route is then dropped, as nothing of the app's answers it.
 * @example linkRailsControllers(endpoints, new Set(['config/routes.rb', 'app/controllers/orders_controller.rb']), read)[0].span // { file: 'app/controllers/orders_controller.rb', start: 2, end: 4 }
 */
export function linkRailsControllers(endpoints: readonly EndpointFinding[], files: ReadonlySet<string>, read: Read): EndpointFinding[] {
  const controllers = new Map<string, { lines: string[]; methods: RubyMethod[] } | undefined>();
  const controllerAt = (file: string): { lines: string[]; methods: RubyMethod[] } | undefined => {
    if (!controllers.has(file)) {
      const text = files.has(file) ? read(file) : undefined;
      const lines = text === undefined ? undefined : maskCode(text, 'ruby').split('\n');
      controllers.set(file, lines ? { lines, methods: rubyMethods(lines) } : undefined);
    }
    return controllers.get(file);
  };
  return endpoints.flatMap((endpoint) => {
    if (endpoint.framework !== 'rails' || !endpoint.handler) return [endpoint];
    const [controller, actionName] = endpoint.handler.split('#');
    // The controllers of the app whose routes file this is (`engines/x/config/routes.rb` → `engines/x/app/controllers/`).
    const file = `${endpoint.location.replace(/config\/routes\.rb:\d+$/, '')}app/controllers/${controller ?? ''}_controller.rb`;
    const found = controllerAt(file);
    const action = found?.methods.find((m) => m.isPublic && m.name === actionName);
    if (!found || !action) return needsAppAction(endpoint) ? [] : [endpoint];
    const body = (m: RubyMethod): string => found.lines.slice(m.start - 1, m.end).join('\n');
    // `params[:isbn]` on `/books/:isbn` is the path segment; `isbn` permitted inside `params.require(:book)` is the body's.
    const pathParams = new Set([...endpoint.route.matchAll(/:(\w+)/g)].map((m) => m[1]));
    const reached = fieldsReached(action, found.methods, body);
    const fields = [...reached.permitted, ...reached.read.filter((f) => !pathParams.has(f))];
    return [{ ...withoutAppActionMark(endpoint), bodyFields: [...new Set([...endpoint.bodyFields, ...fields])], span: { file, start: action.start, end: action.end } }];
  });
}

/** Methods of a Ruby file with their spans (the `end` at the `def`'s indentation) and visibility. */
function rubyMethods(lines: readonly string[]): RubyMethod[] {
  const out: RubyMethod[] = [];
  const privateNames = new Set<string>();
  let visibility = 'public';
  let visibilityIndent = -1;
  lines.forEach((text, index) => {
    const section = /^(\s*)(private|protected|public)\s*$/.exec(text);
    if (section) {
      visibility = section[2] ?? 'public';
      visibilityIndent = (section[1] ?? '').length;
      return;
    }
    // `private :order_params, :set_order` after the methods it names.
    const named = /^\s*(?:private|protected)\s+((?::\w+[?!]?\s*,?\s*)+)$/.exec(text);
    if (named) for (const m of (named[1] ?? '').matchAll(/:(\w+[?!]?)/g)) privateNames.add(m[1] ?? '');
    const def = /^(\s*)((?:private|protected)\s+)?def\s+(self\.)?(\w+[?!=]?)/.exec(text);
    if (!def || def[3]) return;
    const indent = def[1] ?? '';
    // A new class body at a shallower indentation starts public again.
    if (indent.length < visibilityIndent) visibility = 'public';
    const oneLine = /\bdef\s+\w+[?!]?(?:\([^)]*\))?\s*=[^=]|;\s*end\s*$|\bend\s*$/.test(text);
    let end = index;
    if (!oneLine) {
      end = lines.findIndex((l, i) => i > index && new RegExp(`^${indent}end\\b`).test(l));
      if (end < 0) end = lines.length - 1;
    }
    out.push({ name: def[4] ?? '', start: index + 1, end: end + 1, isPublic: visibility === 'public' && !def[2] });
  });
  return out.map((m) => (privateNames.has(m.name) ? { ...m, isPublic: false } : m));
}

/** Fields an action reads from `params`, in its own body and in the file's methods it calls (`order_params`), two calls deep. */
function fieldsReached(action: RubyMethod, methods: readonly RubyMethod[], body: (m: RubyMethod) => string): ParamsFields {
  const permitted: string[] = [];
  const read: string[] = [];
  const seen = new Set<string>([action.name]);
  let frontier = [action];
  for (let depth = 0; depth < 3 && frontier.length > 0; depth += 1) {
    const next: RubyMethod[] = [];
    for (const method of frontier) {
      const text = body(method).replace(/^\s*def\s+\S+/, '');
      const fields = paramsFields(text);
      permitted.push(...fields.permitted);
      read.push(...fields.read);
      for (const callee of methods) {
        if (seen.has(callee.name) || !new RegExp(`(?<![\\w.:@])${callee.name.replace(/[?!=]/g, '\\$&')}(?![\\w:])`).test(text)) continue;
        seen.add(callee.name);
        next.push(callee);
      }
    }
    frontier = next;
  }
  const unique = (names: readonly string[]): string[] => [...new Set(names)].filter((f) => !ROUTING_PARAMS.has(f));
  return { permitted: unique(permitted), read: unique(read).filter((f) => !permitted.includes(f)) };
}

/** What a method reads from `params`: keys a `permit`/`expect` allows, and single reads (which may be path parameters). */
interface ParamsFields {
  readonly permitted: readonly string[];
  readonly read: readonly string[];
}

/**
 * The body keys a method reads from `params`: what `permit(…)` or `expect(…)` allows (top-level
 * keys only), and single reads (`params[:amount]`, `params.fetch(:amount)`, `params.require(:amount)`).
 * @example paramsFields('params.require(:user).permit(:email, address: [:city])') // { permitted: ['email', 'address'], read: [] }
 */
export function paramsFields(text: string): ParamsFields {
  const permitted: string[] = [];
  const read: string[] = [];
  const wrappers = new Set<number>();
  for (const m of text.matchAll(/\bparams\s*(?:\.require\(\s*:?["']?\w+["']?\s*\)|\[\s*:\w+\s*\])?\s*\.(permit|expect)\(/g)) {
    const open = (m.index ?? 0) + m[0].length - 1;
    const args = callText(text, open).slice(1, -1);
    wrappers.add(m.index ?? 0);
    // `params.expect(order: [:amount, :currency])` (Rails 8): the keys inside the one wrapping key.
    const inner = m[1] === 'expect' ? /^\s*\w+:\s*\[([\s\S]*)\]\s*$/.exec(args)?.[1] ?? args : args;
    permitted.push(...topLevelKeys(inner));
  }
  for (const m of text.matchAll(/\bparams\s*(?:\[\s*:(\w+)\s*\]|\.(?:fetch|dig|require)\(\s*:(\w+))/g)) {
    // The wrapping key of a permit (`params.require(:order).permit(…)`) is no field of its own.
    if (wrappers.has(m.index ?? -1)) continue;
    read.push(m[1] ?? m[2] ?? '');
  }
  return { permitted: permitted.filter(Boolean), read: read.filter(Boolean) };
}

/** `:amount, :currency, tag_list: [], address: [:city]` → amount, currency, tag_list, address. */
function topLevelKeys(args: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let start = 0;
  const take = (part: string): void => {
    const key = /^\s*(?::(\w+)|["'](\w+)["']\s*(?:=>|,|$)|(\w+):(?!:)|:?["']?(\w+)["']?\s*=>)/.exec(part);
    if (key) keys.push(key[1] ?? key[2] ?? key[3] ?? key[4] ?? '');
  };
  for (let i = 0; i < args.length; i += 1) {
    const char = args[i] ?? '';
    if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
    else if (char === ',' && depth === 0) {
      take(args.slice(start, i));
      start = i + 1;
    }
  }
  take(args.slice(start));
  return keys.filter(Boolean);
}
