"""Permission-matrix rows for the API root, the caller's own club views, and signing out and
confirming an e-mail address (each role holds its own tokens and address)."""

from __future__ import annotations

from rest_framework_simplejwt.tokens import RefreshToken

from clubs.services.users import email_verification_token
from tests.clubs.world import Row, statuses

SIGNED_IN = statuses(anonymous=401)

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
]
