"""Permission-matrix rows for the API root, the caller's own club views, and signing out and
confirming an e-mail address (each role holds its own tokens and address)."""

from __future__ import annotations

from rest_framework_simplejwt.tokens import RefreshToken

from clubs.services.devices import device_register
from clubs.services.users import email_verification_token
from tests.clubs.world import ROLES, ClubWorld, Row, statuses

SIGNED_IN = statuses(anonymous=401)


def apns_token(role: str) -> str:
    """A device token of its own for each role (hex digits)."""
    return f"{ROLES.index(role) + 1:064x}"


def members_phone(world: ClubWorld) -> None:
    """The member's phone, registered for push (its id as ``{device}``)."""
    device, _ = device_register(user=world.users["member"], kind="apns", token=apns_token("member"))
    world.extra["device"] = device.pk


ROWS = [
    Row("get", "/api/v1/", statuses()),
    Row("get", "/api/v1/me/evenings/", SIGNED_IN),
    Row("get", "/api/v1/me/tables/", SIGNED_IN),
    # no sign-in needed: the refresh token, or the e-mailed token, is the proof
    Row(
        "post",
        "/api/v1/auth/token/revoke/",
        statuses(rest=204),
        body=lambda w, r: {"refresh": str(RefreshToken.for_user(w.users["member"]))},
    ),
    Row(
        "post",
        "/api/v1/auth/email/verify/",
        statuses(),
        body=lambda w, r: {"token": email_verification_token(w.users["member"])},
    ),
    Row("post", "/api/v1/auth/token/revoke-all/", SIGNED_IN),
    Row("post", "/api/v1/me/email/resend/", statuses(anonymous=401, rest=204)),
    # push targets: each person registers and sees their own; another's is unknown
    Row("get", "/api/v1/me/devices/", SIGNED_IN, setup=members_phone),
    Row(
        "post",
        "/api/v1/me/devices/",
        statuses(anonymous=401, rest=201),
        body=lambda w, r: {"kind": "apns", "token": apns_token(r)},
    ),
    Row(
        "delete",
        "/api/v1/me/devices/{device}/",
        statuses(anonymous=401, member=204, rest=404),
        setup=members_phone,
    ),
    # each person reads their own inbox; the server's Web Push key is public
    Row("get", "/api/v1/me/inbox/", SIGNED_IN),
    Row("get", "/api/v1/push/web-push-key/", statuses()),
]
