--[[ idempotency-builder:fail@1
  PROCESSING(v) -> FAILED with the stored error, replayed later. Fenced: applies only
  while the record is PROCESSING and its lockVersion is still v. The lease ends; retention
  restarts from the server clock (TIME).

  KEYS[1]  record hash  <prefix>r:{<tag>}
  ARGV[1]  lockVersion of the caller
  ARGV[2]  ttlMs: expiresAt = now + ttlMs
  ARGV[3]  keepExpiredMs: Redis drops the record at expiresAt + keepExpiredMs
  ARGV[4]  response encoding
  ARGV[5]  response body (bytes, stored as is)
  ARGV[6]  status code, '' for none
  ARGV[7]  headers as JSON, '' for none

  Returns 'applied', or 'lost' when a newer holder exists or the record is gone
]]
local record = KEYS[1]
local current = redis.call('HMGET', record, 's', 'v')
if current[1] ~= 'PROCESSING' or tonumber(current[2]) ~= tonumber(ARGV[1]) then
  return 'lost'
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local expiresAt = now + tonumber(ARGV[2])
redis.call('HDEL', record, 'lu')
local fields = {'s', 'FAILED', 'cpa', now, 'ea', expiresAt, 'en', ARGV[4], 'b', ARGV[5]}
if ARGV[6] ~= '' then
  fields[#fields + 1] = 'sc'
  fields[#fields + 1] = ARGV[6]
end
if ARGV[7] ~= '' then
  fields[#fields + 1] = 'hd'
  fields[#fields + 1] = ARGV[7]
end
redis.call('HSET', record, unpack(fields))
redis.call('PEXPIREAT', record, expiresAt + tonumber(ARGV[3]))
return 'applied'
