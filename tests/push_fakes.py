"""Fake push services for the tests: APNs, FCM HTTP v1 and a Web Push service on this machine.

The server sends its push notifications to Apple (APNs), to Google (FCM HTTP v1) and to the
browsers' push services (Web Push). None of them can be reached from a test, and a fake that
took any request would prove nothing: a client that signs its token with the wrong key,
forgets a header or encrypts to the wrong key would pass the tests and fail in production.
So each fake here checks a request as its real service does, and answers a request it refuses
as the real service words its answer:

- :class:`FakeApns` speaks HTTP/2 over TLS (ALPN ``h2``, as APNs insists) and checks the
  provider token (an ES256 JWT signed with the team's key, its key id and team id, at most an
  hour old), the ``apns-*`` headers, the device token and the payload.
- :class:`FakeFcm` is the OAuth 2 token endpoint (a JWT-bearer grant signed RS256 with the
  service account's key) and FCM v1's ``messages:send`` (a bearer token it issued; the
  message as FCM's JSON schema has it).
- :class:`FakeWebPush` keeps browser subscriptions (each with its own EC key and auth
  secret) and checks VAPID (RFC 8292) and decrypts the body (RFC 8291) with the
  subscription's keys, so a payload encrypted to the wrong keys is refused.

All three serve one certificate for ``127.0.0.1`` and ``localhost``, issued by a test CA
(:attr:`PushServices.ca_file`, which the client trusts through ``PUSH_CA_FILE``). What each
received is in ``received``; what it refused, and why, in ``refused``, so a test can assert
that nothing was refused. ``answer()`` scripts an error answer (410, 429 with Retry-After,
503, ...) for a target's next requests, to test how the client retries and gives up.

:func:`start_push_services` starts them; the ``push_services`` and ``push`` fixtures
(tests/conftest.py) start them once per test process, point the settings (and the
environment, for the real Celery worker) at them, and forget what one test left behind.
"""

from __future__ import annotations

import base64
import contextlib
import ipaddress
import json
import re
import secrets
import socket
import socketserver
import ssl
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

import h2.config
import h2.connection
import h2.events
import h2.exceptions
import http_ece  # type: ignore[import-untyped]
import jwt
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

#: How long an APNs provider token is good for: Apple refuses one issued more than an hour ago.
APNS_TOKEN_LIFETIME_SECONDS = 3600
#: The largest APNs payload (a regular notification's; VoIP's may be 5 KB, not used here).
APNS_MAX_PAYLOAD_BYTES = 4096
#: The seconds of clock difference a service forgives in a token's ``iat``.
CLOCK_LEEWAY_SECONDS = 60
#: The scopes either of which lets an access token send through FCM v1.
FCM_SCOPES = frozenset(
    {
        "https://www.googleapis.com/auth/firebase.messaging",
        "https://www.googleapis.com/auth/cloud-platform",
    }
)
FCM_ACCESS_TOKEN_SECONDS = 3600
JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
#: Google's token endpoint. An assertion may name it as its audience, whatever the service
#: account's token URI says (google-auth always does); the fake's own token URI does too.
GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token"
#: The longest a VAPID JWT may be valid (RFC 8292 section 2: no more than 24 hours).
VAPID_MAX_LIFETIME_SECONDS = 24 * 3600
#: The largest Web Push body a push service must take (RFC 8030 section 7.2).
WEBPUSH_MAX_BODY_BYTES = 4096
WEBPUSH_URGENCIES = frozenset({"very-low", "low", "normal", "high"})


@dataclass
class Received:
    """One push message a fake took, as its service would deliver it."""

    target: str  # APNs device token / FCM registration token / Web Push endpoint URL
    headers: dict[str, str]  # lower-case names
    payload: dict[str, Any]  # the JSON body (Web Push: the decrypted plaintext's)


@dataclass(frozen=True)
class Request:
    """One HTTP request as a fake sees it, whichever HTTP version carried it."""

    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: bytes
    repeated: frozenset[str] = frozenset()  # header names sent more than once (HTTP/2)


@dataclass(frozen=True)
class Reply:
    """One HTTP answer."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


def json_reply(
    status: int, content: dict[str, Any], headers: dict[str, str] | None = None
) -> Reply:
    """An answer with a JSON body."""
    return Reply(
        status,
        {"content-type": "application/json; charset=UTF-8", **(headers or {})},
        json.dumps(content).encode(),
    )


class Refused(Exception):
    """A request the fake refuses: ``reply`` is the real service's answer to it."""

    def __init__(self, target: str, why: str, reply: Reply) -> None:
        super().__init__(why)
        self.target = target
        self.why = why
        self.reply = reply


@dataclass(frozen=True)
class Scripted:
    """An answer :meth:`FakeService.answer` queued for a target's next request."""

    status: int
    reason: str | None
    retry_after: int | None


def b64url(data: bytes) -> str:
    """URL-safe base64 without padding, as Web Push writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    """The bytes of URL-safe base64 text, padded or not."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def pem(key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey) -> bytes:
    """A private key as unencrypted PKCS#8 PEM (the form of Apple's .p8 and Google's keys)."""
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def uncompressed_point(key: ec.EllipticCurvePublicKey) -> bytes:
    """An EC public key as its 65-byte uncompressed point (Web Push's form)."""
    return key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


