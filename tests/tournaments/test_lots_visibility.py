"""Nobody knows the lots draw in advance: while the tournament runs no answer, export or page
shows a player's draw, and the order of the standings does not tell it either (players tied
on points and on every other tiebreak share the rank); once finished, the draw shows only on
the rows where it decided a placing, and it can be checked against the published seed."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests.helpers import client_for
from tests.tournaments.setup import Field, make_field, seat
from tournaments.models import RoundSeat, RoundTable
from tournaments.scoring import decided_by, lots_draw

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

# per table: each seat's total and declarer wins, in seat order
TOTALS = {
    1: ((30, 2), (-10, 0), (-20, 0)),
    2: ((30, 1), (-10, 0), (-20, 0)),
    3: ((50, 0), (-25, 0), (-25, 0)),
}


def played(settings: Any) -> tuple[Field, dict[int, int]]:
    """Nine players at three offline tables, round 1 closed; each entry's total."""
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(9, results="totals", scoring="balance", tiebreaks=["declarer_wins", "lots"])
    seat(f)
    total: dict[int, int] = {}
    for number, values in TOTALS.items():
        link = RoundTable.objects.get(round__tournament_id=f.tournament_id, number=number)
        seats = list(RoundSeat.objects.filter(round_table=link).order_by("id"))
        amounts = {s.seat: a for s, (a, _) in zip(seats, values, strict=True)}
        wins = {s.seat: w for s, (_, w) in zip(seats, values, strict=True)}
        body = {"amounts": amounts, "declarer_wins": wins}
        answer = f.boss().put(f.url + f"rounds/1/tables/{number}/totals/", body, format="json")
        assert answer.status_code == 200, answer.content
        total.update({s.entry_id: a for s, (a, _) in zip(seats, values, strict=True)})
    f.post("rounds/1/close/")
    return f, total


def readers(f: Field) -> dict[str, Any]:
    return {"anonymous": client_for(None), "director": f.boss(), "player": f.api(f.players[0])}


def test_no_answer_shows_a_draw_or_orders_by_it_while_the_tournament_runs(settings) -> None:
    f, total = played(settings)
    for who, client in readers(f).items():
        rows = client.get(f.url + "standings/").json()["rows"]
        assert len(rows) == 9
        assert all("lots" not in r["tiebreaks"] for r in rows), who
        # tied on points and declarer wins: the same rank, not one decided by the draw
        ranks = {r["entry"]: r["rank"] for r in rows}
        for entry, points in total.items():
            for other, other_points in total.items():
                same_wins = (
                    rows_by(rows)[entry]["tiebreaks"]["declarer_wins"]
                    == (rows_by(rows)[other]["tiebreaks"]["declarer_wins"])
                )
                if points == other_points and same_wins:
                    assert ranks[entry] == ranks[other], who
        exported = client.get(f.url + "export/standings.json").json()["rows"]
        assert all("lots" not in r["tiebreaks"] for r in exported), who
        table = list(csv.DictReader(io.StringIO(client.get(f.url + "export/standings.csv")
                                                .content.decode())))  # fmt: skip
        assert {r["lots"] for r in table} == {""}, who
        page = client.get(f.url + "standings/print/").content.decode()
        seed = f.tournament.lots_seed
        for entry in total:
            assert str(lots_draw(seed, entry)) not in page
            assert str(lots_draw(seed, entry)) not in str(exported)
        assert client.get(f.url).json()["lots_seed"] is None


def rows_by(rows: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {r["entry"]: r for r in rows}


def test_the_final_standings_show_the_draw_only_where_it_decided(settings) -> None:
    f, total = played(settings)
    f.post("finish/")
    seed = f.get("")["lots_seed"]
    assert seed == f.tournament.lots_seed
    rows = f.get("standings/")["rows"]
    by_entry = rows_by(rows)
    # the two 30s differ on declarer wins; the 50 is alone: no draw shown for them
    for entry, points in total.items():
        shown = "lots" in by_entry[entry]["tiebreaks"]
        assert shown == (points in (-10, -20, -25)), (points, by_entry[entry])
        if shown:
            assert by_entry[entry]["tiebreaks"]["lots"] == str(lots_draw(seed, entry))
    # the draw decided: the higher draw ranks higher, and nobody shares a rank
    for points in (-10, -20, -25):
        pair = sorted(
            (e for e, p in total.items() if p == points), key=lambda e: by_entry[e]["rank"]
        )
        assert lots_draw(seed, pair[0]) > lots_draw(seed, pair[1])
        assert by_entry[pair[0]]["rank"] < by_entry[pair[1]]["rank"]
    table = {int(r["entry"]): r for r in csv.DictReader(io.StringIO(
        f.boss().get(f.url + "export/standings.csv").content.decode()))}  # fmt: skip
    assert {e for e, r in table.items() if r["lots"]} == {
        e for e, p in total.items() if p in (-10, -20, -25)
    }
    # reopened for a correction: the draw is hidden again until the end
    f.post("reopen/", {"reason": "a correction"})
    assert all("lots" not in r["tiebreaks"] for r in f.get("standings/")["rows"])


def test_decided_by_names_the_first_tiebreak_that_parts_neighbours_on_equal_points() -> None:
    names = ("wins", "lots")
    rows = [
        (5, {"wins": 2, "lots": 9}),  # parted from the next row by wins
        (5, {"wins": 1, "lots": 7}),  # by wins above, by lots below
        (5, {"wins": 1, "lots": 3}),
        (4, {"wins": 0, "lots": 8}),  # alone on its points
        (2, {"wins": 0, "lots": 1}),  # shares the rank: equal on everything
        (2, {"wins": 0, "lots": 1}),
    ]
    assert decided_by(rows, names) == [("wins",), ("wins", "lots"), ("lots",), (), (), ()]
