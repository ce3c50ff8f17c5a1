"""``trickgame`` through the API: a recorded table, a hosted table with bots in the empty
seats, a club evening and a duplicate tournament round. Nothing here or in the apps names
the game: what it needs the apps ask of its rule set (``tests/trickgame``), registered by the
test settings alone.

The generic checks over every offered rule set pick it up too, unchanged:
``tests/games/test_every_rule_set.py``, ``tests/clubs/test_every_rule_set.py``,
``tests/tournaments/test_every_rule_set.py`` and ``tests/engine/test_conformance.py``.
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from clubs.models import Season, User
from games.models import Hand, Table
from tests.clubs.evening_setup import an_evening_of, record
from tests.clubs.test_seasons import stored
from tests.clubs.world import build_club_world
from tests.factories import UserFactory
from tests.openapi import schema_errors
from tests.tournaments.setup import make_field, play, seat
from tests.trickgame import RULE_SET
from tests.trickgame.rules import EXAMPLES
from tournaments.models import Board, RoundSeat, RoundTable
from tournaments.scoring import points_text

RULES = EXAMPLES[0]


def signed_in(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def open_table(client: APIClient, mode: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    body = {"name": "Test game", "mode": mode, "rules": RULES, "seats": seats}
    answer = client.post("/api/v1/tables/", {**body, "first_dealer": "dora"}, format="json")
    assert answer.status_code == 201, answer.json()
    table: dict[str, Any] = answer.json()
    return table


@pytest.mark.django_db
def test_the_rules_listing_offers_the_game_with_its_options() -> None:
    listed = APIClient().get("/api/v1/rules/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    (row,) = [r for r in rows if r["variant"] == "trickgame"]
    assert [o["name"] for o in row["options"]] == ["trick_value", "nil_bonus", "lead"]


@pytest.mark.django_db
def test_a_recorded_table_takes_entries_and_keeps_the_ledger_and_the_sheet() -> None:
    anna = UserFactory.create(username="anna")
    client = signed_in(anna)
    guests = [{"key": k, "kind": "guest", "guest_name": k.capitalize()} for k in ("bert", "carl")]
    seats = [{"key": "anna", "kind": "user", "user": "anna"}, *guests]
    table = open_table(
        client, "recorded", [*seats, {"key": "dora", "kind": "guest", "guest_name": "Dora"}]
    )
    url = f"/api/v1/tables/{table['id']}/"
    entries = [  # dora deals first, so anna is forehand; then anna deals
        {"bids": {"anna": 0, "bert": 2, "carl": 1, "dora": 2},
         "taken": {"anna": 0, "bert": 2, "carl": 2, "dora": 0}},
        {"bids": {"bert": 4, "carl": 0, "dora": 1, "anna": 0},
         "taken": {"bert": 4, "carl": 0, "dora": 0, "anna": 0}},
    ]  # fmt: skip
    results = []
    for entry in entries:
        answer = client.post(url + "hands/", entry, format="json")
        assert answer.status_code == 201, answer.json()
        results.append(answer.json()["result"])
    assert results[0]["exact"] == ["anna", "bert"] and results[0]["bids"] == entries[0]["bids"]
    assert results[1]["game"] == {"type": "sweep"} and results[1]["declarer"] == "bert"

    ledger = client.get(url + "ledger/").json()
    rows = ledger["results"] if isinstance(ledger, dict) else ledger
    assert {row["reason"] for row in rows} == {"exact", "nil"}
    assert sum(r["amount"] for r in rows if r["payee"] == "anna") == 10 + 10 + 60 + 10 + 60

    sheet = client.get(url + "sheet/")
    assert sheet.status_code == 200, sheet.content[:300]
    assert not schema_errors("ScoreSheet", sheet.json())
    for row, result in zip(sheet.json()["rows"], results, strict=True):
        own = RULE_SET.sheet_row(result)
        assert own is not None
        assert own in row.values() or all(row.get(k) == v for k, v in own.items()), row
    text = client.get(url + "sheet.csv").content.decode()
    assert "contest 2" in text and "sweep" in text


@pytest.mark.django_db
def test_a_hosted_table_with_heuristic_bots_in_three_seats_plays_a_hand(
    eager_tasks: None, django_capture_on_commit_callbacks: Any
) -> None:
    anna = UserFactory.create(username="anna")
    client = signed_in(anna)
    bots = [{"key": k, "kind": "bot", "bot_level": "heuristic"} for k in ("bert", "carl", "dora")]
    table = open_table(client, "hosted", [{"key": "anna", "kind": "user", "user": "anna"}, *bots])
    hand = f"/api/v1/tables/{table['id']}/hands/1/"
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"/api/v1/tables/{table['id']}/hands/").status_code == 201
    rng = random.Random(2)
    for _ in range(10):
        view = client.get(hand + "view/").json()
        assert not schema_errors("HandView", view)
        if "legal" not in view:
            break
        assert len(view["hand"]) <= 4 and set(view["bids"]) <= {"anna", "bert", "carl", "dora"}
        with django_capture_on_commit_callbacks(execute=True):
            move = client.post(
                hand + "actions/", {"action": rng.choice(view["legal"])}, format="json"
            )
        assert move.status_code == 200, move.json()
    stored_hand = Hand.objects.get(table_id=table["id"], number=1)
    assert stored_hand.status == Hand.Status.DONE
    body = client.get(hand + "record/").json()
    assert engine.verify(body["record"])["verified"] is True
    assert set(body["result"]["exact"]) <= {"anna", "bert", "carl", "dora"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_tasks")
def test_a_club_evening_counts_the_games_the_rule_set_names_in_the_season() -> None:
    w = build_club_world()
    tables = an_evening_of(w, RULES)
    assert [t.seats.count() for t in tables] == [4, 4]
    rng = random.Random(4)
    for table in tables:
        record(w, table, 6, rng)
    expected: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for table in tables:
        players = {
            s.key: f"u:{s.user_id}" if s.user_id else f"g:{s.guest_id}" for s in table.seats.all()
        }
        for hand in Hand.objects.filter(table=Table.objects.get(pk=table.pk)):
            counted = RULE_SET.statistics(hand.result or {})
            if counted["declarer"] is not None:
                tally = expected[players[counted["declarer"]]]
                tally[0] += 1
                tally[1] += bool(counted["made"])
                tally[2] += bool(counted["premium"])
    rows = stored(Season.objects.get(pk=w.extra["season"]).pk)
    assert {
        r["player"]: [r["declared"], r["made"], r["premium_games"]] for r in rows if r["declared"]
    } == dict(expected)


def matchpoints(tournament_id: int) -> dict[int, Fraction]:
    """Each entry's mean matchpoint percentage, computed here: per board and position (the
    rule set's ``positions``), 2 per player beaten and 1 per tie, over 2 per comparison."""
    results: dict[tuple[int, str], list[tuple[int, int]]] = defaultdict(list)
    for link in RoundTable.objects.filter(round__tournament_id=tournament_id):
        seats = RoundSeat.objects.filter(round_table=link).order_by("position")
        entry = {s.seat: s.entry_id for s in seats}
        keys = [s.seat for s in seats]
        for hand in Hand.objects.filter(table_id=link.table_id, status="done"):
            active = RULE_SET.active_seats(keys, hand.dealer)
            for position, key in zip(RULE_SET.positions, active, strict=True):
                results[(hand.number, position)].append(
                    (entry[key], (hand.result or {})["delta"][key])
                )
    percents: dict[int, list[Fraction]] = defaultdict(list)
    for group in results.values():
        for player, amount in group:
            others = [a for p, a in group if p != player]
            beaten = sum(2 if amount > a else 1 if amount == a else 0 for a in others)
            percents[player].append(Fraction(beaten * 100, 2 * len(others)))
    return {p: sum(v, Fraction(0)) / len(v) for p, v in percents.items()}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_tasks")
