package com.example.idempotency;

/** Per-project data (project.json), rendered by idempotency-builder: the only file that differs between projects. */
final class ProjectData {
    static final String JSON = """
{
  "generatedBy": "idempotency-builder",
  "project": "notifier",
  "store": "sqlite",
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
    "sendNotification": {
      "method": "POST",
      "path": "/notifications",
      "fields": [
        "user_id",
        "template",
        "channel"
      ],
      "leaseMs": 6000,
      "ttlMs": 43200000
    },
    "nightlyDigest": {
      "method": "CRON",
      "path": "0 2 * * *",
      "fields": [
        "slot"
      ],
      "leaseMs": 180000,
      "ttlMs": 43200000
    }
  },
  "paypalNamespace": "a9fb3cd5-9725-5507-ace1-4accda019c7b",
  "providerKeyLimits": {
    "stripe": 255,
    "adyenKey": 64,
    "adyenReference": 80,
    "braintreeOrderId": 255
  },
  "statements": {
    "claimRead": {
      "text": "SELECT n.now AS now, r.idempotency_key, r.user_id, r.fingerprint, r.status, r.response_code, r.response_headers, r.response_body, r.response_encoding, r.owner_id, r.lock_version, r.locked_until, r.created_at, r.completed_at, r.expires_at\\n      FROM (SELECT CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) AS now) AS n\\n      LEFT JOIN \\"idempotency_store\\" AS r ON r.idempotency_key = ? AND r.user_id = ?",
      "params": [
        "key",
        "scope"
      ]
    },
    "claimUpsert": {
      "text": "INSERT INTO \\"idempotency_store\\"\\n        (idempotency_key, user_id, fingerprint, status, owner_id, lock_version, locked_until, created_at, completed_at, expires_at)\\n      VALUES (?, ?, ?, 'PROCESSING', ?, ?, ? + ?, ?, NULL, ? + ?)\\n      ON CONFLICT (idempotency_key, user_id) DO UPDATE SET\\n        fingerprint = excluded.fingerprint,\\n        owner_id = excluded.owner_id,\\n        created_at = CASE WHEN status = 'PROCESSING' THEN created_at ELSE excluded.created_at END,\\n        status = 'PROCESSING',\\n        lock_version = CASE WHEN status = 'PROCESSING' THEN lock_version + 1 ELSE MAX(lock_version + 1, excluded.lock_version) END,\\n        locked_until = excluded.locked_until,\\n        completed_at = NULL,\\n        expires_at = excluded.expires_at,\\n        response_code = NULL,\\n        response_headers = NULL,\\n        response_body = NULL,\\n        response_encoding = NULL\\n      WHERE (status <> 'PROCESSING' AND expires_at <= ? AND ? = 1)\\n         OR (status = 'PROCESSING' AND locked_until <= ?\\n             AND fingerprint = excluded.fingerprint AND owner_id IS excluded.owner_id)\\n      RETURNING lock_version, locked_until",
      "params": [
        "key",
        "scope",
        "fingerprint",
        "owner",
        "now",
        "now",
        "leaseMs",
        "now",
        "now",
        "ttlMs",
        "now",
        "replaceExpired",
        "now"
      ]
    },
    "finish": {
      "text": "UPDATE \\"idempotency_store\\" SET\\n        status = ?,\\n        locked_until = NULL,\\n        response_code = ?,\\n        response_headers = ?,\\n        response_body = ?,\\n        response_encoding = ?,\\n        completed_at = CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER),\\n        expires_at = CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) + ?\\n      WHERE idempotency_key = ? AND user_id = ? AND status = 'PROCESSING' AND lock_version = ?",
      "params": [
        "status",
        "responseCode",
        "responseHeaders",
        "responseBody",
        "responseEncoding",
        "ttlMs",
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "release": {
      "text": "DELETE FROM \\"idempotency_store\\"\\n      WHERE idempotency_key = ? AND user_id = ? AND status = 'PROCESSING' AND lock_version = ?",
      "params": [
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "extend": {
      "text": "UPDATE \\"idempotency_store\\" SET locked_until = CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) + ?\\n      WHERE idempotency_key = ? AND user_id = ? AND status = 'PROCESSING' AND lock_version = ?",
      "params": [
        "leaseMs",
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "get": {
      "text": "SELECT idempotency_key, user_id, fingerprint, status, response_code, response_headers, response_body, response_encoding, owner_id, lock_version, locked_until, created_at, completed_at, expires_at FROM \\"idempotency_store\\" WHERE idempotency_key = ? AND user_id = ?",
      "params": [
        "key",
        "scope"
      ]
    },
    "purgeExpired": {
      "text": "DELETE FROM \\"idempotency_store\\" WHERE rowid IN (\\n        SELECT rowid FROM \\"idempotency_store\\"\\n        WHERE status <> 'PROCESSING' AND expires_at <= CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)\\n        LIMIT ?)",
      "params": [
        "batchSize"
      ]
    },
    "listStuck": {
      "text": "SELECT idempotency_key, user_id, fingerprint, status, response_code, response_headers, response_body, response_encoding, owner_id, lock_version, locked_until, created_at, completed_at, expires_at FROM \\"idempotency_store\\"\\n      WHERE status = 'PROCESSING' AND locked_until <= CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) - ?\\n      ORDER BY locked_until\\n      LIMIT ?",
      "params": [
        "olderThanMs",
        "limit"
      ]
    },
    "forceRelease": {
      "text": "UPDATE \\"idempotency_store\\" SET lock_version = lock_version + 1, locked_until = CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)\\n      WHERE idempotency_key = ? AND user_id = ? AND status = 'PROCESSING'",
      "params": [
        "key",
        "scope"
      ]
    },
    "now": {
      "text": "SELECT CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER) AS now",
      "params": []
    }
  },
  "scripts": {},
  "sample": {
    "action": "sendNotification",
    "body": {
      "user_id": "user-42",
      "template": "template-1",
      "channel": "channel-1"
    },
    "otherBody": {
      "user_id": "user-42-other",
      "template": "template-1",
      "channel": "channel-1"
    },
    "fingerprint": "62535e28a5d9068df758e722ab1e800d43bf0f54d1faf080447503302c8a80d9"
  }
}
""";

    private ProjectData() {}
}
