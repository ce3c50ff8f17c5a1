"""A small world for the permission matrix and the hidden-information tests: players seated
at tables, a club member, a club admin and a tournament director who are not seated, an
outsider (no member of the club), and tables of every kind, each linked to the club and to a
tournament round."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rest_framework.test import APIClient

import engine
from clubs.models import Club, Membership, User
from engine.rules.wien import Phase
from games import services
from games.models import Hand, Table
from tests.factories import UserFactory
from tournaments.models import Round, RoundTable, Tournament

RULES: dict[str, Any] = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}
ENTRY = {
    "game": {"type": "suit", "level": "D", "talon": True},
    "declarer": "anna",
    "defence": {"bert": "play", "carl": "play"},
    "tricks": {"anna": 6, "bert": 2, "carl": 2},
}
ROLES = ("anonymous", "outsider", "member", "seated", "club_admin", "director")


@dataclass
class World:
    users: dict[str, User]
    club: Club
    round: Round
    tables: dict[str, Table] = field(default_factory=dict)

    def client(self, role: str) -> APIClient:
        """An API client for a role: ``seated`` is anna, who sits at every table."""
        client = APIClient()
        name = {"seated": "anna"}.get(role, role)
        if role != "anonymous":
            client.force_authenticate(self.users[name])
        return client

    def user(self, role: str) -> User | None:
        return None if role == "anonymous" else self.users[{"seated": "anna"}.get(role, role)]


def build_world(*, public: bool = False) -> World:
    """Players anna, bert, carl (seated), ``member`` (of the club, not seated),
    ``club_admin``, ``director``, ``outsider`` (signed in, no member of the club); tables
    ``recorded`` (one settled hand and one awaiting confirmation when ``pending``) and
    ``hosted`` (hand 1 in play, past the discard and four cards)."""
    users = {
        name: UserFactory.create(username=name)
        for name in ("anna", "bert", "carl", "member", "club_admin", "director", "outsider")
    }
    club = Club.objects.create(name="Wiener Runde")
    Membership.objects.create(club=club, user=users["club_admin"], role=Membership.Role.ADMIN)
    for name in ("anna", "bert", "carl", "member"):
        Membership.objects.create(club=club, user=users[name])
    tournament = Tournament.objects.create(name="Wiener Cup")
    tournament.directors.add(users["director"])
    rnd = Round.objects.create(tournament=tournament, number=1)
    world = World(users=users, club=club, round=rnd)
    for mode in (Table.Mode.RECORDED, Table.Mode.HOSTED):
        world.tables[mode] = services.table_create(
            user=users["anna"],
            name=f"{mode} table",
            mode=mode,
            rules=RULES,
            seats=[
                services.SeatSpec(key=k, kind="user", user=users[k])
                for k in ("anna", "bert", "carl")
            ],
            first_dealer="carl",
            club_id=club.pk,
            is_public=public,
        )
        RoundTable.objects.create(round=rnd, number=len(world.tables), table=world.tables[mode])
    services.table_record_hand(
        table_id=world.tables["recorded"].pk, user=users["anna"], entry=ENTRY
    )
    hand = services.hand_start(table_id=world.tables["hosted"].pk, user=users["anna"])
    play_into_the_hand(world, hand)
    return world


def play_into_the_hand(world: World, hand: Hand) -> Hand:
    """Forehand bids 1 and wins, takes the talon, discards, declares; both defenders play;
    four cards are played. Every kind of hidden card now exists: hands, talon, discards."""
    table = world.tables["hosted"]
    while True:
        hand.refresh_from_db()
        state = services.hand_state(table, hand)
        seat = state.to_act_seat
        if seat is None or (
            state.phase is Phase.PLAY and state.tricks_done >= 1 and len(state.trick) == 1
        ):
            return hand
        legal = engine.legal_actions(state)
        wanted = {
            "call": "1" if seat == state.active[0] else "pass",
            "look": False,
            "defence": "play",
        }
        choice = legal[0]
        for action in legal:
            data = engine.action_to_json(action, engine.PIQUET, seat=False)
            key = next(iter(data))
            if key in wanted and data[key] == wanted[key]:
                choice = action
                break
        services.hand_apply_action(
            table_id=table.pk,
            number=hand.number,
            user=world.users[seat],
            action=engine.action_to_json(choice, engine.PIQUET, seat=False),
            expected_version=hand.version,
        )
