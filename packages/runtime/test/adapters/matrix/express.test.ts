/**
 * The shared adapter suite on each Express major the peer range names: 5 (the workspace's
 * `express`) and 4 (the `express4` npm alias). A missing alias skips with its reason (fails
 * under CI=true).
 */
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { serviceAvailable } from '../../support/services.js';
import { runAdapterSuite } from '../../../src/testing/adapter-suite.js';
import { serveOnExpress, type ExpressModule } from '../suite/express-server.js';

const require = createRequire(import.meta.url);

for (const [major, specifier] of [
  [5, 'express'],
  [4, 'express4'],
] as const) {
  const loaded = (await serviceAvailable(`Express ${major} (the "${specifier}" dev dependency)`, () => import(specifier)))
    ? ((await import(specifier)) as { default: ExpressModule }).default
    : undefined;
  if (!loaded) {
    describe.skip(`express ${major} (the "${specifier}" dev dependency is not installed)`, () => it('runs the adapter suite', () => {}));
    continue;
  }
  describe(`express ${major}: the loaded package`, () => {
    it(`is Express ${major}`, () => {
      const { version } = require(`${specifier}/package.json`) as { version: string };
      expect(Number.parseInt(version, 10)).toBe(major);
    });
  });
  runAdapterSuite({ name: `express ${major}`, createServer: (routes) => serveOnExpress(loaded, routes) });
}
