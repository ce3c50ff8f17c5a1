"""Root URLs: the versioned API under ``/api/v1/``, its schema and docs, admin and probes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.urls.resolvers import RoutePattern
from drf_spectacular.views import SpectacularAPIView

from config.api import health
from config.api.redoc import RedocView, SwaggerView
from config.api.views import ApiRootView, api_not_found
from config.sign_in import admin_login, session_urls


class FirstSegments(RoutePattern):
    """The empty route of an app's include that only paths beginning with one of its routes'
    first segments enter. Django tries an include's routes one by one (and lists each for its
    debug 404 page) before it tries the next include: a tournament's path went through the
    80 routes of clubs and games first. Here a path no route of the include can match turns
    away at once. To the schema and to ``reverse`` it is the empty route it extends."""

    def __init__(self, heads: frozenset[str]) -> None:
        super().__init__("")
        self.heads = heads

    def match(self, path: str) -> tuple[str, tuple[Any, ...], dict[str, Any]] | None:
        if path.partition("/")[0] not in self.heads:
            return None
        return super().match(path)


def first_segments(patterns: Sequence[URLPattern | URLResolver]) -> frozenset[str] | None:
    """The first path segments the routes of ``patterns`` begin with (the routes of includes
    at ``""`` too); None when one does not begin with a fixed segment (a converter, a regular
    expression, the empty route), which any path might then match."""
    heads: set[str] = set()
    for p in patterns:
        route = p.pattern
        if not isinstance(route, RoutePattern):
            return None
        head = str(route).partition("/")[0]
        if head:
            if "<" in head:
                return None
            heads.add(head)
        elif isinstance(p, URLResolver):
            inner = first_segments(p.url_patterns)
            if inner is None:
                return None
            heads |= inner
        else:
            return None
    return frozenset(heads)


def app_routes(module: str) -> URLResolver:
    """``path("", include(module))`` behind :class:`FirstSegments` of its routes (a plain
    include when they have no fixed first segments)."""
    urlconf, app_name, namespace = include(module)
    heads = first_segments(getattr(urlconf, "urlpatterns", urlconf))
    route = RoutePattern("") if heads is None else FirstSegments(heads)
    return URLResolver(route, urlconf, app_name=app_name, namespace=namespace)


api_v1: list[URLPattern | URLResolver] = [
    path("", ApiRootView.as_view(), name="api-root"),
    app_routes("clubs.api.urls"),
    app_routes("games.api.urls"),
    app_routes("tournaments.api.urls"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("redoc/", RedocView.as_view(url_name="schema"), name="redoc"),
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    path("api/v1/auth/session/", include(session_urls)),
    re_path(r"^api/", api_not_found),
    path("admin/login/", admin_login),
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
]

handler404 = "config.api.views.handler404"
handler500 = "config.api.views.handler500"
