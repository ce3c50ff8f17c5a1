"""Every registered rule set through the API: a recorded table takes a score-sheet entry and
a hosted table deals a hand that the seated players play to the end, with the sheet (JSON and
CSV), the ledger, the seat views, the record and the close answering as they do for ``wien``.

Parametrised over ``engine.rule_sets()``: a rule set is checked here the moment the engine
registers it. The entries and moves come from the engine (its random bot and the legal
actions the API lists), so nothing here knows one rule set's rules.
"""

from __future__ import annotations

import csv
import io
import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from clubs.models import User
from games import services
from games.models import Hand, LedgerEntry, Table
from games.random_entries import random_entry
from games.rulesets import stored_result
from tests.cards import cards_in
from tests.games.conftest import hand_url, hands_url
from tests.games.test_hosted_hands import play_out
from tests.openapi import schema_errors
from tests.rule_sets import every_rule_set

by_rule_set = every_rule_set()

pytestmark = pytest.mark.django_db


PLAYERS = ("anna", "bert", "carl", "dave")


def seats_of(rs: engine.RuleSet[Any, Any, Any]) -> int:
    """The seats of a table of ``rs`` here: its smallest (3; Doppelkopf's 4)."""
    return min(rs.table.seats)


def table_url(table: Table, tail: str = "") -> str:
    return f"/api/v1/tables/{table.pk}/{tail}"


def balances(table: Table) -> dict[str, int]:
    """Every party's balance from the ledger rows of the table's hands."""
    out: dict[str, int] = {}
    for row in LedgerEntry.objects.filter(table=table, hand__isnull=False):
        out[row.payer] = out.get(row.payer, 0) - row.amount
        out[row.payee] = out.get(row.payee, 0) + row.amount
    return out


def cards_said(answer: Any, codes: frozenset[str]) -> set[str]:
    """Every card code a refusal's sentences name (its ``message`` and ``fields``)."""
    body = answer.json()
    texts = [body["message"], *(m for ms in body["fields"].values() for m in ms)]
    return {t for text in texts for t in re.split(r"[^A-Z0-9]+", text) if t in codes}


def wrong_moves(
    rs: engine.RuleSet[Any, Any, Any], state: Any, codes: frozenset[str], *, all_kinds: bool
) -> list[tuple[str, dict[str, Any]]]:
    """Moves the API refuses with a sentence now, and the seat that sends each: the first seat
    to act sends a move not among its legal ones (a card of its own hand it may not play, else
    a call nobody has: the engine's refusal); with ``all_kinds`` also its legal move sent for
    a seat it may not act for, and a seat not to act sending that move (the API's own
    refusals)."""
    acting = [s for s in state.seats if s in engine.to_act(state)]
    if not acting:
        return []
    seat = acting[0]
    legal = engine.legal_actions(state, seat)
    sent = [engine.action_to_json(a, rs.deck) for a in legal]
    plain = [{k: v for k, v in m.items() if k != "seat"} for m in sent]
    own = [{"card": c} for c in cards_in(engine.view(state, seat).get("hand") or [], codes)]
    moves = [(seat, next(m for m in [*own, {"call": "no-such-call"}] if m not in plain))]
    if all_kinds and legal:
        others = [s for s in state.seats if s != seat and rs.sender(state, s) != seat]
        idle = [s for s in state.seats if s not in acting]
        moves += [(seat, {**plain[0], "seat": s}) for s in others[:1]]
        moves += [(s, plain[0]) for s in idle[:1]]
    return moves


def holds_a_card_it_may_not_play(
    rs: engine.RuleSet[Any, Any, Any], state: Any, codes: frozenset[str]
) -> bool:
    """Whether the first seat to act plays a card now and holds one it may not play (a suit
    it must follow): the refusal that speaks of the trick."""
    acting = [s for s in state.seats if s in engine.to_act(state)]
    if not acting:
        return False
    moves = [engine.action_to_json(a, rs.deck) for a in engine.legal_actions(state, acting[0])]
    legal = {m["card"] for m in moves if isinstance(m.get("card"), str)}
    own = cards_in(engine.view(state, acting[0]).get("hand") or [], codes)
    return bool(legal) and bool(own - legal)


