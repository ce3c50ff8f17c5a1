"""A tournament of every registered rule set: seated at the rule set's table shapes, played by
recording score-sheet entries the engine's random bot writes, closed, finished and ranked by
the money its ledger holds. Parametrised over ``engine.rule_sets()``."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

import engine
from games import services as games
from games.models import Hand, Seat, Table
from games.random_entries import random_entry
from games.services import COMMON_KEYS
from tests.openapi import schema_errors
from tests.rule_sets import every_rule_set
from tests.tournaments.setup import make_field, play, seat
from tournaments.models import Round, RoundTable

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]


def round_complete(table: Table) -> bool:
    """Whether the table has played its round: its deals (``play``), and where the rule set
    keeps rounds (the DDV's) also its Pflichtsoli and Vorführungen."""
    at = games.table_round(table, table.hands.count() + 1)
    return at is None or at.completed > 0


def table_amounts(rs: engine.RuleSet[Any, Any, Any], table: Table) -> dict[str, int]:
    """What each seat won at ``table``: the sum of its deltas; where the rule set scores a
    table's deals together (Preferans), the engine's settlement of them as one pulya."""
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    if rs.deal_scores:  # the DDV's game points, deal by deal
        points: dict[str, int] = {}
        for hand in hands:
            for key, score in hand.result["score"].items():
                points[key] = points.get(key, 0) + score
        return points
    if rs.score_unit is None:
        out: dict[str, int] = {}
        for hand in hands:
            for key, amount in hand.result["delta"].items():
                out[key] = out.get(key, 0) + amount
        return out
    seats = [s.key for s in Seat.objects.filter(table=table).order_by("position")]
    deals = [{k: v for k, v in h.entry.items() if k not in COMMON_KEYS} for h in hands]
    pulya = {"rules": table.rules, "seats": seats, "dealer": hands[0].dealer, "deals": deals}
    result: dict[str, int] = engine.settle(pulya)["settlement"]["result"]
    return result


@every_rule_set()
def test_a_tournament_of_each_rule_set_ranks_its_players_by_their_ledger(
    rs: engine.RuleSet[Any, Any, Any], settings: Any
) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    players = 7 if 3 in rs.table.seats else 8  # Doppelkopf: tables of four only
    deals = rs.round_deals or 12
    f = make_field(
        players, rules=rs.examples[0], rounds_planned=1, deals_per_round=deals, scoring="balance"
    )
    seat(f)
    rng = random.Random(5)
    play(f, 1, rng)
    for link in RoundTable.objects.filter(round__tournament=f.tournament):
        table = link.table  # a DDV round goes on with its Pflichtsoli until it is complete
        while not round_complete(table):
            games.table_record_hand(
                table_id=table.pk, user=f.director, entry=random_entry(table, rng)
            )
    f.post("rounds/1/close/")
    f.post("finish/")

    money: dict[int, int] = {}
    links = RoundTable.objects.filter(round=Round.objects.get(tournament=f.tournament, number=1))
    for link in links:
        table = link.table
        assert table.rules == engine.parse_rules(rs.examples[0]).to_json()
        assert table.seats.count() in rs.table.seats
        users = {s.key: s.user_id for s in Seat.objects.filter(table=table)}
        for key, amount in table_amounts(rs, table).items():
            money[users[key]] = money.get(users[key], 0) + amount
    standings = f.get("standings/")
    assert {row["user"]: Fraction(row["points"]) for row in standings["rows"]} == {
        user.pk: Fraction(money.get(user.pk, 0)) for user in f.players
    }
    points = [Fraction(row["points"]) for row in standings["rows"]]
    assert points == sorted(points, reverse=True)

    exported = f.get("export/hands.json")["hands"]
    assert len(exported) == Hand.objects.filter(table__round_link__in=links).count()
    assert not [e for h in exported for e in schema_errors("ExportedHand", h)]
    for row in exported:
        hand = Hand.objects.get(table_id=row["games_table"], number=row["hand"])
        assert {p["seat"]: p["amount"] for p in row["players"]} == hand.result["delta"]
    text = f.boss().get(f.url + "export/hands.csv").content.decode()
    assert len(text.splitlines()) == 1 + sum(len(h["players"]) for h in exported)
