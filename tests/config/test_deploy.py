"""Production settings (docs/deployment.md): ``manage.py check --deploy`` is clean, and with
``HTTPS=1`` plain HTTP is redirected, HSTS is sent and the proxy's X-Forwarded-Proto is
trusted only behind a trusted proxy. Each deployment runs the real settings module in a fresh
process with the environment a deployment sets; that process runs the check and then the
requests the tests send to that deployment (one start-up of the project, not one for each)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "a-production-like-secret-key-for-this-test-0123456789-abcdefgh",
    "ALLOWED_HOSTS": "api.example.org",
    "HTTPS": "1",
    "TRUSTED_PROXIES": "1",
}
CHECK = ["manage.py", "check", "--deploy", "--fail-level", "WARNING"]

#: name -> (the environment over PRODUCTION, whether to run CHECK, the requests (path, headers))
DEPLOYMENTS: dict[str, tuple[dict[str, str], bool, list[tuple[str, dict[str, str]]]]] = {
    "production": (
        {},
        True,
        [("/api/v1/", {}), ("/healthz", {}), ("/api/v1/", {"HTTP_X_FORWARDED_PROTO": "https"})],
    ),
    "without https": ({"HTTPS": "0"}, True, [("/api/v1/", {})]),
    "without a trusted proxy": (
        {"TRUSTED_PROXIES": "0"},
        False,
        [("/api/v1/", {"HTTP_X_FORWARDED_PROTO": "https"})],
    ),
}

# Reads [check, requests] from stdin. With ``check``, runs CHECK as manage.py does (Django's
# command line) and records its exit status and output; then sends the requests through
# Django's test client. Prints {"check": [status, stdout, stderr] or null, "answers": [[status,
# Location, HSTS] per request]}.
DEPLOYMENT = """
import contextlib, io, json, sys
import django
from django.core.management import execute_from_command_line
check, calls = json.loads(input())
checked = None
if check:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            execute_from_command_line(check)
            status = 0
        except SystemExit as exit:
            status = exit.code
    checked = [status, out.getvalue(), err.getvalue()]
else:
    django.setup()
from django.test import Client
answers = []
for path, extra in calls:
    r = Client(HTTP_HOST="api.example.org").get(path, **extra)
    answers.append([r.status_code, r.get("Location"), r.get("Strict-Transport-Security")])
print(json.dumps({"check": checked, "answers": answers}))
"""


@dataclass(frozen=True)
class Deployment:
    """What a fresh process with a deployment's environment answered."""

    check: tuple[int, str, str] | None  # exit status, stdout, stderr
    answers: list[Any]  # [status, Location, Strict-Transport-Security] per request


@cache
def deployment(name: str) -> Deployment:
    """The answers of the deployment ``name`` in :data:`DEPLOYMENTS` (one process each)."""
    env, check, calls = DEPLOYMENTS[name]
    base = {k: v for k, v in os.environ.items() if k not in {*PRODUCTION, "DATABASE_URL"}}
    result = subprocess.run(
        [sys.executable, "-c", DEPLOYMENT],
        cwd=PROJECT_DIR,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **PRODUCTION, **env},
        input=json.dumps([CHECK if check else None, calls]),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    checked = found["check"]
    return Deployment(tuple(checked) if checked else None, found["answers"])


# Both workers would start each deployment's process; on one, each starts once.
pytestmark = pytest.mark.xdist_group("deployments")


def test_check_deploy_is_clean_under_production_settings() -> None:
    checked = deployment("production").check
    assert checked is not None
    status, out, err = checked
    assert status == 0, out + err
    assert "no issues" in out


def test_check_deploy_warns_when_https_is_not_declared() -> None:
    checked = deployment("without https").check
    assert checked is not None
    status, out, err = checked
    assert status != 0
    assert "security.W008" in err + out  # no redirect to HTTPS


def test_with_https_plain_requests_are_redirected_but_the_probes_are_not() -> None:
    plain, healthz, forwarded = deployment("production").answers
    assert plain[:2] == [301, "https://api.example.org/api/v1/"]
    assert healthz[0] == 200
    assert forwarded[0] == 200
    assert forwarded[2] == "max-age=31536000; includeSubDomains"


def test_without_a_trusted_proxy_a_forwarded_proto_is_not_believed() -> None:
    (forged,) = deployment("without a trusted proxy").answers
    assert forged[0] == 301


def test_without_https_nothing_is_redirected() -> None:
    (plain,) = deployment("without https").answers
    assert plain[0] == 200 and plain[2] is None
