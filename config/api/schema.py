"""OpenAPI schema pieces: the ``ApiError`` component, the error responses every operation can
answer, and which operations need no sign-in.

Schemathesis (``tests/config/test_schemathesis.py``) checks every answer against this: a
status the schema does not list, or a public read documented as needing a sign-in, fails it.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from django.conf import settings
from drf_spectacular.authentication import SessionScheme
from drf_spectacular.contrib.rest_framework_simplejwt import SimpleJWTScheme
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema_serializer
from rest_framework import permissions, serializers, viewsets

import engine
from config.api.operations import OPERATIONS, TAGS
from config.api.rule_sets import (
    action_schemas,
    add_sheet_entry_keys,
    hand_schemas,
    rules_component_name,
)


@extend_schema_serializer(component_name="ApiError")
class ErrorSerializer(serializers.Serializer[dict[str, Any]]):
    """The body of every 4xx response (see ``config.api.errors``): the ``ApiError`` schema
    (not ``Error``, a reserved word in Swift and a built-in in TypeScript and Kotlin).

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
    "413": "The request body is larger than the service accepts (`request_too_large`).",
    "415": "The body is not JSON (`unsupported_media_type`).",
    "429": "Too many requests (`throttled`); `Retry-After` says when to try again.",
    "503": "The database or the broker cannot be reached, or the embedded SQLite database "
    "stayed busy with other writes (`service_unavailable`); `Retry-After` says when to try "
    "again, and a retry is safe.",
}
WRITES = frozenset({"POST", "PUT", "PATCH"})
RETRY_AFTER = {
    "schema": {"type": "integer"},
    "description": "Seconds to wait before trying again.",
}


def conditional_headers(*, by_date: bool) -> list[OpenApiParameter]:
    """The request and response headers of a conditional read (200 or 304): ``ETag`` and
    ``If-None-Match``, and with ``by_date`` also ``Last-Modified`` and ``If-Modified-Since``,
    so a generated client can send them back."""
    found = [
        OpenApiParameter(
            "If-None-Match",
            OpenApiTypes.STR,
            OpenApiParameter.HEADER,
            description="The `ETag` of the copy you hold: 304 without a body while it is current.",
        ),
        OpenApiParameter(
            "ETag",
            OpenApiTypes.STR,
            OpenApiParameter.HEADER,
            response=[200, 304],
            description="This state's tag: send it back in `If-None-Match`.",
        ),
    ]
    if by_date:
        found += [
            OpenApiParameter(
                "If-Modified-Since",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="The `Last-Modified` of the copy you hold (HTTP date); "
                "`If-None-Match` wins when both are sent.",
            ),
            OpenApiParameter(
                "Last-Modified",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                response=[200, 304],
                description="When this state last changed (HTTP date).",
            ),
        ]
    return found


