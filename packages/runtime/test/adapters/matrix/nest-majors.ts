/**
 * Loads one NestJS major from its npm-alias dev dependencies (`nest10-core`, `nest11-common`, …)
 * and makes that major's own `require('@nestjs/…')` calls resolve to the same alias, so Nest 10's
 * core runs with Nest 10's common, never the workspace's Nest 12.
 */
import Module, { createRequire } from 'node:module';

type NestPackage = 'common' | 'core' | 'platform-express' | 'platform-fastify';

/** What the matrix uses of one Nest major. */
export interface NestMajor {
  readonly major: 10 | 11 | 12;
  readonly common: typeof import('@nestjs/common');
  readonly core: typeof import('@nestjs/core');
  /** `new ExpressAdapter()` or `new FastifyAdapter()` of this major. */
  readonly adapter: (platform: 'express' | 'fastify') => Promise<unknown>;
}

const require = createRequire(import.meta.url);
type Resolve = (this: unknown, request: string, parent: { filename?: string | null } | undefined, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: Resolve };
let hooked = false;

/** Maps `@nestjs/x` to `nestNN-x` when the caller lives inside a `nestNN-*` alias package. */
function hookAliasResolution(): void {
  if (hooked) return;
  hooked = true;
  const original = loader._resolveFilename;
  loader._resolveFilename = function resolveAlias(request, parent, ...rest) {
    const match = /^@nestjs\/(common|core|platform-express|platform-fastify)(\/.*)?$/.exec(request);
    const owner = parent?.filename ? /[\\/]node_modules[\\/](nest1[01])-[a-z-]+[\\/]/.exec(parent.filename) : null;
    if (match && owner) return original.call(this, `${owner[1]}-${match[1]}${match[2] ?? ''}`, parent, ...rest);
    return original.call(this, request, parent, ...rest);
  } as Resolve;
}

function aliasOf(major: number, name: NestPackage): string {
  return major === 12 && name !== 'platform-fastify' ? `@nestjs/${name}` : `nest${major}-${name}`;
}

/** Loads `major`, or throws when one of its alias packages is not installed. */
export async function loadNestMajor(major: 10 | 11 | 12): Promise<NestMajor> {
  if (major === 12) {
    // Nest 12 is ESM: its imports resolve the workspace's @nestjs/* (12) without help.
    const [common, core] = await Promise.all([import('@nestjs/common'), import('@nestjs/core')]);
    return {
      major,
      common,
      core,
      adapter: async (platform) => {
        if (platform === 'express') return new (await import('@nestjs/platform-express')).ExpressAdapter();
        const fastify = (await import(aliasOf(12, 'platform-fastify'))) as { FastifyAdapter: new () => unknown };
        return new fastify.FastifyAdapter();
      },
    };
  }
  hookAliasResolution();
  const load = (name: NestPackage) => require(aliasOf(major, name)) as Record<string, unknown>;
  return {
    major,
    common: load('common') as unknown as NestMajor['common'],
    core: load('core') as unknown as NestMajor['core'],
    adapter: async (platform) => {
      const exports = load(`platform-${platform}`);
      const Adapter = exports[platform === 'express' ? 'ExpressAdapter' : 'FastifyAdapter'] as new () => unknown;
      return new Adapter();
    },
  };
}

/** The installed version of one alias package, read from its manifest. */
export function versionOf(major: 10 | 11 | 12, name: NestPackage): string {
  return (require(`${aliasOf(major, name)}/package.json`) as { version: string }).version;
}
