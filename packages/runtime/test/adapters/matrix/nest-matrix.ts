/**
 * Registers the adapter suite for one Nest major on both platforms, plus the startup check. A
 * major whose aliases are not installed skips with the reason (fails under CI=true).
 */
import { describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../support/services.js';
import { runAdapterSuite } from '../../../src/testing/adapter-suite.js';
import { assertSupportedNestVersion, installedNestVersion, UnsupportedNestVersionError } from '../../../src/adapters/nestjs/nest-version.js';
import { loadNestMajor, versionOf, type NestMajor } from './nest-majors.js';
import { serveOnNestMajor } from './nest-matrix-server.js';

export async function runNestMatrix(major: 10 | 11 | 12): Promise<void> {
  let nest: NestMajor | undefined;
  const available = await serviceAvailable(`NestJS ${major} (the nest${major}-* npm-alias dev dependencies)`, async () => {
    nest = await loadNestMajor(major);
  });
  if (!available || !nest) {
    describe.skip(`nestjs ${major} (its npm-alias dev dependencies are not installed)`, () => it('runs the adapter suite', () => {}));
    return;
  }
  const loaded = nest;
  describe(`nestjs ${major}: the loaded packages`, () => {
    it(`are Nest ${major} on both platforms, and the startup check accepts them`, () => {
      for (const name of ['common', 'core', 'platform-express', 'platform-fastify'] as const) {
        expect(Number.parseInt(versionOf(major, name), 10), name).toBe(major);
      }
      expect(() => assertSupportedNestVersion(versionOf(major, 'common'))).not.toThrow();
      expect(() => assertSupportedNestVersion('9.4.3')).toThrow(UnsupportedNestVersionError);
      expect(() => assertSupportedNestVersion('13.0.0')).toThrow(/supports NestJS 10, 11, 12 .*the installed @nestjs\/common is 13\.0\.0/);
      // What the interceptor's constructor reads: the workspace's @nestjs/common (12), in every file.
      expect(installedNestVersion()).toBe(versionOf(12, 'common'));
    });
  });
  for (const platform of ['express', 'fastify'] as const) {
    runAdapterSuite({ name: `nestjs ${major} (${platform} platform)`, createServer: (routes) => serveOnNestMajor(loaded, platform, routes) });
  }
}
