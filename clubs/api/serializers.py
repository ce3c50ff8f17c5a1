"""Serializers for registration and the current user."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers
from rest_framework_simplejwt.serializers import TokenRefreshSerializer

from clubs import notifications
from clubs.models import User
from clubs.services import users
from config.api.fields import LanguageField


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


PUBLIC_NAME = (
    "Whether public lists (a club's public standings and score sheets, calendar attendees, "
    "tournaments' public pages) show your name: true yes, false no (a pseudonym such as "
    '"Player 7f3a2c" stands in), null as each club\'s name policy says (`consent`, the '
    "default: no; `publish`: yes unless you object). Members of your clubs always see it."
)


class RegisterSerializer(serializers.Serializer):
    """Input for ``POST /api/v1/auth/register/``."""

    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    password = serializers.CharField(write_only=True, style={"input_type": "password"})
    email = OptionalEmailField(required=False, default="")
    display_name = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=150
    )


class NotificationSettingSerializer(serializers.Serializer):
    """One notification type and how the person wants to hear of it."""

    type = serializers.ChoiceField(
        choices=notifications.TYPE_NAMES, help_text="The notification type."
    )
    channel = serializers.ChoiceField(
        choices=notifications.CHANNELS,
        help_text="How you hear of it: `push` (your registered devices, `/api/v1/me/devices/`), "
        "`email` or `off`; `channels` lists the ones this type allows.",
    )
    offset_minutes = serializers.IntegerField(
        allow_null=True,
        help_text="A reminder's minutes before the moment (within `offset_range`); null for "
        "a type that is no reminder.",
    )
    channels = serializers.ListField(
        child=serializers.ChoiceField(choices=notifications.CHANNELS),
        help_text="The channels this type may go by.",
    )
    offset_range = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        min_length=2,
        max_length=2,
        help_text="A reminder's smallest and largest offset in minutes; null for others.",
    )
    title = serializers.CharField(help_text="What a settings screen shows, in your language.")
    description = serializers.CharField(help_text="What it tells you of, in your language.")


class NotificationChangeSerializer(serializers.Serializer):
    """A change to how you hear of one notification type; what is not given stays."""

    type = serializers.ChoiceField(choices=notifications.TYPE_NAMES)
    channel = serializers.ChoiceField(choices=notifications.CHANNELS, required=False)
    offset_minutes = serializers.IntegerField(required=False, min_value=0, max_value=10080)


def notification_settings(user: User) -> list[dict[str, Any]]:
    """The person's choice for every notification type, as :class:`NotificationSettingSerializer`
    shows it."""
    out = []
    for row in notifications.settings_of(user):
        t = notifications.BY_NAME[row["type"]]
        out.append(
            {
                **row,
                "channels": list(t.channels),
                "offset_range": list(t.offsets) if t.offsets else None,
                "title": str(t.title),
                "description": str(t.description),
            }
        )
    return out


class MeSerializer(serializers.ModelSerializer):
    """The signed-in user's own profile."""

    email = OptionalEmailField(required=False)
    language = LanguageField(read_only=True)
    email_verified = serializers.SerializerMethodField(
        help_text="Whether the owner has confirmed `email` with the link e-mailed to it; only "
        "a confirmed address shows and accepts the invitations sent to it."
    )
    public_name = serializers.BooleanField(allow_null=True, read_only=True, help_text=PUBLIC_NAME)
    notifications = serializers.SerializerMethodField(
        help_text="How you hear of each notification type (`docs/notifications.md`)."
    )

    class Meta:
        model = User
        fields = (
            "id",
            "username",
            "email",
            "email_verified",
            "display_name",
            "language",
            "public_name",
            "notifications",
            "is_staff",
            "date_joined",
        )
        read_only_fields = ("id", "username", "is_staff", "date_joined")

    def get_email_verified(self, user: User) -> bool:
        return bool(user.email) and user.email_verified_at is not None

    @extend_schema_field(NotificationSettingSerializer(many=True))
    def get_notifications(self, user: User) -> list[dict[str, Any]]:
        return notification_settings(user)


class MeUpdateSerializer(serializers.Serializer):
    """Input for ``PATCH /api/v1/me/``."""

    email = OptionalEmailField(required=False)
    display_name = serializers.CharField(required=False, allow_blank=True, max_length=150)
    language = LanguageField(required=False)
    public_name = serializers.BooleanField(required=False, allow_null=True, help_text=PUBLIC_NAME)
    notifications = NotificationChangeSerializer(
        many=True,
        required=False,
        help_text="Changes to how you hear of notification types; the types not named stay. "
        "A choice back at the type's default is the default again.",
    )


class EmailVerifySerializer(serializers.Serializer):
    """Input for ``POST /api/v1/auth/email/verify/``."""

    token = serializers.CharField(max_length=500, help_text="From the confirmation e-mail.")


class RefreshTokenSerializer(serializers.Serializer):
    """Input for ``POST /api/v1/auth/token/revoke/``."""

    refresh = serializers.CharField(max_length=2000)


@extend_schema_serializer(component_name="TokenRefresh")
class RotatingTokenRefreshSerializer(TokenRefreshSerializer):
    """A refresh token in; a new access token and a new refresh token out (the one sent is
    used up)."""

    refresh = serializers.CharField(
        help_text="In: the refresh token you hold. Out: the new one to keep; the one you sent "
        "no longer works."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, str]:
        return users.session_refresh(refresh=attrs["refresh"])


class SignedOutEverywhereSerializer(serializers.Serializer):
    """The answer of ``POST /api/v1/auth/token/revoke-all/``."""

    revoked = serializers.IntegerField(help_text="Refresh tokens that were still usable.")
