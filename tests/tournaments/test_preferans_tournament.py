"""A tournament of Russian Preferans (issue 26): each round's table keeps a pulya of the round's
deals, and a player's amount there is its whists once the pulya is settled (§11), not the sum
of the deals (which move no money). Balance and table-rank scoring apply; duplicate does not
(a pulya is scored as a whole, a deal alone has no result to compare), and playing for money
needs a whist price."""

from __future__ import annotations

import csv
import io
import random
from fractions import Fraction
from typing import Any

import pytest

import engine
from clubs.models import User
from games.models import Hand, Seat
from games.services import COMMON_KEYS
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.openapi import schema_errors
from tests.tournaments.setup import make_field, play, seat
from tournaments.models import Round, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

RULES = {"variant": "preferans", "convention": "leningrad", "pool_target": 30}


def whists_of_round(number: int, t: Tournament) -> dict[int, int]:
    """Each user's whists over the round's tables by the engine's settlement of each table's
    deals as one pulya record."""
    out: dict[int, int] = {}
    for link in RoundTable.objects.filter(round=Round.objects.get(tournament=t, number=number)):
        table = link.table
        seats = list(Seat.objects.filter(table=table).order_by("position"))
        hands = list(Hand.objects.filter(table=table).order_by("number"))
        deals = [{k: v for k, v in h.entry.items() if k not in COMMON_KEYS} for h in hands]
        pulya = engine.settle(
            {
                "rules": table.rules,
                "seats": [s.key for s in seats],
                "dealer": hands[0].dealer,
                "deals": deals,
            }
        )
        for s in seats:
            out[s.user_id] = out.get(s.user_id, 0) + pulya["settlement"]["result"][s.key]
    return out


@pytest.mark.parametrize("scoring", ["balance", "table_rank"])
def test_a_preferans_tournament_ranks_by_each_tables_whists(scoring: str, settings: Any) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, rules=RULES, rounds_planned=2, deals_per_round=6, scoring=scoring)
    rng = random.Random(11)
    whists: dict[int, int] = {}
    for number in (1, 2):
        seat(f)
        play(f, number, rng)
        f.post(f"rounds/{number}/close/")
        for user, amount in whists_of_round(number, f.tournament).items():
            whists[user] = whists.get(user, 0) + amount
    assert sum(whists.values()) == 0 and any(whists.values())
    f.post("finish/")
    standings = f.get("standings/")
    assert standings["unit"] == "whists"
    points = {row["user"]: Fraction(row["points"]) for row in standings["rows"]}
    if scoring == "balance":
        assert points == {user: Fraction(w) for user, w in whists.items()}
    else:  # 3/2/1 per table by whists: six points per table, two tables per round
        assert sum(points.values()) == 2 * 2 * 6
    ranked = [Fraction(row["points"]) for row in standings["rows"]]
    assert ranked == sorted(ranked, reverse=True)
    me = f.get("me/", user=f.players[0])
    assert sum(r["amount"] for r in me["rounds"]) == whists[f.players[0].pk]


def create(body: dict[str, Any]) -> Any:
    director: User = UserFactory.create(username="director")
    base = {"name": "Пуля-турнир", "rounds_planned": 2, "deals_per_round": 6}
    return client_for(director).post("/api/v1/tournaments/", {**base, **body}, format="json")


def test_duplicate_scoring_is_refused_for_preferans_with_the_modes_that_apply() -> None:
    answer = create({"rules": RULES, "scoring": "duplicate"})
    assert answer.status_code == 400
    assert "choose balance or table_rank" in answer.json()["message"]
    assert not Tournament.objects.exists()


def test_money_needs_a_whist_price() -> None:
    refused = create({"rules": RULES, "real_money": True})
    assert refused.status_code == 400
    assert "whist_value" in refused.json()["message"]
    accepted = create({"rules": {**RULES, "whist_value": 5}, "real_money": True})
    assert accepted.status_code == 201, accepted.json()


def test_the_standings_exports_of_a_preferans_tournament_count_whists(settings: Any) -> None:
    """``export/standings.json`` is the standings in whists (``unit``); ``standings.csv`` has
    the same points and a last column ``unit`` saying so. The hands exports list every deal
    with ``amount`` 0: a deal moves no money, the round's pulya is settled as a whole."""
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, rules=RULES, rounds_planned=1, deals_per_round=6, scoring="balance")
    seat(f)
    play(f, 1, random.Random(7))
    f.post("rounds/1/close/")
    whists = whists_of_round(1, f.tournament)
    assert sum(whists.values()) == 0 and any(whists.values())
    f.post("finish/")
    anon = client_for(None)

    answer = anon.get(f.url + "export/standings.json")
    assert answer.status_code == 200
    assert answer["Content-Disposition"].endswith('-standings.json"')
    exported = answer.json()
    assert exported == anon.get(f.url + "standings/").json()  # read as the public reads it
    assert exported["unit"] == "whists" and exported["final"] is True
    assert not schema_errors("TournamentStandings", exported)
    assert {r["user"]: Fraction(r["points"]) for r in exported["rows"]} == whists
    user_of = {r["entry"]: r["user"] for r in exported["rows"]}

    answer = anon.get(f.url + "export/standings.csv")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    text = answer.content.decode()
    assert text.splitlines()[0] == (
        "position,rank,entry,name,points,rounds,declarer_wins,lots,movement,prize,pending,unit"
    )
    table = list(csv.DictReader(io.StringIO(text)))
    assert [int(r["entry"]) for r in table] == [r["entry"] for r in exported["rows"]]
    assert [r["points"] for r in table] == [r["points"] for r in exported["rows"]]
    assert {user_of[int(r["entry"])]: int(r["points"]) for r in table} == whists
    assert {r["unit"] for r in table} == {"whists"}

    # the director reads the seat keys as the tables keep them (the public reads `p-<code>`
    # where a player's name is hidden: docs/tournaments.md)
    hands = f.boss().get(f.url + "export/hands.json").json()["hands"]
    recorded = Hand.objects.filter(table__in=[t.table for t in RoundTable.objects.all()])
    assert len(hands) == recorded.count() == 2 * 6
    assert not [e for h in hands for e in schema_errors("ExportedHand", h)]
    for h in hands:
        hand = recorded.get(table_id=h["games_table"], number=h["hand"])
        assert h["game"] == hand.result["game"]["type"]
        assert h["declarer"] == hand.result["declarer"]
        assert [p["amount"] for p in h["players"]] == [0, 0, 0]  # points, not money
    rows = list(csv.DictReader(io.StringIO(anon.get(f.url + "export/hands.csv").content.decode())))
    assert len(rows) == 2 * 6 * 3 and {r["amount"] for r in rows} == {"0"}