def test_a_duplicate_round_compares_each_position_on_the_same_boards(settings: Any) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(8, rules=RULES, scoring="duplicate", deals_per_round=4, rounds_planned=1)
    seat(f)
    assert RoundTable.objects.filter(round__tournament_id=f.tournament_id).count() == 2
    assert Board.objects.filter(round__tournament_id=f.tournament_id).count() == 4
    play(f, 1, random.Random(8))
    f.post("rounds/1/close/")
    rows = f.get("standings/")["rows"]
    assert {r["entry"]: r["points"] for r in rows} == {
        p: points_text(v) for p, v in matchpoints(f.tournament_id).items()
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_tasks")
def test_hosted_duplicate_tables_deal_the_same_cards_to_the_same_position() -> None:
    f = make_field(
        8, rules=RULES, scoring="duplicate", results="hosted", deals_per_round=4, rounds_planned=1
    )
    seat(f)
    held = []
    for link in RoundTable.objects.filter(round__tournament_id=f.tournament_id):
        seats = list(RoundSeat.objects.filter(round_table=link).order_by("position"))
        client = f.api(seats[0].entry.user)
        assert client.post(f"/api/v1/tables/{link.table_id}/hands/").status_code == 201
        hand = Hand.objects.get(table_id=link.table_id, number=1)
        active = RULE_SET.active_seats([s.seat for s in seats], hand.dealer)
        cards = {}
        for position, key in zip(RULE_SET.positions, active, strict=True):
            owner = next(s.entry.user for s in seats if s.seat == key)
            view = f.api(owner).get(f"/api/v1/tables/{link.table_id}/hands/1/view/").json()
            cards[position] = sorted(view["hand"])
        held.append(cards)
    assert held[0] == held[1]
