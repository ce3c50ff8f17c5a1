"""The fake push services (tests/push_fakes.py) check a request as the real services do.

The client's tests (clubs/push/) lean on the fakes to say that a request would pass at
Apple, Google or a browser's push service; these tests prove that the fakes take a request
made right and refuse, with the real service's answer, one made wrong. The requests are made
with the libraries alone (httpx, PyJWT, google-auth, pywebpush and py_vapid), not the
project's client, so a shared mistake cannot hide here.
"""

from __future__ import annotations

import json
import os
import ssl
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import google.auth.transport.requests
import httpx
import jwt
import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from django.conf import settings
from google.oauth2 import service_account
from py_vapid import Vapid  # type: ignore[import-untyped]
from pywebpush import WebPusher, webpush  # type: ignore[import-untyped]

from tests.push_fakes import (
    FCM_ERROR_TYPE,
    JWT_BEARER_GRANT,
    PushServices,
    b64url,
    pem,
    uncompressed_point,
    wait_until,
)

DEVICE_TOKEN = "a1" * 32
FCM_TOKEN = "dGVzdA:APA91b-fake_registration.token"
FIREBASE_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"


@pytest.fixture
def client(push: PushServices) -> Iterator[httpx.Client]:
    """An HTTP/2-capable client that trusts the fakes' CA."""
    context = ssl.create_default_context(cafile=push.ca_file)
    with httpx.Client(http2=True, verify=context, timeout=10) as client:
        yield client


# --- APNs ---------------------------------------------------------------------------------


def provider_token(push: PushServices, **changes: Any) -> str:
    """An APNs provider token as Apple documents it; ``changes`` alter its claims, its
    ``kid`` (``kid=``) or its key (``key=``)."""
    key = changes.pop("key", Path(push.apns.key_file).read_bytes())
    kid = changes.pop("kid", push.apns.key_id)
    claims = {"iss": push.apns.team_id, "iat": int(time.time()), **changes}
    return jwt.encode(claims, key, algorithm="ES256", headers={"kid": kid})


def apns_post(
    client: httpx.Client,
    push: PushServices,
    *,
    token: str = DEVICE_TOKEN,
    body: bytes = b'{"aps": {"alert": {"title": "Your turn"}}}',
    **headers: str,
) -> httpx.Response:
    sent = {
        "authorization": f"bearer {provider_token(push)}",
        "apns-topic": push.apns.topic,
        "apns-push-type": "alert",
        "apns-priority": "10",
        **{name.replace("_", "-"): value for name, value in headers.items()},
    }
    sent = {name: value for name, value in sent.items() if value}
    return client.post(f"{push.apns.url}/3/device/{token}", content=body, headers=sent)


def test_apns_takes_a_request_signed_with_the_provider_key(
    push: PushServices, client: httpx.Client
) -> None:
    token = provider_token(push)
    response = apns_post(client, push, authorization=f"bearer {token}", apns_collapse_id="t1")

    assert response.http_version == "HTTP/2"
    assert response.status_code == 200
    assert response.headers["apns-id"]
    assert push.apns.refused == []
    [received] = push.apns.received
    assert received.target == DEVICE_TOKEN
    assert received.payload == {"aps": {"alert": {"title": "Your turn"}}}
    assert received.headers["apns-collapse-id"] == "t1"
    assert push.apns.tokens_seen == {token}


