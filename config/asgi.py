"""ASGI entry point (``config.asgi:application``), served by gunicorn with uvicorn workers:
HTTP goes to Django (the long polls of ``…/events/`` among it), websockets at ``/ws/v1/`` to
the live-updates consumer (``config/live.py``, ``docs/live.md``); any other websocket path is
refused."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django first: the consumer's imports need the app registry ready.
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # type: ignore[import-untyped]  # noqa: E402
from channels.security.websocket import WebsocketDenier  # type: ignore[import-untyped]  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from config.live import LiveConsumer, OriginCheck  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
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
