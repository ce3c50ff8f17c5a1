"""JSON fallbacks for requests under ``/api/`` that no view handles."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt

from config.api.errors import error_payload


@csrf_exempt
def api_not_found(request: HttpRequest, *args: object, **kwargs: object) -> JsonResponse:
    """Answer an unknown ``/api/`` route with the JSON 404 error shape (any method)."""
    message = f"No API endpoint at {request.path}."
    if not request.path.endswith("/"):
        try:
            match = resolve(request.path + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not api_not_found:
            message = f"No API endpoint at {request.path}; did you mean {request.path}/?"
    return JsonResponse(error_payload("not_found", message), status=404)


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """JSON 404 for ``/api/`` paths, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return api_not_found(request)
    return defaults.page_not_found(request, exception or Exception())


def handler500(request: HttpRequest) -> HttpResponse:
    """JSON 500 for ``/api/`` paths, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            error_payload("server_error", "The server failed to handle the request."),
            status=500,
        )
    return defaults.server_error(request)
