"""The websocket endpoint ``/ws/v1/`` (``docs/live.md`` is the protocol): one consumer per
socket, served by the ASGI ``events`` process beside the long polls (``config/asgi.py`` routes
to it and checks the origin).

A socket authenticates with the REST API's JWT, in its first message (``{"type": "auth",
"token": …}``) or as the subprotocol ``bearer.<token>`` next to ``preference.v1`` (never in
the URL, which proxies log). Anonymous sockets may subscribe to what anonymous users may read
over REST; one with neither a token nor a subscription after ``LIVE_AUTH_SECONDS`` is closed.
It subscribes by message to topics: ``hand`` and ``notifications`` here, the reload topics
from the registry in :mod:`games.live` (which the apps above games fill, so this module never
imports them). Every subscription is checked as the REST read of the same thing would be (a
hand by the long poll's selectors), and one the caller may not read is answered
``not_found`` (as REST's 404), never a close.

Outgoing messages pass one bounded queue per socket (``LIVE_QUEUE_LIMIT``) drained by a writer
task; a client that does not read fills it and is closed with 4008 instead of being buffered
without bound. Database work goes through :func:`games.live.db.db_call` like the long polls':
in threads, at most ``DB_SLOTS`` at once per process, giving its connection back each time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import weakref
from dataclasses import dataclass
from typing import Any

from channels.exceptions import StopConsumer  # type: ignore[import-untyped]
from channels.generic.websocket import AsyncWebsocketConsumer  # type: ignore[import-untyped]
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework.exceptions import AuthenticationFailed, NotFound
from rest_framework_simplejwt.exceptions import ExpiredTokenError, TokenError
from rest_framework_simplejwt.tokens import AccessToken

from clubs import outbox
from clubs.models import User
from config.api.authentication import CachedJWTAuthentication
from config.i18n import request_language, supported
from games import live
from games.errors import InvalidInput
from games.live.db import db_call
from games.selectors import hand_events_body, hand_events_for_seat, hosted_hand_for_user

log = logging.getLogger(__name__)

PROTOCOL = "preference.v1"
BEARER = "bearer."

#: Close codes (docs/live.md, "Close codes").
CLOSE_AUTH_TIMEOUT = 4001
CLOSE_TOKEN_INVALID = 4003
CLOSE_TOKEN_EXPIRED = 4004
CLOSE_TOO_SLOW = 4008
CLOSE_TOO_BIG = 1009

#: How long a close waits for a client that reads nothing before the socket is abandoned.
CLOSE_WAIT_SECONDS = 10.0
#: How often a socket joins its groups again (the layer forgets members after a day).
GROUP_REFRESH_SECONDS = 3600.0
#: Ids are database keys: positive and within a 64-bit integer.
MAX_ID = 2**63 - 1
#: Seconds a hand subscription trusts its reader's right to read and seat before checking
#: them again with the next move (a table made private, a membership ended).
RECHECK_SECONDS = 30.0

TOPICS_BUILT_IN = ("hand", "notifications")


class _Close:
    """A close frame queued behind the messages before it."""

    def __init__(self, code: int, reason: str) -> None:
        self.code = code
        self.reason = reason


@dataclass
class _Sub:
    """One subscription: its group and the last version the client was sent; for a hand also
    the reader's seat (None: a spectator) and when their right to read was last checked."""

    group: str
    version: int | None = None
    what: str | None = None
    seat: str | None = None
    checked_at: float = 0.0


class BadMessage(Exception):
    """A client message that cannot be followed: answered with an error, never a close."""

    def __init__(self, code: str, message: str, **echo: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.echo = echo


def _read_as(
    user: Any, table_id: int, number: int, after: int
) -> tuple[dict[str, Any], str | None]:
    """The events body ``user`` may read and their seat: the check of a subscription."""
    table, hand, seat = hosted_hand_for_user(user=user, table_id=table_id, number=number)
    return hand_events_body(table=table, hand=hand, seat=seat, after=after), seat


#: Reads of a hand in flight on this process's loop, shared by every socket that would read
#: the same thing (same hand, seat, ``after`` and published version): one read per move for
#: a hundred spectators instead of a hundred.
_SHARED: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[tuple[Any, ...], asyncio.Task[dict[str, Any]]]
] = weakref.WeakKeyDictionary()


