"""Settlement of rule set ``doppelkopf`` through the common Kasse (``spec/next/doppelkopf.md``,
"Result of the play" and "Settlement (Kasse)").

Terms: *Kasse* the common pot every player pays into; *Grundbetrag* B (``base``) the unit of
a payout; *Einsatz* A (``ante``) what each player puts into the Kasse; *Nachschuss* a refill
round (each player pays A again while the Kasse cannot pay the winners); *Schneider* a losing
party below the Schneider line, *Schwarz* a losing party whose tricks were all won by the
Alten (or that took none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.rules.doppelkopf.outcome import KasseRules, Outcome
from engine.transfers import Book, totals

KASSE = "kasse"
"""The name of the Kasse as a party of a transfer."""

MULTIPLE = {
    "re": {"simple": 1, "schneider": 2, "schwarz": 3},
    "kontra": {"simple": 2, "schneider": 3, "schwarz": 4},
}
"""Payouts in B per winner. Re: "ein bestimmter Betrag", doubled when the other party is
Schneider, tripled when Schwarz. Kontra: "Wenn die Partei mit den Alten verloren hat, bekommt
die Gegenpartei die gleichen Zahlungen zuzüglich in jeder Kategorie den Grundbetrag" (in a
solo the soloist counts as the party with the Alten)."""
KARLCHEN_MULTIPLE = 2
"""Karlchen Müller, either side: "Die gewinnende Partei bekommt den doppelten Grundbetrag"."""


Pair = Sequence[int]
"""A number per party, Re first."""
Last = tuple[str, str]
"""Karlchen Müller: the 12th trick's winner and winning card."""


def _pair(value: Mapping[str, int] | None) -> tuple[int, int] | None:
    return None if value is None else (value["re"], value["kontra"])


def _last(outcome: Outcome) -> Last | None:
    last = outcome.last_trick
    return None if last is None else (last["winner"], last["card"])


def _winner(re: Sequence[str], points: Pair | None, last: Last | None) -> str:
    """:func:`winner` of the Re party ``re`` with ``points`` or, Karlchen Müller, ``last``."""
    if last is not None:
        return "re" if last[0] in re and last[1] == "CJ" else "kontra"
    assert points is not None
    return "re" if points[0] >= 121 else "kontra"


def winner(outcome: Outcome) -> str:
    """``"re"`` or ``"kontra"``. Karlchen Müller: the soloist wins iff he takes the 12th trick
    with a ``CJ`` ("Gewinner des Spiels ist, wer den letzten Stich mit Kreuz-Buben macht").
    Every other game: Re wins with 121 Augen or more; 120 : 120 is a Kontra win."""
    return _winner(outcome.re, _pair(outcome.points), _last(outcome))


def _category(
    rules: KasseRules, won_by: str, points: Pair | None, tricks: Pair | None, queen_tricks: Pair
) -> str | None:
    """:func:`category` from each party's Augen, tricks and CQ tricks."""
    if points is None or tricks is None:
        return None
    loser = 1 if won_by == "re" else 0
    if queen_tricks[loser] == tricks[loser]:
        return "schwarz"
    line = rules.schneider_below if loser else rules.schneider_re_below
    return "schneider" if points[loser] < line else "simple"


def category(outcome: Outcome, won_by: str) -> str | None:
    """The losing party's category; None for Karlchen Müller (Augen do not count).

    ``schwarz``: every trick it won was won by a ``CQ``, no trick included ("Als Schwarz gilt
    ..., wenn nur auf die beiden Alten Stiche gemacht wurden"); else ``schneider``: fewer
    Augen than ``schneider_below`` (a losing Re: ``schneider_re_below``); else ``simple``."""
    points, tricks = _pair(outcome.points), _pair(outcome.tricks)
    queen_tricks = _pair(outcome.queen_tricks)
    assert queen_tricks is not None
    return _category(outcome.rules, won_by, points, tricks, queen_tricks)


def _amount(rules: KasseRules, won_by: str, cat: str | None) -> int:
    """:func:`amount` under ``rules``."""
    if cat is None:
        return KARLCHEN_MULTIPLE * rules.base
    return MULTIPLE[won_by][cat] * rules.base


def amount(outcome: Outcome, won_by: str, cat: str | None) -> int:
    """What the Kasse pays **each member** of the winning party (spec: per winner, so a party
    of three is paid three times), by the table of "Settlement (Kasse)"."""
    return _amount(outcome.rules, won_by, cat)


def result(
    rules: KasseRules,
    order: tuple[str, ...],
    game: dict[str, Any],
    re: list[str],
    points: Pair | None,
    tricks: Pair | None,
    queen_tricks: Pair,
    last: Last | None,
    kasse: int,
) -> dict[str, Any]:
    """The Result of a ``doppelkopf`` deal from what it came to: the seats in playing order, the
    game, the Re party, each party's Augen, tricks and CQ tricks (Re first; Augen and tricks
    None for Karlchen Müller, which has its ``last`` trick), the Kasse before it; :func:`settle`
    of an outcome and the fast path (``fast.random_result``) both end here. ``game`` and ``re``
    are the Result's own (a caller copies what he keeps).

    Transfers in the spec's order: (1) with ``ante_each_deal`` every player's ante; (2) a lost
    Karlchen Müller's B from the soloist ("dem wird der Grundbetrag abgezogen"); (3) refill
    rounds while the Kasse holds less than the payouts; (4) the payouts to the winners. Players
    in playing order from forehand. The Kasse never goes negative and ``sum(delta) + kasse -
    kasse_before == 0``."""
    won_by = _winner(re, points, last)
    cat = _category(rules, won_by, points, tricks, queen_tricks)
    each = _amount(rules, won_by, cat)
    winners = re if won_by == "re" else [s for s in order if s not in re]  # outcome.kontra
    book = Book()
    before = kasse
    if rules.ante_each_deal:
        kasse += _round(book, order, rules.ante, "ante")
    if last is not None and won_by == "kontra":
        book.pay(re[0], KASSE, rules.base, "karlchen")
        kasse += rules.base
    payout = each * len(winners)
    while kasse < payout:
        kasse += _round(book, order, rules.ante, "refill")
    for seat in winners:
        book.pay(KASSE, seat, each, "win")
    delta, after = totals(book.transfers, order, KASSE, before)
    return {
        "game": game,
        "re": re,
        "winner": won_by,
        "category": cat,
        "points": None if points is None else {"re": points[0], "kontra": points[1]},
        "amount": each,
        "delta": delta,
        "kasse": after,
        "transfers": book.transfers,
    }


def settle(outcome: Outcome) -> dict[str, Any]:
    """The Result of a ``doppelkopf`` deal: :func:`result` of what its outcome came to."""
    assert outcome.kasse is not None
    queen_tricks = _pair(outcome.queen_tricks)
    assert queen_tricks is not None
    return result(
        outcome.rules,
        outcome.order,
        dict(outcome.game),
        list(outcome.re),
        _pair(outcome.points),
        _pair(outcome.tricks),
        queen_tricks,
        _last(outcome),
        outcome.kasse,
    )


def _round(book: Book, order: tuple[str, ...], ante: int, why: str) -> int:
    """Every player pays ``ante`` into the Kasse, in playing order from forehand; the sum."""
    for seat in order:
        book.pay(seat, KASSE, ante, why)
    return ante * len(order)
