/**
 * The NestJS majors this adapter is tested on, and the startup check that refuses any other: an
 * untested major can break replays silently (Nest 10 and 11 once answered every replay `201 {}`).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { InvalidOptionsError } from '../../core/errors.js';

/** The majors the matrix tests run (test/adapters/matrix/nestjs.test.ts); equals the peer range. */
export const SUPPORTED_NEST_MAJORS: readonly number[] = [10, 11, 12];

/** Thrown at startup when the installed @nestjs/common is a major the adapter is not tested on. */
export class UnsupportedNestVersionError extends InvalidOptionsError {
  readonly version: string;

  constructor(version: string) {
    super(
      `@idempotency-builder/runtime/nestjs supports NestJS ${SUPPORTED_NEST_MAJORS.join(', ')} (peer range ">=10 <13"); ` +
        `the installed @nestjs/common is ${version}. Upgrade Nest, or pin a runtime release that lists this major.`,
    );
    this.version = version;
  }
}

/**
 * Throws {@link UnsupportedNestVersionError} unless `version` is one of the tested majors. An
 * unknown version (a bundle without node_modules) passes: nothing can be said about it.
 * @example assertSupportedNestVersion('9.4.3'); // throws: NestJS 9 is not supported
 */
export function assertSupportedNestVersion(version: string | undefined): void {
  if (version === undefined) return;
  const major = Number.parseInt(version, 10);
  if (!SUPPORTED_NEST_MAJORS.includes(major)) throw new UnsupportedNestVersionError(version);
}

let installed: { version: string | undefined } | undefined;

/**
 * The version of the @nestjs/common this module resolves (the one its decorators come from), read
 * once; undefined when it cannot be read.
 * @example assertSupportedNestVersion(installedNestVersion());
 */
export function installedNestVersion(): string | undefined {
  if (installed) return installed.version;
  // Where to resolve from: this file in the CJS build; the ESM build has no `import.meta` in its
  // CJS twin (tsup leaves it there, a syntax error), so it resolves from the app's entry script,
  // then the working directory: the app's own node_modules either way.
  const bases = [typeof __filename === 'string' ? __filename : undefined, process.argv[1], join(process.cwd(), 'index.js')];
  installed = { version: undefined };
  for (const base of bases) {
    if (!base) continue;
    try {
      const manifest = createRequire(base)('@nestjs/common/package.json') as { version?: unknown };
      if (typeof manifest.version === 'string') installed = { version: manifest.version };
      break;
    } catch {
      // not resolvable from here: try the next base
    }
  }
  return installed.version;
}