async def _shared_read(key: tuple[Any, ...]) -> dict[str, Any]:
    """:func:`~games.selectors.hand_events_for_seat` for ``key`` = (table id, number, seat,
    after, version), once for all the sockets of this loop asking at the same time."""
    reads = _SHARED.setdefault(asyncio.get_running_loop(), {})
    task = reads.get(key)
    if task is None:
        table_id, number, seat, after, _ = key
        task = asyncio.ensure_future(
            db_call(hand_events_for_seat, table_id=table_id, number=number, seat=seat, after=after)
        )
        reads[key] = task
        task.add_done_callback(lambda _: reads.pop(key, None))
    # shielded: one socket that goes away must not cancel the others' read
    return await asyncio.shield(task)


def _presence(user_id: int, watched: set[int], gone: set[int], seconds: float) -> None:
    for table_id in watched:
        outbox.mark_watching(user_id, table_id, seconds)
    for table_id in gone:
        outbox.unmark_watching(user_id, table_id)


def authenticate(raw: str) -> tuple[User, float]:
    """The user of an access token and its expiry (epoch seconds). Raises
    :class:`ExpiredTokenError` for an expired token and :class:`TokenError` or
    :class:`AuthenticationFailed` for any other bad one (signature, type, unknown or inactive
    user)."""
    token = AccessToken(raw)  # type: ignore[arg-type]
    user = CachedJWTAuthentication().get_user(token)
    return user, float(token["exp"])


def scope_language(scope: Any) -> str:
    """The language a socket speaks before it signs in: its handshake's ``Accept-Language``
    (as :func:`config.i18n.request_language` reads a request's), else the server's default."""
    request = HttpRequest()
    for name, value in scope.get("headers") or []:
        if bytes(name).lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = bytes(value).decode("latin-1")
    return request_language(request)


def _id(message: dict[str, Any], name: str) -> int:
    value = message.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_ID:
        raise BadMessage(
            "invalid", _("Give {field} as a positive integer.").format(field=name), field=name
        )
    return value


def _version(message: dict[str, Any], name: str) -> int | None:
    value = message.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        raise BadMessage(
            "invalid", _("Give {field} as an integer of 0 or more.").format(field=name), field=name
        )
    return value


