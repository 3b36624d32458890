/**
 * Measures a design document as a reader meets it: renders it with the real CLI (`design … --yes`),
 * opens the HTML in headless Chromium at 1280 px and prints its height, prose and code word counts,
 * minutes to read (prose at 230 words a minute; code is counted, not timed) and the share of
 * repeated sentences. `measureDocument` is also what the length test asserts on.
 *
 *   tsx packages/builder/scripts/doc-stats.ts examples/payments-api
 *   tsx packages/builder/scripts/doc-stats.ts --answers packages/builder/test/answers/marketplace-12-actions.json
 *   tsx packages/builder/scripts/doc-stats.ts --html some/idempotency-design.html [--shot first-screen.png]
 *   --keep leaves the rendered files and prints where; --json prints the figures as JSON.
 *   --cli PATH runs another build of the CLI (e.g. an older dist/cli/main.js) instead of src/cli/main.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
export const WORDS_PER_MINUTE = 230;
const BUILDER = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface DocumentStats {
  /** document.documentElement.scrollHeight at a 1280 × 800 viewport, px. */
  readonly heightPx: number;
  /** Words a reader reads: headings, paragraphs, lists, tables, callouts, captions, fold summaries — not code, not diagrams, not folded text. */
  readonly proseWords: number;
  /** Prose folded behind a closed `<details>` (the runbook's procedures, the error table): reference, counted apart. */
  readonly foldedWords: number;
  /** Words inside code blocks (`pre`), open or collapsed. */
  readonly codeWords: number;
  /** proseWords / 230, one decimal. */
  readonly minutes: number;
  /** Sentences of four words or more. */
  readonly sentences: number;
  /** Of those, the ones that repeat an earlier sentence verbatim (case and spacing ignored). */
  readonly repeatedSentences: number;
  /** repeatedSentences / sentences. */
  readonly repeatedShare: number;
  /** The most repeated sentences, for finding what to cut. */
  readonly topRepeats: readonly { readonly sentence: string; readonly count: number }[];
}

interface PageText {
  readonly heightPx: number;
  readonly prose: readonly string[];
  readonly folded: readonly string[];
  readonly code: readonly string[];
}

