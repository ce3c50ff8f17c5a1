"""A table series across rule sets: the pot a series carries never disappears.

A series' pot passes from table to table of the rule sets that keep a pot (wien's and the
other Austrian rule sets' ``pot``, Doppelkopf's Kasse); a table whose rule set keeps none
(Preferans, danube-swabian, the DDV rules) takes nothing from the series, which keeps the pot
for its next table that keeps one (docs/games.md, "The pot and the series").
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from clubs.models import User
from games import services
from games.models import POT, SERIES, LedgerEntry, Table, TableSeries
from games.random_entries import random_entry
from games.rulesets import money_key
from games.services.tables import table_balances
from tests.games.conftest import FELL, RULES, hands_url
from tests.rule_sets import every_rule_set

pytestmark = pytest.mark.django_db

Client = Callable[[User | None], APIClient]
PREFERANS = {"variant": "preferans", "convention": "sochi", "pool_target": 4, "whist_value": 10}


def record_until_the_pot_holds_money(client: APIClient, table: Table, seed: int) -> int:
    """Record random valid entries until the table's pot holds money; the pot."""
    rng = random.Random(seed)
    for _ in range(30):
        response = client.post(hands_url(table), random_entry(table, rng), format="json")
        assert response.status_code == 201, response.json()
        pot = table_balances(table)[POT]
        if pot:
            return pot
    raise AssertionError("thirty deals left the pot empty")


def close(client: APIClient, table: Table) -> dict[str, Any]:
    response = client.post(f"/api/v1/tables/{table.pk}/close/")
    assert response.status_code == 200, response.json()
    return response.json()


def series_books(series: TableSeries) -> dict[str, int]:
    """Every party's balance over all the series' tables, the ledger's ``series`` included."""
    balances: dict[str, int] = {}
    for row in LedgerEntry.objects.filter(table__series=series):
        balances[row.payer] = balances.get(row.payer, 0) - row.amount
        balances[row.payee] = balances.get(row.payee, 0) + row.amount
    return balances


def check_no_money_disappeared(series: TableSeries) -> None:
    """The ledger of the whole series sums to zero, no closed table keeps money in its pot,
    and what the players lost over the series is what the series (and open tables' pots) hold."""
    books = series_books(series)
    assert sum(books.values()) == 0
    closed = Table.objects.filter(series=series, status=Table.Status.CLOSED)
    for table in closed:
        assert table_balances(table)[POT] == 0, f"{table.rules['variant']} kept the pot"
    open_pots = sum(
        table_balances(t)[POT] for t in Table.objects.filter(series=series, status="open")
    )
    players = sum(v for k, v in books.items() if k not in (POT, SERIES))
    assert players + services.series_pot(series) + open_pots == 0


def test_a_preferans_table_takes_no_pot_and_the_next_short_rules_table_gets_it(
    make_table: Callable[..., Table], client_for: Client, anna: User
) -> None:
    """The issue's series: kurz closes with money in its pot, a Preferans table follows in the
    same series, then kurz again; the pot waits in the series for the second kurz table."""
    client = client_for(anna)
    first = make_table(rules={"variant": "kurz"})
    pot = record_until_the_pot_holds_money(client, first, seed=3)
    assert close(client, first)["pot"] == 0
    assert services.series_pot(first.series) == pot

    preferans = make_table(rules=PREFERANS, series_id=first.series_id)
    assert preferans.opening_pot == 0
    assert not LedgerEntry.objects.filter(table=preferans, reason="carry_in").exists()
    shown = client.get(f"/api/v1/tables/{preferans.pk}/").json()
    assert shown["opening_pot"] == 0
    both_pass = {
        "game": {"type": "contract", "level": 6, "strain": "S"},
        "declarer": "anna",
        "defence": {"bert": "pass", "carl": "pass"},
    }
    assert client.post(hands_url(preferans), both_pass, format="json").status_code == 201
    closing = close(client, preferans)
    assert closing["pot"] == 0 and closing["pot_net"] == 0
    assert sum(closing["nets"].values()) == 0
    assert services.series_pot(first.series) == pot  # still waiting in the series
    check_no_money_disappeared(first.series)

    second = make_table(rules={"variant": "kurz"}, series_id=first.series_id)
    assert second.opening_pot == pot
    assert LedgerEntry.objects.get(table=second, reason="carry_in").amount == pot
    assert services.series_pot(first.series) == 0
    check_no_money_disappeared(first.series)


