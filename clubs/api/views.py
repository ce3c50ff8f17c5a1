"""Registration and the current user's profile."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import permissions, status
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.views import TokenObtainPairView, TokenRefreshView

from clubs import services
from clubs.api.serializers import MeSerializer, MeUpdateSerializer, RegisterSerializer
from clubs.models import User
from config.api.throttles import (
    LoginThrottle,
    RegisterThrottle,
    check_lockout,
    client_address,
    record_failure,
    record_success,
)


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
    """The signed-in user's profile."""

    @extend_schema(summary="My profile", responses=MeSerializer)
    def get(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        return Response(MeSerializer(request.user).data)

    @extend_schema(
        summary="Change my profile",
        request=MeUpdateSerializer,
        responses=MeSerializer,
        examples=[
            OpenApiExample(
                "Name and e-mail",
                value={"display_name": "Anna K.", "email": "anna@example.org"},
                request_only=True,
            )
        ],
    )
    def patch(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        serializer = MeUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.user_update(user=request.user, **serializer.validated_data)
        return Response(MeSerializer(user).data)


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
    (``config/api/throttles.py``)."""

    throttle_classes = [LoginThrottle]

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        username = str(request.data.get("username", "")) if isinstance(request.data, dict) else ""
        address = client_address(request)
        check_lockout(username, address)
        try:
            answer = super().post(request, *args, **kwargs)
        except AuthenticationFailed:
            record_failure(username, address)
            raise
        record_success(username, address)
        return answer


@extend_schema_view(
    post=extend_schema(
        summary="Refresh an access token",
        examples=[
            OpenApiExample(
                "Refresh",
                value={"refresh": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.…"},
                request_only=True,
            )
        ],
    )
)
class TokenRefreshAccessView(TokenRefreshView):
    """A refresh token gives a new access token."""
