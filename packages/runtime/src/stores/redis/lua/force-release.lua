--[[ idempotency-builder:force-release@1
  Runbook release of a PROCESSING record: the lease ends now (server clock, TIME) and lockVersion
  grows by one, so the old holder is fenced out and the same intent can reclaim at once.

  KEYS[1]  record hash  <prefix>r:{<tag>}
  ARGV     none

  Returns 'applied', or 'absent' when there is no PROCESSING record
]]
local record = KEYS[1]
local current = redis.call('HMGET', record, 's', 'v')
if current[1] ~= 'PROCESSING' then
  return 'absent'
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('HSET', record, 'v', tonumber(current[2]) + 1, 'lu', now)
return 'applied'
