"""Environment-driven settings.

Whether the project starts under an environment is tried in a fresh process; what the
settings make of an environment is read by running ``config/settings.py`` here under exactly
that environment (:func:`settings_under`): the module reads nothing but the environment, so
it defines the same values as in a process of its own, without that process's second of
start-up."""

import json
import os
import runpy
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

PROJECT_DIR = Path(__file__).resolve().parents[2]


def settings_under(environ: Mapping[str, str]) -> dict[str, Any]:
    """The names ``config/settings.py`` defines when run with ``environ`` as the whole
    environment (this process's is put back afterwards)."""
    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):
            patch.delenv(name)
        for name, value in environ.items():
            patch.setenv(name, value)
        return runpy.run_path(str(PROJECT_DIR / "config" / "settings.py"))


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
    base = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        settings_under({**base, "DEBUG": "0"})


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
    built = settings_under({**base, "DEBUG": "1", **env})
    return json.dumps(built["SPECTACULAR_SETTINGS"]["LICENSE"])


def test_the_schema_names_the_apache_license_by_default() -> None:
    assert schema_license() == (
        '{"name": "Apache-2.0", "url": "https://www.apache.org/licenses/LICENSE-2.0"}'
    )


def test_a_deployment_may_name_another_license_or_none() -> None:
    assert schema_license(API_LICENSE_NAME="CC-BY-4.0", API_LICENSE_URL="") == (
        '{"name": "CC-BY-4.0"}'
    )
    assert schema_license(API_LICENSE_NAME="") == "{}"


URL_VARIABLES = {"API_PUBLIC_URL", "PUBLIC_BASE_URL", "API_CONTACT_URL", "MAKEFLAGS", "MAKELEVEL"}


def urls_of(built: Mapping[str, Any]) -> list[str]:
    """The schema's server, the contact link and the links' base in settings ``built``."""
    servers = built["SPECTACULAR_SETTINGS"]["SERVERS"]
    return [servers[0]["url"], built["API_CONTACT"]["url"], built["PUBLIC_BASE_URL"]]


def public_urls(**env: str) -> list[str]:
    """The schema's server, the contact link and the links' base as the settings build them."""
    base = {k: v for k, v in os.environ.items() if k not in URL_VARIABLES}
    return urls_of(settings_under({**base, "DEBUG": "1", **env}))


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
    the environment the recipe hands it, which the settings then read."""
    server = tmp_path / "uvicorn"
    dump = "import json, os; print(json.dumps(dict(os.environ)))"
    server.write_text(f'#!/bin/sh\nexec "{sys.executable}" -c "{dump}"\n')
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
    assert urls_of(settings_under(json.loads(last))) == [url, docs, url]
    assert f"docs/examples/live_client.py --base {url}" in "\n".join(printed)
