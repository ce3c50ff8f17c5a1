"""Slow consumers: a client that stops reading fills its socket's bounded queue and is closed
with 4008 (too slow: reconnect and resume), while a client that reads keeps up with the same
burst and stays open.

The slow client is the ``websockets`` protocol without its I/O (``ClientProtocol``) on a plain
socket with a small receive buffer: after subscribing it reads nothing at all, as a phone whose
app froze. (The library's threaded client would keep reading into memory in its background
thread, so it is never slow however little the test reads.)
"""

from __future__ import annotations

import json
import socket
import threading
from typing import Any

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from games import live
from games.live import consumer
from tests.live.server import TIMEOUT, LiveServer, socket_to
from tests.live.worlds import public_tables

BURST = 1500
PADDING = "x" * 4000


def burst(table_id: int) -> None:
    """Publish ``BURST`` large table updates (6 MB), as a busy server would."""
    for version in range(1, BURST + 1):
        live.send(
            live.group("table", table_id),
            {
                "type": "live.update",
                "topic": "table",
                "key": "table_id",
                "id": table_id,
                "what": "hands_changed",
                "version": version,
                "extra": {"padding": PADDING},
            },
        )


class FrozenClient:
    """A websocket client that reads only when told to."""

    def __init__(self, server: LiveServer) -> None:
        self.protocol = ClientProtocol(parse_uri(server.ws), max_size=None)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.settimeout(TIMEOUT)
        self.sock.connect(("127.0.0.1", server.port))
        self.protocol.send_request(self.protocol.connect())
        self._flush()
        self.texts: list[dict[str, Any]] = []
        events: list[Any] = []
        while not any(isinstance(e, Response) for e in events):
            events = self._read()
        self.early = [e for e in events if not isinstance(e, Response)]  # came with the answer

    def _flush(self) -> None:
        for data in self.protocol.data_to_send():
            self.sock.sendall(data)

    def _read(self) -> list[Any]:
        chunk = self.sock.recv(65536)
        if chunk:
            self.protocol.receive_data(chunk)
        else:
            self.protocol.receive_eof()
        self._flush()  # pongs and the closing handshake
        return self.protocol.events_received()

    def send(self, message: dict[str, Any]) -> None:
        self.protocol.send_text(json.dumps(message).encode())
        self._flush()

    def read_until_closed(self) -> int:
        """Read everything written so far, keeping text messages; the server's close code."""
        events = self.early
        while True:
            for event in events:
                if isinstance(event, Frame) and event.opcode == Opcode.TEXT:
                    self.texts.append(json.loads(event.data))
                elif isinstance(event, Frame) and event.opcode == Opcode.CLOSE:
                    return Close.parse(event.data).code
            events = self._read()

    def close(self) -> None:
        self.sock.close()


def test_a_client_that_stops_reading_is_closed_with_4008(
    live: LiveServer, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.LIVE_QUEUE_LIMIT = 32
    monkeypatch.setattr(consumer, "CLOSE_WAIT_SECONDS", 60.0)  # the test reads late
    table = public_tables(1)[0]
    frozen = FrozenClient(live)
    try:
        with socket_to(live) as reader:
            frozen.send({"type": "subscribe", "topic": "table", "table_id": table.pk})
            reader.send({"type": "subscribe", "topic": "table", "table_id": table.pk})
            reader.expect("subscribed")
            received: list[int] = []

            def read_all() -> None:
                while len(received) < BURST:
                    message = reader.recv()
                    if message["type"] == "update":
                        received.append(message["version"])

            thread = threading.Thread(target=read_all)
            thread.start()
            burst(table.pk)  # the frozen one reads nothing meanwhile
            thread.join(60)
            assert received == list(range(1, BURST + 1))  # the reader kept up, nothing lost
            reader.send({"type": "ping"})
            reader.expect("pong")
        # the frozen one now reads what was written before its queue overflowed, then the close
        assert frozen.read_until_closed() == consumer.CLOSE_TOO_SLOW
        updates = [m["version"] for m in frozen.texts if m["type"] == "update"]
        assert 0 < len(updates) < BURST and updates == list(range(1, len(updates) + 1))
        assert [m["type"] for m in frozen.texts[:2]] == ["hello", "subscribed"]
    finally:
        frozen.close()
