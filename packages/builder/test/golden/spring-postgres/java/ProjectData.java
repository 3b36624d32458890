package com.example.idempotency;

/** Per-project data (project.json), rendered by idempotency-builder: the only file that differs between projects. */
final class ProjectData {
    static final String JSON = """
{
  "generatedBy": "idempotency-builder",
  "project": "orders",
  "store": "postgresql",
  "table": "idempotency_store",
  "layout": "plain",
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
    "submitOrder": {
      "method": "POST",
      "path": "/orders",
      "fields": [
        "cart_id",
        "items"
      ],
      "leaseMs": 7000,
      "ttlMs": 86400000
    }
  },
  "paypalNamespace": "e6f1ec5f-a025-5184-9eb1-bcf259fe55d7",
  "providerKeyLimits": {
    "stripe": 255,
    "adyenKey": 64,
    "adyenReference": 80,
    "braintreeOrderId": 255
  },
  "statements": {
    "claim": {
      "text": "WITH clock AS MATERIALIZED (SELECT clock_timestamp() AS now),\\n      prior AS MATERIALIZED (\\n        SELECT r.*, COALESCE(\\n      (r.status = 'PROCESSING' AND r.locked_until <= clock.now\\n        AND r.fingerprint = ?::text AND r.owner_id IS NOT DISTINCT FROM ?::text)\\n      OR (r.status <> 'PROCESSING' AND r.expires_at <= clock.now AND ?::boolean),\\n    false) AS claimable\\n        FROM \\"idempotency_store\\" AS r, clock\\n        WHERE r.idempotency_key = ?::text AND r.user_id = ?::text\\n      ),\\n      inserted AS (\\n        INSERT INTO \\"idempotency_store\\" AS r\\n          (idempotency_key, user_id, owner_id, fingerprint, status, lock_version, locked_until, created_at, expires_at)\\n        SELECT ?::text, ?::text, ?::text, ?::text, 'PROCESSING', floor(extract(epoch FROM clock.now) * 1000)::bigint,\\n          clock.now + (interval '1 millisecond' * ?::float8), clock.now, clock.now + (interval '1 millisecond' * ?::float8)\\n        FROM clock\\n        WHERE NOT EXISTS (SELECT 1 FROM prior)\\n        ON CONFLICT (idempotency_key, user_id) DO NOTHING\\n        RETURNING r.*\\n      ),\\n      taken AS (\\n        UPDATE \\"idempotency_store\\" AS r SET\\n          fingerprint = ?::text, owner_id = ?::text, status = 'PROCESSING',\\n          lock_version = CASE WHEN prior.status = 'PROCESSING' THEN r.lock_version + 1\\n            ELSE GREATEST(r.lock_version + 1, floor(extract(epoch FROM clock.now) * 1000)::bigint) END,\\n          locked_until = clock.now + (interval '1 millisecond' * ?::float8),\\n          created_at = CASE WHEN prior.status = 'PROCESSING' THEN r.created_at ELSE clock.now END,\\n          expires_at = clock.now + (interval '1 millisecond' * ?::float8),\\n          completed_at = NULL, response_code = NULL, response_body = NULL,\\n        response_headers = NULL, response_encoding = NULL, response_bytes = NULL\\n        FROM clock, prior\\n        WHERE prior.claimable AND r.idempotency_key = ?::text AND r.user_id = ?::text\\n          AND r.status = prior.status AND r.lock_version = prior.lock_version\\n          AND COALESCE(\\n      (r.status = 'PROCESSING' AND r.locked_until <= clock.now\\n        AND r.fingerprint = ?::text AND r.owner_id IS NOT DISTINCT FROM ?::text)\\n      OR (r.status <> 'PROCESSING' AND r.expires_at <= clock.now AND ?::boolean),\\n    false)\\n        RETURNING r.*, prior.status = 'PROCESSING' AS was_processing\\n      ),\\n      newest AS (\\n        SELECT r.* FROM \\"idempotency_store\\" AS r\\n        WHERE r.idempotency_key = ?::text AND r.user_id = ?::text\\n          AND EXISTS (SELECT 1 FROM prior WHERE prior.claimable)\\n          AND NOT EXISTS (SELECT 1 FROM taken)\\n        FOR SHARE\\n      )\\n      SELECT 'claimed'::text AS outcome, false AS reclaimed, false AS replaced,\\n       (extract(epoch FROM clock.now) * 1000)::float8 AS now_ms, i.idempotency_key, i.user_id, i.owner_id, i.fingerprint, i.status, i.lock_version, i.response_code, i.response_headers, i.response_encoding, i.response_bytes, (extract(epoch FROM i.locked_until) * 1000)::float8 AS locked_until_ms, (extract(epoch FROM i.created_at) * 1000)::float8 AS created_at_ms, (extract(epoch FROM i.completed_at) * 1000)::float8 AS completed_at_ms, (extract(epoch FROM i.expires_at) * 1000)::float8 AS expires_at_ms FROM inserted AS i, clock\\n      UNION ALL\\n      SELECT 'claimed'::text AS outcome, t.was_processing AS reclaimed, NOT t.was_processing AS replaced,\\n       (extract(epoch FROM clock.now) * 1000)::float8 AS now_ms, t.idempotency_key, t.user_id, t.owner_id, t.fingerprint, t.status, t.lock_version, t.response_code, t.response_headers, t.response_encoding, t.response_bytes, (extract(epoch FROM t.locked_until) * 1000)::float8 AS locked_until_ms, (extract(epoch FROM t.created_at) * 1000)::float8 AS created_at_ms, (extract(epoch FROM t.completed_at) * 1000)::float8 AS completed_at_ms, (extract(epoch FROM t.expires_at) * 1000)::float8 AS expires_at_ms FROM taken AS t, clock\\n      UNION ALL\\n      SELECT 'existing'::text AS outcome, false AS reclaimed, false AS replaced,\\n       (extract(epoch FROM clock.now) * 1000)::float8 AS now_ms, p.idempotency_key, p.user_id, p.owner_id, p.fingerprint, p.status, p.lock_version, p.response_code, p.response_headers, p.response_encoding, p.response_bytes, (extract(epoch FROM p.locked_until) * 1000)::float8 AS locked_until_ms, (extract(epoch FROM p.created_at) * 1000)::float8 AS created_at_ms, (extract(epoch FROM p.completed_at) * 1000)::float8 AS completed_at_ms, (extract(epoch FROM p.expires_at) * 1000)::float8 AS expires_at_ms FROM prior AS p, clock WHERE NOT p.claimable\\n      UNION ALL\\n      SELECT 'existing'::text AS outcome, false AS reclaimed, false AS replaced,\\n       (extract(epoch FROM clock.now) * 1000)::float8 AS now_ms, n.idempotency_key, n.user_id, n.owner_id, n.fingerprint, n.status, n.lock_version, n.response_code, n.response_headers, n.response_encoding, n.response_bytes, (extract(epoch FROM n.locked_until) * 1000)::float8 AS locked_until_ms, (extract(epoch FROM n.created_at) * 1000)::float8 AS created_at_ms, (extract(epoch FROM n.completed_at) * 1000)::float8 AS completed_at_ms, (extract(epoch FROM n.expires_at) * 1000)::float8 AS expires_at_ms FROM newest AS n, clock",
      "params": [
        "fingerprint",
        "owner",
        "replaceExpired",
        "key",
        "scope",
        "key",
        "scope",
        "owner",
        "fingerprint",
        "leaseMs",
        "ttlMs",
        "fingerprint",
        "owner",
        "leaseMs",
        "ttlMs",
        "key",
        "scope",
        "fingerprint",
        "owner",
        "replaceExpired",
        "key",
        "scope"
      ]
    },
    "finish": {
      "text": "WITH clock AS MATERIALIZED (SELECT clock_timestamp() AS now)\\n      UPDATE \\"idempotency_store\\" AS r SET\\n        status = ?::text, response_code = ?::int, response_headers = ?::text::jsonb,\\n        response_encoding = ?::text, response_bytes = ?::bytea, response_body = ?::text::jsonb,\\n        locked_until = NULL, completed_at = clock.now, expires_at = clock.now + (interval '1 millisecond' * ?::float8)\\n      FROM clock\\n      WHERE r.idempotency_key = ?::text AND r.user_id = ?::text AND r.lock_version = ?::bigint AND r.status = 'PROCESSING'\\n      RETURNING true AS applied",
      "params": [
        "status",
        "responseCode",
        "responseHeaders",
        "responseEncoding",
        "responseBytes",
        "responseBody",
        "ttlMs",
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "release": {
      "text": "DELETE FROM \\"idempotency_store\\" AS r\\n      WHERE r.idempotency_key = ?::text AND r.user_id = ?::text AND r.lock_version = ?::bigint AND r.status = 'PROCESSING'\\n      RETURNING true AS applied",
      "params": [
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "extend": {
      "text": "UPDATE \\"idempotency_store\\" AS r SET locked_until = clock_timestamp() + (interval '1 millisecond' * ?::float8)\\n      WHERE r.idempotency_key = ?::text AND r.user_id = ?::text AND r.lock_version = ?::bigint AND r.status = 'PROCESSING'\\n      RETURNING true AS applied",
      "params": [
        "leaseMs",
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "get": {
      "text": "SELECT r.idempotency_key, r.user_id, r.owner_id, r.fingerprint, r.status, r.lock_version, r.response_code, r.response_headers, r.response_encoding, r.response_bytes, (extract(epoch FROM r.locked_until) * 1000)::float8 AS locked_until_ms, (extract(epoch FROM r.created_at) * 1000)::float8 AS created_at_ms, (extract(epoch FROM r.completed_at) * 1000)::float8 AS completed_at_ms, (extract(epoch FROM r.expires_at) * 1000)::float8 AS expires_at_ms FROM \\"idempotency_store\\" AS r WHERE r.idempotency_key = ?::text AND r.user_id = ?::text",
      "params": [
        "key",
        "scope"
      ]
    },
    "purgeExpired": {
      "text": "WITH doomed AS MATERIALIZED (\\n        SELECT r.tableoid AS rel, r.ctid AS tid FROM \\"idempotency_store\\" AS r\\n        WHERE r.status <> 'PROCESSING' AND r.expires_at <= (SELECT clock_timestamp())\\n        ORDER BY r.expires_at\\n        LIMIT ?::int\\n        FOR UPDATE SKIP LOCKED\\n      ),\\n      gone AS (\\n        DELETE FROM \\"idempotency_store\\" AS r\\n        WHERE r.ctid = ANY (ARRAY(SELECT d.tid FROM doomed AS d))\\n          AND (r.tableoid, r.ctid) IN (SELECT d.rel, d.tid FROM doomed AS d)\\n        RETURNING 1\\n      )\\n      SELECT count(*)::int AS purged FROM gone",
      "params": [
        "batchSize"
      ]
    },
    "listStuck": {
      "text": "SELECT r.idempotency_key, r.user_id, r.owner_id, r.fingerprint, r.status, r.lock_version, r.response_code, r.response_headers, r.response_encoding, r.response_bytes, (extract(epoch FROM r.locked_until) * 1000)::float8 AS locked_until_ms, (extract(epoch FROM r.created_at) * 1000)::float8 AS created_at_ms, (extract(epoch FROM r.completed_at) * 1000)::float8 AS completed_at_ms, (extract(epoch FROM r.expires_at) * 1000)::float8 AS expires_at_ms FROM \\"idempotency_store\\" AS r\\n      WHERE r.status = 'PROCESSING' AND r.locked_until <= (SELECT clock_timestamp()) - (interval '1 millisecond' * ?::float8)\\n      ORDER BY r.locked_until\\n      LIMIT ?::int",
      "params": [
        "olderThanMs",
        "limit"
      ]
    },
    "forceRelease": {
      "text": "UPDATE \\"idempotency_store\\" AS r SET lock_version = r.lock_version + 1, locked_until = clock_timestamp()\\n      WHERE r.idempotency_key = ?::text AND r.user_id = ?::text AND r.status = 'PROCESSING'\\n      RETURNING true AS applied",
      "params": [
        "key",
        "scope"
      ]
    },
    "now": {
      "text": "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms",
      "params": []
    }
  },
  "scripts": {},
  "sample": {
    "action": "submitOrder",
    "body": {
      "cart_id": "cart-42",
      "items": [
        {
          "sku": "SKU-1",
          "qty": 1
        }
      ]
    },
    "otherBody": {
      "cart_id": "cart-42-other",
      "items": [
        {
          "sku": "SKU-1",
          "qty": 1
        }
      ]
    },
    "fingerprint": "7813616d892589e8a4144b1610060e26c6e4aa201d146b76fbf2177241b3718b"
  }
}
""";

    private ProjectData() {}
}
