"""docker-compose.yml agrees with the settings and the Makefile (Docker is not needed)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings

PROJECT_DIR = Path(__file__).resolve().parent.parent
APP_SERVICES = ("web", "events", "worker", "beat", "migrate")
# Variables read by a process other than Django's settings.
PROCESS_VARIABLES = {"GUNICORN_CMD_ARGS"}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())
    return data


def makefile_commands() -> dict[str, str]:
    """``WEB_CMD``, ``EVENTS_CMD``, ``WORKER_CMD``, ``BOTS_CMD``, ``CLOCKS_CMD`` and
    ``BEAT_CMD`` from the Makefile."""
    text = (PROJECT_DIR / "Makefile").read_text()
    return dict(re.findall(r"^(\w+_CMD) := (.+)$", text, flags=re.MULTILINE))


def test_it_defines_every_service_with_a_healthcheck(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert {"postgres", "redis", "web", "events", "proxy", "worker", "beat"} <= set(services)
    for name in ("postgres", "redis", "web", "events", "proxy", "worker", "beat"):
        assert services[name]["healthcheck"]["test"], name
    assert "pg_isready" in str(services["postgres"]["healthcheck"]["test"])
    assert "ping" in str(services["redis"]["healthcheck"]["test"])
    assert "pgdata:/var/lib/postgresql/data" in services["postgres"]["volumes"]


@pytest.mark.parametrize(("service", "variable"), [
    ("web", "WEB_CMD"), ("events", "EVENTS_CMD"), ("worker", "WORKER_CMD"),
    ("bots", "BOTS_CMD"), ("clocks", "CLOCKS_CMD"), ("beat", "BEAT_CMD"),
])  # fmt: skip
def test_its_commands_match_the_makefile(
    compose: dict[str, Any], service: str, variable: str
) -> None:
    assert compose["services"][service]["command"] == makefile_commands()[variable]


def test_web_serves_wsgi_and_events_serve_asgi(compose: dict[str, Any]) -> None:
    assert compose["services"]["web"]["command"].startswith("gunicorn config.wsgi:application")
    events = compose["services"]["events"]["command"]
    assert events.startswith("gunicorn config.asgi:application")
    assert "uvicorn.workers.UvicornWorker" in events


def test_the_proxy_sends_long_polls_and_websockets_to_events_and_the_rest_to_web(
    compose: dict[str, Any],
) -> None:
    proxy = compose["services"]["proxy"]
    assert "./config/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in proxy["volumes"]
    conf = (PROJECT_DIR / "config" / "nginx.conf").read_text()
    routes = dict(re.findall(r"location (.+?) \{\s*proxy_pass http://(\w+);", conf))
    assert routes == {
        "~ ^/api/v1/tables/[0-9]+/hands/[0-9]+/events/$": "events",
        "/ws/": "events",
        "/": "web",
    }
    websockets = conf[conf.index("location /ws/") :].split("}")[0]
    assert "proxy_set_header Upgrade $http_upgrade;" in websockets
    assert 'proxy_set_header Connection "upgrade";' in websockets
    events_path = "/api/v1/tables/12/hands/3/events/"
    assert re.match(r"^/api/v1/tables/[0-9]+/hands/[0-9]+/events/$", events_path)
    assert not re.match(r"^/api/v1/tables/[0-9]+/hands/[0-9]+/events/$", "/api/v1/tables/12/")


def test_app_services_only_use_variables_the_settings_read(compose: dict[str, Any]) -> None:
    known = set(settings.ENVIRONMENT_VARIABLES) | PROCESS_VARIABLES
    for name in APP_SERVICES:
        environment = compose["services"][name]["environment"]
        assert set(environment) <= known, (name, set(environment) - known)


def test_app_services_configure_the_deployment_variables(compose: dict[str, Any]) -> None:
    required = {
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "SECRET_KEY",
        "DEBUG",
        "ALLOWED_HOSTS",
        "CORS_ALLOWED_ORIGINS",
    }
    for name in APP_SERVICES:
        environment = compose["services"][name]["environment"]
        assert required <= set(environment), name
        assert environment["DATABASE_URL"].startswith("postgres://")
        assert environment["CELERY_BROKER_URL"].startswith("redis://")
        assert environment["DEBUG"] == "0"


def test_only_the_asgi_service_opens_a_database_connection_per_request(
    compose: dict[str, Any],
) -> None:
    """WSGI threads and Celery's prefork processes keep their connection (a new PostgreSQL
    connection per clock flag cost more than the flag's queries); ASGI's changing threads
    would pile kept connections up, so `events` keeps none."""
    for name in (*APP_SERVICES, "bots", "clocks"):
        kept = int(compose["services"][name]["environment"]["CONN_MAX_AGE"])
        assert (kept == 0) == (name == "events"), (name, kept)
