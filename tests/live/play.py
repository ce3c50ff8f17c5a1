"""Playing a hosted hand through the REST API over HTTP, as the seated players' apps do."""

from __future__ import annotations

from typing import Any

from tests.live.server import LiveServer

PREFERRED = {"look": False, "defence": "play"}


def choose(view: dict[str, Any], seat: str) -> dict[str, Any]:
    """A legal action that leads to a played game: forehand bids 1, the others pass, the
    declarer plays without looking, both defenders play; otherwise the first legal one."""
    legal: list[dict[str, Any]] = view["legal"]
    wanted = {**PREFERRED, "call": "1" if view["active"][0] == seat else "pass"}
    for action in legal:
        key = next(iter(action))
        if key in wanted and action[key] == wanted[key]:
            return action
    return legal[0]


def move(live: LiveServer, tokens: dict[str, str], table_id: int, number: int) -> int | None:
    """The seat to act makes one move; the hand's new version (None when nobody human is to
    act)."""
    base = f"/api/v1/tables/{table_id}/hands/{number}/"
    any_token = next(iter(tokens.values()))
    events = live.ok("GET", base + "events/?wait=0", token=any_token)
    seat = events["to_act"]
    if seat is None or seat not in tokens:
        return None
    view = live.ok("GET", base + "view/", token=tokens[seat])
    action = choose(view, seat)
    hand = live.ok(
        "POST",
        base + "actions/",
        token=tokens[seat],
        body={"action": action, "expected_version": events["version"]},
    )
    return int(hand["version"])
