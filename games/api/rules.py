"""The rules object in the API: one schema per registered rule set, discriminated by
``variant``, built from the rule set's declared options (``engine.options``).

Nothing here knows a rule set: a rule set registered in the engine appears in the schema with
its options, bounds, defaults and example (``RuleSet.examples[0]``, added to its component by
``config.api.schema``). The server passes the object to the engine, which checks it and names
a bad option in its refusal; these serializers only describe it.

The rule sets themselves are a public, read-only resource (``GET /api/v1/rules/`` and
``GET /api/v1/rules/{variant}/``, docs/games.md): each as :func:`describe` says it, from the
registry (``games.rulesets.offered_rule_sets``), the same data as ``python -m engine rules``.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import (
    OpenApiExample,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
)
from rest_framework import generics, permissions, serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import engine
from config.api.rule_sets import ACTION
from config.api.rule_sets import rules_component_name as component_name
from config.i18n import label, option_description, rule_set_description
from engine.options import KINDS, Option
from games.rulesets import offered_rule_sets
from games.services import BOT_LEVELS, bot_levels

Fields = dict[str, serializers.Field[Any, Any, Any, Any]]


def _help(option: Option) -> str:
    """An option's description as the schema says it: what it is, its unit, and (since
    request bodies document no defaults) what an omitted option means, the default written
    as JSON (``null``, ``false``, ``"sochi"``, ``[1, 2, 3]``); the description's own text,
    apostrophes included, stays as written."""
    text = option.description[:1].upper() + option.description[1:]
    if option.unit:
        text += f" ({option.unit})"
    text += "."
    if not option.required:
        text += f" Omitted: {json.dumps(option.default, ensure_ascii=False)}."
    return text


def _field(option: Option) -> serializers.Field[Any, Any, Any, Any]:
    """A field documenting ``option`` exactly as the engine checks it."""
    schema = option.json_schema()
    field_class = extend_schema_field(schema)(
        type(f"{option.name.title().replace('_', '')}Field", (serializers.JSONField,), {})
    )
    return field_class(required=option.required, help_text=_help(option))


def _variant_field(variant: str) -> serializers.Field[Any, Any, Any, Any]:
    return serializers.ChoiceField(choices=[variant], help_text=f"The rule set: {variant}.")


def _serializer(rule_set: engine.RuleSet[Any, Any, Any]) -> type[serializers.Serializer[Any]]:
    fields: Fields = {"variant": _variant_field(rule_set.name)}
    fields.update({o.name: _field(o) for o in rule_set.options})
    name = component_name(rule_set.name)
    doc = f"{rule_set.description[:1].upper()}{rule_set.description[1:]}."
    return type(f"{name}Serializer", (serializers.Serializer,), {**fields, "__doc__": doc})


RULES_SERIALIZERS: dict[str, serializers.Serializer[Any] | type[serializers.Serializer[Any]]] = {
    rs.name: _serializer(rs) for rs in engine.rule_sets()
}
"""One serializer per registered rule set, by variant."""

RULES_EXAMPLES: dict[str, dict[str, Any]] = {
    component_name(rs.name): rs.examples[0] for rs in engine.rule_sets() if rs.examples
}
"""Each rule set's component name and its example rules object."""

RulesSerializer = PolymorphicProxySerializer(
    component_name="Rules",
    serializers=RULES_SERIALIZERS,
    resource_type_field_name="variant",
)
"""The rules object of a table, evening, club default or tournament: one schema per rule set,
discriminated by ``variant``."""


@extend_schema_field(ACTION)
class ActionField(serializers.DictField):
    """One action as sent; the engine reads it with the table's vocabulary and refuses a bad
    one in its own words. Documented as one of every rule set's action forms."""


# --- the rule sets as a resource: GET /api/v1/rules/ ------------------------------------------


RESULT_UNITS: tuple[str, ...] = tuple(
    sorted({rs.carry.unit for rs in engine.rule_sets(include_engine_only=True)})
)
"""The units a rule set's deals are settled in (``Carry.unit``): cents, points."""


