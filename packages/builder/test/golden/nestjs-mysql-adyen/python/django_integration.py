"""Django integration: a view decorator. The scope is the authenticated user's primary key; it is
never read from the request body. Views return (body, status)."""
from __future__ import annotations

import functools
import json
from typing import Any, Callable, Tuple

from django.http import HttpRequest, HttpResponse

from .engine import Answer, Store, problem, run, validate_intent
from .fingerprint import fingerprint


def _response(answer: Answer) -> HttpResponse:
    media = "application/problem+json" if answer.problem_code else "application/json"
    response = HttpResponse(answer.body, status=answer.status_code, content_type=media)
    if answer.replayed:
        response["Idempotent-Replayed"] = "true"
    if answer.retry_after_s is not None:
        response["Retry-After"] = str(answer.retry_after_s)
    if answer.problem_code:
        response["Cache-Control"] = "no-store"
    return response


def idempotent(store: Store, action: str) -> Callable[[Callable[..., Tuple[Any, int]]], Callable[..., HttpResponse]]:
    """@require_POST
    @idempotent(store, "createPayment")
    def create_payment(request): return {"id": pay(json.loads(request.body))}, 201
    """
    def decorate(view: Callable[..., Tuple[Any, int]]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            intent = validate_intent(request.headers.get("Idempotency-Key"))
            if isinstance(intent, Answer):
                return _response(intent)
            user = getattr(request, "user", None)
            if user is None or not user.is_authenticated:
                return _response(problem("unauthenticated"))
            try:
                body = json.loads(request.body) if request.body else None  # no body is not {}
                fp = fingerprint(action, body, request.path, request.META.get("QUERY_STRING", ""))
            except ValueError:
                return _response(problem("invalid_body"))

            def execute() -> Tuple[int, Any]:
                result, status = view(request, *args, **kwargs)
                return status, result

            return _response(run(store, action, intent, str(user.pk), fp, execute))

        return wrapper

    return decorate
