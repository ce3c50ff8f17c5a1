"""A seat that plays another seat's hand: Preferans's lone whister in open play sends the
passer's cards (``spec/next/preferans.md`` §6.3). The turn check asks the rule set who may send
an action about which hand (``RuleSet.sender``); every other rule set answers "each seat for
itself", which ``test_hosted_hands.py`` and ``test_every_rule_set.py`` keep checking.

The last tests hold the gate for a rule set registered for the engine only (Doppelkopf today;
``tests/preview.py`` registers a copy of kurz so, to keep the tests independent of which):
tables, evenings and tournaments may choose it only with ``settings.PREVIEW_RULE_SETS``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from clubs.models import User
from clubs.services.evenings import rules_json
from clubs.services.people import parse_default_rules
from config.api.errors import InvalidInput
from games import services
from games.errors import NotYourTurn
from games.models import Hand, LedgerEntry, Table
from tests import preview
from tests.preview import engine_only
from tournaments.services.tournaments import _checked as tournament_checked

pytestmark = pytest.mark.django_db

__all__ = ["engine_only"]  # the fixture

PREFERANS = {"variant": "preferans", "convention": "sochi", "pool_target": 10}


def preferans_table(
    make_table: Callable[..., Table], rules: dict[str, Any] = PREFERANS, **options: Any
) -> Table:
    """A hosted table of anna, bert and carl (carl deals first) playing Preferans."""
    return make_table(mode=Table.Mode.HOSTED, rules=rules, **options)


def state_of(table: Table) -> Any:
    hand = Hand.objects.get(table=table, number=1)
    return services.hand_state(table, hand)


def act(table: Table, user: User, action: dict[str, Any]) -> Hand:
    return services.hand_apply_action(table_id=table.pk, number=1, user=user, action=action)


def open_play(
    make_table: Callable[..., Table], anna: User, bert: User, carl: User
) -> tuple[Table, dict[str, User]]:
    """A hosted Preferans hand (carl deals: anna is first hand) brought to open play: anna
    wins with 6♠ and leads, bert (first defender) whists alone and plays open, carl passes;
    then anna leads a card and bert plays one of his own. Carl's card is due."""
    table = preferans_table(make_table)
    users = {"anna": anna, "bert": bert, "carl": carl}
    services.hand_start(table_id=table.pk, user=anna)
    act(table, anna, {"call": "6S"})
    act(table, bert, {"call": "pass"})
    act(table, carl, {"call": "pass"})
    kept = engine.view(state_of(table), "anna")["hand"]
    act(table, anna, {"discard": kept[:2]})
    act(table, anna, {"declare": {"type": "contract", "level": 6, "strain": "S"}})
    act(table, bert, {"whist": "whist"})
    act(table, carl, {"whist": "pass"})
    act(table, bert, {"mode": "open"})
    for seat in ("anna", "bert"):
        legal = engine.view(state_of(table), seat)["legal"]
        act(table, users[seat], {"card": legal[0]["card"]})
    return table, users


def test_the_whister_sends_the_passers_card_in_open_play(
    make_table: Callable[..., Table], anna: User, bert: User, carl: User
) -> None:
    table, _ = open_play(make_table, anna, bert, carl)
    state = state_of(table)
    assert engine.to_act(state) == {"bert"}
    card = engine.view(state, "bert")["legal"][0]
    assert card["seat"] == "carl"
    hand = act(table, bert, {"seat": "carl", "card": card["card"]})
    assert hand.actions[-1] == {"seat": "carl", "card": card["card"]}


def test_an_action_without_a_seat_is_about_the_hand_its_sender_plays(
    make_table: Callable[..., Table], anna: User, bert: User, carl: User
) -> None:
    table, _ = open_play(make_table, anna, bert, carl)
    card = engine.view(state_of(table), "bert")["legal"][0]["card"]
    hand = act(table, bert, {"card": card})
    assert hand.actions[-1] == {"seat": "carl", "card": card}


def test_the_passer_may_not_play_his_own_open_hand(
    make_table: Callable[..., Table], anna: User, bert: User, carl: User
) -> None:
    table, _ = open_play(make_table, anna, bert, carl)
    card = engine.view(state_of(table), "bert")["legal"][0]["card"]
    with pytest.raises(NotYourTurn, match="It is bert's turn, not carl's"):
        act(table, carl, {"card": card})


def test_nobody_else_may_send_the_passers_card(
    make_table: Callable[..., Table], anna: User, bert: User, carl: User
) -> None:
    table, _ = open_play(make_table, anna, bert, carl)
    card = engine.view(state_of(table), "bert")["legal"][0]["card"]
    with pytest.raises(NotYourTurn):
        act(table, anna, {"seat": "carl", "card": card})


def test_a_seat_cannot_act_for_a_hand_its_rule_set_does_not_give_it(
    make_table: Callable[..., Table], anna: User, bert: User
) -> None:
    """Wien: each seat plays its own hand (the rule set's default ``sender``)."""
    table = make_table(mode=Table.Mode.HOSTED)
    services.hand_start(table_id=table.pk, user=anna)
    with pytest.raises(NotYourTurn, match="You sit at anna and cannot act for bert"):
        act(table, anna, {"seat": "bert", "call": "pass"})


