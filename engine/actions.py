"""Actions: the moves of a hand, one small frozen value each, in the vocabulary of
``spec/hand-record.md`` (full record). Every action names its ``seat``.

JSON form: ``{"seat": "anna", "call": "1"}``, ``{"seat": "anna", "card": "DA"}`` and so on; one
key besides ``seat``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import Deck, cards_of
from engine.errors import EngineError
from engine.rules.wien import ALL_CALLS


@dataclass(frozen=True, slots=True)
class Call:
    """An auction call (Lizit): ``pass``, ``1``..``4``, ``hold``, ``geschaeft``, ``herz``,
    ``5``..``8`` with optional ``h`` (von der Hand)."""

    seat: str
    call: str


@dataclass(frozen=True, slots=True)
class GeschaeftSuit:
    """Naming the suit of a contested Geschäft (``C``, ``S``, ``D``) or ``pass``."""

    seat: str
    suit: str


@dataclass(frozen=True, slots=True)
class Discard:
    """Laying two cards away after taking the talon (``cards`` is a mask of two cards)."""

    seat: str
    cards: int


@dataclass(frozen=True, slots=True)
class Declare:
    """Naming the game: ``kind`` ``suit`` with ``level`` a suit letter, or ``premium`` with
    ``level`` 5..8 (the hand flag follows from the call)."""

    seat: str
    kind: str
    level: str | int


@dataclass(frozen=True, slots=True)
class Look:
    """Nachschauen: ``True`` to take the talon and raise to a premium game, ``False`` not."""

    seat: str
    look: bool


@dataclass(frozen=True, slots=True)
class Defence:
    """A defender's choice: ``play``/``home``, then ``invite``/``alone`` for a lone player."""

    seat: str
    choice: str


@dataclass(frozen=True, slots=True)
class Negotiate:
    """Aushandeln: a proposed split of the ten tricks."""

    seat: str
    declarer: int
    defender: int


@dataclass(frozen=True, slots=True)
class Accept:
    """The answer to the last proposed split."""

    seat: str
    accept: bool


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Playing one card to the trick."""

    seat: str
    card: int


Action = Call | GeschaeftSuit | Discard | Declare | Look | Defence | Negotiate | Accept | PlayCard

_KEYS = (
    "call",
    "geschaeft_suit",
    "discard",
    "declare",
    "look",
    "defence",
    "negotiate",
    "accept",
    "card",
)


def action_to_json(action: Action, deck: Deck, *, seat: bool = True) -> dict[str, Any]:
    """The record form of ``action`` (without ``seat`` when ``seat`` is false)."""
    out: dict[str, Any] = {"seat": action.seat} if seat else {}
    match action:
        case Call():
            out["call"] = action.call
        case GeschaeftSuit():
            out["geschaeft_suit"] = action.suit
        case Discard():
            out["discard"] = [deck.code(c) for c in cards_of(action.cards)]
        case Declare():
            out["declare"] = {"type": action.kind, "level": action.level}
        case Look():
            out["look"] = action.look
        case Defence():
            out["defence"] = action.choice
        case Negotiate():
            out["negotiate"] = {"declarer": action.declarer, "defender": action.defender}
        case Accept():
            out["accept"] = action.accept
        case PlayCard():
            out["card"] = deck.code(action.card)
    return out


def action_from_json(data: Any, deck: Deck, at: str = "action") -> Action:
    """Read one action of the record vocabulary; the shape is checked here, legality by
    :func:`engine.play.apply`."""
    if not isinstance(data, dict):
        raise EngineError(at, 'an action must be an object like {"seat": "anna", "call": "1"}')
    seat = data.get("seat")
    if not isinstance(seat, str):
        raise EngineError(at, 'an action needs a "seat" naming the player')
    keys = [k for k in data if k != "seat"]
    if len(keys) != 1 or keys[0] not in _KEYS:
        raise EngineError(
            at, f'an action has "seat" and exactly one of {", ".join(_KEYS)}; got {sorted(data)}'
        )
    key = keys[0]
    value = data[key]
    if key == "call":
        if value not in ALL_CALLS:
            raise EngineError(at, f"{value!r} is not a call ({', '.join(ALL_CALLS)})")
        return Call(seat, value)
    if key == "geschaeft_suit":
        if value not in ("C", "S", "D", "pass"):
            raise EngineError(at, f"geschaeft_suit must be C, S, D or pass, not {value!r}")
        return GeschaeftSuit(seat, value)
    if key == "discard":
        mask = deck.parse_hand(value, f"{at}.discard")
        if not isinstance(value, list) or len(value) != 2:
            raise EngineError(at, "a discard is exactly two cards")
        return Discard(seat, mask)
    if key == "declare":
        if not isinstance(value, dict) or set(value) != {"type", "level"}:
            raise EngineError(at, 'declare is {"type": "suit"|"premium", "level": ...}')
        kind, level = value["type"], value["level"]
        if kind == "suit" and level in ("C", "S", "D", "H"):
            return Declare(seat, "suit", level)
        if kind == "premium" and type(level) is int and 5 <= level <= 8:
            return Declare(seat, "premium", level)
        raise EngineError(
            at, f"{value!r} is not a game: a suit game C, S, D, H or a premium game 5..8"
        )
    if key in ("look", "accept"):
        if type(value) is not bool:
            raise EngineError(at, f"{key} must be true or false")
        return Look(seat, value) if key == "look" else Accept(seat, value)
    if key == "defence":
        if value not in ("play", "home", "invite", "alone"):
            raise EngineError(at, f"defence must be play, home, invite or alone, not {value!r}")
        return Defence(seat, value)
    if key == "negotiate":
        if (
            not isinstance(value, dict)
            or set(value) != {"declarer", "defender"}
            or type(value["declarer"]) is not int
            or type(value["defender"]) is not int
        ):
            raise EngineError(at, 'negotiate is {"declarer": d, "defender": n} with whole numbers')
        return Negotiate(seat, value["declarer"], value["defender"])
    return PlayCard(seat, deck.parse(value, f"{at}.card"))
