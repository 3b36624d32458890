package com.example.idempotency;

/** Per-project data (project.json), rendered by idempotency-builder: the only file that differs between projects. */
final class ProjectData {
    static final String JSON = """
{
  "generatedBy": "idempotency-builder",
  "project": "refunds",
  "store": "mysql",
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
    }
  },
  "actions": {
    "refundPayment": {
      "method": "POST",
      "path": "/refunds",
      "fields": [
        "payment_id",
        "amount",
        "currency"
      ],
      "leaseMs": 9000,
      "ttlMs": 2678400000
    }
  },
  "paypalNamespace": "31237ad6-659b-5563-9d43-43f05e925e25",
  "statements": {
    "claimInsert": {
      "text": "INSERT IGNORE INTO idempotency_store (idempotency_key, user_id, fingerprint, status, lock_version, locked_until, created_at, expires_at)\\nVALUES (?, ?, ?, 'PROCESSING', LAST_INSERT_ID((TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(3)) DIV 1000)), TIMESTAMPADD(MICROSECOND, ? * 1000, UTC_TIMESTAMP(3)), UTC_TIMESTAMP(3), TIMESTAMPADD(MICROSECOND, ? * 1000, UTC_TIMESTAMP(3)))",
      "params": [
        "key",
        "scope",
        "fingerprint",
        "leaseMs",
        "ttlMs"
      ]
    },
    "fetch": {
      "text": "SELECT idempotency_key, user_id, fingerprint, status, response_code, response_body, lock_version,\\n       locked_until, created_at, completed_at, expires_at, UTC_TIMESTAMP(3) AS db_now,\\n       (status = 'PROCESSING' AND locked_until <= UTC_TIMESTAMP(3)) AS lease_over,\\n       (status <> 'PROCESSING' AND expires_at <= UTC_TIMESTAMP(3)) AS expired\\n  FROM idempotency_store\\n WHERE idempotency_key = ? AND user_id = ?",
      "params": [
        "key",
        "scope"
      ]
    },
    "reclaim": {
      "text": "UPDATE idempotency_store\\n   SET created_at = IF(status = 'PROCESSING', created_at, UTC_TIMESTAMP(3)),\\n       fingerprint = ?,\\n       lock_version = LAST_INSERT_ID(IF(status = 'PROCESSING', lock_version + 1, GREATEST(lock_version + 1, (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(3)) DIV 1000)))),\\n       locked_until = TIMESTAMPADD(MICROSECOND, ? * 1000, UTC_TIMESTAMP(3)),\\n       expires_at = TIMESTAMPADD(MICROSECOND, ? * 1000, UTC_TIMESTAMP(3)),\\n       completed_at = NULL, response_code = NULL, response_body = NULL,\\n       status = 'PROCESSING'\\n WHERE idempotency_key = ? AND user_id = ? AND lock_version = ?\\n   AND ((status = 'PROCESSING' AND locked_until <= UTC_TIMESTAMP(3) AND fingerprint = ?)\\n     OR (status <> 'PROCESSING' AND expires_at <= UTC_TIMESTAMP(3)))",
      "params": [
        "fingerprint",
        "leaseMs",
        "ttlMs",
        "key",
        "scope",
        "lockVersion",
        "fingerprint"
      ]
    },
    "extend": {
      "text": "UPDATE idempotency_store SET locked_until = TIMESTAMPADD(MICROSECOND, ? * 1000, UTC_TIMESTAMP(3))\\n WHERE idempotency_key = ? AND user_id = ? AND lock_version = ? AND status = 'PROCESSING'",
      "params": [
        "leaseMs",
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "complete": {
      "text": "UPDATE idempotency_store\\n   SET response_code = ?, response_body = ?, completed_at = UTC_TIMESTAMP(3),\\n       locked_until = NULL, expires_at = TIMESTAMPADD(MICROSECOND, ? * 1000, UTC_TIMESTAMP(3)), status = 'COMPLETED'\\n WHERE idempotency_key = ? AND user_id = ? AND lock_version = ? AND status = 'PROCESSING'",
      "params": [
        "responseCode",
        "responseBody",
        "ttlMs",
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "fail": {
      "text": "UPDATE idempotency_store\\n   SET response_code = ?, response_body = ?, completed_at = UTC_TIMESTAMP(3),\\n       locked_until = NULL, expires_at = TIMESTAMPADD(MICROSECOND, ? * 1000, UTC_TIMESTAMP(3)), status = 'FAILED'\\n WHERE idempotency_key = ? AND user_id = ? AND lock_version = ? AND status = 'PROCESSING'",
      "params": [
        "responseCode",
        "responseBody",
        "ttlMs",
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "release": {
      "text": "DELETE FROM idempotency_store WHERE idempotency_key = ? AND user_id = ? AND lock_version = ? AND status = 'PROCESSING'",
      "params": [
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "purgeExpired": {
      "text": "DELETE FROM idempotency_store\\n WHERE expires_at <= UTC_TIMESTAMP(3) AND status <> 'PROCESSING'\\n ORDER BY expires_at\\n LIMIT ?",
      "params": [
        "batchSize"
      ]
    },
    "listStuck": {
      "text": "SELECT idempotency_key, user_id, lock_version, locked_until, created_at,\\n       TIMESTAMPDIFF(SECOND, locked_until, UTC_TIMESTAMP(3)) AS overdue_seconds\\n  FROM idempotency_store\\n WHERE status = 'PROCESSING' AND locked_until <= TIMESTAMPADD(MICROSECOND, -? * 1000, UTC_TIMESTAMP(3))\\n ORDER BY locked_until\\n LIMIT ?",
      "params": [
        "olderThanMs",
        "limit"
      ]
    },
    "forceRelease": {
      "text": "UPDATE idempotency_store SET locked_until = UTC_TIMESTAMP(3), lock_version = lock_version + 1\\n WHERE idempotency_key = ? AND user_id = ? AND status = 'PROCESSING'",
      "params": [
        "key",
        "scope"
      ]
    }
  },
  "scripts": {},
  "sample": {
    "action": "refundPayment",
    "body": {
      "payment_id": "payment-42",
      "amount": 4999,
      "currency": "EUR"
    },
    "otherBody": {
      "payment_id": "payment-42-other",
      "amount": 4999,
      "currency": "EUR"
    },
    "fingerprint": "41dd5a8748e58fe162a97237084ad52bda0bd2d1cfce8f3648282b0adccbebae"
  }
}
""";

    private ProjectData() {}
}