class RuleOptionSerializer(serializers.Serializer[dict[str, Any]]):
    """One option of a rule set's rules object (``engine.options.Option``): what it is, what
    values it takes and what an omitted one means."""

    name = serializers.CharField(help_text="The key in the rules object.")
    kind = serializers.ChoiceField(
        choices=list(KINDS),
        help_text="integer (a whole number within the bounds), choice (one of `choices`), "
        "boolean, or object (as `schema` says).",
    )
    description = serializers.CharField(help_text="What the option decides, in one line.")
    # DRF's metaclass takes declared fields off the class, so this never shadows the
    # serializer's own ``required`` at run time; only the type checker sees both.
    required = serializers.BooleanField(  # type: ignore[assignment]
        help_text="Whether a rules object must give it (it has no default)."
    )
    default = serializers.JSONField(
        help_text="Any JSON value: what an omitted option means; null for a required one "
        "(and for an optional one whose default is null: `required` tells them apart)."
    )
    example = serializers.JSONField(
        help_text="Any JSON value: a value to show, the default for an optional option."
    )
    minimum = serializers.IntegerField(allow_null=True, help_text="Integer: the least value.")
    maximum = serializers.IntegerField(allow_null=True, help_text="Integer: the greatest value.")
    multiple_of = serializers.IntegerField(
        allow_null=True, help_text="Integer: every value is a multiple of it."
    )
    nullable = serializers.BooleanField(help_text="Whether null is a value (e.g. no cap).")
    choices = serializers.ListField(
        child=serializers.CharField(), help_text="Choice: the values; empty for other kinds."
    )
    unit = serializers.CharField(
        allow_null=True, help_text="What an integer counts (cents, units, tricks), or null."
    )
    schema = serializers.DictField(
        help_text="The value as JSON Schema (OpenAPI 3.0 dialect), as the table's `rules` "
        "schema documents it."
    )


class RuleSetSerializer(serializers.Serializer[dict[str, Any]]):
    """A rule set tables, evenings, club defaults and tournaments may play by, from the
    engine's registry (``python -m engine rules``)."""

    variant = serializers.CharField(help_text="Its name: the rules object's `variant`.")
    description = serializers.CharField(help_text="The rule set in one line.")
    players = serializers.IntegerField(help_text="The active players of a deal.")
    seats = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The numbers of seats a table may have; with more seats than players the "
        "dealer (and the seats beside him, as the rule set says) sit a deal out.",
    )
    unit = serializers.ChoiceField(
        choices=list(RESULT_UNITS),
        help_text="The unit of a deal's result: money (cents) or points on a score sheet.",
    )
    score_unit = serializers.CharField(
        allow_null=True,
        help_text="The unit of a sitting's score where the rule set scores a sitting besides "
        "its money; null: a sitting's result is its money.",
    )
    options = RuleOptionSerializer(many=True, help_text="The options of its rules object.")
    defaults = serializers.DictField(
        help_text="The value of every option a rules object may leave out, by name."
    )
    example = serializers.DictField(
        help_text="A complete rules object (every required option given), e.g. for a new table."
    )
    bot_levels = serializers.ListField(
        child=serializers.ChoiceField(choices=list(BOT_LEVELS)),
        help_text="The bot levels that play it, weakest first; a bot seat or a round's bots "
        "without a level get the last.",
    )
    labels = serializers.DictField(
        child=serializers.CharField(),
        help_text="The rule set's words to show a person, in the reader's language "
        "(`Content-Language`): an object from `<kind>:<code>` to its label, e.g. "
        "`call:herz`. Kinds: `game` (game types and contracts), `call` (calls and bids), "
        "`reason` (why money moves), and the others the rule set declares (reservations, "
        "announcements). The part after the colon is the value the API sends elsewhere (a "
        "game's `type`, a call, a transfer's `reason`): look it up here to show its word; a "
        "value without a label is shown as it is. The codes never change with the language; "
        "docs/glossary.md lists every label in German and English.",
    )


