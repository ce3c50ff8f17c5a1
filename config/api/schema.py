"""OpenAPI schema pieces: the ``Error`` component and error responses on every operation."""

from __future__ import annotations

from typing import Any

from drf_spectacular.contrib.rest_framework_simplejwt import SimpleJWTScheme
from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer[dict[str, Any]]):
    """The body of every 4xx response (see ``config.api.errors``).

    Declared through ``get_fields`` because a ``fields`` attribute would shadow
    ``Serializer.fields``.
    """

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            "code": serializers.CharField(help_text="Machine-readable snake_case code."),
            "message": serializers.CharField(help_text="A readable sentence."),
            "fields": serializers.DictField(
                child=serializers.ListField(child=serializers.CharField()),
                help_text="Input field name → messages; empty when not about input.",
            ),
        }


ERROR_DESCRIPTIONS = {
    "400": "Invalid input or a broken rule.",
    "401": "Not authenticated.",
    "403": "Permission denied.",
    "404": "Not found.",
}


class ApiAutoSchema(AutoSchema):
    """AutoSchema that documents the shared error responses for every operation."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        codes = ["401", "403", "404"]
        if self.method in {"POST", "PUT", "PATCH"} or self._is_list_view():
            codes.insert(0, "400")
        for code in codes:
            if code not in responses:
                response = self._get_response_for_code(ErrorSerializer, code)
                response["description"] = ERROR_DESCRIPTIONS[code]
                responses[code] = response
        return responses


class CachedJWTScheme(SimpleJWTScheme):
    """The JWT bearer scheme for :class:`config.api.authentication.CachedJWTAuthentication`."""

    target_class = "config.api.authentication.CachedJWTAuthentication"
