"""The schema types every closed set of values as an enum whose values come from the one place
in the code that defines the set, under a stable component name, and types numbers and objects
exactly: generated clients then get enums, integers and named fields, not strings, floats and
``Any``."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from django.conf import settings
from drf_spectacular.plumbing import load_enum_name_overrides

import engine
from clubs import standings as club_standings
from clubs.api.people import INVITABLE_ROLE_CHOICES
from clubs.models import Attendance, Evening, EveningRound, Invitation, Membership
from config.api.fields import MAX_ID
from config.api.rule_sets import camel, rules_component_name
from engine.options import KINDS
from engine.rules.wien import PREMIUM_NAMES, Phase
from games.api.rules import RESULT_UNITS
from games.models import Hand, Table
from games.services import BOT_LEVELS
from tests.openapi import generated_schema
from tournaments import scoring, webhooks
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db

REF = "#/components/schemas/"
#: wien's phases as before, then those only other rule sets have.
EVERY_PHASE = list(
    dict.fromkeys([*(p.value for p in Phase), *(p for rs in engine.rule_sets() for p in rs.phases)])
)


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generated_schema()


def component(spec: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = spec["components"]["schemas"][name]
    return found


def prop(spec: dict[str, Any], name: str, field: str) -> dict[str, Any]:
    found: dict[str, Any] = component(spec, name)["properties"][field]
    return found


def ref_name(node: dict[str, Any]) -> str:
    """The component a property refers to: ``$ref``, a single ``allOf`` (a reference with
    siblings), or ``anyOf: [$ref, null]`` (a nullable reference); anything else fails."""
    if "$ref" in node:
        ref = node["$ref"]
    elif len(node.get("allOf", [])) == 1:
        ref = node["allOf"][0]["$ref"]
    else:
        refs = [n["$ref"] for n in node.get("anyOf", []) if "$ref" in n]
        assert len(refs) == 1, node
        ref = refs[0]
    assert isinstance(ref, str) and ref.startswith(REF), node
    return ref.removeprefix(REF)


def is_nullable(node: dict[str, Any]) -> bool:
    return bool(node.get("nullable")) or any(
        n.get("nullable") and n.get("enum") == [None] for n in node.get("anyOf", [])
    )


def enum_of(spec: dict[str, Any], node: dict[str, Any]) -> tuple[str, list[Any]]:
    """The enum component a property (or an array's items) names, and its values."""
    if node.get("type") == "array":
        node = node["items"]
    name = ref_name(node)
    values = component(spec, name)["enum"]
    assert component(spec, name)["type"] == "string"
    return name, values


# ``(component, field, enum component, the values from the code, nullable)``
ENUMS = [
    ("Tournament", "tiebreaks", "TiebreakEnum", list(scoring.TIEBREAKS), False),
    ("TournamentInputRequest", "tiebreaks", "TiebreakEnum", list(scoring.TIEBREAKS), False),
    (
        "PatchedTournamentPatchRequest",
        "tiebreaks",
        "TiebreakEnum",
        list(scoring.TIEBREAKS),
        False,
    ),
    ("TournamentStandings", "tiebreaks", "TiebreakEnum", list(scoring.TIEBREAKS), False),
    ("TournamentStandings", "scoring", "ScoringEnum", Tournament.Scoring.values, False),
    ("MyTournament", "round_status", "TournamentRoundStatusEnum", Round.Status.values, True),
    ("TournamentRoundPlan", "method", "SeatingEnum", Tournament.Seating.values, False),
    (
        "WebhookDelivery",
        "event",
        "DeliveryEventEnum",
        [*webhooks.Webhook.EVENTS, webhooks.PING],
        False,
    ),
    ("Invitation", "state", "InvitationStateEnum", Invitation.State.values, False),
    ("InvitationPreview", "state", "InvitationStateEnum", Invitation.State.values, False),
    (
        "InvitationCreateRequest",
        "role",
        "InvitableRoleEnum",
        [value for value, _ in INVITABLE_ROLE_CHOICES],
        False,
    ),
    ("Club", "my_role", "MembershipRoleEnum", Membership.Role.values, True),
    ("EveningTable", "status", "TableStatusEnum", Table.Status.values, False),
    ("Evening", "status", "EveningStatusEnum", Evening.Status.values, False),
    ("Evening", "my_answer", "AnswerEnum", Attendance.Answer.values, True),
    ("MyEvening", "my_answer", "AnswerEnum", Attendance.Answer.values, True),
    ("Round", "status", "RoundStatusEnum", EveningRound.Status.values, False),
    ("Standings", "ranked_by", "RankedByEnum", ["league_points", "balance", "score"], False),
    ("MyTable", "mode", "ModeEnum", Table.Mode.values, False),
    ("BotSeatRequest", "bot_level", "BotLevelEnum", list(BOT_LEVELS), False),
    ("RuleSet", "bot_levels", "BotLevelEnum", list(BOT_LEVELS), False),
    ("RuleSet", "unit", "ResultUnitEnum", list(RESULT_UNITS), False),
    ("RuleOption", "kind", "OptionKindEnum", list(KINDS), False),
    ("HandRecord", "status", "HandStatusEnum", Hand.Status.values, False),
    *(
        (f"{camel(rs.name)}HandView", "status", "HandStatusEnum", Hand.Status.values, False)
        for rs in engine.rule_sets()
    ),
    *(
        (f"{camel(rs.name)}ScoreSheetRow", "status", "HandStatusEnum", Hand.Status.values, False)
        for rs in engine.rule_sets()
    ),
    ("Hand", "status", "HandStatusEnum", Hand.Status.values, False),
    ("Events", "status", "EventsStatusEnum", Hand.Status.values, False),
    ("Hand", "phase", "PhaseEnum", EVERY_PHASE, True),
    *(
        (f"{camel(rs.name)}HandView", "phase", "PhaseEnum", EVERY_PHASE, False)
        for rs in engine.rule_sets()
    ),
    ("Events", "phase", "PhaseEnum", EVERY_PHASE, False),
    *(
        (f"{rules_component_name(v)}Request", "variant", f"{camel(v)}VariantEnum", [v], False)
        for v in (rs.name for rs in engine.rule_sets())
    ),
]


@pytest.mark.parametrize(
    ("name", "field", "enum", "values", "nullable"),
    ENUMS,
    ids=[f"{name}.{field}" for name, field, *_ in ENUMS],
)
def test_a_closed_set_is_an_enum_of_the_codes_values(
    spec: dict[str, Any], name: str, field: str, enum: str, values: list[str], nullable: bool
) -> None:
    node = prop(spec, name, field)
    assert enum_of(spec, node) == (enum, values)
    assert is_nullable(node) == nullable, node


def test_ranked_by_names_the_first_ranking_keys_of_club_standings() -> None:
    assert [
        club_standings.ranked_by(league=True),
        club_standings.ranked_by(league=False),
        club_standings.ranked_by(league=False, by_score=True),
        club_standings.ranked_by(league=True, by_score=True),
    ] == ["league_points", "balance", "score", "league_points"]
    assert set(club_standings.RANKED_BY) == set(club_standings.RANKING_ORDER[:2]) | set(
        club_standings.RANKING_ORDER_BY_SCORE[:2]
    )


def test_a_seats_bot_level_is_a_level_or_empty(spec: dict[str, Any]) -> None:
    node = prop(spec, "Seat", "bot_level")
    assert ref_name(node) == "BotLevelEnum"
    assert {"type": "string", "maxLength": 0} in node["anyOf"]


def test_tiebreak_names_are_unique_in_every_list(spec: dict[str, Any]) -> None:
    for name in ("Tournament", "TournamentInputRequest", "TournamentStandings"):
        assert prop(spec, name, "tiebreaks")["uniqueItems"] is True


def test_every_enum_name_override_names_a_component(spec: dict[str, Any]) -> None:
    """A misspelt path in ENUM_NAME_OVERRIDES is silently ignored by drf-spectacular (the
    enum then gets an invented name); each one names a component of the same values."""
    overrides = load_enum_name_overrides()
    assert len(overrides) == len(settings.SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"])
    for name in settings.SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]:
        assert name in spec["components"]["schemas"], name


def test_a_nullable_enum_is_a_reference_or_null(spec: dict[str, Any]) -> None:
    """drf-spectacular would add ``NullEnum`` and ``BlankEnum`` components for nullable and
    blank choices; here a nullable enum is ``anyOf: [$ref, null]`` (``config.api.schema``),
    the form generators read. (A collision of enum names is a warning, which
    ``test_schema.py`` fails on.)"""
    names = [n for n in spec["components"]["schemas"] if n.endswith("Enum")]
    assert "NullEnum" not in names and "BlankEnum" not in names


def test_a_premium_levels_bounds_are_the_engines(spec: dict[str, Any]) -> None:
    for name in ("PremiumGame",):
        level = prop(spec, name, "level")
        assert level["type"] == "integer"
        assert (level["minimum"], level["maximum"]) == (min(PREMIUM_NAMES), max(PREMIUM_NAMES))


@pytest.mark.parametrize("variant", [rs.name for rs in engine.rule_sets()])
def test_the_variant_of_a_rules_object_is_required(spec: dict[str, Any], variant: str) -> None:
    """The engine refuses a rules object without ``variant`` (``engine.parse_rules``)."""
    name = f"{rules_component_name(variant)}Request"
    assert "variant" in component(spec, name)["required"]
    assert "default" not in prop(spec, name, "variant")


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        ("TournamentInputRequest", "RulesRequest"),
        ("PatchedTournamentPatchRequest", "RulesRequest"),
        ("Tournament", "Rules"),
        ("ClubInputRequest", "RulesRequest"),
        ("Club", "Rules"),
    ],
)
def test_tournaments_and_clubs_type_their_rules_alike(
    spec: dict[str, Any], name: str, rules: str
) -> None:
    field = "rules" if name.startswith(("Tournament", "Patched")) else "default_rules"
    assert ref_name(prop(spec, name, field)) == rules