class FakeService:
    """What the three fakes share: their records, scripted answers, and the request wrapper
    that records a refusal."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.received: list[Received] = []
        self.refused: list[tuple[str, str]] = []
        #: The scripted answers given, in order: (target, status).
        self.answered: list[tuple[str, int]] = []
        self.scripts: dict[str, list[Scripted]] = {}

    def answer(
        self,
        target: str,
        status: int,
        *,
        reason: str | None = None,
        retry_after: int | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next ``times`` requests for ``target`` that pass the checks with
        ``status`` (an error: 4xx or 5xx), the service's ``reason`` for it (its default for the
        status when ``None``) and a ``Retry-After`` header when ``retry_after`` is given.
        Answers queued for one target are given in the order they were queued."""
        if status < 400 or times < 1:
            raise ValueError(
                f"a scripted answer is an error status, given 1 or more times: {status}"
            )
        with self.lock:
            self.scripts.setdefault(target, []).extend(
                [Scripted(status, reason, retry_after)] * times
            )

    def reset(self) -> None:
        """Forget the received, refused and answered requests and the scripted answers."""
        with self.lock:
            self.received.clear()
            self.refused.clear()
            self.answered.clear()
            self.scripts.clear()

    def handle(self, request: Request) -> Reply:
        """Answer ``request``: the real service's refusal of it, a scripted answer, or its
        success. A failure of the fake itself is recorded as a refusal too, so that a test
        asserting that nothing was refused shows it."""
        try:
            return self.serve(request)
        except Refused as refusal:
            self.refuse(refusal.target, refusal.why)
            return refusal.reply
        except Exception:
            self.refuse("", f"the fake failed:\n{traceback.format_exc()}")
            return Reply(500)

    def serve(self, request: Request) -> Reply:
        """The fake's own checks and answer (raising :class:`Refused` for a refusal)."""
        raise NotImplementedError

    def refuse(self, target: str, why: str) -> None:
        with self.lock:
            self.refused.append((target, why))

    def deliver(self, received: Received, success: Reply) -> Reply:
        """Take a message that passed the checks: answer the target's next scripted answer
        if there is one, else record the message and answer ``success``."""
        with self.lock:
            queue = self.scripts.get(received.target)
            if not queue:
                self.received.append(received)
                return success
            scripted = queue.pop(0)
            self.answered.append((received.target, scripted.status))
        retry = {} if scripted.retry_after is None else {"retry-after": str(scripted.retry_after)}
        return self.scripted_reply(scripted, retry)

    def scripted_reply(self, scripted: Scripted, headers: dict[str, str]) -> Reply:
        """A scripted answer as the service words that status (with ``headers`` added)."""
        raise NotImplementedError


# --- TLS servers --------------------------------------------------------------------------


class TlsServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    """A TCP server on 127.0.0.1 (a free port) that speaks TLS, one thread a connection.

    The TLS handshake happens in the connection's thread, so a client that stalls or does not
    trust the certificate holds up nobody else. The open connections are kept so that
    :meth:`stop` ends them (a client keeps its connections open between requests)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self,
        context: ssl.SSLContext,
        handler: type[socketserver.BaseRequestHandler],
        fake: FakeService,
    ) -> None:
        self.context = context
        self.fake = fake
        self.connections: set[ssl.SSLSocket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), handler)

    @property
    def origin(self) -> str:
        return f"https://127.0.0.1:{self.server_address[1]}"

    def start(self) -> None:
        threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
        ).start()

    def finish_request(self, request: Any, client_address: Any) -> None:
        # An answer leaves in more than one write (headers, body); without this each waited
        # for the client's delayed acknowledgement of the one before (some 40 ms).
        request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            connection = self.context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError):
            return  # a client that does not trust the certificate, or went away
        with self.connections_lock:
            self.connections.add(connection)
        try:
            # typeshed's Self here is the class's type variable, which mypy cannot bind to self.
            self.RequestHandlerClass(connection, client_address, self)  # type: ignore[arg-type]
        except OSError:
            pass  # the client closed the connection
        finally:
            with self.connections_lock:
                self.connections.discard(connection)
            connection.close()

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        with self.connections_lock:
            for connection in list(self.connections):
                with contextlib.suppress(OSError):  # already closed
                    connection.shutdown(socket.SHUT_RDWR)


class Http1Handler(BaseHTTPRequestHandler):
    """HTTP/1.1 with keep-alive, each request handed to the server's fake."""

    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        length = self.headers.get("Content-Length")
        if length is None:
            self.reply(Reply(HTTPStatus.LENGTH_REQUIRED))
            return
        body = self.rfile.read(int(length))
        headers = {name.lower(): value for name, value in self.headers.items()}
        server = cast(TlsServer, self.server)
        self.reply(server.fake.handle(Request("POST", self.path, headers, body)))

    def reply(self, reply: Reply) -> None:
        self.send_response(reply.status)
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        self.wfile.write(reply.body)

    def log_message(self, format: str, *args: Any) -> None:
        """Say nothing: the test's own output is what matters."""


