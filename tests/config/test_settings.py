"""Environment-driven settings."""

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

PROJECT_DIR = Path(__file__).resolve().parents[2]


def run_settings(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=PROJECT_DIR,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_it_refuses_the_development_secret_key_with_debug_off() -> None:
    result = run_settings(DEBUG="0")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY" in result.stderr


def test_it_starts_with_debug_on_and_no_secret_key() -> None:
    result = run_settings(DEBUG="1")
    assert result.returncode == 0, result.stderr


def test_it_starts_with_debug_off_and_a_real_secret_key() -> None:
    result = run_settings(DEBUG="0", SECRET_KEY="a-real-secret-for-this-test")
    assert result.returncode == 0, result.stderr


def test_it_records_every_environment_variable_it_reads() -> None:
    assert {
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "SECRET_KEY",
        "DEBUG",
        "ALLOWED_HOSTS",
        "CORS_ALLOWED_ORIGINS",
    } <= set(settings.ENVIRONMENT_VARIABLES)


def test_the_readme_documents_every_environment_variable() -> None:
    readme = (PROJECT_DIR / "README.md").read_text()
    for name in settings.ENVIRONMENT_VARIABLES:
        assert f"`{name}`" in readme, name
