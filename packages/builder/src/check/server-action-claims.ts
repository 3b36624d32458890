/**
 * What a design document says of Next.js server actions, against server-actions.ts beside it: the
 * actions it says are wrapped, the runtime function that wraps them, and the form field the page
 * must send the key in. A document edited to name another field, or code regenerated without an
 * action, would tell the page to do something the wrapper does not read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocBlock } from './document-tree.js';

export interface ServerActionViolation {
  readonly check: 'server-action';
  readonly line: number;
  readonly message: string;
}

const WRAPPED = /^(.+?) (?:is a server action|are server actions): .*wraps each one with the runtime's `?makeIdempotent`? \(`?@idempotency-builder\/runtime\/functions`?\)/;
const KEY_FIELD = /<input type="hidden" name="([^"]+)"/;

/**
 * Violations of the server-action statements, or none when the document makes none.
 * @example serverActionViolations(blocks, 'idempotency', files, raw) // [] for a generated pair
 */
export function serverActionViolations(blocks: readonly DocBlock[], codeDir: string, files: readonly string[], raw: string, lineOf: (raw: string, needle: string) => number): ServerActionViolation[] {
  const file = files.includes('server-actions.ts') ? readFileSync(join(codeDir, 'server-actions.ts'), 'utf8') : undefined;
  const out: ServerActionViolation[] = [];
  for (const block of blocks) {
    if (block.kind !== 'text' && block.kind !== 'row') continue;
    for (const text of block.kind === 'text' ? [block.text] : block.cells) {
      const wrapped = WRAPPED.exec(text);
      const field = KEY_FIELD.exec(text);
      if (!wrapped && !field) continue;
      const line = lineOf(raw, wrapped ? 'wraps each one with the runtime' : field?.[0] ?? '');
      if (file === undefined) {
        out.push({ check: 'server-action', line, message: 'The document describes server-actions.ts, but the code directory has none.' });
        continue;
      }
      if (wrapped) {
        if (!file.includes("import { makeIdempotent } from '@idempotency-builder/runtime/functions';")) {
          out.push({ check: 'server-action', line, message: "The document says server actions are wrapped with makeIdempotent, but server-actions.ts does not import it from '@idempotency-builder/runtime/functions'." });
        }
        const union = /export type ServerAction = ([^;]+);/.exec(file)?.[1] ?? '';
        for (const name of (wrapped[1] ?? '').split(/,\s*/)) {
          if (!union.includes(JSON.stringify(name))) out.push({ check: 'server-action', line, message: `The document says ${name} is a wrapped server action, but server-actions.ts does not list it.` });
        }
      }
      if (field && !file.includes(`export const KEY_FIELD = ${JSON.stringify(field[1])};`)) {
        out.push({ check: 'server-action', line, message: `The document tells the page to send the key in the form field ${field[1]}, but server-actions.ts reads another.` });
      }
    }
  }
  return out;
}