class Http2Handler(socketserver.BaseRequestHandler):
    """HTTP/2 (h2's server state machine), each request handed to the server's fake as its
    stream ends. A client that did not negotiate ``h2`` is refused, as APNs refuses it."""

    def handle(self) -> None:
        server = cast(TlsServer, self.server)
        connection_socket = cast(ssl.SSLSocket, self.request)
        if connection_socket.selected_alpn_protocol() != "h2":
            server.fake.refuse("", "the client did not negotiate HTTP/2 (ALPN h2)")
            return
        connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False))
        connection.initiate_connection()
        connection_socket.sendall(connection.data_to_send())
        streams: dict[int, tuple[list[tuple[str, str]], bytearray]] = {}
        while True:
            data = connection_socket.recv(65536)
            if not data:
                return
            try:
                events = connection.receive_data(data)
            except h2.exceptions.ProtocolError:
                connection_socket.sendall(connection.data_to_send())
                return
            for event in events:
                if isinstance(event, h2.events.RequestReceived) and event.stream_id is not None:
                    headers = [(text(name), text(value)) for name, value in event.headers or []]
                    streams[event.stream_id] = (headers, bytearray())
                elif isinstance(event, h2.events.DataReceived) and event.stream_id is not None:
                    streams[event.stream_id][1].extend(event.data or b"")
                    connection.acknowledge_received_data(
                        event.flow_controlled_length or 0, event.stream_id
                    )
                elif isinstance(event, h2.events.StreamEnded) and event.stream_id is not None:
                    headers, body = streams.pop(event.stream_id)
                    reply = server.fake.handle(http2_request(headers, bytes(body)))
                    respond(connection, event.stream_id, reply)
                elif isinstance(event, h2.events.StreamReset) and event.stream_id is not None:
                    streams.pop(event.stream_id, None)
                elif isinstance(event, h2.events.ConnectionTerminated):
                    connection_socket.sendall(connection.data_to_send())
                    return
            outgoing = connection.data_to_send()
            if outgoing:
                connection_socket.sendall(outgoing)


def text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def http2_request(headers: list[tuple[str, str]], body: bytes) -> Request:
    """A :class:`Request` of an HTTP/2 stream's header list (pseudo-headers included)."""
    names = [name for name, _ in headers if not name.startswith(":")]
    fields = dict(headers)
    return Request(
        method=fields.get(":method", ""),
        path=fields.get(":path", ""),
        headers={name: value for name, value in headers if not name.startswith(":")},
        body=body,
        repeated=frozenset(name for name in names if names.count(name) > 1),
    )


def respond(connection: h2.connection.H2Connection, stream_id: int, reply: Reply) -> None:
    headers = [(":status", str(reply.status)), *reply.headers.items()]
    if reply.body:
        headers.append(("content-length", str(len(reply.body))))
        connection.send_headers(stream_id, headers)
        connection.send_data(stream_id, reply.body, end_stream=True)
    else:
        connection.send_headers(stream_id, headers, end_stream=True)


@dataclass(frozen=True)
class Certificates:
    """The test CA (the file clients trust) and the certificate the fakes serve."""

    ca_file: str
    certificate_file: str
    key_file: str

    def server_context(self, alpn: list[str]) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.load_cert_chain(self.certificate_file, self.key_file)
        context.set_alpn_protocols(alpn)
        return context


def write_certificates(directory: Path) -> Certificates:
    """A CA and a server certificate it issued for ``127.0.0.1`` and ``localhost``, written
    to ``directory``. (A separate CA, rather than one self-signed server certificate, is what
    strict verification, such as Python 3.13's default, accepts.)"""
    now = datetime.now(UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Fake push services CA")])
    ca_identifier = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(ca_identifier, critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=30))
        .add_extension(
            x509.SubjectAlternativeName(
                [
                    x509.DNSName("localhost"),
                    x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                ]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_identifier),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    ca_file = directory / "push-ca.pem"
    ca_file.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    certificate_file = directory / "push-server.pem"
    certificate_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file = directory / "push-server-key.pem"
    key_file.write_bytes(pem(key))
    return Certificates(str(ca_file), str(certificate_file), str(key_file))


# --- APNs ---------------------------------------------------------------------------------

APNS_PUSH_TYPES = frozenset(
    {
        "alert",
        "background",
        "controls",
        "complication",
        "fileprovider",
        "liveactivity",
        "location",
        "mdm",
        "pushtotalk",
        "voip",
        "widgets",
    }
)
#: The reason APNs gives with a status, for a scripted answer that names none.
APNS_REASONS = {
    400: "BadDeviceToken",
    403: "Forbidden",
    404: "BadPath",
    405: "MethodNotAllowed",
    410: "Unregistered",
    413: "PayloadTooLarge",
    429: "TooManyRequests",
    500: "InternalServerError",
    503: "ServiceUnavailable",
}
UUID_PATTERN = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)