def wrong_apns_request(push: PushServices, change: str) -> dict[str, Any]:
    """The arguments of :func:`apns_post` for a request wrong in the way ``change`` says."""

    def signed(**changes: Any) -> str:
        return f"bearer {provider_token(push, **changes)}"

    cases: dict[str, Callable[[], dict[str, Any]]] = {
        "no provider token": lambda: {"authorization": ""},
        "signed by another key": lambda: {
            "authorization": signed(key=pem(ec.generate_private_key(ec.SECP256R1())))
        },
        "another key id": lambda: {"authorization": signed(kid="OTHERKEY01")},
        "another team": lambda: {"authorization": signed(iss="OTHERTEAM1")},
        "issued two hours ago": lambda: {"authorization": signed(iat=int(time.time()) - 7200)},
        "no topic": lambda: {"apns_topic": ""},
        "another app's topic": lambda: {"apns_topic": "org.example.other"},
        "not a device token": lambda: {"token": "not-a-device-token"},
        "a bad priority": lambda: {"apns_priority": "7"},
        "a bad push type": lambda: {"apns_push_type": "shout"},
        "no payload": lambda: {"body": b""},
        "over 4 KB": lambda: {"body": b"{" + b" " * 4096 + b"}"},
    }
    return cases[change]()


@pytest.mark.parametrize(
    ("change", "status", "reason"),
    [
        ("no provider token", 403, "MissingProviderToken"),
        ("signed by another key", 403, "InvalidProviderToken"),
        ("another key id", 403, "InvalidProviderToken"),
        ("another team", 403, "InvalidProviderToken"),
        ("issued two hours ago", 403, "ExpiredProviderToken"),
        ("no topic", 400, "MissingTopic"),
        ("another app's topic", 400, "TopicDisallowed"),
        ("not a device token", 400, "BadDeviceToken"),
        ("a bad priority", 400, "BadPriority"),
        ("a bad push type", 400, "InvalidPushType"),
        ("no payload", 400, "PayloadEmpty"),
        ("over 4 KB", 413, "PayloadTooLarge"),
    ],
)
def test_apns_refuses_a_request_as_apple_does(
    push: PushServices, client: httpx.Client, change: str, status: int, reason: str
) -> None:
    response = apns_post(client, push, **wrong_apns_request(push, change))

    assert (response.status_code, response.json()["reason"]) == (status, reason)
    assert push.apns.received == []
    [(_, why)] = push.apns.refused
    assert why.startswith(reason)


def test_apns_refuses_a_client_without_http2(push: PushServices) -> None:
    context = ssl.create_default_context(cafile=push.ca_file)
    with httpx.Client(http2=False, verify=context) as client, pytest.raises(httpx.HTTPError):
        apns_post(client, push)

    assert push.apns.refused == [("", "the client did not negotiate HTTP/2 (ALPN h2)")]


def test_apns_gives_scripted_answers_then_takes_the_message(
    push: PushServices, client: httpx.Client
) -> None:
    push.apns.answer(DEVICE_TOKEN, 429, retry_after=7, times=2)
    push.apns.answer(DEVICE_TOKEN, 503)

    answers = [apns_post(client, push) for _ in range(4)]

    assert [(answer.status_code, answer.json()["reason"]) for answer in answers[:3]] == [
        (429, "TooManyRequests"),
        (429, "TooManyRequests"),
        (503, "ServiceUnavailable"),
    ]
    assert [answer.headers.get("retry-after") for answer in answers[:3]] == ["7", "7", None]
    assert answers[3].status_code == 200
    assert len(push.apns.received) == 1
    assert push.apns.answered == [(DEVICE_TOKEN, 429), (DEVICE_TOKEN, 429), (DEVICE_TOKEN, 503)]


def test_apns_answers_an_unregistered_device_with_its_timestamp(
    push: PushServices, client: httpx.Client
) -> None:
    push.apns.answer(DEVICE_TOKEN, 410)

    response = apns_post(client, push)

    assert response.status_code == 410
    assert response.json()["reason"] == "Unregistered"
    assert isinstance(response.json()["timestamp"], int)


# --- FCM ----------------------------------------------------------------------------------


def service_account_info(push: PushServices) -> dict[str, Any]:
    info: dict[str, Any] = json.loads(Path(push.fcm.credentials_file).read_text())
    return info


