"""The schema's examples of tables, hands and rules, built from the engine's registry: each
offered rule set (``engine.rule_sets()``) brings its own through its example rules, its table
shape and hands dealt and played by the engine, so a new game's package documents itself and
the API names no rule set, option, key or card of its own.

Every example is dealt from a fixed seed (``random.Random``), so ``make schema`` writes the
same snapshot each time. The tables seat the caller as user 3 (``tests/config/
test_examples.py`` gives that id to an account) beside guests or random bots; the entries
are valid for hand 1 of the recorded table of their rule set, and name its ``rules`` (which
an entry may repeat: the server checks them against the table's).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import OpenApiExample

import engine
from engine.bots import random_bot
from games.api.sheet import sheet_of
from games.models import Hand, Table
from games.rulesets import money_key

CALLER = 3
"""The user id of the caller the table examples seat (as ``{"kind": "user", "user": 3}``)."""
PLAYERS = ("anna", "bert", "carl", "dora", "emil", "fritz", "gina", "hugo")
"""The seat keys of the examples' tables, the caller's first."""
SEED = 37
"""Every example's hands are dealt from ``random.Random(SEED + …)``."""

AnyRuleSet = engine.RuleSet[Any, Any, Any]


def rules_example() -> dict[str, Any]:
    """The ``rules`` of a club's, an evening's or a tournament's example: the house rules
    (``engine.house_rules``: the first registered rule set's house rule book, else its first
    example)."""
    return engine.house_rules()


def example_rules(rule_set: AnyRuleSet) -> list[dict[str, Any]]:
    """The rule set's example ``rules`` objects (``RuleSet.examples``), or its defaults alone
    where it has none."""
    return [dict(rules) for rules in rule_set.examples] or [{"variant": rule_set.name}]


def seat_keys(rule_set: AnyRuleSet) -> list[str]:
    """The seat keys of an example table of the rule set: its fewest seats."""
    return list(PLAYERS[: min(rule_set.table.seats)])


def _options(rules: Mapping[str, Any]) -> str:
    """A rules object's options in a line (``a 1, b "x"``), or ``its defaults``."""
    shown = [f"{k} {json.dumps(v, ensure_ascii=False)}" for k, v in rules.items() if k != "variant"]
    return ", ".join(shown) or "its defaults"


# --- tables: POST /api/v1/tables/ -----------------------------------------------------------


def recorded_table(rule_set: AnyRuleSet) -> dict[str, Any]:
    """A request of ``tables_create``: a recorded table of the rule set's fewest seats, the
    caller and guests, the last seat dealing first, playing its first example rules."""
    keys = seat_keys(rule_set)
    return {
        "name": f"Dienstagsrunde ({rule_set.name})",
        "mode": Table.Mode.RECORDED.value,
        "rules": example_rules(rule_set)[0],
        "seats": [
            {"key": keys[0], "kind": "user", "user": CALLER},
            *({"key": key, "kind": "guest", "guest_name": key.title()} for key in keys[1:]),
        ],
        "first_dealer": keys[-1],
    }


def hosted_table(rule_set: AnyRuleSet, rules: Mapping[str, Any]) -> dict[str, Any]:
    """A request of ``tables_create``: a hosted table of the rule set's fewest seats playing
    ``rules``, the caller and random bots."""
    bots = min(rule_set.table.seats) - 1
    return {
        "name": f"Online ({rule_set.name})",
        "mode": Table.Mode.HOSTED.value,
        "rules": dict(rules),
        "seats": [
            {"key": PLAYERS[0], "kind": "user", "user": CALLER},
            *(
                {"key": f"bot-{i}", "kind": "bot", "bot_level": "random"}
                for i in range(1, bots + 1)
            ),
        ],
    }


def table_examples() -> list[OpenApiExample]:
    """The request examples of ``tables_create``: per offered rule set a recorded table
    (:func:`recorded_table`) and a hosted table per example of its rules
    (:func:`hosted_table`)."""
    out = []
    for rule_set in engine.rule_sets():
        body = recorded_table(rule_set)
        out.append(
            OpenApiExample(
                f"A recorded {rule_set.name} table",
                summary=f"{rule_set.name}: the caller (user {CALLER}) and "
                f"{len(body['seats']) - 1} guests record their deals; "
                f"{body['first_dealer']} deals first",
                value=body,
                request_only=True,
            )
        )
        for i, rules in enumerate(example_rules(rule_set), start=1):
            body = hosted_table(rule_set, rules)
            out.append(
                OpenApiExample(
                    f"A hosted {rule_set.name} table" + (f" ({i})" if i > 1 else ""),
                    summary=f"{rule_set.name} ({_options(rules)}): the caller and "
                    f"{len(body['seats']) - 1} random bots",
                    value=body,
                    request_only=True,
                )
            )
    return out