def check_refusals(
    rs: engine.RuleSet[Any, Any, Any],
    table: Table,
    state: Any,
    viewers: dict[str | None, APIClient],
    codes: frozenset[str],
    *,
    english: bool,
) -> None:
    """The refusals of wrong moves (:func:`wrong_moves`, every kind with ``english``) in
    German, and with ``english`` in English too (the same status, ``code`` and fields): no
    card in their sentences that the sender's engine view does not show (or that the move
    itself named)."""
    for seat, move in wrong_moves(rs, state, codes, all_kinds=english):
        allowed = cards_in(engine.view(state, seat), codes) | cards_in(move, codes)
        answers = [
            viewers[seat].post(
                hand_url(table, 1, "actions/"),
                {"action": move},
                format="json",
                HTTP_ACCEPT_LANGUAGE=language,
            )
            for language in (("de", "en") if english else ("de",))
        ]
        german = answers[0]
        assert german.status_code in (400, 403), (seat, move, german.json())
        assert german["Content-Language"] == "de"
        for answer in answers:
            assert answer.status_code == german.status_code, answer.json()
            assert answer.json()["code"] == german.json()["code"]
            assert set(answer.json()["fields"]) == set(german.json()["fields"])
            assert cards_said(answer, codes) <= allowed, (seat, move, answer.json())


def check_settled(table: Table) -> None:
    """The ledger holds the hands' results: each seat's balance is the sum of its changes,
    the pot's the change of the pot, and each hand starts with the pot the one before left."""
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    money = balances(table)
    for seat in table.seats.values_list("key", flat=True):
        assert money.get(seat, 0) == sum(h.result["delta"].get(seat, 0) for h in hands)
    pot = table.opening_pot
    for hand in hands:
        assert hand.pot_before == pot
        sums = sum(hand.result["delta"].values())
        if hand.result.get("pot") is not None:
            assert sums + hand.result["pot"] - pot == 0, "a deal does not balance with the pot"
            pot = hand.result["pot"]
        else:
            assert sums == 0
    assert money.get("pot", 0) == pot - table.opening_pot


@by_rule_set
def test_a_recorded_table_of_each_rule_set_takes_an_entry_and_writes_its_sheet(
    rs: engine.RuleSet[Any, Any, Any],
    make_table: Callable[..., Table],
    client_for: Callable[[User | None], APIClient],
    anna: User,
) -> None:
    table = make_table(rules=rs.examples[0], seats=seats_of(rs))
    client = client_for(anna)
    rng = random.Random(7)
    for number in (1, 2, 3):
        entry = random_entry(table, rng, number)
        response = client.post(hands_url(table), entry, format="json")
        assert response.status_code == 201, response.json()
    results = [h.result for h in Hand.objects.filter(table=table).order_by("number")]
    check_settled(table)

    sheet = client.get(table_url(table, "sheet/")).json()
    assert [row["number"] for row in sheet["rows"]] == [1, 2, 3]
    text = client.get(table_url(table, "sheet.csv")).content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) >= 4
    for result in results:
        assert rs.describe_game(result.get("game")) in text

    assert not schema_errors("ScoreSheet", sheet)
    shown = client.get(hand_url(table, 2)).json()
    assert not schema_errors("Hand", shown)
    assert shown["result"] == results[1]
    answer = client.get(hand_url(table, 2, "record/")).json()
    assert not schema_errors("HandRecord", answer)
    record = answer["record"]
    assert record["rules"] == engine.parse_rules(rs.examples[0]).to_json()
    assert stored_result(table, engine.settle(record)) == results[1]


@by_rule_set
def test_a_hosted_table_of_each_rule_set_deals_and_plays_a_hand_through_the_api(
    rs: engine.RuleSet[Any, Any, Any],
    make_table: Callable[..., Table],
    client_for: Callable[[User | None], APIClient],
    anna: User,
    bert: User,
    carl: User,
    dave: User,
) -> None:
    n = seats_of(rs)
    table = make_table(mode=Table.Mode.HOSTED, rules=rs.examples[0], is_public=True, seats=n)
    users = dict(zip(PLAYERS, (anna, bert, carl, dave), strict=True))
    clients = {seat: client_for(users[seat]) for seat in PLAYERS[:n]}
    dealt = clients["anna"].post(hands_url(table))
    assert dealt.status_code == 201, dealt.json()
    views = {seat: c.get(hand_url(table, 1, "view/")).json() for seat, c in clients.items()}
    held = Counter(c for v in views.values() for c in (v.get("hand") or []))
    for seat, view in views.items():
        assert view["seat"] == seat
    # each seat is shown its own hand only: the hands shown are distinct cards (Doppelkopf has
    # each code twice, so the same code may be in two hands, never more often than dealt)
    assert all(n <= rs.deck.copies for n in held.values()), "a seat sees another seat's cards"

    play_out(clients, table, random.Random(11))

    body = clients["bert"].get(hand_url(table, 1, "record/")).json()
    record = body["record"]
    assert engine.verify(record)["verified"] is True
    settled = engine.settle({k: v for k, v in record.items() if k != "proof"})
    assert stored_result(table, settled) == body["result"]
    check_settled(table)
    sheet = clients["carl"].get(table_url(table, "sheet/")).json()
    assert [row["number"] for row in sheet["rows"]] == [1]

    closed = clients["anna"].post(table_url(table, "close/"))
    assert closed.status_code == 200, closed.json()


