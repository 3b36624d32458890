/**
 * Redis: the logical model redesigned as one hash per record and one Lua script per operation.
 * Each script is atomic on the server and reads the server clock (`TIME`), so application clocks
 * never decide who holds a lease. One key per record, so every script is single-slot (Cluster-safe).
 */

export interface LuaScript {
  readonly name: string;
  readonly purpose: string;
  readonly source: string;
}

const CLOCK = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * The record key: `idem:<scope length>:<scope>:<key>`. The length prefix keeps scopes that
 * contain `:` from colliding (`a:b`+`c` vs `a`+`b:c`).
 * @example redisRecordKey('idem', 'usr-7fQ9x', 'createPayment_4b9e') // 'idem:9:usr-7fQ9x:createPayment_4b9e'
 */
export function redisRecordKey(prefix: string, scope: string, key: string): string {
  return `${prefix}:${scope.length}:${scope}:${key}`;
}

/**
 * The scripts, each opening with its KEYS/ARGV/return contract.
 * @example redisScripts().map((s) => s.name) // ['claim', 'finish', 'release', 'extend', 'force_release']
 */
export function redisScripts(): LuaScript[] {
  return [
    {
      name: 'claim',
      purpose: 'Insert, or take over an orphaned (lease over, same fingerprint) or expired record, or return the existing one — one round trip.',
      source: `-- claim.lua
-- KEYS[1]  record hash
-- ARGV[1]  fingerprint (64 hex)   ARGV[2] lease_ms   ARGV[3] ttl_ms
-- returns  {'claimed', lock_version, locked_until, reclaimed 0|1}
--       or {'existing', status, lock_version, locked_until, expires_at, fingerprint, response_code, response_body, now}
${CLOCK}
local lease = tonumber(ARGV[2])
local ttl = tonumber(ARGV[3])
local rec = redis.call('HMGET', KEYS[1], 'status', 'fp', 'lv', 'lu', 'exp', 'code', 'body')
-- lock_version is the fencing token: a fresh record starts at the server clock in ms, an orphan
-- reclaim adds 1, an expired record's replacement takes max(lock_version + 1, now), so a released
-- key's next incarnation never reissues a token a stalled holder still carries.
local function take(version, created, reclaimed)
  redis.call('HDEL', KEYS[1], 'code', 'body', 'completed')
  redis.call('HSET', KEYS[1], 'status', 'PROCESSING', 'fp', ARGV[1], 'lv', string.format('%d', version),
    'lu', now + lease, 'exp', now + ttl, 'created', created)
  redis.call('PEXPIREAT', KEYS[1], now + ttl)
  return {'claimed', version, now + lease, reclaimed}
end
local status = rec[1]
if not status then return take(now, now, 0) end
local version = tonumber(rec[3])
if status == 'PROCESSING' then
  if tonumber(rec[4]) <= now and rec[2] == ARGV[1] then
    return take(version + 1, redis.call('HGET', KEYS[1], 'created'), 1)
  end
elseif tonumber(rec[5]) <= now then
  return take(math.max(version + 1, now), now, 0)
end
return {'existing', status, version, rec[4] or '', rec[5], rec[2], rec[6] or '', rec[7] or '', now}`,
    },
    {
      name: 'finish',
      purpose: 'PROCESSING → COMPLETED or FAILED, fenced by lock_version; retention restarts at completion.',
      source: `-- finish.lua
-- KEYS[1]  record hash
-- ARGV[1]  lock_version   ARGV[2] 'COMPLETED' | 'FAILED'   ARGV[3] response_code   ARGV[4] response_body   ARGV[5] ttl_ms
-- returns  1 applied, 0 lost (another holder, or no record)
local rec = redis.call('HMGET', KEYS[1], 'status', 'lv')
if rec[1] ~= 'PROCESSING' or rec[2] ~= ARGV[1] then return 0 end
${CLOCK}
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'code', ARGV[3], 'body', ARGV[4], 'completed', now, 'exp', now + tonumber(ARGV[5]))
redis.call('HDEL', KEYS[1], 'lu')
redis.call('PEXPIREAT', KEYS[1], now + tonumber(ARGV[5]))
return 1`,
    },
    {
      name: 'release',
      purpose: 'Transient failure: delete the claim so a retry runs at once, fenced by lock_version.',
      source: `-- release.lua
-- KEYS[1]  record hash
-- ARGV[1]  lock_version
-- returns  1 released, 0 lost
local rec = redis.call('HMGET', KEYS[1], 'status', 'lv')
if rec[1] ~= 'PROCESSING' or rec[2] ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`,
    },
    {
      name: 'extend',
      purpose: 'Heartbeat: push the lease end, fenced by lock_version. The lease never outlives the record.',
      source: `-- extend.lua
-- KEYS[1]  record hash
-- ARGV[1]  lock_version   ARGV[2] lease_ms
-- returns  new locked_until, or 0 when the lease is lost
local rec = redis.call('HMGET', KEYS[1], 'status', 'lv', 'exp')
if rec[1] ~= 'PROCESSING' or rec[2] ~= ARGV[1] then return 0 end
${CLOCK}
local until_ms = math.min(now + tonumber(ARGV[2]), tonumber(rec[3]))
redis.call('HSET', KEYS[1], 'lu', until_ms)
return until_ms`,
    },
    {
      name: 'force_release',
      purpose: 'Runbook manual release: end the lease now and bump lock_version so the old holder is fenced out.',
      source: `-- force_release.lua
-- KEYS[1]  record hash
-- returns  the new lock_version, or 0 when the record is not PROCESSING
if redis.call('HGET', KEYS[1], 'status') ~= 'PROCESSING' then return 0 end
${CLOCK}
redis.call('HSET', KEYS[1], 'lu', now)
return redis.call('HINCRBY', KEYS[1], 'lv', 1)`,
    },
  ];
}

/** The record layout, as a table of hash fields. */
export const REDIS_FIELDS: readonly [string, string, string][] = [
  ['status', 'PROCESSING | COMPLETED | FAILED', 'the state machine; only the scripts write it (the CHECK constraint of the SQL model)'],
  ['fp', '64 hex chars', 'SHA-256 fingerprint of the significant fields'],
  ['lv', 'integer (ms-sized)', 'lock_version, the fencing token: the server clock in ms on a fresh claim, +1 on a reclaim, max(+1, now) when an expired record is replaced'],
  ['lu', 'ms since epoch (Redis TIME)', 'locked_until, present only while PROCESSING'],
  ['exp', 'ms since epoch', 'expires_at; the key also carries PEXPIREAT at this instant, so Redis deletes it'],
  ['code', 'integer', 'stored response code'],
  ['body', 'bytes', 'stored response body (encrypted at rest for payment flows)'],
  ['created', 'ms since epoch', 'created_at'],
  ['completed', 'ms since epoch', 'completed_at'],
];
