"""``result_entered`` goes out once per change of a table's result: not again when the
worker looks at an unchanged table twice, when a round closes, or when a player confirms
totals that already count; a correction is a change, with the next ``revision``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.tournaments.setup import Field, another_entry, make_field, play, seat
from tournaments import services
from tournaments.models import Delivery, RoundSeat, RoundTable, Webhook

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]


def listen(f: Field) -> Webhook:
    """A webhook for result_entered (on a private address nothing is sent: the deliveries
    are what the tournament emitted)."""
    return Webhook.objects.create(
        tournament_id=f.tournament_id,
        url="http://127.0.0.1:9/hook",
        events=["result_entered"],
        secret="s" * 64,
        created_by=f.director,
    )


def sent(webhook: Webhook) -> list[dict[str, Any]]:
    return [
        d.payload["data"]
        for d in Delivery.objects.filter(webhook=webhook, event="result_entered").order_by(
            "created_at"
        )
    ]


def test_it_sends_result_entered_once_per_change_of_a_tables_hands(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, deals_per_round=3)
    webhook = listen(f)
    seat(f)
    play(f, 1, random.Random(6))
    assert len(sent(webhook)) == 6  # three hands at each of two tables

    link = RoundTable.objects.get(round__tournament_id=f.tournament_id, number=1)
    services.table_hands_changed(table_id=link.table_id)  # the worker runs a task twice
    f.post("rounds/1/close/")  # closing changes no hand
    assert len(sent(webhook)) == 6

    table = link.table
    entry, _ = another_entry(table, 3)
    answer = f.boss().put(f"/api/v1/tables/{table.pk}/hands/3/", entry, format="json")
    assert answer.status_code == 200, answer.content
    events = sent(webhook)
    assert len(events) == 7
    assert events[-1] == {"round": 1, "table": 1, "revision": 4, "hands_done": 3}
    by_table = [(e["table"], e["revision"]) for e in events]
    assert len(by_table) == len(set(by_table))


def test_it_sends_result_entered_once_per_change_of_confirmed_totals(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, results="totals")
    webhook = listen(f)
    seat(f)
    link = RoundTable.objects.get(round__tournament_id=f.tournament_id, number=1)
    seats = list(RoundSeat.objects.filter(round_table=link).select_related("entry__user"))
    url = "rounds/1/tables/1/totals/"
    amounts = {s.seat: a for s, a in zip(seats, (30, -10, -20), strict=True)}
    entered = f.boss().put(f.url + url, {"amounts": amounts}, format="json")
    assert entered.status_code == 200, entered.content
    assert len(sent(webhook)) == 1

    # a player confirms totals that already count: nothing changed
    f.post(url + "confirm/", {"version": entered.json()["version"]}, user=seats[0].entry.user)
    f.post(url + "confirm/", {"version": entered.json()["version"]}, user=seats[0].entry.user)
    assert len(sent(webhook)) == 1

    corrected = {**amounts, seats[0].seat: 20, seats[1].seat: 0}
    assert f.boss().put(f.url + url, {"amounts": corrected}, format="json").status_code == 200
    events = sent(webhook)
    assert [e["revision"] for e in events] == [1, 2]
    assert events[-1]["totals"] == corrected