def test_a_table_of_no_pot_closes_out_a_pot_it_was_given_before(
    make_table: Callable[..., Table], client_for: Client, anna: User
) -> None:
    """A Preferans table opened before this rule with a pot carried in (its ``carry_in``
    row): its close carries that pot back to the series rather than keeping it."""
    client = client_for(anna)
    first = make_table()
    client.post(hands_url(first), FELL, format="json")
    pot = close(client, first)["pot_net"]
    preferans = make_table(rules=PREFERANS, series_id=first.series_id)
    LedgerEntry.objects.create(table=preferans, payer=SERIES, payee=POT, amount=pot,
                               reason="carry_in")  # fmt: skip
    Table.objects.filter(pk=preferans.pk).update(opening_pot=pot)
    closing = close(client, preferans)
    assert closing["pot"] == 0
    assert LedgerEntry.objects.get(table=preferans, reason="carry_out").amount == pot
    assert services.series_pot(first.series) == pot
    check_no_money_disappeared(first.series)


@every_rule_set()
def test_a_series_through_every_rule_set_sums_to_zero_and_keeps_its_pot(
    rs: engine.RuleSet[Any, Any, Any],
    make_table: Callable[..., Table],
    client_for: Client,
    anna: User,
) -> None:
    """wien leaves a pot, a table of ``rs`` follows in the series and closes, then wien again:
    the pot is ``rs``'s table's when its rule set keeps one, else it waits for the next wien
    table; at every step the series' ledger sums to zero and no pot disappears."""
    client = client_for(anna)
    seats = min(rs.table.seats)
    first = make_table(rules=RULES, seats=seats)
    pot = record_until_the_pot_holds_money(client, first, seed=1)
    close(client, first)
    series = first.series

    middle = make_table(rules=rs.examples[0], seats=seats, series_id=series.pk)
    keeps_a_pot = money_key(rs) is not None
    assert middle.opening_pot == (pot if keeps_a_pot else 0)
    rng = random.Random(5)
    for _ in range(2):
        response = client.post(hands_url(middle), random_entry(middle, rng), format="json")
        assert response.status_code == 201, response.json()
    check_no_money_disappeared(series)
    close(client, middle)
    check_no_money_disappeared(series)

    held = services.series_pot(series)
    if not keeps_a_pot:
        assert held == pot
    last = make_table(rules=RULES, seats=seats, series_id=series.pk)
    assert last.opening_pot == held
    check_no_money_disappeared(series)


def test_a_closed_table_of_no_pot_gives_back_the_pot_it_kept_before_this_rule(
    make_table: Callable[..., Table], client_for: Client, anna: User
) -> None:
    """games 0007: a Preferans table that took the series' pot in and closed keeping it (as
    tables did before this rule) carries it back to the series, and its stored settlement
    says its pot is empty; a wien table's close and a Preferans table without a pot stay."""
    from django.apps import apps

    migration = importlib.import_module(
        "games.migrations.0007_carry_out_pots_left_at_closed_tables"
    )
    client = client_for(anna)
    first = make_table()
    client.post(hands_url(first), FELL, format="json")
    pot = close(client, first)["pot_net"]
    preferans = make_table(rules=PREFERANS, series_id=first.series_id)
    # as it was: the pot carried in, and a close that kept it
    LedgerEntry.objects.create(table=preferans, payer=SERIES, payee=POT, amount=pot,
                               reason="carry_in")  # fmt: skip
    Table.objects.filter(pk=preferans.pk).update(opening_pot=pot)
    services.table_close(table_id=preferans.pk, user=anna)
    LedgerEntry.objects.filter(table=preferans, reason="carry_out").delete()
    Table.objects.filter(pk=preferans.pk).update(closing={**services.settlement_for(preferans)})
    assert table_balances(preferans)[POT] == pot and services.series_pot(first.series) == 0
    untouched = make_table(rules=PREFERANS)
    services.table_close(table_id=untouched.pk, user=anna)
    before = list(LedgerEntry.objects.exclude(table=preferans).values_list("pk", flat=True))

    migration.carry_out_left_pots(apps, None)

    assert LedgerEntry.objects.get(table=preferans, reason="carry_out").amount == pot
    preferans.refresh_from_db()
    assert preferans.closing["pot"] == 0 and preferans.closing["pot_net"] == 0
    assert services.series_pot(first.series) == pot
    check_no_money_disappeared(first.series)
    assert list(LedgerEntry.objects.exclude(table=preferans).values_list("pk", flat=True)) == before
    migration.carry_out_left_pots(apps, None)  # twice: nothing more
    assert LedgerEntry.objects.filter(table=preferans, reason="carry_out").count() == 1
