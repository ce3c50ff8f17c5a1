"""FCM, Firebase Cloud Messaging (Android), through its HTTP v1 API.

What goes over the wire, one HTTP/2 request per message on a connection kept open::

    POST {PUSH_FCM_URL}/v1/projects/{project_id}/messages:send
    Authorization: Bearer <OAuth 2 access token>

    {"message": {"token": <the device's registration token>,
                 "notification": {"title": ..., "body": ...},
                 "data": {"payload": <the payload as JSON text>,
                          "type": <payload["type"]>, "path": <payload["path"]>},
                 "android": {"collapse_key": <collapse_id>,
                             "priority": "HIGH" (urgent) | "NORMAL",
                             "ttl": "<ttl_seconds>s"}}}

FCM's ``data`` holds only strings, so the app parses ``data["payload"]`` for the same payload
an iOS app or a browser reads (``type`` and ``path`` are there as well, for a tap that opens
the deep link without parsing).

The access token comes from the Firebase service account's key file
(``PUSH_FCM_CREDENTIALS_FILE``; its ``project_id`` names the project, its ``token_uri`` the
OAuth server): google-auth signs the grant and fetches the token, which this process uses
until google-auth says it expires (about an hour). A 401 makes it fetch a new one and try
that message once more.

Answers: 200 sent; 404, or an error whose details carry FCM's ``errorCode`` ``UNREGISTERED``,
gone (the app was removed); 400 ``INVALID_ARGUMENT`` about the token gone (FCM says "The
registration token is not a valid FCM registration token", or names ``message.token`` in a
``BadRequest``'s field violations), while any other 400 is our message's fault and failed;
429 and 5xx retry, after ``Retry-After`` when given; anything else failed, with FCM's
error."""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any

import google.auth.exceptions
import google.auth.transport.requests
import httpx
from django.conf import settings
from google.oauth2 import service_account

from clubs.push import Message, Outcome, busy, post

if TYPE_CHECKING:
    from clubs.models import Device

SERVICE = "FCM"
SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
FCM_ERROR = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest"


def configured() -> bool:
    """Whether the settings name a service account's key file."""
    return bool(settings.PUSH_FCM_CREDENTIALS_FILE)


class _TokenRequest(google.auth.transport.requests.Request):
    """google-auth's HTTP transport for the OAuth server, with the push services' timeout
    and certificates (``PUSH_TIMEOUT_SECONDS``, ``PUSH_CA_FILE``)."""

    def __call__(
        self,
        url: str,
        method: str = "GET",
        body: Any = None,
        headers: Any = None,
        timeout: Any = None,
        **kwargs: Any,
    ) -> Any:
        kwargs["verify"] = settings.PUSH_CA_FILE or True
        return super().__call__(
            url, method, body, headers, timeout=settings.PUSH_TIMEOUT_SECONDS, **kwargs
        )


_credentials: tuple[str, service_account.Credentials] | None = None
_credentials_lock = threading.Lock()


def access_token(*, renew: bool = False) -> tuple[str, str]:
    """The project id and this process's access token: the one it has until google-auth
    says it expires, else (or when ``renew``) a new one from the OAuth server."""
    global _credentials
    path = settings.PUSH_FCM_CREDENTIALS_FILE
    with _credentials_lock:
        if _credentials is None or _credentials[0] != path:
            _credentials = (
                path,
                service_account.Credentials.from_service_account_file(path, scopes=[SCOPE]),
            )
        credentials = _credentials[1]
        if renew or not credentials.valid:
            credentials.refresh(_TokenRequest())
        return str(credentials.project_id or ""), str(credentials.token)


def send(device: Device, message: Message) -> Outcome:
    """Send ``message`` to an Android device and say what FCM answered."""
    response = _post(device, message, renew=False)
    if isinstance(response, httpx.Response) and response.status_code == 401:
        response = _post(device, message, renew=True)
    if isinstance(response, Outcome):
        return response
    return _outcome(response)


def _post(device: Device, message: Message, *, renew: bool) -> httpx.Response | Outcome:
    """FCM's answer to one try of ``message``, or the outcome of a try that got none."""
    try:
        project_id, token = access_token(renew=renew)
    except google.auth.exceptions.TransportError as e:
        return Outcome("retry", detail=f"FCM's OAuth server did not answer: {e}")
    except google.auth.exceptions.RefreshError as e:
        detail = f"FCM's OAuth server gave no access token: {e}"
        return Outcome("retry" if e.retryable else "failed", detail=detail)
    except (OSError, ValueError, google.auth.exceptions.GoogleAuthError) as e:
        return Outcome(
            "failed",
            detail=f"the FCM service account file {settings.PUSH_FCM_CREDENTIALS_FILE} cannot "
            f"be used: {type(e).__name__}: {e}",
        )
    if not project_id:
        return Outcome("failed", detail="the FCM service account file names no project_id")
    payload = message.payload
    body = {
        "message": {
            "token": device.token,
            "notification": {"title": message.title, "body": message.body},
            "data": {
                "payload": json.dumps(payload),
                "type": str(payload["type"]),
                "path": str(payload["path"]),
            },
            "android": {
                "collapse_key": message.collapse_id,
                "priority": "HIGH" if message.urgent else "NORMAL",
                "ttl": f"{message.ttl_seconds}s",
            },
        }
    }
    url = f"{settings.PUSH_FCM_URL.rstrip('/')}/v1/projects/{project_id}/messages:send"
    headers = {"authorization": f"Bearer {token}", "content-type": "application/json"}
    return post(SERVICE, url, http2=True, content=json.dumps(body).encode(), headers=headers)


def _answer(response: httpx.Response) -> dict[str, Any]:
    """FCM's answer as JSON: the message's ``name``, or an ``error`` in Google's API error
    shape; {} when it is not a JSON object."""
    try:
        answer = response.json()
    except ValueError:
        return {}
    return answer if isinstance(answer, dict) else {}


def _details(error: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    details = error.get("details")
    if not isinstance(details, list):
        return []
    return [d for d in details if isinstance(d, dict) and d.get("@type") == kind]


def _outcome(response: httpx.Response) -> Outcome:
    status, answer = response.status_code, _answer(response)
    if status == 200:
        return Outcome("sent", detail=f"FCM accepted it as {answer.get('name')}")
    error = answer.get("error")
    if not isinstance(error, dict):
        error = {}
    codes = {d.get("errorCode") for d in _details(error, FCM_ERROR)}
    fields = {
        violation.get("field")
        for d in _details(error, BAD_REQUEST)
        for violation in d.get("fieldViolations") or []
        if isinstance(violation, dict)
    }
    detail = f"FCM answered {status} {' '.join(sorted(map(str, codes)))}: {error.get('message')}"
    if status == 404 or "UNREGISTERED" in codes:
        return Outcome("gone", detail=detail)
    if status == 400 and (
        "message.token" in fields or "registration token" in str(error.get("message")).lower()
    ):
        return Outcome("gone", detail=detail)
    if status == 429 or status >= 500:
        return busy(response, detail)
    return Outcome("failed", detail=detail)
