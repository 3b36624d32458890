/**
 * The CLI end to end, as a user runs it: `tsx src/cli/main.ts design <copy of a fixture>` in a
 * child process. It must write the document and the code, refuse to overwrite without --force,
 * never wait for input without a terminal, reject bad answers files with the field path, and
 * `check` must fail on a doctored document.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** The builder package, and the repository whose node_modules holds tsx. */
const root = join(import.meta.dirname, '..');
const repo = join(root, '..', '..');
const tsx = join(repo, 'node_modules', '.bin', 'tsx');
const work = mkdtempSync(join(tmpdir(), 'builder-cli-'));
/** Each run is a fresh Node process that renders a document: allow for a loaded two-core machine. */
const SLOW = { timeout: 240_000 };
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs the CLI with stdin detached (no terminal), killing it if it outlives `timeoutMs`. */
function cli(args: readonly string[], timeoutMs = 90_000): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [join(root, 'src', 'cli', 'main.ts'), ...args], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not finish within ${timeoutMs} ms (it must never wait for input):\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

function copyFixture(name: string): string {
  const target = join(work, name);
  cpSync(join(root, 'test', 'fixtures', name), target, { recursive: true });
  return target;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('idempotency-builder CLI', () => {
  it('design --yes writes the HTML document and the code, shows findings with path:line, ends with key decisions', SLOW, async () => {
    const project = copyFixture('express-postgres-stripe');
    const run = await cli(['design', project, '--yes']);
    expect(run.stderr + run.stdout).not.toMatch(/Design failed/);
    expect(run.code).toBe(0);
    const document = join(project, 'docs', 'idempotency-design.html');
    expect(existsSync(document)).toBe(true);
    const html = readFileSync(document, 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('createPayment');
    expect(filesUnder(join(project, 'idempotency')).length).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/POST \/payments\s+express\s+src\/routes\/payments\.ts:7/);
    expect(run.stdout).toMatch(/Key decisions\n(\s+• .+\n)+/);

    // A second run must not touch the user's files.
    const before = statSync(document).mtimeMs;
    const again = await cli(['design', project, '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/idempotency-design\.html already exists.*--force/s);
    expect(statSync(document).mtimeMs).toBe(before);


    // check passes on the generated document and fails on a doctored one.
    const ok = await cli(['check', document]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/meets all seven testable constraints/);
    const doctored = join(work, 'doctored.html');
    writeFileSync(doctored, html.replace(/PRIMARY KEY/gi, 'UNIQUE').replace(/CHECK\s*\(/gi, '('));
    const bad = await cli(['check', doctored]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/violates \d+ constraint/);
    expect(bad.stdout).toMatch(/PRIMARY KEY|CHECK/);
  });

  it('without a terminal and without --yes it asks nothing, never hangs, and states its assumptions', SLOW, async () => {
    const project = copyFixture('fastapi-postgres-paypal');
    const run = await cli(['design', project], 60_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/POST \/orders\s+fastapi\s+app\/routers\/orders\.py:10/);
    expect(run.stdout).not.toMatch(/Question \d/);
    expect(existsSync(join(project, 'docs', 'idempotency-design.html'))).toBe(true);
  });

  it('--answers with --format md, --out and --no-code on an empty project writes an agnostic Markdown document only; --force replaces it', SLOW, async () => {
    const project = copyFixture('empty');
    const answers = join(work, 'answers.yaml');
    writeFileSync(answers, 'retentionMs: 48h\nconcurrency: single-server\n');
    const out = join(work, 'design-empty.md');
    const run = await cli(['design', project, '--yes', '--answers', answers, '--format', 'md', '--out', out, '--no-code']);
    expect(run.code).toBe(0);
    const markdown = readFileSync(out, 'utf8');
    expect(markdown).toMatch(/^# /m);
    expect(markdown).toMatch(/PostgreSQL/);
    expect(markdown).toMatch(/agnostic/i);
    expect(existsSync(join(project, 'idempotency'))).toBe(false);
    expect(existsSync(join(project, 'docs'))).toBe(false);

    // --out is protected the same way; --force replaces it.
    writeFileSync(out, 'my notes');
    const refused = await cli(['design', project, '--yes', '--format', 'md', '--out', out, '--no-code']);
    expect(refused.code).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe('my notes');
    const forced = await cli(['design', project, '--yes', '--format', 'md', '--out', out, '--no-code', '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/PostgreSQL/);
  });

  it('rejects an invalid answers file with the field path, and a bad --format, before writing anything', SLOW, async () => {
    const project = copyFixture('go-redis');
    const answers = join(work, 'bad-answers.yaml');
    writeFileSync(answers, 'stack:\n  database: oracle\nretentionMs: soon\n');
    const run = await cli(['design', project, '--yes', '--answers', answers]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('bad-answers.yaml');
    expect(run.stderr).toMatch(/stack\.database: Invalid option/);
    expect(run.stderr).toMatch(/retentionMs: "soon" is not a positive duration/);
    const format = await cli(['design', project, '--yes', '--format', 'pdf']);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/--format must be html or md/);
    expect(existsSync(join(project, 'docs'))).toBe(false);
  });
});
