"""Scoring and money of rule set ``doppelkopf-ddv`` (``spec/next/doppelkopf.md``, "Rule set
``doppelkopf-ddv``": Winner, Game value, Extra points, Solos, Money), after the DDV
Turnierspielregeln.

Terms: a party's *word* is its first announcement (``re`` / ``kontra``, *Ansage*); an
*Absage* (``no90``, ``no60``, ``no30``, ``schwarz``, "keine 90" …) says the other party will
stay below 90, 60, 30 Augen or take no trick, and implies the lower levels; the *need* is
what a party must reach to win without help from an Absage; the *game value* (Spielwert) is
what the winners score before extra points (*Sonderpunkte*); N is Re's net game points.

The rules are stated once, on numbers (the ``_``-functions): a party is its index in
:data:`PARTIES` (0 Re, 1 Kontra), its announcement a *level* (-1 nothing, 0 its word, 1-4
``no90`` … ``schwarz``: the number of its Absagen), and the Augen and tricks are pairs in
that order. The functions on an :class:`Outcome` read it into numbers and ask them; a deal's
Result is :func:`result` of its numbers, which :func:`settle` reads from an outcome and the
fast path (``fast.settle_played``) counts as the cards fall.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.rules.doppelkopf.outcome import (
    PARTIES,
    DdvRules,
    Outcome,
    other,
)
from engine.rules.doppelkopf.results import has_extras

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

LEVEL_OF: tuple[dict[str | None, int], ...] = tuple(
    {None: -1, WORDS[p]: 0, **{a: i + 1 for i, a in enumerate(LEVELS)}} for p in PARTIES
)
"""Each party's level of each of its announcements (:data:`PARTIES` order)."""
_LIMIT_AT = (0, *(LIMIT[a] for a in LEVELS[:3]))
""":data:`LIMIT` by level (1-3)."""
_AGAINST_AT = (0, *(AGAINST[a] for a in LEVELS))
""":data:`AGAINST` by level (1-4)."""
_NEED = (
    (WIN_NEED["re"], WIN_NEED["kontra"]),
    (WIN_NEED_KONTRA_ONLY["re"], WIN_NEED_KONTRA_ONLY["kontra"]),
)
""":data:`WIN_NEED` and :data:`WIN_NEED_KONTRA_ONLY` by party."""

Pair = Sequence[int]
"""A number per party, Re first."""
PerSeat = dict[str, int]
"""A number per seat, in playing order from forehand."""
Earned = tuple[Sequence[str], Sequence[str]]
"""Each party's own extra points (``doppelkopf``, ``fox``, ``karlchen``), Re first."""


# --- the rules, on numbers -------------------------------------------------------------------


def _met(level: int, augen: int, tricks: int) -> bool:
    """An Absage of ``level`` is met against a party with ``augen`` and ``tricks``: below 90 /
    60 / 30, or no trick for ``schwarz``."""
    return tricks == 0 if level == 4 else augen < _LIMIT_AT[level]


def _need(i: int, levels: Pair) -> int:
    """What party ``i`` must reach to win on Augen (:func:`need`)."""
    return _NEED[levels[1] >= 0 > levels[0]][i]


def _wins(i: int, levels: Pair, augen: Pair, tricks: Pair) -> bool:
    """Party ``i`` wins (:func:`wins`)."""
    j = 1 - i
    for level in range(1, levels[i] + 1):
        if not _met(level, augen[j], tricks[j]):
            return False
    if augen[i] >= _need(i, levels):
        return True
    # reaching one of the other party's Absagen (none: no generator to build)
    return levels[j] > 0 and any(
        not _met(level, augen[i], tricks[i]) for level in range(1, levels[j] + 1)
    )


def _winner(levels: Pair, augen: Pair, tricks: Pair) -> int:
    """The winning party's index, -1 when nobody wins (:func:`winner`)."""
    if levels[0] <= 0 and levels[1] <= 0:  # no Absage: a party wins by its need alone
        need = _NEED[levels[1] >= 0 > levels[0]]
        re_wins, kontra_wins = augen[0] >= need[0], augen[1] >= need[1]
    else:
        re_wins = _wins(0, levels, augen, tricks)
        kontra_wins = _wins(1, levels, augen, tricks)
    assert not (re_wins and kontra_wins), PARTIES
    return 0 if re_wins else 1 if kontra_wins else -1


def _shortfalls(augen: int, tricks: int) -> int:
    """A party's shortfalls (:func:`shortfalls`)."""
    below90, below60, below30 = SHORTFALLS
    return (augen < below90) + (augen < below60) + (augen < below30) + (tricks == 0)


def _reached_against(augen: int, level: int) -> int:
    """What a party with ``augen`` reached against the other party's Absagen up to ``level``
    (:func:`reached_against`)."""
    return sum(augen >= _AGAINST_AT[a] for a in range(1, level + 1)) if level > 0 else 0


