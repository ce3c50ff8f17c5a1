"""One error shape for every 4xx and 503: ``{"code": ..., "message": ..., "fields": {...}}``.

``code`` is machine-readable snake_case, ``message`` a readable sentence and ``fields`` maps
input field names (dotted for nested input) to lists of messages. Apps raise subclasses of
:class:`DomainError` from their ``errors.py``; :func:`exception_handler` maps them and DRF's
own exceptions to this shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import kombu.exceptions
import redis.exceptions
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError as DatabaseInterfaceError
from django.db import OperationalError as DatabaseOperationalError
from django.http import Http404, JsonResponse
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

#: DRF default codes renamed to the project's vocabulary.
CODE_ALIASES = {
    "invalid": "validation_error",
    "authentication_failed": "not_authenticated",
    "token_not_valid": "token_not_valid",
}


class DomainError(Exception):
    """Base class for business-rule errors raised by services.

    Subclasses set ``code``, ``status_code`` and ``default_message``; an instance may
    override the message and carry per-field messages.
    """

    status_code: int = status.HTTP_400_BAD_REQUEST
    code: str = "domain_error"
    default_message: str | Promise = gettext_lazy("The request could not be carried out.")

    def __init__(
        self,
        message: str | Promise | None = None,
        *,
        fields: Mapping[str, list[str]] | None = None,
        code: str | None = None,
    ) -> None:
        self.message = str(message or self.default_message)
        self.fields = dict(fields or {})
        if code is not None:
            self.code = code
        super().__init__(self.message)


class Conflict(DomainError):
    """The resource changed or exists already (HTTP 409)."""

    status_code = status.HTTP_409_CONFLICT
    code = "conflict"
    default_message = gettext_lazy("The request conflicts with the current state of the resource.")


class InvalidInput(DomainError):
    """Input that is wrong for a reason a serializer cannot see (HTTP 400). One class for
    every app: ``games.errors``, ``clubs.errors`` and ``tournaments.errors`` re-export it."""

    status_code = status.HTTP_400_BAD_REQUEST
    code = "validation_error"
    default_message = gettext_lazy("The request is invalid.")

    @classmethod
    def about(cls, field: str, message: str, *, code: str | None = None) -> InvalidInput:
        """The refusal of one field: ``message`` as the answer's sentence and the field's."""
        return cls(message, fields={field: [message]}, code=code)


def error_payload(code: str, message: str, fields: Mapping[str, list[str]] | None = None) -> dict:
    """Build the error body shared by every 4xx response."""
    return {"code": code, "message": message, "fields": dict(fields or {})}


#: Seconds a client is asked to wait (``Retry-After``) when a backing service is down.
RETRY_AFTER_SECONDS = 5
#: The 503 sentence for each backing service that cannot serve the request.
UNAVAILABLE_MESSAGES = {
    "database": gettext_lazy(
        "The service cannot reach its database right now; try again in a few seconds."
    ),
    "busy database": gettext_lazy(
        "The database is busy with other changes and this one could not wait longer; "
        "try again in a few seconds."
    ),
    "broker": gettext_lazy(
        "The service cannot reach its task queue right now; try again in a few seconds."
    ),
}

#: SQLite's result codes for a database (SQLITE_BUSY) or table (SQLITE_LOCKED) another
#: connection holds: the lowest byte of its extended codes too (SQLITE_BUSY_SNAPSHOT, ...).
SQLITE_BUSY_CODES = frozenset({5, 6})


def _database_busy(exc: BaseException) -> bool:
    """Whether the database error ``exc`` is SQLite's "database is locked": another
    connection kept the write lock past the busy timeout (config/settings.py)."""
    code = getattr(exc.__cause__, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in SQLITE_BUSY_CODES


def unavailable_service(exc: BaseException | None) -> str | None:
    """Which backing service ``exc`` says cannot serve the request: ``"busy database"`` when
    the embedded SQLite database stayed locked by another writer past the busy timeout,
    ``"database"`` for the database driver's other operational and interface errors (refused
    or dropped connections, a server shutting down or starting up), ``"broker"`` for Redis
    and kombu connection errors; None for any other exception."""
    if isinstance(exc, (DatabaseOperationalError, DatabaseInterfaceError)):
        return "busy database" if _database_busy(exc) else "database"
    if isinstance(
        exc,
        (
            kombu.exceptions.OperationalError,
            redis.exceptions.ConnectionError,
            redis.exceptions.TimeoutError,
        ),
    ):
        return "broker"
    return None


def unavailable_payload(service: str) -> dict:
    """The 503 body: ``service_unavailable`` with a sentence naming what is down."""
    return error_payload("service_unavailable", str(UNAVAILABLE_MESSAGES[service]))


def unavailable_json(service: str) -> JsonResponse:
    """A plain Django 503 answer (for errors raised outside DRF's views) with Retry-After."""
    answer = JsonResponse(unavailable_payload(service), status=503)
    answer["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return answer


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """Flatten DRF validation detail into ``{"field.sub": ["message", ...]}``."""
    if isinstance(detail, Mapping):
        flat: dict[str, list[str]] = {}
        for key, value in detail.items():
            flat.update(_flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    if isinstance(detail, list):
        if all(not isinstance(item, (Mapping, list)) for item in detail):
            return {prefix: [str(item) for item in detail]}
        flat = {}
        for index, item in enumerate(detail):
            flat.update(_flatten(item, f"{prefix}.{index}" if prefix else str(index)))
        return flat
    return {prefix: [str(detail)]}


def _validation_payload(exc: exceptions.ValidationError) -> dict:
    fields = _flatten(exc.detail)
    general = fields.pop("non_field_errors", []) + fields.pop("", [])
    if general:
        message = " ".join(general)
    elif fields:
        names = ", ".join(sorted(fields))
        message = gettext("Some fields are invalid: {names}.").format(names=names)
    else:
        message = gettext("The request is invalid.")
    return error_payload("validation_error", message, fields)


def _api_exception_payload(exc: exceptions.APIException) -> dict:
    detail: Any = exc.detail
    code = exc.default_code
    if isinstance(detail, Mapping):
        # simplejwt's InvalidToken carries {"detail", "code", "messages"}.
        code = str(detail.get("code", code))
        detail = detail.get("detail", exc.default_detail)
    elif isinstance(detail, exceptions.ErrorDetail):
        code = detail.code or code
    code = CODE_ALIASES.get(str(code), str(code))
    message = str(detail)
    # a sentence of the tests' pseudo-locale ends inside its "⟧" (config.catalogs.pseudo)
    if message and not message.rstrip("⟧").endswith((".", "!", "?")):
        message += "."
    return error_payload(code, message)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF exception handler producing the project's error shape.

    A database or broker that cannot be reached is 503 ``service_unavailable`` with
    ``Retry-After``. Returns ``None`` for unexpected exceptions so Django's 500 handling
    applies.
    """
    service = unavailable_service(exc)
    if service is not None:
        set_rollback()
        return Response(
            unavailable_payload(service),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    if isinstance(exc, DomainError):
        return Response(error_payload(exc.code, exc.message, exc.fields), status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        # Model and service validation (full_clean, password validators) → 400.
        exc = exceptions.ValidationError(as_serializer_error(exc))

    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        response.data = _validation_payload(exc)
    else:
        response.data = _api_exception_payload(exc)
    return response
