"""Environment-driven settings."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
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


def schema_license(**env: str) -> str:
    """The schema's info.license as the settings build it under ``env``, as JSON."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("API_LICENSE_")}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json; from django.conf import settings; "
            "print(json.dumps(settings.SPECTACULAR_SETTINGS['LICENSE']))",
        ],
        cwd=PROJECT_DIR,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "1", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout.strip()


def test_the_schema_names_the_apache_license_by_default() -> None:
    assert schema_license() == (
        '{"name": "Apache-2.0", "url": "https://www.apache.org/licenses/LICENSE-2.0"}'
    )


def test_a_deployment_may_name_another_license_or_none() -> None:
    assert schema_license(API_LICENSE_NAME="CC-BY-4.0", API_LICENSE_URL="") == (
        '{"name": "CC-BY-4.0"}'
    )
    assert schema_license(API_LICENSE_NAME="") == "{}"


PUBLIC_URLS = (
    "import json; from django.conf import settings as s; print(json.dumps("
    "[s.SPECTACULAR_SETTINGS['SERVERS'][0]['url'], s.API_CONTACT['url'], s.PUBLIC_BASE_URL]))"
)
URL_VARIABLES = {"API_PUBLIC_URL", "PUBLIC_BASE_URL", "API_CONTACT_URL", "MAKEFLAGS", "MAKELEVEL"}


def public_urls(**env: str) -> list[str]:
    """The schema's server, the contact link and the links' base as the settings build them."""
    base = {k: v for k, v in os.environ.items() if k not in URL_VARIABLES}
    result = subprocess.run(
        [sys.executable, "-c", PUBLIC_URLS],
        cwd=PROJECT_DIR,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "1", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    urls: list[str] = json.loads(result.stdout)
    return urls


def test_the_public_links_follow_api_public_url_unless_set_apart() -> None:
    assert public_urls() == [
        "http://127.0.0.1:8000",
        "http://127.0.0.1:8000/api/v1/docs/",
        "http://127.0.0.1:8000",
    ]
    assert public_urls(API_PUBLIC_URL="http://127.0.0.1:9123") == [
        "http://127.0.0.1:9123",
        "http://127.0.0.1:9123/api/v1/docs/",
        "http://127.0.0.1:9123",
    ]
    assert public_urls(
        API_PUBLIC_URL="https://api.example.org", PUBLIC_BASE_URL="https://example.org"
    ) == ["https://api.example.org", "https://api.example.org/api/v1/docs/", "https://example.org"]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize(
    ("args", "env", "url"),
    [
        (["PORT=9123"], {}, "http://127.0.0.1:9123"),
        (["HOST=::1", "PORT=9124"], {}, "http://[::1]:9124"),
        (["PORT=9125"], {"API_PUBLIC_URL": "https://api.example.org"}, "https://api.example.org"),
    ],
)
def test_make_run_gives_the_settings_the_address_it_serves(
    tmp_path: Path, args: list[str], env: dict[str, str], url: str
) -> None:
    """``make run`` with the demo taken as done and, in place of uvicorn, a script that prints
    what the settings make of the environment the recipe hands it."""
    server = tmp_path / "uvicorn"
    server.write_text(f'#!/bin/sh\nexec "{sys.executable}" -c "{PUBLIC_URLS}"\n')
    server.chmod(0o755)
    base = {k: v for k, v in os.environ.items() if k not in URL_VARIABLES}
    result = subprocess.run(
        ["make", "-s", "-o", "demo", "run", f"BIN={tmp_path}", *args],
        cwd=PROJECT_DIR,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    *printed, last = result.stdout.strip().splitlines()
    docs = url + "/api/v1/docs/"
    assert json.loads(last) == [url, docs, url]
    assert f"docs/examples/live_client.py --base {url}" in "\n".join(printed)
