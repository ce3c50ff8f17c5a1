"""A real ASGI server (uvicorn, in a thread of the test process) serving ``config.asgi``, a
websocket client around the ``websockets`` package, and plain HTTP calls to the same server.

The server runs in the test process so it uses the test database (SQLite's shared in-memory
database, or PostgreSQL) and the settings the test set; with the in-memory channel layer,
changes must then be made through the server (REST over HTTP), whose request threads publish
on its loop; with Redis any process may make them (the Celery worker in the services test).
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

TIMEOUT = 10.0


def listening_socket() -> socket.socket:
    """A socket bound to a port the system picked: held from here on, so no other test
    process (pytest-xdist runs several) can take the port before the server listens."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


@dataclass
class LiveServer:
    """uvicorn serving ``config.asgi:application`` on a free port in a thread."""

    port: int
    server: uvicorn.Server
    thread: threading.Thread

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/v1/"

    def api(
        self, method: str, path: str, *, token: str | None = None, body: Any = None
    ) -> tuple[int, Any]:
        """One REST call over HTTP: the status and the decoded JSON body (None when empty)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.http + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                raw = answer.read()
                status = answer.status
        except urllib.error.HTTPError as e:
            raw, status = e.read(), e.code
        return status, (json.loads(raw) if raw else None)

    def ok(self, method: str, path: str, **kwargs: Any) -> Any:
        status, body = self.api(method, path, **kwargs)
        assert status < 300, (method, path, status, body)
        return body


@contextmanager
def serve() -> Iterator[LiveServer]:
    """Start the server, yield it, stop it."""
    from channels.layers import channel_layers

    from config.asgi import application

    channel_layers.backends.clear()  # a fresh layer on the new server's loop
    sock = listening_socket()
    port = int(sock.getsockname()[1])
    config = uvicorn.Config(
        application, host="127.0.0.1", port=port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="live-test-server", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + TIMEOUT
    while not server.started:
        assert thread.is_alive(), "the server did not start"
        assert time.monotonic() < deadline, "the server did not start in time"
        time.sleep(0.02)
    try:
        yield LiveServer(port, server, thread)
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)
        sock.close()
        channel_layers.backends.clear()


@dataclass
class Socket:
    """A websocket client that keeps every message it received (``seen``)."""

    conn: ClientConnection
    seen: list[dict[str, Any]] = field(default_factory=list)

    def send(self, message: dict[str, Any]) -> None:
        self.conn.send(json.dumps(message))

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        message = json.loads(self.conn.recv(timeout=timeout))
        self.seen.append(message)
        return message

    def until(
        self, test: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT
    ) -> dict[str, Any]:
        """The next message ``test`` accepts (heartbeats and others are kept in ``seen``)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                assert left > 0
                message = self.recv(left)
            except (AssertionError, TimeoutError):
                raise AssertionError(f"no such message in time; seen: {self.seen[-5:]}") from None
            if test(message):
                return message

    def expect(
        self, message_type: str, /, timeout: float = TIMEOUT, **fields: Any
    ) -> dict[str, Any]:
        """The next message of type ``message_type`` with ``fields``."""
        return self.until(
            lambda m: (
                m.get("type") == message_type and all(m.get(k) == v for k, v in fields.items())
            ),
            timeout,
        )

    def quiet(self, seconds: float) -> list[dict[str, Any]]:
        """Every message within ``seconds`` (none expected, usually)."""
        out = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                out.append(self.recv(left))
            except TimeoutError:
                break
        return out

    def closed_with(self, timeout: float = TIMEOUT) -> int | None:
        """Read until the server closes; its close code."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.recv(max(0.01, deadline - time.monotonic()))
        except ConnectionClosed as e:
            return e.rcvd.code if e.rcvd is not None else None
        raise AssertionError("the server did not close the socket")

    def close(self) -> None:
        self.conn.close()


@contextmanager
def socket_to(
    server: LiveServer,
    *,
    token: str | None = None,
    subprotocols: list[str] | None = None,
    **kw: Any,
) -> Iterator[Socket]:
    """A socket to ``/ws/v1/``: with ``token`` it signs in by its first message and waits for
    ``authenticated``; ``subprotocols`` are offered as given."""
    with connect(
        server.ws,
        subprotocols=subprotocols,  # type: ignore[arg-type]
        open_timeout=TIMEOUT,
        **kw,
    ) as conn:
        sock = Socket(conn)
        if token is not None:
            sock.send({"type": "auth", "token": token})
            sock.expect("authenticated")
        yield sock