def _option(rule_set: engine.RuleSet[Any, Any, Any], option: Option) -> dict[str, Any]:
    """``option`` as :class:`RuleOptionSerializer` shows it, every key present, its
    description in the reader's language."""
    return {
        "name": option.name,
        "kind": option.kind,
        "description": option_description(rule_set, option),
        "required": option.required,
        "default": None if option.required else option.default,
        "example": option.example if option.required else option.default,
        "minimum": option.minimum,
        "maximum": option.maximum,
        "multiple_of": option.multiple_of,
        "nullable": option.nullable,
        "choices": list(option.choices),
        "unit": option.unit or None,
        "schema": option.json_schema(),
    }


def labels(rule_set: engine.RuleSet[Any, Any, Any]) -> dict[str, str]:
    """The rule set's display labels in the active language, by ``<kind>:<code>`` (its
    English ``RuleSet.labels`` through the catalog, :func:`config.i18n.label`)."""
    return {code: label(rule_set, code) for code in rule_set.labels}


def describe(rule_set: engine.RuleSet[Any, Any, Any]) -> dict[str, Any]:
    """``rule_set`` as ``GET /api/v1/rules/`` answers it: the engine's description
    (``RuleSet.describe``) with every option's bounds spelled out, the defaults, the bot
    levels the server plays it with, and its words' labels in the reader's language."""
    described = rule_set.describe()
    return {
        "variant": rule_set.name,
        "description": rule_set_description(rule_set),
        "players": rule_set.table.players,
        "seats": list(rule_set.table.seats),
        "unit": rule_set.carry.unit,
        "score_unit": rule_set.score_unit,
        "options": [_option(rule_set, o) for o in rule_set.options],
        "defaults": {o.name: o.default for o in rule_set.options if not o.required},
        "example": described["example"],
        "bot_levels": list(bot_levels(rule_set)),
        "labels": labels(rule_set),
    }


def _known() -> str:
    return ", ".join(rs.name for rs in offered_rule_sets())


RULE_SET_EXAMPLE = OpenApiExample(
    "A rule set",
    response_only=True,
    status_codes=["200"],
    value=describe(engine.rule_sets()[0]),
)
"""The first registered rule set as the API answers it (built from the registry)."""

_PUBLIC = "Public: no sign-in needed. "


class RuleSetListView(generics.ListAPIView):
    """Every rule set a table, an evening, a club's default or a tournament may choose."""

    serializer_class = RuleSetSerializer
    permission_classes = [permissions.AllowAny]
    filter_backends: list[Any] = []

    def get_queryset(self) -> list[dict[str, Any]]:  # type: ignore[override]
        return [describe(rs) for rs in offered_rule_sets()]

    @extend_schema(
        summary="The rule sets",
        description=_PUBLIC + "Every rule set a table, an evening, a club's default or a "
        "tournament may choose (a rules object's `variant`), in the engine's order: its "
        "options with their bounds and defaults, its table shapes, its bot levels and a "
        "one-line description. The same data as `python -m engine rules`.",
        examples=[RULE_SET_EXAMPLE],
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class RuleSetDetailView(APIView):
    """One rule set by its name."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A rule set",
        description=_PUBLIC + "One rule set by its `variant`, as the list shows it; a name "
        "that is no rule set a table may choose is 404 `not_found`, naming those that are.",
        responses={200: RuleSetSerializer},
        examples=[RULE_SET_EXAMPLE],
    )
    def get(self, request: Request, variant: str) -> Response:
        for rule_set in offered_rule_sets():
            if rule_set.name == variant:
                return Response(RuleSetSerializer(describe(rule_set)).data)
        raise NotFound(
            gettext("There is no rule set {variant}; the rule sets are {known}.").format(
                variant=repr(variant), known=_known()
            )
        )
