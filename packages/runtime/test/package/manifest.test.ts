/**
 * The runtime's package.json as users' tools read it: the "exports" map is the one list of public
 * subpaths, and "typesVersions" (for TypeScript's node10 resolution, a stock NestJS tsconfig) must
 * name the same subpaths with the same declaration files.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Target {
  readonly import: { readonly types: string; readonly default: string };
  readonly require: { readonly types: string; readonly default: string };
}
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, Target | string>;
  typesVersions: { '*': Record<string, string[]> };
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  dependencies: Record<string, string>;
};

const subpaths = Object.entries(manifest.exports).filter((entry): entry is [string, Target] => typeof entry[1] !== 'string' && entry[0] !== '.');

describe('runtime package manifest', () => {
  it('lists every subpath in typesVersions with its CommonJS declarations, and nothing else', () => {
    const expected = Object.fromEntries(subpaths.map(([subpath, target]) => [subpath.slice(2), [target.require.types]]));
    expect(manifest.typesVersions['*']).toEqual(expected);
  });

  it('builds every subpath from a source entry of the same name, ESM and CJS side by side', () => {
    for (const [, target] of subpaths) {
      expect(target.import.default).toMatch(/^\.\/dist\/[a-z/-]+\/index\.js$/);
      expect(target.require.default).toBe(target.import.default.replace(/\.js$/, '.cjs'));
      expect(target.import.types).toBe(target.import.default.replace(/\.js$/, '.d.ts'));
      expect(target.require.types).toBe(target.import.default.replace(/\.js$/, '.d.cts'));
    }
  });

  it('keeps every driver, framework and SDK an optional peer: installing the runtime pulls none of them', () => {
    for (const peer of Object.keys(manifest.peerDependencies)) expect(manifest.peerDependenciesMeta[peer]?.optional, peer).toBe(true);
    expect(Object.keys(manifest.dependencies)).toEqual(['rate-limiter-flexible']);
  });
});
