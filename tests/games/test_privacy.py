"""What the tables keep about a person (issue 39, ``games.privacy``): the ``tables`` section of
their export, and their erasure.

Hidden information is the boundary here as everywhere: a person's export shows a hosted hand
as their seat saw it. The sweep plays hands through the services with random legal moves and,
after every move, exports every seated person and compares the export with the engine's deal:
no card the seat may not know at that moment (``engine.known``) appears in its hands.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from clubs import privacy
from clubs.models import Club, Guest, Membership, User
from clubs.services import people
from games import deals, services
from games.models import AuditEntry, Hand, IdempotencyRecord, Seat, Table, WorkerPing
from tests.cards import cards_in
from tests.factories import UserFactory
from tests.games.conftest import AUSFECHTEN, FELL, MADE, RULES, hand_url, hands_url
from tests.games.test_every_rule_set import PLAYERS, seats_of
from tests.rule_sets import every_rule_set

pytestmark = pytest.mark.django_db

ClientFor = Callable[[User | None], APIClient]


def section(user: User, scope: privacy.Scope | None = None) -> dict[str, Any]:
    """The ``tables`` section of ``user``'s export, as JSON reads it back."""
    keeper = next(k for k in privacy.keepers() if k.section == "tables")
    out: dict[str, Any] = json.loads(json.dumps(keeper.export(user, scope or privacy.Scope())))
    return out


def table_in(part: dict[str, Any], table: Table) -> dict[str, Any]:
    return next(t for t in part["tables"] if t["id"] == table.pk)


def seat_hands(part: dict[str, Any], table: Table) -> dict[int, dict[str, Any]]:
    """The hands of the person's (only) seat at ``table``, by number."""
    (seat,) = table_in(part, table)["seats"]
    return {hand["number"]: hand for hand in seat["hands"]}


def api_rows(client: APIClient, url: str) -> list[dict[str, Any]]:
    body = client.get(url).json()
    return body["results"] if isinstance(body, dict) and "results" in body else body


# --- export ----------------------------------------------------------------------------------


def test_a_players_export_lists_the_hands_and_ledger_rows_of_their_recorded_table(
    recorded: Table, anna: User, bert: User, client_for: ClientFor
) -> None:
    for entry in (MADE, FELL, AUSFECHTEN):
        services.table_record_hand(table_id=recorded.pk, user=anna, entry=entry)
    client = client_for(bert)

    part = section(bert)
    table = table_in(part, recorded)
    assert (table["name"], table["mode"], table["club"]) == ("Friday table", "recorded", None)
    assert table["rules"] == recorded.rules and table["created_by_you"] is False
    (seat,) = table["seats"]
    assert (seat["key"], seat["kind"]) == ("bert", "user")
    assert [h["number"] for h in seat["hands"]] == [1, 2, 3]
    for hand in seat["hands"]:
        shown = client.get(hand_url(recorded, hand["number"], "view/")).json()
        assert hand["entry"] == shown["entry"] and hand["result"] == shown["result"]
    ledger = api_rows(client, f"/api/v1/tables/{recorded.pk}/ledger/?party=bert&page_size=100")
    assert ledger, "bert paid and was paid"
    assert [{k: r[k] for k in ("hand", "payer", "payee", "amount", "reason")} for r in ledger] == [
        {k: r[k] for k in ("hand", "payer", "payee", "amount", "reason")} for r in seat["ledger"]
    ]
    assert part["audit"] == []  # anna recorded every hand

    mine = section(anna)
    assert table_in(mine, recorded)["created_by_you"] is True
    assert [a["action"] for a in mine["audit"]] == ["table_create", *["hand_record"] * 3]
    assert [a["after"]["entry"] for a in mine["audit"][1:]] == [MADE, FELL, AUSFECHTEN]
    assert [(h["table"], h["number"], h["entered"]) for h in mine["hands_entered"]] == [
        (recorded.pk, n, True) for n in (1, 2, 3)
    ]
    assert [s["id"] for s in mine["series"]] == [recorded.series_id]


