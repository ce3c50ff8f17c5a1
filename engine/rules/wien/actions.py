"""The action vocabulary of ``wien`` records (``spec/hand-record.md``, "Full record"): the
shared shapes of ``engine.actions`` (``call``, ``discard``, ``declare``, ``defence``, ``card``)
and wien's own (``geschaeft_suit``, ``look``, ``negotiate``, ``accept``), and reading them from
JSON with the values wien allows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.actions import (
    BOOLEAN_SCHEMA,
    Action,
    ActionForm,
    Call,
    Declare,
    Defence,
    Discard,
    PlayCard,
    card_schema,
    cards_schema,
    choice_schema,
    read_action,
)
from engine.cards import PIQUET, Deck
from engine.messages import NOT_BOOLEAN
from engine.rules.wien import messages as m
from engine.rules.wien.rules import ALL_CALLS


@dataclass(frozen=True, slots=True)
class GeschaeftSuit(Action):
    """Naming the suit of a contested Geschäft (``C``, ``S``, ``D``) or ``pass``."""

    KEY: ClassVar[str] = "geschaeft_suit"

    suit: str

    def value_json(self, deck: Deck) -> Any:
        return self.suit


@dataclass(frozen=True, slots=True)
class Look(Action):
    """Nachschauen: ``True`` to take the talon and raise to a premium game, ``False`` not."""

    KEY: ClassVar[str] = "look"

    look: bool

    def value_json(self, deck: Deck) -> Any:
        return self.look


@dataclass(frozen=True, slots=True)
class Negotiate(Action):
    """Aushandeln: a proposed split of the ten tricks."""

    KEY: ClassVar[str] = "negotiate"

    declarer: int
    defender: int

    def value_json(self, deck: Deck) -> Any:
        return {"declarer": self.declarer, "defender": self.defender}


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """The answer to the last proposed split."""

    KEY: ClassVar[str] = "accept"

    accept: bool

    def value_json(self, deck: Deck) -> Any:
        return self.accept


KEYS = (
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


TRICKS = {"type": "integer", "minimum": 0, "maximum": 10}

VOCABULARY = (
    ActionForm("call", choice_schema(ALL_CALLS), "an auction call, or pass"),
    ActionForm(
        "geschaeft_suit",
        choice_schema(("C", "S", "D", "pass")),
        "naming the suit of a contested Geschäft, or pass",
    ),
    ActionForm("discard", cards_schema(PIQUET, 2), "laying two cards away after the talon"),
    ActionForm(
        "declare",
        {
            "oneOf": [
                {
                    "type": "object",
                    "properties": {
                        "type": choice_schema(("suit",)),
                        "level": choice_schema(("C", "S", "D", "H")),
                    },
                    "required": ["type", "level"],
                    "additionalProperties": False,
                },
                {
                    "type": "object",
                    "properties": {
                        "type": choice_schema(("premium",)),
                        "level": {"type": "integer", "minimum": 5, "maximum": 8},
                    },
                    "required": ["type", "level"],
                    "additionalProperties": False,
                },
            ]
        },
        "naming the game: a suit game (trumps) or a premium game 5..8",
    ),
    ActionForm("look", BOOLEAN_SCHEMA, "Nachschauen: take the talon and raise, or not"),
    ActionForm(
        "defence",
        choice_schema(("play", "home", "invite", "alone")),
        "a defender plays or stays home; a lone player invites or plays alone",
    ),
    ActionForm(
        "negotiate",
        {
            "type": "object",
            "properties": {"declarer": TRICKS, "defender": TRICKS},
            "required": ["declarer", "defender"],
            "additionalProperties": False,
        },
        "Aushandeln: proposing a split of the ten tricks",
    ),
    ActionForm("accept", BOOLEAN_SCHEMA, "the answer to the last proposed split"),
    ActionForm("card", card_schema(PIQUET), "playing a card to the trick"),
)
"""wien's action vocabulary (``RuleSet.vocabulary``), key by key as :data:`KEYS`."""


def action_from_json(data: Any, deck: Deck, at: str = "action") -> Action:
    """Read one action of the wien vocabulary; the shape is checked here, legality by
    ``apply``."""
    seat, key, value = read_action(data, KEYS, at)
    if key == "call":
        if value not in ALL_CALLS:
            raise m.NOT_A_CALL.error(at, value=repr(value), calls=", ".join(ALL_CALLS))
        return Call(seat, value)
    if key == "geschaeft_suit":
        if value not in ("C", "S", "D", "pass"):
            raise m.GESCHAEFT_SUIT.error(at, value=repr(value))
        return GeschaeftSuit(seat, value)
    if key == "discard":
        mask = deck.parse_hand(value, f"{at}.discard")
        if not isinstance(value, list) or len(value) != 2:
            raise m.DISCARD_TWO.error(at)
        return Discard(seat, mask)
    if key == "declare":
        if not isinstance(value, dict) or set(value) != {"type", "level"}:
            raise m.DECLARE_SHAPE.error(at)
        kind, level = value["type"], value["level"]
        if kind == "suit" and level in ("C", "S", "D", "H"):
            return Declare(seat, "suit", level)
        if kind == "premium" and type(level) is int and 5 <= level <= 8:
            return Declare(seat, "premium", level)
        raise m.NOT_A_GAME.error(at, value=repr(value))
    if key in ("look", "accept"):
        if type(value) is not bool:
            raise NOT_BOOLEAN.error(at, key=key)
        return Look(seat, value) if key == "look" else Accept(seat, value)
    if key == "defence":
        if value not in ("play", "home", "invite", "alone"):
            raise m.DEFENCE_VALUE.error(at, value=repr(value))
        return Defence(seat, value)
    if key == "negotiate":
        if (
            not isinstance(value, dict)
            or set(value) != {"declarer", "defender"}
            or type(value["declarer"]) is not int
            or type(value["defender"]) is not int
        ):
            raise m.NEGOTIATE_SHAPE.error(at)
        return Negotiate(seat, value["declarer"], value["defender"])
    return PlayCard(seat, deck.parse(value, f"{at}.card"))


WienAction = (
    Call | GeschaeftSuit | Discard | Declare | Look | Defence | Negotiate | Accept | PlayCard
)
"""Every action of a wien hand."""
