"""Hidden information is the security boundary: no endpoint, list, export, error message or
event shows a seat another seat's cards or the talon before the rules reveal them.

A hosted hand is in play with every kind of hidden card (hands, the talon taken, two
discards). Every endpoint of the permission matrix is called as every kind of caller — the
other players at the table, outsiders, anonymous users, club members, club admins and
tournament directors (who sit nowhere) — and every card code in the answer, success or error,
must be one the engine's own view (``engine.view``) shows that caller. The deck and salt never
appear. ``test_endpoint_coverage.py`` fails when a path of the schema is not exercised here;
the admin is covered by ``test_admin_hidden.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

import engine
from engine.rules.wien import Phase, State
from games import services
from games.models import Hand
from tests.cards import cards_in
from tests.games.test_permissions import ROWS, Row, client_for, resolve
from tests.games.world import World
from tests.worlds import fresh_copy, rows_by_world

pytestmark = pytest.mark.django_db

CARDS = frozenset(engine.PIQUET.codes)
VIEWERS = ("anonymous", "outsider", "member", "seated", "bert", "carl", "club_admin", "director")


def cards_in_text(text: str) -> set[str]:
    return {token for token in re.split(r"[^A-Z0-9]+", text) if token in CARDS}


def hosted_hand(w: World) -> tuple[State, Hand]:
    table = w.tables["hosted"]
    hand = Hand.objects.get(table=table, number=1)
    return services.hand_state(table, hand), hand


def viewer_seat(w: World, row: Row, viewer: str, before: State) -> str | None:
    """The seat whose view bounds what ``viewer`` may see (None: not seated)."""
    if viewer == "seated":
        acting = row.path.endswith(("/actions/", "/hint/"))  # as the matrix: the seat to act
        return (before.to_act_seat or "anna") if acting else "anna"
    return viewer if viewer in ("bert", "carl") else None


def world_of(row: Row) -> tuple[bool, Callable[[World], None] | None]:
    """Public tables and the row's set-up (the ``shared_world`` of tests/games/conftest.py,
    built once for the rows that need the same)."""
    return (True, row.setup)


@pytest.mark.parametrize("viewer", VIEWERS)
@rows_by_world(ROWS, world_of)
def test_no_endpoint_shows_a_caller_cards_it_may_not_see(
    shared_world: World, row: Row, viewer: str
) -> None:
    w = fresh_copy(shared_world)
    before, hand = hosted_hand(w)
    assert before.phase is Phase.PLAY and before.talon  # discards lie in the talon
    seat = viewer_seat(w, row, viewer, before)
    client = w.client(viewer) if viewer in ("bert", "carl") else client_for(w, row, viewer)
    body = row.body(w, viewer) if row.body else None
    response = getattr(client, row.method)(resolve(w, row.path), body, format="json")

    after, hand = hosted_hand(w)
    allowed = cards_in(engine.view(before, seat), CARDS) | cards_in(engine.view(after, seat), CARDS)
    text = response.content.decode()
    if response.get("Content-Type", "").startswith("application/json") and text:
        shown = cards_in(json.loads(text), CARDS)
    else:
        shown = cards_in_text(text)
    assert shown <= allowed, f"{viewer} was shown {sorted(shown - allowed)}"
    assert hand.salt not in text
    assert " ".join(hand.deck or []) not in text
    assert json.dumps(hand.deck) not in text


def test_the_check_would_notice_a_leak() -> None:
    """The scanner finds cards in nested JSON and in text, so the test above can fail."""
    assert cards_in({"deal": {"bert": ["HA", "x"]}, "DK": 1}, CARDS) == {"HA", "DK"}
    assert cards_in_text("1,HA;DK SEVEN") == {"HA", "DK"}