def test_the_export_names_idempotency_keys_and_pings_but_not_the_stored_answers(
    recorded: Table, bert: User, client_for: ClientFor
) -> None:
    answer = client_for(bert).post(
        hands_url(recorded), MADE, format="json", headers={"Idempotency-Key": "entry-1"}
    )
    assert answer.status_code == 201
    WorkerPing.objects.create(user=bert, api_pid=1)

    part = section(bert)
    assert [k["key"] for k in part["idempotency_keys"]] == ["entry-1"]
    assert "response" not in part["idempotency_keys"][0]
    assert [p["status"] for p in part["worker_pings"]] == ["pending"]
    assert [(a["action"], a["hand_number"]) for a in part["audit"]] == [("hand_record", 1)]
    assert part["hands_entered"][0]["entered"] is True


def test_a_clubs_export_holds_only_that_clubs_tables(
    make_table: Callable[..., Table], anna: User, bert: User, carl: User
) -> None:
    club = Club.objects.create(name="Wiener Runde")
    for user in (anna, bert, carl):
        Membership.objects.create(club=club, user=user)
    at_club = make_table(club_id=club.pk, name="Club table")
    own = make_table(name="Kitchen table")
    WorkerPing.objects.create(user=bert, api_pid=1)

    everything = section(bert)
    assert {t["id"] for t in everything["tables"]} == {at_club.pk, own.pk}
    clubs = section(bert, privacy.Scope(club))
    assert [t["id"] for t in clubs["tables"]] == [at_club.pk]
    assert clubs["worker_pings"] == [] and clubs["idempotency_keys"] == []
    assert [s["id"] for s in section(anna, privacy.Scope(club))["series"]] == [at_club.series_id]


def test_a_guest_merged_into_a_member_is_their_seat(anna: User, bert: User) -> None:
    club = Club.objects.create(name="Wiener Runde")
    for user in (anna, bert):
        Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
    guest = Guest.objects.create(club=club, name="Berti")
    table = services.table_create(
        user=anna,
        name="Guest night",
        mode=Table.Mode.RECORDED,
        rules=RULES,
        seats=[
            services.SeatSpec(key="anna", kind="user", user=anna),
            services.SeatSpec(key="berti", kind="guest", guest=guest),
            services.SeatSpec(key="carl", kind="guest", guest_name="Carl"),
        ],
        first_dealer="carl",
        club_id=club.pk,
    )
    entry = {**MADE, "defence": {"berti": "play", "carl": "play"}}
    entry["tricks"] = {"anna": 6, "berti": 2, "carl": 2}
    services.table_record_hand(table_id=table.pk, user=anna, entry=entry)
    assert section(bert)["tables"] == []

    people.guest_merge(club_id=club.pk, user=anna, guest_id=guest.pk, into_user_id=bert.pk)
    (seat,) = table_in(section(bert), table)["seats"]
    assert (seat["key"], seat["kind"]) == ("berti", "guest")
    assert [h["entry"]["tricks"]["berti"] for h in seat["hands"]] == [2]


# --- the hidden-information sweep ------------------------------------------------------------


def unknown_to(state: Any, seat: str, rs: engine.RuleSet[Any, Any, Any]) -> set[str]:
    """The cards of the hand's deal that ``seat`` may not know at ``state``."""
    dealt = cards_in(engine.to_record(state)["deal"], rs.deck.codes)
    return dealt - set(rs.deck.codes_of(engine.known(state, seat)))


def check_exports(
    table: Table, hand: Hand, users: dict[str, User], rs: engine.RuleSet[Any, Any, Any]
) -> str:
    """Every seated person's export holds their own cards of ``hand`` and no card their seat
    may not know now, in the hand nor anywhere else in the section but the other hands;
    returns the hand's phase."""
    state = services.hand_state(table, hand)
    codes = frozenset(rs.deck.codes)
    for seat, user in users.items():
        part = section(user)
        shown = seat_hands(part, table)[hand.number]
        hidden = unknown_to(state, seat, rs)
        leaked = cards_in(shown, codes) & hidden
        assert not leaked, f"{seat} at {shown['view']['phase']}: {sorted(leaked)}"
        own = cards_in(engine.view(state, seat)["hand"], codes)
        assert own <= cards_in(shown["view"]["hand"], codes)
        for t in part["tables"]:
            for s in t["seats"]:
                del s["hands"]  # the other hands are other deals
        assert not cards_in(part, codes) & hidden
        if hand.status == Hand.Status.DONE:
            assert shown["record"]["proof"]["commitment"] == hand.commitment
            assert shown["result"] == hand.result
        else:
            assert shown["record"] is None and shown["result"] is None
    return str(engine.view(state, None)["phase"])


