"""A club evening of Russian Preferans (issue 26): two tables of three keep a pulya each; the
season standings rank the players by whists (each pulya settled, §11, as it stands), the
evening's settlement shows the whists beside the money, and closing the evening settles each
pulya into money at its whist price through the ledger. The whists are checked against the
engine's own settlement of the same deals as one pulya record (``python -m engine settle``)."""

from __future__ import annotations

import csv
import io
import random
from typing import Any

import pytest

import engine
from clubs.models import Club, EveningTable, Guest, Season
from clubs.services import rounds
from games import services as games
from games.models import LedgerEntry, Table
from games.random_entries import random_entry
from games.services import dealer_for, seat_keys
from tests.clubs.evening_setup import a_season, an_evening_of, check_in
from tests.clubs.world import ClubWorld, build_club_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

WHIST_VALUE = 10
RULES = {
    "variant": "preferans",
    "convention": "sochi",
    "pool_target": 20,
    "whist_value": WHIST_VALUE,
}
DEALS = 6


def player_of(seat: Any) -> str:
    return f"u:{seat.user_id}" if seat.user_id else f"g:{seat.guest_id}"


def play_evening(w: ClubWorld) -> tuple[list[Table], dict[str, int]]:
    """Seat six players at two Preferans tables and record ``DEALS`` random deals at each; the
    whists each player's pulya settles into, by the engine's settlement of the same deals."""
    tables = an_evening_of(w, RULES)
    owner = w.users["owner"]
    assert [t.seats.count() for t in tables] == [3, 3]
    rng = random.Random(26)
    whists: dict[str, int] = {}
    for table in tables:
        entries = []
        for _ in range(DEALS):
            entry = random_entry(table, rng)
            games.table_record_hand(table_id=table.pk, user=owner, entry=entry)
            entries.append(entry)
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        first = table.hands.get(number=1)
        pulya = engine.settle(
            {
                "rules": table.rules,
                "seats": [s.key for s in seats],
                "dealer": first.dealer,
                "deals": entries,
            }
        )
        assert not pulya["game_over"]
        for seat in seats:
            whists[player_of(seat)] = pulya["settlement"]["result"][seat.key]
    return tables, whists


def test_a_preferans_evening_ranks_by_whists_and_settles_each_pulya_into_money() -> None:
    w = build_club_world()
    tables, whists = play_evening(w)
    assert sum(whists.values()) == 0
    assert any(whists.values()), "six random deals should move some whists"
    season = Season.objects.get(pk=w.extra["season"])
    standings_url = f"/api/v1/clubs/{w.club.pk}/seasons/{season.pk}/standings/"
    evening_url = f"/api/v1/clubs/{w.club.pk}/evenings/{w.evening.pk}/"

    # while the tables are open: whists as the pulyas stand, no money has moved
    answer = w.client("member").get(standings_url).json()
    assert answer["ranked_by"] == "score"
    assert answer["score_unit"] == "whists"
    rows = answer["rows"]
    assert {r["player"]: r["score"] for r in rows} == whists
    assert {r["balance"] for r in rows} == {0}
    assert [r["score"] for r in rows] == sorted(whists.values(), reverse=True)
    assert all(r["hands_played"] == DEALS for r in rows)
    assert sum(r["declared"] for r in rows) <= 2 * DEALS
    provisional = w.client("member").get(evening_url + "settlement/").json()
    assert provisional["score_unit"] == "whists"
    assert {p["player"]: p["score"] for p in provisional["players"]} == whists
    assert provisional["payments"] == []

    # closing the evening closes each table: each pulya is paid at its whist price
    closed = w.client("admin").post(evening_url + "close/")
    assert closed.status_code == 200, closed.json()
    settlement = closed.json()
    nets = {p["player"]: p["net"] for p in settlement["players"]}
    assert nets == {p: v * WHIST_VALUE for p, v in whists.items()}
    assert {p["player"]: p["score"] for p in settlement["players"]} == whists
    assert settlement["pot_net"] == 0
    paid: dict[str, int] = dict.fromkeys(nets, 0)
    names = {p["player"]: p["name"] for p in settlement["players"]}
    by_name = {v: k for k, v in names.items()}
    for payment in settlement["payments"]:
        paid[by_name[payment["from_name"]]] -= payment["amount"]
        paid[by_name[payment["to_name"]]] += payment["amount"]
    assert paid == nets
    for table in tables:
        score_rows = LedgerEntry.objects.filter(table=table, reason="score")
        assert sum(e.amount for e in score_rows) == sum(
            max(0, whists[player_of(s)]) * WHIST_VALUE for s in table.seats.all()
        )
        closing = Table.objects.get(pk=table.pk).closing
        assert closing["score_unit"] == "whists"
        assert closing["scores"] == {s.key: whists[player_of(s)] for s in table.seats.all()}

    # the season after the close: still ranked by whists, the money beside them
    after = w.client("member").get(standings_url).json()
    assert {r["player"]: (r["score"], r["balance"]) for r in after["rows"]} == {
        p: (v, v * WHIST_VALUE) for p, v in whists.items()
    }


