/**
 * `checkDocument`: verifies the method's seven testable constraints on a generated design
 * document (HTML or Markdown) and returns every violation — `idempotency-builder check FILE`.
 */
import { checkTree, CONSTRAINTS, type ConstraintId, type Violation } from './constraints.js';
import { htmlTree, markdownTree } from './document-tree.js';

export { CONSTRAINTS, type ConstraintId, type Violation };

/**
 * The constraint violations of a document; an empty list means all seven hold.
 * @example
 * const violations = checkDocument(readFileSync('docs/idempotency-design.html', 'utf8'), 'html');
 * for (const v of violations) console.log(v.constraint, v.message);
 */
export function checkDocument(text: string, format: 'html' | 'md'): Violation[] {
  return checkTree(format === 'html' ? htmlTree(text) : markdownTree(text));
}

/**
 * Thrown by generation when a document it produced misses a constraint: never written silently.
 * @example throw new DesignConstraintError(checkDocument(text, 'html'));
 */
export class DesignConstraintError extends Error {
  readonly violations: readonly Violation[];

  constructor(violations: readonly Violation[]) {
    super(`The generated design document violates ${violations.length} testable constraint(s):\n${violations.map((v) => `- ${v.constraint}: ${v.message}`).join('\n')}`);
    this.name = 'DesignConstraintError';
    this.violations = violations;
  }
}