Choose = Callable[[list[dict[str, Any]], bool], dict[str, Any]]


def at_random(rng: random.Random) -> Choose:
    """Any legal move."""
    return lambda legal, first: rng.choice(legal)


def into_the_talon(rng: random.Random) -> Choose:
    """The talon games' way through every phase: the first caller bids 1 and the others pass,
    the declarer names a suit game, nobody looks, the defenders play; any legal move where
    none of these is legal."""

    def choose(legal: list[dict[str, Any]], first: bool) -> dict[str, Any]:
        suit = next((a["declare"] for a in legal if "suit" in str(a.get("declare"))), None)
        here = {"call": "1" if first else "pass", "declare": suit, "look": False}
        here["defence"] = "play"
        return next(
            (a for a in legal if any(k in a and a[k] == v for k, v in here.items())),
            rng.choice(legal),
        )

    return choose


def play(
    table: Table,
    hand: Hand,
    users: dict[str, User],
    choose: Choose,
    step: Callable[[Hand], None],
    moves: int = 300,
) -> Hand:
    """Play ``hand`` with the legal moves ``choose`` picks for the seats it waits for (told
    whether the move is the hand's first), calling ``step`` before each move and at the end;
    at most ``moves`` moves."""
    for _ in range(moves):
        step(hand)
        if hand.status == Hand.Status.DONE:
            return hand
        state = services.hand_state(table, hand)
        seat = sorted(engine.waiting_for(state))[0]
        legal = engine.view(state, seat)["legal"]
        action = choose(legal, not hand.actions)
        hand = services.hand_apply_action(
            table_id=table.pk, number=hand.number, user=users[seat], action=action
        )
    return hand


@pytest.fixture
def players(anna: User, bert: User, carl: User, dave: User) -> dict[str, User]:
    return dict(zip(PLAYERS, (anna, bert, carl, dave), strict=True))


@every_rule_set()
def test_no_export_shows_a_seat_a_card_it_may_not_know(
    rs: engine.RuleSet[Any, Any, Any],
    make_table: Callable[..., Table],
    players: dict[str, User],
) -> None:
    """Two hands played to the end (at random, and the talon games' way through the talon)
    and a third in play: after every move, every seat's export."""
    n = seats_of(rs)
    table = make_table(mode=Table.Mode.HOSTED, rules=rs.examples[0], seats=n)
    users = {s: players[s] for s in PLAYERS[:n]}
    phases: list[str] = []
    rng = random.Random(5)

    def step(hand: Hand) -> None:
        phases.append(check_exports(table, hand, users, rs))

    for choose in (at_random(rng), into_the_talon(rng)):
        hand = services.hand_start(table_id=table.pk, user=users["anna"])
        assert play(table, hand, users, choose, step).status == Hand.Status.DONE
    third = services.hand_start(table_id=table.pk, user=users["anna"])
    play(table, third, users, at_random(rng), step, moves=12)  # in play, the others over

    seen = set(phases)
    assert len(seen) >= 3, seen  # the hand's first phase, its play and its end at least
    if rs.name == "wien":
        assert {"auction", "talon", "declare", "defence", "play", "done"} <= seen, seen


