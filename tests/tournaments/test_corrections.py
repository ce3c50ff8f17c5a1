"""What a director relies on after the play: a hand recorded at a closed table corrected
(after its round closed, after the tournament was reopened) with standings, money and exports
following, and a table that takes no hand beyond the tournament's deals."""

from __future__ import annotations

import random

import pytest

from clubs.models import User
from games import services as games
from games.models import Hand, LedgerEntry, Seat, Table
from games.random_entries import random_entry
from games.services import table_balances
from tests.tournaments.setup import RULES, Field, another_entry, make_field, play, seat
from tournaments import services
from tournaments.models import RoundSeat, RoundTable
from tournaments.scoring import points_text

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]


def hand_url(table_id: int, number: int) -> str:
    return f"/api/v1/tables/{table_id}/hands/{number}/"


def closed_round(f: Field) -> Table:
    """Round 1 seated, played and closed; table 1 of it."""
    seat(f)
    play(f, 1, random.Random(21))
    f.post("rounds/1/close/")
    link = RoundTable.objects.get(round__tournament_id=f.tournament_id, number=1)
    table = Table.objects.get(pk=link.table_id)
    assert table.status == Table.Status.CLOSED
    return table


def stored(f: Field) -> list[tuple[int, int, str]]:
    return [(r["entry"], r["rank"], r["points"]) for r in f.get("standings/")["rows"]]


def fresh(f: Field) -> list[tuple[int, int, str]]:
    return [
        (int(r.player), r.rank, points_text(r.points)) for r in services.compute(f.tournament).rows
    ]


def nets_at(f: Field, table: Table) -> dict[int, int]:
    """Each player's net at ``table`` by entry, from the money settlement (one table each)."""
    seats = dict(RoundSeat.objects.filter(round_table__table=table).values_list("entry_id", "seat"))
    nets = {n["entry"]: n["net"] for n in f.get("settlement/")["nets"]}
    return {e: nets.get(e, 0) for e in seats}


@pytest.mark.parametrize("pot_at_close", ["carry", "split"])
def test_it_lets_a_director_correct_a_hand_after_the_round_closed(
    pot_at_close: str, settings
) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(
        6,
        real_money=True,
        deals_per_round=3,
        scoring="balance",
        rules={**RULES, "pot_at_close": pot_at_close},
    )
    table = closed_round(f)
    entry, delta = another_entry(table, 2)

    answer = f.boss().put(hand_url(table.pk, 2), entry, format="json")

    assert answer.status_code == 200, answer.content
    assert {k: int(v) for k, v in answer.json()["result"]["delta"].items()} == delta
    # standings follow
    assert stored(f) == fresh(f)
    # money follows: the close is settled again from the corrected hands
    table.refresh_from_db()
    balances = table_balances(table)
    seats = dict(RoundSeat.objects.filter(round_table__table=table).values_list("entry_id", "seat"))
    assert nets_at(f, table) == {e: balances[s] for e, s in seats.items()}
    assert table.closing["nets"] == {s: balances[s] for s in seats.values()}
    # the export shows the corrected hand
    exported = f.get("export/hands.json")["hands"]
    (corrected,) = [h for h in exported if h["table"] == 1 and h["hand"] == 2]
    assert {p["seat"]: p["amount"] for p in corrected["players"]} == delta


def ledger_of(table: Table) -> list[tuple[int, str, str, str, int]]:
    """Every ledger row of ``table`` as (hand number, 0 for the table's own rows such as its
    close, reason, payer, payee, amount)."""
    rows = LedgerEntry.objects.filter(table=table).select_related("hand")
    return sorted(
        ((r.hand.number if r.hand else 0), r.reason, r.payer, r.payee, r.amount) for r in rows
    )


