"""The API root, and JSON fallbacks for requests under ``/api/`` that no view handles."""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import error_payload, unavailable_json, unavailable_service


@csrf_exempt
def api_not_found(request: HttpRequest, *args: object, **kwargs: object) -> JsonResponse:
    """Answer an unknown ``/api/`` route with the JSON 404 error shape (any method)."""
    message = gettext("No API endpoint at {path}.").format(path=request.path)
    if not request.path.endswith("/"):
        try:
            match = resolve(request.path + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not api_not_found:
            message = gettext("No API endpoint at {path}; did you mean {path}/?").format(
                path=request.path
            )
    return JsonResponse(error_payload("not_found", message), status=404)


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """JSON 404 for ``/api/`` paths, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return api_not_found(request)
    return defaults.page_not_found(request, exception or Exception())


def handler500(request: HttpRequest) -> HttpResponse:
    """JSON 500 for ``/api/`` paths, Django's page elsewhere; but a database or broker that
    cannot serve the request (the error being handled, raised where no view's handling
    reaches it, e.g. in a middleware) is the JSON 503 with ``Retry-After`` everywhere."""
    service = unavailable_service(sys.exc_info()[1])
    if service is not None:
        return unavailable_json(service)
    if request.path.startswith("/api/"):
        return JsonResponse(
            error_payload("server_error", gettext("The server failed to handle the request.")),
            status=500,
        )
    return defaults.server_error(request)


class ApiRootSerializer(serializers.Serializer[dict[str, Any]]):
    """Where each resource of the API lives."""

    version = serializers.CharField()
    resources = serializers.DictField(child=serializers.URLField())
    docs = serializers.DictField(child=serializers.URLField())


# Resource name → path under /api/v1/ (the first page a client or a person opens).
RESOURCES = {
    "token": "auth/token/",
    "register": "auth/register/",
    "me": "me/",
    "my_clubs": "me/clubs/",
    "my_evenings": "me/evenings/",
    "my_tables": "me/tables/",
    "my_invitations": "me/invitations/",
    "my_calendar_feeds": "me/calendar-feeds/",
    "my_tournaments": "me/tournaments/",
    "clubs": "clubs/",
    "tournaments": "tournaments/",
    "rules": "rules/",
    "tables": "tables/",
    "series": "series/",
    "pings": "pings/",
}


class ApiRootView(APIView):
    """The API's front page: its resources and documentation, with absolute URLs."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The API's resources",
        responses={200: ApiRootSerializer},
    )
    def get(self, request: Request) -> Response:
        base = request.build_absolute_uri("/api/v1/")
        return Response(
            {
                "version": settings.SPECTACULAR_SETTINGS["VERSION"],
                "resources": {name: base + url for name, url in RESOURCES.items()},
                "docs": {
                    "swagger": base + "docs/",
                    "redoc": base + "redoc/",
                    "schema": base + "schema/",
                },
            }
        )
