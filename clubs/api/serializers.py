"""Serializers for registration and the current user."""

from __future__ import annotations

from rest_framework import serializers

from clubs.models import User


class RegisterSerializer(serializers.Serializer):
    """Input for ``POST /api/v1/auth/register/``."""

    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    password = serializers.CharField(write_only=True, style={"input_type": "password"})
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    display_name = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=150
    )


class MeSerializer(serializers.ModelSerializer):
    """The signed-in user's own profile."""

    class Meta:
        model = User
        fields = ("id", "username", "email", "display_name", "is_staff", "date_joined")
        read_only_fields = ("id", "username", "is_staff", "date_joined")


class MeUpdateSerializer(serializers.Serializer):
    """Input for ``PATCH /api/v1/me/``."""

    email = serializers.EmailField(required=False, allow_blank=True)
    display_name = serializers.CharField(required=False, allow_blank=True, max_length=150)
