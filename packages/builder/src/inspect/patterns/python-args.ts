/**
 * Reading Python call arguments and dict literals as text: top-level splitting (brackets and
 * strings respected), keyword lookup, and the `{ … }` literal around a position. Shared by the
 * Celery and scheduler scanners, which read decorator options and beat entries.
 */

/**
 * Splits an argument list (without its outer parentheses) at top-level commas.
 * @example splitArgs('10.0, add.s(1, 2), name="x"') // ['10.0', 'add.s(1, 2)', 'name="x"']
 */
export function splitArgs(inner: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < inner.length; i += 1) {
    const char = inner[i] as string;
    if (quote) {
      if (char === '\\') i += 1;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
    else if (char === ',' && depth === 0) {
      out.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = inner.slice(start).trim();
  if (last) out.push(last);
  return out;
}

/** The arguments inside a call's text (`f(a, b=1)` → `a, b=1`), comments dropped. */
export function argsOf(call: string): string[] {
  const open = call.indexOf('(');
  const inner = open < 0 ? '' : call.slice(open + 1, call.endsWith(')') ? -1 : undefined);
  return splitArgs(inner.replace(/#[^\n]*/g, ''));
}

/**
 * The value of keyword `name` among split arguments, as written.
 * @example keyword(['x', 'acks_late=True'], 'acks_late') // 'True'
 */
export function keyword(args: readonly string[], name: string): string | undefined {
  const found = args.find((a) => new RegExp(`^${name}\\s*=(?!=)`).test(a));
  return found?.slice(found.indexOf('=') + 1).trim();
}

/** Positional arguments (no `name=`), in order. */
export function positional(args: readonly string[]): string[] {
  return args.filter((a) => !/^\w+\s*=(?!=)/.test(a) && !a.startsWith('*'));
}

/** `"x"` / `'x'` → `x`; anything else undefined. */
export function stringLiteral(expr: string | undefined): string | undefined {
  return expr ? /^[rbf]?["']([^"']*)["']$/.exec(expr.trim())?.[1] : undefined;
}

/**
 * Start and end offsets of the innermost `{ … }` literal that contains `at`, when there is one.
 * @example enclosingBraces('x = {"a": {"task": "t"}}', 12) // the inner dict's offsets
 */
export function enclosingBraces(text: string, at: number): { open: number; close: number } | undefined {
  let depth = 0;
  let open = -1;
  for (let i = at; i >= 0; i -= 1) {
    const char = text[i];
    if (char === '}') depth += 1;
    else if (char === '{') {
      if (depth === 0) {
        open = i;
        break;
      }
      depth -= 1;
    }
  }
  if (open < 0) return undefined;
  depth = 0;
  for (let i = open; i < text.length; i += 1) {
    const char = text[i];
    if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return { open, close: i };
    }
  }
  return undefined;
}

/**
 * The value of `"key": value` at the top level of a dict literal's text (`{` … `}` included).
 * @example dictValue('{"task": "a.b", "schedule": crontab(minute=0)}', 'schedule') // 'crontab(minute=0)'
 */
export function dictValue(dict: string, key: string): string | undefined {
  const inner = dict.trim().replace(/^\{/, '').replace(/\}$/, '');
  for (const part of splitArgs(inner.replace(/#[^\n]*/g, ''))) {
    const m = new RegExp(`^["']${key}["']\\s*:\\s*([\\s\\S]+)$`).exec(part);
    if (m) return (m[1] ?? '').trim();
  }
  return undefined;
}

/** Whitespace collapsed, for showing an expression on one line. */
export function oneLine(expr: string, max = 120): string {
  const flat = expr.replace(/\s+/g, ' ').replace(/\(\s+/g, '(').replace(/,?\s+\)/g, ')').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * An expression cut from a line, without the comma or closing parenthesis of an enclosing call.
 * @example balanced('BEAT)') // 'BEAT' (from `app.conf.update(beat_schedule=BEAT)`)
 */
export function balanced(expr: string): string {
  let out = expr.trim().replace(/,\s*$/, '');
  while (out.endsWith(')') && (out.match(/\)/g) ?? []).length > (out.match(/\(/g) ?? []).length) out = out.slice(0, -1).trim();
  return out.replace(/,\s*$/, '');
}
