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
  "providerKeyLimits": {
    "stripe": 255,
    "adyenKey": 64,
    "adyenReference": 80,
    "braintreeOrderId": 255
  },
  "statements": {
    "claimUpsert": {
      "text": "INSERT INTO `idempotency_store`\\n  (idempotency_key, user_id, owner_id, fingerprint, status, lock_version, locked_until, created_at, expires_at, claim_token)\\n  VALUES (?, ?, ?, ?, 'PROCESSING', (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(3)) DIV 1000), UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND, UTC_TIMESTAMP(3),\\n  UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND, CONCAT(?, 'N'))\\n  ON DUPLICATE KEY UPDATE\\n  claim_token = IF(\\n  (status = 'PROCESSING' AND locked_until <= UTC_TIMESTAMP(3) AND fingerprint = ? AND owner_id <=> ?)\\n  OR (status <> 'PROCESSING' AND expires_at <= UTC_TIMESTAMP(3) AND ? = 1),\\n  CONCAT(?, IF(status = 'PROCESSING', 'R', 'E')), claim_token),\\n  lock_version = IF(claim_token = CONCAT(?, 'R'), lock_version + 1,\\n  IF(claim_token = CONCAT(?, 'E'), GREATEST(lock_version + 1, (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(3)) DIV 1000)), lock_version)),\\n  created_at = IF(claim_token = CONCAT(?, 'E'), UTC_TIMESTAMP(3), created_at),\\n  fingerprint = IF(LEFT(claim_token, 32) = ?, ?, fingerprint),\\n  owner_id = IF(LEFT(claim_token, 32) = ?, ?, owner_id),\\n  status = IF(LEFT(claim_token, 32) = ?, 'PROCESSING', status),\\n  locked_until = IF(LEFT(claim_token, 32) = ?, UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND, locked_until),\\n  expires_at = IF(LEFT(claim_token, 32) = ?, UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND, expires_at),\\n  completed_at = IF(LEFT(claim_token, 32) = ?, NULL, completed_at),\\n  response_code = IF(LEFT(claim_token, 32) = ?, NULL, response_code),\\n  response_headers = IF(LEFT(claim_token, 32) = ?, NULL, response_headers),\\n  response_encoding = IF(LEFT(claim_token, 32) = ?, NULL, response_encoding),\\n  response_bytes = IF(LEFT(claim_token, 32) = ?, NULL, response_bytes)",
      "params": [
        "key",
        "scope",
        "owner",
        "fingerprint",
        "leaseUs",
        "ttlUs",
        "nonce",
        "fingerprint",
        "owner",
        "replaceExpired",
        "nonce",
        "nonce",
        "nonce",
        "nonce",
        "nonce",
        "fingerprint",
        "nonce",
        "owner",
        "nonce",
        "nonce",
        "leaseUs",
        "nonce",
        "ttlUs",
        "nonce",
        "nonce",
        "nonce",
        "nonce",
        "nonce"
      ]
    },
    "claimRead": {
      "text": "SELECT (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(3)) DIV 1000) AS now_ms, idempotency_key, user_id, owner_id, fingerprint, status, lock_version, response_code,\\n  response_headers, response_encoding, response_bytes, claim_token,\\n  (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', locked_until) DIV 1000) AS locked_until_ms, (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', created_at) DIV 1000) AS created_at_ms,\\n  (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', completed_at) DIV 1000) AS completed_at_ms, (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', expires_at) DIV 1000) AS expires_at_ms FROM `idempotency_store` WHERE idempotency_key = ? AND user_id = ? LOCK IN SHARE MODE",
      "params": [
        "key",
        "scope"
      ]
    },
    "finish": {
      "text": "UPDATE `idempotency_store` SET status = ?, response_code = ?, response_headers = ?,\\n  response_encoding = ?, response_bytes = ?, locked_until = NULL, completed_at = UTC_TIMESTAMP(3),\\n  expires_at = UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND\\n  WHERE idempotency_key = ? AND user_id = ? AND lock_version = ? AND status = 'PROCESSING'",
      "params": [
        "status",
        "code",
        "headers",
        "encoding",
        "bytes",
        "ttlUs",
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "release": {
      "text": "DELETE FROM `idempotency_store` WHERE idempotency_key = ? AND user_id = ? AND lock_version = ? AND status = 'PROCESSING'",
      "params": [
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "extend": {
      "text": "UPDATE `idempotency_store` SET locked_until = UTC_TIMESTAMP(3) + INTERVAL ? MICROSECOND WHERE idempotency_key = ? AND user_id = ? AND lock_version = ? AND status = 'PROCESSING'",
      "params": [
        "leaseUs",
        "key",
        "scope",
        "lockVersion"
      ]
    },
    "get": {
      "text": "SELECT idempotency_key, user_id, owner_id, fingerprint, status, lock_version, response_code,\\n  response_headers, response_encoding, response_bytes, claim_token,\\n  (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', locked_until) DIV 1000) AS locked_until_ms, (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', created_at) DIV 1000) AS created_at_ms,\\n  (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', completed_at) DIV 1000) AS completed_at_ms, (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', expires_at) DIV 1000) AS expires_at_ms FROM `idempotency_store` WHERE idempotency_key = ? AND user_id = ?",
      "params": [
        "key",
        "scope"
      ]
    },
    "purgeCandidates": {
      "text": "SELECT idempotency_key, user_id FROM `idempotency_store`\\n  WHERE purge_at <= UTC_TIMESTAMP(3) ORDER BY purge_at LIMIT ?",
      "params": [
        "limit"
      ]
    },
    "listStuck": {
      "text": "SELECT idempotency_key, user_id, owner_id, fingerprint, status, lock_version, response_code,\\n  response_headers, response_encoding, response_bytes, claim_token,\\n  (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', locked_until) DIV 1000) AS locked_until_ms, (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', created_at) DIV 1000) AS created_at_ms,\\n  (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', completed_at) DIV 1000) AS completed_at_ms, (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', expires_at) DIV 1000) AS expires_at_ms FROM `idempotency_store`\\n  WHERE stuck_at <= UTC_TIMESTAMP(3) - INTERVAL ? MICROSECOND ORDER BY stuck_at LIMIT ?",
      "params": [
        "olderUs",
        "limit"
      ]
    },
    "forceRelease": {
      "text": "UPDATE `idempotency_store` SET lock_version = lock_version + 1, locked_until = UTC_TIMESTAMP(3)\\n  WHERE idempotency_key = ? AND user_id = ? AND status = 'PROCESSING'",
      "params": [
        "key",
        "scope"
      ]
    },
    "now": {
      "text": "SELECT (TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(3)) DIV 1000) AS now_ms",
      "params": []
    },
    "purgeDelete": {
      "text": "DELETE FROM `idempotency_store` WHERE (idempotency_key, user_id) IN ((?, ?)) AND purge_at <= UTC_TIMESTAMP(3)",
      "params": [
        "key0",
        "scope0"
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
    "fingerprint": "6bd7371b5dcf9857960a3e04f1a7c9504098461f1a9067fee46fdd734f1cf19c"
  }
}
""";

    private ProjectData() {}
}
