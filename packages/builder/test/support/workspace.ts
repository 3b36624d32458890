/**
 * Temporary workspaces for generated code: written under the repository's .tmp/ (so Node and tsc
 * resolve this repository's node_modules), removed after the test.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Artifact } from '../../src/design/model.js';

export const REPO = resolve(import.meta.dirname, '../../../..');

export function makeWorkspace(label: string): { dir: string; remove: () => void } {
  const base = join(REPO, '.tmp');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, `builder-${label}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function writeArtifacts(dir: string, artifacts: readonly Artifact[]): void {
  for (const artifact of artifacts) {
    const path = join(dir, artifact.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, artifact.content);
  }
}
