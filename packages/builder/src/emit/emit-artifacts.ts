/**
 * Writes the code artifacts as real files. An existing file is never overwritten unless `force`:
 * it is kept and reported, so a user's edits survive a second run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import type { Answers } from '../answers.js';
import { buildDesign } from '../design/build-design.js';
import type { DesignModel } from '../design/model.js';

export interface EmitOptions {
  /** Replace files that already exist. Default false. */
  readonly force?: boolean;
}

export interface EmitResult {
  /** Absolute paths written. */
  readonly written: string[];
  /** Absolute paths that existed and were left untouched. */
  readonly skipped: string[];
}

const isModel = (value: DesignModel | Answers): value is DesignModel => 'artifacts' in value && 'sections' in value;

/**
 * Writes every artifact of the model (or of the design built from `answers`) under `dir`.
 * @example const { written, skipped } = emitArtifacts(model, 'idempotency', { force: false });
 */
export function emitArtifacts(source: DesignModel | Answers, dir: string, { force = false }: EmitOptions = {}): EmitResult {
  const model = isModel(source) ? source : buildDesign(source, { generatedAt: new Date() });
  const root = resolve(dir);
  const written: string[] = [];
  const skipped: string[] = [];
  for (const artifact of model.artifacts) {
    const path = resolve(root, artifact.path);
    const inside = relative(root, path);
    if (inside.startsWith('..') || inside.startsWith(sep) || inside === '') {
      throw new Error(`Refusing to write ${artifact.path}: it resolves outside ${root}.`);
    }
    mkdirSync(dirname(path), { recursive: true });
    try {
      // 'wx' fails if the file exists — atomic, so a file created meanwhile is never clobbered.
      writeFileSync(path, artifact.content, { flag: force ? 'w' : 'wx' });
      written.push(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      skipped.push(path);
    }
  }
  return { written, skipped };
}
