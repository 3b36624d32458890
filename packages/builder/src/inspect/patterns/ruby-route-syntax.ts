/**
 * The syntax of a routes.rb file, as far as the route reader needs it: statements with their
 * continuation lines joined, each read as a method call (name, leading symbols and strings,
 * keyword options), and the literal lists and hashes those options hold. ruby-routes.ts gives
 * them the router's meaning.
 */
import { splitAtTopLevel } from '../text-scan.js';

/** One statement of routes.rb, its continuation lines joined, with the line it starts on. */
export interface Statement {
  readonly text: string;
  readonly line: number;
}

/** A statement read as a method call: `resources :orders, only: %i[create], path: 'x' do`. */
export interface RouteCall {
  readonly name: string;
  /** Leading symbols and strings, unquoted (`:orders` → `orders`). */
  readonly positional: readonly string[];
  /** Keyword options as written (`only` → `%i[create]`); a string `=>` target is `to`. */
  readonly options: ReadonlyMap<string, string>;
  readonly opensBlock: boolean;
}

/** A `do` block (`do`, `do |entry, options|`) or a keyword that `end` closes (`if Rails.env.test?`). */
export function opensBlock(text: string): boolean {
  return /\bdo\s*(?:\|[^|]*\|)?\s*$/.test(text) || (/^(?:if|unless|case|while|until|begin|for|def|class|module)\b/.test(text) && !/\bend\s*$/.test(text));
}

/** The names a value lists: `:a`, `'a'`, `[:a, :b]`, `%i[a b]`, `%w[a b]`, `"a#b"`. */
export function names(value: string | undefined): string[] {
  if (value === undefined) return [];
  const words = /^%[iIwW]\s*[[({<]([^\])}>]*)/.exec(value.trim());
  if (words) return (words[1] ?? '').split(/\s+/).filter(Boolean);
  return [...value.matchAll(/:(\w+)|"([^"]*)"|'([^']*)'|\b(true|false)\b/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
}

/** A literal hash `{ sessions: 'users/sessions', "sign_in" => :login }` as key → name. */
export function hashOf(value: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of value.matchAll(/(?:["':]?(\w+)["']?\s*(?::|=>))\s*(:\w+|"[^"]*"|'[^']*')/g)) out.set(m[1] ?? '', names(m[2])[0] ?? '');
  return out;
}

/** Statements with continuation lines joined: a trailing `,` or `\`, or a bracket still open. */
export function statementsOf(code: string): Statement[] {
  const out: Statement[] = [];
  let pending: { text: string; line: number } | undefined;
  code.split('\n').forEach((raw, index) => {
    const text = raw.trim();
    if (!text && !pending) return;
    const joined = pending ? { text: `${pending.text} ${text}`, line: pending.line } : { text, line: index + 1 };
    if (/[,\\]$/.test(joined.text) || bracketDepth(joined.text) > 0) pending = { text: joined.text.replace(/\\$/, ''), line: joined.line };
    else {
      pending = undefined;
      // `;` separates statements on one line (`member do post :cancel end` is rare; `resources :a; resources :b` is not).
      for (const part of splitAtTopLevel(joined.text, ';')) if (part.trim()) out.push({ text: part.trim(), line: joined.line });
    }
  });
  if (pending) out.push(pending);
  return out;
}

function bracketDepth(text: string): number {
  let depth = 0;
  let quote: string | undefined;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
  }
  return depth;
}

/**
 * A statement as a call: its name, leading positional symbols/strings and keyword options.
 * @example parseCall("post 'auth/login' => 'sessions#create'") // { name: 'post', positional: ['auth/login'], options: to → 'sessions#create' }
 */
export function parseCall(text: string): RouteCall | undefined {
  const head = /^([a-z_]\w*)\b\s*\(?\s*/.exec(text);
  if (!head) return undefined;
  const opensBlock = /\bdo\s*(?:\|[^|]*\|)?\s*$/.test(text);
  let rest = text.slice(head[0].length).replace(/\s*\bdo\s*(?:\|[^|]*\|)?\s*$/, '').trim();
  if (head[0].includes('(') && rest.endsWith(')')) rest = rest.slice(0, -1);
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (const raw of splitAtTopLevel(rest, ',')) {
    const arg = raw.trim();
    if (!arg) continue;
    const keyword = /^(?::(\w+)\s*=>|(\w+):(?!:))\s*([\s\S]*)$/.exec(arg);
    const rocket = /^(["'])([^"']*)\1\s*=>\s*([\s\S]*)$/.exec(arg);
    if (keyword) options.set(keyword[1] ?? keyword[2] ?? '', (keyword[3] ?? '').trim());
    else if (rocket) {
      positional.push(rocket[2] ?? '');
      options.set('to', (rocket[3] ?? '').trim());
    } else {
      const value = /^(?::(\w+)|"([^"]*)"|'([^']*)')$/.exec(arg);
      if (value) positional.push(value[1] ?? value[2] ?? value[3] ?? '');
    }
  }
  return { name: head[1] ?? '', positional, options, opensBlock };
}