class FakeApns(FakeService):
    """APNs with token-based provider authentication: ``POST /3/device/<token>`` over HTTP/2.

    Checks, as APNs does: the provider token (``authorization: bearer <JWT>``, ES256, ``kid``
    the key id, ``iss`` the team id, ``iat`` at most an hour ago), ``apns-topic`` (present,
    the app's topic or one of its suffixed topics such as ``.voip``), the device token (hex),
    ``apns-push-type``, ``apns-priority``, ``apns-expiration``, ``apns-id`` and
    ``apns-collapse-id`` when given, no repeated header, and a payload of at most 4 KB.
    ``topics`` holds the apps the key may send to (the configured topic to begin with)."""

    def __init__(self, directory: Path, certificates: Certificates) -> None:
        super().__init__()
        self.key_id = "FAKEKEY001"
        self.team_id = "FAKETEAM01"
        self.topic = "org.example.preference"
        self.topics: set[str] = {self.topic}
        self.tokens_seen: set[str] = set()
        key = ec.generate_private_key(ec.SECP256R1())
        self.public_key = key.public_key()
        key_path = directory / f"AuthKey_{self.key_id}.p8"
        key_path.write_bytes(pem(key))
        self.key_file = str(key_path)
        self.server = TlsServer(certificates.server_context(["h2"]), Http2Handler, self)
        self.url = self.server.origin

    def reset(self) -> None:
        super().reset()
        with self.lock:
            self.tokens_seen.clear()
            self.topics = {self.topic}

    def serve(self, request: Request) -> Reply:
        match = re.fullmatch(r"/3/device/([^/?]*)", request.path)
        target = match[1] if match else request.path
        if request.method != "POST":
            raise self.refusal(target, 405, "MethodNotAllowed", f"method {request.method}")
        if match is None:
            raise self.refusal(target, 404, "BadPath", f"path {request.path}")
        if request.repeated:
            raise self.refusal(
                target, 400, "DuplicateHeaders", f"repeated {sorted(request.repeated)}"
            )
        self.check_provider_token(target, request.headers.get("authorization"))
        self.check_headers(target, request.headers)
        if not target:
            raise self.refusal(target, 400, "MissingDeviceToken", "no device token")
        if not re.fullmatch(r"(?:[0-9a-fA-F]{2}){32,}", target):
            raise self.refusal(target, 400, "BadDeviceToken", "not a hex device token")
        if not request.body:
            raise self.refusal(target, 400, "PayloadEmpty", "no payload")
        if len(request.body) > APNS_MAX_PAYLOAD_BYTES:
            raise self.refusal(target, 413, "PayloadTooLarge", f"{len(request.body)} bytes")
        try:
            payload = json.loads(request.body)
        except ValueError:
            payload = None
        if not isinstance(payload, dict):
            # APNs documents no reason for a payload that is not a JSON object; the fake's own.
            raise self.refusal(target, 400, "BadPayload", "the payload is not a JSON object")
        apns_id = request.headers.get("apns-id") or str(uuid.uuid4())
        received = Received(target, request.headers, payload)
        return self.deliver(received, Reply(200, {"apns-id": apns_id}))

    def check_provider_token(self, target: str, authorization: str | None) -> None:
        if not authorization:
            raise self.refusal(target, 403, "MissingProviderToken", "no authorization header")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise self.refusal(target, 403, "InvalidProviderToken", "not a bearer token")
        try:
            header = jwt.get_unverified_header(token)
            claims = jwt.decode(
                token,
                self.public_key,
                algorithms=["ES256"],
                options={"require": ["iss", "iat"]},
                leeway=CLOCK_LEEWAY_SECONDS,
            )
        except jwt.PyJWTError as error:
            raise self.refusal(target, 403, "InvalidProviderToken", str(error)) from None
        if header.get("kid") != self.key_id:
            raise self.refusal(target, 403, "InvalidProviderToken", f"kid {header.get('kid')!r}")
        if claims["iss"] != self.team_id:
            raise self.refusal(target, 403, "InvalidProviderToken", f"iss {claims['iss']!r}")
        if time.time() - claims["iat"] > APNS_TOKEN_LIFETIME_SECONDS:
            raise self.refusal(target, 403, "ExpiredProviderToken", f"iat {claims['iat']}")
        with self.lock:
            self.tokens_seen.add(token)

    def check_headers(self, target: str, headers: dict[str, str]) -> None:
        topic = headers.get("apns-topic")
        if not topic:
            raise self.refusal(target, 400, "MissingTopic", "no apns-topic")
        with self.lock:
            topics = set(self.topics)
        if not any(topic == app or topic.startswith(f"{app}.") for app in topics):
            raise self.refusal(target, 400, "TopicDisallowed", f"apns-topic {topic!r}")
        push_type = headers.get("apns-push-type")
        if push_type is not None and push_type not in APNS_PUSH_TYPES:
            raise self.refusal(target, 400, "InvalidPushType", f"apns-push-type {push_type!r}")
        priority = headers.get("apns-priority")
        if priority is not None and priority not in ("1", "5", "10"):
            raise self.refusal(target, 400, "BadPriority", f"apns-priority {priority!r}")
        expiration = headers.get("apns-expiration")
        if expiration is not None and not expiration.isdigit():
            raise self.refusal(target, 400, "BadExpirationDate", f"apns-expiration {expiration!r}")
        apns_id = headers.get("apns-id")
        if apns_id is not None and not UUID_PATTERN.fullmatch(apns_id):
            raise self.refusal(target, 400, "BadMessageId", f"apns-id {apns_id!r}")
        collapse_id = headers.get("apns-collapse-id")
        if collapse_id is not None and len(collapse_id.encode()) > 64:
            raise self.refusal(target, 400, "BadCollapseId", "apns-collapse-id over 64 bytes")

    def refusal(self, target: str, status: int, reason: str, why: str) -> Refused:
        return Refused(target, f"{reason}: {why}", self.error_reply(status, reason, {}))

    def scripted_reply(self, scripted: Scripted, headers: dict[str, str]) -> Reply:
        reason = scripted.reason or APNS_REASONS.get(scripted.status, "InternalServerError")
        return self.error_reply(scripted.status, reason, headers)

    @staticmethod
    def error_reply(status: int, reason: str, headers: dict[str, str]) -> Reply:
        content: dict[str, Any] = {"reason": reason}
        if status == 410:
            content["timestamp"] = int(time.time() * 1000)
        return json_reply(status, content, {"apns-id": str(uuid.uuid4()), **headers})


# --- FCM HTTP v1 --------------------------------------------------------------------------

