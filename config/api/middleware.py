"""Answers given before (or instead of) a view: requests no view can take, and backing
services that are down. Both are JSON in the shared error shape, never an HTML page.

:class:`RequestSanityMiddleware`, first of all: a ``Host`` header not in ``ALLOWED_HOSTS`` is
400 ``bad_host`` (Django raises ``DisallowedHost`` from ``request.get_host()``, which would
otherwise give its HTML "Bad Request" page), and a NUL character in an ``/api/`` path or query
string is 400 ``nul_character``: PostgreSQL cannot hold one in text, so a path parameter or
filter carrying it would fail in the database.

:class:`ServiceUnavailableMiddleware`: 503 for a database or broker that cannot be reached (or
the embedded SQLite database still locked by another writer after the busy timeout),
wherever the error arises. DRF views map these errors in
:func:`config.api.errors.exception_handler`. Some requests reach the database outside DRF's
request cycle (the anonymous standings poll answered in a view's ``dispatch``, the admin, the
session and user middleware); their errors come here as the view's exception and get the same
answer: 503 ``service_unavailable`` with a sentence and ``Retry-After``, never a traceback or
an HTML error page. Any other exception is left to Django's 500 handling, whose handler
(:func:`config.api.views.handler500`) gives the same 503 for these errors raised where no
view's exception handling reaches (another middleware, with ``DEBUG`` off).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import DisallowedHost, SuspiciousOperation, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext_lazy

from config.api.errors import error_payload, unavailable_json, unavailable_service

log = logging.getLogger(__name__)
security_log = logging.getLogger("django.security.DisallowedHost")

API_PREFIX = "/api/"
BAD_HOST = gettext_lazy(
    "The Host header does not name this service; send the request to one of its own addresses."
)
NUL_IN_PATH = gettext_lazy("The path must not contain NUL characters (%00).")
NUL_IN_QUERY = gettext_lazy("The query string must not contain NUL characters (%00).")
TOO_MANY_FIELDS = gettext_lazy(
    "The query string cannot be read: it has more than {limit} parameters."
)
BAD_QUERY = gettext_lazy("The query string cannot be read.")


class RequestSanityMiddleware:
    """400 ``bad_host`` for a Host that is not allowed, 400 ``nul_character`` for a NUL in an
    ``/api/`` path or query string. First in ``MIDDLEWARE``: nothing before it asks for the
    host."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refused = self.refusal(request)
        return refused if refused is not None else self.get_response(request)

    @staticmethod
    def refusal(request: HttpRequest) -> HttpResponse | None:
        try:
            request.get_host()
        except DisallowedHost as e:
            security_log.warning("%s", e)
            return JsonResponse(error_payload("bad_host", str(BAD_HOST)), status=400)
        if not request.path.startswith(API_PREFIX):
            return None
        if "\x00" in request.path:
            return JsonResponse(error_payload("nul_character", str(NUL_IN_PATH)), status=400)
        try:
            query = request.GET
        except TooManyFieldsSent:  # more than DATA_UPLOAD_MAX_NUMBER_FIELDS
            limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
            message = str(TOO_MANY_FIELDS).format(limit=limit)
            return JsonResponse(error_payload("bad_query", message), status=400)
        except SuspiciousOperation:  # Django's reason is an English sentence for the log
            return JsonResponse(error_payload("bad_query", str(BAD_QUERY)), status=400)
        if any("\x00" in key or any("\x00" in v for v in query.getlist(key)) for key in query):
            return JsonResponse(error_payload("nul_character", str(NUL_IN_QUERY)), status=400)
        return None


class ServiceUnavailableMiddleware(MiddlewareMixin):
    """Turn a view's database or broker connection error into a JSON 503 (sync and async:
    Django adapts ``process_exception`` to either)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """The 503 answer for an unreachable database or broker; None for anything else."""
        service = unavailable_service(exception)
        if service is None:
            return None
        log.warning("503 (%s) during %s %s: %s", service, request.method, request.path, exception)
        return unavailable_json(service)
