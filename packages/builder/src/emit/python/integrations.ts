/**
 * Generated Python web integrations: FastAPI (async, store calls in the thread pool), Flask and
 * Django (decorators). Each resolves the key and the scope, then runs the engine.
 */
import type { CodeFramework } from '../../design/plan/stack.js';

const FASTAPI = `"""FastAPI integration. The store is synchronous DB-API; its calls run in the thread pool so the
event loop never blocks. Your auth dependency sets request.state.user_id (the scope)."""
from __future__ import annotations

from typing import Any, Awaitable, Callable, Optional, Tuple

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from .engine import POLICIES, Answer, Claimed, PermanentError, Store, begin, problem, validate_intent
from .fingerprint import fingerprint


def _response(answer: Answer) -> JSONResponse:
    headers = {"Idempotent-Replayed": "true"} if answer.replayed else {}
    if answer.retry_after_s is not None:
        headers["Retry-After"] = str(answer.retry_after_s)
    media = "application/problem+json" if isinstance(answer.body, dict) and "code" in answer.body and answer.status_code >= 400 else None
    return JSONResponse(answer.body, status_code=answer.status_code, headers=headers, media_type=media)


async def idempotent(
    store: Store,
    request: Request,
    action: str,
    body: Any,
    execute: Callable[[], Awaitable[Tuple[int, Any]]],
) -> JSONResponse:
    """@app.post("/payments")
    async def create_payment(payload: PaymentIn, request: Request):
        return await idempotent(store, request, "createPayment", payload.model_dump(), lambda: pay(payload))
    """
    intent = validate_intent(request.headers.get("Idempotency-Key"))
    if isinstance(intent, Answer):
        return _response(intent)
    scope: Optional[str] = getattr(request.state, "user_id", None)
    if not scope:
        return _response(problem(401, "unauthenticated", "Idempotent requests need an authenticated caller."))
    claimed = await run_in_threadpool(begin, store, action, intent, scope, fingerprint(action, body, request.url.path))
    if isinstance(claimed, Answer):
        return _response(claimed)
    return _response(await _execute(store, claimed, action, execute))


async def _execute(store: Store, claimed: Claimed, action: str, execute: Callable[[], Awaitable[Tuple[int, Any]]]) -> Answer:
    policy = POLICIES[action]
    try:
        status, result = await execute()
    except PermanentError as error:
        answer = problem(error.status_code, "failed", str(error))
        await run_in_threadpool(store.finish, claimed, "FAILED", answer.status_code, answer.body, policy.ttl_ms)
        return answer
    except Exception:
        await run_in_threadpool(store.release, claimed)
        raise
    if status >= 500:
        await run_in_threadpool(store.release, claimed)
        return Answer(status, result)
    if not await run_in_threadpool(store.finish, claimed, "COMPLETED", status, result, policy.ttl_ms):
        return problem(503, "lease_lost", "The request was taken over by another worker; retry with the same key.", 1)
    return Answer(status, result)
`;

const FLASK = `"""Flask integration: a decorator for views that return (body, status). Your auth code sets
flask.g.user_id (the scope); it is never read from the request body."""
from __future__ import annotations

import functools
from typing import Any, Callable, Tuple

from flask import g, jsonify, request

from .engine import Answer, Store, run, problem, validate_intent
from .fingerprint import fingerprint


def _response(answer: Answer) -> Any:
    response = jsonify(answer.body)
    response.status_code = answer.status_code
    if answer.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    if answer.retry_after_s is not None:
        response.headers["Retry-After"] = str(answer.retry_after_s)
    return response


def idempotent(store: Store, action: str) -> Callable[[Callable[..., Tuple[Any, int]]], Callable[..., Any]]:
    """@app.post("/payments")
    @idempotent(store, "createPayment")
    def create_payment(): return {"id": pay(request.get_json())}, 201
    """
    def decorate(view: Callable[..., Tuple[Any, int]]) -> Callable[..., Any]:
        @functools.wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            intent = validate_intent(request.headers.get("Idempotency-Key"))
            if isinstance(intent, Answer):
                return _response(intent)
            scope = getattr(g, "user_id", None)
            if not scope:
                return _response(problem(401, "unauthenticated", "Idempotent requests need an authenticated caller."))
            body = request.get_json(silent=True) or {}

            def execute() -> Tuple[int, Any]:
                result, status = view(*args, **kwargs)
                return status, result

            return _response(run(store, action, intent, str(scope), fingerprint(action, body, request.path), execute))

        return wrapper

    return decorate
`;

const DJANGO = `"""Django integration: a view decorator. The scope is the authenticated user's primary key; it is
never read from the request body. Views return (body, status)."""
from __future__ import annotations

import functools
import json
from typing import Any, Callable, Tuple

from django.http import HttpRequest, JsonResponse

from .engine import Answer, Store, run, problem, validate_intent
from .fingerprint import fingerprint


def _response(answer: Answer) -> JsonResponse:
    response = JsonResponse(answer.body, status=answer.status_code, safe=False)
    if answer.replayed:
        response["Idempotent-Replayed"] = "true"
    if answer.retry_after_s is not None:
        response["Retry-After"] = str(answer.retry_after_s)
    return response


def idempotent(store: Store, action: str) -> Callable[[Callable[..., Tuple[Any, int]]], Callable[..., JsonResponse]]:
    """@require_POST
    @idempotent(store, "createPayment")
    def create_payment(request): return {"id": pay(json.loads(request.body))}, 201
    """
    def decorate(view: Callable[..., Tuple[Any, int]]) -> Callable[..., JsonResponse]:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            intent = validate_intent(request.headers.get("Idempotency-Key"))
            if isinstance(intent, Answer):
                return _response(intent)
            user = getattr(request, "user", None)
            if user is None or not user.is_authenticated:
                return _response(problem(401, "unauthenticated", "Idempotent requests need an authenticated caller."))
            try:
                body = json.loads(request.body or b"{}")
            except ValueError:
                return _response(problem(400, "invalid_body", "The request body is not JSON."))

            def execute() -> Tuple[int, Any]:
                result, status = view(request, *args, **kwargs)
                return status, result

            return _response(run(store, action, intent, str(user.pk), fingerprint(action, body, request.path), execute))

        return wrapper

    return decorate
`;

/**
 * The integration module for a Python framework.
 * @example pythonIntegration('flask').includes('def idempotent(')
 */
export function pythonIntegration(framework: CodeFramework): { file: string; content: string } {
  if (framework === 'flask') return { file: 'flask_integration.py', content: FLASK };
  if (framework === 'django') return { file: 'django_integration.py', content: DJANGO };
  return { file: 'fastapi_integration.py', content: FASTAPI };
}
