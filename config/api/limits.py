"""Limits every API request meets before a view runs: body size and anonymous rate.

- A request to ``/api/`` whose ``Content-Length`` is above ``MAX_REQUEST_BODY_BYTES`` (1 MiB)
  is answered 413 ``request_too_large`` without reading the body. A chunked body
  (``Transfer-Encoding: chunked``, no ``Content-Length``) is read up to one byte past the
  limit: beyond it the answer is the same 413, within it the body is handed to the view like
  any other (Django and DRF would otherwise treat it as empty). Under WSGI that needs a server
  that ends the stream after the last chunk (``wsgi.input_terminated``, as gunicorn does);
  elsewhere a chunked body is 411 ``length_required``. Under ASGI Django reads the whole body
  before any middleware runs, so :class:`ASGIBodyLimit` wraps the application and stops
  reading at the limit. (nginx's ``client_max_body_size`` is the outer guard.)
- A request to ``/api/`` without a valid access token (no ``Authorization`` header, or one
  that is not ``Bearer`` with a well-signed, unexpired access token: ``Basic …``, junk, a
  forged or expired token) counts against its address under ``ANON_RATE_PER_IP``
  (:mod:`config.api.throttles`); over it the answer is 429 ``throttled`` with ``Retry-After``.
  Counting here, before URL resolution, also covers the public reads answered before DRF's
  cycle (the tournament standings poll) and requests for paths that do not exist.

Both answers have the shared error shape (:func:`config.api.errors.error_payload`).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.formats import number_format
from django.utils.translation import gettext
from rest_framework_simplejwt.exceptions import TokenError
from rest_framework_simplejwt.tokens import AccessToken

from config.api.authentication import CHECKED_TOKEN
from config.api.errors import error_payload
from config.api.throttles import client_address, in_words, take

API_PREFIX = "/api/"
#: Set in the ASGI scope by :class:`ASGIBodyLimit` when it stopped reading a body too large.
TOO_LARGE_KEY = "preference.body_too_large"


def _content_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def signed_in_by_token(request: HttpRequest) -> bool:
    """Whether the request carries ``Authorization: Bearer <access token>`` whose signature and
    expiry hold (checked here without the database; the view still loads the user, with the
    token checked here: :data:`CHECKED_TOKEN`). Any other ``Authorization`` header does not
    make a request signed in, so it cannot skip the anonymous limit."""
    kind, _, raw = str(request.META.get("HTTP_AUTHORIZATION", "")).strip().partition(" ")
    if kind != "Bearer" or not raw.strip():
        return False
    try:
        token = AccessToken(raw.strip())  # type: ignore[arg-type]
    except TokenError:
        return False
    setattr(request, CHECKED_TOKEN, (raw.strip(), token))
    return True


def _chunked(request: HttpRequest) -> bool:
    """Whether the body comes without a length: chunked, or (ASGI) with no Content-Length."""
    if request.META.get("CONTENT_LENGTH"):
        return False
    return "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()


def _bytes(count: int) -> str:
    """A number of bytes in the reader's locale: ``1,048,576`` (English), ``1.048.576``."""
    return number_format(count, force_grouping=True)


def _too_large(size: int | None, limit: int) -> JsonResponse:
    if size is None:
        message = gettext(
            "The request body has more than {limit} bytes; this service accepts at most {limit}."
        ).format(limit=_bytes(limit))
    else:
        message = gettext(
            "The request body has {size} bytes; this service accepts at most {limit}."
        ).format(size=_bytes(size), limit=_bytes(limit))
    return JsonResponse(error_payload("request_too_large", message), status=413)


def _take_chunked_body(request: HttpRequest, limit: int) -> HttpResponse | None:
    """Read a body sent without a length, at most one byte past ``limit``, and give it to the
    view as if it had come with its length; or the answer refusing it."""
    if isinstance(request, WSGIRequest):
        if not request.environ.get("wsgi.input_terminated"):
            return JsonResponse(
                error_payload(
                    "length_required",
                    gettext("Send the request body with a Content-Length header."),
                ),
                status=411,
            )
        source = request.environ["wsgi.input"]
    else:
        source = request._stream  # ASGI: the body as received
    data = source.read(limit + 1) if limit > 0 else source.read()
    if limit > 0 and len(data) > limit:
        return _too_large(None, limit)
    # The view reads the request's stream; DRF reads it only with a Content-Length.
    request._stream = io.BytesIO(data)
    request._read_started = False  # type: ignore[attr-defined]
    request.META["CONTENT_LENGTH"] = str(len(data))
    return None


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
            return _too_large(size, limit)
        if getattr(request, "scope", {}).get(TOO_LARGE_KEY):
            return _too_large(None, limit)
        if _chunked(request):
            refused = _take_chunked_body(request, limit)
            if refused is not None:
                return refused
        if signed_in_by_token(request):
            return None
        wait = take(f"anon:{client_address(request)}", settings.ANON_RATE_PER_IP)
        if wait <= 0:
            return None
        answer = JsonResponse(
            error_payload(
                "throttled",
                gettext(
                    "Too many requests from this address without signing in; try again in "
                    "{wait}, or sign in."
                ).format(wait=in_words(wait)),
            ),
            status=429,
        )
        answer["Retry-After"] = str(int(wait + 0.999))
        return answer


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
#: Loosely typed: Django's handler and Channels' routers each declare their own signature.
ASGIApp = Callable[..., Awaitable[None]]


class ASGIBodyLimit:
    """ASGI middleware around Django: reads an HTTP body only up to ``MAX_REQUEST_BODY_BYTES``.

    Django's ASGI handler reads the whole body (to a temporary file) before any middleware
    runs, so a chunked body of 512 MiB was read entirely. This reads the body first, keeping
    at most the limit; past it (or with a ``Content-Length`` above it) it stops reading, marks
    the scope and hands Django an empty body, and :class:`RequestLimitsMiddleware` answers 413
    with the CORS headers and error shape every answer has."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = int(settings.MAX_REQUEST_BODY_BYTES)
        if scope["type"] != "http" or limit <= 0:
            await self.app(scope, receive, send)
            return
        buffered: list[Message] = []
        too_large = False
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > limit:
            too_large = True
        else:
            size = 0
            while True:
                message = await receive()
                buffered.append(message)
                if message["type"] != "http.request":
                    break
                size += len(message.get("body", b""))
                if size > limit:
                    too_large = True
                    break
                if not message.get("more_body", False):
                    break
        if too_large:
            scope = {**scope, TOO_LARGE_KEY: True}
            buffered = [{"type": "http.request", "body": b"", "more_body": False}]

        async def replay() -> Message:
            if buffered:
                return buffered.pop(0)
            if too_large:
                # The rest of the body is never read; Django stops listening once it answers.
                await asyncio.Event().wait()
            return await receive()

        await self.app(scope, replay, send)
