"""Serializers for registration and the current user."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.models import User


@extend_schema_field(
    {
        "anyOf": [
            {"type": "string", "format": "email", "maxLength": 254},
            {"type": "string", "maxLength": 0},
        ],
        "description": "An e-mail address, or empty for none.",
    }
)
class OptionalEmailField(serializers.EmailField):
    """An e-mail address or ``""`` (none given). A plain ``EmailField`` is documented as
    ``format: email``, which ``""`` does not match, so clients rejected the empty answers."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_blank", True)
        kwargs.setdefault("max_length", 254)
        super().__init__(**kwargs)


class RegisterSerializer(serializers.Serializer):
    """Input for ``POST /api/v1/auth/register/``."""

    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    password = serializers.CharField(write_only=True, style={"input_type": "password"})
    email = OptionalEmailField(required=False, default="")
    display_name = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=150
    )


class MeSerializer(serializers.ModelSerializer):
    """The signed-in user's own profile."""

    email = OptionalEmailField(required=False)

    class Meta:
        model = User
        fields = ("id", "username", "email", "display_name", "is_staff", "date_joined")
        read_only_fields = ("id", "username", "is_staff", "date_joined")


class MeUpdateSerializer(serializers.Serializer):
    """Input for ``PATCH /api/v1/me/``."""

    email = OptionalEmailField(required=False)
    display_name = serializers.CharField(required=False, allow_blank=True, max_length=150)