def assertion(push: PushServices, **changes: Any) -> str:
    """A JWT-bearer assertion as Google documents it; ``changes`` alter its claims or its key
    (``key=``)."""
    info = service_account_info(push)
    key = changes.pop("key", info["private_key"])
    now = int(time.time())
    claims = {
        "iss": info["client_email"],
        "scope": FIREBASE_SCOPE,
        "aud": info["token_uri"],
        "iat": now,
        "exp": now + 3600,
        **changes,
    }
    claims = {name: value for name, value in claims.items() if value is not None}
    return jwt.encode(claims, key, algorithm="RS256", headers={"kid": info["private_key_id"]})


def access_token(push: PushServices, client: httpx.Client, **changes: Any) -> httpx.Response:
    return client.post(
        service_account_info(push)["token_uri"],
        data={"grant_type": JWT_BEARER_GRANT, "assertion": assertion(push, **changes)},
    )


def fcm_send(
    push: PushServices, client: httpx.Client, token: str, body: dict[str, Any], project: str = ""
) -> httpx.Response:
    project = project or service_account_info(push)["project_id"]
    return client.post(
        f"{push.fcm.url}/v1/projects/{project}/messages:send",
        json=body,
        headers={"authorization": f"Bearer {token}"},
    )


MESSAGE = {
    "message": {
        "token": FCM_TOKEN,
        "data": {"kind": "your_turn", "table": "12"},
        "android": {"priority": "high", "ttl": "300s", "collapse_key": "table-12"},
    }
}


def test_fcm_issues_a_token_for_the_service_account_and_takes_a_message(
    push: PushServices, client: httpx.Client
) -> None:
    granted = access_token(push, client)
    assert granted.status_code == 200
    assert granted.json()["token_type"] == "Bearer"
    assert granted.json()["expires_in"] == 3600

    response = fcm_send(push, client, granted.json()["access_token"], MESSAGE)

    assert response.status_code == 200
    project = service_account_info(push)["project_id"]
    assert response.json()["name"].startswith(f"projects/{project}/messages/")
    assert push.fcm.refused == []
    [received] = push.fcm.received
    assert received.target == FCM_TOKEN
    assert received.payload == MESSAGE


def test_google_auth_gets_an_access_token_from_the_fake(push: PushServices) -> None:
    """The service-account file is one google-auth reads, and its token request one the
    fake grants."""
    credentials = service_account.Credentials.from_service_account_file(
        push.fcm.credentials_file, scopes=[FIREBASE_SCOPE]
    )
    with requests.Session() as session:
        session.trust_env = False  # else REQUESTS_CA_BUNDLE, when set, wins over verify
        session.verify = push.ca_file
        credentials.refresh(google.auth.transport.requests.Request(session))

    assert credentials.token in push.fcm.access_tokens
    assert push.fcm.refused == []


def wrong_assertion(change: str) -> dict[str, Any]:
    """The claims (or ``key``) of an assertion that is wrong in the way ``change`` says."""
    now = int(time.time())
    cases: dict[str, dict[str, Any]] = {
        "signed by another key": {"key": pem(rsa.generate_private_key(65537, 2048))},
        "for another token URI": {"aud": "https://oauth2.example.com/token"},
        "from another account": {"iss": "someone@else.iam.gserviceaccount.com"},
        "for two hours": {"iat": now, "exp": now + 7200},
        "without a scope": {"scope": None},
    }
    return cases[change]


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ("signed by another key", "invalid_grant"),
        ("for another token URI", "invalid_grant"),
        ("from another account", "invalid_grant"),
        ("for two hours", "invalid_grant"),
        ("without a scope", "invalid_scope"),
    ],
)
def test_fcm_token_endpoint_refuses_a_wrong_assertion(
    push: PushServices, client: httpx.Client, change: str, error: str
) -> None:
    issued = len(push.fcm.access_tokens)

    response = access_token(push, client, **wrong_assertion(change))

    assert response.status_code == 400
    assert response.json()["error"] == error
    assert len(push.fcm.access_tokens) == issued
    [(target, _)] = push.fcm.refused
    assert target == "/token"


