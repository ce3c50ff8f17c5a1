"""Actions: the moves of a hand, one small frozen value each, in the record vocabulary of
``spec/hand-record.md`` (full record). Every action names its ``seat``.

JSON form: ``{"seat": "anna", "call": "1"}``, ``{"seat": "anna", "card": "DA"}`` and so on; one
key besides ``seat``. Each action class knows its key and how its value is written; which keys
a rule set accepts and which values they may take is the rule set's vocabulary (its
``action_from_json``), and whether an action is legal now is its ``apply``.

This module holds the shapes several rule sets share (a call, a discard, a declaration, a
defence choice, a card); a rule set adds its own as :class:`Action` subclasses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.cards import Deck, cards_of
from engine.messages import ACTION_KEYS, ACTION_NOT_OBJECT, ACTION_WITHOUT_SEAT


@dataclass(frozen=True, slots=True)
class Action:
    """A move by ``seat``. Subclasses set ``KEY`` (their JSON key) and write their value."""

    KEY: ClassVar[str] = ""

    seat: str

    def value_json(self, deck: Deck) -> Any:  # pragma: no cover - every subclass overrides
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Call(Action):
    """An auction call (Lizit, Ansage): a word of the rule set's ladder or ``pass``."""

    KEY: ClassVar[str] = "call"

    call: str

    def value_json(self, deck: Deck) -> Any:
        return self.call


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Laying cards away after taking the talon (``cards`` is a mask)."""

    KEY: ClassVar[str] = "discard"

    cards: int

    def value_json(self, deck: Deck) -> Any:
        return [deck.code(c) for c in cards_of(self.cards)]


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """Naming the game: ``kind`` (``suit``, ``premium`` …) and its ``level`` (a suit letter,
    a number)."""

    KEY: ClassVar[str] = "declare"

    kind: str
    level: str | int

    def value_json(self, deck: Deck) -> Any:
        return {"type": self.kind, "level": self.level}


@dataclass(frozen=True, slots=True)
class Defence(Action):
    """A defender's choice: ``play``/``home``, then ``invite``/``alone`` for a lone player."""

    KEY: ClassVar[str] = "defence"

    choice: str

    def value_json(self, deck: Deck) -> Any:
        return self.choice


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Playing one card to the trick."""

    KEY: ClassVar[str] = "card"

    card: int

    def value_json(self, deck: Deck) -> Any:
        return deck.code(self.card)


@dataclass(frozen=True, slots=True)
class ActionForm:
    """One key of a rule set's action vocabulary: what its value may be, as JSON Schema
    (OpenAPI 3.0 dialect), and one line saying what the action does. ``RuleSet.vocabulary``
    lists them; the API documents an action body as one of them, and the conformance suite
    checks every legal action against its form."""

    key: str
    schema: Mapping[str, Any] = field(compare=False)
    description: str


def card_schema(deck: Deck) -> dict[str, Any]:
    """A card code of ``deck`` as JSON Schema (each code once, also with copies)."""
    return {"type": "string", "enum": list(dict.fromkeys(deck.codes))}


def choice_schema(values: Sequence[Any]) -> dict[str, Any]:
    """One of ``values`` (strings) as JSON Schema."""
    return {"type": "string", "enum": list(values)}


BOOLEAN_SCHEMA: Mapping[str, Any] = {"type": "boolean"}


def cards_schema(deck: Deck, count: int) -> dict[str, Any]:
    """``count`` card codes of ``deck`` as JSON Schema."""
    return {
        "type": "array",
        "items": card_schema(deck),
        "minItems": count,
        "maxItems": count,
        "uniqueItems": deck.copies == 1,
    }


def action_to_json(action: Action, deck: Deck, *, seat: bool = True) -> dict[str, Any]:
    """The record form of ``action`` (without ``seat`` when ``seat`` is false)."""
    out: dict[str, Any] = {"seat": action.seat} if seat else {}
    out[action.KEY] = action.value_json(deck)
    return out


def read_action(data: Any, keys: Sequence[str], at: str) -> tuple[str, str, Any]:
    """The ``seat``, key and value of an action object whose one key besides ``seat`` is one
    of ``keys`` (a rule set's vocabulary); the value is the rule set's to check."""
    if not isinstance(data, dict):
        raise ACTION_NOT_OBJECT.error(at)
    seat = data.get("seat")
    if not isinstance(seat, str):
        raise ACTION_WITHOUT_SEAT.error(at)
    found = [k for k in data if k != "seat"]
    if len(found) != 1 or found[0] not in keys:
        raise ACTION_KEYS.error(at, keys=", ".join(keys), given=sorted(data))
    return seat, found[0], data[found[0]]