def test_a_withheld_board_shows_each_seat_only_what_it_saw_during_play(
    make_table: Callable[..., Table], players: dict[str, User]
) -> None:
    rs = engine.rule_set("wien")
    table = make_table(mode=Table.Mode.HOSTED)
    users = {s: players[s] for s in PLAYERS[:3]}
    source = deals.DealSource(
        "a board still played elsewhere",
        deck_for=lambda table_id, number: None,
        withheld=lambda table_id, number: table_id == table.pk,
    )
    deals.register(source)
    try:
        hand = play(
            table,
            services.hand_start(table_id=table.pk, user=users["anna"]),
            users,
            at_random(random.Random(2)),
            lambda hand: None,
        )
        assert hand.status == Hand.Status.DONE
        before = engine.replay(
            {**services.hand_record_json(table, hand), "actions": hand.actions[:-1]}
        )
        codes = frozenset(rs.deck.codes)
        for seat, user in users.items():
            shown = seat_hands(section(user), table)[1]
            seen = cards_in(engine.view(before, seat), codes) | cards_in(hand.actions[-1], codes)
            assert cards_in(shown, codes) <= seen, sorted(cards_in(shown, codes) - seen)
            assert shown["record"] is None
            assert shown["result"] == hand.result
    finally:
        deals.unregister(source.name)


# --- erasure ---------------------------------------------------------------------------------


@pytest.fixture
def erased_world(db: None) -> Iterator[dict[str, Any]]:
    """A club of anna, bertram (who will be erased) and carl: a recorded table where bertram
    sits at ``bert`` and recorded a hand with an idempotency key; a recorded table named after
    him where a guest who was him before he joined sat, merged into his account since; a
    hosted table with a finished hand and one in play; a worker ping of his."""
    anna = UserFactory.create(username="anna", display_name="Anna Adler")
    bertram = UserFactory.create(
        username="bertram",
        display_name="Bertram Berger",
        first_name="Bertram",
        last_name="Berger",
        email="bertram@example.com",
    )
    carl = UserFactory.create(username="carl", display_name="Carl Czerny")
    club = Club.objects.create(name="Wiener Runde")
    Membership.objects.create(club=club, user=anna, role=Membership.Role.OWNER)
    for user in (bertram, carl):
        Membership.objects.create(club=club, user=user)
    users = {"anna": anna, "bert": bertram, "carl": carl}

    def seats(guest: Guest | None = None) -> list[services.SeatSpec]:
        return [
            services.SeatSpec(key="anna", kind="user", user=anna),
            services.SeatSpec(key="bert", kind="guest", guest=guest)
            if guest
            else services.SeatSpec(key="bert", kind="user", user=bertram),
            services.SeatSpec(key="carl", kind="user", user=carl),
        ]

    def table(name: str, mode: str = Table.Mode.RECORDED, guest: Guest | None = None) -> Table:
        return services.table_create(
            user=anna,
            name=name,
            mode=mode,
            rules=RULES,
            seats=seats(guest),
            first_dealer="carl",
            club_id=club.pk,
        )

    recorded = table("Dienstag")
    services.table_record_hand(table_id=recorded.pk, user=anna, entry=MADE)
    client = APIClient()
    client.force_authenticate(bertram)
    answer = client.post(
        hands_url(recorded), FELL, format="json", headers={"Idempotency-Key": "fell-1"}
    )
    assert answer.status_code == 201
    services.table_record_hand(table_id=recorded.pk, user=carl, entry=AUSFECHTEN)

    guest = Guest.objects.create(club=club, name="Bertram Berger")
    named = table("Bertram Berger", guest=guest)
    services.table_record_hand(table_id=named.pk, user=anna, entry=MADE)
    people.guest_merge(club_id=club.pk, user=anna, guest_id=guest.pk, into_user_id=bertram.pk)

    hosted = table("Online", Table.Mode.HOSTED)
    moves = at_random(random.Random(4))
    play(hosted, services.hand_start(table_id=hosted.pk, user=anna), users, moves, lambda h: None)
    second = services.hand_start(table_id=hosted.pk, user=bertram)
    play(hosted, second, users, moves, lambda h: None, moves=6)
    WorkerPing.objects.create(user=bertram, api_pid=1)
    yield {
        "users": users,
        "tables": {"recorded": recorded, "named": named, "hosted": hosted},
    }


