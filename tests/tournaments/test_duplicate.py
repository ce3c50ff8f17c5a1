"""Duplicate Préférence on the server: every table of a round plays the same boards, each
player's result on a board is compared with everyone who held the same cards (same board,
same direction) at the other tables, and boards stay secret until every table finished them.
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

import pytest

import engine
from games.models import Hand
from tests.tournaments.setup import make_field, play, seat
from tournaments import services
from tournaments.models import Board, RoundSeat, RoundTable
from tournaments.scoring import points_text

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]
DIRECTIONS = ("forehand", "middlehand", "rearhand")


def by_hand(f, number: int) -> dict[int, Fraction]:
    """Matchpoint percentages computed here, independently of the scoring core: for every
    board and direction, 2 points per player beaten, 1 per tie, over 2 per comparison."""
    results: dict[tuple[int, str], list[tuple[int, int]]] = defaultdict(list)
    for link in RoundTable.objects.filter(
        round__tournament_id=f.tournament_id, round__number=number
    ):
        seats = dict(RoundSeat.objects.filter(round_table=link).values_list("seat", "entry_id"))
        keys = list(
            RoundSeat.objects.filter(round_table=link)
            .order_by("position")
            .values_list("seat", flat=True)
        )
        for hand in Hand.objects.filter(table_id=link.table_id, status="done"):
            active = engine.active_seats(keys, hand.dealer, variant="wien")
            for direction, key in zip(DIRECTIONS, active, strict=True):
                results[(hand.number, direction)].append((seats[key], hand.result["delta"][key]))
    percents: dict[int, list[Fraction]] = defaultdict(list)
    for group in results.values():
        for player, amount in group:
            others = [a for p, a in group if p != player]
            if not others:
                percents[player].append(Fraction(50))
                continue
            mp = sum(2 if amount > a else 1 if amount == a else 0 for a in others)
            percents[player].append(Fraction(mp * 100, 2 * len(others)))
    return {p: sum(v, Fraction(0)) / len(v) for p, v in percents.items()}


@pytest.mark.parametrize("players", [9, 12])
def test_a_duplicate_round_scores_matchpoints_as_computed_by_hand(players: int, settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(players, scoring="duplicate", deals_per_round=6, rounds_planned=1)
    rnd = seat(f)
    tables = RoundTable.objects.filter(round__tournament_id=f.tournament_id)
    assert tables.count() == players // 3
    boards = Board.objects.filter(round__tournament_id=f.tournament_id).order_by("number")
    assert [b.number for b in boards] == list(range(1, 7))
    assert len({b.commitment for b in boards}) == 6
    for b in boards:
        assert engine.commitment(b.salt, b.deck) == b.commitment
    # the same board number is dealt by the same seat position at every table
    for link in tables:
        assert link.table.first_dealer == 0
    play(f, 1, random.Random(players))
    f.post("rounds/1/close/")
    expected = by_hand(f, 1)
    rows = f.get("standings/")["rows"]
    assert {r["entry"]: r["points"] for r in rows} == {
        p: points_text(v) for p, v in expected.items()
    }
    assert sum(Fraction(r["points"]) for r in rows) == pytest.approx(50 * players, abs=0.01)
    assert rnd["tables"]


def test_a_board_is_revealed_only_when_every_table_finished_it(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, scoring="duplicate", deals_per_round=3, rounds_planned=1)
    seat(f)
    links = list(RoundTable.objects.filter(round__tournament_id=f.tournament_id).order_by("number"))
    rng = random.Random(4)
    # table 1 plays all three boards, table 2 only the first
    from games import services as games
    from games.random_entries import random_entry

    for n in (1, 2, 3):
        games.table_record_hand(
            table_id=links[0].table_id, user=f.director, entry=random_entry(links[0].table, rng, n)
        )
    games.table_record_hand(
        table_id=links[1].table_id, user=f.director, entry=random_entry(links[1].table, rng, 1)
    )
    boards = f.get("rounds/1/boards/", user=None)
    assert [b["revealed_at"] is not None for b in boards] == [True, False, False]
    assert boards[0]["deck"] is not None and boards[0]["salt"]
    assert boards[1]["deck"] is None and boards[1]["salt"] is None
    # standings count board 1 only: table 1's boards 2 and 3 tell nobody anything yet
    rows = f.get("standings/")["rows"]
    assert all(r["by_round"] for r in rows)
    results = f.get(
        f"entries/{RoundSeat.objects.filter(round_table=links[0]).first().entry_id}/results/"
    )
    hands = Hand.objects.filter(table_id=links[0].table_id, number=1).first()
    seat_key = RoundSeat.objects.filter(round_table=links[0]).first().seat
    assert results["rounds"][0]["amount"] == hands.result["delta"][seat_key]
    exported = f.get("export/hands.json")["hands"]
    assert sorted((h["table"], h["hand"]) for h in exported) == [(1, 1), (2, 1)]
    services.reveal_boards(links[0].round)
    assert Board.objects.filter(revealed_at__isnull=False).count() == 1


def test_hosted_tables_deal_each_board_once_and_the_same_direction_gets_the_same_cards() -> None:
    f = make_field(6, scoring="duplicate", results="hosted", deals_per_round=3, rounds_planned=1)
    seat(f)
    links = list(RoundTable.objects.filter(round__tournament_id=f.tournament_id).order_by("number"))
    board = Board.objects.get(round__tournament_id=f.tournament_id, number=1)
    hands_by_direction = []
    for link in links:
        seats = list(RoundSeat.objects.filter(round_table=link).order_by("position"))
        player = seats[0].entry.user
        dealt = f.api(player).post(f"/api/v1/tables/{link.table_id}/hands/", format="json")
        assert dealt.status_code == 201, dealt.content
        hand = Hand.objects.get(table_id=link.table_id, number=1)
        assert hand.commitment == board.commitment
        keys = [s.seat for s in seats]
        cards = {}
        for direction, key in zip(
            DIRECTIONS, engine.active_seats(keys, hand.dealer, variant="wien"), strict=True
        ):
            owner = next(s.entry.user for s in seats if s.seat == key)
            view = f.api(owner).get(f"/api/v1/tables/{link.table_id}/hands/1/view/").json()
            cards[direction] = sorted(view["hand"]) if "hand" in view else view
        hands_by_direction.append(cards)
        # nobody at the table sees the board's deck or salt while it is played
        body = f.api(player).get(f"/api/v1/tables/{link.table_id}/hands/1/view/").content.decode()
        assert board.salt not in body
    assert hands_by_direction[0] == hands_by_direction[1]
    expected = engine.deal_from_deck(
        board.deck, engine.active_seats(["a", "b", "c"], "a", variant="wien"), variant="wien"
    )
    assert sorted(expected["b"]) == hands_by_direction[0]["forehand"]
    boards = f.get("rounds/1/boards/", user=None)
    assert boards[0]["commitment"] == board.commitment and boards[0]["deck"] is None


def test_it_shows_boards_waiting_for_other_tables_as_pending(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, scoring="duplicate", deals_per_round=3, rounds_planned=1)
    seat(f)
    links = list(RoundTable.objects.filter(round__tournament_id=f.tournament_id).order_by("number"))
    rng = random.Random(5)
    from games import services as games
    from games.random_entries import random_entry

    for n in (1, 2, 3):
        games.table_record_hand(
            table_id=links[0].table_id, user=f.director, entry=random_entry(links[0].table, rng, n)
        )
    first = set(RoundSeat.objects.filter(round_table=links[0]).values_list("entry_id", flat=True))

    rows = f.get("standings/", user=None)["rows"]

    # nobody has played a board that counts: no round played, table 1's three boards pending
    assert {(r["entry"], r["rounds"], r["pending"]) for r in rows} == {
        (r["entry"], 0, 3 if r["entry"] in first else 0) for r in rows
    }
    assert all(r["by_round"] == {} for r in rows)
    mine = f.get(f"entries/{min(first)}/results/", user=None)["rounds"]
    assert [(r["amount"], r["points"], r["pending"]) for r in mine] == [(None, None, 3)]
    page = f.api(None).get(f.url + "standings/print/").content.decode()
    assert "3 boards pending" in page
    csv_rows = f.api(None).get(f.url + "export/standings.csv").content.decode().splitlines()
    assert csv_rows[0].endswith(",pending,unit")

    # table 2 finishes board 1: it counts for everyone, boards 2 and 3 still wait
    games.table_record_hand(
        table_id=links[1].table_id, user=f.director, entry=random_entry(links[1].table, rng, 1)
    )
    rows = f.get("standings/", user=None)["rows"]
    assert {(r["entry"], r["rounds"], r["pending"]) for r in rows} == {
        (r["entry"], 1, 2 if r["entry"] in first else 0) for r in rows
    }
    mine = f.get(f"entries/{min(first)}/results/", user=None)["rounds"]
    assert mine[0]["amount"] is not None and mine[0]["points"] is not None
    assert mine[0]["pending"] == 2
