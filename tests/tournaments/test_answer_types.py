"""Tournament answers fit the schema's exact types (each seating method's plan, the final
standings with a lots draw, a player's round status), and values outside a closed set are
refused with a 400 naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models.people import default_rules
from config.api.fields import MAX_ID
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.openapi import schema_errors
from tests.tournaments.setup import RULES, Field, make_field, seat
from tournaments import scoring
from tournaments.models import RoundSeat, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

# per table of a round: each seat's total and declarer wins, in seat order
TOTALS = {
    1: ((30, 2), (-10, 0), (-20, 0)),
    2: ((30, 1), (-10, 0), (-20, 0)),
    3: ((50, 0), (-25, 0), (-25, 0)),
}


def close_with_totals(f: Field, number: int) -> None:
    """Enter ``TOTALS`` at the three tables of round ``number`` and close it."""
    for table, values in TOTALS.items():
        link = RoundTable.objects.get(
            round__tournament_id=f.tournament_id, round__number=number, number=table
        )
        seats = list(RoundSeat.objects.filter(round_table=link).order_by("id"))
        body = {
            "amounts": {s.seat: a for s, (a, _) in zip(seats, values, strict=True)},
            "declarer_wins": {s.seat: w for s, (_, w) in zip(seats, values, strict=True)},
        }
        path = f.url + f"rounds/{number}/tables/{table}/totals/"
        answer = f.boss().put(path, body, format="json")
        assert answer.status_code == 200, answer.content
    f.post(f"rounds/{number}/close/")


def test_the_plan_of_every_seating_method_fits_the_schema(settings: Any) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(9, results="totals", scoring="balance")
    for number, method in enumerate(Tournament.Seating.values, 1):
        started = seat(f, seating=method)
        assert started["plan"]["method"] == method
        assert isinstance(started["plan"]["seed"], int)
        assert not schema_errors("TournamentRoundDetail", started)
        listed = f.get("rounds/")
        assert not [e for r in listed for e in schema_errors("TournamentRound", r)]
        mine = f.get("me/", user=f.players[0])
        assert mine["round_status"] == "playing"
        assert not schema_errors("MyTournament", mine)
        close_with_totals(f, number)
    assert f.get("me/", user=f.players[0])["round_status"] is None


def test_the_final_standings_with_a_lots_draw_fit_the_schema(settings: Any) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(9, results="totals", scoring="balance", tiebreaks=["declarer_wins", "lots"])
    seat(f)
    close_with_totals(f, 1)
    f.post("finish/")
    standings = f.get("standings/")
    assert not schema_errors("TournamentStandings", standings)
    draws = [r["tiebreaks"]["lots"] for r in standings["rows"] if "lots" in r["tiebreaks"]]
    assert draws, standings["rows"]
    seed = f.tournament.lots_seed
    every = {str(scoring.lots_draw(seed, r["entry"])) for r in standings["rows"]}
    assert set(draws) <= every


def create(body: dict[str, Any]) -> Any:
    return client_for(UserFactory.create()).post("/api/v1/tournaments/", body, format="json")


@pytest.mark.parametrize(
    ("tiebreaks", "field"),
    [(["coin_toss"], "tiebreaks.0"), (["lots", "lots"], "tiebreaks"), (["LOTS"], "tiebreaks.0")],
)
def test_a_tiebreak_outside_the_registry_or_chosen_twice_is_refused(
    tiebreaks: list[str], field: str
) -> None:
    answer = create({"name": "Cup", "rules": RULES, "tiebreaks": tiebreaks})
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "validation_error"
    assert field in answer.json()["fields"]


def test_every_registered_tiebreak_is_accepted_in_any_order() -> None:
    names = list(reversed(scoring.TIEBREAK_NAMES))
    answer = create({"name": "Cup", "rules": RULES, "tiebreaks": names})
    assert answer.status_code == 201, answer.content
    assert answer.json()["tiebreaks"] == names


def test_a_tournaments_rules_are_the_engines_rules_object() -> None:
    """Omitted: the default rules; given: the engine's object, ``variant`` required (the
    schema's ``RulesRequest``), options spelled out in the answer."""
    omitted = create({"name": "Cup"})
    assert omitted.status_code == 201, omitted.content
    assert omitted.json()["rules"] == default_rules()
    given = create({"name": "Cup", "rules": RULES})
    assert given.status_code == 201, given.content
    assert not schema_errors("Tournament", given.json())
    assert given.json()["rules"] == {**default_rules(), **RULES}
    bare = {k: v for k, v in RULES.items() if k != "variant"}
    refused = create({"name": "Cup", "rules": bare})
    assert refused.status_code == 400
    assert refused.json()["code"] == "validation_error"
    assert "variant" in refused.json()["message"]
    assert list(refused.json()["fields"]) == ["rules"]


@pytest.mark.parametrize("bye", [0, MAX_ID + 1])
def test_a_bye_is_an_entry_id(bye: int) -> None:
    f = make_field(4)
    error = f.post("rounds/", {"byes": [bye]}, status=400)
    assert error["code"] == "validation_error"
    assert list(error["fields"]) == ["byes.0"]
