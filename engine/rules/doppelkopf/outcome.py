"""A finished Doppelkopf deal as its scoring sees it (``spec/next/doppelkopf.md``, "Result of
the play" and "Records"), from a played deal (:func:`results.outcome_from_tricks`) or a
score-sheet entry (:func:`entries.parse_entry`).

Terms: *Re* and *Kontra* are the two parties (the Re party holds the two *Alten*, the club
queens ``CQ``, or is the soloist); *Augen* are card points (240 in a deal); *Stich* a trick;
*Kasse* the common pot of rule set ``doppelkopf``; *Absage* an announcement that the other
party will stay below 90, 60, 30 or take no trick (``doppelkopf-ddv``); *Sonderpunkte* the
extra points of ``doppelkopf-ddv`` (``doppelkopf``: a trick of 40 Augen or more, ``fox``: a
caught diamond ace, ``karlchen``: the club jack winning the last trick, ``against_alten``:
Kontra beat the party with the Alten).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard

PARTIES = ("re", "kontra")
"""The two parties, Re first: every ``{"re", "kontra"}`` object of a record has these keys."""

DDV = "doppelkopf-ddv"
"""The variant of the DDV rule set."""

TOTAL_AUGEN = 240
TRICKS = 12
MOST_AUGEN_PER_TRICK = 44
"""Four aces: the most Augen a trick can hold (a side suit's ace led, the other copy
following, two players void in that suit throwing aces of other side suits). The page's
Records section says 42 (two aces and two tens), which play exceeds: its own played deals
would give entries it refuses, so the engine takes what play can give."""

SUITS = "CSHD"
RANKS = "9JQKTA"


class KasseRules(Protocol):
    """The options :mod:`kasse` reads from a ``doppelkopf`` rules value."""

    @property
    def variant(self) -> str: ...
    @property
    def base(self) -> int: ...
    @property
    def ante(self) -> int: ...
    @property
    def ante_each_deal(self) -> bool: ...
    @property
    def schneider_below(self) -> int: ...
    @property
    def schneider_re_below(self) -> int: ...
    @property
    def kasse_at_close(self) -> str: ...


class DdvRules(Protocol):
    """The options :mod:`ddv` reads from a ``doppelkopf-ddv`` rules value."""

    @property
    def variant(self) -> str: ...
    @property
    def point_value(self) -> int: ...
    @property
    def second_dulle(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Trick:
    """One played trick: who led, the four ``(seat, card code)`` in play order, who won it and
    its Augen."""

    leader: str
    cards: tuple[tuple[str, str], ...]
    winner: str
    augen: int

    def winning_card(self) -> str:
        """The card that won the trick: the one its winner played."""
        return next(card for seat, card in self.cards if seat == self.winner)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a deal gives its scoring: from a played deal (results.outcome_from_tricks) or a
    score-sheet entry (entries.parse_entry)."""

    rules: Any
    """The parsed rules (:class:`KasseRules` or :class:`DdvRules`)."""
    order: tuple[str, ...]
    """The four seats in playing order from forehand (the dealer last)."""
    game: Mapping[str, Any]
    """The entry form of the game (spec "Records")."""
    re: tuple[str, ...]
    """The Re party, in playing order from forehand."""
    points: Mapping[str, int] | None
    """``{"re", "kontra"}`` Augen; None for Karlchen Müller."""
    tricks: Mapping[str, int] | None
    """``{"re", "kontra"}`` tricks won; None for Karlchen Müller."""
    queen_tricks: Mapping[str, int]
    """``doppelkopf``: tricks of each party won by a ``CQ`` (0 when unknown; ``doppelkopf-ddv``
    always 0)."""
    last_trick: Mapping[str, str] | None
    """Karlchen Müller only: ``{"winner": seat, "card": code}`` of the 12th trick."""
    announcements: Mapping[str, str | None]
    """``doppelkopf-ddv``: each party's highest announced level; ``doppelkopf``: both None."""
    replies: Mapping[str, bool]
    """``doppelkopf-ddv``: whether the party's word came only as an Erwiderung (information;
    scoring ignores it)."""
    extras: Mapping[str, tuple[str, ...]]
    """``doppelkopf-ddv``: each party's extra points, sorted, ``against_alten`` not included;
    ``doppelkopf``: both empty."""
    kasse: int | None
    """``doppelkopf``: the Kasse before the deal; ``doppelkopf-ddv``: None."""
    pflicht_owed: tuple[str, ...]
    """``doppelkopf-ddv``: the seats still owing this round's Pflichtsolo; else empty."""


NO_ANNOUNCEMENTS: Mapping[str, str | None] = {"re": None, "kontra": None}
NO_REPLIES: Mapping[str, bool] = {"re": False, "kontra": False}
NO_EXTRAS: Mapping[str, tuple[str, ...]] = {"re": (), "kontra": ()}
NO_QUEEN_TRICKS: Mapping[str, int] = {"re": 0, "kontra": 0}


def other(party: str) -> str:
    """The party that is not ``party``."""
    return "kontra" if party == "re" else "re"


def kontra(outcome: Outcome) -> tuple[str, ...]:
    """The Kontra party, "everybody else", in playing order from forehand."""
    return tuple(s for s in outcome.order if s not in outcome.re)


def is_solo(outcome: Outcome) -> bool:
    """A party of one against three: every solo, a stilles Solo and a lone Hochzeit ("he plays
    alone against three"; DDV: "scored as a solo")."""
    return len(outcome.re) == 1


def is_card(code: object) -> TypeGuard[str]:
    """``code`` is a card code: suit ``C S H D`` and rank ``9 J Q K T A``."""
    return isinstance(code, str) and len(code) == 2 and code[0] in SUITS and code[1] in RANKS
