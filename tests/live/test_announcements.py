"""Doppelkopf announcements on the hand topic: an announcement sent over HTTP by a seat that is
not to play reaches the other seats' sockets and a spectator's as the hand's next events
message, the body of ``GET …/events/``."""

from __future__ import annotations

from typing import Any

from games import services
from games.models import Table
from tests.factories import UserFactory
from tests.live.conftest import token_for
from tests.live.server import LiveServer, socket_to

SEATS = ("anna", "bert", "carl", "dave")


def test_an_announcement_reaches_the_other_seats_sockets(live: LiveServer) -> None:
    users = {name: UserFactory.create(username=name) for name in SEATS}
    tokens = {name: token_for(user) for name, user in users.items()}
    table = services.table_create(
        user=users["anna"],
        name="Doko live",
        mode=Table.Mode.HOSTED,
        rules={"variant": "doppelkopf-ddv", "point_value": 10},
        seats=[services.SeatSpec(key=k, kind="user", user=u) for k, u in users.items()],
        first_dealer="dave",  # anna is forehand
        is_public=True,
    )
    hand = f"/api/v1/tables/{table.pk}/hands/1/"
    live.ok("POST", f"/api/v1/tables/{table.pk}/hands/", token=tokens["anna"])
    for version, seat in enumerate(SEATS):  # the reservations
        legal = live.ok("GET", hand + "view/", token=tokens[seat])["legal"]
        reservation = next(a["reservation"] for a in legal if "reservation" in a)
        action = {"action": {"reservation": reservation}, "expected_version": version}
        live.ok("POST", hand + "actions/", token=tokens[seat], body=action)

    with (
        socket_to(live, token=tokens["bert"]) as bert,
        socket_to(live) as spectator,
    ):
        for sock in (bert, spectator):
            sock.send(
                {"type": "subscribe", "topic": "hand", "table_id": table.pk, "number": 1,
                 "after": 4}
            )  # fmt: skip
            assert sock.expect("subscribed", topic="hand")["version"] == 4

        legal = live.ok("GET", hand + "view/", token=tokens["carl"])["legal"]
        word = next(a["announce"] for a in legal if a.get("announce") in ("re", "kontra"))
        body = {"action": {"announce": word}, "expected_version": 4}
        assert live.ok("POST", hand + "actions/", token=tokens["carl"], body=body)["version"] == 5

        for sock in (bert, spectator):
            message: dict[str, Any] = sock.until(
                lambda m: m["type"] == "events" and m.get("version") == 5
            )
            assert message["events"] == [
                {"version": 5, "seat": "carl", "action": {"announce": word}}
            ]
            assert message["to_act"] == "anna" and message["status"] == "playing"
