"""Root URLs: the versioned API under ``/api/v1/``, its schema and docs, admin and probes."""

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.api import health
from config.api.redoc import RedocView
from config.api.views import ApiRootView, api_not_found
from config.sign_in import admin_login, session_urls

api_v1: list[URLPattern | URLResolver] = [
    path("", ApiRootView.as_view(), name="api-root"),
    path("", include("clubs.api.urls")),
    path("", include("games.api.urls")),
    path("", include("tournaments.api.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
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
