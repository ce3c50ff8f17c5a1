"""The rule sets in the schema, from the engine's registry: the names of the enums of the
rules schemas (``games.api.rules``), and the action components (``Action``: one of every
registered rule set's action forms).

drf-spectacular names an enum component after its field and, when two fields of the same name
have different choices, after a hash of them (and warns, which fails ``make schema``). Each
rule set's ``variant`` is its own one-value enum (``WienVariantEnum``), and an option's choices
are ``<Option>Enum`` (``HoldingAfterForehandEnum``), or ``<Variant><Option>Enum`` when another
rule set has an option of that name with other choices. Imports only the engine, so settings
can use it (``SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]``).

Actions: each key of a rule set's vocabulary (``RuleSet.vocabulary``) is a component
``<Key>Action`` (``CallAction``: ``{"call": …}``, ``seat`` optional), or
``<Variant><Key>Action`` when rule sets give the same key different values; a rule set's
actions are ``<Variant>Action``, one of its keys' components (its keys differ, so exactly one
fits); an action (``Action``, a legal action as a view lists it and a move's body alike) is any
of the rule sets' (``{"call": "pass"}`` is an action of several).
``config.api.schema`` adds the components; ``games.api.rules`` refers to them.
"""

from __future__ import annotations

import json
from typing import Any

import engine


def camel(name: str) -> str:
    """``austria-1829`` → ``Austria1829``, ``pot_at_close`` → ``PotAtClose``."""
    return "".join(part.capitalize() for part in name.replace("_", "-").split("-"))


def rules_component_name(variant: str) -> str:
    """The schema component of a rule set's rules: ``WienRules``, ``Austria1829Rules``."""
    return f"{camel(variant)}Rules"


def rules_enum_names() -> dict[str, list[str]]:
    """Enum component name → choices, for every registered rule set's variant and options."""
    out: dict[str, list[str]] = {}
    by_option: dict[str, set[tuple[str, ...]]] = {}
    for rule_set in engine.rule_sets():
        for option in rule_set.options:
            if option.choices:
                by_option.setdefault(option.name, set()).add(option.choices)
    named: set[tuple[str, ...]] = set()
    for rule_set in engine.rule_sets():
        out[f"{camel(rule_set.name)}VariantEnum"] = [rule_set.name]
        for option in rule_set.options:
            if not option.choices:
                continue
            shared = len(by_option[option.name]) == 1
            prefix = "" if shared else camel(rule_set.name)
            name = f"{prefix}{camel(option.name)}Enum"
            if option.choices in named and name not in out:
                # The same choices under another option's name (Doppelkopf's kasse_at_close
                # and wien's pot_at_close: carry, split): one component, named first.
                continue
            named.add(option.choices)
            out[name] = list(option.choices)
    return out


def _single(schema: Any) -> dict[str, Any]:
    """``schema`` with a ``oneOf`` of one alternative replaced by that alternative."""
    one = schema.get("oneOf")
    if isinstance(one, list) and len(one) == 1:
        rest = {k: v for k, v in schema.items() if k != "oneOf"}
        return {**one[0], **rest}
    return dict(schema)


