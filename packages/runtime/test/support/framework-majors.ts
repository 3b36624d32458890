/**
 * Each major of a framework that its peer range names, loaded from the workspace's dev
 * dependency or its npm alias (`fastify4`, `express4`). One that is not installed is reported
 * like a missing server: skipped with its reason, a failure under CI=true.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { serviceAvailable } from './services.js';

const require = createRequire(import.meta.url);

export interface LoadedMajor<T> {
  readonly major: number;
  readonly specifier: string;
  /** The package's default export. */
  readonly loaded: T;
}

/**
 * The installed majors, each with a test that the loaded package is that major; a missing one
 * gets a skipped `describe` named after `what` instead.
 * @example for (const { major, loaded } of await frameworkMajors<FastifyFactory>('Fastify', [[5, 'fastify'], [4, 'fastify4']], 'runs the adapter suite')) { … }
 */
export async function frameworkMajors<T>(framework: string, majors: readonly (readonly [number, string])[], what: string): Promise<LoadedMajor<T>[]> {
  const found: LoadedMajor<T>[] = [];
  for (const [major, specifier] of majors) {
    const label = `${framework.toLowerCase()} ${major}`;
    if (!(await serviceAvailable(`${framework} ${major} (the "${specifier}" dev dependency)`, () => import(specifier)))) {
      describe.skip(`${label} (the "${specifier}" dev dependency is not installed)`, () => it(what, () => {}));
      continue;
    }
    describe(`${label}: the loaded package`, () => {
      it(`is ${framework} ${major}`, () => {
        const { version } = require(`${specifier}/package.json`) as { version: string };
        expect(Number.parseInt(version, 10)).toBe(major);
      });
    });
    found.push({ major, specifier, loaded: ((await import(specifier)) as { default: T }).default });
  }
  return found;
}