# --- hands: the entries, the actions, a seat's view, the sheet ------------------------------


@dataclass(frozen=True)
class Dealt:
    """A hand of an example table: its number, dealer, common part and its state."""

    number: int
    dealer: str
    common: dict[str, Any]
    state: engine.HandState


def _opening_carry(rule_set: AnyRuleSet, rules: Any, seats: Sequence[str]) -> dict[str, Any]:
    """What a new table carries into its first hand (``games.hands.carry_after`` of a table
    with no hand yet): no money in its pot and the rule set's opening carry."""
    opening = rule_set.opening_carry(rules, seats)
    pot_key = money_key(rule_set)
    carry = rule_set.carry
    return {
        key: 0 if key == pot_key else opening[key]
        for key in (*carry.keys, *carry.optional)
        if key == pot_key or key in opening
    }


def _play_out(state: engine.HandState, rng: random.Random) -> engine.HandState:
    """``state`` played to its end by the ``random`` bot."""
    while not state.is_over:
        state = engine.apply(state, random_bot.choose(state, rng))
    return state


def recorded_hands(rule_set: AnyRuleSet, count: int, seed: int) -> Iterator[Dealt]:
    """The first ``count`` hands of the rule set's recorded example table
    (:func:`recorded_table`), each dealt from a shuffled deck and played out by the random
    bot, with the dealer and carry the server gives them (``games.hands``: the dealer moves
    on, or as the rule set's round says; the carry after the hand before)."""
    body = recorded_table(rule_set)
    keys = [seat["key"] for seat in body["seats"]]
    rules = rule_set.parse_rules(body["rules"])
    first = keys.index(body["first_dealer"])
    rng = random.Random(seed)
    carry = _opening_carry(rule_set, rules, keys)
    results: list[dict[str, Any]] = []
    for number in range(1, count + 1):
        dealer = keys[(first + number - 1) % len(keys)]
        at = rule_set.table_round(rules, keys, keys[first], results)
        if at is not None:
            dealer = at.dealer
            carry = {**carry, **at.carry}
        common = {"rules": rules.to_json(), "seats": keys, "dealer": dealer, **carry}
        deal = rule_set.random_deal(keys, dealer, rng)
        state = _play_out(engine.replay({**common, "deal": deal, "actions": []}), rng)
        yield Dealt(number, dealer, common, state)
        results.append(engine.settle(engine.sheet_entry(state)))
        carry = dict(rule_set.carry_after(results[-1]))


def entry(rule_set: AnyRuleSet, seed: int) -> tuple[dict[str, Any], str]:
    """A score-sheet entry for hand 1 of the rule set's recorded example table, with the
    table's ``rules`` (which an entry may name), and a line saying what it records."""
    (hand,) = recorded_hands(rule_set, 1, seed)
    sheet = engine.sheet_entry(hand.state)
    body = {
        "rules": recorded_table(rule_set)["rules"],
        **{k: v for k, v in sheet.items() if k not in hand.common},
    }
    result = engine.settle(sheet)
    game = rule_set.describe_game(result.get("game")) or "no game"
    declarer, made = result.get("declarer"), result.get("made")
    said = f"{rule_set.name}: {game}"
    if declarer:
        said += f", declarer {declarer}"
    if made is not None:
        said += ", made" if made else ", fallen"
    return body, said


def entry_examples(*, correction: bool = False) -> list[OpenApiExample]:
    """The request examples of recording a hand (``POST …/hands/``) or, with ``correction``,
    of correcting it (``PUT …/hands/{number}/``, another deal): per offered rule set one entry
    valid for hand 1 of its recorded example table (:func:`entry`)."""
    out = []
    for index, rule_set in enumerate(engine.rule_sets()):
        body, summary = entry(rule_set, SEED + 2 * index + int(correction))
        what = "A corrected" if correction else "A"
        out.append(
            OpenApiExample(
                f"{what} {rule_set.name} deal", summary=summary, value=body, request_only=True
            )
        )
    return out


def _turn(state: engine.HandState, rule_set: AnyRuleSet) -> str | None:
    """The first seat, in seat order, that the hand waits for (``None``: over)."""
    waiting = rule_set.waiting_for(state)
    return next((seat for seat in state.seats if seat in waiting), None)


def _hosted_hand(rule_set: AnyRuleSet, seed: int) -> tuple[engine.HandState, random.Random]:
    """Hand 1 of the rule set's first hosted example table, the caller dealing, dealt from
    ``seed``: the state before its first action and the random numbers that go on."""
    body = hosted_table(rule_set, example_rules(rule_set)[0])
    keys = [seat["key"] for seat in body["seats"]]
    rules = rule_set.parse_rules(body["rules"])
    dealer = keys[0]
    rng = random.Random(seed)
    deal = rule_set.random_deal(keys, dealer, rng)
    common = {
        "rules": rules.to_json(),
        "seats": keys,
        "dealer": dealer,
        **_opening_carry(rule_set, rules, keys),
    }
    return engine.replay({**common, "deal": deal, "actions": []}), rng


