"""The hot paths' shortcuts give exactly what the general machinery gives: plain SQL
(``games/rows.py``) builds the ORM's instances and writes the ORM's rows, and the hand
serializer's plain rendering is DRF's field-by-field rendering."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from rest_framework import serializers

import engine
from clubs.models import User
from engine.bots import random_bot
from games import rows, selectors, services
from games.api.serializers import HandSerializer
from games.models import AuditEntry, Hand, LedgerEntry, Table
from games.services import common
from tests.games.world import ENTRY


def every_column(obj: Any) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def play(table: Table, hand: Hand, moves: int, users: dict[str, User]) -> Hand:
    rng = random.Random(5)
    for _ in range(moves):
        hand.refresh_from_db()
        state = services.hand_state(table, hand)
        if state.is_over:
            break
        move = random_bot.choose(state, rng)
        services.hand_apply_action(
            table_id=table.pk,
            number=hand.number,
            user=users[move.seat],
            action=engine.action_to_json(move, engine.PIQUET, seat=False),
            expected_version=hand.version,
        )
    hand.refresh_from_db()
    return hand


@pytest.fixture
def hands(
    make_table: Callable[..., Table], anna: User, bert: User, carl: User
) -> list[tuple[Table, Hand]]:
    """A recorded hand, one awaiting confirmation, a confirmed one, a hosted hand just dealt,
    one in the play and a finished one."""
    users = {"anna": anna, "bert": bert, "carl": carl}
    recorded = make_table()
    services.table_record_hand(table_id=recorded.pk, user=anna, entry=ENTRY)
    confirming = make_table(requires_confirmation=True)
    services.table_record_hand(table_id=confirming.pk, user=anna, entry=ENTRY)
    services.hand_confirm(table_id=confirming.pk, number=1, user=bert)
    services.table_record_hand(table_id=confirming.pk, user=anna, entry=ENTRY)
    hosted = make_table(mode=Table.Mode.HOSTED)
    services.hand_start(table_id=hosted.pk, user=anna)
    playing = make_table(mode=Table.Mode.HOSTED)
    play(playing, services.hand_start(table_id=playing.pk, user=anna), 12, users)
    done = make_table(mode=Table.Mode.HOSTED)
    play(done, services.hand_start(table_id=done.pk, user=anna), 200, users)
    out = []
    for table in (recorded, confirming, hosted, playing, done):
        for hand in selectors.hands_for_table(table=table):
            out.append((table, hand))
    assert {h.status for _, h in out} == {"done", "pending", "playing"}
    return out


@pytest.mark.django_db
def test_the_hand_serializer_renders_like_drf_field_by_field(
    hands: list[tuple[Table, Hand]],
) -> None:
    for table, hand in hands:
        serializer = HandSerializer(hand, context={"table": table})
        generic = serializers.ModelSerializer.to_representation(serializer, hand)
        assert serializer.data == generic
        assert list(serializer.data) == list(HandSerializer.Meta.fields)


@pytest.mark.django_db
def test_plain_sql_loads_the_instances_the_orm_loads(hands: list[tuple[Table, Hand]]) -> None:
    hand_columns, table_columns = rows.Columns(Hand, "h"), rows.Columns(Table, "t")
    for table, hand in hands:
        row = rows.fetch(
            f"SELECT {hand_columns.sql}, {table_columns.sql} FROM games_hand h "
            "JOIN games_table t ON t.id = h.table_id WHERE h.id = %s",
            [hand.pk],
        )
        assert row is not None
        loaded = hand_columns.instance(row)
        assert every_column(loaded) == every_column(Hand.objects.get(pk=hand.pk))
        assert loaded._state.adding is False
        assert every_column(table_columns.instance(row, len(hand_columns))) == every_column(
            Table.objects.get(pk=table.pk)
        )
        with transaction.atomic():  # the service's lock gives the same hand and table
            locked_table, locked = common.lock_hand(table.pk, hand.number)
        assert every_column(locked) == every_column(loaded)
        assert locked.table is locked_table
        assert [s.key for s in locked_table.seats.all()] == services.seat_keys(table)


@pytest.mark.django_db
def test_plain_sql_writes_the_rows_the_orm_writes(recorded: Table, anna: User) -> None:
    hand = services.table_record_hand(table_id=recorded.pk, user=anna, entry=ENTRY)
    again = Hand.objects.get(pk=hand.pk)
    assert model_to_dict(again) == model_to_dict(hand)
    assert every_column(again) == every_column(hand)  # created_at, updated_at as written
    ledger = list(LedgerEntry.objects.filter(hand=hand).order_by("id"))
    assert [(e.payer, e.payee, e.amount, e.reason) for e in ledger] == [
        (t["from"], t["to"], t["amount"], t["why"]) for t in hand.result["transfers"]
    ]
    audit = AuditEntry.objects.get(table=recorded, action="hand_record")
    assert audit.after["result"] == hand.result and audit.user == anna

    before = again.updated_at
    again.entry = {**again.entry, "note": "x"}
    again.version = 7
    rows.update(again, ["entry", "version", "updated_at"])
    stored = Hand.objects.get(pk=hand.pk)
    assert stored.entry["note"] == "x" and stored.version == 7
    assert stored.updated_at == again.updated_at > before  # auto_now applied
    assert stored.result == hand.result  # other columns untouched


@pytest.mark.django_db
def test_the_lock_clause_fits_the_database() -> None:
    clause = rows.for_update("h")
    if connection.vendor == "postgresql":
        assert clause == " FOR UPDATE OF h"
    elif connection.vendor == "sqlite":
        assert clause == ""  # SQLite locks the database file for the transaction instead


@pytest.mark.django_db
def test_inserts_work_where_the_database_cannot_return_ids_of_many_rows(
    recorded: Table, anna: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite before 3.35 has no ``RETURNING``: rows are then inserted one by one."""
    monkeypatch.setattr(type(connection.features), "can_return_rows_from_bulk_insert", False)
    hand = services.table_record_hand(table_id=recorded.pk, user=anna, entry=ENTRY)
    assert every_column(Hand.objects.get(pk=hand.pk)) == every_column(hand)
    assert LedgerEntry.objects.filter(hand=hand).count() == len(hand.result["transfers"]) > 0
    assert AuditEntry.objects.filter(table=recorded, hand_number=1).exists()