def reads_of(client: APIClient, table: Table) -> dict[str, Any]:
    """What another player reads of ``table``: its sheet, ledger, audit log, hands and each
    hand's record (a hosted hand's once over) and seat view."""
    base = f"/api/v1/tables/{table.pk}/"
    out: dict[str, Any] = {
        "table": client.get(base).json(),
        "sheet": client.get(base + "sheet/").json(),
        "ledger": api_rows(client, base + "ledger/?page_size=100"),
        "audit": api_rows(client, base + "audit/?page_size=100"),
    }
    for hand in Hand.objects.filter(table=table):
        for tail in ("", "view/", "record/"):
            answer = client.get(hand_url(table, hand.number, tail))
            out[f"{hand.number}/{tail}"] = [answer.status_code, answer.json()]
    return out


def test_erasure_leaves_every_other_players_tables_as_they_were_but_the_name(
    erased_world: dict[str, Any],
) -> None:
    users, tables = erased_world["users"], erased_world["tables"]
    bertram = users["bert"]
    anna = APIClient()
    anna.force_authenticate(users["anna"])
    before = {name: reads_of(anna, table) for name, table in tables.items()}
    assert "Bertram Berger" in json.dumps([before["recorded"]["sheet"], before["named"]])
    stand_in = privacy.pseudonym(bertram)
    assert IdempotencyRecord.objects.filter(user=bertram).exists()
    audit_ids = set(AuditEntry.objects.filter(user=bertram).values_list("pk", flat=True))
    assert audit_ids

    privacy.erase(bertram)

    after = {name: reads_of(anna, table) for name, table in tables.items()}
    text = json.dumps(before, sort_keys=True)
    # the display name becomes the pseudonym; the login, which the audit log and a hand's
    # entered_by show, the tombstone's
    renamed = {"Bertram Berger": stand_in, "bertram": f"erased-{bertram.pk}"}
    for name, now in renamed.items():
        text = text.replace(json.dumps(name), json.dumps(now))
    expected = json.loads(text)
    assert after == expected
    assert "Bertram" not in json.dumps(after)

    for reads in after.values():  # each settled hand's rows: money moved, none made
        for hand in Hand.objects.filter(table_id=reads["table"]["id"], status="done"):
            result = reads[f"{hand.number}/record/"][1]["result"]
            nets: dict[str, int] = {}
            for row in (r for r in reads["ledger"] if r["hand"] == hand.number):
                nets[row["payer"]] = nets.get(row["payer"], 0) - row["amount"]
                nets[row["payee"]] = nets.get(row["payee"], 0) + row["amount"]
            assert nets and sum(nets.values()) == 0
            assert nets.pop("pot", 0) == result["pot"] - hand.pot_before
            assert {k: v for k, v in nets.items() if v} == {
                k: v for k, v in result["delta"].items() if v
            }
    assert not IdempotencyRecord.objects.filter(user=bertram).exists()
    assert not WorkerPing.objects.filter(user=bertram).exists()
    assert set(AuditEntry.objects.filter(user=bertram).values_list("pk", flat=True)) == audit_ids
    assert Seat.objects.get(table=tables["recorded"], key="bert").user_id == bertram.pk
    assert Seat.objects.get(table=tables["named"], key="bert").guest_name == stand_in
    assert Table.objects.get(pk=tables["named"].pk).created_by_id == users["anna"].pk


def test_erasure_keeps_a_seat_key_that_is_the_persons_name(
    make_table: Callable[..., Table], anna: User, bert: User, client_for: ClientFor
) -> None:
    table = make_table()
    services.table_record_hand(table_id=table.pk, user=bert, entry=MADE)
    client = client_for(anna)
    record = client.get(hand_url(table, 1, "record/")).json()

    privacy.erase(bert)

    assert client.get(hand_url(table, 1, "record/")).json() == record
    audit = api_rows(client, f"/api/v1/tables/{table.pk}/audit/")
    created = next(a for a in audit if a["action"] == "table_create")
    assert created["after"]["seats"] == ["anna", "bert", "carl"]
    names = {
        s["key"]: s["name"] for s in client.get(f"/api/v1/tables/{table.pk}/sheet/").json()["seats"]
    }
    assert names["bert"] == privacy.pseudonym(bert)
