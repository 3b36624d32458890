/**
 * The Lua scripts as shipped: one .lua file per operation with its KEYS/ARGV/Returns header, a
 * versioned name, bundled into scripts.generated.ts — which must match the .lua files byte for
 * byte (run `npx tsx scripts/bundle-lua.ts` after editing one). No file is read at run time.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, LUA_DIR, readLuaSources, renderLuaModule, versionedName } from '../../scripts/bundle-lua.js';
import { LUA_SCRIPTS } from '../../src/stores/redis/lua/scripts.generated.js';

describe('redis store Lua scripts', () => {
  it('ships a generated module in step with the .lua files', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(renderLuaModule(readLuaSources()));
  });

  it('has one script per operation, each with a versioned name and the SHA1 Redis will compute', () => {
    const operations = ['claim', 'complete', 'extend', 'fail', 'forceRelease', 'purge', 'release'];
    expect(Object.keys(LUA_SCRIPTS).sort()).toEqual(operations);
    for (const script of Object.values(LUA_SCRIPTS)) {
      expect(script.name).toMatch(/^idempotency-builder:[a-z-]+@\d+$/);
      expect(script.source.startsWith(`--[[ ${script.name}\n`)).toBe(true);
      expect(createHash('sha1').update(script.source).digest('hex')).toBe(script.sha1);
    }
  });

  it('rejects a script whose header lacks its name, KEYS, ARGV or Returns', () => {
    expect(() => versionedName({ file: 'claim', source: '-- claim\nreturn 1' })).toThrow(/must open with/);
    expect(() => versionedName({ file: 'claim', source: '--[[ idempotency-builder:other@1\n]]' })).toThrow(/file name/);
    expect(() => versionedName({ file: 'claim', source: '--[[ idempotency-builder:claim@1\n  KEYS[1] x\n]]' })).toThrow(/ARGV/);
  });

  it('never reads files at run time in the store', () => {
    const dir = join(LUA_DIR, '..');
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
      expect(readFileSync(join(dir, file), 'utf8'), file).not.toMatch(/node:fs|readFileSync|__dirname/);
    }
  });
});
