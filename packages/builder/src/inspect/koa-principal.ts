/**
 * Where a Koa app's handlers read the authenticated principal: Koa's auth middleware (koa-jwt,
 * koa-passport, the app's own) puts the user on `ctx.state`, so the handlers read
 * `ctx.state.user.id` or `const { user } = ctx.state; … user.email`. The generated middleware
 * scopes keys by what the code reads; when the handlers read none, the design states its assumption.
 */
import { formatLocation } from './location.js';
import { maskComments } from './patterns/code-mask.js';
import type { EndpointFinding, TechFinding } from './types.js';

/** Fields that identify a principal, most telling first: an id beats an e-mail address, which beats a name. */
const IDENTITY = ['id', '_id', 'uuid', 'userId', 'user_id', 'sub', 'email', 'username'];
/** What auth middleware calls the principal it puts on `ctx.state`. */
const HOLDER = /^(user|currentUser|account|auth|session|principal|member|me)$/;

interface Read {
  readonly expression: string;
  readonly location: string;
  readonly rank: number;
}

/** Every `ctx.state.<holder>.<field>` read in one handler's lines, directly or through a destructured holder. */
function readsIn(file: string, lines: readonly string[], start: number): Read[] {
  const out: Read[] = [];
  const add = (holder: string, field: string, line: number): void => {
    const rank = IDENTITY.indexOf(field);
    if (HOLDER.test(holder) && rank >= 0) out.push({ expression: `ctx.state.${holder}.${field}`, location: formatLocation(file, start + line), rank });
  };
  // `const { user } = ctx.state` / `const { user: me } = ctx.state`: the local name stands for the holder.
  const locals = new Map<string, string>();
  lines.forEach((text, line) => {
    for (const m of text.matchAll(/\bctx\.state\.(\w+)\??\.(\w+)\b/g)) add(m[1] ?? '', m[2] ?? '', line);
    const destructured = /\{([^}]*)\}\s*=\s*ctx\.state\b/.exec(text)?.[1];
    for (const part of destructured?.split(',') ?? []) {
      const [holder, local] = part.split(':').map((s) => s.trim());
      if (holder && /^\w+$/.test(holder)) locals.set(local && /^\w+$/.test(local) ? local : holder, holder);
    }
    for (const [local, holder] of locals) {
      for (const m of text.matchAll(new RegExp(`(?<![\\w.])${local}\\??\\.(\\w+)\\b`, 'g'))) add(holder, m[1] ?? '', line);
    }
  });
  return out;
}

/**
 * The principal Koa handlers read, the most telling identity field first (then the most read),
 * with where it is first read; undefined when no handler reads one.
 * @example koaPrincipal(endpoints, read) // { value: 'ctx.state.user.email', location: 'src/controller/user.ts:164', … }
 */
export function koaPrincipal(endpoints: readonly EndpointFinding[], read: (relPath: string) => string | undefined): TechFinding<string> | undefined {
  const reads: Read[] = [];
  const seen = new Set<string>();
  for (const endpoint of endpoints) {
    if (endpoint.framework !== 'koa' || !endpoint.span) continue;
    const file = endpoint.span.file ?? endpoint.location.replace(/:\d+$/, '');
    const key = `${file}:${endpoint.span.start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // Comments are masked in place (lines keep their numbers): a commented-out read is no read.
    const lines = maskComments(read(file) ?? '', file).split('\n').slice(endpoint.span.start - 1, endpoint.span.end);
    reads.push(...readsIn(file, lines, endpoint.span.start));
  }
  const counts = new Map<string, number>();
  for (const r of reads) counts.set(r.expression, (counts.get(r.expression) ?? 0) + 1);
  const best = [...reads].sort((a, b) => a.rank - b.rank || (counts.get(b.expression) ?? 0) - (counts.get(a.expression) ?? 0))[0];
  return best && { value: best.expression, location: best.location, evidence: `${counts.get(best.expression)} read(s) of ${best.expression} in the handlers` };
}
