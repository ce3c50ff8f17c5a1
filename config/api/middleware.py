"""503 answers for a database or broker that cannot be reached, wherever the error arises.

DRF views map these errors in :func:`config.api.errors.exception_handler`. Some requests
reach the database outside DRF's request cycle (the anonymous standings poll answered in a
view's ``dispatch``, the admin, the session and user middleware); their errors come here as
the view's exception and get the same answer: 503 ``service_unavailable`` with a sentence and
``Retry-After``, never a traceback or an HTML error page. Any other exception is left to
Django's 500 handling.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin

from config.api.errors import unavailable_json, unavailable_service

log = logging.getLogger(__name__)


class ServiceUnavailableMiddleware(MiddlewareMixin):
    """Turn a view's database or broker connection error into a JSON 503 (sync and async:
    Django adapts ``process_exception`` to either)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """The 503 answer for an unreachable database or broker; None for anything else."""
        service = unavailable_service(exception)
        if service is None:
            return None
        log.warning(
            "%s unavailable during %s %s: %s", service, request.method, request.path, exception
        )
        return unavailable_json(service)
