"""Outbound HTTP to addresses users give us (tournament webhooks): only to the public internet.

A URL a user registers must not make the server call itself, its database, the cloud's
metadata service or anything else on the private network (server-side request forgery). So
every host is resolved and refused when any of its addresses is not a public one
(:func:`is_public`: loopback, private, link-local, shared, reserved, multicast and
unspecified addresses are not), both when the URL is registered (:func:`refuse_private`, a
sentence for the user) and at every connection (:func:`opener`), which connects to exactly the
addresses it checked, so a name that resolves to a public address at registration and to a
private one later (DNS rebinding) is refused too. Redirects are not followed and proxies from
the environment are not used (the proxy's own address would be what is checked).

``WEBHOOK_ALLOW_PRIVATE_ADDRESSES`` turns the check off: tests whose receiver listens on
127.0.0.1, and installations whose receivers live on their own network.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext


class PrivateAddress(OSError):
    """A host that resolves to an address outside the public internet (its text, for the
    log and a delivery's record, is English; :func:`refuse_private` words it for the user)."""

    def __init__(self, host: str, address: str) -> None:
        super().__init__(f"{host} is {address}, which is not a public internet address")
        self.host, self.address = host, address


def is_public(address: str) -> bool:
    """Whether ``address`` (IPv4 or IPv6, as ``getaddrinfo`` gives it) is on the public
    internet."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _resolve(host: str, port: int) -> list[Any]:
    """``getaddrinfo`` for a TCP connection, refused when an address is not public."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    if not settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
        for *_, sockaddr in infos:
            if not is_public(str(sockaddr[0])):
                raise PrivateAddress(host, str(sockaddr[0]))
    return infos


def refuse_private(url: str) -> str | None:
    """Why ``url`` may not be called (a sentence), or None. A host that does not resolve now
    passes: it is checked again at every connection."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        _resolve(host, port)
    except PrivateAddress as e:
        return gettext(
            "Webhooks reach only the public internet: {host} is {address}, which is not a "
            "public internet address."
        ).format(host=e.host, address=e.address)
    except (OSError, ValueError, UnicodeError):
        return None
    return None


def _connect(address: tuple[str, int], timeout: Any = None, source: Any = None) -> socket.socket:
    """``socket.create_connection`` to the checked addresses of ``address``'s host (a
    ``timeout`` that is not a number is the default: none)."""
    host, port = address
    error: OSError | None = None
    for family, kind, proto, _, sockaddr in _resolve(host, port):
        sock = socket.socket(family, kind, proto)
        try:
            if isinstance(timeout, int | float):
                sock.settimeout(timeout)
            if source:
                sock.bind(source)
            sock.connect(sockaddr)
            return sock
        except OSError as e:
            error = e
            sock.close()
    raise error or OSError(f"{host} has no address")


class _HTTPConnection(http.client.HTTPConnection):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._create_connection = _connect


class _HTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._create_connection = _connect


class _HTTPHandler(urllib.request.HTTPHandler):
    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_HTTPConnection, req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_HTTPSConnection, req, context=self._context)  # type: ignore[attr-defined]


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer, not an instruction (it could point anywhere)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def opener() -> urllib.request.OpenerDirector:
    """A urllib opener that connects only to public addresses (unless allowed), follows no
    redirect and uses no proxy."""
    return urllib.request.build_opener(
        urllib.request.ProxyHandler({}), _HTTPHandler, _HTTPSHandler, _NoRedirects
    )
