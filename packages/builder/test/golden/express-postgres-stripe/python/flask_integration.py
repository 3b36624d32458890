"""Flask integration: a decorator for views that return (body, status). Your auth code sets
flask.g.user_id (the scope); it is never read from the request body."""
from __future__ import annotations

import functools
from typing import Any, Callable, Tuple

from flask import Response, g, request

from .engine import Answer, Store, problem, run, validate_intent
from .fingerprint import fingerprint


def _response(answer: Answer) -> Response:
    media = "application/problem+json" if answer.problem_code else "application/json"
    response = Response(answer.body, status=answer.status_code, mimetype=media)
    if answer.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    if answer.retry_after_s is not None:
        response.headers["Retry-After"] = str(answer.retry_after_s)
    if answer.problem_code:
        response.headers["Cache-Control"] = "no-store"
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
                return _response(problem("unauthenticated"))
            body = request.get_json(silent=True)
            if body is None and request.get_data():
                return _response(problem("invalid_body"))

            def execute() -> Tuple[int, Any]:
                result, status = view(*args, **kwargs)
                return status, result

            try:  # no body is None, not {}: the runtime fingerprints them differently
                fp = fingerprint(action, body, request.path, request.query_string.decode("utf-8", "replace"))
            except ValueError:
                return _response(problem("invalid_body"))
            return _response(run(store, action, intent, str(scope), fp, execute))

        return wrapper

    return decorate
