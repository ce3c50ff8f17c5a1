"""Settlement of rule set ``doppelkopf`` through the common Kasse (``spec/next/doppelkopf.md``,
"Result of the play" and "Settlement (Kasse)").

Terms: *Kasse* the common pot every player pays into; *Grundbetrag* B (``base``) the unit of
a payout; *Einsatz* A (``ante``) what each player puts into the Kasse; *Nachschuss* a refill
round (each player pays A again while the Kasse cannot pay the winners); *Schneider* a losing
party below the Schneider line, *Schwarz* a losing party whose tricks were all won by the
Alten (or that took none).
"""

from __future__ import annotations

from typing import Any

from engine.rules.doppelkopf.outcome import KasseRules, Outcome, kontra
from engine.settle import Book, totals

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


def winner(outcome: Outcome) -> str:
    """``"re"`` or ``"kontra"``. Karlchen Müller: the soloist wins iff he takes the 12th trick
    with a ``CJ`` ("Gewinner des Spiels ist, wer den letzten Stich mit Kreuz-Buben macht").
    Every other game: Re wins with 121 Augen or more; 120 : 120 is a Kontra win."""
    if outcome.last_trick is not None:
        last = outcome.last_trick
        return "re" if last["winner"] in outcome.re and last["card"] == "CJ" else "kontra"
    assert outcome.points is not None
    return "re" if outcome.points["re"] >= 121 else "kontra"


def category(outcome: Outcome, won_by: str) -> str | None:
    """The losing party's category; None for Karlchen Müller (Augen do not count).

    ``schwarz``: every trick it won was won by a ``CQ``, no trick included ("Als Schwarz gilt
    ..., wenn nur auf die beiden Alten Stiche gemacht wurden"); else ``schneider``: fewer
    Augen than ``schneider_below`` (a losing Re: ``schneider_re_below``); else ``simple``."""
    if outcome.points is None or outcome.tricks is None:
        return None
    rules: KasseRules = outcome.rules
    loser = "kontra" if won_by == "re" else "re"
    if outcome.queen_tricks[loser] == outcome.tricks[loser]:
        return "schwarz"
    line = rules.schneider_below if loser == "kontra" else rules.schneider_re_below
    return "schneider" if outcome.points[loser] < line else "simple"


def amount(outcome: Outcome, won_by: str, cat: str | None) -> int:
    """What the Kasse pays **each member** of the winning party (spec: per winner, so a party
    of three is paid three times), by the table of "Settlement (Kasse)"."""
    rules: KasseRules = outcome.rules
    if cat is None:
        return KARLCHEN_MULTIPLE * rules.base
    return MULTIPLE[won_by][cat] * rules.base


def settle(outcome: Outcome) -> dict[str, Any]:
    """The Result of a ``doppelkopf`` deal. Transfers in the spec's order: (1) with
    ``ante_each_deal`` every player's ante; (2) a lost Karlchen Müller's B from the soloist
    ("dem wird der Grundbetrag abgezogen"); (3) refill rounds while the Kasse holds less than
    the payouts; (4) the payouts to the winners. Players in playing order from forehand. The
    Kasse never goes negative and ``sum(delta) + kasse - kasse_before == 0``."""
    rules: KasseRules = outcome.rules
    assert outcome.kasse is not None
    won_by = winner(outcome)
    cat = category(outcome, won_by)
    each = amount(outcome, won_by, cat)
    winners = outcome.re if won_by == "re" else kontra(outcome)
    book = Book()
    kasse = outcome.kasse
    if rules.ante_each_deal:
        kasse += _round(book, outcome.order, rules.ante, "ante")
    if outcome.last_trick is not None and won_by == "kontra":
        book.pay(outcome.re[0], KASSE, rules.base, "karlchen")
        kasse += rules.base
    payout = each * len(winners)
    while kasse < payout:
        kasse += _round(book, outcome.order, rules.ante, "refill")
    for seat in winners:
        book.pay(KASSE, seat, each, "win")
    delta, after = totals(book.transfers, outcome.order, KASSE, outcome.kasse)
    return {
        "game": dict(outcome.game),
        "re": list(outcome.re),
        "winner": won_by,
        "category": cat,
        "points": dict(outcome.points) if outcome.points is not None else None,
        "amount": each,
        "delta": delta,
        "kasse": after,
        "transfers": book.transfers,
    }


def _round(book: Book, order: tuple[str, ...], ante: int, why: str) -> int:
    """Every player pays ``ante`` into the Kasse, in playing order from forehand; the sum."""
    for seat in order:
        book.pay(seat, KASSE, ante, why)
    return ante * len(order)
