"""Scoring and money of rule set ``doppelkopf-ddv`` (``spec/next/doppelkopf.md``, "Rule set
``doppelkopf-ddv``": Winner, Game value, Extra points, Solos, Money), after the DDV
Turnierspielregeln.

Terms: a party's *word* is its first announcement (``re`` / ``kontra``, *Ansage*); an
*Absage* (``no90``, ``no60``, ``no30``, ``schwarz``, "keine 90" …) says the other party will
stay below 90, 60, 30 Augen or take no trick, and implies the lower levels; the *need* is
what a party must reach to win without help from an Absage; the *game value* (Spielwert) is
what the winners score before extra points (*Sonderpunkte*); N is Re's net game points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.rules.doppelkopf.outcome import (
    PARTIES,
    DdvRules,
    Outcome,
    is_solo,
    other,
)
from engine.rules.doppelkopf.results import has_extras
from engine.settle import Book

LEVELS = ("no90", "no60", "no30", "schwarz")
"""The Absagen, lowest first; announcing one announces those before it ("a higher level
implies the lower ones")."""
WORDS = {"re": "re", "kontra": "kontra"}
"""Each party's word."""
LIMIT = {"no90": 90, "no60": 60, "no30": 30}
"""An Absage is met when the other party has fewer Augen than this (``schwarz``: no trick)."""
AGAINST = {"no90": 120, "no60": 90, "no30": 60, "schwarz": 30}
"""Game value: "+1 each for winners reaching 120 against no90, 90 against no60, 60 against
no30, 30 against schwarz"."""
SHORTFALLS = (90, 60, 30)
"""Game value: "+1 each for losers below 90, below 60, below 30, with no trick"."""
WIN_NEED = {"re": 121, "kontra": 120}
"""Re wins with 121, Kontra with 120 ..."""
WIN_NEED_KONTRA_ONLY = {"re": 120, "kontra": 121}
"""... "when Kontra announced and Re did not, Kontra 121 and Re 120"."""
SOLO_FACTOR = 3
"""Solos: "the soloist scores ±3·value, each opponent ∓value"."""


def absagen(outcome: Outcome, party: str) -> tuple[str, ...]:
    """The Absagen ``party`` made: its highest level and every level below it."""
    highest = outcome.announcements[party]
    if highest is None or highest == WORDS[party]:
        return ()
    return LEVELS[: LEVELS.index(highest) + 1]


def announced(outcome: Outcome, party: str) -> bool:
    """``party`` announced at all (its word, or an Absage, which includes the word)."""
    return outcome.announcements[party] is not None


def _augen(outcome: Outcome, party: str) -> int:
    assert outcome.points is not None
    return outcome.points[party]


def _tricks(outcome: Outcome, party: str) -> int:
    assert outcome.tricks is not None
    return outcome.tricks[party]


def met(outcome: Outcome, party: str, absage: str) -> bool:
    """``party``'s Absage is met: the other party below 90 / 60 / 30, or without a trick for
    ``schwarz``."""
    them = other(party)
    if absage == "schwarz":
        return _tricks(outcome, them) == 0
    return _augen(outcome, them) < LIMIT[absage]


def need(outcome: Outcome, party: str) -> int:
    """What ``party`` must reach to win on Augen: "Re 121, Kontra 120; when Kontra announced
    and Re did not, Kontra 121 and Re 120"."""
    if announced(outcome, "kontra") and not announced(outcome, "re"):
        return WIN_NEED_KONTRA_ONLY[party]
    return WIN_NEED[party]


def wins(outcome: Outcome, party: str) -> bool:
    """Winner: "Party P wins if every Absage of P is met **and** either P reached its need or
    P reached an opposing Absage (90 against no90, 60 against no60, 30 against no30, one
    trick, even of 0 Augen, against schwarz)". Reaching the other party's highest Absage is
    enough."""
    if not all(met(outcome, party, a) for a in absagen(outcome, party)):
        return False
    if _augen(outcome, party) >= need(outcome, party):
        return True
    them = other(party)
    return any(not met(outcome, them, a) for a in absagen(outcome, them))


def winner(outcome: Outcome) -> str | None:
    """``"re"``, ``"kontra"``, or None when both parties' Absagen fail ("nobody wins"). At most
    one party can win: a met Absage keeps the other party below 90 Augen."""
    winning = [p for p in PARTIES if wins(outcome, p)]
    assert len(winning) <= 1, winning
    return winning[0] if winning else None


def shortfalls(outcome: Outcome, party: str) -> int:
    """One point each for ``party`` below 90, below 60, below 30, and with no trick."""
    augen = _augen(outcome, party)
    count = sum(1 for line in SHORTFALLS if augen < line)
    return count + (1 if _tricks(outcome, party) == 0 else 0)


def reached_against(outcome: Outcome, party: str) -> int:
    """One point each for ``party`` reaching 120 against ``no90``, 90 against ``no60``, 60
    against ``no30``, 30 against ``schwarz`` of the other party."""
    augen = _augen(outcome, party)
    return sum(1 for a in absagen(outcome, other(party)) if augen >= AGAINST[a])


def announcement_points(outcome: Outcome) -> int:
    """+2 for ``re`` announced, +2 for ``kontra`` announced, +1 per Absage level announced by
    either party."""
    words = sum(2 for p in PARTIES if announced(outcome, p))
    return words + sum(len(absagen(outcome, p)) for p in PARTIES)


def game_value(outcome: Outcome, won_by: str | None) -> dict[str, int]:
    """``{"re", "kontra"}`` game value. The winners: 1 for winning, their opponents'
    shortfalls, the announcement points and what they reached against the losers' Absagen;
    the losers 0. Nobody wins (TSR 7.1.4: only 7.2.2 (a), (e), (f)): each party its
    opponents' shortfalls and what it reached against their Absagen, "no win or announcement
    points"."""
    if won_by is None:
        return {p: shortfalls(outcome, other(p)) + reached_against(outcome, p) for p in PARTIES}
    value = (
        1
        + shortfalls(outcome, other(won_by))
        + announcement_points(outcome)
        + reached_against(outcome, won_by)
    )
    return {p: value if p == won_by else 0 for p in PARTIES}


def extras(outcome: Outcome, won_by: str | None) -> dict[str, list[str]]:
    """Each party's extra points, sorted: the deal's own (``doppelkopf``, ``fox``,
    ``karlchen``) and ``against_alten`` for a Kontra win, in a normal game or a Hochzeit with
    a partner only ("Solos ...: no extra points")."""
    if not has_extras(outcome):
        return {p: [] for p in PARTIES}
    out = {p: list(outcome.extras[p]) for p in PARTIES}
    if won_by == "kontra":
        out["kontra"].append("against_alten")
    return {p: sorted(out[p]) for p in PARTIES}


def net(value: Mapping[str, int], extra: Mapping[str, list[str]]) -> int:
    """Extra points: "Re's net N = Re's value − Kontra's value (the loser's is 0) + extras(Re)
    − extras(Kontra)"."""
    return value["re"] - value["kontra"] + len(extra["re"]) - len(extra["kontra"])


def scores(outcome: Outcome, n: int) -> dict[str, int]:
    """Game points per seat, in playing order from forehand: each Re player +N, each Kontra
    player −N; in a solo (stilles Solo and lone bride included) the soloist 3N."""
    factor = SOLO_FACTOR if is_solo(outcome) else 1
    return {s: (factor * n if s in outcome.re else -n) for s in outcome.order}


def transfers(order: tuple[str, ...], delta: Mapping[str, int]) -> list[dict[str, Any]]:
    """Money: "Δ = score × point_value, directly between the players, zero-sum: transfers
    (why: "score") match the payers (negative Δ) and the payees (positive Δ), each in playing
    order from forehand, greedily": each payer pays the first payee still owed, as much as
    both allow, then the next."""
    owed = {s: -delta[s] for s in order if delta[s] < 0}
    due = {s: delta[s] for s in order if delta[s] > 0}
    book = Book()
    payees = list(due)
    for payer, left in owed.items():
        while left:
            payee = payees[0]
            paid = min(left, due[payee])
            book.pay(payer, payee, paid, "score")
            left -= paid
            due[payee] -= paid
            if not due[payee]:
                payees.pop(0)
    return book.transfers


def settle(outcome: Outcome) -> dict[str, Any]:
    """The Result of a ``doppelkopf-ddv`` deal: ``game``, ``re``, ``winner``, ``points``,
    ``announcements``, ``extras`` (sorted, with ``against_alten``), ``value``, ``score``,
    ``delta`` (cents, score × ``point_value``) and ``transfers``."""
    rules: DdvRules = outcome.rules
    assert outcome.points is not None
    won_by = winner(outcome)
    value = game_value(outcome, won_by)
    extra = extras(outcome, won_by)
    score = scores(outcome, net(value, extra))
    delta = {s: score[s] * rules.point_value for s in outcome.order}
    return {
        "game": dict(outcome.game),
        "re": list(outcome.re),
        "winner": won_by,
        "points": dict(outcome.points),
        "announcements": dict(outcome.announcements),
        "extras": extra,
        "value": value,
        "score": score,
        "delta": delta,
        "transfers": transfers(outcome.order, delta),
    }
