"""The ReDoc page without web fonts.

drf-spectacular's ReDoc template links Google Fonts (Montserrat, Roboto) from their CDN; the
docs promise that the API's pages load nothing from elsewhere (docs/api-conventions.md). This
page is the same template with its head replaced: the script comes from
drf-spectacular-sidecar as before, and ReDoc's theme uses the reader's system fonts.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.template import engines
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView
from rest_framework.request import Request

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


class RedocView(SpectacularRedocView):
    """ReDoc served with local assets only: no font CDN, system fonts."""

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        data = super().get(request, *args, **kwargs).data
        data["settings"] = self._dump(THEME)
        return HttpResponse(PAGE.render(data, request._request))
