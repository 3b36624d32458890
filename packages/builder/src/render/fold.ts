/** Which blocks fold behind a summary (`<details>`) in both renderers: reference material and long code. */
import type { Block } from '../design/model.js';

/**
 * Code blocks longer than this fold by default: a reader scans the design and opens the full
 * statement or file when needed (print unfolds everything).
 */
export const FOLD_LINES = 15;

/**
 * The summary a block folds behind, if it folds: its own, or `Show all N lines` for long code.
 * @example foldSummary({ kind: 'code', language: 'sql', code: 'SELECT 1' }) // undefined
 */
export function foldSummary(item: Block): string | undefined {
  if (item.kind !== 'code' && item.kind !== 'table' && item.kind !== 'list') return undefined;
  if (item.collapsed) return item.collapsed;
  const lines = item.kind === 'code' ? item.code.split('\n').length : 0;
  return lines > FOLD_LINES ? `Show all ${lines} lines` : undefined;
}