def test_the_evenings_settlement_csv_has_a_whists_column() -> None:
    w = build_club_world()
    _, whists = play_evening(w)
    url = f"/api/v1/clubs/{w.club.pk}/evenings/{w.evening.pk}/settlement.csv"
    rows = list(csv.reader(io.StringIO(w.client("member").get(url).content.decode())))
    header = rows.index(["player", "net", "whists"])
    players = rows[header + 1 :]
    assert len(players) == len(whists)
    assert sorted(int(row[2]) for row in players) == sorted(whists.values())


def seven_at_a_three_and_a_four(w: ClubWorld) -> tuple[Table, Table]:
    """The four members and three guests checked in, one round seated and started: a table
    of three and a table of four (its dealer sits out each deal, §1)."""
    Club.objects.filter(pk=w.club.pk).update(default_rules=RULES)
    a_season(w)
    guests = [Guest.objects.create(club=w.club, name=n) for n in ("Gustav", "Helga", "Ida")]
    check_in(w.evening, *(w.users[r] for r in ("member", "scorer", "admin", "owner")), *guests)
    owner = w.users["owner"]
    rounds.round_plan(user=owner, evening_id=w.evening.pk, rounds_total=1, seed=1)
    rounds.round_start(user=owner, evening_id=w.evening.pk, number=1)
    tables = sorted(
        (link.table for link in EveningTable.objects.filter(evening=w.evening)),
        key=lambda t: t.seats.count(),
    )
    assert [t.seats.count() for t in tables] == [3, 4]
    return tables[0], tables[1]


def four_table_deals(a: str, b: str, c: str, d: str) -> list[dict[str, Any]]:
    """Four deals at a table of four seated ``a b c d`` in playing order, ``a`` dealing first,
    so each seat deals (and sits out) once. Sochi, §14 (#1, #2, #12 and a misère):
    1. a deals; b makes 6♠, both whist, 6/2/2: P_b +2; c→b 4, d→b 4. a writes nothing.
    2. b deals; c plays 7♥ and falls by 2, both whist, c5 d3 a2: M_c +8; d→c 12+8, a→c 8+8,
       and b, sitting out, the consolation only: b→c 8 (``dealer_consolation``).
    3. c deals; raspasy, the talon leads, so c plays the talon's cards: d3 a2 b4 c1 at 1 a
       trick: M_d +3, M_a +2, M_b +4, M_c +1.
    4. d deals; a plays misère and takes no trick: P_a +10. d writes nothing."""
    return [
        {
            "game": {"type": "contract", "level": 6, "strain": "S"},
            "declarer": b,
            "defence": {c: "whist", d: "whist"},
            "tricks": {b: 6, c: 2, d: 2},
        },
        {
            "game": {"type": "contract", "level": 7, "strain": "H"},
            "declarer": c,
            "defence": {d: "whist", a: "whist"},
            "tricks": {c: 5, d: 3, a: 2},
        },
        {"game": {"type": "raspasy"}, "tricks": {d: 3, a: 2, b: 4, c: 1}},
        {"game": {"type": "misere"}, "declarer": a, "tricks": {a: 0, b: 5, c: 5}},
    ]


