package com.example.idempotency;

/** Per-project data (project.json), rendered by idempotency-builder: the only file that differs between projects. */
final class ProjectData {
    static final String JSON = """
{
  "generatedBy": "idempotency-builder",
  "project": "payments-api",
  "store": "redis",
  "table": "idempotency_store",
  "keyPrefix": "idem:",
  "keepExpiredMs": 3600000,
  "problemTypeBase": "urn:idempotency-builder:problem:",
  "problems": {
    "key_required": {
      "status": 400,
      "title": "This request needs an idempotency key header."
    },
    "invalid_key": {
      "status": 400,
      "title": "The idempotency key is malformed."
    },
    "invalid_scope": {
      "status": 400,
      "title": "The request principal is not a valid idempotency scope."
    },
    "unauthenticated": {
      "status": 401,
      "title": "An authenticated principal is required for an idempotent request."
    },
    "invalid_body": {
      "status": 400,
      "title": "The request body is not JSON the fingerprint can hash."
    },
    "unsupported_media_type": {
      "status": 415,
      "title": "The request body has a content type the fingerprint cannot read deterministically."
    },
    "unhashable_input": {
      "status": 400,
      "title": "The request body is not JSON the fingerprint can hash."
    },
    "body_too_large": {
      "status": 413,
      "title": "The request body is larger than the idempotency middleware accepts."
    },
    "invalid_options": {
      "status": 500,
      "title": "The idempotency middleware is misconfigured."
    },
    "fingerprint_mismatch": {
      "status": 409,
      "title": "This idempotency key was already used with different request parameters."
    },
    "in_progress": {
      "status": 409,
      "title": "A request with this idempotency key is still being processed."
    },
    "key_not_found": {
      "status": 404,
      "title": "No request with this idempotency key was found."
    },
    "expired_key_rejected": {
      "status": 422,
      "title": "This idempotency key has expired and cannot be reused."
    },
    "rate_limited": {
      "status": 429,
      "title": "Too many new idempotency keys; slow down."
    },
    "lease_lost": {
      "status": 409,
      "title": "The request with this idempotency key was taken over by a newer attempt."
    },
    "response_unreadable": {
      "status": 500,
      "title": "The stored response for this idempotency key cannot be read; it is not replayed."
    },
    "replayed_failure": {
      "status": 500,
      "title": "The first request with this idempotency key failed permanently."
    },
    "store_unavailable": {
      "status": 503,
      "title": "The idempotency store is unavailable; the request was not processed."
    },
    "store_busy": {
      "status": 503,
      "title": "The idempotency store is busy; the request was not processed. Retry later."
    },
    "execution_timeout": {
      "status": 503,
      "title": "The request did not finish within its time limit; nothing was recorded."
    },
    "result_not_serializable": {
      "status": 500,
      "title": "The response could not be recorded for replay."
    },
    "invalid_signature": {
      "status": 400,
      "title": "The webhook signature is missing or does not verify."
    },
    "invalid_payload": {
      "status": 400,
      "title": "The webhook payload is not a readable event."
    },
    "verification_unavailable": {
      "status": 503,
      "title": "The webhook signature could not be checked now; nothing was processed."
    },
    "handler_failed": {
      "status": 500,
      "title": "The webhook handler failed; the event was not processed and may be redelivered."
    }
  },
  "actions": {
    "createPayment": {
      "method": "POST",
      "path": "/payments",
      "fields": [
        "amount",
        "currency",
        "recipient_id"
      ],
      "leaseMs": 10000,
      "ttlMs": 172800000
    },
    "placeOrder": {
      "method": "POST",
      "path": "/orders",
      "fields": [
        "cart_id",
        "items",
        "amount",
        "currency"
      ],
      "leaseMs": 17000,
      "ttlMs": 172800000
    },
    "stripeWebhook": {
      "method": "POST",
      "path": "/webhooks/stripe",
      "fields": [
        "id",
        "type"
      ],
      "leaseMs": 17000,
      "ttlMs": 259200000
    }
  },
  "paypalNamespace": "dec372e2-9ef0-5be5-99be-5d34bc554b11",
  "providerKeyLimits": {
    "stripe": 255,
    "adyenKey": 64,
    "adyenReference": 80,
    "braintreeOrderId": 255
  },
  "statements": {},
  "scripts": {
    "claim": "--[[ idempotency-builder:claim@1\\n  Claims a key in ONE atomic step, or returns what holds it. Takes over an orphan (PROCESSING,\\n  lease over, same fingerprint and owner) and replaces an expired COMPLETED/FAILED record when\\n  asked to. Every comparison uses the server clock (TIME).\\n\\n  KEYS[1]  record hash  <prefix>r:{<tag>}\\n  KEYS[2]  fence        <prefix>f:{<tag>}  last lockVersion of a released record (same slot)\\n  ARGV[1]  fingerprint\\n  ARGV[2]  '1' when an owner is given, '0' for none\\n  ARGV[3]  owner ('' when none)\\n  ARGV[4]  leaseMs\\n  ARGV[5]  ttlMs\\n  ARGV[6]  '1' to replace an expired COMPLETED/FAILED record, '0' to return it\\n  ARGV[7]  key    (stored so that scans can answer without parsing key names)\\n  ARGV[8]  scope\\n\\n  Returns\\n    {'claimed', lockVersion, reclaimed 0|1, replacedExpired 0|1, lockedUntil}\\n    {'existing', now, {k, sp, o, fp, s, v, lu, ca, cpa, ea, sc, hd, en, b}}\\n]]\\nlocal time = redis.call('TIME')\\nlocal now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)\\nlocal record, fence = KEYS[1], KEYS[2]\\nlocal fingerprint, hasOwner, owner = ARGV[1], ARGV[2] == '1', ARGV[3]\\nlocal leaseMs, ttlMs = tonumber(ARGV[4]), tonumber(ARGV[5])\\nlocal lockedUntil, expiresAt = now + leaseMs, now + ttlMs\\n\\n-- A PROCESSING record has no Redis TTL: an orphan may stand for a half-done side effect, so it\\n-- stays (visible to listStuck) until the same intent reclaims it or an operator releases it.\\n-- Only complete/fail set PEXPIREAT. A lease can therefore never outlive its record.\\n\\n-- One HSET for the whole fresh record (fewer redis.call round trips inside the script).\\nlocal function insert(lockVersion)\\n  local fields = {'k', ARGV[7], 'sp', ARGV[8], 'fp', fingerprint, 's', 'PROCESSING',\\n    'v', lockVersion, 'lu', lockedUntil, 'ca', now, 'ea', expiresAt}\\n  if hasOwner then\\n    fields[#fields + 1] = 'o'\\n    fields[#fields + 1] = owner\\n  end\\n  redis.call('HSET', record, unpack(fields))\\nend\\n\\n-- Every field at once: a duplicate (the common answer) is served from this one read.\\nlocal current = redis.call('HMGET', record,\\n  'k', 'sp', 'o', 'fp', 's', 'v', 'lu', 'ca', 'cpa', 'ea', 'sc', 'hd', 'en', 'b')\\nlocal storedOwner, storedFingerprint, status = current[3], current[4], current[5]\\nlocal version, storedLease, storedExpiry = tonumber(current[6]), tonumber(current[7]), tonumber(current[10])\\n\\nif not status then\\n  -- Absent: a fresh record's token is the server clock in ms (the store contract), so it is above\\n  -- every token an earlier, released incarnation of this key handed out; the fence keeps it above\\n  -- the released record's last token even when that one grew within this very millisecond.\\n  local released = redis.call('GET', fence)\\n  if released then redis.call('DEL', fence) end\\n  local lockVersion = math.max(now, tonumber(released or '0') + 1)\\n  insert(lockVersion)\\n  return {'claimed', lockVersion, 0, 0, lockedUntil}\\nend\\n\\nif status ~= 'PROCESSING' and storedExpiry <= now and ARGV[6] == '1' then\\n  redis.call('DEL', record) -- drop the old response, owner and TTL\\n  insert(version + 1)\\n  return {'claimed', version + 1, 0, 1, lockedUntil}\\nend\\n\\nlocal sameOwner = (hasOwner and storedOwner == owner) or (not hasOwner and not storedOwner)\\nif status == 'PROCESSING' and storedLease <= now and storedFingerprint == fingerprint and sameOwner then\\n  redis.call('HSET', record, 'v', version + 1, 'lu', lockedUntil, 'ea', expiresAt)\\n  return {'claimed', version + 1, 1, 0, lockedUntil}\\nend\\n\\nreturn {'existing', now, current}\\n",
    "complete": "--[[ idempotency-builder:complete@1\\n  PROCESSING(v) -> COMPLETED with the stored response: a success. Fenced: applies only\\n  while the record is PROCESSING and its lockVersion is still v. The lease ends; retention\\n  restarts from the server clock (TIME).\\n\\n  KEYS[1]  record hash  <prefix>r:{<tag>}\\n  ARGV[1]  lockVersion of the caller\\n  ARGV[2]  ttlMs: expiresAt = now + ttlMs\\n  ARGV[3]  keepExpiredMs: Redis drops the record at expiresAt + keepExpiredMs\\n  ARGV[4]  response encoding\\n  ARGV[5]  response body (bytes, stored as is)\\n  ARGV[6]  status code, '' for none\\n  ARGV[7]  headers as JSON, '' for none\\n\\n  Returns 'applied', or 'lost' when a newer holder exists or the record is gone\\n]]\\nlocal record = KEYS[1]\\nlocal current = redis.call('HMGET', record, 's', 'v')\\nif current[1] ~= 'PROCESSING' or tonumber(current[2]) ~= tonumber(ARGV[1]) then\\n  return 'lost'\\nend\\nlocal time = redis.call('TIME')\\nlocal now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)\\nlocal expiresAt = now + tonumber(ARGV[2])\\nredis.call('HDEL', record, 'lu')\\nlocal fields = {'s', 'COMPLETED', 'cpa', now, 'ea', expiresAt, 'en', ARGV[4], 'b', ARGV[5]}\\nif ARGV[6] ~= '' then\\n  fields[#fields + 1] = 'sc'\\n  fields[#fields + 1] = ARGV[6]\\nend\\nif ARGV[7] ~= '' then\\n  fields[#fields + 1] = 'hd'\\n  fields[#fields + 1] = ARGV[7]\\nend\\nredis.call('HSET', record, unpack(fields))\\nredis.call('PEXPIREAT', record, expiresAt + tonumber(ARGV[3]))\\nreturn 'applied'\\n",
    "fail": "--[[ idempotency-builder:fail@1\\n  PROCESSING(v) -> FAILED with the stored error, replayed later. Fenced: applies only\\n  while the record is PROCESSING and its lockVersion is still v. The lease ends; retention\\n  restarts from the server clock (TIME).\\n\\n  KEYS[1]  record hash  <prefix>r:{<tag>}\\n  ARGV[1]  lockVersion of the caller\\n  ARGV[2]  ttlMs: expiresAt = now + ttlMs\\n  ARGV[3]  keepExpiredMs: Redis drops the record at expiresAt + keepExpiredMs\\n  ARGV[4]  response encoding\\n  ARGV[5]  response body (bytes, stored as is)\\n  ARGV[6]  status code, '' for none\\n  ARGV[7]  headers as JSON, '' for none\\n\\n  Returns 'applied', or 'lost' when a newer holder exists or the record is gone\\n]]\\nlocal record = KEYS[1]\\nlocal current = redis.call('HMGET', record, 's', 'v')\\nif current[1] ~= 'PROCESSING' or tonumber(current[2]) ~= tonumber(ARGV[1]) then\\n  return 'lost'\\nend\\nlocal time = redis.call('TIME')\\nlocal now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)\\nlocal expiresAt = now + tonumber(ARGV[2])\\nredis.call('HDEL', record, 'lu')\\nlocal fields = {'s', 'FAILED', 'cpa', now, 'ea', expiresAt, 'en', ARGV[4], 'b', ARGV[5]}\\nif ARGV[6] ~= '' then\\n  fields[#fields + 1] = 'sc'\\n  fields[#fields + 1] = ARGV[6]\\nend\\nif ARGV[7] ~= '' then\\n  fields[#fields + 1] = 'hd'\\n  fields[#fields + 1] = ARGV[7]\\nend\\nredis.call('HSET', record, unpack(fields))\\nredis.call('PEXPIREAT', record, expiresAt + tonumber(ARGV[3]))\\nreturn 'applied'\\n",
    "release": "--[[ idempotency-builder:release@1\\n  PROCESSING(v) -> absent after a transient error: the key is claimable again at once. Fenced by\\n  lockVersion. The record's lockVersion is kept in the fence key (same hash slot) so the next\\n  claim starts above it even within the same millisecond: a stale holder of an older version can\\n  never match the token of a newer claim.\\n\\n  KEYS[1]  record hash  <prefix>r:{<tag>}\\n  KEYS[2]  fence        <prefix>f:{<tag>}\\n  ARGV[1]  lockVersion of the caller\\n  ARGV[2]  keepExpiredMs\\n\\n  Returns 'applied', or 'lost' when a newer holder exists or the record is gone\\n]]\\nlocal record, fence = KEYS[1], KEYS[2]\\nlocal current = redis.call('HMGET', record, 's', 'v', 'ea', 'lu')\\nif current[1] ~= 'PROCESSING' or tonumber(current[2]) ~= tonumber(ARGV[1]) then\\n  return 'lost'\\nend\\nredis.call('DEL', record)\\nredis.call('SET', fence, current[2])\\nredis.call('PEXPIREAT', fence, math.max(tonumber(current[3]), tonumber(current[4])) + tonumber(ARGV[2]))\\nreturn 'applied'\\n",
    "extend": "--[[ idempotency-builder:extend@1\\n  Heartbeat: lockedUntil = now + leaseMs on the server clock (TIME), only while the record is\\n  PROCESSING and its lockVersion is still v. (A PROCESSING record has no Redis TTL to move.)\\n\\n  KEYS[1]  record hash  <prefix>r:{<tag>}\\n  ARGV[1]  lockVersion of the caller\\n  ARGV[2]  leaseMs\\n\\n  Returns 'applied', or 'lost' when a newer holder exists or the record is gone or finished\\n]]\\nlocal record = KEYS[1]\\nlocal current = redis.call('HMGET', record, 's', 'v')\\nif current[1] ~= 'PROCESSING' or tonumber(current[2]) ~= tonumber(ARGV[1]) then\\n  return 'lost'\\nend\\nlocal time = redis.call('TIME')\\nlocal now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)\\nlocal lockedUntil = now + tonumber(ARGV[2])\\nredis.call('HSET', record, 'lu', lockedUntil)\\nreturn 'applied'\\n",
    "forceRelease": "--[[ idempotency-builder:force-release@1\\n  Runbook release of a PROCESSING record: the lease ends now (server clock, TIME) and lockVersion\\n  grows by one, so the old holder is fenced out and the same intent can reclaim at once.\\n\\n  KEYS[1]  record hash  <prefix>r:{<tag>}\\n  ARGV     none\\n\\n  Returns 'applied', or 'absent' when there is no PROCESSING record\\n]]\\nlocal record = KEYS[1]\\nlocal current = redis.call('HMGET', record, 's', 'v')\\nif current[1] ~= 'PROCESSING' then\\n  return 'absent'\\nend\\nlocal time = redis.call('TIME')\\nlocal now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)\\nredis.call('HSET', record, 'v', tonumber(current[2]) + 1, 'lu', now)\\nreturn 'applied'\\n",
    "purge": "--[[ idempotency-builder:purge@1\\n  Deletes one record if it is COMPLETED or FAILED and its expiresAt has passed on the server\\n  clock (TIME). Redis also drops records by itself (PEXPIREAT at expiresAt + keepExpiredMs);\\n  this removes them early, one key per call because records live in different hash slots.\\n\\n  KEYS[1]  record hash  <prefix>r:{<tag>}\\n  ARGV     none\\n\\n  Returns 'purged', or 'kept' when the record is PROCESSING, still live, or gone\\n]]\\nlocal record = KEYS[1]\\nlocal current = redis.call('HMGET', record, 's', 'ea')\\nif not current[1] or current[1] == 'PROCESSING' then\\n  return 'kept'\\nend\\nlocal time = redis.call('TIME')\\nlocal now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)\\nif tonumber(current[2]) > now then\\n  return 'kept'\\nend\\nredis.call('DEL', record)\\nreturn 'purged'\\n"
  },
  "sample": {
    "action": "createPayment",
    "body": {
      "amount": 4999,
      "currency": "EUR",
      "recipient_id": "recipient-42"
    },
    "otherBody": {
      "amount": 5000,
      "currency": "EUR",
      "recipient_id": "recipient-42"
    },
    "fingerprint": "d6de4a2c9984e343619f12bf0f800ffcf0a47e50e2f700476655d64a39ec3f92"
  }
}
""";

    private ProjectData() {}
}
