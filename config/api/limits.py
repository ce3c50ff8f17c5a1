"""Limits every API request meets before a view runs: body size and anonymous rate.

- A request to ``/api/`` whose ``Content-Length`` is above ``MAX_REQUEST_BODY_BYTES`` (1 MiB)
  is answered 413 ``request_too_large`` without reading the body. (Django reads no body
  without a ``Content-Length``; nginx's ``client_max_body_size`` is the outer guard.)
- A request to ``/api/`` without an ``Authorization`` header counts against its address under
  ``ANON_RATE_PER_IP`` (:mod:`config.api.throttles`); over it the answer is 429 ``throttled``
  with ``Retry-After``. Counting here, before URL resolution, also covers the public reads
  answered before DRF's cycle (the tournament standings poll) and requests for paths that do
  not exist.

Both answers have the shared error shape (:func:`config.api.errors.error_payload`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from config.api.errors import error_payload
from config.api.throttles import client_address, in_words, take

API_PREFIX = "/api/"


def _content_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class RequestLimitsMiddleware:
    """413 for oversized bodies and 429 for anonymous callers over their rate, on ``/api/``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(API_PREFIX):
            refused = self.refusal(request)
            if refused is not None:
                return refused
        return self.get_response(request)

    @staticmethod
    def refusal(request: HttpRequest) -> HttpResponse | None:
        limit = int(settings.MAX_REQUEST_BODY_BYTES)
        size = _content_length(request)
        if limit > 0 and size > limit:
            return JsonResponse(
                error_payload(
                    "request_too_large",
                    f"The request body has {size:,} bytes; this service accepts at most {limit:,}.",
                ),
                status=413,
            )
        if "HTTP_AUTHORIZATION" in request.META:
            return None
        wait = take(f"anon:{client_address(request)}", settings.ANON_RATE_PER_IP)
        if wait <= 0:
            return None
        answer = JsonResponse(
            error_payload(
                "throttled",
                f"Too many requests from this address without signing in; try again in "
                f"{in_words(wait)}, or sign in.",
            ),
            status=429,
        )
        answer["Retry-After"] = str(int(wait + 0.999))
        return answer
