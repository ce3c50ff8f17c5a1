"""The public reads phones and club sites poll: every one answers conditionally (ETag and
Last-Modified, 304 while nothing changed) and documents it; points come in one exact form
everywhere (standings, a player's results, exports, the schema)."""

from __future__ import annotations

import csv
import io
import random
from fractions import Fraction
from typing import Any

import pytest

from tests.helpers import client_for
from tests.openapi import generated_schema
from tests.tournaments.setup import entries, make_field, play, seat
from tournaments.scoring import POINTS_PATTERN

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

POLLED = (
    "entries/",
    "entries/?status=checked_in",
    "export/standings.csv",
    "export/standings.json",
    "export/hands.csv",
    "export/hands.json",
    "standings/print/",
)


@pytest.mark.parametrize("path", POLLED)
def test_it_answers_304_to_a_client_whose_copy_is_current(path: str, settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, deals_per_round=3)
    seat(f)
    play(f, 1, random.Random(2), deals=1)
    anon = client_for(None)

    first = anon.get(f.url + path)

    assert first.status_code == 200, first.content[:300]
    assert first["ETag"] and first["Last-Modified"]
    again = anon.get(f.url + path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]
    since = anon.get(f.url + path, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304
    # a result changes the answer: a client holding the old copy gets the new one
    play(f, 1, random.Random(3), deals=2)
    changed = anon.get(f.url + path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]


def test_it_tags_each_page_and_filter_of_the_entries_apart(settings) -> None:
    f = make_field(6)
    anon = client_for(None)
    everyone = anon.get(f.url + "entries/")
    waiting = anon.get(f.url + "entries/?status=waitlisted", HTTP_IF_NONE_MATCH=everyone["ETag"])
    assert waiting.status_code == 200
    assert waiting.json()["results"] == []


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/tournaments/{tournament_id}/entries/",
        "/api/v1/tournaments/{tournament_id}/export/standings.csv",
        "/api/v1/tournaments/{tournament_id}/export/standings.json",
        "/api/v1/tournaments/{tournament_id}/export/hands.csv",
        "/api/v1/tournaments/{tournament_id}/export/hands.json",
        "/api/v1/tournaments/{tournament_id}/standings/print/",
    ],
)
def test_it_documents_the_conditional_headers_of_every_polled_read(path: str) -> None:
    operation = generated_schema()["paths"][path]["get"]
    sent = {p["name"] for p in operation["parameters"] if p["in"] == "header"}
    assert {"If-None-Match", "If-Modified-Since"} <= sent
    assert "304" in operation["responses"]
    assert {"ETag", "Last-Modified"} <= set(operation["responses"]["200"]["headers"])


# --- one exact form of points -----------------------------------------------------------


def exact(text: Any) -> Fraction:
    """The value of an exact text; anything else (a float, "1.5000", "1.5") fails."""
    assert isinstance(text, str), text
    import re

    assert re.fullmatch(POINTS_PATTERN, text), text
    value = Fraction(text)
    assert str(value) == text, f"{text} is not in lowest terms"
    return value


def test_it_writes_points_in_one_exact_form_everywhere(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    # table_rank points split between tied players: halves and thirds appear
    f = make_field(6, deals_per_round=3, scoring="table_rank", tiebreaks=["average_opponent"])
    seat(f)
    play(f, 1, random.Random(7))
    f.post("rounds/1/close/")
    seat(f)
    play(f, 2, random.Random(8))
    f.post("rounds/2/close/")

    rows = f.get("standings/")["rows"]
    for row in rows:
        points = exact(row["points"])
        assert sum(exact(v) for v in row["by_round"].values()) == points
        for value in row["tiebreaks"].values():
            exact(value)
    assert any(exact(row["tiebreaks"]["average_opponent"]).denominator > 1 for row in rows)
    by_entry = {row["entry"]: row for row in rows}
    for entry in entries(f):
        results = f.get(f"entries/{entry['id']}/results/")
        assert results["points"] == by_entry[entry["id"]]["points"]
        for rnd in results["rounds"]:
            assert rnd["points"] == by_entry[entry["id"]]["by_round"][str(rnd["round"])]
    exported = f.get("export/standings.json")["rows"]
    assert [r["points"] for r in exported] == [r["points"] for r in rows]
    text = client_for(None).get(f.url + "export/standings.csv").content.decode()
    table = list(csv.DictReader(io.StringIO(text)))
    assert [r["points"] for r in table] == [r["points"] for r in rows]
    assert [r["average_opponent"] for r in table] == [
        r["tiebreaks"]["average_opponent"] for r in rows
    ]


def test_it_documents_points_as_exact_text() -> None:
    components = generated_schema()["components"]["schemas"]
    row = components["TournamentStandingRow"]["properties"]
    assert row["points"]["type"] == "string"
    assert row["points"]["pattern"] == POINTS_PATTERN
    assert row["by_round"]["additionalProperties"]["pattern"] == POINTS_PATTERN
    tiebreaks = components["TiebreakValues"]["properties"]  # lots: tests/config/test_schema_types
    assert {tiebreaks[n]["pattern"] for n in tiebreaks if n != "lots"} == {POINTS_PATTERN}
    assert components["ResultRound"]["properties"]["points"]["pattern"] == POINTS_PATTERN


@pytest.mark.parametrize("name", ["standings.csv", "hands.csv"])
def test_a_csv_export_answers_its_errors_in_json_even_to_a_client_asking_for_csv(
    name: str,
) -> None:
    """Generated Swift and Kotlin clients send ``Accept: text/csv``: they get the file, and
    an error in the JSON the schema documents (a private tournament like a missing one)."""
    f = make_field(6, deals_per_round=3)
    seat(f)
    play(f, 1, random.Random(2), deals=1)
    anon = client_for(None)
    ok = anon.get(f.url + "export/" + name, HTTP_ACCEPT="text/csv")
    assert ok.status_code == 200 and ok["Content-Type"] == "text/csv; charset=utf-8"
    assert ok.content.decode().splitlines()[0].startswith(("position,", "round,"))
    missing = anon.get(
        f"/api/v1/tournaments/{f.tournament_id + 1000}/export/{name}", HTTP_ACCEPT="text/csv"
    )
    assert missing.status_code == 404
    assert missing["Content-Type"] == "application/json"
    assert missing.json()["code"] == "not_found"
