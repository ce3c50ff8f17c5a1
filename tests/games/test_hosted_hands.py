"""Hosted hands: dealt by the server with a published commitment, played move by move."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from clubs import privacy
from clubs.models import User
from games.models import Hand, LedgerEntry, Table
from tests.games.conftest import hand_url, hands_url

Client = Callable[[User | None], APIClient]
ROOT = Path(__file__).resolve().parents[2]


def start(client: APIClient, table: Table, **headers: str) -> Any:
    response = client.post(hands_url(table), headers=headers)
    assert response.status_code == 201, response.json()
    return response.json()


def act(
    client: APIClient,
    table: Table,
    action: dict[str, Any],
    version: int | None = None,
    number: int = 1,
    **headers: str,
) -> Any:
    return client.post(
        hand_url(table, number, "actions/"),
        {"action": action, "expected_version": version},
        format="json",
        headers=headers,
    )


def play_out(
    clients: dict[str, APIClient], table: Table, rng: random.Random, number: int = 1
) -> int:
    """Play the hand to its end with random legal moves of the seated humans; returns how
    many actions they sent."""
    spectator = APIClient()
    for sent in range(200):
        public = spectator.get(hand_url(table, number)).json()
        if public["status"] == "done":
            return sent
        seat = public["to_act"]
        view = clients[seat].get(hand_url(table, number, "view/")).json()
        assert view["seat"] == seat
        choice = rng.choice(view["legal"])
        response = act(clients[seat], table, choice, view["version"], number)
        assert response.status_code == 200, response.json()
        assert response.json()["version"] == view["version"] + 1
    raise AssertionError("the hand did not end")


@pytest.fixture
def public_hosted(make_table: Callable[..., Table]) -> Table:
    return make_table(mode=Table.Mode.HOSTED, is_public=True)


@pytest.fixture
def clients(client_for: Client, anna: User, bert: User, carl: User) -> dict[str, APIClient]:
    return {"anna": client_for(anna), "bert": client_for(bert), "carl": client_for(carl)}


@pytest.mark.django_db
def test_it_deals_a_hand_and_publishes_only_its_commitment(
    clients: dict[str, APIClient], public_hosted: Table, anna: User
) -> None:
    hand = start(clients["anna"], public_hosted)
    assert hand["number"] == 1
    assert hand["status"] == "playing"
    assert len(hand["commitment"]) == 64
    assert hand["phase"] == "auction"
    assert hand["to_act"] == "anna"
    assert hand["result"] is None and hand["proof"] is None and hand["entry"] is None
    assert hand["stake"] == 100
    for leaked in ("deal", "deck", "salt", "actions"):
        assert leaked not in hand
    public = APIClient().get(hands_url(public_hosted)).json()["results"][0]
    # the public reads who dealt it by their pseudonym: anna did not agree to show her name
    dealt_by = privacy.public_pseudonym(f"u:{anna.pk}")
    assert public == {**hand, "entered_by": dealt_by} | {"created_at": public["created_at"]}


@pytest.mark.django_db
def test_a_second_hand_waits_for_the_first(clients: dict[str, APIClient], hosted: Table) -> None:
    start(clients["anna"], hosted)
    response = clients["bert"].post(hands_url(hosted))
    assert response.status_code == 409
    assert response.json()["code"] == "hand_in_progress"


@pytest.mark.django_db
def test_a_seat_sees_its_own_ten_cards_only(
    clients: dict[str, APIClient], public_hosted: Table, stranger: User, client_for: Client
) -> None:
    start(clients["anna"], public_hosted)
    stored = Hand.objects.get()
    views = {k: c.get(hand_url(public_hosted, 1, "view/")).json() for k, c in clients.items()}
    for seat, view in views.items():
        assert view["seat"] == seat
        assert sorted(view["hand"]) == sorted(stored.deal[seat])
        assert len(view["hand"]) == 10
        assert view["talon"] is None
        assert "deal" not in view and "proof" not in view
        assert view["version"] == 0
    assert "legal" in views["anna"] and "legal" not in views["bert"]
    assert {"call": "pass"} in views["anna"]["legal"]
    for viewer in (client_for(stranger), APIClient()):
        spectator = viewer.get(hand_url(public_hosted, 1, "view/")).json()
        assert spectator["seat"] is None
        assert spectator["hand"] is None
        assert "legal" not in spectator


@pytest.mark.django_db
def test_a_seat_view_takes_at_most_three_queries(
    clients: dict[str, APIClient], hosted: Table, django_assert_max_num_queries: Any
) -> None:
    start(clients["anna"], hosted)
    act(clients["anna"], hosted, {"call": "1"}, 0)
    # the hand's stamp, the hand with its table, the seats; once the process keeps the hand
    # only the stamp (test_read_snapshots.py)
    with django_assert_max_num_queries(3):
        response = clients["bert"].get(hand_url(hosted, 1, "view/"))
    assert response.json()["legal"]


@pytest.mark.django_db
def test_it_applies_an_action_and_answers_with_the_new_view(
    clients: dict[str, APIClient], hosted: Table
) -> None:
    start(clients["anna"], hosted)
    response = act(clients["anna"], hosted, {"call": "pass"}, 0)
    assert response.status_code == 200, response.json()
    view = response.json()
    assert view["version"] == 1
    assert view["seat"] == "anna"
    assert view["to_act"] == "bert"
    assert view["actions"] == [{"seat": "anna", "call": "pass"}]
    assert "legal" not in view


@pytest.mark.django_db
def test_it_rejects_a_stale_version_with_409(clients: dict[str, APIClient], hosted: Table) -> None:
    start(clients["anna"], hosted)
    act(clients["anna"], hosted, {"call": "pass"}, 0)
    response = act(clients["bert"], hosted, {"call": "pass"}, 0)
    assert response.status_code == 409
    assert response.json()["code"] == "stale_version"
    assert Hand.objects.get().version == 1


@pytest.mark.django_db
def test_it_rejects_an_action_out_of_turn_with_403(
    clients: dict[str, APIClient], hosted: Table
) -> None:
    start(clients["anna"], hosted)
    response = act(clients["bert"], hosted, {"call": "pass"}, 0)
    assert response.status_code == 403
    assert response.json()["code"] == "not_your_turn"


@pytest.mark.django_db
def test_it_rejects_acting_for_another_seat(clients: dict[str, APIClient], hosted: Table) -> None:
    start(clients["anna"], hosted)
    response = act(clients["anna"], hosted, {"seat": "bert", "call": "pass"}, 0)
    assert response.status_code == 403
    assert response.json()["code"] == "not_your_turn"


@pytest.mark.django_db
def test_it_rejects_a_player_without_a_seat_with_403(
    clients: dict[str, APIClient], public_hosted: Table, stranger: User, client_for: Client
) -> None:
    start(clients["anna"], public_hosted)
    response = act(client_for(stranger), public_hosted, {"call": "pass"}, 0)
    assert response.status_code == 403
    assert response.json()["code"] == "not_seated"
    assert act(APIClient(), public_hosted, {"call": "pass"}, 0).status_code == 401


@pytest.mark.django_db
def test_it_rejects_an_illegal_action_with_the_engines_sentence(
    clients: dict[str, APIClient], hosted: Table
) -> None:
    start(clients["anna"], hosted)
    response = act(clients["anna"], hosted, {"card": "HA"}, 0)
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "rule_violation"
    assert error["message"]
    assert error["fields"] == {"action": [error["message"]]}
    bad = act(clients["anna"], hosted, {"call": "9"}, 0)
    assert bad.status_code == 400
    assert Hand.objects.get().version == 0


@pytest.mark.django_db
def test_the_same_idempotency_key_answers_the_first_response_and_acts_once(
    clients: dict[str, APIClient], hosted: Table
) -> None:
    start(clients["anna"], hosted)
    first = act(clients["anna"], hosted, {"call": "pass"}, 0, **{"Idempotency-Key": "k1"})
    again = act(clients["anna"], hosted, {"call": "pass"}, 0, **{"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    hand = Hand.objects.get()
    assert hand.version == 1
    assert len(hand.actions) == 1

    reused = act(clients["anna"], hosted, {"call": "1"}, 0, **{"Idempotency-Key": "k1"})
    assert reused.status_code == 422
    assert reused.json()["code"] == "idempotency_key_reused"


@pytest.mark.django_db
def test_an_idempotent_deal_deals_once(clients: dict[str, APIClient], hosted: Table) -> None:
    first = start(clients["anna"], hosted, **{"Idempotency-Key": "deal-1"})
    again = start(clients["anna"], hosted, **{"Idempotency-Key": "deal-1"})
    assert first == again
    assert Hand.objects.count() == 1


@pytest.mark.django_db
def test_the_record_is_secret_until_the_hand_is_over(
    clients: dict[str, APIClient], hosted: Table
) -> None:
    start(clients["anna"], hosted)
    response = clients["anna"].get(hand_url(hosted, 1, "record/"))
    assert response.status_code == 409
    assert response.json()["code"] == "hand_in_progress"


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_hand_played_through_the_api_verifies_and_settles_into_the_ledger(
    clients: dict[str, APIClient], public_hosted: Table, seed: int
) -> None:
    table = public_hosted
    dealt = start(clients["anna"], table)
    play_out(clients, table, random.Random(seed))

    body = clients["bert"].get(hand_url(table, 1, "record/")).json()
    record = body["record"]
    assert record["proof"]["commitment"] == dealt["commitment"]
    assert engine.verify(record) == {
        "verified": True,
        "commitment": dealt["commitment"],
        "result": body["result"],
    }
    assert engine.settle({k: v for k, v in record.items() if k != "proof"}) == body["result"]

    hand = Hand.objects.get()
    rows = [(r.payer, r.payee, r.amount, r.reason) for r in LedgerEntry.objects.filter(hand=hand)]
    assert rows == [
        (t["from"], t["to"], t["amount"], t["why"]) for t in body["result"]["transfers"]
    ]

    public = APIClient().get(hand_url(table, 1)).json()
    assert public["status"] == "done"
    assert public["phase"] == "done"
    assert public["proof"] == record["proof"]
    assert public["result"] == body["result"]

    after = APIClient().get(hand_url(table, 1, "view/")).json()
    assert after["result"] == body["result"]
    assert {k: sorted(v) for k, v in after["deal"].items()} == {
        k: sorted(v) for k, v in record["deal"].items()
    }

    over = act(clients["anna"], table, {"call": "pass"}, None)
    assert over.status_code == 409
    assert over.json()["code"] == "hand_over"

    second = start(clients["bert"], table)
    assert second["dealer"] == "anna"
    assert second["pot_before"] == body["result"]["pot"]


@pytest.mark.django_db
def test_the_documented_verify_command_checks_the_record_endpoints_answer(
    clients: dict[str, APIClient], public_hosted: Table, tmp_path: Path
) -> None:
    """README and docs/deal-verification.md: save ``GET …/record/`` as it is, then
    ``python -m engine verify record.json``."""
    dealt = start(clients["anna"], public_hosted)
    play_out(clients, public_hosted, random.Random(5))
    response = clients["carl"].get(hand_url(public_hosted, 1, "record/"))
    assert response.status_code == 200
    saved = tmp_path / "record.json"
    saved.write_bytes(response.content)
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "verify", str(saved)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stdout
    assert json.loads(proc.stdout) == {
        "verified": True,
        "commitment": dealt["commitment"],
        "result": Hand.objects.get(table=public_hosted, number=1).result,
    }


@pytest.mark.django_db(transaction=True)
def test_bots_move_after_the_humans_action_and_never_for_a_human(
    client_for: Client, make_table: Callable[..., Table], anna: User, eager_tasks: None
) -> None:
    # anna deals first, so bert (a bot) is forehand and acts as soon as the hand is dealt
    table = make_table(
        mode=Table.Mode.HOSTED, first_dealer="anna", kinds={"bert": "bot", "carl": "bot"}
    )
    client = client_for(anna)
    start(client, table)
    rng = random.Random(7)
    sent = 0
    for _ in range(100):
        hand = client.get(hand_url(table, 1)).json()
        if hand["status"] == "done":
            break
        assert hand["to_act"] == "anna"  # the bots have moved, up to anna's turn
        view = client.get(hand_url(table, 1, "view/")).json()
        assert act(client, table, rng.choice(view["legal"]), view["version"]).status_code == 200
        sent += 1
    stored = Hand.objects.get()
    assert stored.status == Hand.Status.DONE
    assert sum(1 for a in stored.actions if a["seat"] == "anna") == sent
    assert {a["seat"] for a in stored.actions} <= {"anna", "bert", "carl"}
    assert any(a["seat"] == "bert" for a in stored.actions)