class ApiAutoSchema(AutoSchema):
    """AutoSchema that documents the shared error responses for every operation and marks
    the operations anyone may call. One view class may serve several endpoints, each given
    its ``summary`` and ``description`` through ``as_view`` (the join-request decisions, a
    table's ledger and audit log); an ``extend_schema`` that names them wins."""

    def get_summary(self) -> str | None:
        return getattr(self.view, "summary", None) or super().get_summary()

    def get_description(self) -> str:  # type: ignore[override]  # drf-spectacular's
        # DRF's browsable API reads ``description`` the same way; a ViewSet's actions carry
        # their raw docstring in it, which drf-spectacular reads (cleaned) by itself.
        if isinstance(self.view, viewsets.ViewSetMixin):
            return str(super().get_description())
        return getattr(self.view, "description", None) or super().get_description()

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        # 401 for a bad token even where no sign-in is needed, 404 for an unknown path, 429
        # from the limits (config/api/throttles.py: anonymous callers on every path), 503
        # when PostgreSQL or the broker is down (config/api/errors.py, middleware.py).
        codes = ["401", "403", "404", "429", "503"]
        if self.method in WRITES or self._is_list_view():
            codes.insert(0, "400")
        if self.method in WRITES:
            codes += ["413", "415"]  # config/api/limits.py, the JSON-only parser
        for code in codes:
            if code not in responses:
                response = self._get_response_for_code(ErrorSerializer, code)
                response["description"] = ERROR_DESCRIPTIONS[code]
                if code in ("429", "503"):
                    response["headers"] = {"Retry-After": RETRY_AFTER}
                responses[code] = response
        return responses

    def _get_format_parameters(self) -> list[dict[str, Any]]:
        """No ``?format=`` parameter: each file is an operation of its own
        (config/api/text.py); ``?format=csv`` on a JSON operation stays an undocumented form
        of API 1.1.0."""
        return []

    def _get_response_for_code(
        self,
        serializer: Any,
        status_code: Any,
        media_types: Any = None,
        direction: Any = "response",
    ) -> Any:
        """Errors are documented as JSON (``ApiError``) only, as clients receive them: a view
        that also renders CSV or iCalendar answers its errors in JSON (config/api/text.py)."""
        if not str(status_code).startswith("2"):
            media_types = ["application/json"]
        return super()._get_response_for_code(serializer, status_code, media_types, direction)

    def _map_serializer_field(
        self, field: Any, direction: Any, bypass_extensions: bool = False
    ) -> Any:
        """A request field documents no ``default``: the server applies it to an omitted
        field anyway, and generators would send it on every request (openapi-python-client
        leaves out only optional fields without one; on a PATCH it would overwrite the
        stored value). The description says what an omitted field means instead (not on a
        PATCH, where an omitted field stays as it is)."""
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if direction != "request" or not isinstance(schema, dict) or "default" not in schema:
            return schema
        schema = dict(schema)  # never change a shared override (``extend_schema_field``)
        default = schema.pop("default")
        description = str(schema.get("description", ""))
        partial = getattr(getattr(field, "parent", None), "partial", False)
        if not partial and not any(w in description.lower() for w in ("default", "omitted")):
            said = f"Omitted: {json.dumps(default, ensure_ascii=False)}."
            schema["description"] = f"{description} {said}".strip()
        return schema

    def _get_request_body(self, direction: str = "request") -> dict[str, Any] | None:
        """A view whose ``optional_body_methods`` holds the method documents its body as
        optional (dealing a hosted hand is ``POST …/hands/`` without one, a self check-in
        ``POST …/check-ins/``). Such a body is one object with optional fields, never a
        ``oneOf``: openapi-python-client 0.29 cannot leave out an optional ``oneOf`` body."""
        body: dict[str, Any] | None = super()._get_request_body(direction)
        if body is not None and self.method in getattr(self.view, "optional_body_methods", ()):
            body.pop("required", None)
        return body

    def get_auth(self) -> list[dict[str, list[str]]]:
        """An operation anyone may call lists no security of its own: it takes the schema's
        default (:data:`DEFAULT_SECURITY`, a token or nothing), which is how client generators
        read "sign-in optional" (openapi-python-client requires a token for any operation
        that lists security, even ``[{}]``). Operations that need a sign-in list the token
        and the session cookie. drf-spectacular marks only the exact classes ``AllowAny``
        and ``IsAuthenticatedOrReadOnly`` as public; their subclasses (the tables' read
        permission) are public too, and so are views without authentication (signing in)."""
        auths: list[dict[str, list[str]]] = super().get_auth()
        if not auths or {} in auths:
            return []
        for permission in self.view.get_permissions():
            if isinstance(permission, permissions.AllowAny) or (
                isinstance(permission, permissions.IsAuthenticatedOrReadOnly)
                and self.method in permissions.SAFE_METHODS
            ):
                return []
        return auths


#: The schema's root ``security``: what an operation that lists none accepts.
DEFAULT_SECURITY: list[dict[str, list[str]]] = [{"jwtAuth": []}, {"cookieAuth": []}, {}]


class CachedJWTScheme(SimpleJWTScheme):
    """The JWT bearer scheme for :class:`config.api.authentication.CachedJWTAuthentication`."""

    target_class = "config.api.authentication.CachedJWTAuthentication"


class LanguageSessionScheme(SessionScheme):
    """The cookie scheme for :class:`config.api.authentication.LanguageSessionAuthentication`
    (the browsable API's session sign-in)."""

    target_class = "config.api.authentication.LanguageSessionAuthentication"


def rules_examples(schemas: dict[str, Any]) -> None:
    """Each rule set's rules components (``WienRules``, ``WienRulesRequest``:
    ``games.api.rules``) get the rule set's first example rules object as their ``example``
    (OpenAPI 3.0 has one per schema) and its others in the description (each also the rules of
    a whole request example of ``tables_create``: ``games.api.examples``)."""
    for rule_set in engine.rule_sets():
        name = rules_component_name(rule_set.name)
        for component in (schemas.get(name), schemas.get(f"{name}Request")):
            if component is None or not rule_set.examples:
                continue
            component["example"] = rule_set.examples[0]
            others = rule_set.examples[1:]
            if others:
                shown = "; ".join(f"`{json.dumps(e, ensure_ascii=False)}`" for e in others)
                component["description"] = (
                    f"{component.get('description', '')}\n\nMore examples: {shown}. Each is "
                    "also the rules of a request example of `tables_create`."
                ).strip()


