"""The actions of a Doppelkopf hand (``spec/next/doppelkopf.md``, "Reservations and game
types", "Records" and the DDV announcements) and how they are read from JSON.

Terms: *Vorbehalt* (a reservation: ``none`` is *gesund*), *Hochzeit* (marriage), *Solo*,
*Karlchen Müller*, *Heimliches Solo* (``secret_solo``), *Ansage* (announcing one's party:
``re``, ``kontra``), *Absage* (announcing the opponents' shortfall: ``no90`` *keine 90*,
``no60``, ``no30``, ``schwarz``).

- ``{"seat", "reservation": R}``: ``"none"``, ``"hochzeit"``, ``{"solo": K}``, and in
  ``doppelkopf`` also ``"karlchen"`` and ``"secret_solo"``. ``K`` is a suit letter
  (``doppelkopf``) or one of ``queens jacks C S H D fleischlos`` (``doppelkopf-ddv``).
- ``{"seat", "announce": A}`` (``doppelkopf-ddv`` only): ``re``, ``kontra``, ``no90``,
  ``no60``, ``no30``, ``schwarz``.
- ``{"seat", "card": C}``: the core's :class:`engine.actions.PlayCard`; ``"CQ"`` names the
  first copy of the code and plays whichever copy the seat holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.actions import Action, ActionForm, PlayCard, card_schema, choice_schema, read_action
from engine.cards import Deck
from engine.rules.doppelkopf import messages as m
from engine.rules.doppelkopf.cards import DDV_SOLOS, DECK, SOLO_TRUMPS

PLAIN = ("none", "hochzeit", "karlchen", "secret_solo")
"""The reservations written as a bare word in ``doppelkopf``."""
DDV_PLAIN = ("none", "hochzeit")
"""The reservations written as a bare word in ``doppelkopf-ddv``."""
WORDS = ("re", "kontra", "no90", "no60", "no30", "schwarz")
"""The announcements of ``doppelkopf-ddv``: the two parties' words, then the Absagen."""
ABSAGEN = ("no90", "no60", "no30", "schwarz")
"""Levels 1 to 4 of an announcement (level 0 is the party's word)."""


@dataclass(frozen=True, slots=True)
class Reservation(Action):
    """A player's reservation (Vorbehalt), sent once after the deal: ``kind`` is ``none``,
    ``hochzeit``, ``karlchen``, ``secret_solo`` or ``solo`` (then ``solo`` names the trump
    suit or, under the DDV rules, the kind of solo)."""

    KEY: ClassVar[str] = "reservation"

    kind: str
    solo: str = ""

    def value_json(self, deck: Deck) -> Any:
        return {"solo": self.solo} if self.kind == "solo" else self.kind


@dataclass(frozen=True, slots=True)
class Announce(Action):
    """A DDV announcement (Ansage or Absage): ``word`` is one of :data:`WORDS`. Not a turn:
    any seat may send one while it is in time."""

    KEY: ClassVar[str] = "announce"

    word: str

    def value_json(self, deck: Deck) -> Any:
        return self.word


def reservation_schema(plain: tuple[str, ...], solos: tuple[str, ...]) -> dict[str, Any]:
    """A reservation's value as JSON Schema: a bare word, or ``{"solo": K}``."""
    return {
        "oneOf": [
            choice_schema(plain),
            {
                "type": "object",
                "properties": {"solo": choice_schema(solos)},
                "required": ["solo"],
                "additionalProperties": False,
            },
        ]
    }


VOCABULARY: tuple[ActionForm, ...] = (
    ActionForm(
        "reservation",
        reservation_schema(PLAIN, SOLO_TRUMPS),
        "a reservation, each player once in playing order: none, hochzeit, {solo: C|S|H|D}, "
        "karlchen, secret_solo",
    ),
    ActionForm("card", card_schema(DECK), "a card from the seat's hand (either copy)"),
)
"""The action vocabulary of ``doppelkopf``."""

DDV_VOCABULARY: tuple[ActionForm, ...] = (
    ActionForm(
        "reservation",
        reservation_schema(DDV_PLAIN, DDV_SOLOS),
        "a reservation, each player once in playing order: none, hochzeit, {solo: queens|jacks|"
        "C|S|H|D|fleischlos}",
    ),
    ActionForm(
        "announce",
        choice_schema(WORDS),
        "an announcement by any seat while in time (not a turn): its party's word re or "
        "kontra, or an Absage no90, no60, no30, schwarz",
    ),
    ActionForm("card", card_schema(DECK), "a card from the seat's hand (either copy)"),
)
"""The action vocabulary of ``doppelkopf-ddv``."""


def read(data: Any, at: str, ddv: bool) -> Action:
    """One action of the rule set's vocabulary (shape only; legality is
    :func:`engine.rules.doppelkopf.hand.apply`'s). ``doppelkopf`` has no announcements: an
    ``announce`` action is an error saying so."""
    keys = ("reservation", "announce", "card")
    seat, key, value = read_action(data, keys, at)
    where = f"{at}.{key}"
    if key == "reservation":
        plain, solos = (DDV_PLAIN, DDV_SOLOS) if ddv else (PLAIN, SOLO_TRUMPS)
        if isinstance(value, str) and value in plain:
            return Reservation(seat, value)
        if isinstance(value, dict) and set(value) == {"solo"} and value["solo"] in solos:
            return Reservation(seat, "solo", value["solo"])
        words = ", ".join(repr(p) for p in plain)
        kinds = "|".join(solos)
        raise m.RESERVATION_UNKNOWN.error(where, words=words, kinds=kinds, value=repr(value))
    if key == "announce":
        if not ddv:
            raise m.NO_ANNOUNCEMENTS.error(where)
        if value not in WORDS:
            raise m.ANNOUNCEMENT_UNKNOWN.error(where, words=", ".join(WORDS), value=repr(value))
        return Announce(seat, value)
    return PlayCard(seat, DECK.parse(value, where))


__all__ = [
    "ABSAGEN",
    "DDV_VOCABULARY",
    "VOCABULARY",
    "WORDS",
    "Announce",
    "PlayCard",
    "Reservation",
    "read",
]