#: The status, in FCM v1's error body, of an HTTP status; and the FCM error code and message
#: of a scripted answer that names no reason.
FCM_ERRORS = {
    400: ("INVALID_ARGUMENT", "INVALID_ARGUMENT", "Request contains an invalid argument."),
    401: ("UNAUTHENTICATED", "THIRD_PARTY_AUTH_ERROR", "Auth error from APNS or Web Push Service"),
    403: ("PERMISSION_DENIED", "SENDER_ID_MISMATCH", "SenderId mismatch"),
    404: ("NOT_FOUND", "UNREGISTERED", "Requested entity was not found."),
    429: ("RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED", "Quota exceeded for quota metric."),
    500: ("INTERNAL", "INTERNAL", "Internal error encountered."),
    503: ("UNAVAILABLE", "UNAVAILABLE", "The service is currently unavailable."),
}
FCM_ERROR_TYPE = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
#: The fields FCM v1's JSON takes (protobuf JSON: each under its lowerCamel name too).
FCM_REQUEST_FIELDS = {"message", "validate_only"}
FCM_MESSAGE_FIELDS = {
    "name",
    "data",
    "notification",
    "android",
    "webpush",
    "apns",
    "fcm_options",
    "token",
    "topic",
    "condition",
}
FCM_NOTIFICATION_FIELDS = {"title", "body", "image"}
FCM_ANDROID_FIELDS = {
    "collapse_key",
    "priority",
    "ttl",
    "restricted_package_name",
    "data",
    "notification",
    "fcm_options",
    "direct_boot_ok",
    "bandwidth_constrained_ok",
    "restricted_satellite_ok",
}
FCM_APNS_FIELDS = {"headers", "payload", "fcm_options", "live_activity_token"}
FCM_WEBPUSH_FIELDS = {"headers", "data", "notification", "fcm_options"}
UNAUTHENTICATED_MESSAGE = (
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login "
    "cookie or other valid authentication credential."
)


def camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part.title() for part in rest)


@dataclass
class AccessToken:
    expires_at: float
    scopes: frozenset[str]
    expired: bool = False


