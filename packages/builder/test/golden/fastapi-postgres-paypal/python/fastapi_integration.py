"""FastAPI integration. The store is synchronous DB-API; its calls run in the thread pool so the
event loop never blocks. Your auth dependency sets request.state.user_id (the scope)."""
from __future__ import annotations

import json
from typing import Any, Awaitable, Callable, Optional, Tuple

from fastapi import Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from .engine import Answer, Claimed, PermanentError, Store, failure_answer, begin, json_response, policy_of, problem, validate_intent
from .fingerprint import fingerprint


def _response(answer: Answer) -> Response:
    headers = {"Idempotent-Replayed": "true"} if answer.replayed else {}
    if answer.retry_after_s is not None:
        headers["Retry-After"] = str(answer.retry_after_s)
    if answer.problem_code:
        headers["Cache-Control"] = "no-store"
    media = "application/problem+json" if answer.problem_code else "application/json"
    return Response(answer.body, status_code=answer.status_code, headers=headers, media_type=media)


async def idempotent(
    store: Store,
    request: Request,
    action: str,
    body: Any,
    execute: Callable[[], Awaitable[Tuple[int, Any]]],
) -> Response:
    """@app.post("/payments")
    async def create_payment(payload: PaymentIn, request: Request):
        return await idempotent(store, request, "createPayment", payload.model_dump(), lambda: pay(payload))
    """
    intent = validate_intent(request.headers.get("Idempotency-Key"))
    if isinstance(intent, Answer):
        return _response(intent)
    scope: Optional[str] = getattr(request.state, "user_id", None)
    if not scope:
        return _response(problem("unauthenticated"))
    try:
        fp = fingerprint(action, body, request.url.path, request.url.query)
    except ValueError:
        return _response(problem("invalid_body"))
    claimed = await run_in_threadpool(begin, store, action, intent, scope, fp)
    if isinstance(claimed, Answer):
        return _response(claimed)
    return _response(await _execute(store, claimed, action, execute))


async def _execute(store: Store, claimed: Claimed, action: str, execute: Callable[[], Awaitable[Tuple[int, Any]]]) -> Answer:
    policy = policy_of(action)
    try:
        status, result = await execute()
    except PermanentError as error:
        answer = failure_answer(error)
        if not await run_in_threadpool(store.fail, claimed.key, claimed.scope, claimed.lock_version, json_response(answer), policy.ttl_ms):
            return problem("lease_lost", 1000)
        return answer
    except Exception:
        await run_in_threadpool(store.release, claimed.key, claimed.scope, claimed.lock_version)
        raise
    body = json.dumps(result)
    if status >= 500:
        await run_in_threadpool(store.release, claimed.key, claimed.scope, claimed.lock_version)
        return Answer(status, body)
    answer = Answer(status, body)
    if not await run_in_threadpool(store.complete, claimed.key, claimed.scope, claimed.lock_version, json_response(answer), policy.ttl_ms):
        return problem("lease_lost", 1000)
    return answer