def closed_fresh(table: Table, director: User) -> Table:
    """A new recorded table with ``table``'s rules, seats and first dealer, its hands recorded
    as ``table`` now holds them, and closed."""
    seats = table.seats.order_by("position")
    first = table.hands.get(number=1)
    fresh = games.table_create(
        user=director,
        name="fresh",
        mode=Table.Mode.RECORDED,
        rules=table.rules,
        seats=[games.SeatSpec(key=s.key, kind=Seat.Kind.USER, user=s.user) for s in seats],
        first_dealer=first.dealer,
    )
    for hand in table.hands.order_by("number"):
        games.table_record_hand(table_id=fresh.pk, user=director, entry=hand.entry or {})
    return games.table_close(table_id=fresh.pk, user=director)


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(
            {
                "variant": "preferans",
                "convention": "leningrad",
                "pool_target": 30,
                "whist_value": 5,
            },
            id="preferans-score",
        ),
        pytest.param({**RULES, "pot_at_close": "split"}, id="wien-split"),
    ],
)
def test_correcting_a_closed_table_leaves_the_ledger_of_closing_it_fresh(
    rules: dict[str, object], settings
) -> None:
    """The close is taken back whole and written again from the corrected hands: no closing
    row twice (Preferans's ``score`` rows were once left behind and written again)."""
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, real_money=True, deals_per_round=3, scoring="balance", rules=rules)
    table = closed_round(f)
    closing_before = [r for r in ledger_of(table) if r[0] == 0]
    assert closing_before  # the close wrote rows (score or split) that a correction takes back
    stored_entry = Hand.objects.get(table=table, number=2).entry
    entry = next(
        e
        for e in (random_entry(table, random.Random(seed), 2) for seed in range(200))
        if e != stored_entry
    )

    answer = f.boss().put(hand_url(table.pk, 2), entry, format="json")

    assert answer.status_code == 200, answer.content
    fresh = closed_fresh(table, f.director)
    closing = [r for r in ledger_of(table) if r[0] == 0]
    assert len({r[1:4] for r in closing}) == len(closing)  # each reason, payer, payee once
    assert ledger_of(table) == ledger_of(fresh)
    assert table_balances(table) == table_balances(fresh)
    table.refresh_from_db()
    assert table.closing and fresh.closing
    assert table.closing["nets"] == fresh.closing["nets"]


def test_it_lets_a_director_correct_a_hand_after_the_tournament_was_reopened(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, real_money=True, deals_per_round=3, rounds_planned=1)
    table = closed_round(f)
    f.post("finish/")
    entry, delta = another_entry(table, 3)

    finished = f.boss().put(hand_url(table.pk, 3), entry, format="json")
    assert finished.status_code == 409
    assert finished.json()["code"] == "tournament_finished"
    assert "reopen" in finished.json()["message"]

    f.post("reopen/", {"reason": "score sheet of table 1 misread"})
    answer = f.boss().put(hand_url(table.pk, 3), entry, format="json")

    assert answer.status_code == 200, answer.content
    assert stored(f) == fresh(f)
    assert (
        Hand.objects.get(table=table, number=3).result["delta"] == answer.json()["result"]["delta"]
    )


def test_it_lets_a_director_delete_a_hand_at_a_closed_table(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, real_money=True, deals_per_round=3)
    table = closed_round(f)

    answer = f.boss().delete(hand_url(table.pk, 3))

    assert answer.status_code == 204, answer.content
    assert table.hands.count() == 2
    assert stored(f) == fresh(f)
    table.refresh_from_db()
    balances = table_balances(table)
    seats = dict(RoundSeat.objects.filter(round_table__table=table).values_list("entry_id", "seat"))
    assert nets_at(f, table) == {e: balances[s] for e, s in seats.items()}


def test_it_refuses_a_player_a_correction_at_a_closed_table(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, deals_per_round=3)
    table = closed_round(f)
    player = table.seats.exclude(user=None).first().user
    entry, _ = another_entry(table, 1)

    answer = f.api(player).put(hand_url(table.pk, 1), entry, format="json")

    assert answer.status_code == 409
    assert answer.json()["code"] == "table_conflict"
    assert answer.json()["message"].startswith("This table is closed")


def test_it_refuses_a_hand_beyond_the_deals_of_the_round(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, real_money=True, deals_per_round=3, scoring="balance")
    seat(f)
    play(f, 1, random.Random(4))
    link = RoundTable.objects.get(round__tournament_id=f.tournament_id, number=1)
    table = Table.objects.get(pk=link.table_id)

    answer = f.boss().post(
        f"/api/v1/tables/{table.pk}/hands/",
        random_entry(table, random.Random(5), 4),
        format="json",
    )

    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "hand_limit"
    assert "3 hands" in body["message"]
    assert table.hands.count() == 3
    f.post("rounds/1/close/")
    # standings and money count the same hands: balance points are the nets at the tables
    money = f.get("settlement/")
    points = {r["entry"]: int(r["points"]) for r in f.get("standings/")["rows"]}
    assert {n["entry"]: n["net"] for n in money["nets"]} == {e: p for e, p in points.items() if p}