def test_a_preferans_hand_played_to_its_end_scores_points_and_writes_no_money(
    make_table: Callable[..., Table], anna: User, bert: User, carl: User
) -> None:
    """The whister plays both defending hands to the last trick; the deal is scored on the
    sheet (points), and money waits for the close of the pulya (no ledger rows)."""
    table, users = open_play(make_table, anna, bert, carl)
    rng = random.Random(7)
    hand = Hand.objects.get(table=table, number=1)
    while hand.status == Hand.Status.PLAYING:
        state = state_of(table)
        (sender,) = engine.to_act(state)
        move = rng.choice(engine.view(state, sender)["legal"])
        hand = act(table, users[sender], move)
    assert hand.result["declarer"] == "anna"
    assert sum(hand.result["tricks"].values()) == 10
    assert hand.result["entry"]["pool"]["anna"] in (0, 2)  # 6♠ made: 2 pool points
    assert not LedgerEntry.objects.filter(table=table).exists()


def test_a_bot_whister_sends_the_passers_card(
    make_table: Callable[..., Table], anna: User, carl: User
) -> None:
    """bert is a bot. anna bids 10NT (jumps allowed), so bert may only pass; carl passes. bert,
    the first defender, whists and plays open (seed 4 draws those two of the random bot's
    choices, which do not depend on the cards); carl passes. When carl's card is due, the bot
    sends it."""
    table = preferans_table(make_table, {**PREFERANS, "bid_jumps": True}, kinds={"bert": "bot"})
    users = {"anna": anna, "carl": carl}
    services.hand_start(table_id=table.pk, user=anna)
    rng = random.Random(4)

    def bot() -> Hand:
        hand = Hand.objects.get(table=table, number=1)
        moved = services.hand_bot_move(
            hand_id=hand.pk, version=hand.version, rng=rng, schedule=False
        )
        assert moved is not None, "the bot was to act and did not"
        return moved

    act(table, anna, {"call": "10NT"})
    assert bot().actions[-1] == {"seat": "bert", "call": "pass"}
    act(table, carl, {"call": "pass"})
    act(table, anna, {"discard": engine.view(state_of(table), "anna")["hand"][:2]})
    act(table, anna, {"declare": {"type": "contract", "level": 10, "strain": "NT"}})
    assert bot().actions[-1] == {"seat": "bert", "whist": "whist"}
    act(table, carl, {"whist": "pass"})
    assert bot().actions[-1] == {"seat": "bert", "mode": "open"}
    act(table, users["anna"], {"card": engine.view(state_of(table), "anna")["legal"][0]["card"]})
    assert bot().actions[-1]["seat"] == "bert"
    assert engine.to_act(state_of(table)) == {"bert"}
    sent = bot().actions[-1]
    assert sent["seat"] == "carl" and "card" in sent


def table_body(anna: User, rules: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": "Пуля",
        "mode": "hosted",
        "rules": rules,
        "seats": [
            {"key": "anna", "kind": "user", "user": anna.pk},
            {"key": "bert", "kind": "bot", "bot_level": "random"},
            {"key": "carl", "kind": "bot", "bot_level": "random"},
        ],
    }


CHOOSING_RULES = pytest.mark.parametrize(
    "choose",
    [
        lambda rules: parse_default_rules(rules),
        lambda rules: rules_json(rules),
        lambda rules: tournament_checked({"rules": rules}),
    ],
    ids=["club default", "evening", "tournament"],
)
"""Where rules are chosen besides a table: a club's default, an evening, a tournament."""


def test_without_the_preview_no_table_may_choose_an_engine_only_rule_set(
    client_for: Callable[[User], APIClient], anna: User, engine_only: engine.RuleSet[Any, Any, Any]
) -> None:
    """Refused in the words of an unknown variant, which do not name it."""
    client = client_for(anna)
    rules = {"variant": preview.NAME}
    refused = client.post("/api/v1/tables/", table_body(anna, rules), format="json")
    nonesuch = table_body(anna, {"variant": "nonesuch"})
    unknown = client.post("/api/v1/tables/", nonesuch, format="json")
    assert refused.status_code == unknown.status_code == 400
    named = json.dumps(unknown.json()).replace("nonesuch", preview.NAME)
    assert refused.json() == json.loads(named)
    assert preview.NAME not in unknown.json()["message"].replace("nonesuch", "")
    assert not Table.objects.exists()


def test_with_the_preview_a_table_may_choose_an_engine_only_rule_set(
    client_for: Callable[[User], APIClient],
    anna: User,
    engine_only: engine.RuleSet[Any, Any, Any],
    settings: Any,
) -> None:
    settings.PREVIEW_RULE_SETS = True
    rules = {"variant": preview.NAME}
    made = client_for(anna).post("/api/v1/tables/", table_body(anna, rules), format="json")
    assert made.status_code == 201, made.json()
    assert Table.objects.get().rules["variant"] == preview.NAME


@CHOOSING_RULES
def test_without_the_preview_no_club_evening_or_tournament_may_choose_an_engine_only_rule_set(
    choose: Callable[[dict[str, Any]], Any], engine_only: engine.RuleSet[Any, Any, Any]
) -> None:
    with pytest.raises(InvalidInput, match=f"(?i)unknown variant '{preview.NAME}'"):
        choose({"variant": preview.NAME})


@CHOOSING_RULES
def test_preferans_is_offered_to_tables_clubs_evenings_and_tournaments(
    choose: Callable[[dict[str, Any]], Any],
) -> None:
    assert "preferans" in {rs.name for rs in engine.rule_sets()}
    choose(PREFERANS)  # accepted