def _announcement_points(levels: Pair) -> int:
    """:func:`announcement_points`: 2 per party that announced and 1 per Absage."""
    re, kontra = levels
    return (2 + re if re >= 0 else 0) + (2 + kontra if kontra >= 0 else 0)


def _game_value(won: int, levels: Pair, augen: Pair, tricks: Pair) -> tuple[int, int]:
    """Each party's game value (:func:`game_value`), ``won`` the winner's index or -1."""
    if won < 0:
        return (
            _shortfalls(augen[1], tricks[1]) + _reached_against(augen[0], levels[1]),
            _shortfalls(augen[0], tricks[0]) + _reached_against(augen[1], levels[0]),
        )
    lost = 1 - won
    value = 1 + _shortfalls(augen[lost], tricks[lost])
    if levels[0] >= 0 or levels[1] >= 0:  # announced: its points, what was reached against it
        value += _announcement_points(levels) + _reached_against(augen[won], levels[lost])
    return (value, 0) if won == 0 else (0, value)


# --- the rules, on an outcome ----------------------------------------------------------------


def _levels(outcome: Outcome) -> tuple[int, int]:
    said = outcome.announcements
    return LEVEL_OF[0][said["re"]], LEVEL_OF[1][said["kontra"]]


def _augen(outcome: Outcome) -> tuple[int, int]:
    assert outcome.points is not None
    return outcome.points["re"], outcome.points["kontra"]


def _tricks(outcome: Outcome) -> tuple[int, int]:
    assert outcome.tricks is not None
    return outcome.tricks["re"], outcome.tricks["kontra"]


def _index(party: str) -> int:
    return PARTIES.index(party)


def absagen(outcome: Outcome, party: str) -> tuple[str, ...]:
    """The Absagen ``party`` made: its highest level and every level below it."""
    i = _index(party)
    return LEVELS[: max(_levels(outcome)[i], 0)]


def announced(outcome: Outcome, party: str) -> bool:
    """``party`` announced at all (its word, or an Absage, which includes the word)."""
    return outcome.announcements[party] is not None


def met(outcome: Outcome, party: str, absage: str) -> bool:
    """``party``'s Absage is met: the other party below 90 / 60 / 30, or without a trick for
    ``schwarz``."""
    j = _index(other(party))
    return _met(LEVELS.index(absage) + 1, _augen(outcome)[j], _tricks(outcome)[j])


def need(outcome: Outcome, party: str) -> int:
    """What ``party`` must reach to win on Augen: "Re 121, Kontra 120; when Kontra announced
    and Re did not, Kontra 121 and Re 120"."""
    return _need(_index(party), _levels(outcome))


def wins(outcome: Outcome, party: str) -> bool:
    """Winner: "Party P wins if every Absage of P is met **and** either P reached its need or
    P reached an opposing Absage (90 against no90, 60 against no60, 30 against no30, one
    trick, even of 0 Augen, against schwarz)". Reaching the other party's highest Absage is
    enough."""
    return _wins(_index(party), _levels(outcome), _augen(outcome), _tricks(outcome))


def winner(outcome: Outcome) -> str | None:
    """``"re"``, ``"kontra"``, or None when both parties' Absagen fail ("nobody wins"). At most
    one party can win: a met Absage keeps the other party below 90 Augen."""
    won = _winner(_levels(outcome), _augen(outcome), _tricks(outcome))
    return PARTIES[won] if won >= 0 else None


def shortfalls(outcome: Outcome, party: str) -> int:
    """One point each for ``party`` below 90, below 60, below 30, and with no trick."""
    i = _index(party)
    return _shortfalls(_augen(outcome)[i], _tricks(outcome)[i])


def reached_against(outcome: Outcome, party: str) -> int:
    """One point each for ``party`` reaching 120 against ``no90``, 90 against ``no60``, 60
    against ``no30``, 30 against ``schwarz`` of the other party."""
    i = _index(party)
    return _reached_against(_augen(outcome)[i], _levels(outcome)[1 - i])


def announcement_points(outcome: Outcome) -> int:
    """+2 for ``re`` announced, +2 for ``kontra`` announced, +1 per Absage level announced by
    either party."""
    return _announcement_points(_levels(outcome))


def game_value(outcome: Outcome, won_by: str | None) -> dict[str, int]:
    """``{"re", "kontra"}`` game value. The winners: 1 for winning, their opponents'
    shortfalls, the announcement points and what they reached against the losers' Absagen;
    the losers 0. Nobody wins (TSR 7.1.4: only 7.2.2 (a), (e), (f)): each party its
    opponents' shortfalls and what it reached against their Absagen, "no win or announcement
    points"."""
    won = -1 if won_by is None else _index(won_by)
    re, kontra = _game_value(won, _levels(outcome), _augen(outcome), _tricks(outcome))
    return {"re": re, "kontra": kontra}


