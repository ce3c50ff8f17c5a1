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
Hands (:func:`hand_schemas`): each rule set's shapes (``RuleSet.shapes``) give its
``<Variant>Game`` (one of its game forms by ``type``, a form shared by name where rule sets
have it alike: ``SuitGame``), ``<Variant>Result`` and ``<Variant>HandView`` (the keys every
rule set has and its own, nothing else), ``<Variant>SheetRow`` (its part of a score-sheet row),
``<Variant>ScoreSheetRow`` and ``<Variant>ScoreSheet``; ``HandView`` and ``ScoreSheet`` are one
of them by ``variant``, ``Result`` and ``Game`` any rule set's; ``WhyEnum`` the rule sets'
transfer words; ``TableRound``: the round of deals of the rule set that keeps one, any of
their ``<Variant>TableRound`` once several do.

``config.api.schema`` adds the components when the schema is generated (so a rule set
registered later, a test's, is in it); ``games.api`` refers to them.
"""

from __future__ import annotations

import json
from typing import Any

import engine


def camel(name: str) -> str:
    """``game-1829`` → ``Game1829``, ``option_name`` → ``OptionName``."""
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
                # The same choices under another option's name (two rule sets' options for
                # the pot at close: carry, split): one component, named first.
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
                        "caller's own, or one the rule set lets the caller play (a partner's "
                        "hand that lies open). Omitted: the hand "
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


def action_schemas() -> dict[str, dict[str, Any]]:
    """Every action component, by name, and ``Action``: an action of any registered rule set
    (read when the schema is generated, so a rule set registered after this module was
    imported, a test's, is in it)."""
    out = _action_schemas()
    out["Action"] = {
        "anyOf": [
            {"$ref": f"#/components/schemas/{camel(rule_set.name)}Action"}
            for rule_set in engine.rule_sets()
        ],
        "description": "One action of the table's rule set (``<Variant>Action``), in the "
        "record vocabulary (``spec/hand-record.md``): one key, its value as that key's form "
        "says. A hand view's `legal` lists them, and a move sends one of them as it is "
        "(`ActionInputRequest.action`).",
    }
    return out


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


# --- the shapes of hands: views, Results, games, score sheets ------------------------------

REF = "#/components/schemas/"
NULL: dict[str, Any] = {"type": "object", "nullable": True, "enum": [None]}
"""``null`` in OpenAPI 3.0, as a branch of ``anyOf``."""
TABLE_REASONS = ("carry_in", "carry_out", "split")
"""The ``why`` words of a table's own ledger entries (``games.models.LedgerEntry``): the pot
carried in and on between sittings, and shared at the close (which some rule sets' closings
also write)."""


def legacy_sheet_keys() -> dict[str, tuple[str, ...]]:
    """The keys a score-sheet row filed a rule set's details under before ``details`` (API
    1.x), with the rule sets whose details they held (``Shapes.legacy_sheet_key``), in
    registry order: kept for one API version, deprecated."""
    out: dict[str, tuple[str, ...]] = {}
    for rule_set in engine.rule_sets():
        key = rule_set.shapes.legacy_sheet_key
        if key is not None:
            out[key] = (*out.get(key, ()), rule_set.name)
    return out


def ref(name: str) -> dict[str, Any]:
    """A reference to the component ``name``."""
    return {"$ref": f"{REF}{name}"}


def or_null(name: str, description: str = "") -> dict[str, Any]:
    """The component ``name`` or ``null``."""
    out: dict[str, Any] = {"anyOf": [ref(name), NULL]}
    if description:
        out["description"] = description
    return out


def transfer_reasons() -> list[str]:
    """Every ``why`` word of every registered rule set's transfers (``Shapes.reasons``), in
    registry order."""
    return list(dict.fromkeys(r for rs in engine.rule_sets() for r in rs.shapes.reasons))


def hand_reasons() -> list[str]:
    """The ``why`` words of a deal's transfers (a Result's): :func:`transfer_reasons` but the
    table's own (:data:`TABLE_REASONS`)."""
    return [r for r in transfer_reasons() if r not in TABLE_REASONS]


def _name_enums(schema: Any, stem: str, out: dict[str, Any]) -> Any:
    """``schema`` with every enum in it (a property's, an alternative's, an array's items', a
    map's values') a named component in ``out``: ``<stem><Property>Enum``,
    ``<stem><Values>Enum`` for an alternative, ``<stem>Enum`` for items and values. A
    nullable enum becomes ``anyOf: [$ref, null]``, a nullable ``oneOf``/``anyOf`` without a
    ``type`` gets ``null`` as one more alternative. Generators name an inline enum after its
    property, and Swift cannot use ``Type`` as a model's name."""
    if not isinstance(schema, dict):
        return schema
    if "enum" in schema and schema.get("enum") != [None]:
        bare = {k: v for k, v in schema.items() if k not in ("nullable", "description")}
        found = _enum_component(f"{stem}Enum", bare, out)
        if schema.get("nullable"):
            found = {"anyOf": [found, NULL]}
            if "description" in schema:
                found["description"] = schema["description"]
        return found
    schema = dict(schema)
    for key in ("oneOf", "anyOf"):
        if isinstance(schema.get(key), list):
            alternatives = []
            for index, alternative in enumerate(schema[key]):
                if isinstance(alternative, dict) and "enum" in alternative:
                    values = "".join(camel(str(v)) for v in alternative["enum"][:2])
                    alternatives.append(_name_enums(alternative, f"{stem}{values}", out))
                else:
                    inner = f"{stem}{_alternative_stem(alternative, index)}"
                    alternatives.append(_name_enums(alternative, inner, out))
            schema[key] = alternatives
            if schema.get("nullable") and "type" not in schema:
                # OpenAPI 3.0 allows ``nullable`` only beside a ``type``: null is one more
                # alternative
                del schema["nullable"]
                schema[key] = [*alternatives, NULL]
    if isinstance(schema.get("properties"), dict):
        schema["properties"] = {
            key: _name_enums(value, f"{stem}{camel(key)}", out)
            for key, value in schema["properties"].items()
        }
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            schema[key] = _name_enums(schema[key], stem, out)
    return schema


def _object(properties: dict[str, Any], required: list[str], description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


CARDS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
SEAT_NAMES: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
BY_SEAT_INT: dict[str, Any] = {"type": "object", "additionalProperties": {"type": "integer"}}


def _game_forms() -> dict[str, dict[str, str]]:
    """Rule set → form ``type`` → the component of that form: ``<Type>Game`` where every rule
    set with a form of that type has the same one (``SuitGame``), else
    ``<Variant><Type>Game``."""
    by_type: dict[str, set[str]] = {}
    for rule_set in engine.rule_sets():
        for form in rule_set.shapes.games:
            kind = form["properties"]["type"]["enum"][0]
            by_type.setdefault(kind, set()).add(json.dumps(form, sort_keys=True))
    return {
        rule_set.name: {
            (kind := form["properties"]["type"]["enum"][0]): (
                f"{camel(kind)}Game"
                if len(by_type[kind]) == 1
                else f"{camel(rule_set.name)}{camel(kind)}Game"
            )
            for form in rule_set.shapes.games
        }
        for rule_set in engine.rule_sets()
    }


def _own(shape: Any, stem: str, out: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A shape's properties (enums named) and required keys."""
    properties = {
        key: _name_enums(value, f"{stem}{camel(key)}", out)
        for key, value in dict(shape.get("properties", {})).items()
    }
    return properties, list(shape.get("required", []))


def _by_variant(part: str, variants: list[str], description: str) -> dict[str, Any]:
    """One of the rule sets' ``<Variant><part>`` components, picked by the answer's
    ``variant`` (an OpenAPI discriminator)."""
    return {
        "description": description,
        "oneOf": [ref(f"{camel(v)}{part}") for v in variants],
        "discriminator": {
            "propertyName": "variant",
            "mapping": {v: f"{REF}{camel(v)}{part}" for v in variants},
        },
    }


def hand_schemas() -> dict[str, dict[str, Any]]:
    """The components of hands, from every registered rule set's shapes (``RuleSet.shapes``):
    per rule set ``<Variant>Game`` (one of its game forms, by ``type``), ``<Variant>Result``,
    ``<Variant>HandView``, ``<Variant>SheetRow`` (where it has one), ``<Variant>ScoreSheetRow``
    and ``<Variant>ScoreSheet``; the game forms; and the unions ``HandView`` and
    ``ScoreSheet`` (by ``variant``), ``Result`` and ``Game`` (any rule set's)."""
    out: dict[str, Any] = {}
    forms = _game_forms()
    out["WhyEnum"] = {"type": "string", "enum": hand_reasons()}
    out["Transfer"] = _object(
        {
            "from": {
                "type": "string",
                "description": "A seat, or the table's common money (the rule set's "
                "`carry` party) by its name.",
            },
            "to": {"type": "string"},
            "amount": {"type": "integer", "description": "Cents."},
            "why": ref("WhyEnum"),
        },
        ["from", "to", "amount", "why"],
        "One money movement of a Result.",
    )
    out["TrickCard"] = _object(
        {"seat": {"type": "string"}, "card": {"type": "string"}},
        ["seat", "card"],
        "A card played to a trick, and by whom.",
    )
    out["SheetSeat"] = _object(
        {"key": {"type": "string"}, "name": {"type": "string"}},
        ["key", "name"],
        "A seat of a score sheet and its player's name.",
    )
    views, sheets, rounds, results = [], [], [], {}
    legacy_keys = legacy_sheet_keys()
    for rule_set in engine.rule_sets():
        name, shapes = camel(rule_set.name), rule_set.shapes
        for form in shapes.games:
            component = forms[rule_set.name][form["properties"]["type"]["enum"][0]]
            out[component] = _name_enums(dict(form), component, out)
        mapping = {kind: f"{REF}{component}" for kind, component in forms[rule_set.name].items()}
        out[f"{name}Game"] = {
            "description": f"The game of a {rule_set.name} deal: one of its forms, by `type`.",
            "oneOf": [{"$ref": target} for target in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
        }
        own, own_required = _own(shapes.result, f"{name}Result", out)
        common = {
            "stake": {
                "type": "integer",
                "nullable": True,
                "description": "The deal's stake, where the rule set plays for one; null where "
                "it has none.",
            },
            "declarer": {"type": "string", "nullable": True},
            "game": or_null(f"{name}Game", "null: a deal without a game."),
            "made": {"type": "boolean", "nullable": True},
            "fallen": SEAT_NAMES,
            "tricks": {**BY_SEAT_INT, "description": "Tricks per seat ({} where none count)."},
            "delta": {**BY_SEAT_INT, "description": "Each seat's change (cents)."},
            "pot": {
                "type": "integer",
                "nullable": True,
                "description": "The money the table "
                "holds in common after the deal; null where the rule set has none.",
            },
            "transfers": {"type": "array", "items": ref("Transfer")},
        }
        results[f"{name}Result"] = _object(
            {**common, **own},
            [*common, *(k for k in own_required if k not in common)],
            f'What settling a {rule_set.name} deal gives (`spec/hand-record.md`, "Result"): '
            "the keys of every Result and the rule set's own.",
        )
        own, _ = _own(shapes.view, f"{name}HandView", out)
        view = {
            "mode": ref("ModeEnum"),
            "variant": ref(f"{name}VariantEnum"),
            "number": {"type": "integer"},
            "status": ref("HandStatusEnum"),
            "version": {"type": "integer"},
            "seat": {"type": "string", "nullable": True, "description": "null: a spectator."},
            "phase": ref("PhaseEnum"),
            "to_act": {"type": "string", "nullable": True},
            "rules": ref(rules_component_name(rule_set.name)),
            "seats": SEAT_NAMES,
            "dealer": {"type": "string"},
            "active": SEAT_NAMES,
            "hand": {**CARDS, "nullable": True, "description": "Own cards."},
            "hand_sizes": BY_SEAT_INT,
            "actions": {
                "type": "array",
                "description": "Every action so far as the seat may see it: its `seat` and "
                "one key of the rule set's vocabulary (another seat's hidden choice shown "
                "as the rule set's view says, e.g. a discard as null).",
                "items": {
                    "type": "object",
                    "properties": {"seat": {"type": "string"}},
                    "required": ["seat"],
                    "additionalProperties": {},
                },
            },
            "declarer": {"type": "string", "nullable": True},
            "game": or_null(f"{name}Game"),
            "trick": {"type": "array", "items": ref("TrickCard")},
            "last_trick": {"type": "array", "items": ref("TrickCard")},
            "tricks": {**BY_SEAT_INT, "description": "Tricks won so far per seat."},
            "legal": {
                "type": "array",
                "items": ref("Action"),
                "description": "Your legal actions.",
            },
            "deal": {
                "type": "object",
                "additionalProperties": CARDS,
                "description": "After the hand: every hand as dealt (and every other pile "
                "the rule set deals).",
            },
            "entry": {
                "type": "object",
                "additionalProperties": {},
                "description": "Recorded: the complete score-sheet entry.",
            },
            "result": or_null(f"{name}Result"),
            "proof": or_null("Proof"),
            "clock": or_null(
                "HandClock", "Hosted hands at a table with a clock; null: the table has none."
            ),
            "timeouts": {
                "type": "array",
                "items": ref("ActionTimeout"),
                "description": "The actions the timeout policy played for a person whose time "
                "ran out (empty without a clock).",
            },
        }
        view.update(own)
        out[f"{name}HandView"] = _object(
            view,
            ["mode", "variant", "number", "status", "version"],
            f"A {rule_set.name} hand as the caller may see it. Hosted hands: the engine's seat "
            "view (`seat` null for a spectator), with `legal` when it is the caller's turn "
            "and `deal`, `result` and `proof` after the hand; while a deal source withholds "
            "the board no `deal`, only what the seat saw during play, and `proof` null. "
            "Recorded hands: the complete entry and its result.",
        )
        views.append(rule_set.name)
        details: dict[str, Any] = NULL
        if shapes.sheet_row is not None:
            own, own_required = _own(shapes.sheet_row, f"{name}SheetRow", out)
            out[f"{name}SheetRow"] = _object(
                own, own_required, f"A {rule_set.name} deal on the running score sheet."
            )
            details = or_null(f"{name}SheetRow")
        legacy = {
            key: {
                **(details if rule_set.name in holders else NULL),
                "deprecated": True,
                "description": "Deprecated (API 1.x): `details` at this rule set's tables, "
                "else null.",
            }
            for key, holders in legacy_keys.items()
        }
        out[f"{name}ScoreSheetRow"] = _object(
            {
                "number": {"type": "integer"},
                "status": ref("HandStatusEnum"),
                "dealer": {"type": "string"},
                "game": {
                    "type": "string",
                    "description": "The game as a score sheet writes it (the rule set's words).",
                },
                "declarer": {"type": "string", "nullable": True},
                "made": {"type": "boolean", "nullable": True},
                "fallen": SEAT_NAMES,
                "balances": {**BY_SEAT_INT, "description": "Seat → running balance after it."},
                "pot": {
                    "type": "integer",
                    "nullable": True,
                    "description": "The pot after the hand; null where the rule set has none.",
                },
                "details": {
                    **details,
                    "description": "The rule set's own part of the row; null where it has none.",
                },
                "timed_out": {
                    **SEAT_NAMES,
                    "description": "The seats whose actions a timeout policy played in this "
                    "deal (at a table with a clock; else empty).",
                },
                **legacy,
            },
            [
                "number",
                "status",
                "dealer",
                "game",
                "declarer",
                "made",
                "fallen",
                "balances",
                "pot",
                "details",
                *legacy,
            ],
            f"One settled hand on a {rule_set.name} table's running sheet.",
        )
        out[f"{name}ScoreSheet"] = _object(
            {
                "variant": ref(f"{name}VariantEnum"),
                "seats": {"type": "array", "items": ref("SheetSeat")},
                "opening_pot": {"type": "integer"},
                "rows": {"type": "array", "items": ref(f"{name}ScoreSheetRow")},
            },
            ["variant", "seats", "opening_pot", "rows"],
            f"The running score sheet of a {rule_set.name} table (amounts in cents).",
        )
        sheets.append(rule_set.name)
        if shapes.round is not None:
            rounds.append((f"{name}TableRound", shapes.round))
    out.update(results)
    out.update(_table_rounds(rounds, out))
    out.update(clock_schemas())
    out["HandView"] = _by_variant(
        "HandView",
        views,
        "A hand as the caller may see it: one of the rule sets' views (`<Variant>HandView`), "
        "by `variant`.",
    )
    out["ScoreSheet"] = _by_variant(
        "ScoreSheet",
        sheets,
        "The running score sheet of a table: one of the rule sets' (`<Variant>ScoreSheet`), "
        "by `variant`.",
    )
    out["Result"] = {
        "description": "What settling a hand gives: the Result of the table's rule set "
        "(`<Variant>Result`).",
        "anyOf": _distinct(results, out),
    }
    every_form = dict.fromkeys(c for by_kind in forms.values() for c in by_kind.values())
    out["Game"] = {
        "description": "The game of a deal: a form of the table's rule set's games.",
        "oneOf": [ref(component) for component in every_form],
    }
    return out


def clock_schemas() -> dict[str, dict[str, Any]]:
    """``HandClock`` and ``SeatClock``: what a hand's reader sees of its clocks
    (``games.hands.hand_clock``; docs/clocks.md)."""
    moment = {"type": "string", "format": "date-time"}
    seat = _object(
        {
            "remaining_ms": {
                "type": "integer",
                "description": "Time left at `server_time`, milliseconds: while the clock runs "
                "the action's own seconds and the reserve; else the reserve.",
            },
            "reserve_ms": {
                "type": "integer",
                "description": "The reserve kept for the hand (live), as of the turn's start.",
            },
            "running": {"type": "boolean", "description": "Whether this clock runs now."},
            "deadline": {
                **moment,
                "nullable": True,
                "description": "When this seat's time runs out; null when its clock does not "
                "run. Count down to it from `server_time`.",
            },
            "timed_out": {
                "type": "boolean",
                "description": "Its time ran out: the timeout policy's bot plays this action.",
            },
            "away": {
                "type": "boolean",
                "description": "Timed out `timeouts_before_away` times in a row: the bot plays "
                "for it at once until its person acts or comes back (POST …/back/).",
            },
            "timeouts_in_row": {"type": "integer"},
            "connected": {
                "type": "boolean",
                "description": "A websocket of the seat's person watches the table now.",
            },
        },
        [
            "remaining_ms",
            "reserve_ms",
            "running",
            "deadline",
            "timed_out",
            "away",
            "timeouts_in_row",
            "connected",
        ],
        "One person's clock at a hosted table.",
    )
    hand = _object(
        {
            "kind": {"type": "string", "enum": ["live", "turn_based"]},
            "server_time": {
                **moment,
                "description": "The server's time when it wrote this: count each deadline down "
                "from it, not from the phone's clock.",
            },
            "flag_at": {
                **moment,
                "nullable": True,
                "description": "When the next flag falls: a deadline plus the lag a client "
                "may claim (`CLOCK_LAG_CREDIT_MS`).",
            },
            "seats": {
                "type": "object",
                "additionalProperties": ref("SeatClock"),
                "description": "Each person's clock by seat key (bots have none).",
            },
        },
        ["kind", "server_time", "flag_at", "seats"],
        "The clocks of a hosted hand at a table with a time control.",
    )
    return {"SeatClock": seat, "HandClock": hand}


def _table_rounds(rounds: list[tuple[str, Any]], components: dict[str, Any]) -> dict[str, Any]:
    """``TableRound``, where a table stands in its rule set's round of deals (``Shapes.round``):
    the shape itself while one rule set keeps rounds (an object, as clients were generated
    from), any of the rule sets' ``<Variant>TableRound`` once several do, and a free object
    while none does."""
    description = (
        "Where a table stands in its rule set's round of deals before its next hand: the "
        "round of the table's rule set (`<Variant>TableRound`)."
    )
    if not rounds:
        return {
            "TableRound": {"type": "object", "additionalProperties": {}, "description": description}
        }
    if len(rounds) == 1:
        return {"TableRound": _name_enums(dict(rounds[0][1]), "TableRound", components)}
    out = {name: _name_enums(dict(shape), name, components) for name, shape in rounds}
    out["TableRound"] = {"description": description, "anyOf": [ref(name) for name in out]}
    return out


def _distinct(results: dict[str, Any], components: dict[str, Any]) -> list[dict[str, Any]]:
    """References to the ``results``, one for each set of identical ones (read through their
    ``game``'s forms, the only part that names the rule set)."""
    seen: dict[str, str] = {}
    for name, schema in results.items():
        game = schema["properties"]["game"]["anyOf"][0]["$ref"].removeprefix(REF)
        forms = components[game]["oneOf"]
        key = json.dumps(
            {**schema, "description": "", "properties": {**schema["properties"], "game": forms}},
            sort_keys=True,
        )
        seen.setdefault(key, name)
    return [ref(name) for name in seen.values()]
