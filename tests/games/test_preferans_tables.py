"""A Preferans table keeps a pulya (``spec/next/preferans.md`` §9–§11, §13): each deal is scored
on the sheet the table carries (pool, mountain, whists; points, not money), the game ends when
every pool is full, and closing the table settles the sheet into money through the ledger.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from clubs.models import User
from games import services
from games.errors import RuleViolation, TableConflict
from games.models import LedgerEntry, Table
from games.services.tables import table_balances
from tests.openapi import schema_errors

pytestmark = pytest.mark.django_db

#: Sochi, a pool of 4 points each and 10 cents a whist.
RULES = {"variant": "preferans", "convention": "sochi", "pool_target": 4, "whist_value": 10}


def six_spades(declarer: str, tricks: dict[str, int], defence: dict[str, str]) -> dict[str, Any]:
    return {
        "game": {"type": "contract", "level": 6, "strain": "S"},
        "declarer": declarer,
        "defence": defence,
        "tricks": tricks,
    }


def both_pass(declarer: str, defenders: tuple[str, str]) -> dict[str, Any]:
    """6♠ that both defenders pass: it counts as made, 2 pool points (§5, §9.1)."""
    return {
        "game": {"type": "contract", "level": 6, "strain": "S"},
        "declarer": declarer,
        "defence": dict.fromkeys(defenders, "pass"),
    }


def record(table: Table, user: User, entry: dict[str, Any]) -> Any:
    return services.table_record_hand(table_id=table.pk, user=user, entry=entry).result


def test_a_new_table_opens_a_pulya_with_an_empty_sheet(make_table: Callable[..., Table]) -> None:
    table = make_table(rules=RULES)
    assert table.opening_carry == {
        "streak": 0,
        "sheet": {"pool": {"anna": 0, "bert": 0, "carl": 0},
                  "mountain": {"anna": 0, "bert": 0, "carl": 0}, "whists": {}},
    }  # fmt: skip


def test_each_deal_is_scored_on_the_sheet_the_last_one_left(
    make_table: Callable[..., Table], anna: User
) -> None:
    """carl deals first: anna, bert, carl are first, second and third hand; then anna deals."""
    table = make_table(rules=RULES)
    first = record(
        table, anna,
        six_spades("anna", {"anna": 6, "bert": 2, "carl": 2}, {"bert": "whist", "carl": "whist"}),
    )  # fmt: skip
    assert first["sheet"]["pool"] == {"anna": 2, "bert": 0, "carl": 0}
    # the API's Result: the engine's, the money a points deal moves spelled out as none
    assert not schema_errors("Result", first)
    assert first["delta"] == {"anna": 0, "bert": 0, "carl": 0} and first["transfers"] == []
    assert first["stake"] is None and first["pot"] is None and first["fallen"] == []
    assert first["sheet"]["whists"] == {"bert": {"anna": 4}, "carl": {"anna": 4}}
    # anna deals: bert is first hand, carl second, anna third; bert goes down one at 6♠
    second = record(
        table, anna,
        six_spades("bert", {"bert": 5, "carl": 3, "anna": 2}, {"carl": "whist", "anna": "whist"}),
    )  # fmt: skip
    assert second["sheet"]["pool"] == {"anna": 2, "bert": 0, "carl": 0}
    assert second["sheet"]["mountain"] == {"anna": 0, "bert": 2, "carl": 0}
    assert second["sheet"]["whists"] == {  # §9.1: 2 a trick of one's own, 2 consolation
        "anna": {"bert": 2 * 2 + 2},
        "bert": {"anna": 4},
        "carl": {"anna": 4, "bert": 3 * 2 + 2},
    }
    assert not LedgerEntry.objects.filter(table=table).exists()  # points, not money


def test_raspasy_streaks_carry_from_deal_to_deal(
    make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(rules=RULES)
    raspasy = {"game": {"type": "raspasy"}, "tricks": {"anna": 0, "bert": 4, "carl": 6}}
    assert record(table, anna, raspasy)["streak"] == 1
    again = {"game": {"type": "raspasy"}, "tricks": {"bert": 3, "carl": 3, "anna": 4}}
    result = record(table, anna, again)
    assert result["streak"] == 2
    assert result["entry"]["mountain"] == {"anna": 8, "bert": 6, "carl": 6}  # b = 2 (§8.3)


def test_correcting_a_deal_recomputes_the_sheet_from_that_deal_on(
    make_table: Callable[..., Table], anna: User
) -> None:
    """anna's 6♠ of the first deal becomes bert's: the pools of every later deal follow, and
    the table's settlement (the pulya in whists) is the corrected one."""
    table = make_table(rules=RULES)
    record(table, anna, both_pass("anna", ("bert", "carl")))
    record(table, anna, both_pass("bert", ("carl", "anna")))
    third = record(table, anna, both_pass("carl", ("anna", "bert")))
    assert third["sheet"]["pool"] == {"anna": 2, "bert": 2, "carl": 2}
    services.hand_edit(
        table_id=table.pk, number=1, user=anna, entry=both_pass("bert", ("anna", "carl"))
    )
    later = [h.result["sheet"]["pool"] for h in table.hands.order_by("number")]
    assert later == [
        {"anna": 0, "bert": 2, "carl": 0},
        {"anna": 0, "bert": 4, "carl": 0},
        {"anna": 0, "bert": 4, "carl": 2},
    ]
    settled = services.settlement_for(Table.objects.get(pk=table.pk))
    expected = engine.settle(
        {
            "rules": table.rules,
            "seats": ["anna", "bert", "carl"],
            "sheet": table.hands.get(number=3).result["sheet"],
        }
    )
    assert settled["score_unit"] == "whists"
    assert settled["scores"] == expected["result"]


