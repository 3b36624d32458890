/**
 * generate: answers → design model → rendered document → constraint check → files. The one entry
 * the CLI calls; it fails loudly (DesignConstraintError) rather than write a document that misses
 * one of the seven testable constraints.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Answers } from './answers.js';
import { checkAgainstArtifacts, type TruthViolation } from './check/artifact-claims.js';
import { checkDocument, DesignConstraintError } from './check/index.js';
import { buildDesign } from './design/build-design.js';
import type { DesignModel, KeyDecision } from './design/model.js';
import { emitArtifacts } from './emit/emit-artifacts.js';
import { renderHtml } from './render/html.js';
import { renderMarkdown } from './render/markdown.js';

export interface GenerateOptions {
  readonly format: 'html' | 'md';
  /** Where the document goes; omitted = render and check only. */
  readonly outPath?: string;
  /** Where the code artifacts go; omitted = no code written. */
  readonly codeDir?: string;
  /** Replace existing files. Default false: existing files are kept (code) or refused (document). */
  readonly force?: boolean;
  /** Generation time shown in the footer. */
  readonly now: Date;
}

export interface GenerateResult {
  readonly model: DesignModel;
  /** The rendered document. */
  readonly document: string;
  /** Absolute paths written: the document first, then the code. */
  readonly written: string[];
  /** Code files that existed and were kept. */
  readonly skipped: string[];
  readonly decisions: readonly KeyDecision[];
  /** The short summary of key decisions, one line each (the CLI's closing summary). */
  readonly summary: string[];
}

/**
 * The document exists and force was not given.
 * @example if (error instanceof DocumentExistsError) console.error(error.path);
 */
export class DocumentExistsError extends Error {
  constructor(readonly path: string) {
    super(`${path} already exists; pass force to replace it.`);
    this.name = 'DocumentExistsError';
  }
}

/** The written document says something the code written beside it does not do. */
export class DocumentUntrueError extends Error {
  readonly violations: readonly TruthViolation[];

  constructor(violations: readonly TruthViolation[]) {
    super(`The design document contradicts the code written beside it:\n${violations.map((v) => `- line ${v.line}: ${v.message}`).join('\n')}`);
    this.name = 'DocumentUntrueError';
    this.violations = violations;
  }
}

/**
 * Builds, renders, checks and writes the design.
 * @example
 * const result = await generate(answers, { format: 'html', outPath: 'docs/idempotency-design.html', codeDir: 'idempotency', now: new Date() });
 * result.summary.forEach((line) => console.log(line));
 */
export async function generate(answers: Answers, options: GenerateOptions): Promise<GenerateResult> {
  const { format, outPath, codeDir, force = false, now } = options;
  const model = buildDesign(answers, { generatedAt: now });
  const document = format === 'html' ? await renderHtml(model) : renderMarkdown(model);
  const violations = checkDocument(document, format);
  if (violations.length > 0) throw new DesignConstraintError(violations);

  const written: string[] = [];
  if (outPath) {
    const path = resolve(outPath);
    mkdirSync(dirname(path), { recursive: true });
    try {
      writeFileSync(path, document, { flag: force ? 'w' : 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new DocumentExistsError(path);
      throw error;
    }
    written.push(path);
  }
  const emitted = codeDir ? emitArtifacts(model, codeDir, { force }) : { written: [], skipped: [] };
  written.push(...emitted.written);
  // The document must be true of the code written beside it (the same check `check` runs). Files
  // kept unchanged from an earlier run may legitimately differ, so only a fresh write is checked.
  if (codeDir && emitted.skipped.length === 0) {
    const untrue = checkAgainstArtifacts(document, format, codeDir);
    if (untrue.length > 0) throw new DocumentUntrueError(untrue);
  }

  const summary = model.decisions.map((decision) => `${decision.label}: ${decision.value}`);
  const assumptions = Object.values(answers.provenance).filter((p) => p.source === 'assumption').length;
  if (assumptions > 0) summary.push(`Assumptions: ${assumptions} answer(s) assumed — listed under “Inputs and assumptions”; confirm them.`);
  if (emitted.skipped.length > 0) summary.push(`Kept ${emitted.skipped.length} existing file(s) unchanged (pass --force to replace them).`);
  return { model, document, written, skipped: emitted.skipped, decisions: model.decisions, summary };
}
