"""Serializer fields whose OpenAPI schema says what the JSON really is, so client generators
type it (a bare JSON field becomes ``Any``, which kotlinx.serialization cannot read)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

#: The largest id a database row can have (64-bit ids): the ``max_value`` of id fields in
#: request bodies, so a larger number is a 400 naming the field, not a database error.
MAX_ID = 2**63 - 1


@extend_schema_field({"type": "object", "additionalProperties": {}})
class JSONObjectField(serializers.JSONField):
    """A JSON object whose keys the description names (a plan, a log detail, an envelope)."""


class LanguageField(serializers.ChoiceField):
    """A language the server offers (``settings.LANGUAGES``: ``en``, ``de``), or null for
    none (stored as ``""``): a user's preference, a club's language."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_null", True)
        kwargs.setdefault(
            "help_text",
            "The language the API speaks to you (errors, e-mails, pages), one the server "
            "offers; null: your request's Accept-Language, else English. Codes, field names "
            "and enum values never change with it.",
        )
        super().__init__(choices=[code for code, _ in settings.LANGUAGES], **kwargs)

    def to_representation(self, value: Any) -> Any:
        return value or None

    def to_internal_value(self, data: Any) -> Any:
        return "" if data is None else super().to_internal_value(data)

    def validate_empty_values(self, data: Any) -> tuple[bool, Any]:
        if data is None and self.allow_null:
            return True, ""
        return super().validate_empty_values(data)