def _enum_component(name: str, schema: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    """A reference to ``schema`` as the component ``name`` in ``out`` (a name once)."""
    if out.setdefault(name, schema) != schema:
        raise ValueError(f"two different enums would be named {name}")
    return {"$ref": f"#/components/schemas/{name}"}


def _alternative_stem(schema: dict[str, Any], index: int) -> str:
    """What names an alternative of a ``oneOf``: its one ``type`` value (``Suit``), else its
    place (``Option2``)."""
    kind = schema.get("properties", {}).get("type", {}).get("enum", ())
    return camel(str(kind[0])) if len(kind) == 1 else f"Option{index + 1}"


def _named_enums(schema: dict[str, Any], stem: str, out: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with every enum that is an alternative of a ``oneOf`` or a property of an
    object replaced by a named component (added to ``out``): ``<stem><Alternative><Property>
    Enum`` (``WienDeclareSuitTypeEnum``), ``<stem><Values>Enum`` (``OfferPassEnum``).
    Generators name an inline enum after its property or type, and Swift cannot use ``Type``
    or ``String`` as a model's name (``make clients-mobile`` fails on such warnings)."""
    schema = dict(schema)
    if isinstance(schema.get("oneOf"), list):
        alternatives = []
        for index, alternative in enumerate(schema["oneOf"]):
            if "enum" in alternative:
                values = "".join(camel(str(v)) for v in alternative["enum"][:2])
                alternatives.append(_enum_component(f"{stem}{values}Enum", alternative, out))
            else:
                inner = f"{stem}{_alternative_stem(alternative, index)}"
                alternatives.append(_named_enums(alternative, inner, out))
        schema["oneOf"] = alternatives
    if isinstance(schema.get("properties"), dict):
        schema["properties"] = {
            key: _enum_component(f"{stem}{camel(key)}Enum", value, out)
            if "enum" in value
            else _named_enums(value, f"{stem}{camel(key)}", out)
            for key, value in schema["properties"].items()
        }
    return schema


def _action_schemas() -> dict[str, dict[str, Any]]:
    """Action component name → its schema, for every registered rule set's vocabulary."""
    by_key: dict[str, set[str]] = {}
    for rule_set in engine.rule_sets():
        for form in rule_set.vocabulary:
            by_key.setdefault(form.key, set()).add(json.dumps(form.schema, sort_keys=True))
    out: dict[str, dict[str, Any]] = {}
    for rule_set in engine.rule_sets():
        names = []
        for form in rule_set.vocabulary:
            shared = len(by_key[form.key]) == 1
            name = f"{'' if shared else camel(rule_set.name)}{camel(form.key)}Action"
            names.append(name)
            described = {
                **_named_enums(_single(form.schema), name.removesuffix("Action"), out),
                "description": f"{form.description[:1].upper()}{form.description[1:]}.",
            }
            out[name] = {
                "type": "object",
                "description": f"``{form.key}``: {form.description}.",
                "properties": {
                    "seat": {
                        "type": "string",
                        "description": "Optional: the hand the action is about: the "
                        "caller's own, or one the rule set lets the caller play (a Preferans "
                        "whister plays the passer's cards in open play). Omitted: the hand "
                        "the caller's legal actions are about.",
                    },
                    form.key: described,
                },
                "required": [form.key],
                "additionalProperties": False,
            }
        out[f"{camel(rule_set.name)}Action"] = {
            "description": f"An action of a {rule_set.name} hand: one of its action keys.",
            "oneOf": [{"$ref": f"#/components/schemas/{n}"} for n in names],
        }
    return out


ACTION_SCHEMAS = _action_schemas()
ACTION_SCHEMAS["Action"] = {
    "anyOf": [
        {"$ref": f"#/components/schemas/{camel(rule_set.name)}Action"}
        for rule_set in engine.rule_sets()
    ],
    "description": "One action of the table's rule set (``<Variant>Action``), in the record "
    "vocabulary (``spec/hand-record.md``): one key, its value as that key's form says. A "
    "hand view's `legal` lists them, and a move sends one of them as it is "
    "(`ActionInputRequest.action`).",
}
"""Every action component, by name, and ``Action``: an action of any registered rule set."""

ACTION = {"$ref": "#/components/schemas/Action"}
"""An action, as a hand view's ``legal`` lists it and a move's body sends it: one named
component (``Action``), so that a generated client has one type for both and a legal action
is sent as it is (``docs/mobile.md``)."""


def sheet_entry_keys(documented: set[str]) -> dict[str, list[str]]:
    """The score-sheet keys (``RuleSet.sheet_keys``) the entry serializer does not document,
    each with the rule sets that have it, in registry order."""
    out: dict[str, list[str]] = {}
    for rule_set in engine.rule_sets():
        for key in sorted(rule_set.sheet_keys - documented):
            out.setdefault(key, []).append(rule_set.name)
    return out


def add_sheet_entry_keys(schemas: dict[str, Any]) -> None:
    """Each score-sheet key only some rule sets have becomes an optional property of the
    entry (``ScoreSheetEntry``, ``ScoreSheetEntryRequest``), saying which rule sets use it;
    the engine checks its value (their spec pages, "Records")."""
    for name in ("ScoreSheetEntry", "ScoreSheetEntryRequest"):
        component = schemas.get(name)
        if component is None:
            continue
        properties = component.setdefault("properties", {})
        for key, variants in sheet_entry_keys(set(properties)).items():
            which = "rule set" if len(variants) == 1 else "rule sets"
            properties[key] = {
                "description": f"A key of the {which} {', '.join(variants)} only (its "
                "`sheet_keys` in `python -m engine rules`); the engine checks its value and "
                "names it in a refusal."
            }