@by_rule_set
def test_no_answer_shows_a_seat_or_a_spectator_a_card_its_engine_view_does_not(
    rs: engine.RuleSet[Any, Any, Any],
    make_table: Callable[..., Table],
    client_for: Callable[[User | None], APIClient],
    anna: User,
    bert: User,
    carl: User,
    dave: User,
) -> None:
    """A hosted hand of each rule set, checked as it is played: every card code in the hand's
    answers for each seat and for an anonymous spectator is one the engine's own view shows
    them. The seat view after every action; the hand, hand list, table, sheet, ledger, record
    and events (the long poll; the websocket sends the same bodies, ``games.live``) at every
    change of phase and at the end; at every change of phase (and once in the play, for a card
    the seat may not play) also the refusal of a wrong move in German, and at the first one
    every kind of refusal in German and English (:func:`check_refusals`)."""
    codes = frozenset(rs.deck.codes)
    n = seats_of(rs)
    table = make_table(mode=Table.Mode.HOSTED, rules=rs.examples[0], is_public=True, seats=n)
    users = dict(zip(PLAYERS, (anna, bert, carl, dave), strict=True))
    users = {seat: users[seat] for seat in PLAYERS[:n]}
    viewers: dict[str | None, APIClient] = {s: client_for(u) for s, u in users.items()}
    viewers[None] = APIClient()
    assert viewers["anna"].post(hands_url(table)).status_code == 201
    rng = random.Random(5)
    paths = [
        hand_url(table, 1, "view/"),
        hand_url(table, 1),
        hands_url(table),
        table_url(table),
        table_url(table, "sheet/"),
        table_url(table, "ledger/"),
        hand_url(table, 1, "record/"),
        hand_url(table, 1, "events/") + "?after=0&wait=0",
    ]
    phase = None
    refused = 0
    revoked = False  # a wrong card in the play refused yet
    for _ in range(200):
        hand = Hand.objects.get(table=table, number=1)
        state = services.hand_state(table, hand)
        public = engine.view(state, None)
        every = public.get("phase") != phase or hand.status == Hand.Status.DONE
        phase = public.get("phase")
        for seat, client in viewers.items():
            allowed = cards_in(engine.view(state, seat), codes)
            for path in paths if every else paths[:1]:
                answer = client.get(path)
                shown = cards_in(answer.json(), codes)
                assert shown <= allowed, (seat, path, sorted(shown - allowed))
                if path == paths[0]:
                    assert not schema_errors("HandView", answer.json())
                elif path == paths[1]:
                    assert not schema_errors("Hand", answer.json())
                elif path == paths[-1]:
                    assert not schema_errors("Events", answer.json())
        if hand.status == Hand.Status.DONE:
            return
        if every or (not revoked and holds_a_card_it_may_not_play(rs, state, codes)):
            check_refusals(rs, table, state, viewers, codes, english=refused == 0)
            refused += 1
            revoked = revoked or holds_a_card_it_may_not_play(rs, state, codes)
        seat = sorted(engine.waiting_for(state))[0]  # not a seat that merely may announce
        legal = viewers[seat].get(hand_url(table, 1, "view/")).json()["legal"]
        move = viewers[seat].post(
            hand_url(table, 1, "actions/"), {"action": rng.choice(legal)}, format="json"
        )
        assert move.status_code == 200, move.json()
    raise AssertionError("the hand did not end")


@by_rule_set
def test_bots_play_the_empty_seats_of_each_rule_set(
    rs: engine.RuleSet[Any, Any, Any],
    make_table: Callable[..., Table],
    client_for: Callable[[User | None], APIClient],
    anna: User,
    eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """bert and carl (and dave at a table of four) are bots: after each of anna's moves (and
    the deal) they move, through the task the API sends after commit, until it is anna's turn
    or the hand is over."""
    n = seats_of(rs)
    bots = dict.fromkeys(PLAYERS[1:n], "bot")
    table = make_table(mode=Table.Mode.HOSTED, rules=rs.examples[0], kinds=bots, seats=n)
    client = client_for(anna)
    rng = random.Random(3)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(hands_url(table)).status_code == 201
    for _ in range(100):
        hand = client.get(hand_url(table, 1)).json()
        if hand["status"] == "done":
            break
        assert hand["to_act"] == "anna"
        view = client.get(hand_url(table, 1, "view/")).json()
        with django_capture_on_commit_callbacks(execute=True):
            move = client.post(
                hand_url(table, 1, "actions/"), {"action": rng.choice(view["legal"])}, format="json"
            )
        assert move.status_code == 200, move.json()
    stored = Hand.objects.get(table=table, number=1)
    assert stored.status == Hand.Status.DONE
    assert {a["seat"] for a in stored.actions} & set(bots)
    record = {**services.hand_common(table, stored), "deal": stored.deal, "actions": stored.actions}
    assert stored_result(table, engine.settle(record)) == stored.result
