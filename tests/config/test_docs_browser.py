"""The API's documentation pages load nothing from another host, as a browser opens them.

``test_docs_fonts.py`` reads the pages' HTML; the scripts they run may still fetch from
elsewhere (ReDoc's sidebar badge drew its logo from ``cdn.redoc.ly``). Here headless Chromium
(Debian's ``chromium`` package, as ``tests/tournaments/test_printable.py`` uses it) opens each
page from a live server, runs its scripts until they are idle, and writes its network log:
every request the page makes (the page's own, its scripts', the schema, images) must go to
the server's host. Chromium's own background traffic (updates, sign-in, autofill) is turned
off where a switch allows and left out of the check otherwise: a request counts as the
page's when the page's origin started it or its site is the page's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
QUIET = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-features=AutofillServerCommunication,OptimizationHints,Translate",
]


def open_page(url: str, where: Path) -> tuple[str, list[str]]:
    """The page's DOM after its scripts ran, and the URL of every request it made."""
    log = where / "net.json"
    done = subprocess.run(
        [
            str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
            f"--user-data-dir={where / 'profile'}", *QUIET,
            f"--log-net-log={log}", "--net-log-capture-mode=Default",
            "--virtual-time-budget=20000", "--dump-dom", url,
        ],
        capture_output=True, text=True, timeout=180, check=True,
    )  # fmt: skip
    return done.stdout, page_requests(json.loads(log.read_text()), url)


def page_requests(net_log: dict[str, Any], url: str) -> list[str]:
    """The URLs the page at ``url`` requested, from Chromium's network log."""
    names = {number: name for name, number in net_log["constants"]["logEventTypes"].items()}
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    site = f"site={parts.scheme}://{parts.hostname};"
    found = []
    for event in net_log["events"]:
        params = event.get("params", {})
        if names.get(event["type"]) != "URL_REQUEST_START_JOB" or "url" not in params:
            continue
        if params.get("initiator") == origin or site in params.get("site_for_cookies", ""):
            found.append(params["url"])
    return found


@pytest.mark.parametrize("path", ["/api/v1/redoc/", "/api/v1/docs/"])
def test_the_docs_pages_request_nothing_from_another_host(
    live_server: Any, tmp_path: Path, path: str
) -> None:
    if CHROMIUM is None:  # CI installs it (.ci/run) and sets REQUIRE_SERVICES=1: no skip there
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail("REQUIRE_SERVICES=1 but Debian's chromium package is not installed")
        pytest.skip("needs Debian's chromium package (apt-get install chromium)")
    url = live_server.url + path
    dom, requested = open_page(url, tmp_path)
    # the page ran: its script fetched the schema and drew the API's title from it
    assert live_server.url + "/api/v1/schema/" in requested, requested
    assert settings.SPECTACULAR_SETTINGS["TITLE"] in dom
    host = urlsplit(live_server.url).netloc
    elsewhere = sorted({u for u in requested if urlsplit(u).netloc != host})
    assert elsewhere == [], f"{path} requested {elsewhere}"
