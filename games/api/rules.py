"""The rules object in the API: one schema per registered rule set, discriminated by
``variant``, built from the rule set's declared options (``engine.options``).

Nothing here knows a rule set: a rule set registered in the engine appears in the schema with
its options, bounds, defaults and example (``RuleSet.examples[0]``, added to its component by
``config.api.schema``). The server passes the object to the engine, which checks it and names
a bad option in its refusal; these serializers only describe it.
"""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

import engine
from config.api.rule_sets import ACTION
from config.api.rule_sets import rules_component_name as component_name
from engine.options import Option

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
