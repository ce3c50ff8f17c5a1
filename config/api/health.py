"""Liveness (``/healthz``) and readiness (``/readyz``) probes: plain JSON, no auth."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

CHECK_TIMEOUT_SECONDS = 2


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Report that the process is alive."""
    return JsonResponse({"status": "ok"})


def check_database() -> str | None:
    """Return ``None`` when the default database answers ``SELECT 1``, else the error."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - any failure means not ready
        return f"{type(exc).__name__}: {exc}"
    return None


def check_broker() -> str | None:
    """Return ``None`` when the Celery broker answers, else the error (skipped when eager)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return None
    url: str = settings.CELERY_BROKER_URL
    try:
        if url.startswith(("redis://", "rediss://")):
            import redis

            client = redis.Redis.from_url(
                url,
                socket_connect_timeout=CHECK_TIMEOUT_SECONDS,
                socket_timeout=CHECK_TIMEOUT_SECONDS,
            )
            try:
                client.ping()
            finally:
                client.close()
        else:
            from kombu import Connection

            with Connection(url, connect_timeout=CHECK_TIMEOUT_SECONDS) as conn:
                conn.ensure_connection(max_retries=1, timeout=CHECK_TIMEOUT_SECONDS)
    except Exception as exc:  # noqa: BLE001 - any failure means not ready
        return f"{type(exc).__name__}: {exc}"
    return None


@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """Report whether the database and (when configured) the broker are reachable.

    200 with ``{"status": "ok", "checks": {...}}`` or 503 naming the failed checks.
    """
    checks: dict[str, str] = {}
    failed: list[str] = []
    for name, check in (("database", check_database), ("broker", check_broker)):
        if name == "broker" and settings.CELERY_TASK_ALWAYS_EAGER:
            checks[name] = "skipped (tasks run in-process)"
            continue
        error = check()
        checks[name] = "ok" if error is None else error
        if error is not None:
            failed.append(name)
    if failed:
        return JsonResponse(
            {"status": "unavailable", "failed": failed, "checks": checks}, status=503
        )
    return JsonResponse({"status": "ok", "checks": checks})
