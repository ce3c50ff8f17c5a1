"""Registration, sign-in and sign-out, the current user's profile and confirming its e-mail
address (``docs/mobile.md``, ``docs/security.md``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.exceptions import InvalidToken, TokenError
from rest_framework_simplejwt.views import TokenObtainPairView, TokenRefreshView

from clubs import services
from clubs.api.privacy import AccountErasureSerializer, body_on_delete
from clubs.api.serializers import (
    EmailVerifySerializer,
    MeSerializer,
    MeUpdateSerializer,
    RefreshTokenSerializer,
    RegisterSerializer,
    RotatingTokenRefreshSerializer,
    SignedOutEverywhereSerializer,
)
from clubs.models import User
from clubs.services import users
from config.api.schema import ERROR_DESCRIPTIONS, ErrorSerializer
from config.api.throttles import LoginThrottle, RegisterThrottle, check_lockout, client_address

TOKEN = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"


class RegisterView(APIView):
    """Create a player account (then obtain a token at ``auth/token/``)."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [RegisterThrottle]

    @extend_schema(
        summary="Create a player account",
        request=RegisterSerializer,
        responses={201: MeSerializer},
        examples=[
            OpenApiExample(
                "A player",
                value={
                    "username": "anna",
                    "password": "kaffee-und-karten-7",
                    "email": "anna@example.org",
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.user_register(**serializer.validated_data)
        return Response(MeSerializer(user).data, status=status.HTTP_201_CREATED)


class MeView(APIView):
    """The signed-in user's profile, and erasing the account."""

    @extend_schema(summary="My profile", responses=MeSerializer)
    def get(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        return Response(MeSerializer(request.user).data)

    @extend_schema(
        summary="Change my profile",
        description="A new e-mail address starts unconfirmed (`email_verified` false) and is "
        "sent a confirmation e-mail (`POST /api/v1/auth/email/verify/` takes its token); until "
        "then invitations sent to it do not show. Saving an address never tells whether "
        "another account uses it. 429 `throttled` after 3 confirmation e-mails in an hour "
        "(nothing is changed then).\n\n"
        "`notifications` changes how you hear of the types it names (`channel`, a reminder's "
        "`offset_minutes`); 400 `notification_channel` (a channel the type does not go by), "
        "`notification_offset` (no reminder, or outside its `offset_range`) or "
        "`validation_error` (an unknown type), and nothing is changed then.",
        request=MeUpdateSerializer,
        responses=MeSerializer,
        examples=[
            OpenApiExample(
                "Name and e-mail",
                value={"display_name": "Anna K.", "email": "anna@example.org"},
                request_only=True,
            ),
            OpenApiExample(
                "Notifications",
                value={
                    "notifications": [
                        {"type": "round_starts", "channel": "push", "offset_minutes": 30},
                        {"type": "your_turn", "channel": "off"},
                    ]
                },
                request_only=True,
            ),
        ],
    )
    def patch(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        serializer = MeUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.user_update(user=request.user, **serializer.validated_data)
        return Response(MeSerializer(user).data)

    @extend_schema(
        summary="Erase my account",
        description="Erases your account at once (GDPR art. 17): your login, names and "
        'e-mail address are gone, your name becomes a pseudonym ("Player 7f3a2c") wherever '
        "other players' results, money owed and ratings need your rows, and everything that "
        "served only you is deleted (`docs/privacy.md`). Your tokens stop working. This cannot "
        "be undone: export your data first (`GET /api/v1/me/export/`).\n\n"
        'Prove it is you with your password, `{"password": "kaffee-und-karten-7"}` '
        "(a wrong one: 400 `password_wrong`), or send no body within 10 minutes of signing "
        "in with your password (later: 403 `sign_in_again`). The last owner of a club hands "
        "it over first: 409 `last_owner`, and nothing changes.",
        request=AccountErasureSerializer,
        responses={
            204: OpenApiResponse(description="Erased."),
            400: OpenApiResponse(
                ErrorSerializer,
                description="`password_wrong`; `validation_error` for a body that is not an "
                "object or an empty password.",
            ),
            403: OpenApiResponse(
                ErrorSerializer,
                description="`sign_in_again`: no password, and the sign-in is older than 10 "
                "minutes.",
            ),
            409: OpenApiResponse(ErrorSerializer, description="`last_owner`."),
            413: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS["413"]),
            415: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS["415"]),
        },
    )
    @body_on_delete
    def delete(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        serializer = AccountErasureSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        users.user_erase(
            user=request.user,
            password=serializer.validated_data.get("password"),
            signed_in_at=users.sign_in_time(getattr(request.auth, "payload", None)),
            address=client_address(request),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    post=extend_schema(
        summary="Sign in: obtain an access and a refresh token",
        examples=[
            OpenApiExample(
                "Sign in",
                value={"username": "anna", "password": "kaffee-und-karten-7"},
                request_only=True,
            ),
            OpenApiExample(
                "Tokens",
                value={
                    "access": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.<access claims>.<signature>",
                    "refresh": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.<refresh claims>.<signature>",
                },
                response_only=True,
                status_codes=["200"],
            ),
        ],
    )
)
class TokenObtainView(TokenObtainPairView):
    """JWT sign-in: username and password give an access token and a refresh token. Limited
    per address, and an account locks for a while after repeated failures
    (``config/api/throttles.py``); the failures are counted by the authentication backend,
    which every password sign-in passes (``config/api/authentication.py``)."""

    throttle_classes = [LoginThrottle]

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        username = str(request.data.get("username", "")) if isinstance(request.data, dict) else ""
        check_lockout(username, client_address(request))  # a locked account: 429, not 401
        return super().post(request, *args, **kwargs)


@extend_schema_view(
    post=extend_schema(
        summary="Refresh: a new access token and a new refresh token",
        description="The refresh token is used up: keep the new `refresh` of the answer for the "
        "next time. Using a refresh token a second time (or after signing out) answers 401 "
        "`token_not_valid`.",
        request=RotatingTokenRefreshSerializer,
        responses={200: RotatingTokenRefreshSerializer},
        examples=[
            OpenApiExample(
                "Refresh",
                value={"refresh": f"{TOKEN}.<refresh claims>.<signature>"},
                request_only=True,
            ),
            OpenApiExample(
                "New tokens",
                value={
                    "access": f"{TOKEN}.<access claims>.<signature>",
                    "refresh": f"{TOKEN}.<new refresh claims>.<signature>",
                },
                response_only=True,
                status_codes=["200"],
            ),
        ],
    )
)
class TokenRefreshAccessView(TokenRefreshView):
    """A refresh token gives a new access token and a new refresh token; it is blacklisted
    (``clubs.services.users.session_refresh``)."""

    serializer_class = RotatingTokenRefreshSerializer


class TokenRevokeView(APIView):
    """Sign this device out: its refresh token stops working."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []

    def get_authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'  # a bad token is 401, as on the refresh endpoint

    @extend_schema(
        summary="Sign out: revoke a refresh token",
        description="The refresh token cannot be used again; revoking it twice is no error. "
        "The device's access token works until it expires (30 minutes at most): forget both. "
        "No sign-in needed: the refresh token is the proof.",
        request=RefreshTokenSerializer,
        responses={
            204: OpenApiResponse(description="Signed out."),
            401: OpenApiResponse(
                ErrorSerializer,
                description="`token_not_valid`: not a refresh token of this service, or expired.",
            ),
        },
        examples=[
            OpenApiExample(
                "Sign out",
                value={"refresh": f"{TOKEN}.<refresh claims>.<signature>"},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = RefreshTokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            users.session_revoke(refresh=serializer.validated_data["refresh"])
        except TokenError as exc:
            raise InvalidToken(exc.args[0]) from exc
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRevokeAllView(APIView):
    """Sign every device of the account out."""

    @extend_schema(
        summary="Sign out everywhere: revoke all my refresh tokens",
        description="Every refresh token of your account stops working, on every device "
        "(after a lost phone, or a password change). Access tokens already given out work "
        "until they expire (30 minutes at most).",
        request=None,
        responses={200: SignedOutEverywhereSerializer},
        examples=[
            OpenApiExample(
                "Three devices",
                value={"revoked": 3},
                response_only=True,
                status_codes=["200"],
            )
        ],
    )
    def post(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        revoked = users.sessions_revoke_all(user=request.user)
        return Response(SignedOutEverywhereSerializer({"revoked": revoked}).data)


class EmailVerifyView(APIView):
    """Confirm an e-mail address with the token e-mailed to it."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        summary="Confirm my e-mail address",
        description="With the token from the confirmation e-mail. No sign-in needed: the "
        "token names the account and the address. 400 `token_invalid` (damaged, or the "
        "address has changed since) or `token_expired`; 409 `email_taken` when another "
        "account has confirmed the address already.",
        request=EmailVerifySerializer,
        responses={
            200: MeSerializer,
            400: OpenApiResponse(ErrorSerializer, description="`token_invalid`, `token_expired`."),
            409: OpenApiResponse(ErrorSerializer, description="`email_taken`."),
        },
        examples=[
            OpenApiExample(
                "Token from the e-mail",
                value={"token": "eyJ1Ijo3LCJlIjoiYW5uYUBleGFtcGxlLm9yZyIsInQiOjE3NjQ1MDAwMDB9:1"},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = EmailVerifySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = users.user_email_verify(token=serializer.validated_data["token"])
        return Response(MeSerializer(user).data)


class EmailResendView(APIView):
    """Send the confirmation e-mail again."""

    @extend_schema(
        summary="Send my e-mail confirmation again",
        description="To the account's address. 400 `no_email` without one, 409 "
        "`email_verified` when it is confirmed already, 429 `throttled` after 3 confirmation "
        "e-mails in an hour (`Retry-After` says when to try again).",
        request=None,
        responses={
            204: OpenApiResponse(description="Sent."),
            400: OpenApiResponse(ErrorSerializer, description="`no_email`."),
            409: OpenApiResponse(ErrorSerializer, description="`email_verified`."),
        },
    )
    def post(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        users.user_email_verification_send(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
