"""Cleanup job: deletes expired COMPLETED/FAILED records in bounded batches; PROCESSING records are
never touched. Safe to run on every instance at once. Schedule run_forever() in a worker, or call
purge_expired() from cron / Celery beat every minute. (On Redis, records expire by themselves.)"""
import logging
import time
from typing import Any

log = logging.getLogger("idempotency.cleanup")


def purge_expired(store: Any, batch_size: int = 1000, max_batches: int = 500) -> int:
    total = 0
    for _ in range(max_batches):
        deleted = store.purge_expired(batch_size)
        total += deleted
        if deleted < batch_size:
            break
    return total


def run_forever(store: Any, every_s: float = 60.0) -> None:
    while True:
        try:
            log.info("idempotency cleanup purged %d records", purge_expired(store))
        except Exception:  # the next round retries; the table only grows meanwhile
            log.exception("idempotency cleanup failed")
        time.sleep(every_s)
