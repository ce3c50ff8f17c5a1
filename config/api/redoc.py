"""The API's documentation pages (ReDoc, Swagger UI), loading nothing from elsewhere.

drf-spectacular's ReDoc template links Google Fonts (Montserrat, Roboto) from their CDN; the
docs promise that the API's pages load nothing from elsewhere (docs/api-conventions.md). This
page is the same template with its head replaced: the script comes from
drf-spectacular-sidecar as before, and ReDoc's theme uses the reader's system fonts.

ReDoc's sidebar also shows its "API docs by Redocly" badge with an image from
``https://cdn.redoc.ly/redoc/logo-mini.svg``, written into the script with no option to turn
it off. Both pages therefore answer with a Content-Security-Policy that lets images and fonts
come from this host only (and ``data:`` URLs, which both scripts draw icons with): the browser
never sends the request, ReDoc drops the image when it fails to load, and the badge keeps its
text. ``tests/config/test_docs_browser.py`` opens both pages in headless Chromium and checks
that every request they make stays on the host.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.template import engines
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView
from rest_framework.request import Request
from rest_framework.response import Response

PAGE = engines["django"].from_string(
    """{% extends "drf_spectacular/redoc.html" %}{% block head %}
    <title>{{ title|default:"Redoc" }}</title>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <style>body { margin: 0; padding: 0; }</style>
{% endblock head %}"""
)
SYSTEM_FONTS = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
THEME = {
    "theme": {"typography": {"fontFamily": SYSTEM_FONTS, "headings": {"fontFamily": SYSTEM_FONTS}}}
}


LOCAL_ASSETS = "img-src 'self' data:; font-src 'self' data:"
"""The docs pages' Content-Security-Policy: images and fonts from this host (or ``data:``)
only; scripts, styles and the schema come from here anyway (``test_docs_fonts.py``)."""


class RedocView(SpectacularRedocView):
    """ReDoc served with local assets only: no font CDN, system fonts, no remote image."""

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        data = super().get(request, *args, **kwargs).data
        data["settings"] = self._dump(THEME)
        response = HttpResponse(PAGE.render(data, request._request))
        response["Content-Security-Policy"] = LOCAL_ASSETS
        return response


class SwaggerView(SpectacularSwaggerView):
    """Swagger UI (drf-spectacular-sidecar's copy), with no image or font from elsewhere."""

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        response: Response = super().get(request, *args, **kwargs)
        response["Content-Security-Policy"] = LOCAL_ASSETS
        return response