class LiveConsumer(AsyncWebsocketConsumer):
    """One socket: authentication, subscriptions, the bounded outgoing queue, heartbeats.

    Its sentences (``error`` messages) speak the socket's language: the signed-in user's
    preference, else the handshake's ``Accept-Language`` (:func:`scope_language`), else
    English; each handler that may say something runs inside :meth:`_speaking`."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.user: User | AnonymousUser = AnonymousUser()
        self.language = scope_language(scope)
        self.subs: dict[tuple[Any, ...], _Sub] = {}
        self.closing = False
        self.abandoned = False
        self.queue: asyncio.Queue[str | _Close] = asyncio.Queue(maxsize=settings.LIVE_QUEUE_LIMIT)
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.main = asyncio.current_task()
        live.serve_on(asyncio.get_running_loop())
        try:
            await super().__call__(scope, receive, send)
        except asyncio.CancelledError:
            if not self.abandoned:
                raise
            await self._leave_all()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Call the handler of ``message``'s type. Unlike Channels' own dispatch it does not
        hop to a thread to close old database connections before each message: every
        database call here closes its connection itself (:func:`db_call`), and the hop would
        slow a busy socket down until the layer drops its messages."""
        handler = getattr(self, message["type"].replace(".", "_"), None)
        if handler is None or message["type"].startswith("_"):
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    # -- connection -----------------------------------------------------------------------

    def _speaking(self) -> Any:
        """Speak the socket's language (in this task only) while the block runs."""
        return translation.override(self.language)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        with self._speaking():
            await self._connect()

    async def _connect(self) -> None:
        offered = list(self.scope.get("subprotocols") or [])
        if offered and PROTOCOL not in offered:
            await self.close()  # refuses the handshake (403): we speak preference.v1 only
            return
        await self.accept(PROTOCOL if offered else None)
        self._start("writer", self._write())
        self._start("heartbeat", self._heartbeat())
        token = next((p[len(BEARER) :] for p in offered if p.startswith(BEARER)), None)
        if token is not None and not await self._authenticate(token):
            return
        self._out(
            {
                "type": "hello",
                "protocol": PROTOCOL,
                "user_id": self.user.pk if self.user.is_authenticated else None,
                "heartbeat_seconds": settings.LIVE_HEARTBEAT_SECONDS,
                "auth_seconds": settings.LIVE_AUTH_SECONDS,
                "limits": {
                    "queue": settings.LIVE_QUEUE_LIMIT,
                    "subscriptions": settings.LIVE_MAX_SUBSCRIPTIONS,
                    "message_bytes": settings.LIVE_MAX_MESSAGE_BYTES,
                },
            }
        )
        self._arm_auth_deadline()

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        self.closing = True
        await self._leave_all()
        raise StopConsumer()

    async def _leave_all(self) -> None:
        for name, task in list(self.tasks.items()):
            if task is not asyncio.current_task():
                task.cancel()
            self.tasks.pop(name, None)
        tables = {key[1] for key in self.subs if key[0] == "hand"}
        if tables and isinstance(self.user, User):
            with contextlib.suppress(Exception):
                await asyncio.to_thread(_presence, self.user.pk, set(), tables, 0)
        for sub in list(self.subs.values()):
            with contextlib.suppress(Exception):
                await self.channel_layer.group_discard(sub.group, self.channel_name)
        self.subs.clear()

    def _start(self, name: str, coroutine: Any) -> None:
        self._stop(name)
        self.tasks[name] = asyncio.create_task(coroutine)

    def _stop(self, name: str) -> None:
        task = self.tasks.pop(name, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    # -- the outgoing queue ---------------------------------------------------------------

    def _out(self, message: dict[str, Any]) -> None:
        """Queue a message for the writer; a full queue closes the socket with 4008."""
        if self.closing:
            return
        try:
            self.queue.put_nowait(json.dumps(message, separators=(",", ":")))
        except asyncio.QueueFull:
            self._too_slow()

    def _error(self, code: str, message: str, **echo: Any) -> None:
        self._out({"type": "error", "code": code, "message": message, **echo})

    def _close_with(self, code: int, error: str, message: str) -> None:
        """Send an error, then close with ``code`` once the messages before are written."""
        if self.closing:
            return
        self._error(error, message)
        try:
            self.queue.put_nowait(_Close(code, error))
        except asyncio.QueueFull:
            self._too_slow()
            return
        self.closing = True

    def _too_slow(self) -> None:
        if self.closing:
            return
        self.closing = True
        log.info("live: closing a socket that reads too slowly (%s queued)", self.queue.qsize())
        writer = self.tasks.pop("writer", None)
        if writer is not None:
            writer.cancel()
        self._start("closer", self._close_now(CLOSE_TOO_SLOW, "too_slow"))

    async def _close_now(self, code: int, reason: str) -> None:
        """Close past the queue; a client that reads nothing for ``CLOSE_WAIT_SECONDS`` is
        abandoned (the server stops serving it and forgets its subscriptions)."""
        try:
            await asyncio.wait_for(
                self.base_send({"type": "websocket.close", "code": code, "reason": reason}),
                CLOSE_WAIT_SECONDS,
            )
        except Exception:  # noqa: BLE001 - timed out or gone: stop serving it either way
            self.abandoned = True
            if self.main is not None:
                self.main.cancel()

    async def _write(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, _Close):
                    await self.base_send(
                        {"type": "websocket.close", "code": item.code, "reason": item.reason}
                    )
                    return
                await self.base_send({"type": "websocket.send", "text": item})
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the client went away; disconnect follows
            return

    async def _heartbeat(self) -> None:
        joined = time.monotonic()
        while True:
            await asyncio.sleep(settings.LIVE_HEARTBEAT_SECONDS)
            self._out({"type": "ping", "at": int(time.time())})
            await self._watch()
            if time.monotonic() - joined > GROUP_REFRESH_SECONDS:
                joined = time.monotonic()
                for sub in list(self.subs.values()):
                    await self.channel_layer.group_add(sub.group, self.channel_name)

    # -- authentication -------------------------------------------------------------------

    def _arm_auth_deadline(self) -> None:
        if not self.user.is_authenticated and not self.subs:
            self._start("auth_deadline", self._auth_deadline())

    async def _auth_deadline(self) -> None:
        await asyncio.sleep(settings.LIVE_AUTH_SECONDS)
        if not self.user.is_authenticated and not self.subs:
            with self._speaking():
                self._close_with(
                    CLOSE_AUTH_TIMEOUT,
                    "auth_timeout",
                    _(
                        "Send your token or subscribe to something public within {seconds} "
                        "seconds of connecting."
                    ).format(seconds=f"{settings.LIVE_AUTH_SECONDS:g}"),
                )

    async def _token_expiry(self, expires_at: float) -> None:
        await asyncio.sleep(max(0.0, expires_at - time.time()))
        with self._speaking():
            self._close_with(
                CLOSE_TOKEN_EXPIRED,
                "token_expired",
                _(
                    "Your token has expired: refresh it, reconnect and subscribe again with the "
                    "versions you have."
                ),
            )

    async def _authenticate(self, raw: Any) -> bool:
        """Sign the socket in; a bad or expired token closes it (4003, 4004). From then on the
        socket speaks the user's saved language, where they saved one."""
        if not isinstance(raw, str) or not raw:
            self._close_with(CLOSE_TOKEN_INVALID, "token_invalid", _("Give the token as a string."))
            return False
        try:
            user, expires_at = await db_call(authenticate, raw)
        except ExpiredTokenError:
            self._close_with(
                CLOSE_TOKEN_EXPIRED,
                "token_expired",
                _("This token has expired: refresh it and connect again."),
            )
            return False
        except (TokenError, AuthenticationFailed):
            self._close_with(
                CLOSE_TOKEN_INVALID,
                "token_invalid",
                _("This token is not valid: sign in again and connect with the new access token."),
            )
            return False
        if self.user.is_authenticated and self.user.pk != user.pk:
            raise BadMessage(
                "other_user", _("This socket is signed in as another user; open a new one.")
            )
        self.user = user
        self.language = supported(getattr(user, "language", None)) or self.language
        self._stop("auth_deadline")
        self._start("token_expiry", self._token_expiry(expires_at))
        self._out({"type": "authenticated", "user_id": user.pk, "expires_at": int(expires_at)})
        return True

    # -- client messages ------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return
        with self._speaking():
            try:
                await self._receive(text_data, bytes_data)
            except BadMessage as e:
                self._error(e.code, e.message, **e.echo)
            except Exception:  # noqa: BLE001 - one failed message never ends the socket
                log.exception("live: a message failed")
                self._error("server_error", _("That failed on our side; try again in a moment."))

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        if text_data is None:
            raise BadMessage("bad_message", _("Send JSON text messages, not binary ones."))
        if len(text_data.encode("utf-8")) > settings.LIVE_MAX_MESSAGE_BYTES:
            self._close_with(
                CLOSE_TOO_BIG,
                "too_large",
                _("Messages are at most {limit} bytes.").format(
                    limit=settings.LIVE_MAX_MESSAGE_BYTES
                ),
            )
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            raise BadMessage("bad_json", _("That message is not JSON.")) from None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise BadMessage(
                "bad_message",
                _('A message is a JSON object with a "type", e.g. {example}.').format(
                    example='{"type": "ping"}'
                ),
            )
        kind = message["type"]
        if kind == "auth":
            await self._authenticate(message.get("token"))
        elif kind == "subscribe":
            await self._subscribe(message)
        elif kind == "unsubscribe":
            await self._unsubscribe(message)
        elif kind == "ping":
            self._out({"type": "pong"})
        else:
            raise BadMessage(
                "unknown_type",
                _("Unknown message type {type}; send auth, subscribe, unsubscribe or ping.").format(
                    type=repr(kind[:40])
                ),
            )

    def _key(self, message: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, int]]:
        """The subscription a (un)subscribe message names, and its ids to echo."""
        name = message.get("topic")
        if name == "hand":
            ids = {"table_id": _id(message, "table_id"), "number": _id(message, "number")}
            return ("hand", ids["table_id"], ids["number"]), ids
        if name == "notifications":
            return ("notifications",), {}
        found = live.topic(name) if isinstance(name, str) else None
        if found is None:
            names = ", ".join(sorted([*TOPICS_BUILT_IN, *live.topics()]))
            raise BadMessage(
                "unknown_topic", _("Unknown topic; choose from {names}.").format(names=names)
            )
        ids = {found.key: _id(message, found.key)}
        return (found.name, ids[found.key]), ids

    async def _subscribe(self, message: dict[str, Any]) -> None:
        key, ids = self._key(message)
        echo = {"topic": key[0], **ids}
        if key not in self.subs and len(self.subs) >= settings.LIVE_MAX_SUBSCRIPTIONS:
            raise BadMessage(
                "too_many_subscriptions",
                _(
                    "A socket holds at most {limit} subscriptions; unsubscribe from one first."
                ).format(limit=settings.LIVE_MAX_SUBSCRIPTIONS),
                **echo,
            )
        if key[0] == "hand":
            await self._subscribe_hand(key, message, echo)
        elif key[0] == "notifications":
            await self._subscribe_notifications(key, echo)
        else:
            await self._subscribe_topic(key, message, echo)
        self._stop("auth_deadline")

    async def _join(self, key: tuple[Any, ...], group_name: str) -> _Sub:
        """Join the group first (so nothing published from now on is missed), then read."""
        old = self.subs.get(key)
        sub = _Sub(group_name)
        self.subs[key] = sub
        if old is None:
            await self.channel_layer.group_add(group_name, self.channel_name)
        return sub

    async def _drop(self, key: tuple[Any, ...]) -> None:
        sub = self.subs.pop(key, None)
        if sub is not None:
            await self.channel_layer.group_discard(sub.group, self.channel_name)
            if key[0] == "hand":
                await self._watch(unwatch={key[1]})
        self._arm_auth_deadline()

    async def _watch(self, unwatch: set[int] | frozenset[int] = frozenset()) -> None:
        """Tell the outbox which tables this socket's user watches at a seat of theirs
        (``clubs.outbox.watching``: no "your turn" push while they do), for the next two
        heartbeats; tables in ``unwatch`` that no other subscription of this socket holds
        are watched no more. Renewed at every heartbeat."""
        if not isinstance(self.user, User):
            return
        watched = {k[1] for k, sub in self.subs.items() if k[0] == "hand" and sub.seat}
        seconds = 2 * settings.LIVE_HEARTBEAT_SECONDS + 5
        user_id = self.user.pk
        try:
            await asyncio.to_thread(_presence, user_id, watched, set(unwatch) - watched, seconds)
        except Exception:  # noqa: BLE001 - a missed mark costs one needless push, no more
            log.warning("live: could not mark who watches", exc_info=True)

    async def _subscribe_hand(
        self, key: tuple[Any, ...], message: dict[str, Any], echo: dict[str, Any]
    ) -> None:
        after = _version(message, "after") or 0
        sub = await self._join(key, live.group("hand", key[1], key[2]))
        sub.version = after
        try:
            body = await self._check_hand(key, sub, after)
        except NotFound:
            await self._drop(key)
            raise BadMessage("not_found", _("There is no such hand for you."), **echo) from None
        except InvalidInput as e:
            await self._drop(key)
            raise BadMessage("invalid", e.message, **echo) from None
        self._out({"type": "subscribed", **echo, "version": body["version"]})
        self._send_events(key, sub, body)
        await self._watch()

    async def _check_hand(self, key: tuple[Any, ...], sub: _Sub, after: int) -> dict[str, Any]:
        """Read as this socket's user, checking their right to read and their seat."""
        body, sub.seat = await db_call(_read_as, self.user, key[1], key[2], after)
        sub.checked_at = time.monotonic()
        return body

    def _send_events(self, key: tuple[Any, ...], sub: _Sub, body: dict[str, Any]) -> None:
        self._out({"type": "events", "topic": "hand", "table_id": key[1], "number": key[2], **body})
        sub.version = body["version"]

    async def _subscribe_notifications(self, key: tuple[Any, ...], echo: dict[str, Any]) -> None:
        if not self.user.is_authenticated:
            raise BadMessage(
                "not_authenticated", _("Sign in (send your token) to hear your notifications.")
            )
        assert isinstance(self.user, User)
        await self._join(key, live.user_group(self.user.pk))
        now = await db_call(live.notifications_now, self.user)
        self._out({"type": "subscribed", **echo})
        self._out({"type": "notifications", **now})

    async def _subscribe_topic(
        self, key: tuple[Any, ...], message: dict[str, Any], echo: dict[str, Any]
    ) -> None:
        found = live.topic(key[0])
        assert found is not None
        known = _version(message, "version")
        sub = await self._join(key, live.group(found.name, key[1]))
        version = await db_call(found.read, self.user, key[1])
        if version is None:
            await self._drop(key)
            raise BadMessage(
                "not_found",
                _("There is no such {topic} for you.").format(topic=found.name),
                **echo,
            )
        sub.version = version
        self._out({"type": "subscribed", **echo, "version": version})
        if known is not None and known != version:
            self._out({"type": "update", **echo, "what": "changed", "version": version})

    async def _unsubscribe(self, message: dict[str, Any]) -> None:
        key, ids = self._key(message)
        echo = {"topic": key[0], **ids}
        if key not in self.subs:
            raise BadMessage("not_subscribed", _("You are not subscribed to that."), **echo)
        await self._drop(key)
        self._out({"type": "unsubscribed", **echo})

    # -- channel-layer messages (published by games.live) ----------------------------------

    async def live_hand(self, message: dict[str, Any]) -> None:
        """A hand reached a version: read what this socket's user may see after the last
        version sent, and send it (each version once, in order)."""
        key = ("hand", message["table_id"], message["number"])
        sub = self.subs.get(key)
        if sub is None or self.closing or message["version"] <= (sub.version or 0):
            return
        echo = {"topic": "hand", "table_id": key[1], "number": key[2]}
        try:
            after = sub.version or 0
            if time.monotonic() - sub.checked_at > RECHECK_SECONDS:
                body = await self._check_hand(key, sub, after)
            else:
                body = await _shared_read((key[1], key[2], sub.seat, after, message["version"]))
        except (NotFound, InvalidInput):
            await self._drop(key)
            with self._speaking():
                self._error("not_found", _("There is no such hand for you."), **echo)
            return
        if body["events"] and self.subs.get(key) is sub:
            self._send_events(key, sub, body)

    async def live_update(self, message: dict[str, Any]) -> None:
        """Something a reload topic shows changed: pass the small message on."""
        key = (message["topic"], message["id"])
        sub = self.subs.get(key)
        if sub is None or (sub.version, sub.what) == (message["version"], message["what"]):
            return
        sub.version, sub.what = message["version"], message["what"]
        self._out(
            {
                "type": "update",
                "topic": message["topic"],
                message["key"]: message["id"],
                "what": message["what"],
                "version": message["version"],
                **message.get("extra", {}),
            }
        )

    async def live_notify(self, message: dict[str, Any]) -> None:
        """One of the user's own notifications."""
        if ("notifications",) in self.subs:
            self._out({"type": "notification", **message["notification"]})