def _extras(earned: Earned | None, won: int) -> dict[str, list[str]]:
    """Each party's extra points (:func:`extras`): ``earned`` the deal's own (None where none
    count), ``won`` the winner's index."""
    if earned is None:
        return {"re": [], "kontra": []}
    mine, theirs = earned
    if won == 1:
        return {"re": sorted(mine), "kontra": sorted((*theirs, "against_alten"))}
    return {"re": sorted(mine), "kontra": sorted(theirs)}


def _earned(outcome: Outcome) -> Earned | None:
    """The outcome's own extra points, Re's and Kontra's, where they count."""
    return (outcome.extras["re"], outcome.extras["kontra"]) if has_extras(outcome) else None


def extras(outcome: Outcome, won_by: str | None) -> dict[str, list[str]]:
    """Each party's extra points, sorted: the deal's own (``doppelkopf``, ``fox``,
    ``karlchen``) and ``against_alten`` for a Kontra win, in a normal game or a Hochzeit with
    a partner only ("Solos ...: no extra points")."""
    return _extras(_earned(outcome), -1 if won_by is None else _index(won_by))


def net(value: Mapping[str, int], extra: Mapping[str, list[str]]) -> int:
    """Extra points: "Re's net N = Re's value − Kontra's value (the loser's is 0) + extras(Re)
    − extras(Kontra)"."""
    return value["re"] - value["kontra"] + len(extra["re"]) - len(extra["kontra"])


def _scores(order: Sequence[str], re: Sequence[str], n: int, cents: int) -> tuple[PerSeat, PerSeat]:
    """:func:`scores` of the seats ``order`` with the Re party ``re`` (some of them), and each
    score times ``cents``."""
    mine = SOLO_FACTOR * n if len(re) == 1 else n
    score = dict.fromkeys(order, -n)
    delta = dict.fromkeys(order, -n * cents)
    for s in re:
        score[s] = mine
        delta[s] = mine * cents
    return score, delta


def scores(outcome: Outcome, n: int) -> dict[str, int]:
    """Game points per seat, in playing order from forehand: each Re player +N, each Kontra
    player −N; in a solo (stilles Solo and lone bride included) the soloist 3N."""
    return _scores(outcome.order, outcome.re, n, 0)[0]


def transfers(order: tuple[str, ...], delta: Mapping[str, int]) -> list[dict[str, Any]]:
    """Money: "Δ = score × point_value, directly between the players, zero-sum: transfers
    (why: "score") match the payers (negative Δ) and the payees (positive Δ), each in playing
    order from forehand, greedily": each payer pays the first payee still owed, as much as
    both allow, then the next."""
    out: list[dict[str, Any]] = []  # every amount paid is positive (Book.pay lists all)
    j = due = 0  # the next seat to look at for a payee; what the payee is still owed
    payee = ""
    for payer in order:
        left = -delta[payer]
        while left > 0:
            while not due:
                payee = order[j]
                j += 1
                if delta[payee] > 0:
                    due = delta[payee]
            paid = left if left < due else due
            out.append({"from": payer, "to": payee, "amount": paid, "why": "score"})
            left -= paid
            due -= paid
    return out


def result(
    rules: DdvRules,
    order: tuple[str, ...],
    game: dict[str, Any],
    re: list[str],
    points: Pair,
    tricks: Pair,
    announcements: dict[str, str | None],
    earned: Earned | None,
) -> dict[str, Any]:
    """The Result of a ``doppelkopf-ddv`` deal from what it came to: the seats in playing order,
    the game, the Re party, each party's Augen and tricks (Re first), each party's highest
    announcement and its own extra points (None where none count); :func:`settle` of an
    outcome and the fast path (``fast.random_result``) both end here. ``game``, ``re`` and
    ``announcements`` are the Result's own (a caller copies what he keeps)."""
    levels = LEVEL_OF[0][announcements["re"]], LEVEL_OF[1][announcements["kontra"]]
    won = _winner(levels, points, tricks)
    re_value, kontra_value = _game_value(won, levels, points, tricks)
    value = {"re": re_value, "kontra": kontra_value}
    extra = _extras(earned, won)
    score, delta = _scores(order, re, net(value, extra), rules.point_value)
    return {
        "game": game,
        "re": re,
        "winner": PARTIES[won] if won >= 0 else None,
        "points": {"re": points[0], "kontra": points[1]},
        "announcements": announcements,
        "extras": extra,
        "value": value,
        "score": score,
        "delta": delta,
        "transfers": transfers(order, delta),
    }


def settle(outcome: Outcome) -> dict[str, Any]:
    """The Result of a ``doppelkopf-ddv`` deal: ``game``, ``re``, ``winner``, ``points``,
    ``announcements``, ``extras`` (sorted, with ``against_alten``), ``value``, ``score``,
    ``delta`` (cents, score × ``point_value``) and ``transfers``: :func:`result` of what its
    outcome came to."""
    return result(
        outcome.rules,
        outcome.order,
        dict(outcome.game),
        list(outcome.re),
        _augen(outcome),
        _tricks(outcome),
        dict(outcome.announcements),
        _earned(outcome),
    )