def test_fcm_refuses_tokens_it_did_not_issue_and_expired_ones(
    push: PushServices, client: httpx.Client
) -> None:
    token = access_token(push, client).json()["access_token"]

    unknown = fcm_send(push, client, "ya29.made-up", MESSAGE)
    push.fcm.expire_tokens()
    expired = fcm_send(push, client, token, MESSAGE)
    renewed = fcm_send(push, client, access_token(push, client).json()["access_token"], MESSAGE)

    for response in (unknown, expired):
        assert response.status_code == 401
        assert response.json()["error"]["status"] == "UNAUTHENTICATED"
    assert renewed.status_code == 200
    assert [why.split(":")[0] for _, why in push.fcm.refused] == ["UNAUTHENTICATED"] * 2
    push.reset()
    assert fcm_send(push, client, token, MESSAGE).status_code == 200


def test_fcm_refuses_a_token_without_the_messaging_scope(
    push: PushServices, client: httpx.Client
) -> None:
    token = access_token(push, client, scope="openid email").json()["access_token"]

    response = fcm_send(push, client, token, MESSAGE)

    assert response.status_code == 403
    assert response.json()["error"]["status"] == "PERMISSION_DENIED"


@pytest.mark.parametrize(
    ("body", "project", "status"),
    [
        (MESSAGE, "another-project", 403),
        ({"message": {**MESSAGE["message"], "data": {"table": 12}}}, "", 400),
        ({"message": {**MESSAGE["message"], "priority": "high"}}, "", 400),
        ({"message": {**MESSAGE["message"], "android": {"ttl": "5 minutes"}}}, "", 400),
        ({"message": {"data": {"kind": "your_turn"}}}, "", 400),
        ({"message": MESSAGE["message"], "dry_run": True}, "", 400),
    ],
    ids=[
        "another project",
        "a number in data",
        "an unknown field",
        "a ttl that is no duration",
        "no recipient",
        "an unknown top-level field",
    ],
)
def test_fcm_refuses_a_message_fcm_refuses(
    push: PushServices, client: httpx.Client, body: dict[str, Any], project: str, status: int
) -> None:
    token = access_token(push, client).json()["access_token"]

    response = fcm_send(push, client, token, body, project)

    assert response.status_code == status
    assert response.json()["error"]["status"] in ("INVALID_ARGUMENT", "PERMISSION_DENIED")
    assert push.fcm.received == []
    assert len(push.fcm.refused) == 1


def test_fcm_gives_scripted_answers_as_fcm_words_them(
    push: PushServices, client: httpx.Client
) -> None:
    token = access_token(push, client).json()["access_token"]
    push.fcm.answer(FCM_TOKEN, 429, retry_after=30)
    push.fcm.answer(FCM_TOKEN, 404, reason="UNREGISTERED")

    throttled = fcm_send(push, client, token, MESSAGE)
    gone = fcm_send(push, client, token, MESSAGE)

    assert throttled.status_code == 429
    assert throttled.headers["retry-after"] == "30"
    assert throttled.json()["error"]["status"] == "RESOURCE_EXHAUSTED"
    assert gone.status_code == 404
    assert gone.json()["error"]["status"] == "NOT_FOUND"
    assert gone.json()["error"]["details"] == [
        {"@type": FCM_ERROR_TYPE, "errorCode": "UNREGISTERED"}
    ]
    assert push.fcm.received == []
    assert push.fcm.answered == [(FCM_TOKEN, 429), (FCM_TOKEN, 404)]


# --- Web Push -----------------------------------------------------------------------------


def subscription_info(push: PushServices, application_server_key: str = "") -> dict[str, Any]:
    endpoint, p256dh, auth = push.webpush.subscribe(application_server_key or push.vapid_public_key)
    return {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}


def vapid_authorization(push: PushServices, **changes: Any) -> dict[str, str]:
    """VAPID's ``Authorization`` header as py_vapid signs it with the server's key."""
    claims = {
        "aud": push.webpush.base_url,
        "exp": int(time.time()) + 12 * 3600,
        "sub": "mailto:push-tests@example.org",
        **changes,
    }
    headers: dict[str, str] = Vapid.from_file(push.vapid_key_file).sign(claims)
    return headers


