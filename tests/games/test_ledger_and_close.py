"""The ledger, balances, settlement and closing a table (carry and split)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from clubs.models import User
from games import services
from games.models import Hand, LedgerEntry, Table, ledger_reasons
from games.services.common import ledger_entry
from tests.games.conftest import AUSFECHTEN, FELL, MADE, SPLIT_RULES, hand_url, hands_url
from tests.trickgame.results import REASONS as TRICKGAME_REASONS

Client = Callable[[User | None], APIClient]


def record_all(client: APIClient, table: Table, *entries: dict[str, Any]) -> None:
    for entry in entries:
        response = client.post(hands_url(table), entry, format="json")
        assert response.status_code == 201, response.json()


def url(table: Table, suffix: str) -> str:
    return f"/api/v1/tables/{table.pk}/{suffix}"


@pytest.mark.django_db
def test_every_hands_ledger_rows_balance_with_its_pot(
    client_for: Client, recorded: Table, anna: User
) -> None:
    record_all(client_for(anna), recorded, FELL, AUSFECHTEN, MADE, AUSFECHTEN)
    for hand in Hand.objects.filter(table=recorded):
        nets: Counter[str] = Counter()
        for row in LedgerEntry.objects.filter(hand=hand):
            nets[row.payer] -= row.amount
            nets[row.payee] += row.amount
        seats = sum(v for k, v in nets.items() if k != "pot")
        assert seats + nets["pot"] == 0
        assert nets["pot"] == hand.result["pot"] - hand.pot_before
        assert {k: nets[k] for k in ("anna", "bert", "carl")} == {
            k: hand.result["delta"].get(k, 0) for k in ("anna", "bert", "carl")
        }


@pytest.mark.django_db
def test_it_pages_and_filters_the_ledger(client_for: Client, recorded: Table, anna: User) -> None:
    client = client_for(anna)
    record_all(client, recorded, FELL, AUSFECHTEN)
    body = client.get(url(recorded, "ledger/")).json()
    assert body["count"] == LedgerEntry.objects.filter(table=recorded).count()
    first = body["results"][0]
    assert set(first) == {"id", "hand", "payer", "payee", "amount", "reason", "created_at"}
    assert first["hand"] == 1
    dealer = client.get(url(recorded, "ledger/"), {"reason": "dealer"}).json()["results"]
    assert [(r["payer"], r["hand"]) for r in dealer] == [("carl", 1), ("anna", 2)]
    hand_two = client.get(url(recorded, "ledger/"), {"hand": 2}).json()["results"]
    assert {r["hand"] for r in hand_two} == {2}
    bert = client.get(url(recorded, "ledger/"), {"party": "bert"}).json()["results"]
    assert bert and all("bert" in (r["payer"], r["payee"]) for r in bert)


@pytest.mark.django_db
def test_balances_and_the_settlement_preview_come_from_the_ledger(
    client_for: Client, recorded: Table, anna: User
) -> None:
    client = client_for(anna)
    record_all(client, recorded, FELL)
    balances = client.get(url(recorded, "balances/")).json()["balances"]
    assert balances == {"anna": -160, "bert": 30, "carl": -70, "pot": 200}
    preview = client.get(url(recorded, "settlement/")).json()
    assert preview["nets"] == {"anna": -160, "bert": 30, "carl": -70}
    assert preview["pot"] == 200
    assert preview["pot_net"] == 200
    assert [p["sentence"] for p in preview["payments"]] == [
        "anna pays 1.60 € into the pot (kept for the table's next sitting)",
        "carl pays 0.40 € into the pot (kept for the table's next sitting)",
        "carl pays bert 0.30 €",
    ]
    assert Table.objects.get(pk=recorded.pk).status == "open"


@pytest.mark.django_db
def test_closing_with_carry_moves_the_pot_to_the_next_table_of_the_series(
    client_for: Client, make_table: Callable[..., Table], anna: User
) -> None:
    client = client_for(anna)
    table = make_table()
    record_all(client, table, FELL)
    response = client.post(url(table, "close/"))
    assert response.status_code == 200, response.json()
    closing = response.json()
    assert closing["nets"] == {"anna": -160, "bert": 30, "carl": -70}
    assert sum(closing["nets"].values()) == -200  # the pot holds the difference
    assert closing["pot"] == 0
    assert closing["pot_net"] == 200
    payments = closing["payments"]
    assert any(p["to"] == "pot" for p in payments)
    assert sum(p["amount"] for p in payments if p["to"] == "pot") == 200
    assert closing["payments"][0]["sentence"] == (
        "anna pays 1.60 € into the pot (kept for the table's next sitting)"
    )

    detail = client.get(f"/api/v1/tables/{table.pk}/").json()
    assert detail["status"] == "closed"
    assert detail["closing"] == closing
    assert detail["next_dealer"] is None
    assert detail["pot"] == 0
    series = client.get(f"/api/v1/series/{table.series_id}/").json()
    assert series["pot"] == 200 == services.series_pot(table.series)

    following = make_table(series_id=table.series_id)
    assert following.opening_pot == 200
    assert LedgerEntry.objects.get(table=following).reason == "carry_in"
    first = client.post(hands_url(following), MADE, format="json").json()
    assert first["pot_before"] == 200
    assert first["stake"] == 300
    assert client.get(f"/api/v1/series/{table.series_id}/").json()["pot"] == 0
    assert client.get(f"/api/v1/tables/{following.pk}/").json()["opening_pot"] == 200


@pytest.mark.django_db
def test_closing_with_split_shares_the_pot_leftover_cents_to_the_first_seats(
    client_for: Client, make_table: Callable[..., Table], anna: User
) -> None:
    client = client_for(anna)
    table = make_table(rules=SPLIT_RULES)
    record_all(client, table, FELL)  # pot 200: 67, 67, 66
    closing = client.post(url(table, "close/")).json()
    split = LedgerEntry.objects.filter(table=table, reason="split").order_by("id")
    assert [(r.payee, r.amount) for r in split] == [("anna", 67), ("bert", 67), ("carl", 66)]
    assert closing["nets"] == {"anna": -93, "bert": 97, "carl": -4}
    assert sum(closing["nets"].values()) == 0
    assert closing["pot_net"] == 0
    assert [p["sentence"] for p in closing["payments"]] == [
        "anna pays bert 0.93 €",
        "carl pays bert 0.04 €",
    ]
    assert services.series_pot(table.series) == 0


@pytest.mark.django_db
def test_it_refuses_to_close_while_a_hand_is_pending_or_twice(
    client_for: Client, make_table: Callable[..., Table], anna: User, bert: User
) -> None:
    table = make_table(requires_confirmation=True)
    record_all(client_for(anna), table, MADE)
    response = client_for(anna).post(url(table, "close/"))
    assert response.status_code == 409
    client_for(bert).post(hand_url(table, 1, "confirm/"))
    assert client_for(anna).post(url(table, "close/")).status_code == 200
    again = client_for(anna).post(url(table, "close/"))
    assert again.status_code == 409
    assert again.json()["code"] == "table_conflict"


@pytest.mark.django_db
def test_it_refuses_to_close_a_hosted_table_mid_hand(
    client_for: Client, hosted: Table, anna: User
) -> None:
    client_for(anna).post(hands_url(hosted))
    assert client_for(anna).post(url(hosted, "close/")).status_code == 409


@pytest.mark.django_db
def test_payments_name_guests_and_users_by_their_display_names(
    client_for: Client, make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(kinds={"carl": "guest"})
    record_all(client_for(anna), table, FELL)
    sentences = [
        p["sentence"] for p in client_for(anna).get(url(table, "settlement/")).json()["payments"]
    ]
    assert "Carl pays bert 0.30 €" in sentences


@pytest.mark.django_db
def test_the_settlement_says_its_payments_are_proven_fewest(
    client_for: Client, recorded: Table, anna: User
) -> None:
    client = client_for(anna)
    record_all(client, recorded, FELL)
    assert client.get(url(recorded, "settlement/")).json()["payments_proven"] is True
    assert client.post(url(recorded, "close/")).json()["payments_proven"] is True
    # a closing stored before the field existed does not say
    stored = Table.objects.get(pk=recorded.pk).closing
    del stored["payments_proven"]
    Table.objects.filter(pk=recorded.pk).update(closing=stored)
    assert client.get(url(recorded, "")).json()["closing"]["payments_proven"] is None


@pytest.mark.django_db
def test_a_ledger_row_for_a_word_no_rule_set_declares_is_refused(recorded: Table) -> None:
    """A reason is checked against the registered rule sets' words and the table's own when a
    row is written, and by the model's validator: an undeclared word never reaches the
    ledger."""
    with pytest.raises(ValueError, match="'bogus'"):
        ledger_entry(recorded, None, payer="anna", payee="pot", amount=10, reason="bogus")
    with pytest.raises(ValidationError, match="bogus"):
        LedgerEntry(
            table=recorded, payer="anna", payee="pot", amount=10, reason="bogus"
        ).full_clean()
    assert "bogus" not in ledger_reasons()
    assert not LedgerEntry.objects.filter(reason="bogus").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("reason", [*TRICKGAME_REASONS, "carry_in", "carry_out", "split", "dealer"])
def test_a_ledger_row_takes_a_registered_rule_sets_word_or_the_tables_own(
    recorded: Table, reason: str
) -> None:
    """The words of a rule set the test suite registers (trickgame's ``exact``, ``nil``) count
    as wien's do: the list is asked of the registry when a row is written."""
    row = ledger_entry(recorded, None, payer="anna", payee="bert", amount=10, reason=reason)
    row.full_clean()
    row.save()
    assert LedgerEntry.objects.get(pk=row.pk).reason == reason
