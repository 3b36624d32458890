--[[ idempotency-builder:claim@1
  Claims a key in ONE atomic step, or returns what holds it. Takes over an orphan (PROCESSING,
  lease over, same fingerprint and owner) and replaces an expired COMPLETED/FAILED record when
  asked to. Every comparison uses the server clock (TIME).

  KEYS[1]  record hash  <prefix>r:{<tag>}
  KEYS[2]  fence        <prefix>f:{<tag>}  last lockVersion of a released record (same slot)
  ARGV[1]  fingerprint
  ARGV[2]  '1' when an owner is given, '0' for none
  ARGV[3]  owner ('' when none)
  ARGV[4]  leaseMs
  ARGV[5]  ttlMs
  ARGV[6]  '1' to replace an expired COMPLETED/FAILED record, '0' to return it
  ARGV[7]  key    (stored so that scans can answer without parsing key names)
  ARGV[8]  scope

  Returns
    {'claimed', lockVersion, reclaimed 0|1, replacedExpired 0|1, lockedUntil}
    {'existing', now, {k, sp, o, fp, s, v, lu, ca, cpa, ea, sc, hd, en, b}}
]]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local record, fence = KEYS[1], KEYS[2]
local fingerprint, hasOwner, owner = ARGV[1], ARGV[2] == '1', ARGV[3]
local leaseMs, ttlMs = tonumber(ARGV[4]), tonumber(ARGV[5])
local lockedUntil, expiresAt = now + leaseMs, now + ttlMs

-- A PROCESSING record has no Redis TTL: an orphan may stand for a half-done side effect, so it
-- stays (visible to listStuck) until the same intent reclaims it or an operator releases it.
-- Only complete/fail set PEXPIREAT. A lease can therefore never outlive its record.

-- One HSET for the whole fresh record (fewer redis.call round trips inside the script).
local function insert(lockVersion)
  local fields = {'k', ARGV[7], 'sp', ARGV[8], 'fp', fingerprint, 's', 'PROCESSING',
    'v', lockVersion, 'lu', lockedUntil, 'ca', now, 'ea', expiresAt}
  if hasOwner then
    fields[#fields + 1] = 'o'
    fields[#fields + 1] = owner
  end
  redis.call('HSET', record, unpack(fields))
end

-- Every field at once: a duplicate (the common answer) is served from this one read.
local current = redis.call('HMGET', record,
  'k', 'sp', 'o', 'fp', 's', 'v', 'lu', 'ca', 'cpa', 'ea', 'sc', 'hd', 'en', 'b')
local storedOwner, storedFingerprint, status = current[3], current[4], current[5]
local version, storedLease, storedExpiry = tonumber(current[6]), tonumber(current[7]), tonumber(current[10])

if not status then
  -- Absent: a fresh record's token is the server clock in ms (the store contract), so it is above
  -- every token an earlier, released incarnation of this key handed out; the fence keeps it above
  -- the released record's last token even when that one grew within this very millisecond.
  local released = redis.call('GET', fence)
  if released then redis.call('DEL', fence) end
  local lockVersion = math.max(now, tonumber(released or '0') + 1)
  insert(lockVersion)
  return {'claimed', lockVersion, 0, 0, lockedUntil}
end

if status ~= 'PROCESSING' and storedExpiry <= now and ARGV[6] == '1' then
  redis.call('DEL', record) -- drop the old response, owner and TTL
  insert(version + 1)
  return {'claimed', version + 1, 0, 1, lockedUntil}
end

local sameOwner = (hasOwner and storedOwner == owner) or (not hasOwner and not storedOwner)
if status == 'PROCESSING' and storedLease <= now and storedFingerprint == fingerprint and sameOwner then
  redis.call('HSET', record, 'v', version + 1, 'lu', lockedUntil, 'ea', expiresAt)
  return {'claimed', version + 1, 1, 0, lockedUntil}
end

return {'existing', now, current}
