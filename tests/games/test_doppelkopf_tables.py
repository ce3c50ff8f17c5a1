"""Doppelkopf at tables of four (``spec/next/doppelkopf.md``): hosted hands dealt and played
through the services with bots, the Kasse of ``doppelkopf`` kept in the ledger as the table's
pot, the players of ``doppelkopf-ddv`` paying one another; a ``doppelkopf-ddv`` table keeps the
DDV round (24 deals, a Pflichtsolo owed by each player and dealt again by the same dealer, the
Vorführung), and the API says who still owes one; a DDV announcement, which is not a turn,
is taken over HTTP from any seat and reaches the others' events.

Both rule sets are offered to tables (``engine.rule_sets()``); they were engine-only until the
apps carried them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from clubs.models import User
from games import live, services
from games.errors import InvalidInput, RuleViolation
from games.models import Hand, LedgerEntry, Seat, Table
from games.services.tables import table_balances
from tests.cards import cards_in
from tests.openapi import schema_errors

pytestmark = pytest.mark.django_db

KASSE = {"variant": "doppelkopf", "base": 20, "ante": 10}
DDV = {"variant": "doppelkopf-ddv", "point_value": 10}
BOTS = {"bert": "bot", "carl": "bot", "dave": "bot"}


def play_hosted(table: Table, anna: User, rng: random.Random, *, announce: bool) -> Hand:
    """Deal the next hand and play it out: anna (a person) plays a random legal card or
    reservation on her turn (with ``announce`` also her announcements now and then), the bots
    move through ``hand_bot_move``. Every action anna's seat sends is hers."""
    hand = services.hand_start(table_id=table.pk, user=anna)
    sent_by_anna = 0
    while hand.status == Hand.Status.PLAYING:
        state = services.hand_state(table, hand)
        view = engine.view(state, "anna")
        mine = [a for a in view["legal"] if announce or "announce" not in a]
        if view["to_act"] == "anna" or (mine and rng.random() < 0.05):
            assert mine, "anna's turn without a legal action"
            hand = services.hand_apply_action(
                table_id=table.pk, number=hand.number, user=anna, action=rng.choice(mine)
            )
            sent_by_anna += 1
        else:
            moved = services.hand_bot_move(
                hand_id=hand.pk, version=hand.version, rng=rng, schedule=False
            )
            assert moved is not None, "a bot was to act and did not"
            hand = moved
    assert sum(a["seat"] == "anna" for a in hand.actions) == sent_by_anna
    return hand


