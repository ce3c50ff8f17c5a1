"""The running score sheet, as JSON and as CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import User
from games.api.sheet import game_text
from games.models import Table
from tests.games.conftest import AUSFECHTEN, FELL, MADE, hands_url
from tests.openapi import schema_errors

Client = Callable[[User | None], APIClient]


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ({"type": "suit", "level": "D", "talon": True}, "D"),
        ({"type": "suit", "level": "S", "talon": False}, "Geschäft S"),
        ({"type": "suit", "level": "H", "talon": False}, "herz"),
        ({"type": "premium", "level": 5, "hand": True}, "5h Bettler von der Hand"),
        ({"type": "premium", "level": 6, "hand": False}, "6 Mord"),
        ({"type": "ausfechten"}, "Ausfechten"),
    ],
)
def test_a_game_is_written_as_on_the_score_sheet(game: dict[str, Any], text: str) -> None:
    assert game_text(game, {"variant": "wien"}) == text


@pytest.fixture
def played(client_for: Client, recorded: Table, anna: User) -> Table:
    for entry in (FELL, AUSFECHTEN, MADE):
        assert client_for(anna).post(hands_url(recorded), entry, format="json").status_code == 201
    return recorded


@pytest.mark.django_db
def test_the_sheet_runs_each_seats_balance_and_the_pot(
    client_for: Client, played: Table, anna: User
) -> None:
    sheet = client_for(anna).get(f"/api/v1/tables/{played.pk}/sheet/").json()
    assert sheet["seats"] == [
        {"key": "anna", "name": "anna"},
        {"key": "bert", "name": "bert"},
        {"key": "carl", "name": "carl"},
    ]
    assert sheet["opening_pot"] == 0
    rows = sheet["rows"]
    assert [(r["number"], r["dealer"], r["game"]) for r in rows] == [
        (1, "carl", "D"),
        (2, "anna", "Ausfechten"),
        (3, "bert", "D"),
    ]
    assert rows[0]["declarer"] == "anna"
    assert rows[0]["made"] is False
    assert rows[0]["fallen"] == ["anna"]
    assert rows[0]["balances"] == {"anna": -160, "bert": 30, "carl": -70}
    assert rows[0]["pot"] == 200
    assert rows[1]["declarer"] is None and rows[1]["made"] is None
    balances = client_for(anna).get(f"/api/v1/tables/{played.pk}/balances/").json()["balances"]
    assert rows[-1]["balances"] == {k: balances[k] for k in ("anna", "bert", "carl")}
    assert rows[-1]["pot"] == balances["pot"]
    assert all(r["pulya"] is None for r in rows)  # a money table keeps no pulya


@pytest.mark.django_db
def test_a_sheet_names_its_variant_and_a_rule_set_without_a_sheet_row_has_no_details(
    client_for: Client, played: Table, anna: User
) -> None:
    """``variant`` picks the sheet's form in the schema (``ScoreSheet``: one per rule set);
    wien has no part of its own in a row, so ``details`` and the deprecated keys are null."""
    sheet = client_for(anna).get(f"/api/v1/tables/{played.pk}/sheet/").json()
    assert sheet["variant"] == "wien"
    assert all(r["details"] is None for r in sheet["rows"])
    assert all(r["pulya"] is None and r["doppelkopf"] is None for r in sheet["rows"])
    assert not schema_errors("ScoreSheet", sheet)
    assert not schema_errors("WienScoreSheet", sheet)
    assert schema_errors("PreferansScoreSheet", sheet)  # the discriminator's other branches


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["file", "file accepting csv", "query", "accept"])
def test_the_sheet_comes_as_csv_with_a_header_row(
    client_for: Client, played: Table, anna: User, how: str
) -> None:
    """``…/sheet.csv`` is the documented operation (generated clients read it as text; Swift
    and Kotlin send ``Accept: text/csv``); ``?format=csv`` and ``Accept`` on ``…/sheet/``
    still answer CSV for API 1.1.0 clients."""
    client = client_for(anna)
    path = f"/api/v1/tables/{played.pk}/sheet/"
    if how == "file":
        response = client.get(f"/api/v1/tables/{played.pk}/sheet.csv")
        assert response["Content-Disposition"] == f'attachment; filename="table-{played.pk}.csv"'
    elif how == "file accepting csv":
        response = client.get(
            f"/api/v1/tables/{played.pk}/sheet.csv", headers={"Accept": "text/csv"}
        )
    elif how == "query":
        response = client.get(path, {"format": "csv"})
    else:
        response = client.get(path, headers={"Accept": "text/csv"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "number",
        "dealer",
        "game",
        "declarer",
        "made",
        "fallen",
        "anna",
        "bert",
        "carl",
        "pot",
    ]
    assert rows[1] == ["1", "carl", "D", "anna", "no", "anna", "-160", "30", "-70", "200"]
    assert rows[2][2:5] == ["Ausfechten", "", ""]
    assert len(rows) == 4


@pytest.mark.django_db
def test_the_sheet_leaves_out_a_hand_being_played(
    client_for: Client, hosted: Table, anna: User
) -> None:
    client_for(anna).post(hands_url(hosted))
    sheet = client_for(anna).get(f"/api/v1/tables/{hosted.pk}/sheet/").json()
    assert sheet["rows"] == []
    text = client_for(anna).get(f"/api/v1/tables/{hosted.pk}/sheet/", {"format": "csv"})
    assert text.content.decode().count("\n") == 1


@pytest.mark.django_db
def test_the_sheet_of_a_private_table_is_not_found_for_others(
    client_for: Client, recorded: Table, stranger: User
) -> None:
    response = client_for(stranger).get(f"/api/v1/tables/{recorded.pk}/sheet/", {"format": "csv"})
    assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("accept", ["text/csv", None])
def test_the_csv_sheet_of_a_table_one_may_not_read_answers_json_like_a_missing_one(
    client_for: Client, played: Table, django_user_model: type[User], accept: str | None
) -> None:
    """Its errors are JSON (the schema says so): a stranger's answer is exactly the answer
    for a table that does not exist."""
    stranger = client_for(django_user_model.objects.create_user("stranger", password="x"))
    headers = {"Accept": accept} if accept else {}
    hidden = stranger.get(f"/api/v1/tables/{played.pk}/sheet.csv", headers=headers)
    missing = stranger.get(f"/api/v1/tables/{played.pk + 1000}/sheet.csv", headers=headers)
    assert hidden.status_code == missing.status_code == 404
    assert hidden["Content-Type"] == "application/json"
    assert hidden.json() == missing.json()
    assert hidden.json()["code"] == "not_found"