class FakeFcm(FakeService):
    """FCM HTTP v1 and the OAuth 2 token endpoint of its service account, over HTTP/1.1.

    ``POST /token`` takes a JWT-bearer grant: the assertion signed RS256 with the service
    account's key (``kid`` its key id when given), ``iss`` its client e-mail, ``aud`` this
    token URI or Google's, a ``scope``, and at most an hour between ``iat`` and ``exp``. It
    answers a fresh access token, or a refusal worded as Google's are (400 ``invalid_grant``,
    ``invalid_scope``, ``unsupported_grant_type``).
    ``POST /v1/projects/<project>/messages:send`` takes a bearer token it issued, unexpired,
    with a scope that lets it send (403 ``PERMISSION_DENIED`` else), for the service
    account's project, and a body FCM's schema takes (unknown fields and non-string data
    values are refused, as FCM refuses them); it delivers to a registration token only."""

    def __init__(self, directory: Path, certificates: Certificates) -> None:
        super().__init__()
        self.server = TlsServer(certificates.server_context(["http/1.1"]), Http1Handler, self)
        self.url = self.server.origin
        self.project_id = "preference-push-test"
        self.client_email = f"push-sender@{self.project_id}.iam.gserviceaccount.com"
        self.token_uri = f"{self.url}/token"
        self.private_key_id = secrets.token_hex(20)
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.public_key = key.public_key()
        self.access_tokens: dict[str, AccessToken] = {}
        account = {
            "type": "service_account",
            "project_id": self.project_id,
            "private_key_id": self.private_key_id,
            "private_key": pem(key).decode(),
            "client_email": self.client_email,
            "client_id": str(secrets.randbelow(10**21)),
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": self.token_uri,
            "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
            "client_x509_cert_url": f"https://www.googleapis.com/robot/v1/metadata/x509/{self.client_email}",
            "universe_domain": "googleapis.com",
        }
        credentials = directory / "fcm-service-account.json"
        credentials.write_text(json.dumps(account, indent=2))
        self.credentials_file = str(credentials)

    def expire_tokens(self) -> None:
        """Refuse every access token issued so far (401), as Google does once one expired."""
        with self.lock:
            for token in self.access_tokens.values():
                token.expired = True

    def reset(self) -> None:
        """Forget what :meth:`FakeService.reset` forgets, and which tokens
        :meth:`expire_tokens` expired (a client keeps its token from one test to the next)."""
        super().reset()
        with self.lock:
            for token in self.access_tokens.values():
                token.expired = False

    def serve(self, request: Request) -> Reply:
        path = urlsplit(request.path).path
        if path == "/token":
            return self.issue_token(request)
        match = re.fullmatch(r"/v1/projects/([^/]+)/messages:send", path)
        if match is None:
            raise Refused(path, f"no such endpoint: {path}", self.error(404, None, None))
        return self.send(match[1], request)

    def issue_token(self, request: Request) -> Reply:
        form = {name: values[0] for name, values in parse_qs(request.body.decode()).items()}
        if form.get("grant_type") != JWT_BEARER_GRANT:
            raise self.grant_refused(
                "unsupported_grant_type", f"grant_type {form.get('grant_type')!r}"
            )
        assertion = form.get("assertion", "")
        try:
            header = jwt.get_unverified_header(assertion)
            claims = jwt.decode(
                assertion,
                self.public_key,
                algorithms=["RS256"],
                audience=[self.token_uri, GOOGLE_TOKEN_URI],
                issuer=self.client_email,
                options={"require": ["iss", "aud", "iat", "exp"]},
                leeway=CLOCK_LEEWAY_SECONDS,
            )
        except jwt.PyJWTError as error:
            raise self.grant_refused("invalid_grant", f"Invalid JWT: {error}") from None
        if header.get("kid", self.private_key_id) != self.private_key_id:
            raise self.grant_refused("invalid_grant", "Invalid JWT Signature.")
        if claims["exp"] - claims["iat"] > FCM_ACCESS_TOKEN_SECONDS:
            raise self.grant_refused(
                "invalid_grant",
                "Invalid JWT: Token must be a short-lived token (60 minutes) and in a "
                "reasonable timeframe.",
            )
        scopes = frozenset(str(claims.get("scope") or "").split())
        if not scopes:
            raise self.grant_refused("invalid_scope", "Empty or missing scope not allowed.")
        access_token = f"ya29.fake-{secrets.token_urlsafe(32)}"
        with self.lock:
            self.access_tokens[access_token] = AccessToken(
                time.time() + FCM_ACCESS_TOKEN_SECONDS, scopes
            )
        return json_reply(
            200,
            {
                "access_token": access_token,
                "expires_in": FCM_ACCESS_TOKEN_SECONDS,
                "token_type": "Bearer",
            },
            {"cache-control": "no-store"},
        )

    @staticmethod
    def grant_refused(error: str, description: str) -> Refused:
        return Refused(
            "/token",
            f"{error}: {description}",
            json_reply(400, {"error": error, "error_description": description}),
        )

    def send(self, project: str, request: Request) -> Reply:
        target = f"projects/{project}"
        scheme, _, access_token = request.headers.get("authorization", "").partition(" ")
        with self.lock:
            token = self.access_tokens.get(access_token) if scheme.lower() == "bearer" else None
        if token is None or token.expired or token.expires_at < time.time():
            why = "no bearer token" if not access_token else "an access token it did not issue"
            if token is not None:
                why = "an expired access token"
            raise Refused(
                target,
                f"UNAUTHENTICATED: {why}",
                self.error(
                    401,
                    None,
                    UNAUTHENTICATED_MESSAGE,
                    {"www-authenticate": 'Bearer realm="https://accounts.google.com/"'},
                ),
            )
        if not token.scopes & FCM_SCOPES:
            raise Refused(
                target,
                f"PERMISSION_DENIED: scopes {sorted(token.scopes)}",
                self.error(403, None, "Request had insufficient authentication scopes."),
            )
        if project != self.project_id:
            raise Refused(
                target,
                f"PERMISSION_DENIED: project {project!r}",
                self.error(
                    403,
                    None,
                    "Permission 'cloudmessaging.messages.create' denied on resource "
                    f"'//cloudresourcemanager.googleapis.com/projects/{project}' "
                    "(or it may not exist).",
                ),
            )
        try:
            body = json.loads(request.body)
        except ValueError:
            body = None
        if not isinstance(body, dict):
            raise self.invalid(target, "Invalid JSON payload received.")
        self.check_fields(target, body, FCM_REQUEST_FIELDS, "")
        message = body.get("message")
        if not isinstance(message, dict):
            raise self.invalid(target, "Request contains an invalid argument: no message.")
        token_field = message.get("token")
        target = token_field if isinstance(token_field, str) else target
        self.check_message(target, message)
        if body.get("validate_only", body.get("validateOnly")) is True:
            return json_reply(200, {"name": f"projects/{project}/messages/fake_message_id"})
        name = f"projects/{project}/messages/0:{time.time_ns() // 1000}%{secrets.token_hex(8)}"
        received = Received(target, request.headers, body)
        return self.deliver(received, json_reply(200, {"name": name}))

    def check_message(self, target: str, message: dict[str, Any]) -> None:
        self.check_fields(target, message, FCM_MESSAGE_FIELDS, "message")
        recipients = [name for name in ("token", "topic", "condition") if name in message]
        if not recipients:
            raise self.invalid(target, "Recipient of the message is not set.", fcm_error=True)
        if len(recipients) > 1:
            raise self.invalid(target, f"Only one of {recipients} may be set.", fcm_error=True)
        if recipients != ["token"]:
            raise self.invalid(target, "The fake delivers to registration tokens only.")
        if not isinstance(message["token"], str) or not re.fullmatch(
            r"[A-Za-z0-9_.:\-]{1,4096}", message["token"]
        ):
            raise self.invalid(
                target,
                "The registration token is not a valid FCM registration token",
                fcm_error=True,
            )
        self.check_string_map(target, message, "data", "message")
        if "notification" in message:
            self.check_fields(
                target, message["notification"], FCM_NOTIFICATION_FIELDS, "message.notification"
            )
        android = message.get("android")
        if android is not None:
            self.check_fields(target, android, FCM_ANDROID_FIELDS, "message.android")
            self.check_string_map(target, android, "data", "message.android")
            priority = android.get("priority")
            if priority is not None and str(priority).upper() not in ("NORMAL", "HIGH"):
                raise self.invalid(
                    target, f"Invalid value at 'message.android.priority': {priority!r}"
                )
            ttl = android.get("ttl")
            if ttl is not None and not re.fullmatch(r"\d+(\.\d{1,9})?s", str(ttl)):
                raise self.invalid(target, f"Invalid value at 'message.android.ttl': {ttl!r}")
        if "apns" in message:
            self.check_fields(target, message["apns"], FCM_APNS_FIELDS, "message.apns")
            self.check_string_map(target, message["apns"], "headers", "message.apns")
        if "webpush" in message:
            self.check_fields(target, message["webpush"], FCM_WEBPUSH_FIELDS, "message.webpush")
            self.check_string_map(target, message["webpush"], "headers", "message.webpush")
            self.check_string_map(target, message["webpush"], "data", "message.webpush")

    def check_fields(self, target: str, value: Any, fields: set[str], at: str) -> None:
        if not isinstance(value, dict):
            raise self.invalid(target, f"Invalid value at '{at}': not an object.")
        known = fields | {camel(name) for name in fields}
        for name in value:
            if name not in known:
                raise self.invalid(
                    target,
                    f'Invalid JSON payload received. Unknown name "{name}"'
                    f"{f' at {at!r}' if at else ''}: Cannot find field.",
                )

    def check_string_map(self, target: str, parent: dict[str, Any], name: str, at: str) -> None:
        value = parent.get(name)
        if value is None:
            return
        if not isinstance(value, dict) or not all(isinstance(item, str) for item in value.values()):
            raise self.invalid(
                target,
                f"Invalid value at '{at}.{name}': a map of strings to strings.",
                fcm_error=True,
            )

    def invalid(self, target: str, message: str, *, fcm_error: bool = False) -> Refused:
        return Refused(
            target,
            f"INVALID_ARGUMENT: {message}",
            self.error(400, "INVALID_ARGUMENT" if fcm_error else None, message),
        )

    def scripted_reply(self, scripted: Scripted, headers: dict[str, str]) -> Reply:
        return self.error(scripted.status, scripted.reason or "", None, headers)

    @staticmethod
    def error(
        status: int,
        error_code: str | None,
        message: str | None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        """FCM v1's error answer: a Google API error, with the FCM error code in its details
        (``""``: the status's usual one; ``None``: no FCM details)."""
        google_status, usual_code, usual_message = FCM_ERRORS.get(
            status, ("UNKNOWN", "UNSPECIFIED_ERROR", HTTPStatus(status).phrase)
        )
        content: dict[str, Any] = {
            "code": status,
            "message": message or usual_message,
            "status": google_status,
        }
        if error_code is not None:
            content["details"] = [{"@type": FCM_ERROR_TYPE, "errorCode": error_code or usual_code}]
        return json_reply(status, {"error": content}, headers)


# --- Web Push -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Subscription:
    """A browser's push subscription: what the browser keeps to decrypt its messages."""

    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes
    application_server_key: str  # URL-safe base64, no padding


class FakeWebPush(FakeService):
    """A Web Push service (RFC 8030) for subscriptions restricted to an application server
    key (RFC 8292), over HTTP/1.1: ``POST /push/<id>``.

    Checks, as a push service does: the subscription exists (404 else), ``TTL`` (400 when
    absent), ``Authorization: vapid t=<JWT>, k=<key>`` (401 when absent, 403 when invalid):
    ``k`` the subscription's application server key, the JWT signed ES256 by it, ``aud`` the
    endpoint's origin, ``exp`` in the future and at most 24 hours ahead, ``sub`` a
    ``mailto:`` or ``https:`` address; ``Urgency`` and ``Topic`` well formed; a body of at
    most 4096 bytes encoded ``aes128gcm``. And, as the browser would, it decrypts the body
    (RFC 8291) with the subscription's keys: a body that does not decrypt, or whose
    plaintext is not a JSON object, is refused with 400."""

    def __init__(self, certificates: Certificates) -> None:
        super().__init__()
        self.server = TlsServer(certificates.server_context(["http/1.1"]), Http1Handler, self)
        self.base_url = self.server.origin
        self.subscriptions: dict[str, Subscription] = {}

    def subscribe(self, application_server_key: str) -> tuple[str, str, str]:
        """A new browser subscription restricted to ``application_server_key`` (a VAPID public
        key, URL-safe base64): its endpoint, ``p256dh`` and ``auth``, as
        ``PushSubscription.toJSON()`` gives them. It lasts until the services stop."""
        key = ec.EllipticCurvePublicKey.from_encoded_point(
            ec.SECP256R1(), b64url_decode(application_server_key)
        )  # a browser refuses a key that is no P-256 point, and so does this
        private_key = ec.generate_private_key(ec.SECP256R1())
        auth_secret = secrets.token_bytes(16)
        subscription_id = secrets.token_urlsafe(16)
        with self.lock:
            self.subscriptions[subscription_id] = Subscription(
                private_key, auth_secret, b64url(uncompressed_point(key))
            )
        return (
            f"{self.base_url}/push/{subscription_id}",
            b64url(uncompressed_point(private_key.public_key())),
            b64url(auth_secret),
        )

    def serve(self, request: Request) -> Reply:
        target = f"{self.base_url}{request.path}"
        match = re.fullmatch(r"/push/([A-Za-z0-9_-]+)", request.path)
        with self.lock:
            subscription = self.subscriptions.get(match[1]) if match else None
        if subscription is None:
            raise self.refusal(target, 404, "no such subscription")
        ttl = request.headers.get("ttl")
        if ttl is None or not ttl.isdigit():
            raise self.refusal(target, 400, f"TTL {ttl!r}: a TTL header of seconds is required")
        self.check_vapid(target, request.headers.get("authorization"), subscription)
        urgency = request.headers.get("urgency")
        if urgency is not None and urgency not in WEBPUSH_URGENCIES:
            raise self.refusal(target, 400, f"Urgency {urgency!r}")
        topic = request.headers.get("topic")
        if topic is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", topic):
            raise self.refusal(
                target, 400, f"Topic {topic!r}: at most 32 URL-safe base64 characters"
            )
        payload = self.decrypt(target, request, subscription)
        received = Received(target, request.headers, payload)
        location = f"{self.base_url}/message/{secrets.token_urlsafe(16)}"
        return self.deliver(received, Reply(201, {"location": location, "ttl": ttl}))

    def check_vapid(
        self, target: str, authorization: str | None, subscription: Subscription
    ) -> None:
        scheme, _, parameters = (authorization or "").partition(" ")
        if scheme.lower() != "vapid":
            raise self.refusal(target, 401, f"no vapid authorization: {authorization!r}")
        values: dict[str, str] = {}
        for part in parameters.split(","):
            name, _, value = part.strip().partition("=")
            values[name] = value
        token, key = values.get("t"), values.get("k")
        if not token or not key:
            raise self.refusal(target, 401, "the vapid authorization lacks t or k")
        if key.rstrip("=") != subscription.application_server_key:
            raise self.refusal(target, 403, "k is not the subscription's application server key")
        public_key = ec.EllipticCurvePublicKey.from_encoded_point(
            ec.SECP256R1(), b64url_decode(key)
        )
        try:
            claims = jwt.decode(
                token,
                public_key,
                algorithms=["ES256"],
                audience=self.base_url,  # the endpoint's origin
                options={"require": ["aud", "exp", "sub"]},
            )
        except jwt.PyJWTError as error:
            raise self.refusal(target, 403, f"vapid JWT: {error}") from None
        if claims["exp"] > time.time() + VAPID_MAX_LIFETIME_SECONDS:
            raise self.refusal(target, 403, f"vapid JWT: exp {claims['exp']} over 24 hours ahead")
        if not str(claims["sub"]).startswith(("mailto:", "https:")):
            raise self.refusal(target, 403, f"vapid JWT: sub {claims['sub']!r}")

    def decrypt(self, target: str, request: Request, subscription: Subscription) -> dict[str, Any]:
        if not request.body:
            return {}  # a push message without a payload (RFC 8030 section 5)
        encoding = request.headers.get("content-encoding")
        if encoding != "aes128gcm":
            raise self.refusal(target, 400, f"Content-Encoding {encoding!r}, not aes128gcm")
        if len(request.body) > WEBPUSH_MAX_BODY_BYTES:
            raise self.refusal(target, 413, f"a body of {len(request.body)} bytes")
        # RFC 8291 section 4: the header's key id is the sender's 65-byte public key.
        if len(request.body) < 21 or request.body[20] != 65:
            raise self.refusal(target, 400, "the aes128gcm header has no 65-byte key id")
        try:
            plaintext = http_ece.decrypt(
                request.body,
                private_key=subscription.private_key,
                auth_secret=subscription.auth_secret,
                version="aes128gcm",
            )
            payload = json.loads(plaintext)
        except Exception as error:
            raise self.refusal(
                target, 400, f"the body does not decrypt to JSON: {error!r}"
            ) from None
        if not isinstance(payload, dict):
            raise self.refusal(target, 400, "the plaintext is not a JSON object")
        return payload

    @staticmethod
    def refusal(target: str, status: int, why: str) -> Refused:
        return Refused(target, why, FakeWebPush.error(status, why, {}))

    def scripted_reply(self, scripted: Scripted, headers: dict[str, str]) -> Reply:
        return self.error(scripted.status, scripted.reason, headers)

    @staticmethod
    def error(status: int, message: str | None, headers: dict[str, str]) -> Reply:
        phrase = HTTPStatus(status).phrase
        return json_reply(
            status, {"code": status, "error": phrase, "message": message or phrase}, headers
        )


# --- All three ----------------------------------------------------------------------------


@dataclass
class PushServices:
    """The three fakes, the CA their certificate is issued by, and a VAPID key for the
    server under test."""

    apns: FakeApns
    fcm: FakeFcm
    webpush: FakeWebPush
    ca_file: str
    vapid_key_file: str
    vapid_public_key: str  # uncompressed point, URL-safe base64 without padding

    def reset(self) -> None:
        """Forget received and refused messages, scripted answers and expired tokens."""
        for fake in (self.apns, self.fcm, self.webpush):
            fake.reset()

    def settings(self) -> dict[str, str]:
        """The ``PUSH_*`` settings that point the server at the fakes, as environment values
        (``PUSH_WEBPUSH_HOSTS`` comma-separated: the project's hosts and ``127.0.0.1``)."""
        from django.conf import settings

        hosts = [host for host in settings.PUSH_WEBPUSH_HOSTS if host != "127.0.0.1"]
        return {
            "PUSH_APNS_URL": self.apns.url,
            "PUSH_APNS_KEY_FILE": self.apns.key_file,
            "PUSH_APNS_KEY_ID": self.apns.key_id,
            "PUSH_APNS_TEAM_ID": self.apns.team_id,
            "PUSH_APNS_TOPIC": self.apns.topic,
            "PUSH_FCM_URL": self.fcm.url,
            "PUSH_FCM_CREDENTIALS_FILE": self.fcm.credentials_file,
            "PUSH_WEBPUSH_VAPID_KEY_FILE": self.vapid_key_file,
            "PUSH_WEBPUSH_SUBJECT": "mailto:push-tests@example.org",
            "PUSH_WEBPUSH_HOSTS": ",".join([*hosts, "127.0.0.1"]),
            "PUSH_CA_FILE": self.ca_file,
        }

    def stop(self) -> None:
        """Stop the three servers and end their open connections."""
        for fake in (self.apns, self.fcm, self.webpush):
            fake.server.stop()


def start_push_services(directory: Path) -> PushServices:
    """Start the three fakes on free ports of 127.0.0.1, their keys and certificates written
    to ``directory``; :meth:`PushServices.stop` stops them."""
    certificates = write_certificates(directory)
    vapid_key = ec.generate_private_key(ec.SECP256R1())
    vapid_key_file = directory / "vapid-private.pem"
    vapid_key_file.write_bytes(pem(vapid_key))
    services = PushServices(
        apns=FakeApns(directory, certificates),
        fcm=FakeFcm(directory, certificates),
        webpush=FakeWebPush(certificates),
        ca_file=certificates.ca_file,
        vapid_key_file=str(vapid_key_file),
        vapid_public_key=b64url(uncompressed_point(vapid_key.public_key())),
    )
    for fake in (services.apns, services.fcm, services.webpush):
        fake.server.start()
    return services


def wait_until(predicate: Callable[[], object], what: str, timeout: float = 30.0) -> None:
    """Return once ``predicate()`` is true, asking every 0.05 s; fail the test, naming
    ``what`` it waited for, when ``timeout`` seconds pass first."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout:g} s for {what}", pytrace=False)
        time.sleep(0.05)