def finish_schema(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the root ``security`` (:data:`DEFAULT_SECURITY`:
    an operation that lists none needs no sign-in), and nullable values said the way both
    linters and client generators read them.

    OpenAPI 3.0 lets ``nullable`` mean something only beside a ``type`` (Redocly's
    ``nullable-type-sibling``), but drf-spectacular writes a nullable nested object as
    ``allOf: [$ref]`` with ``nullable`` and no type, and a nullable JSON field without one.
    A ``type: object`` beside the ``allOf`` would make generators drop the null
    (openapi-python-client then parses ``null`` as the object and fails), so a nullable
    reference becomes ``anyOf: [$ref, null]`` (null as ``{type: object, nullable: true,
    enum: [null]}``); a nullable JSON field here is always an object and gets ``type:
    object`` with any properties (``additionalProperties: {}``: a bare ``type: object``
    becomes ``Any`` in Kotlin, which kotlinx.serialization cannot read). Schemathesis
    checks every answer against the result, and ``tests/clients/test_python_client.py``
    parses them with the generated client."""

    def fix(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("nullable") is True and "type" not in node:  # not a property's name
                refs = node.get("allOf")
                if isinstance(refs, list) and len(refs) == 1 and "$ref" in refs[0]:
                    del node["allOf"], node["nullable"]
                    node["anyOf"] = [refs[0], NULL]
                else:
                    node["type"] = "object"
                    node.setdefault("additionalProperties", {})
            for key, value in node.items():
                if key not in ("example", "examples"):  # values, not schemas
                    fix(value)
        elif isinstance(node, list):
            for value in node:
                fix(value)

    fix(result.get("components", {}))
    fix(result.get("paths", {}))
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    rules_examples(schemas)
    add_sheet_entry_keys(schemas)
    schemas.update(action_schemas())
    schemas.update(hand_schemas())
    result["components"]["schemas"] = dict(sorted(schemas.items()))
    name_operations(result)
    add_language_headers(result)
    result["security"] = DEFAULT_SECURITY
    return result


def add_language_headers(result: dict[str, Any]) -> None:
    """Every operation takes ``Accept-Language`` and every answer says ``Content-Language``
    (``config/i18n.py``)."""
    languages = [code for code, _ in settings.LANGUAGES]
    accept = {
        "name": "Accept-Language",
        "in": "header",
        "required": False,
        "schema": {"type": "string"},
        "description": "The languages you read, most wanted first (RFC 9110, e.g. `de-AT, de;"
        f"q=0.9`); the server offers {', '.join(languages)}. Your saved `language` "
        "(`/api/v1/me/`) wins over it; without either the answer is English. Only sentences "
        "change: codes, field names and enum values never do.",
    }
    spoken = {
        "schema": {"type": "string", "enum": languages},
        "description": "The language of the answer's sentences.",
    }
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method not in HTTP_METHODS:
                continue
            operation.setdefault("parameters", []).append(copy.deepcopy(accept))
            for answer in operation.get("responses", {}).values():
                if "$ref" not in answer:
                    answer.setdefault("headers", {})["Content-Language"] = copy.deepcopy(spoken)


def name_operations(result: dict[str, Any]) -> None:
    """Every operation's ``operationId`` and tag from :data:`config.api.operations.OPERATIONS`,
    and the tags with their descriptions at the root; an operation missing from the table
    stops the schema from being written."""
    used: set[str] = set()
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if method not in HTTP_METHODS:
                continue
            try:
                operation_id, tag = OPERATIONS[(method.upper(), path)]
            except KeyError:
                raise LookupError(
                    f"{method.upper()} {path} has no name: add it to config/api/operations.py."
                ) from None
            operation["operationId"] = operation_id
            operation["tags"] = [tag]
            used.add(tag)
    result["tags"] = [
        {"name": tag, "description": description}
        for tag, description in TAGS.items()
        if tag in used
    ]


HTTP_METHODS = frozenset({"get", "put", "post", "delete", "options", "head", "patch", "trace"})


#: ``null`` in OpenAPI 3.0, as a branch of ``anyOf``.
NULL: dict[str, Any] = {"type": "object", "nullable": True, "enum": [None]}