def webpush_post(
    push: PushServices,
    client: httpx.Client,
    subscription: dict[str, Any],
    *,
    encrypt_to: dict[str, Any] | None = None,
    authorization: dict[str, str] | None = None,
    **headers: str,
) -> httpx.Response:
    """A push message encrypted (to ``encrypt_to``'s keys, else the subscription's) and signed
    as pywebpush does it."""
    body = WebPusher(encrypt_to or subscription).encode(b'{"kind": "your_turn"}')["body"]
    sent = {
        "content-encoding": "aes128gcm",
        "ttl": "60",
        **(vapid_authorization(push) if authorization is None else authorization),
        **{name.replace("_", "-"): value for name, value in headers.items()},
    }
    sent = {name: value for name, value in sent.items() if value}
    return client.post(subscription["endpoint"], content=body, headers=sent)


def test_webpush_takes_a_message_pywebpush_sends(push: PushServices) -> None:
    subscription = subscription_info(push)
    with requests.Session() as session:
        session.trust_env = False  # else REQUESTS_CA_BUNDLE, when set, wins over verify
        session.verify = push.ca_file
        response = webpush(
            subscription,
            json.dumps({"kind": "your_turn", "table": 12}),
            vapid_private_key=push.vapid_key_file,
            vapid_claims={"sub": "mailto:push-tests@example.org"},
            ttl=300,
            headers={"Urgency": "high", "Topic": "table-12"},
            requests_session=session,
        )

    assert response.status_code == 201
    assert response.headers["location"].startswith(f"{push.webpush.base_url}/message/")
    assert push.webpush.refused == []
    [received] = push.webpush.received
    assert received.target == subscription["endpoint"]
    assert received.payload == {"kind": "your_turn", "table": 12}
    assert (received.headers["urgency"], received.headers["topic"]) == ("high", "table-12")
    assert received.headers["ttl"] == "300"


def test_webpush_refuses_a_body_encrypted_to_another_subscription(
    push: PushServices, client: httpx.Client
) -> None:
    subscription = subscription_info(push)

    response = webpush_post(push, client, subscription, encrypt_to=subscription_info(push))

    assert response.status_code == 400
    assert push.webpush.received == []
    [(target, why)] = push.webpush.refused
    assert target == subscription["endpoint"]
    assert "decrypt" in why


def other_vapid_key(directory: Path) -> tuple[str, str]:
    """Another application server's VAPID key: its PEM file and its public key."""
    key = ec.generate_private_key(ec.SECP256R1())
    path = directory / "other-vapid.pem"
    path.write_bytes(pem(key))
    return str(path), b64url(uncompressed_point(key.public_key()))


def wrong_webpush_request(push: PushServices, directory: Path, change: str) -> dict[str, Any]:
    """The arguments of :func:`webpush_post` for a request wrong in the way ``change`` says
    (``subscription``: the subscription to send to)."""
    now = int(time.time())
    cases: dict[str, Callable[[], dict[str, Any]]] = {
        "no authorization": lambda: {"authorization": {}},
        "a subscription for another key": lambda: {
            "subscription": subscription_info(push, other_vapid_key(directory)[1])
        },
        "signed by another key": lambda: {
            "authorization": {
                "Authorization": vapid_header(push, key_file=other_vapid_key(directory)[0])
            }
        },
        "another audience": lambda: {
            "authorization": vapid_authorization(push, aud="https://x.test")
        },
        "expired": lambda: {"authorization": {"Authorization": vapid_header(push, exp=now - 60)}},
        "over 24 hours": lambda: {
            "authorization": {"Authorization": vapid_header(push, exp=now + 25 * 3600)}
        },
        "a sub that is no contact": lambda: {
            "authorization": {"Authorization": vapid_header(push, sub="me")}
        },
        "no TTL": lambda: {"ttl": ""},
        "another encoding": lambda: {"content_encoding": "aesgcm"},
        "a bad urgency": lambda: {"urgency": "urgent"},
        "a bad topic": lambda: {"topic": "table 12"},
    }
    return cases[change]()


