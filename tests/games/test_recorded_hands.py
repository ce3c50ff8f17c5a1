"""Recorded hands: score-sheet entries settled by the engine, corrected, deleted, confirmed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import User
from games.models import AuditEntry, Hand, LedgerEntry, Table
from tests.games.conftest import (
    AUSFECHTEN,
    FELL,
    MADE,
    RULES,
    hand_url,
    hands_url,
    suit_game,
)

Client = Callable[[User | None], APIClient]


def record(client: APIClient, table: Table, entry: dict[str, Any], **headers: str) -> Any:
    return client.post(hands_url(table), entry, format="json", headers=headers)


def ledger_of(hand: Hand) -> list[tuple[str, str, int, str]]:
    return [(r.payer, r.payee, r.amount, r.reason) for r in hand.ledger.order_by("id")]


def transfers(result: dict[str, Any]) -> list[tuple[str, str, int, str]]:
    return [(t["from"], t["to"], t["amount"], t["why"]) for t in result["transfers"]]


@pytest.mark.django_db
def test_it_records_an_entry_and_fills_in_the_common_part(
    client_for: Client, recorded: Table, anna: User
) -> None:
    response = record(client_for(anna), recorded, MADE)
    assert response.status_code == 201, response.json()
    hand = response.json()
    assert hand["number"] == 1
    assert hand["status"] == "done"
    assert hand["dealer"] == "carl"
    assert hand["pot_before"] == 0
    assert hand["stake"] == 100
    assert hand["entered_by"] == "anna"
    assert hand["entry"] == MADE
    assert hand["result"]["made"] is True
    assert hand["result"]["delta"] == {"anna": 60, "bert": 20, "carl": -80}
    assert hand["commitment"] is None and hand["proof"] is None

    full = client_for(anna).get(hand_url(recorded, 1, "record/")).json()
    assert full["record"] == {
        "rules": recorded.rules,
        "seats": ["anna", "bert", "carl"],
        "dealer": "carl",
        "pot": 0,
        **MADE,
    }
    assert full["result"] == hand["result"]
    stored = Hand.objects.get(table=recorded, number=1)
    assert ledger_of(stored) == transfers(hand["result"])


@pytest.mark.django_db
def test_the_next_hand_is_dealt_by_the_next_seat_with_the_pot_carried(
    client_for: Client, recorded: Table, anna: User
) -> None:
    client = client_for(anna)
    first = record(client, recorded, FELL).json()
    assert first["result"]["pot"] == 200
    second = record(
        client,
        recorded,
        suit_game("bert", {"carl": "play", "anna": "home"}, {"bert": 6, "carl": 4}),
    ).json()
    assert second["dealer"] == "anna"
    assert second["pot_before"] == 200
    assert second["stake"] == 300
    table = client.get(f"/api/v1/tables/{recorded.pk}/").json()
    assert table["hands_count"] == 2
    assert table["next_dealer"] == "bert"
    assert table["pot"] == second["result"]["pot"]


@pytest.mark.django_db
def test_it_accepts_common_keys_that_match_the_server(
    client_for: Client, recorded: Table, anna: User
) -> None:
    entry = {**MADE, "dealer": "carl", "pot": 0, "seats": ["anna", "bert", "carl"]}
    entry["rules"] = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}
    assert record(client_for(anna), recorded, entry).status_code == 201


@pytest.mark.django_db
@pytest.mark.parametrize(("key", "value"), [("dealer", "anna"), ("pot", 500)])
def test_it_rejects_a_common_part_that_does_not_match_with_409(
    client_for: Client, recorded: Table, anna: User, key: str, value: Any
) -> None:
    response = record(client_for(anna), recorded, {**MADE, key: value})
    assert response.status_code == 409
    assert response.json()["code"] == "record_mismatch"
    assert key in response.json()["fields"]
    assert not Hand.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("entry", "field", "words"),
    [
        ({**MADE, "tricks": {"anna": 6, "bert": 2, "carl": 3}}, "tricks", "add up to 10"),
        ({**MADE, "game": {"type": "suit", "level": "X", "talon": True}}, "game.level", "C, S"),
        ({**MADE, "declarer": "zoe"}, "declarer", "must be one of the active players"),
        (
            {**MADE, "defence": {"bert": "home", "carl": "play"}, "tricks": {"anna": 6, "carl": 4}},
            "defence",
            "both defenders had to play",
        ),
        ({**MADE, "colour": "red"}, "colour", "unknown key"),
    ],
    ids=["tricks-sum", "game-level", "declarer", "pot-empty-defence", "unknown-key"],
)
def test_it_rejects_an_entry_the_engine_refuses_with_its_sentence(
    client_for: Client,
    recorded: Table,
    anna: User,
    entry: dict[str, Any],
    field: str,
    words: str,
) -> None:
    response = record(client_for(anna), recorded, entry)
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "rule_violation"
    assert words in error["message"]
    assert error["fields"] == {field: [error["message"]]}
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_it_rejects_an_entry_that_is_not_an_object(
    client_for: Client, recorded: Table, anna: User
) -> None:
    response = client_for(anna).post(hands_url(recorded), [1, 2], format="json")
    assert response.status_code == 400


@pytest.mark.django_db
def test_it_lets_only_writers_record(
    client_for: Client, make_table: Callable[..., Table], stranger: User
) -> None:
    table = make_table(is_public=True)
    response = record(client_for(stranger), table, MADE)
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert record(client_for(None), table, MADE).status_code == 401
    private = make_table()
    assert record(client_for(stranger), private, MADE).status_code == 404


@pytest.mark.django_db
def test_editing_hand_one_of_three_recomputes_the_later_hands(
    client_for: Client, recorded: Table, anna: User
) -> None:
    client = client_for(anna)
    record(client, recorded, MADE)  # pot 0 after
    record(
        client,
        recorded,
        suit_game("bert", {"carl": "play", "anna": "play"}, {"bert": 4, "carl": 3, "anna": 3}),
    )
    record(client, recorded, AUSFECHTEN)
    before = {h.number: (h.pot_before, h.result["pot"]) for h in Hand.objects.all()}

    response = client.put(hand_url(recorded, 1), FELL, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["result"]["pot"] == 200

    hands = {h.number: h for h in Hand.objects.filter(table=recorded)}
    assert hands[2].pot_before == 200 != before[2][0]
    assert hands[3].pot_before == hands[2].result["pot"]
    assert hands[3].result["pot"] != before[3][1]
    for hand in hands.values():
        assert ledger_of(hand) == transfers(hand.result)
        assert hand.result["stake"] == min(hand.pot_before + 100, 300)
    listed = client.get(hands_url(recorded)).json()["results"]
    assert [h["stake"] for h in listed] == [100, 300, 300]

    audit = AuditEntry.objects.get(action="hand_edit")
    assert audit.hand_number == 1
    assert audit.user == anna
    assert audit.before["entry"] == MADE
    assert audit.after["entry"] == FELL


@pytest.mark.django_db
def test_deleting_a_hand_moves_later_hands_up_and_recomputes_their_dealers(
    client_for: Client, recorded: Table, anna: User
) -> None:
    client = client_for(anna)
    record(client, recorded, FELL)
    record(
        client,
        recorded,
        suit_game("bert", {"carl": "play", "anna": "home"}, {"bert": 6, "carl": 4}),
    )
    record(client, recorded, AUSFECHTEN)
    assert [h.dealer for h in Hand.objects.order_by("number")] == ["carl", "anna", "bert"]

    response = client.delete(hand_url(recorded, 2))
    assert response.status_code == 204
    hands = list(Hand.objects.filter(table=recorded).order_by("number"))
    assert [h.number for h in hands] == [1, 2]
    assert [h.dealer for h in hands] == ["carl", "anna"]
    assert hands[1].entry == AUSFECHTEN
    assert hands[1].pot_before == 200
    assert ledger_of(hands[1]) == transfers(hands[1].result)
    assert LedgerEntry.objects.filter(table=recorded).count() == sum(
        len(h.result["transfers"]) for h in hands
    )
    audit = AuditEntry.objects.get(action="hand_delete")
    assert audit.before["entry"]["declarer"] == "bert"
    assert audit.after is None


@pytest.mark.django_db
def test_an_edit_that_breaks_a_later_hand_is_refused_and_nothing_is_written(
    client_for: Client, recorded: Table, anna: User
) -> None:
    client = client_for(anna)
    record(client, recorded, FELL)  # pot 200 after
    record(
        client,
        recorded,
        suit_game("bert", {"carl": "play", "anna": "home"}, {"bert": 6, "carl": 4}),
    )
    ledger = list(LedgerEntry.objects.values_list("id", "amount"))

    response = client.put(hand_url(recorded, 1), MADE, format="json")  # pot 0 after
    assert response.status_code == 409
    error = response.json()
    assert error["code"] == "later_hand_invalid"
    assert "hand 2" in error["message"]
    assert "hands[2]" in error["fields"]
    assert Hand.objects.get(number=1).entry == FELL
    assert list(LedgerEntry.objects.values_list("id", "amount")) == ledger
    assert not AuditEntry.objects.filter(action="hand_edit").exists()


@pytest.mark.django_db
def test_a_delete_that_makes_a_later_declarer_deal_is_refused(
    client_for: Client, make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(seats=4, first_dealer="dave")
    client = client_for(anna)
    # hand 1: dave deals, anna bert carl play; hand 2: anna deals, dave declares
    assert record(client, table, FELL).status_code == 201
    second = suit_game("dave", {"bert": "play", "carl": "play"}, {"dave": 6, "bert": 2, "carl": 2})
    assert record(client, table, second).status_code == 201
    response = client.delete(hand_url(table, 1))
    assert response.status_code == 409
    assert response.json()["code"] == "later_hand_invalid"
    assert Hand.objects.filter(table=table).count() == 2


@pytest.mark.django_db
def test_it_answers_404_for_a_hand_that_does_not_exist(
    client_for: Client, recorded: Table, anna: User
) -> None:
    client = client_for(anna)
    assert client.get(hand_url(recorded, 9)).status_code == 404
    assert client.put(hand_url(recorded, 9), MADE, format="json").status_code == 404
    assert client.delete(hand_url(recorded, 9)).status_code == 404


@pytest.mark.django_db
def test_a_hand_awaits_confirmation_by_another_seated_player(
    client_for: Client, make_table: Callable[..., Table], anna: User, bert: User, stranger: User
) -> None:
    table = make_table(requires_confirmation=True, is_public=True)
    first = record(client_for(anna), table, MADE).json()
    assert first["status"] == "pending"

    blocked = record(client_for(bert), table, FELL)
    assert blocked.status_code == 409
    assert blocked.json()["code"] == "previous_hand_unconfirmed"

    own = client_for(anna).post(hand_url(table, 1, "confirm/"))
    assert own.status_code == 403
    assert client_for(stranger).post(hand_url(table, 1, "confirm/")).status_code == 403

    confirmed = client_for(bert).post(hand_url(table, 1, "confirm/"))
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "done"
    assert confirmed.json()["confirmed_by"] == "bert"
    again = client_for(bert).post(hand_url(table, 1, "confirm/"))
    assert again.status_code == 409
    assert record(client_for(bert), table, FELL).status_code == 201
    assert AuditEntry.objects.filter(table=table, action="hand_confirm", user=bert).exists()


@pytest.mark.django_db
def test_the_audit_log_lists_every_change_newest_first(
    client_for: Client, recorded: Table, anna: User
) -> None:
    client = client_for(anna)
    record(client, recorded, MADE)
    client.put(hand_url(recorded, 1), FELL, format="json")
    client.delete(hand_url(recorded, 1))
    body = client.get(f"/api/v1/tables/{recorded.pk}/audit/").json()
    assert [e["action"] for e in body["results"]] == [
        "hand_delete",
        "hand_edit",
        "hand_record",
        "table_create",
    ]
    record_entry = body["results"][2]
    assert record_entry["user"] == "anna"
    assert record_entry["hand_number"] == 1
    assert record_entry["before"] is None
    assert record_entry["after"]["entry"] == MADE
    filtered = client.get(f"/api/v1/tables/{recorded.pk}/audit/", {"action": "hand_edit"})
    assert filtered.json()["count"] == 1


@pytest.mark.django_db
def test_it_lists_a_hundred_hands_in_three_queries(
    client_for: Client, recorded: Table, anna: User, django_assert_max_num_queries: Any
) -> None:
    for _ in range(100):
        record(client_for(anna), recorded, AUSFECHTEN if Hand.objects.exists() else FELL)
    client = client_for(anna)
    with django_assert_max_num_queries(3):
        response = client.get(hands_url(recorded), {"page_size": 100})
    body = response.json()
    assert body["count"] == 100
    assert [h["number"] for h in body["results"]] == list(range(1, 101))
    assert body["next"] is None
    page = client.get(hands_url(recorded), {"page_size": 30, "page": 4}).json()
    assert [h["number"] for h in page["results"]] == list(range(91, 101))
    assert page["previous"] and not page["next"]
    assert client.get(hands_url(recorded), {"page": 9}).status_code == 404


@pytest.mark.django_db
def test_it_filters_hands_by_status(
    client_for: Client, make_table: Callable[..., Table], anna: User, bert: User
) -> None:
    table = make_table(requires_confirmation=True)
    record(client_for(anna), table, MADE)
    client_for(bert).post(hand_url(table, 1, "confirm/"))
    record(client_for(anna), table, FELL)
    pending = client_for(anna).get(hands_url(table), {"status": "pending"}).json()
    assert [h["number"] for h in pending["results"]] == [2]
    assert pending["count"] == 1


@pytest.mark.django_db
def test_a_recorded_hands_view_is_its_entry_and_result(
    client_for: Client, make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(is_public=True)
    record(client_for(anna), table, MADE)
    view = client_for(None).get(hand_url(table, 1, "view/")).json()
    assert view["mode"] == "recorded"
    assert view["entry"]["dealer"] == "carl"
    assert view["entry"]["tricks"] == MADE["tricks"]
    assert view["result"]["stake"] == 100


@pytest.mark.django_db
def test_a_recorded_table_deals_no_hands_and_takes_no_actions(
    client_for: Client, recorded: Table, anna: User
) -> None:
    record(client_for(anna), recorded, MADE)
    response = client_for(anna).post(
        hand_url(recorded, 1, "actions/"), {"action": {"call": "pass"}}, format="json"
    )
    assert response.status_code == 409


@pytest.mark.django_db
def test_a_closed_table_takes_no_more_entries(
    client_for: Client, recorded: Table, anna: User
) -> None:
    client = client_for(anna)
    record(client, recorded, MADE)
    assert client.post(f"/api/v1/tables/{recorded.pk}/close/").status_code == 200
    response = record(client, recorded, FELL)
    assert response.status_code == 409
    assert response.json()["code"] == "table_conflict"


@pytest.mark.django_db
@pytest.mark.parametrize(("level", "status"), [(4, 400), (5, 201), (8, 201), (9, 400)])
def test_a_premium_game_is_of_level_5_to_8_as_the_schema_says(
    client_for: Client, recorded: Table, anna: User, level: int, status: int
) -> None:
    """``PremiumGame.level`` documents 5..8: the engine takes exactly those (a Bettel, level
    5, made with no trick; a Mord aufgedeckt, level 8, with all ten)."""
    tricks = {"anna": 10, "bert": 0, "carl": 0} if level == 8 else {"anna": 0, "bert": 5, "carl": 5}
    entry = {"game": {"type": "premium", "level": level, "hand": False}, "declarer": "anna"}
    response = record(client_for(anna), recorded, {**entry, "tricks": tricks})
    assert response.status_code == status, response.json()
    if status == 400:
        assert response.json()["code"] == "rule_violation"
        assert list(response.json()["fields"]) == ["game.level"]
        assert not Hand.objects.exists()


assert RULES["dealer_contribution"] == 100  # the amounts above assume G = 1.00
