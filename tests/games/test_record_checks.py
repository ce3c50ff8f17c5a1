"""Score-sheet entries the engine refuses are refused by the API as they are: the HTTP layer
adds no check of its own, so the engine's ``at`` is the field named (``400 rule_violation``,
``fields``) and nothing is booked; and exported records read as their pages write them."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import User
from games.models import Hand, LedgerEntry, Table
from tests.games.conftest import hand_url, hands_url

Client = Callable[[User | None], APIClient]

OLD = {"variant": "austria-1829", "unit": 1, "ante": 240}
MODERN = {"variant": "austria-modern", "unit": 10, "ante": 100, "four_aces_bonus": 10}
PREFERANS = {"variant": "preferans", "convention": "sochi", "pool_target": 20}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("rules", "entry", "field"),
    [
        pytest.param(OLD, {"game": None}, "forced", id="1829-bare-null-with-a-forced-rearhand"),
        pytest.param(
            {**OLD, "walkover_value": "bid"},
            {
                "game": {"type": "suit", "level": "S", "talon": True},
                "declarer": "anna",
                "defence": {"bert": "home", "carl": "home"},
                "bid": "D",
            },
            "bid",
            id="1829-walkover-below-the-bid",
        ),
        pytest.param(MODERN, {"game": None}, "game", id="modern-null-with-a-forced-rearhand"),
        pytest.param(
            MODERN,
            {
                "game": {"type": "suit", "level": "D", "talon": True},
                "defence": {"bert": "home", "carl": "home"},
            },
            "declarer",
            id="missing-declarer",
        ),
    ],
)
def test_a_wrong_austrian_entry_answers_400_naming_the_field(
    client_for: Client,
    make_table: Callable[..., Table],
    anna: User,
    rules: dict[str, Any],
    entry: dict[str, Any],
    field: str,
) -> None:
    table = make_table(rules=rules)
    response = client_for(anna).post(hands_url(table), entry, format="json")
    assert response.status_code == 400, response.json()
    error = response.json()
    assert error["code"] == "rule_violation"
    assert error["fields"] == {field: [error["message"]]}
    assert not Hand.objects.exists() and not LedgerEntry.objects.exists()


@pytest.mark.django_db
def test_the_forced_players_pass_and_a_bonus_named_alone_are_booked(
    client_for: Client, make_table: Callable[..., Table], anna: User
) -> None:
    old = make_table(rules=OLD)
    forced_pass = {"game": None, "forced": "pass", "declarer": "carl"}
    response = client_for(anna).post(hands_url(old), forced_pass, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["result"]["delta"] == {"anna": 0, "bert": 0, "carl": -10}

    modern = make_table(rules=MODERN)
    walkover = {
        "game": {"type": "suit", "level": "D", "talon": True},
        "declarer": "anna",
        "defence": {"bert": "home", "carl": "home"},
        "bonuses": {"four_aces": True},
    }
    response = client_for(anna).post(hands_url(modern), walkover, format="json")
    assert response.status_code == 201, response.json()
    bonus = [t for t in response.json()["result"]["transfers"] if t["why"] == "bonus"]
    assert [(t["from"], t["to"], t["amount"]) for t in bonus] == [
        ("bert", "anna", 100),
        ("carl", "anna", 100),
    ]


@pytest.mark.django_db
def test_an_exported_preferans_record_without_a_whist_price_leaves_whist_value_out(
    client_for: Client, make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(rules=PREFERANS)
    entry = {
        "game": {"type": "contract", "level": 6, "strain": "S"},
        "declarer": "anna",
        "defence": {"bert": "pass", "carl": "pass"},
    }
    assert client_for(anna).post(hands_url(table), entry, format="json").status_code == 201
    exported = client_for(anna).get(hand_url(table, 1, "record/")).json()["record"]
    assert "whist_value" not in exported["rules"]
    assert None not in exported["rules"].values()


@pytest.mark.django_db
def test_tables_stored_with_a_null_whist_value_lose_it(
    client_for: Client, make_table: Callable[..., Table], anna: User
) -> None:
    """games 0006: a Preferans table stored while ``whist_value: null`` was spelled out
    exports and matches like a new one."""
    from django.apps import apps

    migration = importlib.import_module(
        "games.migrations.0006_preferans_rules_leave_out_whist_value"
    )
    old = make_table(rules=PREFERANS)
    priced = make_table(rules={**PREFERANS, "whist_value": 5})
    Table.objects.filter(pk=old.pk).update(rules={**old.rules, "whist_value": None})
    migration.leave_out_null_whist_value(apps, None)
    old.refresh_from_db()
    priced.refresh_from_db()
    assert "whist_value" not in old.rules and priced.rules["whist_value"] == 5
    entry = {
        "game": {"type": "contract", "level": 6, "strain": "S"},
        "declarer": "anna",
        "defence": {"bert": "pass", "carl": "pass"},
        "rules": {**PREFERANS, "whist_value": None},
    }
    assert client_for(anna).post(hands_url(old), entry, format="json").status_code == 201
