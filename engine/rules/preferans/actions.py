"""The actions of a ``preferans`` deal (``spec/next/preferans.md`` §13, full record) and how
they are read from JSON.

Terms: *торговля* (the auction: ``call``), *снос* (the discard: ``discard``), *заказ* (the
order: ``declare``), *вист / пас / полвиста* (whist, pass, half-whist: ``whist``), *в светлую /
втёмную* (open or closed defence: ``mode``), a card (``card``). An action's ``seat`` is the hand
it is about: in open play the lone whister sends the passer's cards (§6.3).

Cards are written in Preferans order, suits ``S C D H`` (the strain order of §1), ranks low to
high (``codes``); a discard's two cards and ``legal``'s 66 discard pairs follow it (§13).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.actions import (
    Action,
    ActionForm,
    Call,
    PlayCard,
    card_schema,
    cards_schema,
    choice_schema,
    read_action,
)
from engine.actions import Discard as _Discard
from engine.cards import PIQUET, Deck, cards_of
from engine.rules.preferans import messages as m

STRAINS: tuple[str, ...] = ("S", "C", "D", "H", "NT")
"""§1: the strains low to high (spades, clubs, diamonds, hearts, no trumps)."""
LEVELS: tuple[int, ...] = (6, 7, 8, 9, 10)
BIDS: tuple[str, ...] = tuple(f"{level}{strain}" for level in LEVELS for strain in STRAINS)
"""§3: the 25 contract bids, low to high (level first, then strain)."""
CALLS: tuple[str, ...] = ("pass", *BIDS, "misere", "hold")
WHISTS: tuple[str, ...] = ("whist", "pass", "half")
MODES: tuple[str, ...] = ("open", "closed")
SUIT_ORDER = "SCDH"
"""The suits in Preferans order: how hands, discards and discard pairs are listed."""


def card_key(card: int) -> tuple[int, int]:
    """Sort key of a card in Preferans order: suit ``S C D H``, then rank low to high."""
    return SUIT_ORDER.index(PIQUET.code(card)[0]), PIQUET.rank(card)


def codes(mask: int) -> list[str]:
    """The codes of the cards in ``mask`` in Preferans order (``S7`` … ``HA``)."""
    return [PIQUET.code(c) for c in sorted(cards_of(mask), key=card_key)]


@dataclass(frozen=True, slots=True)
class Discard(_Discard):
    """The declarer's two cards laid away face down after taking the talon (§4); written in
    Preferans order."""

    def value_json(self, deck: Deck) -> Any:
        return codes(self.cards)


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """The order (заказ, §4): a contract ``level`` 6–10 in ``strain`` (``S C D H NT``)."""

    KEY: ClassVar[str] = "declare"

    level: int
    strain: str

    def value_json(self, deck: Deck) -> Any:
        return {"type": "contract", "level": self.level, "strain": self.strain}


@dataclass(frozen=True, slots=True)
class Whist(Action):
    """A defender's call (§5): ``whist``, ``pass`` or ``half``."""

    KEY: ClassVar[str] = "whist"

    call: str

    def value_json(self, deck: Deck) -> Any:
        return self.call


@dataclass(frozen=True, slots=True)
class Mode(Action):
    """The lone whister's choice (§5.5): ``open`` (both defending hands face up, the whister
    plays both) or ``closed``."""

    KEY: ClassVar[str] = "mode"

    mode: str

    def value_json(self, deck: Deck) -> Any:
        return self.mode


VOCABULARY: tuple[ActionForm, ...] = (
    ActionForm("call", choice_schema(CALLS), "an auction call: pass, a contract bid, misere, hold"),
    ActionForm("discard", cards_schema(PIQUET, 2), "the declarer's two cards laid away"),
    ActionForm(
        "declare",
        {
            "type": "object",
            "properties": {
                "type": {"type": "string", "enum": ["contract"]},
                "level": {"type": "integer", "minimum": 6, "maximum": 10},
                "strain": {"type": "string", "enum": list(STRAINS)},
            },
            "required": ["type", "level", "strain"],
            "additionalProperties": False,
        },
        "the declarer's contract, not below the winning bid",
    ),
    ActionForm("whist", choice_schema(WHISTS), "a defender's whist, pass or half-whist"),
    ActionForm("mode", choice_schema(MODES), "the lone whister plays open or closed"),
    ActionForm("card", card_schema(PIQUET), "a card from the hand named by seat"),
)
KEYS = tuple(f.key for f in VOCABULARY)


def read(data: Any, at: str) -> Action:
    """One action of §13's vocabulary (shape only; legality is :func:`hand.apply`'s)."""
    seat, key, value = read_action(data, KEYS, at)
    where = f"{at}.{key}"
    if key == "call":
        if value not in CALLS:
            raise m.CALL_UNKNOWN.error(where, value=repr(value))
        return Call(seat, value)
    if key == "discard":
        if not isinstance(value, list) or len(value) != 2:
            raise m.DISCARD_TWO_CARDS.error(where)
        return Discard(seat, PIQUET.parse_hand(value, where))
    if key == "declare":
        if (
            not isinstance(value, dict)
            or set(value) != {"type", "level", "strain"}
            or value["type"] != "contract"
        ):
            raise m.DECLARE_SHAPE.error(where)
        level, strain = value["level"], value["strain"]
        if type(level) is not int or level not in LEVELS:
            raise m.DECLARE_LEVEL.error(f"{where}.level", level=repr(level))
        if strain not in STRAINS:
            raise m.DECLARE_STRAIN.error(f"{where}.strain", strain=repr(strain))
        return Declare(seat, level, strain)
    if key == "whist":
        if value not in WHISTS:
            raise m.WHIST_UNKNOWN.error(where, value=repr(value))
        return Whist(seat, value)
    if key == "mode":
        if value not in MODES:
            raise m.MODE_UNKNOWN.error(where, value=repr(value))
        return Mode(seat, value)
    return PlayCard(seat, PIQUET.parse(value, where))


__all__ = [
    "BIDS",
    "CALLS",
    "KEYS",
    "LEVELS",
    "MODES",
    "STRAINS",
    "VOCABULARY",
    "WHISTS",
    "Call",
    "Declare",
    "Discard",
    "Mode",
    "PlayCard",
    "Whist",
    "card_key",
    "codes",
    "read",
]
