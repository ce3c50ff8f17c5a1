"""The talon family's actions beyond the shared shapes of ``engine.actions`` (``call``,
``discard``, ``declare``, ``defence``, ``card``), and reading a rule set's vocabulary.

``talon`` (take the talon: true/false), ``give_up``, ``no_aces``, ``contra``, ``recontra``
(true/false), ``offer`` (units or ``"pass"``), ``second`` and ``forced`` (``"play"`` or
``"pass"``), ``hand_contract`` (a contract name or ``"pass"``): ``spec/next/austria-variants.md``,
"Records".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from engine.rules.family import messages as msg


@dataclass(frozen=True, slots=True)
class Flag(Action):
    """A true/false answer; each subclass names its key."""

    value: bool

    def value_json(self, deck: Deck) -> Any:
        return self.value


@dataclass(frozen=True, slots=True)
class TakeTalon(Flag):
    """Take the talon (widow), or play from the hand (1829, american)."""

    KEY: ClassVar[str] = "talon"


@dataclass(frozen=True, slots=True)
class GiveUp(Flag):
    """The declarer gives up before the first card (modern, illustrated, balkan)."""

    KEY: ClassVar[str] = "give_up"


@dataclass(frozen=True, slots=True)
class NoAces(Flag):
    """The declarer announces holding no ace (modern, illustrated with ``no_ace_bonus``)."""

    KEY: ClassVar[str] = "no_aces"


@dataclass(frozen=True, slots=True)
class Contra(Flag):
    """A defender doubles (balkan, danube)."""

    KEY: ClassVar[str] = "contra"


@dataclass(frozen=True, slots=True)
class Recontra(Flag):
    """The declarer redoubles a contra."""

    KEY: ClassVar[str] = "recontra"


@dataclass(frozen=True, slots=True)
class Word(Action):
    """An answer that is one word of a short list; each subclass names its key."""

    word: str

    def value_json(self, deck: Deck) -> Any:
        return self.word


@dataclass(frozen=True, slots=True)
class Second(Word):
    """1829: forehand's second chance after all passed (``play`` or ``pass``)."""

    KEY: ClassVar[str] = "second"


@dataclass(frozen=True, slots=True)
class Forced(Word):
    """1829: the forced player, holding the talon, plays or pays the bête (``play``/``pass``)."""

    KEY: ClassVar[str] = "forced"


@dataclass(frozen=True, slots=True)
class HandContract(Word):
    """balkan, danube: a hand caller names his contract, or ``pass``."""

    KEY: ClassVar[str] = "hand_contract"


@dataclass(frozen=True, slots=True)
class Offer(Action):
    """american round 2: an offer of ``units`` (``None``: pass)."""

    KEY: ClassVar[str] = "offer"

    units: int | None

    def value_json(self, deck: Deck) -> Any:
        return "pass" if self.units is None else self.units


FLAGS: dict[str, type[Flag]] = {c.KEY: c for c in (TakeTalon, GiveUp, NoAces, Contra, Recontra)}
WORDS: dict[str, type[Word]] = {c.KEY: c for c in (Second, Forced, HandContract)}


def read(
    data: Any,
    deck: Deck,
    at: str,
    *,
    keys: Sequence[str],
    calls: Sequence[str],
    declares: Sequence[tuple[str, str | int]],
    words: Mapping[str, Sequence[str]],
    defences: Sequence[str],
) -> Action:
    """One action of a rule set's vocabulary: ``keys`` it uses, the ``calls`` of its ladder,
    the games it may ``declare``, each word key's values, the ``defence`` answers. Shape only;
    legality is ``apply``'s."""
    seat, key, value = read_action(data, keys, at)
    if key == "call":
        if value not in calls:
            raise msg.NOT_A_CALL.error(at, value=repr(value), calls=", ".join(calls))
        return Call(seat, value)
    if key == "discard":
        mask = deck.parse_hand(value, f"{at}.discard")
        if not isinstance(value, list) or len(value) != 2:
            raise msg.DISCARD_TWO.error(at)
        return Discard(seat, mask)
    if key == "declare":
        if not isinstance(value, dict) or set(value) != {"type", "level"}:
            raise msg.DECLARE_SHAPE.error(at)
        found = (value["type"], value["level"])
        if type(found[1]) is bool or found not in declares:
            names = ", ".join(f"{k} {v}" for k, v in declares)
            raise msg.NOT_A_GAME.error(at, value=repr(value), games=names)
        return Declare(seat, found[0], found[1])
    if key == "defence":
        if value not in defences:
            raise msg.DEFENCE_CHOICE.error(at, choices=" or ".join(defences), value=repr(value))
        return Defence(seat, value)
    if key in FLAGS:
        if type(value) is not bool:
            raise msg.TRUE_OR_FALSE.error(at, key=key)
        return FLAGS[key](seat, value)
    if key in WORDS:
        if value not in words[key]:
            raise msg.WORD_CHOICE.error(
                at, key=key, choices=" or ".join(words[key]), value=repr(value)
            )
        return WORDS[key](seat, value)
    if key == "offer":
        if value == "pass":
            return Offer(seat, None)
        if type(value) is not int or value < 1:
            raise msg.OFFER_VALUE.error(at, value=repr(value))
        return Offer(seat, value)
    return PlayCard(seat, deck.parse(value, f"{at}.card"))


DESCRIPTIONS = {
    "call": "an auction call, or pass",
    "discard": "laying two cards away after taking the talon",
    "declare": "naming the game",
    "defence": "a defender plays or stays home (a lone player invites or plays alone)",
    "card": "playing a card to the trick",
    "talon": "taking the talon (true) or playing from the hand (false)",
    "give_up": "the declarer gives up before the first card (true) or plays (false)",
    "no_aces": "the declarer announces holding no ace (true) or not (false)",
    "contra": "a defender says contra (true) or not (false)",
    "recontra": "the declarer answers a contra with recontra (true) or not (false)",
    "second": "forehand's second chance after all passed: play or pass",
    "forced": "the forced player, holding the talon: play, or pass and pay the bête",
    "hand_contract": "a hand caller names his contract, or pass",
    "offer": "round 2: an offer of units, or pass",
}


def vocabulary(
    keys: Sequence[str],
    calls: Sequence[str],
    declares: Sequence[tuple[str, str | int]],
    words: Mapping[str, Sequence[str]],
    defences: Sequence[str],
) -> tuple[ActionForm, ...]:
    """A rule set's ``RuleSet.vocabulary``: each key of ``keys`` with the JSON Schema of its
    values."""
    out = []
    for key in keys:
        schema: dict[str, Any]
        if key == "call":
            schema = choice_schema(calls)
        elif key == "discard":
            schema = cards_schema(PIQUET, 2)
        elif key == "declare":
            kinds: dict[str, list[str | int]] = {}
            for kind, level in declares:
                kinds.setdefault(kind, []).append(level)
            schema = {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {
                            "type": choice_schema((kind,)),
                            "level": {"enum": levels},
                        },
                        "required": ["type", "level"],
                        "additionalProperties": False,
                    }
                    for kind, levels in kinds.items()
                ]
            }
        elif key == "defence":
            schema = choice_schema(defences)
        elif key in FLAGS:
            schema = dict(BOOLEAN_SCHEMA)
        elif key in WORDS:
            schema = choice_schema(words[key])
        elif key == "offer":
            schema = {"oneOf": [{"type": "integer", "minimum": 1}, choice_schema(("pass",))]}
        else:
            schema = card_schema(PIQUET)
        out.append(ActionForm(key, schema, DESCRIPTIONS[key]))
    return tuple(out)
