"""The result of the play of a Doppelkopf deal (``spec/next/doppelkopf.md``, "Result of the
play"; DDV: "Extra points"): the 12 tricks and the final parties turned into an
:class:`~engine.rules.doppelkopf.outcome.Outcome`, the same value a score-sheet entry gives.

Terms: a *queen trick* is a trick won by a club queen (``CQ``, *die Alte*); a *Doppelkopf* a
trick of 40 Augen or more; a *fox* (Fuchs) a diamond ace (``DA``) won by the other party;
*Karlchen* (Karlchen Müller) the club jack ``CJ``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.rules.doppelkopf import messages as m
from engine.rules.doppelkopf.outcome import (
    DDV,
    NO_ANNOUNCEMENTS,
    NO_EXTRAS,
    NO_QUEEN_TRICKS,
    NO_REPLIES,
    PARTIES,
    TRICKS,
    Outcome,
    Trick,
    other,
)

DOPPELKOPF_AUGEN = 40
"""DDV extra point ``doppelkopf``: "a trick of ≥ 40 Augen"."""


def outcome_from_tricks(
    rules: Any,
    order: Sequence[str],
    game: Mapping[str, Any],
    re: Sequence[str],
    tricks: Sequence[Trick],
    announcements: Mapping[str, str | None] | None,
    kasse: int | None,
    pflicht_owed: Sequence[str],
    replies: Mapping[str, bool] | None = None,
) -> Outcome:
    """The outcome of a finished deal: ``re`` are the final parties ("a Hochzeit partner's
    tricks before his trick count for Re"), ``tricks`` the 12 tricks in order.

    Karlchen Müller keeps only its last trick ("Augen do not count"); every other game counts
    each party's Augen, tricks and (``doppelkopf``) queen tricks; ``doppelkopf-ddv`` adds the
    extra points of a normal game or a Hochzeit with a partner."""
    if len(tricks) != TRICKS:
        raise m.UNFINISHED_TRICKS.error("actions", tricks=len(tricks))
    order = tuple(order)
    re_party = tuple(s for s in order if s in re)
    ddv = rules.variant == DDV
    base = Outcome(
        rules=rules,
        order=order,
        game=dict(game),
        re=re_party,
        points=None,
        tricks=None,
        queen_tricks=dict(NO_QUEEN_TRICKS),
        last_trick=None,
        announcements=dict(announcements or NO_ANNOUNCEMENTS),
        replies=dict(replies or NO_REPLIES),
        extras=dict(NO_EXTRAS),
        kasse=kasse,
        pflicht_owed=tuple(pflicht_owed),
    )
    if game.get("type") == "karlchen":
        last = tricks[-1]
        return replace(base, last_trick={"winner": last.winner, "card": last.winning_card()})
    party = {s: ("re" if s in re_party else "kontra") for s in order}
    points = dict.fromkeys(PARTIES, 0)
    won = dict.fromkeys(PARTIES, 0)
    queens = dict.fromkeys(PARTIES, 0)
    for trick in tricks:
        p = party[trick.winner]
        points[p] += trick.augen
        won[p] += 1
        if trick.winning_card() == "CQ":
            queens[p] += 1
    out = replace(base, points=points, tricks=won)
    if ddv:
        return replace(out, extras=extras_from_tricks(out, tricks, party))
    return replace(out, queen_tricks=queens)


def extras_from_tricks(
    outcome: Outcome, tricks: Sequence[Trick], party: Mapping[str, str]
) -> dict[str, tuple[str, ...]]:
    """DDV "Extra points (normal game and Hochzeit with a partner only), each to the party that
    earned it, by final parties": ``doppelkopf`` (a trick of ≥ 40 Augen, to its winners),
    ``fox`` (a ``DA`` of one party won by the other, to the winners), ``karlchen`` (a ``CJ``
    wins the 12th trick, to its party). ``against_alten`` is the settlement's (:mod:`ddv`)."""
    if not has_extras(outcome):
        return dict(NO_EXTRAS)
    earned: dict[str, list[str]] = {p: [] for p in PARTIES}
    for trick in tricks:
        winners = party[trick.winner]
        if trick.augen >= DOPPELKOPF_AUGEN:
            earned[winners].append("doppelkopf")
        for seat, card in trick.cards:
            if card == "DA" and party[seat] == other(winners):
                earned[winners].append("fox")
    last = tricks[-1]
    if last.winning_card() == "CJ":
        earned[party[last.winner]].append("karlchen")
    return {p: tuple(sorted(earned[p])) for p in PARTIES}


def has_extras(outcome: Outcome) -> bool:
    """DDV: extra points exist in a normal game and a Hochzeit with a partner only (two
    against two); "Solos (stilles Solo and lone bride included): no extra points"."""
    return outcome.game.get("type") in ("normal", "hochzeit") and len(outcome.re) == 2