def test_when_every_pool_is_full_the_game_is_over_and_no_hand_follows(
    make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(rules=RULES)
    rotation = [("anna", ("bert", "carl")), ("bert", ("carl", "anna")), ("carl", ("anna", "bert"))]
    results = [record(table, anna, both_pass(*who)) for who in rotation * 2]
    assert [r["game_over"] for r in results] == [False] * 5 + [True]
    assert results[-1]["sheet"]["pool"] == {"anna": 4, "bert": 4, "carl": 4}
    with pytest.raises(RuleViolation, match="the game is over"):
        record(
            table, anna, {"game": {"type": "raspasy"}, "tricks": {"bert": 4, "carl": 3, "anna": 3}}
        )


def test_a_hosted_table_deals_no_hand_after_the_game_end(
    make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(mode=Table.Mode.HOSTED, rules=RULES)
    full = {
        "pool": {"anna": 4, "bert": 4, "carl": 4},
        "mountain": {"anna": 0, "bert": 0, "carl": 0},
        "whists": {},
    }
    Table.objects.filter(pk=table.pk).update(opening_carry={"streak": 0, "sheet": full})
    with pytest.raises(TableConflict, match="No further hand can be dealt") as refused:
        services.hand_start(table_id=table.pk, user=anna)
    assert refused.value.code == "game_over"
    assert not table.hands.exists()


def test_closing_settles_the_sheet_into_money_and_reopening_takes_it_back(
    make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(rules=RULES)
    last = None
    for entry in (
        six_spades("anna", {"anna": 4, "bert": 3, "carl": 3}, {"bert": "whist", "carl": "whist"}),
        {"game": {"type": "raspasy"}, "tricks": {"bert": 1, "carl": 5, "anna": 4}},
    ):
        last = record(table, anna, entry)
    assert last is not None
    expected = engine.rule_set("preferans").close(
        engine.parse_rules(RULES), ["anna", "bert", "carl"], {"sheet": last["sheet"]}
    )
    services.table_close(table_id=table.pk, user=anna)
    rows = list(LedgerEntry.objects.filter(table=table, hand__isnull=True))
    assert [(r.payer, r.payee, r.amount, r.reason) for r in rows] == [
        (t["from"], t["to"], t["amount"], "score") for t in expected.transfers
    ]
    assert rows, "the pulya had mountains and whists: somebody pays"
    balances = table_balances(table)
    assert sum(balances[s] for s in ("anna", "bert", "carl")) == 0
    settled = engine.settle(
        {"rules": RULES, "seats": ["anna", "bert", "carl"], "sheet": last["sheet"]}
    )
    assert {s: balances[s] for s in ("anna", "bert", "carl")} == settled["money"]

    services.table_reopen(table_id=table.pk, user=anna)
    assert not LedgerEntry.objects.filter(table=table).exists()


def test_the_running_sheet_shows_the_pulya_after_each_hand_in_json_and_csv(
    make_table: Callable[..., Table], anna: User, client_for: Callable[[User], APIClient]
) -> None:
    table = make_table(rules=RULES)
    results = [
        record(table, anna, entry)
        for entry in (
            six_spades(
                "anna", {"anna": 4, "bert": 3, "carl": 3}, {"bert": "whist", "carl": "whist"}
            ),
            {"game": {"type": "raspasy"}, "tricks": {"bert": 1, "carl": 5, "anna": 4}},
        )
    ]
    client = client_for(anna)
    sheet = client.get(f"/api/v1/tables/{table.pk}/sheet/").json()
    assert not schema_errors("ScoreSheet", sheet)
    assert [row["pulya"] for row in sheet["rows"]] == [r["sheet"] for r in results]
    assert [row["details"] for row in sheet["rows"]] == [r["sheet"] for r in results]
    assert sheet["variant"] == "preferans" and not schema_errors("PreferansScoreSheet", sheet)
    assert all(row["doppelkopf"] is None for row in sheet["rows"])
    assert [row["game"] for row in sheet["rows"]] == ["6S", "raspasy"]
    assert all(row["balances"] == {"anna": 0, "bert": 0, "carl": 0} for row in sheet["rows"])

    text = client.get(f"/api/v1/tables/{table.pk}/sheet.csv").content.decode()
    lines = list(csv.DictReader(io.StringIO(text)))
    last = lines[-1]
    assert last["anna mountain"] == str(results[-1]["sheet"]["mountain"]["anna"])
    assert last["bert>anna"] == str(results[-1]["sheet"]["whists"]["bert"]["anna"])
    assert last["anna>bert"] == "0"
    assert [line["carl pool"] for line in lines] == ["0", "0"]
