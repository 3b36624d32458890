--[[ idempotency-builder:release@1
  PROCESSING(v) -> absent after a transient error: the key is claimable again at once. Fenced by
  lockVersion. The record's lockVersion is kept in the fence key (same hash slot) so the next
  claim starts above it even within the same millisecond: a stale holder of an older version can
  never match the token of a newer claim.

  KEYS[1]  record hash  <prefix>r:{<tag>}
  KEYS[2]  fence        <prefix>f:{<tag>}
  ARGV[1]  lockVersion of the caller
  ARGV[2]  keepExpiredMs

  Returns 'applied', or 'lost' when a newer holder exists or the record is gone
]]
local record, fence = KEYS[1], KEYS[2]
local current = redis.call('HMGET', record, 's', 'v', 'ea', 'lu')
if current[1] ~= 'PROCESSING' or tonumber(current[2]) ~= tonumber(ARGV[1]) then
  return 'lost'
end
redis.call('DEL', record)
redis.call('SET', fence, current[2])
redis.call('PEXPIREAT', fence, math.max(tonumber(current[3]), tonumber(current[4])) + tonumber(ARGV[2]))
return 'applied'
