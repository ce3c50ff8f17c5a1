"""Builders so that an engine test reads like the rule it checks.

Positions are written as card strings (``"HA HK DT"``) and moves in the record vocabulary of
``spec/hand-record.md`` (``{"seat": "anna", "call": "1"}``); every state is produced by
``engine.replay`` on a full record, so tests exercise the same path as the CLI and the API.
"""

from __future__ import annotations

import copy
from typing import Any

import engine
from engine import PIQUET
from engine.rules.wien import State

RULES: dict[str, Any] = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}
SEATS = ["anna", "bert", "carl"]


def cards(text: str) -> list[str]:
    """``"HA HK"`` -> ``["HA", "HK"]``."""
    return text.split()


def record(
    deal: dict[str, str],
    talon: str,
    *,
    dealer: str = "carl",
    pot: int = 200,
    seats: list[str] | None = None,
    actions: list[dict[str, Any]] | None = None,
    rules: dict[str, Any] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A full record (form 2). ``options`` are house-rule options added to the rules."""
    return {
        "rules": {**(rules or RULES), **options},
        "seats": list(seats or SEATS),
        "dealer": dealer,
        "pot": pot,
        "deal": {**{seat: cards(hand) for seat, hand in deal.items()}, "talon": cards(talon)},
        "actions": copy.deepcopy(actions or []),
    }


def hand_from(
    deal: dict[str, str],
    talon: str,
    *,
    actions: list[dict[str, Any]] | None = None,
    **kw: Any,
) -> State:
    """The state after replaying ``actions`` on ``deal`` (see :func:`record`)."""
    return engine.replay(record(deal, talon, actions=actions, **kw))


def act(state: State, seat: str, **kw: Any) -> State:
    """Apply one action given in JSON form: ``act(s, "anna", call="1")``."""
    return engine.apply(
        state, engine.action_from_json({"seat": seat, **kw}, PIQUET, variant="wien")
    )


def play_cards(state: State, text: str) -> State:
    """Play cards in turn order: ``"HA H7 H8"`` — each by the player to act."""
    for card in text.split():
        seat = state.to_act_seat
        assert seat is not None, f"nobody is to act, cannot play {card}"
        state = act(state, seat, card=card)
    return state


def legal_json(state: State) -> list[dict[str, Any]]:
    """The legal actions of the player to act, as JSON without ``seat``."""
    return [engine.action_to_json(a, PIQUET, seat=False) for a in engine.legal_actions(state)]


def legal_calls(state: State) -> list[str]:
    return [a["call"] for a in legal_json(state) if "call" in a]


def legal_cards(state: State) -> list[str]:
    return [a["card"] for a in legal_json(state) if "card" in a]


def hand_of(state: State, seat: str) -> list[str]:
    p = state.player(seat)
    assert p is not None
    return PIQUET.codes_of(state.hands[p])


def calls(*pairs: str) -> list[dict[str, Any]]:
    """``calls("anna 1", "bert pass")`` -> call actions."""
    out = []
    for pair in pairs:
        seat, call = pair.split()
        out.append({"seat": seat, "call": call})
    return out


def sheet(
    game: dict[str, Any],
    tricks: dict[str, int],
    *,
    declarer: str | None = "anna",
    defence: dict[str, str] | None = None,
    dealer: str = "carl",
    pot: int = 200,
    seats: list[str] | None = None,
    rules: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A score-sheet entry (form 1)."""
    out: dict[str, Any] = {
        "rules": dict(rules or RULES),
        "seats": list(seats or SEATS),
        "dealer": dealer,
        "pot": pot,
        "game": game,
    }
    if declarer is not None:
        out["declarer"] = declarer
    if defence is not None:
        out["defence"] = defence
    out["tricks"] = tricks
    out.update(extra)
    return out


def suit(level: str, talon: bool = True) -> dict[str, Any]:
    return {"type": "suit", "level": level, "talon": talon}


def premium(level: int, hand: bool = False) -> dict[str, Any]:
    return {"type": "premium", "level": level, "hand": hand}


AUSFECHTEN: dict[str, Any] = {"type": "ausfechten"}


def check_balance(result: dict[str, Any], pot_before: int) -> None:
    """wien.md, "Check": the players' changes plus the pot's change sum to zero."""
    assert sum(result["delta"].values()) + result["pot"] - pot_before == 0


# A standard deal used by many tests (anna forehand, bert middlehand, carl rearhand = dealer).
# anna: strong diamonds; bert: clubs and spades; carl: hearts.
DEAL = {
    "anna": "DA DK DQ DJ DT D9 SA SK CA C7",
    "bert": "CK CQ CJ CT C9 C8 SQ SJ ST S9",
    "carl": "HA HK HQ HJ HT H9 H8 H7 D8 S8",
}
TALON = "D7 S7"


def suit_game_actions(
    talon: str,
    trump: str,
    defence: tuple[str, str] = ("play", "play"),
    then: str | None = None,
) -> list[dict[str, Any]]:
    """anna (forehand) bids 1, bert and carl pass; anna takes the talon, lays the same two
    cards away and declares ``trump``; bert then carl send ``defence``; ``then`` is the lone
    defender's ``invite`` or ``alone``."""
    actions: list[dict[str, Any]] = [
        *calls("anna 1", "bert pass", "carl pass"),
        {"seat": "anna", "discard": cards(talon)},
        {"seat": "anna", "declare": {"type": "suit", "level": trump}},
        {"seat": "bert", "defence": defence[0]},
        {"seat": "carl", "defence": defence[1]},
    ]
    if then is not None:
        lone = "bert" if defence[0] == "play" else "carl"
        actions.append({"seat": lone, "defence": then})
    return actions


def suit_game(
    deal: dict[str, str],
    talon: str,
    trump: str,
    defence: tuple[str, str] = ("play", "play"),
    then: str | None = None,
    **kw: Any,
) -> State:
    """The state when anna leads to the first trick of her suit game (see
    :func:`suit_game_actions`)."""
    return hand_from(deal, talon, actions=suit_game_actions(talon, trump, defence, then), **kw)


def premium_game(deal: dict[str, str], talon: str, level: int, **kw: Any) -> State:
    """anna calls ``level`` (ich schaue rein), bert and carl pass, anna lays the talon cards
    away again and declares the premium game: she leads to the first trick."""
    actions = [
        *calls(f"anna {level}", "bert pass", "carl pass"),
        {"seat": "anna", "discard": cards(talon)},
        {"seat": "anna", "declare": {"type": "premium", "level": level}},
    ]
    return hand_from(deal, talon, actions=actions, **kw)
