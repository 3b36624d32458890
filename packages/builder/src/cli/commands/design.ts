/**
 * `idempotency-builder design [dir]`: format first, inspect, ask only what is open (or nothing,
 * without a terminal), then write the design document and the code, and end with the key
 * decisions. Refuses to overwrite an existing document unless `--force`.
 */
import { statSync } from 'node:fs';
import { intro } from '@clack/prompts';
import type { Command } from 'commander';
import pc from 'picocolors';
import { AnswersFileError, loadAnswersFile, type PartialAnswers } from '../../answers-file.js';
import { PromptCancelledError } from '../../questions/prompt-port.js';
import { createProgress, type Progress } from '../progress.js';
import { assertWritable, defaultCodeDir, defaultOutPath, displayPath, RefusedOverwriteError, resolvePath } from '../output-paths.js';

export interface DesignOptions {
  readonly format?: 'html' | 'md';
  readonly out?: string;
  readonly answers?: string;
  readonly yes?: boolean;
  /** A folder (`--code DIR`), false (`--no-code`) or undefined (default folder). */
  readonly code?: string | boolean;
  readonly force?: boolean;
}

const println = (text = ''): void => {
  process.stdout.write(`${text}\n`);
};
const eprintln = (text: string): void => {
  process.stderr.write(`${text}\n`);
};

/**
 * Only a real terminal on both ends gets questions; pipes, CI and `--yes` never wait for input.
 * @example isInteractive(false) // true in a terminal, false under `cmd < /dev/null`
 */
export function isInteractive(yes: boolean | undefined): boolean {
  return !yes && process.stdin.isTTY === true && process.stdout.isTTY === true;
}

function projectDir(dirArg: string | undefined): string {
  const dir = resolvePath(dirArg ?? '.');
  const isDir = statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  if (!isDir) throw new UsageError(`${dirArg ?? '.'} is not a directory.`);
  return dir;
}

/** A mistake in how the command was called (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Runs the design command and returns the process exit code.
 * @example process.exitCode = await runDesign('.', { yes: true, format: 'md' });
 */
export async function runDesign(dirArg: string | undefined, options: DesignOptions): Promise<number> {
  let generation: typeof import('../../generate.js') | undefined;
  let progress: Progress | undefined;
  try {
    const dir = projectDir(dirArg);
    const interactive = isInteractive(options.yes);
    const fileName = options.answers ? resolvePath(options.answers) : undefined;
    const file: PartialAnswers = fileName ? loadAnswersFile(fileName) : {};
    const codeDir = options.code === false ? undefined : typeof options.code === 'string' ? resolvePath(options.code) : defaultCodeDir(dir);
    // Loaded on use, after the cheap checks: the renderer and the compiler API are heavy.
    const [loaded, { inspectCodebase }, { collectAnswers, createClackPrompts }] = await Promise.all([
      import('../../generate.js'),
      import('../../inspect/index.js'),
      import('../../questions/index.js'),
    ]);
    generation = loaded;
    progress = createProgress(interactive);
    const steps = progress;
    if (interactive) intro(pc.inverse(' idempotency-builder '));
    const prompts = interactive ? createClackPrompts() : undefined;
    let outPath = options.out ? resolvePath(options.out) : undefined;

    const { answers, inspection } = await collectAnswers({
      ...(prompts ? { prompts } : {}),
      file,
      ...(fileName ? { fileName: displayPath(fileName) } : {}),
      ...(options.format ? { format: options.format } : {}),
      // Before any inspection or question: a refusal must cost the user nothing.
      onFormat: (format) => {
        outPath ??= defaultOutPath(dir, format);
        assertWritable(outPath, options.force === true);
      },
      inspect: async () => {
        steps.start(`Inspecting ${displayPath(dir) || '.'}`);
        const result = await inspectCodebase(dir, { excludeDirs: codeDir ? [codeDir] : [] });
        steps.stop(`Inspected ${result.filesScanned} file(s): ${result.endpoints.length} mutating endpoint(s), ${result.consumers.length} consumer(s), ${result.schedulers.length} scheduled job(s), ${result.paymentCalls.length} payment call(s)`);
        return result;
      },
      log: (text) => println(text),
    });

    const documentPath = outPath ?? defaultOutPath(dir, answers.format);
    progress.start('Writing the design document and code');
    const result = await loaded.generate(answers, { format: answers.format, outPath: documentPath, codeDir, force: options.force === true, now: new Date() });
    progress.stop(`Wrote ${result.written.length} file(s)`);

    println();
    println(pc.bold(`Idempotency design for ${answers.projectName ?? displayPath(inspection.dir)}`));
    println(`  document  ${displayPath(documentPath)}`);
    const code = result.written.filter((path) => path !== documentPath);
    if (code.length > 0) println(`  code      ${code.length} file(s) under ${displayPath(codeDir ?? dir)}`);
    println();
    println(pc.bold('Key decisions'));
    for (const line of result.summary) println(`  • ${line}`);
    return 0;
  } catch (error) {
    progress?.fail('Stopped');
    if (error instanceof PromptCancelledError) {
      eprintln(error.message);
      return 130;
    }
    if (error instanceof AnswersFileError || error instanceof UsageError) {
      eprintln(pc.red(error.message));
      return 2;
    }
    if (error instanceof RefusedOverwriteError) {
      eprintln(pc.red(error.message));
      return 1;
    }
    if (generation && error instanceof generation.DocumentExistsError) {
      // Appeared between the early check and the write (another process): still never overwritten.
      eprintln(pc.red(new RefusedOverwriteError(error.path).message));
      return 1;
    }
    eprintln(pc.red(`Design failed: ${(error as Error).message}`));
    return 1;
  }
}

/**
 * Registers `design` on the program.
 * @example registerDesignCommand(new Command('idempotency-builder'));
 */
export function registerDesignCommand(program: Command): void {
  program
    .command('design')
    .description('inspect a codebase, ask only what the code cannot answer, and write the idempotency design document and code')
    .argument('[dir]', 'the project to design for', '.')
    .option('--format <format>', 'document format: html (default) or md')
    .option('--out <path>', 'document path (default: <dir>/docs/idempotency-design.html or .md)')
    .option('--answers <file>', 'answers in YAML or JSON; missing ones are asked or assumed')
    .option('-y, --yes', 'ask nothing: use the code, the answers file and stated assumptions')
    .option('--code <dir>', 'where the generated code goes (default: <dir>/idempotency)')
    .option('--no-code', 'write the document only')
    .option('--force', 'overwrite existing files')
    .action(async (dir: string, options: DesignOptions & { format?: string }) => {
      if (options.format !== undefined && options.format !== 'html' && options.format !== 'md') {
        eprintln(pc.red(`--format must be html or md, not "${options.format}".`));
        process.exitCode = 2;
        return;
      }
      process.exitCode = await runDesign(dir, options as DesignOptions);
    });
}