def test_a_table_of_four_scores_its_sitting_out_dealer_and_the_evening_counts_all_four() -> None:
    """Seven players: a table of three and one of four. At the four, each deal's dealer sits
    out: no tricks (but a talon-led raspasy's, §8.2), no pool or mountain, and of the whists
    only his consolation on a fallen contract (§9.4); and the settlement divides each
    mountain among all four seats (§11, the 10/n rule with n = 4). The evening's and the
    season's standings list all seven players in whists."""
    w = build_club_world()
    three, four = seven_at_a_three_and_a_four(w)
    owner = w.users["owner"]
    seats = seat_keys(four)
    first = seats.index(dealer_for(four, 1))
    a, b, c, d = seats[first:] + seats[:first]
    for number, entry in enumerate(four_table_deals(a, b, c, d), start=1):
        dealer = dealer_for(Table.objects.get(pk=four.pk), number)
        assert dealer == (a, b, c, d)[number - 1]
        hand = games.table_record_hand(table_id=four.pk, user=owner, entry=entry)
        assert hand.dealer == dealer
        sheet = hand.result["entry"]
        assert sheet["pool"][dealer] == 0
        assert sheet["mountain"][dealer] == (1 if number == 3 else 0)  # c's raspasy trick
        on_others = {k: v for k, v in sheet["whists"].get(dealer, {}).items() if v}
        assert on_others == ({c: 8} if number == 2 else {})  # b's consolation on c
        assert all(dealer not in written for written in sheet["whists"].values())
        assert dealer not in (hand.result.get("defence") or {})
        assert hand.result["declarer"] != dealer
    last = four.hands.get(number=4).result["sheet"]
    assert last["pool"] == {a: 10, b: 2, c: 0, d: 0}
    assert last["mountain"] == {a: 2, b: 4, c: 9, d: 3}
    # S_i = Σ_j (W[i→j] − W[j→i]) + 10·(mean M' − M'_i), M' = M + (10 − P), mean 46/4:
    # a 16 + 95, b 0 − 5, c −40 − 75, d 24 − 15
    by_seat = {a: 111, b: -5, c: -115, d: 9}
    pulya = engine.settle(
        {
            "rules": four.rules,
            "seats": seats,
            "dealer": a,
            "deals": four_table_deals(a, b, c, d),
        }
    )
    assert pulya["settlement"]["result"] == by_seat

    rng = random.Random(7)
    three_entries = []
    for _ in range(3):
        entry = random_entry(three, rng)
        games.table_record_hand(table_id=three.pk, user=owner, entry=entry)
        three_entries.append(entry)
    at_three = engine.settle(
        {
            "rules": three.rules,
            "seats": seat_keys(three),
            "dealer": three.hands.get(number=1).dealer,
            "deals": three_entries,
        }
    )["settlement"]["result"]
    whists = {player_of(s): by_seat[s.key] for s in four.seats.all()}
    whists |= {player_of(s): at_three[s.key] for s in three.seats.all()}
    assert len(whists) == 7 and sum(whists.values()) == 0

    season = Season.objects.get(pk=w.extra["season"])
    standings = f"/api/v1/clubs/{w.club.pk}/seasons/{season.pk}/standings/"
    answer = w.client("member").get(standings).json()
    assert answer["score_unit"] == "whists"
    assert {r["player"]: r["score"] for r in answer["rows"]} == whists
    at_four = {player_of(s) for s in four.seats.all()}
    # at the four each seat dealt (and sat out) one of the four deals
    assert {r["player"]: r["hands_played"] for r in answer["rows"] if r["player"] in at_four} == (
        dict.fromkeys(at_four, 3)
    )
    evening = f"/api/v1/clubs/{w.club.pk}/evenings/{w.evening.pk}/"
    provisional = w.client("member").get(evening + "settlement/").json()
    assert {p["player"]: p["score"] for p in provisional["players"]} == whists
    closed = w.client("admin").post(evening + "close/")
    assert closed.status_code == 200, closed.json()
    settlement = closed.json()
    assert {p["player"]: p["net"] for p in settlement["players"]} == {
        p: v * WHIST_VALUE for p, v in whists.items()
    }
    after = w.client("member").get(standings).json()
    assert {r["player"]: (r["score"], r["balance"]) for r in after["rows"]} == {
        p: (v, v * WHIST_VALUE) for p, v in whists.items()
    }
