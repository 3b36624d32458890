/**
 * The code blocks of the README and docs (each package's docs/, shipped with it), as a reader would paste them: every ```ts block is a
 * module of its own, type-checked against the built packages, and the ones marked
 * `<!-- snippet: run -->` are run. A block that is deliberately not a program says why with
 * `<!-- snippet: skip (reason) -->` on the line before it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface Snippet {
  /** `docs/http.md:42` — the line of the opening fence. */
  readonly origin: string;
  readonly code: string;
  readonly run: boolean;
}

export interface SkippedSnippet {
  readonly origin: string;
  readonly reason: string;
}

const FENCE = /^```(ts|typescript)\s*$/;
const MARKER = /^<!--\s*snippet:\s*(run|skip)\s*(?:\((.+)\))?\s*-->\s*$/;

/** README.md, each package's README and every page under each package's docs/. */
export function documentationFiles(root: string): string[] {
  const files = [join(root, 'README.md')];
  for (const pkg of readdirSync(join(root, 'packages'))) files.push(join(root, 'packages', pkg, 'README.md'));
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.md')) files.push(join(dir, entry.name));
    }
  };
  for (const pkg of readdirSync(join(root, 'packages'))) {
    const docs = join(root, 'packages', pkg, 'docs');
    if (existsSync(docs)) walk(docs);
  }
  return files.filter((file) => {
    try {
      readFileSync(file);
      return true;
    } catch {
      return false;
    }
  });
}

/** The TypeScript blocks of one Markdown file, with their markers. */
export function extractSnippets(root: string, file: string): { snippets: Snippet[]; skipped: SkippedSnippet[] } {
  const lines = readFileSync(file, 'utf8').split('\n');
  const snippets: Snippet[] = [];
  const skipped: SkippedSnippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i]!)) continue;
    const origin = `${relative(root, file)}:${i + 1}`;
    const marker = MARKER.exec(lines[i - 1] ?? '') ?? MARKER.exec(lines[i - 2] ?? '');
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    const code = lines.slice(start, end).join('\n');
    i = end;
    if (marker?.[1] === 'skip') {
      if (!marker[2]) throw new Error(`${origin}: "snippet: skip" needs a reason in parentheses.`);
      skipped.push({ origin, reason: marker[2] });
      continue;
    }
    snippets.push({ origin, code, run: marker?.[1] === 'run' });
  }
  return { snippets, skipped };
}

/** Every relative link of one Markdown file whose target does not exist, as `file:line → target`. */
export function brokenLinks(root: string, file: string): string[] {
  const broken: string[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)) {
      const target = match[1]!;
      if (/^[a-z]+:/i.test(target) || target.startsWith('/')) continue;
      if (!existsSync(join(file, '..', target))) broken.push(`${relative(root, file)}:${index + 1} → ${target}`);
    }
  });
  return broken;
}
