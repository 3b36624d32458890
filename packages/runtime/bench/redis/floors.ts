/**
 * Floors measured beside the libraries in the same interleaved rounds, to show where the time of
 * a first request goes and what no library can go below:
 *  - our store alone: `store.claim` + `store.complete` (no engine, no fingerprint);
 *  - our two scripts sent by raw EVALSHA with nothing around them: the floor of this design
 *    (server clock, fencing token and fingerprint check in one script per write);
 *  - the two commands @node-idempotency sends (SET NX PX before the handler, SET PX after it),
 *    through the raw client with nothing around them: the floor of any design that makes two
 *    round trips without a server clock, fencing token or fingerprint check.
 * They are not contenders: the ratios in the goal line never count them.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { fingerprintJson } from '@idempotency-builder/runtime';
import { createRedisStore } from '@idempotency-builder/runtime/redis';
import { createKeyLayout } from '../../src/stores/redis/key-layout.js';
import { LUA_SCRIPTS } from '../../src/stores/redis/lua/scripts.generated.js';
import type { Contender } from './peers.js';

/** The local Redis every floor talks to, auto-pipelined like the libraries it is compared with. */
const localIoredis = () => new Redis({ port: 6379, host: '127.0.0.1', enableAutoPipelining: true });

/** Our Redis store's two scripts per new key, called directly. */
export function storeOnly(keyPrefix: string): Contender {
  return {
    label: 'floor: our Redis store alone, claim + complete (ioredis, no engine, no fingerprint)',
    configuration: 'createRedisStore({ client: new Redis({ enableAutoPipelining: true }), prefix }); store.claim(...) then store.complete(...) with the JSON result',
    keyPrefix,
    async start(handler) {
      const redis = localIoredis();
      const store = createRedisStore({ client: redis, prefix: keyPrefix });
      const fingerprint = fingerprintJson({ id: 'fixed', amount: 1 });
      return {
        async invoke(key, payload) {
          const claim = await store.claim({ key, scope: 'bench', fingerprint, owner: null, leaseMs: 30_000, ttlMs: 3_600_000, replaceExpired: true });
          if (claim.outcome !== 'claimed') throw new Error(`floor: ${key} was not new`);
          const value = await handler(payload);
          const body = new TextEncoder().encode(JSON.stringify(value));
          await store.complete({ key, scope: 'bench', lockVersion: claim.lockVersion, ttlMs: 3_600_000, response: { encoding: 'json', body, statusCode: null, headers: null } });
          return value;
        },
        stop: async () => redis.disconnect(),
      };
    },
  };
}

/** Our claim and complete scripts by EVALSHA through raw ioredis: no store code, no engine. */
export function twoScripts(keyPrefix: string): Contender {
  return {
    label: 'floor: our two scripts by raw EVALSHA, claim + complete (ioredis, nothing around them)',
    configuration: 'ioredis: EVALSHA claim (2 keys, 8 args), the handler, EVALSHA complete (1 key, 7 args; keepExpiredMs 1 h, the store default) with the JSON result',
    keyPrefix,
    async start(handler) {
      const redis = localIoredis();
      await redis.script('LOAD', LUA_SCRIPTS.claim.source);
      await redis.script('LOAD', LUA_SCRIPTS.complete.source);
      const fingerprint = fingerprintJson({ id: 'fixed', amount: 1 });
      // The store's own key names (hash tag over scope and key), so the server does the same work.
      const layout = createKeyLayout(keyPrefix);
      return {
        async invoke(key, payload) {
          const { record, fence } = layout.keysOf({ key, scope: 'bench' });
          const claim = (await redis.evalsha(LUA_SCRIPTS.claim.sha1, 2, record, fence, fingerprint, '0', '', '30000', '3600000', '1', key, 'bench')) as [string, number];
          if (claim[0] !== 'claimed') throw new Error(`floor: ${key} was not new`);
          const value = await handler(payload);
          await redis.evalsha(LUA_SCRIPTS.complete.sha1, 1, record, String(claim[1]), '3600000', '3600000', 'json', JSON.stringify(value), '', '');
          return value;
        },
        stop: async () => redis.disconnect(),
      };
    },
  };
}

/** SET NX PX + SET PX of a small JSON value through the raw client. */
export function twoPlainCommands(client: 'ioredis' | 'node-redis', keyPrefix: string): Contender {
  return {
    label: `floor: two plain commands, SET NX PX + SET PX (raw ${client}, what @node-idempotency sends)`,
    configuration: `${client}: SET key '{"status":"in_progress"}' NX PX 3600000, the handler, SET key <JSON result> PX 3600000`,
    keyPrefix,
    async start(handler) {
      if (client === 'ioredis') {
        const redis = localIoredis();
        return {
          async invoke(key, payload) {
            const taken = await redis.set(`${keyPrefix}${key}`, '{"status":"in_progress"}', 'PX', 3_600_000, 'NX');
            if (taken !== 'OK') throw new Error(`floor: ${key} was not new`);
            const value = await handler(payload);
            await redis.set(`${keyPrefix}${key}`, JSON.stringify(value), 'PX', 3_600_000);
            return value;
          },
          stop: async () => redis.disconnect(),
        };
      }
      const redis = await createClient({ socket: { port: 6379, host: '127.0.0.1' } }).connect();
      return {
        async invoke(key, payload) {
          const taken = await redis.set(`${keyPrefix}${key}`, '{"status":"in_progress"}', { condition: 'NX', expiration: { type: 'PX', value: 3_600_000 } });
          if (taken !== 'OK') throw new Error(`floor: ${key} was not new`);
          const value = await handler(payload);
          await redis.set(`${keyPrefix}${key}`, JSON.stringify(value), { expiration: { type: 'PX', value: 3_600_000 } });
          return value;
        },
        stop: () => redis.close(),
      };
    },
  };
}

/** A replay's floor: one GET of the stored JSON through the raw client (the first call of a key stores it). */
export function onePlainGet(keyPrefix: string): Contender {
  return {
    label: 'floor: one plain GET (raw ioredis), a replay with nothing around it',
    configuration: 'ioredis: GET key (SET key <JSON result> PX 3600000 the first time)',
    keyPrefix,
    async start(handler) {
      const redis = localIoredis();
      return {
        async invoke(key, payload) {
          const stored = await redis.get(`${keyPrefix}${key}`);
          if (stored !== null) return JSON.parse(stored) as unknown;
          const value = await handler(payload);
          await redis.set(`${keyPrefix}${key}`, JSON.stringify(value), 'PX', 3_600_000);
          return value;
        },
        stop: async () => redis.disconnect(),
      };
    },
  };
}