def test_each_tiebreak_value_is_exact_text_and_lots_an_unsigned_64_bit_integer(
    spec: dict[str, Any],
) -> None:
    row = prop(spec, "TournamentStandingRow", "tiebreaks")
    assert ref_name(row) == "TiebreakValues"
    values = component(spec, "TiebreakValues")
    assert list(values["properties"]) == list(scoring.TIEBREAKS)
    assert not values.get("required")
    for name, node in values["properties"].items():
        assert node["type"] == "string", name
        pattern = scoring.LOTS_PATTERN if name == "lots" else scoring.POINTS_PATTERN
        assert node["pattern"] == pattern, name
    lots = re.compile(values["properties"]["lots"]["pattern"])
    assert lots.fullmatch(scoring.points_text(Fraction(2**64 - 1)))
    assert lots.fullmatch(scoring.points_text(Fraction(scoring.lots_draw(42, "anna"))))
    assert not lots.fullmatch(str(2**64 * 10))
    assert not lots.fullmatch("-1") and not lots.fullmatch("7/2")


def test_a_tournament_rounds_plan_and_byes_are_typed(spec: dict[str, Any]) -> None:
    for name in ("TournamentRound", "TournamentRoundDetail"):
        plan = prop(spec, name, "plan")
        assert ref_name(plan) == "TournamentRoundPlan" and is_nullable(plan)
        byes = prop(spec, name, "byes")
        assert byes["items"]["type"] == "integer"
        assert (byes["items"]["minimum"], byes["items"]["maximum"]) == (1, MAX_ID)
    byes = prop(spec, "RoundSeatingInputRequest", "byes")["items"]
    assert (byes["type"], byes["minimum"], byes["maximum"]) == ("integer", 1, MAX_ID)
    plan = component(spec, "TournamentRoundPlan")
    assert plan["required"] == ["method", "seed"]
    types = {k: v.get("type") for k, v in plan["properties"].items() if k != "method"}
    assert types == {
        "seed": "integer",
        "repeats": "integer",
        "objective": "number",
        "lower_bound": "number",
        "random_objective": "number",
    }


