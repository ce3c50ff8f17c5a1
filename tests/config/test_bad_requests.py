"""Requests no client should send still get a JSON 4xx with a code and a sentence, never a 5xx
or an HTML page: a Host that is not ours, NUL bytes in the path or query, JSON nested
thousands deep, and bodies sent chunked (without a Content-Length) to the WSGI and the ASGI
application, small ones read like any other and huge ones refused after reading at most one
byte past the limit."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import Client

from config.asgi import application as asgi_application

LIMIT = 1024 * 1024
HUGE = 512 * 1024 * 1024
CHUNK = 64 * 1024


def problem(answer: Any, status: int, code: str) -> dict[str, Any]:
    """The answer's error body, after checking it is JSON with ``status`` and ``code``."""
    assert answer.status_code == status, answer.content[:300]
    assert answer["Content-Type"].startswith("application/json"), answer["Content-Type"]
    body = json.loads(answer.content)
    assert body["code"] == code, body
    assert body["message"].endswith("."), body
    return body


def client() -> Client:
    return Client(raise_request_exception=False)


# ---------------------------------------------------------------------------------------------
# Host, NUL, nesting


def test_it_refuses_a_host_that_is_not_ours_with_json() -> None:
    answer = client().get("/api/v1/", HTTP_HOST="evil.example")
    body = problem(answer, 400, "bad_host")
    assert "Host" in body["message"]


def test_it_refuses_a_bad_host_on_pages_outside_the_api_too() -> None:
    problem(client().get("/healthz", HTTP_HOST="evil.example"), 400, "bad_host")


@pytest.mark.django_db
def test_it_refuses_a_nul_in_the_invitation_code_of_the_path() -> None:
    answer = client().get("/api/v1/invitations/abc%00def/")
    assert "NUL" in problem(answer, 400, "nul_character")["message"]


@pytest.mark.django_db
def test_it_refuses_a_nul_in_the_query_string() -> None:
    answer = client().get("/api/v1/tournaments/", {"search": "Wien\x00er"})
    assert "query" in problem(answer, 400, "nul_character")["message"]


@pytest.mark.django_db
def test_it_refuses_a_query_string_it_cannot_read() -> None:
    query = "&".join(f"f{i}=1" for i in range(1200))
    problem(client().get(f"/api/v1/tournaments/?{query}"), 400, "bad_query")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    ["[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000, "[" * 40 + "]" * 40],
    ids=["arrays-5000", "objects-5000", "arrays-40"],
)
def test_it_refuses_json_nested_too_deep_anonymously(body: str) -> None:
    answer = client().post("/api/v1/auth/register/", body, content_type="application/json")
    assert "deep" in problem(answer, 400, "json_too_deep")["message"]


@pytest.mark.django_db
def test_it_still_reads_json_nested_a_few_levels() -> None:
    body = {"username": "anna", "password": "correct horse battery", "x": [[[[{"y": [1]}]]]]}
    answer = client().post("/api/v1/auth/token/", body, content_type="application/json")
    problem(answer, 401, "no_active_account")


# ---------------------------------------------------------------------------------------------
# chunked bodies under WSGI (gunicorn)


class Endless(io.RawIOBase):
    """A request body of ``size`` bytes made on demand, counting what the server read."""

    def __init__(self, size: int, content: bytes = b"") -> None:
        self.size, self.content, self.taken = size, content, 0

    def read(self, n: int | None = -1) -> bytes:
        left = self.size - self.taken
        n = left if n is None or n < 0 else min(n, left)
        if self.taken < len(self.content):
            out = self.content[self.taken : self.taken + n]
        else:
            out = b" " * n
        self.taken += len(out)
        return out


@pytest.fixture
def direct_wsgi(db: None) -> Iterator[None]:
    """Django's per-request connection closing off while the WSGI application is called
    directly (as Django's test client does): inside the test's transaction it would close
    the connection."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def wsgi_post(path: str, body: Endless, *, terminated: bool = True) -> tuple[int, bytes]:
    """POST ``body`` chunked (no Content-Length) to the WSGI application, as gunicorn does."""
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "testserver",
        "CONTENT_TYPE": "application/json",
        "HTTP_TRANSFER_ENCODING": "chunked",
        "wsgi.input": body,
        "wsgi.input_terminated": terminated,
        "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO(),
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    got: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
        got["status"] = int(status.split()[0])

    answer = get_wsgi_application()(environ, start_response)
    content = b"".join(answer)
    answer.close()
    return got["status"], content


@pytest.mark.usefixtures("direct_wsgi")
def test_it_refuses_a_huge_chunked_body_under_wsgi_after_reading_just_past_the_limit() -> None:
    body = Endless(HUGE)
    status, content = wsgi_post("/api/v1/auth/register/", body)
    assert status == 413
    assert json.loads(content)["code"] == "request_too_large"
    assert body.taken <= LIMIT + 1


@pytest.mark.usefixtures("direct_wsgi")
def test_it_reads_a_small_chunked_body_under_wsgi() -> None:
    data = json.dumps({"username": "anna"}).encode()
    status, content = wsgi_post("/api/v1/auth/token/", Endless(len(data), data))
    assert status == 400, content
    # Only the password is missing: the username was read from the chunked body.
    assert set(json.loads(content)["fields"]) == {"password"}


@pytest.mark.usefixtures("direct_wsgi")
def test_it_asks_for_a_length_when_the_wsgi_server_cannot_end_a_chunked_body() -> None:
    status, content = wsgi_post("/api/v1/auth/token/", Endless(10), terminated=False)
    assert status == 411
    assert json.loads(content)["code"] == "length_required"


# ---------------------------------------------------------------------------------------------
# chunked bodies under ASGI (uvicorn)


def asgi_post(path: str, size: int, content: bytes = b"") -> tuple[int, bytes, int]:
    """POST ``size`` bytes chunked (``more_body`` until the end, no Content-Length) to the
    ASGI application as uvicorn does; the status, the body and how many bytes were read."""
    body = Endless(size, content)
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"transfer-encoding", b"chunked"),
        ],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if body.taken >= body.size and size:
            await asyncio.Event().wait()  # the client waits for the answer
        chunk = body.read(CHUNK)
        return {"type": "http.request", "body": chunk, "more_body": body.taken < body.size}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(asgi_application(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], content, body.taken


def test_it_refuses_a_huge_chunked_body_under_asgi_after_reading_just_past_the_limit() -> None:
    status, content, taken = asgi_post("/api/v1/auth/register/", HUGE)
    assert status == 413
    assert json.loads(content)["code"] == "request_too_large"
    assert taken <= LIMIT + CHUNK


@pytest.mark.django_db(transaction=True)
def test_it_reads_a_small_chunked_body_under_asgi() -> None:
    data = json.dumps({"username": "anna"}).encode()
    status, content, _ = asgi_post("/api/v1/auth/token/", len(data), data)
    assert status == 400, content
    assert set(json.loads(content)["fields"]) == {"password"}
