"""Webhooks reach only the public internet (server-side request forgery, OWASP API7): a URL
whose host is loopback, private, link-local (the cloud metadata service), shared, reserved,
multicast or unspecified is refused when a director registers it, and again at every delivery,
so a name that pointed elsewhere at registration cannot reach the server's network later."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import User
from config import outbound
from tests.tournaments.test_webhooks import (
    Receiver,
    boss,
    director,
    hooks_url,
    one_delivery,
    receiver,
    tournament,
)
from tournaments import webhooks
from tournaments.models import Delivery, Tournament, Webhook

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

__all__ = ["boss", "director", "receiver", "tournament"]  # fixtures, shared with test_webhooks

PRIVATE = [
    "http://127.0.0.1:8000/hook",
    "http://localhost/hook",
    "http://10.1.2.3/hook",
    "http://172.16.0.1/hook",
    "http://192.168.1.20:8080/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/hook",
    "http://0.0.0.0/hook",
    "http://224.0.0.1/hook",
    "http://[::1]/hook",
    "http://[fd00::1]/hook",
    "http://[fe80::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
]


@pytest.mark.parametrize("url", PRIVATE)
def test_a_url_off_the_public_internet_is_refused_with_a_sentence(
    tournament: Tournament, boss: APIClient, url: str
) -> None:
    answer = boss.post(hooks_url(tournament), {"url": url, "events": ["round_seated"]})
    assert answer.status_code == 400, answer.content
    error = answer.json()
    assert error["code"] == "private_address"
    assert error["message"].startswith("Webhooks reach only the public internet: ")
    assert "not a public internet address" in error["message"]
    assert error["fields"]["url"] == [error["message"]]
    assert not Webhook.objects.exists()


def test_changing_a_webhooks_url_to_a_private_one_is_refused(
    tournament: Tournament, boss: APIClient, director: User
) -> None:
    webhook = webhooks.webhook_create(
        user=director, tournament=tournament, url="https://x.invalid/h", events=["round_seated"]
    )
    answer = boss.patch(
        hooks_url(tournament, f"{webhook.pk}/"), {"url": "http://10.0.0.1/h"}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "private_address"
    webhook.refresh_from_db()
    assert webhook.url == "https://x.invalid/h"


def test_a_host_that_does_not_resolve_now_is_accepted_and_checked_when_sent(
    tournament: Tournament, boss: APIClient
) -> None:
    body = {"url": "https://receiver.invalid/h", "events": ["round_seated"]}
    assert boss.post(hooks_url(tournament), body, format="json").status_code == 201


def test_a_delivery_to_an_address_that_became_private_is_refused_and_never_sent(
    receiver: Receiver, tournament: Tournament, director: User, settings: Any
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True  # as if the name had been public then
    webhook = webhooks.webhook_create(
        user=director, tournament=tournament, url=receiver.url(), events=["round_seated"]
    )
    receiver.expect(webhook)
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    delivery = one_delivery(webhook)
    assert webhooks.deliver(delivery_id=str(delivery.pk)) is False
    attempt = delivery.tries.get()
    assert attempt.status_code is None
    assert "127.0.0.1, which is not a public internet address" in attempt.error
    assert receiver.requests == []
    # and with the address allowed, the same delivery goes through: the refusal was the check
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    assert webhooks.deliver(delivery_id=str(delivery.pk)) is True
    assert len(receiver.requests) == 1
    assert Delivery.objects.get(pk=delivery.pk).status == Delivery.Status.DELIVERED


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("93.184.215.14", True),
        ("2606:4700:4700::1111", True),
        ("8.8.8.8", True),
        ("127.0.0.2", False),
        ("10.255.0.1", False),
        ("169.254.0.1", False),
        ("::", False),
        ("::ffff:10.0.0.1", False),
        ("fe80::1%eth0", False),
        ("239.1.1.1", False),
    ],
)
def test_which_addresses_are_public(address: str, public: bool) -> None:
    assert outbound.is_public(address) is public


def test_a_redirect_is_a_failed_try_and_is_not_followed(
    receiver: Receiver, tournament: Tournament, director: User, settings: Any
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True  # both servers listen on 127.0.0.1

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            self.send_response(307)
            self.send_header("Location", receiver.url("elsewhere"))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/hook"
        webhook = webhooks.webhook_create(
            user=director, tournament=tournament, url=url, events=["round_seated"]
        )
        delivery = one_delivery(webhook)
        assert webhooks.deliver(delivery_id=str(delivery.pk)) is False
        assert delivery.tries.get().status_code == 307
        assert receiver.requests == []
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