@pytest.mark.parametrize(
    ("change", "status"),
    [
        ("no authorization", 401),
        ("a subscription for another key", 403),
        ("signed by another key", 403),
        ("another audience", 403),
        ("expired", 403),
        ("over 24 hours", 403),
        ("a sub that is no contact", 403),
        ("no TTL", 400),
        ("another encoding", 400),
        ("a bad urgency", 400),
        ("a bad topic", 400),
    ],
)
def test_webpush_refuses_a_request_as_a_push_service_does(
    push: PushServices, client: httpx.Client, tmp_path: Path, change: str, status: int
) -> None:
    arguments = wrong_webpush_request(push, tmp_path, change)
    subscription = arguments.pop("subscription", None) or subscription_info(push)

    response = webpush_post(push, client, subscription, **arguments)

    assert response.status_code == status
    assert push.webpush.received == []
    assert [target for target, _ in push.webpush.refused] == [subscription["endpoint"]]


def vapid_header(push: PushServices, key_file: str = "", **changes: Any) -> str:
    """A VAPID ``Authorization`` value signed with PyJWT (by ``key_file``'s key, else the
    server's), naming the server's key as ``k``: for claims py_vapid will not sign."""
    claims = {
        "aud": push.webpush.base_url,
        "exp": int(time.time()) + 3600,
        "sub": "mailto:push-tests@example.org",
        **changes,
    }
    key = Path(key_file or push.vapid_key_file).read_bytes()
    token = jwt.encode(claims, key, algorithm="ES256")
    return f"vapid t={token}, k={push.vapid_public_key}"


def test_webpush_refuses_an_endpoint_it_never_gave(
    push: PushServices, client: httpx.Client
) -> None:
    subscription = subscription_info(push)
    subscription["endpoint"] = f"{push.webpush.base_url}/push/unknown"

    assert webpush_post(push, client, subscription).status_code == 404


def test_webpush_gives_scripted_answers(push: PushServices, client: httpx.Client) -> None:
    subscription = subscription_info(push)
    endpoint = subscription["endpoint"]
    push.webpush.answer(endpoint, 429, retry_after=12)
    push.webpush.answer(endpoint, 410)

    answers = [webpush_post(push, client, subscription) for _ in range(3)]

    assert [answer.status_code for answer in answers] == [429, 410, 201]
    assert answers[0].headers["retry-after"] == "12"
    assert len(push.webpush.received) == 1


# --- The fixtures -------------------------------------------------------------------------


def test_settings_and_environment_point_at_the_fakes(push: PushServices) -> None:
    assert push.apns.url == settings.PUSH_APNS_URL
    assert push.fcm.credentials_file == settings.PUSH_FCM_CREDENTIALS_FILE
    assert push.ca_file == settings.PUSH_CA_FILE
    assert "127.0.0.1" in settings.PUSH_WEBPUSH_HOSTS
    assert "fcm.googleapis.com" in settings.PUSH_WEBPUSH_HOSTS
    assert os.environ["PUSH_WEBPUSH_HOSTS"] == ",".join(settings.PUSH_WEBPUSH_HOSTS)
    assert os.environ["PUSH_APNS_KEY_FILE"] == push.apns.key_file
    vapid_key = Vapid.from_file(push.vapid_key_file).public_key
    assert b64url(uncompressed_point(vapid_key)) == push.vapid_public_key


def test_wait_until_returns_once_true_and_fails_naming_what_it_waited_for() -> None:
    wait_until(lambda: True, "nothing")
    with pytest.raises(pytest.fail.Exception, match="the moon"):
        wait_until(lambda: False, "the moon", timeout=0)