const words = (text: string): number => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * Sentence statistics of the prose units (each block's text, split after `.`, `!`, `?`).
 * @example sentenceStats(['A b c d. A b c d.']).repeated // 1
 */
export function sentenceStats(units: readonly string[]): { total: number; repeated: number; top: { sentence: string; count: number }[] } {
  const seen = new Map<string, number>();
  let total = 0;
  let repeated = 0;
  for (const unit of units) {
    for (const raw of unit.split(/(?<=[.!?])\s+(?=[A-Z0-9`"(])/)) {
      const sentence = raw.replace(/\s+/g, ' ').trim().toLowerCase();
      if (words(sentence) < 4) continue;
      total += 1;
      const count = (seen.get(sentence) ?? 0) + 1;
      seen.set(sentence, count);
      if (count > 1) repeated += 1;
    }
  }
  const top = [...seen].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1]).slice(0, 12).map(([sentence, count]) => ({ sentence, count }));
  return { total, repeated, top };
}

/** Reads the page: height, then the text of every leaf block of <main>, prose and code apart. */
async function readPage(browser: Browser, file: string, shot?: string): Promise<PageText> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(`file://${file}`);
    if (shot) await page.screenshot({ path: shot, type: 'png' });
    return await page.evaluate(() => {
      const main = document.querySelector('main') ?? document.body;
      const code = Array.from(main.querySelectorAll('pre')).map((pre) => pre.textContent ?? '');
      const leaf = 'h1, h2, h3, h4, h5, h6, p, li, th, td, caption, figcaption, summary, dt, dd';
      const leaves = Array.from(main.querySelectorAll(leaf)).filter((el) => !el.closest('pre, svg') && !el.querySelector(leaf));
      // A summary is read; what it folds is not, until opened. (No named helpers in here: the
      // function is serialised into the page, and tsx's name-keeping wrapper does not exist there.)
      const folded = leaves.map((el) => el.tagName !== 'SUMMARY' && el.closest('details:not([open])') !== null);
      const prose = leaves.filter((_el, i) => !folded[i]).map((el) => el.textContent ?? '');
      const reference = leaves.filter((_el, i) => folded[i]).map((el) => el.textContent ?? '');
      const header = document.querySelector('header')?.textContent ?? '';
      return { heightPx: document.documentElement.scrollHeight, prose: [header, ...prose], folded: reference, code };
    });
  } finally {
    await page.close();
  }
}

/**
 * Measures one rendered HTML document.
 * @example const stats = await measureDocument(browser, '/tmp/idempotency-design.html'); stats.proseWords
 */
export async function measureDocument(browser: Browser, file: string, shot?: string): Promise<DocumentStats> {
  const text = await readPage(browser, file, shot);
  const proseWords = text.prose.reduce((sum, unit) => sum + words(unit), 0);
  const codeWords = text.code.reduce((sum, unit) => sum + words(unit), 0);
  // Repetition is judged over all text, folded or not: folding must not hide a repeat.
  const sentences = sentenceStats([...text.prose, ...text.folded]);
  return {
    heightPx: text.heightPx,
    proseWords,
    foldedWords: text.folded.reduce((sum, unit) => sum + words(unit), 0),
    codeWords,
    minutes: Math.round((proseWords / WORDS_PER_MINUTE) * 10) / 10,
    sentences: sentences.total,
    repeatedSentences: sentences.repeated,
    repeatedShare: sentences.total === 0 ? 0 : sentences.repeated / sentences.total,
    topRepeats: sentences.top,
  };
}

/**
 * Renders the document with the CLI into a temporary folder and returns the HTML file's path.
 * `projectDir` is inspected; with `answersFile` an empty folder is, so the answers are the design.
 */
export function renderWithCli({ projectDir, answersFile, cli }: { projectDir?: string; answersFile?: string; cli?: string }): { file: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'doc-stats-'));
  const project = projectDir ? resolve(projectDir) : join(dir, 'project');
  if (!projectDir) mkdirSync(project);
  const file = join(dir, 'idempotency-design.html');
  const entry = cli ? resolve(cli) : join(BUILDER, 'src/cli/main.ts');
  const runner = entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry];
  const args = [...runner, 'design', project, '--yes', '--force', '--out', file, '--code', join(dir, 'code'), ...(answersFile ? ['--answers', resolve(answersFile)] : [])];
  execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: BUILDER });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function option(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

async function main(argv: readonly string[]): Promise<void> {
  const html = option(argv, '--html');
  const answersFile = option(argv, '--answers');
  const shot = option(argv, '--shot');
  const cli = option(argv, '--cli');
  const projectDir = argv.find((arg, i) => !arg.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  if (!html && !answersFile && !projectDir) throw new Error('usage: doc-stats.ts [PROJECT_DIR] [--answers FILE] [--html FILE] [--cli PATH] [--shot PNG] [--json]');
  const rendered = html ? undefined : renderWithCli({ ...(projectDir ? { projectDir } : {}), ...(answersFile ? { answersFile } : {}), ...(cli ? { cli } : {}) });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const stats = await measureDocument(browser, html ? resolve(html) : (rendered as { file: string }).file, shot ? resolve(shot) : undefined);
    if (argv.includes('--json')) {
      process.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
      return;
    }
    const lines = [
      `height at 1280 px   ${stats.heightPx} px`,
      `prose words         ${stats.proseWords} (open; folded reference: ${stats.foldedWords} more)`,
      `code words          ${stats.codeWords} (not timed)`,
      `minutes to read     ${stats.minutes} (prose at ${WORDS_PER_MINUTE} words/min)`,
      `repeated sentences  ${stats.repeatedSentences} of ${stats.sentences} (${(stats.repeatedShare * 100).toFixed(1)} %)`,
      ...stats.topRepeats.map((r) => `  ×${r.count}  ${r.sentence.slice(0, 140)}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (argv.includes('--keep') && rendered) process.stdout.write(`kept               ${rendered.file}\n`);
    else rendered?.remove();
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  });
}
