"""Production settings (docs/deployment.md): ``manage.py check --deploy`` is clean, and with
``HTTPS=1`` plain HTTP is redirected, HSTS is sent and the proxy's X-Forwarded-Proto is
trusted only behind a trusted proxy. Each case runs the real settings module in a fresh
process with the environment a deployment sets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

PROJECT_DIR = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "a-production-like-secret-key-for-this-test-0123456789-abcdefgh",
    "ALLOWED_HOSTS": "api.example.org",
    "HTTPS": "1",
    "TRUSTED_PROXIES": "1",
}

# Requests through Django's test client; prints status, Location and HSTS per request.
REQUESTS = """
import json, django
django.setup()
from django.test import Client
out = []
for path, extra in json.loads(input()):
    r = Client(HTTP_HOST="api.example.org").get(path, **extra)
    out.append([r.status_code, r.get("Location"), r.get("Strict-Transport-Security")])
print(json.dumps(out))
"""


def run(args: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in {*PRODUCTION, "DATABASE_URL"}}
    return subprocess.run(
        [sys.executable, *args],
        cwd=PROJECT_DIR,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def requests(env: dict[str, str], calls: list[tuple[str, dict[str, str]]]) -> list[Any]:
    result = run(["-c", REQUESTS], env, json.dumps(calls))
    assert result.returncode == 0, result.stderr
    answer: list[Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return answer


def test_check_deploy_is_clean_under_production_settings() -> None:
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_warns_when_https_is_not_declared() -> None:
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], {**PRODUCTION, "HTTPS": "0"}
    )
    assert result.returncode != 0
    assert "security.W008" in result.stderr + result.stdout  # no redirect to HTTPS


def test_with_https_plain_requests_are_redirected_but_the_probes_are_not() -> None:
    plain, healthz, forwarded = requests(
        PRODUCTION,
        [("/api/v1/", {}), ("/healthz", {}), ("/api/v1/", {"HTTP_X_FORWARDED_PROTO": "https"})],
    )
    assert plain[:2] == [301, "https://api.example.org/api/v1/"]
    assert healthz[0] == 200
    assert forwarded[0] == 200
    assert forwarded[2] == "max-age=31536000; includeSubDomains"


def test_without_a_trusted_proxy_a_forwarded_proto_is_not_believed() -> None:
    (forged,) = requests(
        {**PRODUCTION, "TRUSTED_PROXIES": "0"},
        [("/api/v1/", {"HTTP_X_FORWARDED_PROTO": "https"})],
    )
    assert forged[0] == 301


def test_without_https_nothing_is_redirected() -> None:
    (plain,) = requests({**PRODUCTION, "HTTPS": "0"}, [("/api/v1/", {})])
    assert plain[0] == 200 and plain[2] is None