def test_a_hosted_doppelkopf_table_deals_four_hands_of_twelve_and_keeps_its_kasse(
    make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(mode=Table.Mode.HOSTED, seats=4, rules=KASSE, kinds=BOTS)
    rng = random.Random(7)
    kasse = 0
    for number in (1, 2, 3):
        hand = play_hosted(table, anna, rng, announce=False)
        assert hand.number == number
        assert sorted(len(cards) for cards in hand.deal.values()) == [12] * 4  # no talon
        result = hand.result
        assert hand.pot_before == kasse  # what the last deal left
        moved = sum(result["delta"].values())
        into_kasse = sum(t["amount"] for t in result["transfers"] if t["to"] == "kasse")
        out_of_kasse = sum(t["amount"] for t in result["transfers"] if t["from"] == "kasse")
        assert moved + into_kasse - out_of_kasse == 0  # zero-sum with the Kasse
        kasse += into_kasse - out_of_kasse
        assert result["kasse"] == kasse == result["pot"]  # the Kasse after the deal
        assert not schema_errors("Result", result)  # what generated clients parse
        balances = table_balances(table)
        assert balances["pot"] == kasse  # the Kasse is the table's pot in the ledger
        assert sum(balances.values()) == 0
    assert not LedgerEntry.objects.filter(payer="kasse").exists()


def test_at_a_ddv_table_bots_announce_only_for_themselves_and_players_pay_one_another(
    make_table: Callable[..., Table], anna: User, client_for: Callable[[User], APIClient]
) -> None:
    table = make_table(mode=Table.Mode.HOSTED, seats=4, rules=DDV, kinds=BOTS, is_public=True)
    rng = random.Random(11)
    for _ in range(3):
        hand = play_hosted(table, anna, rng, announce=True)
        for who in (client_for(anna), APIClient()):  # anna, and a spectator of no seat
            url = f"/api/v1/tables/{table.pk}/hands/{hand.number}/view/"
            view = who.get(url).json()
            assert not schema_errors("HandView", view), view  # what generated clients parse
            assert len(view["tricks"]) == 12 and view["result"] == hand.result
        assert not schema_errors("Result", hand.result)
        assert hand.result["pot"] is None  # the players pay one another
        assert sum(hand.result["delta"].values()) == 0
        assert sum(hand.result["score"].values()) == 0
    balances = table_balances(table)
    assert balances["pot"] == 0 and sum(balances.values()) == 0


def entry(re: list[str], game: dict[str, Any] | None = None) -> dict[str, Any]:
    """A DDV score-sheet entry: Re won 130 : 110 without announcements."""
    return {
        "game": game or {"type": "normal"},
        "re": re,
        "points": {"re": 130, "kontra": 110},
        "tricks": {"re": 7, "kontra": 5},
    }


def queens_solo(soloist: str, pflicht: bool) -> dict[str, Any]:
    return entry([soloist], {"type": "solo", "kind": "queens", "pflicht": pflicht})


def round_of(client: APIClient, table: Table) -> dict[str, Any]:
    answer = client.get(f"/api/v1/tables/{table.pk}/")
    assert answer.status_code == 200, answer.json()
    found: dict[str, Any] = answer.json()["round"]
    assert found["dealer"] == answer.json()["next_dealer"]
    return found


def test_a_recorded_ddv_table_keeps_the_round_and_says_who_owes_a_pflichtsolo(
    make_table: Callable[..., Table],
    anna: User,
    client_for: Callable[[User], APIClient],
) -> None:
    """dave deals first (anna forehand). A Pflichtsolo is dealt again by the same dealer and
    does not count; after 24 counted deals bert, who still owes his, is vorgeführt: he sits
    forehand (anna deals) and nothing but his solo is accepted; then a new round begins."""
    table = make_table(seats=4, rules=DDV, first_dealer="dave")
    client = client_for(anna)
    assert round_of(client, table) == {
        "round": 1, "deals": 24, "counted": 0, "vorfuehrung": None, "dealer": "dave",
        "pflicht_owed": ["anna", "bert", "carl", "dave"],
    }  # fmt: skip

    def record(e: dict[str, Any]) -> dict[str, Any]:
        return services.table_record_hand(table_id=table.pk, user=anna, entry=e).result

    paid = record(entry(["anna", "carl"]))
    assert paid["delta"] == {"anna": 10, "bert": -10, "carl": 10, "dave": -10}
    assert round_of(client, table)["dealer"] == "anna"
    solo = record(queens_solo("carl", pflicht=True))
    assert solo["game"]["pflicht"] and solo["score"]["carl"] == 3
    after = round_of(client, table)
    assert after["counted"] == 1 and after["dealer"] == "anna"  # anna deals again
    assert after["pflicht_owed"] == ["anna", "bert", "dave"]
    with pytest.raises(RuleViolation, match="owes no Pflichtsolo"):
        record(queens_solo("carl", pflicht=True))  # carl has played his
    for seat in ("anna", "dave"):
        record(queens_solo(seat, pflicht=True))
    for _ in range(23):
        record(entry(["anna", "carl"]))
    due = round_of(client, table)
    assert due["counted"] == 24 and due["vorfuehrung"] == "bert" and due["dealer"] == "anna"
    with pytest.raises(RuleViolation, match="vorgeführt"):
        record(entry(["bert", "carl"]))
    record(queens_solo("bert", pflicht=True))
    assert round_of(client, table) == {
        "round": 2, "deals": 24, "counted": 0, "vorfuehrung": None, "dealer": "dave",
        "pflicht_owed": ["anna", "bert", "carl", "dave"],
    }  # fmt: skip
    balances = table_balances(table)
    assert balances["pot"] == 0 and sum(balances.values()) == 0


def test_deleting_a_pflichtsolo_owes_it_again(
    make_table: Callable[..., Table], anna: User, client_for: Callable[[User], APIClient]
) -> None:
    table = make_table(seats=4, rules=DDV, first_dealer="dave")
    services.table_record_hand(table_id=table.pk, user=anna, entry=queens_solo("bert", True))
    services.table_record_hand(table_id=table.pk, user=anna, entry=entry(["anna", "carl"]))
    assert round_of(client_for(anna), table)["pflicht_owed"] == ["anna", "carl", "dave"]
    services.hand_delete(table_id=table.pk, number=1, user=anna)
    found = round_of(client_for(anna), table)
    assert found["pflicht_owed"] == ["anna", "bert", "carl", "dave"]
    assert found["counted"] == 1 and found["dealer"] == "anna"
    assert Hand.objects.get(table=table, number=1).dealer == "dave"


def test_a_table_of_a_rule_set_without_rounds_shows_none(
    make_table: Callable[..., Table], anna: User, client_for: Callable[[User], APIClient]
) -> None:
    table = make_table(seats=4, rules=KASSE)
    answer = client_for(anna).get(f"/api/v1/tables/{table.pk}/").json()
    assert answer["round"] is None and answer["next_dealer"] == "carl"


def test_the_sheet_shows_parties_winner_augen_announcements_extras_and_game_points(
    make_table: Callable[..., Table], anna: User, client_for: Callable[[User], APIClient]
) -> None:
    """D1 (Re anna and carl announced ``re``, won 130 : 110, a Doppelkopf against a fox: 3
    game points each), then carl's Pflichtsolo with queens (3 × 1 for winning)."""
    table = make_table(seats=4, rules=DDV, first_dealer="dave")
    d1 = {**entry(["anna", "carl"]), "announcements": {"re": "re", "kontra": None},
          "extras": {"re": ["doppelkopf"], "kontra": ["fox"]}}  # fmt: skip
    services.table_record_hand(table_id=table.pk, user=anna, entry=d1)
    services.table_record_hand(table_id=table.pk, user=anna, entry=queens_solo("carl", True))
    client = client_for(anna)
    sheet = client.get(f"/api/v1/tables/{table.pk}/sheet/").json()
    first, second = (row["doppelkopf"] for row in sheet["rows"])
    assert [row["details"] for row in sheet["rows"]] == [first, second]  # the same, deprecated
    assert sheet["variant"] == "doppelkopf-ddv" and not schema_errors("ScoreSheet", sheet)
    assert all(row["pulya"] is None for row in sheet["rows"])
    assert first == {
        "re": ["anna", "carl"], "winner": "re", "augen": {"re": 130, "kontra": 110},
        "announcements": {"re": "re", "kontra": None}, "category": None,
        "extras": {"re": ["doppelkopf"], "kontra": ["fox"]},
        "score": {"anna": 3, "bert": -3, "carl": 3, "dave": -3},
        "totals": {"anna": 3, "bert": -3, "carl": 3, "dave": -3},
    }  # fmt: skip
    assert second["score"] == {"anna": -1, "bert": -1, "carl": 3, "dave": -1}
    assert second["totals"] == {"anna": 2, "bert": -4, "carl": 6, "dave": -4}
    assert sheet["rows"][1]["balances"] == {"anna": 20, "bert": -40, "carl": 60, "dave": -40}
    text = client.get(f"/api/v1/tables/{table.pk}/sheet/", HTTP_ACCEPT="text/csv")
    lines = text.content.decode().splitlines()
    header = lines[0].split(",")
    assert header[-8:] == [*(f"{k} points" for k in ("anna", "bert", "carl", "dave")),
                           *(f"{k} total" for k in ("anna", "bert", "carl", "dave"))]  # fmt: skip
    row = dict(zip(header, lines[2].split(","), strict=True))
    assert row["re"] == "carl" and row["winner"] == "re" and row["carl total"] == "6"
    assert row["re announced"] == "" and row["kontra augen"] == "110"


def test_a_kasse_tables_sheet_shows_the_deal_without_game_points(
    make_table: Callable[..., Table], anna: User, client_for: Callable[[User], APIClient]
) -> None:
    table = make_table(seats=4, rules=KASSE, first_dealer="dave")
    normal = {"game": {"type": "normal"}, "re": ["anna", "carl"],
              "points": {"re": 151, "kontra": 89}, "tricks": {"re": 8, "kontra": 4}}  # fmt: skip
    services.table_record_hand(table_id=table.pk, user=anna, entry=normal)
    row = client_for(anna).get(f"/api/v1/tables/{table.pk}/sheet/").json()["rows"][0]
    assert row["doppelkopf"]["category"] == "simple" and row["doppelkopf"]["winner"] == "re"
    assert row["doppelkopf"]["score"] is None and row["doppelkopf"]["totals"] is None
    assert row["pot"] == 0  # the Kasse after the deal: four antes of 10 in, 20 to each of Re


def test_heuristic_bots_play_a_ddv_hand_from_their_views_and_unknown_levels_are_refused(
    make_table: Callable[..., Table], anna: User
) -> None:
    """Three heuristic bots and anna: every bot move is one of the legal actions its seat's
    view offered (``hand_bot_move`` passes the view alone). Doppelkopf has no ``pimc``."""
    table = services.table_create(
        user=anna, name="Doko", mode=Table.Mode.HOSTED, rules=DDV,
        seats=[services.SeatSpec(key="anna", kind="user", user=anna),
               *(services.SeatSpec(key=k, kind="bot", bot_level="heuristic") for k in BOTS)],
    )  # fmt: skip
    assert set(
        Seat.objects.filter(table=table, kind="bot").values_list("bot_level", flat=True)
    ) == {"heuristic"}
    for _ in range(2):
        hand = play_hosted(table, anna, random.Random(5), announce=False)
        assert sum(hand.result["delta"].values()) == 0
    with pytest.raises(InvalidInput, match="doppelkopf-ddv at level random or heuristic"):
        services.table_create(
            user=anna, name="Doko", mode=Table.Mode.HOSTED, rules=DDV,
            seats=[services.SeatSpec(key="anna", kind="user", user=anna),
                   services.SeatSpec(key="b1", kind="bot", bot_level="pimc"),
                   *(services.SeatSpec(key=k, kind="bot", bot_level="random") for k in "xy")],
        )  # fmt: skip


def test_your_turn_goes_to_the_player_to_play_not_to_every_seat_that_may_announce(
    make_table: Callable[..., Table], anna: User, bert: User, carl: User, dave: User
) -> None:
    """Under the DDV rules every seat may announce in the first tricks (``to_act`` names
    them all); the hand waits only for the player to play (``engine.waiting_for``), and only
    he is told it is his turn."""
    table = make_table(mode=Table.Mode.HOSTED, seats=4, rules=DDV, first_dealer="dave")
    users = {"anna": anna, "bert": bert, "carl": carl, "dave": dave}
    hand = services.hand_start(table_id=table.pk, user=anna)
    for seat in ("anna", "bert", "carl", "dave"):
        state = services.hand_state(table, hand)
        reservation = engine.view(state, seat)["legal"][0]  # "none": healthy, or a silent solo
        hand = services.hand_apply_action(
            table_id=table.pk, number=1, user=users[seat], action=reservation
        )
    state = services.hand_state(table, hand)
    assert engine.to_act(state) == set(users)  # all four may announce
    assert engine.waiting_for(state) == {"anna"}  # forehand leads
    turns = {seat: live.your_turns(user) for seat, user in users.items()}
    assert [t["seat"] for t in turns["anna"]] == ["anna"]
    assert turns["bert"] == turns["carl"] == turns["dave"] == []


def test_a_seat_not_to_play_announces_over_http_and_the_events_show_it_to_the_others(
    make_table: Callable[..., Table],
    anna: User,
    bert: User,
    carl: User,
    dave: User,
    client_for: Callable[[User | None], APIClient],
) -> None:
    """An announcement is not a turn: a seat that is not to play sends ``{"announce": …}`` to
    ``POST …/actions/`` and it is accepted; the events long poll of every other seat and of a
    spectator lists it as the hand's next version, and the hand still waits for the player
    to play."""
    table = make_table(
        mode=Table.Mode.HOSTED, seats=4, rules=DDV, first_dealer="dave", is_public=True
    )
    users = {"anna": anna, "bert": bert, "carl": carl, "dave": dave}
    clients = {seat: client_for(user) for seat, user in users.items()}
    hand_path = f"/api/v1/tables/{table.pk}/hands/1/"
    assert clients["anna"].post(f"/api/v1/tables/{table.pk}/hands/").status_code == 201
    for version, seat in enumerate(("anna", "bert", "carl", "dave")):  # the reservations
        legal = clients[seat].get(hand_path + "view/").json()["legal"]
        reservation = next(a for a in legal if "reservation" in a)  # "none" (or a silent solo)
        answer = clients[seat].post(
            hand_path + "actions/",
            {"action": {"reservation": reservation["reservation"]}, "expected_version": version},
            format="json",
        )
        assert answer.status_code == 200, answer.json()
    polled = clients["bert"].get(hand_path + "events/?after=4&wait=0").json()
    assert polled["to_act"] == "anna" and polled["events"] == []  # forehand is to lead

    announcer = "carl"  # not to play
    word = next(
        a["announce"]
        for a in clients[announcer].get(hand_path + "view/").json()["legal"]
        if a.get("announce") in ("re", "kontra")
    )
    answer = clients[announcer].post(
        hand_path + "actions/",
        {"action": {"announce": word}, "expected_version": 4},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["version"] == 5
    assert answer.json()["announcements"] == [{"seat": announcer, "announce": word}]

    event = {"version": 5, "seat": announcer, "action": {"announce": word}}
    for reader in ("anna", "bert", "dave", None):
        client = clients[reader] if reader else APIClient()  # a spectator of a public table
        body = client.get(hand_path + "events/?after=4&wait=5").json()
        assert not schema_errors("Events", body)
        assert body["events"] == [event], reader
        assert body["version"] == 5 and body["status"] == "playing"
        assert body["to_act"] == "anna"  # still forehand's lead
        view = client.get(hand_path + "view/").json()
        assert view["announcements"] == [{"seat": announcer, "announce": word}]
        assert announcer in view["parties"]["re" if word == "re" else "kontra"]
    assert [t["seat"] for t in live.your_turns(anna)] == ["anna"]
    assert live.your_turns(carl) == []


def test_no_endpoint_shows_a_doppelkopf_seat_cards_it_may_not_see(
    make_table: Callable[..., Table],
    anna: User,
    bert: User,
    carl: User,
    dave: User,
    stranger: User,
    client_for: Callable[[User | None], APIClient],
) -> None:
    """A public hosted DDV hand in the second trick: every read of the table and the hand,
    and a refused move, as each seat, a stranger and an anonymous caller, shows only card
    codes the engine's view shows that caller (``engine.known``)."""
    table = make_table(
        mode=Table.Mode.HOSTED, seats=4, rules=DDV, first_dealer="dave", is_public=True
    )
    users = {"anna": anna, "bert": bert, "carl": carl, "dave": dave}
    hand = services.hand_start(table_id=table.pk, user=anna)
    rng = random.Random(3)
    while len(hand.actions) < 4 + 6:  # the reservations and six cards
        state = services.hand_state(table, hand)
        seat = next(iter(engine.waiting_for(state)))
        legal = [a for a in engine.view(state, seat)["legal"] if "announce" not in a]
        hand = services.hand_apply_action(
            table_id=table.pk, number=1, user=users[seat], action=rng.choice(legal)
        )
    state = services.hand_state(table, hand)
    deck = engine.rule_set("doppelkopf-ddv").deck
    codes = frozenset(deck.codes)
    base = f"/api/v1/tables/{table.pk}/"
    reads = ["", "hands/", "hands/1/", "hands/1/view/", "hands/1/record/",
             "hands/1/events/?wait=0", "sheet/", "sheet.csv", "ledger/"]  # fmt: skip
    callers: dict[str | None, User | None] = {**users, "stranger": stranger, None: None}
    for name, user in callers.items():
        seat = name if name in users else None
        allowed = {deck.code(c) for c in range(deck.size) if engine.known(state, seat) >> c & 1}
        client = client_for(user)
        for path in reads:
            answer = client.get(base + path)
            body = answer.content.decode()
            found = cards_in(answer.json() if "json" in answer["Content-Type"] else body, codes)
            assert found <= allowed, (name, path, found - allowed)
        # a card this caller may not play now (the deal is shuffled afresh on every run)
        playable = {a.get("card") for a in engine.view(state, seat).get("legal", [])}
        card = next(c for c in sorted(codes) if c not in playable)
        refused = client.post(base + "hands/1/actions/", {"action": {"card": card}}, format="json")
        assert refused.status_code >= 400
        assert cards_in(refused.json(), codes) <= allowed | {card}, name


def test_closing_a_kasse_table_shares_the_kasse_out_or_carries_it(
    make_table: Callable[..., Table], anna: User
) -> None:
    """``kasse_at_close``: ``split`` shares the Kasse among the seats (leftover cents to the
    first seats), ``carry`` keeps it for the series; either way the ledger sums to zero."""
    normal = {"game": {"type": "normal"}, "re": ["anna", "carl"],
              "points": {"re": 151, "kontra": 89}, "tricks": {"re": 8, "kontra": 4}}  # fmt: skip
    for close, kept in (("split", 0), ("carry", None)):
        rules = {**KASSE, "base": 15, "kasse_at_close": close}  # 40 in, 2 × 15 out: 10 left
        table = make_table(seats=4, rules=rules, first_dealer="dave")
        services.table_record_hand(table_id=table.pk, user=anna, entry=normal)
        kasse = table_balances(table)["pot"]
        assert kasse > 0
        services.table_close(table_id=table.pk, user=anna)
        balances = table_balances(table)
        assert sum(balances.values()) == 0
        if kept is None:
            assert balances["pot"] == 0 and balances["series"] == kasse  # carried on
        else:
            split = LedgerEntry.objects.filter(table=table, reason="split")
            assert sum(e.amount for e in split) == kasse and balances["pot"] == kept
            assert {e.payer for e in split} == {"pot"}