def _is_card(action: dict[str, Any], rule_set: AnyRuleSet) -> bool:
    """Whether an action's value is one card of the rule set's deck."""
    return any(rule_set.is_card(v) for v in action.values())


def actions(rule_set: AnyRuleSet, seed: int) -> list[tuple[dict[str, Any], int]]:
    """Two actions of a hosted hand (:func:`_hosted_hand`) with the hand's version before
    each: the first legal action of the first seat the hand waits for, and the first card
    played once play begins (the random bot acting in between); the second is missing where
    the random hand ends without a card played."""
    state, rng = _hosted_hand(rule_set, seed)
    found: list[tuple[dict[str, Any], int]] = []
    while not state.is_over:
        seat = _turn(state, rule_set)
        if seat is None:
            break
        shown = [
            rule_set.action_to_json(a, seat=False) for a in rule_set.legal_actions(state, seat)
        ]
        version = len(state.history)
        if not found and shown:
            found.append((shown[0], version))
        card = next((a for a in shown if _is_card(a, rule_set)), None)
        if card is not None:
            found.append((card, version))
            break
        state = engine.apply(state, random_bot.choose(state, rng))
    return found


def action_examples() -> list[OpenApiExample]:
    """The request examples of ``POST …/hands/{number}/actions/``: per offered rule set the
    actions of :func:`actions`, each shown once, and each action form (a key and what its
    value may be) once: an action or a form several rule sets share is shown by the first."""
    out = []
    shown: set[str] = set()
    for index, rule_set in enumerate(engine.rule_sets()):
        forms = {form.key: json.dumps(form.schema, sort_keys=True) for form in rule_set.vocabulary}
        for action, version in actions(rule_set, SEED + index):
            (key,) = action
            said = (json.dumps(action, sort_keys=True), f"{key} {forms.get(key)}")
            if shown.intersection(said):
                continue
            shown.update(said)
            out.append(
                OpenApiExample(
                    f"A {rule_set.name} {key}",
                    value={"action": action, "expected_version": version},
                    request_only=True,
                )
            )
    return out


def hand_view() -> dict[str, Any]:
    """``GET …/hands/{number}/`` at a hosted table of the first offered rule set on the
    caller's turn: the engine's view of the caller's seat (``RuleSet.view``) in the answer's
    envelope (mode, variant, number, status, version), the other seats having acted as the
    random bot does."""
    rule_set = engine.rule_sets()[0]
    state, rng = _hosted_hand(rule_set, SEED)
    caller = PLAYERS[0]
    while not state.is_over:
        seat = _turn(state, rule_set)
        if seat is None or seat == caller:
            break
        action = random_bot.choose_for(state, seat, rng)
        if action is None:
            break
        state = engine.apply(state, action)
    return {
        "mode": Table.Mode.HOSTED.value,
        "variant": rule_set.name,
        "number": 1,
        "status": Hand.Status.PLAYING.value,
        **rule_set.view(state, caller),
        "version": len(state.history),
    }


def hand_view_example() -> OpenApiExample:
    """:func:`hand_view` as a response example."""
    body = hand_view()
    return OpenApiExample(
        "Your turn",
        summary=f"{body['variant']}: the caller's seat sees its own cards and the others' counts",
        response_only=True,
        status_codes=["200"],
        value=body,
    )


def sheet() -> dict[str, Any]:
    """``GET …/sheet/`` of the recorded example table of the first offered rule set after two
    hands (:func:`recorded_hands`), as ``games.api.sheet`` writes it."""
    rule_set = engine.rule_sets()[0]
    body = recorded_table(rule_set)
    settled = [
        (
            hand.number,
            Hand.Status.DONE.value,
            hand.dealer,
            engine.settle(engine.sheet_entry(hand.state)),
        )
        for hand in recorded_hands(rule_set, 2, SEED)
    ]
    seats = [(seat["key"], seat.get("guest_name") or seat["key"].title()) for seat in body["seats"]]
    return sheet_of(rule_set, seats, 0, settled)


def sheet_example() -> OpenApiExample:
    """:func:`sheet` as a response example."""
    return OpenApiExample(
        "Two hands",
        response_only=True,
        status_codes=["200"],
        media_type="application/json",
        value=sheet(),
    )


def scored_rule_set() -> AnyRuleSet | None:
    """The first offered rule set that scores a sitting in a unit of its own
    (``RuleSet.score_unit``), for the examples of standings ranked by score."""
    return next((rs for rs in engine.rule_sets() if rs.score_unit is not None), None)
