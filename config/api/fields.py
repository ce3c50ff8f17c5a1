"""Serializer fields whose OpenAPI schema says what the JSON really is, so client generators
type it (a bare JSON field becomes ``Any``, which kotlinx.serialization cannot read)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

#: The largest id a database row can have (64-bit ids): the ``max_value`` of id fields in
#: request bodies, so a larger number is a 400 naming the field, not a database error.
MAX_ID = 2**63 - 1


@extend_schema_field({"type": "object", "additionalProperties": {}})
class JSONObjectField(serializers.JSONField):
    """A JSON object whose keys the description names (a plan, a log detail, an envelope)."""
