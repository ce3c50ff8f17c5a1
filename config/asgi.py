"""ASGI entry point (``config.asgi:application``), served by gunicorn with uvicorn workers:
HTTP goes to Django (the long polls of ``…/events/`` among it), websockets at ``/ws/v1/`` to
the live-updates consumer (:mod:`games.live.consumer`, ``docs/live.md``) once their origin is
checked (:class:`OriginCheck`); any other websocket path is refused."""

import os
from typing import Any
from urllib.parse import ParseResult

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django first: the consumer's imports need the app registry ready.
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # type: ignore[import-untyped]  # noqa: E402
from channels.security.websocket import (  # type: ignore[import-untyped]  # noqa: E402
    OriginValidator,
    WebsocketDenier,
)
from django.conf import settings  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from config.api.limits import ASGIBodyLimit  # noqa: E402
from games.live.consumer import LiveConsumer  # noqa: E402


class OriginCheck(OriginValidator):
    """Refuse browser pages of other sites: a socket whose ``Origin`` is neither an
    ``ALLOWED_HOSTS`` host nor one of ``CORS_ALLOWED_ORIGINS`` is refused (403). A socket
    without ``Origin`` (phone apps, scripts) is let through: only browsers send it, and the
    socket's credentials are a token the client sends, never a cookie a browser adds."""

    def __init__(self, application: Any) -> None:
        super().__init__(application, [])

    def valid_origin(self, parsed_origin: ParseResult | None) -> bool:
        if parsed_origin is None:
            return True
        self.allowed_origins = [*settings.ALLOWED_HOSTS, *settings.CORS_ALLOWED_ORIGINS]
        return bool(self.validate_origin(parsed_origin))


application = ProtocolTypeRouter(
    {
        # Bodies are read only up to MAX_REQUEST_BODY_BYTES (config/api/limits.py).
        "http": ASGIBodyLimit(django_application),
        "websocket": OriginCheck(
            URLRouter(
                [
                    path("ws/v1/", LiveConsumer.as_asgi()),
                    re_path(r"", WebsocketDenier.as_asgi()),
                ]
            )
        ),
    }
)
