"""docker-compose.yml agrees with the settings and the Makefile (Docker is not needed)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings

PROJECT_DIR = Path(__file__).resolve().parent.parent
APP_SERVICES = ("web", "worker", "beat", "migrate")
# Variables read by a process other than Django's settings.
PROCESS_VARIABLES = {"GUNICORN_CMD_ARGS"}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())
    return data


def makefile_commands() -> dict[str, str]:
    """``WEB_CMD``, ``WORKER_CMD`` and ``BEAT_CMD`` from the Makefile."""
    text = (PROJECT_DIR / "Makefile").read_text()
    return dict(re.findall(r"^(\w+_CMD) := (.+)$", text, flags=re.MULTILINE))


def test_it_defines_every_service_with_a_healthcheck(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert {"postgres", "redis", "web", "worker", "beat"} <= set(services)
    for name in ("postgres", "redis", "web", "worker", "beat"):
        assert services[name]["healthcheck"]["test"], name
    assert "pg_isready" in str(services["postgres"]["healthcheck"]["test"])
    assert "ping" in str(services["redis"]["healthcheck"]["test"])
    assert "pgdata:/var/lib/postgresql/data" in services["postgres"]["volumes"]


@pytest.mark.parametrize(("service", "variable"), [
    ("web", "WEB_CMD"), ("worker", "WORKER_CMD"), ("beat", "BEAT_CMD"),
])  # fmt: skip
def test_its_commands_match_the_makefile(
    compose: dict[str, Any], service: str, variable: str
) -> None:
    assert compose["services"][service]["command"] == makefile_commands()[variable]


def test_web_runs_gunicorn_with_uvicorn_workers(compose: dict[str, Any]) -> None:
    command = compose["services"]["web"]["command"]
    assert command.startswith("gunicorn config.asgi:application")
    assert "uvicorn.workers.UvicornWorker" in command


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
