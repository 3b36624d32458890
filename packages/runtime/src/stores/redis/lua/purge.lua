--[[ idempotency-builder:purge@1
  Deletes one record if it is COMPLETED or FAILED and its expiresAt has passed on the server
  clock (TIME). Redis also drops records by itself (PEXPIREAT at expiresAt + keepExpiredMs);
  this removes them early, one key per call because records live in different hash slots.

  KEYS[1]  record hash  <prefix>r:{<tag>}
  ARGV     none

  Returns 'purged', or 'kept' when the record is PROCESSING, still live, or gone
]]
local record = KEYS[1]
local current = redis.call('HMGET', record, 's', 'ea')
if not current[1] or current[1] == 'PROCESSING' then
  return 'kept'
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if tonumber(current[2]) > now then
  return 'kept'
end
redis.call('DEL', record)
return 'purged'
