--[[ idempotency-builder:extend@1
  Heartbeat: lockedUntil = now + leaseMs on the server clock (TIME), only while the record is
  PROCESSING and its lockVersion is still v. (A PROCESSING record has no Redis TTL to move.)

  KEYS[1]  record hash  <prefix>r:{<tag>}
  ARGV[1]  lockVersion of the caller
  ARGV[2]  leaseMs

  Returns 'applied', or 'lost' when a newer holder exists or the record is gone or finished
]]
local record = KEYS[1]
local current = redis.call('HMGET', record, 's', 'v')
if current[1] ~= 'PROCESSING' or tonumber(current[2]) ~= tonumber(ARGV[1]) then
  return 'lost'
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lockedUntil = now + tonumber(ARGV[2])
redis.call('HSET', record, 'lu', lockedUntil)
return 'applied'
