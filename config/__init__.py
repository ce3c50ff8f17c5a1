"""Project configuration: settings, URLs, ASGI/WSGI entry points and the Celery app.

First of all, every process that loads the project keeps freed frame-stack and arena memory
for reuse (:mod:`config.arenas`), which CPython 3.11 would map and unmap on every deep call.
"""

from config import arenas

arenas.keep()

from config.celery import app as celery_app  # noqa: E402

__all__ = ("celery_app",)