def test_a_club_rounds_plan_is_an_object_with_its_fields(spec: dict[str, Any]) -> None:
    assert ref_name(prop(spec, "Round", "plan")) == "RoundPlan"
    plan = component(spec, "RoundPlan")["properties"]
    for name in ("fixed_rounds", "iterations", "seed", "rounds_total"):
        assert plan[name]["type"] == "integer", name
    for name in ("objective", "lower_bound", "balance_lower_bound", "random_objective"):
        assert plan[name]["type"] == "number", name
    assert plan["proven_optimal"]["type"] == "boolean"
    table = plan["rounds"]["items"]["items"]
    assert table == {"type": "array", "items": {"type": "string"}}
    repeat = component(spec, ref_name(plan["repeats"]["items"]))["properties"]
    assert repeat["meetings"]["type"] == "integer" and repeat["weight"]["type"] == "number"
    counts = component(spec, ref_name(plan["other_table_counts"]["items"]))["properties"]
    assert counts["count"]["type"] == "integer"


@pytest.mark.parametrize(
    ("name", "field"),
    [("Season", "league_points"), ("SeasonInputRequest", "league_points")],
)
def test_league_points_are_numbers_by_table_size(
    spec: dict[str, Any], name: str, field: str
) -> None:
    node = prop(spec, name, field)
    assert node["type"] == "object" and node["nullable"] is True
    assert node["additionalProperties"] == {"type": "array", "items": {"type": "number"}}


def test_a_tables_dealer_draw_is_a_card_by_seat(spec: dict[str, Any]) -> None:
    node = prop(spec, "Table", "dealer_draw")
    assert node["type"] == "object" and node["nullable"] is True
    assert node["additionalProperties"] == {"type": "string"}
