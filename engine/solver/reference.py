"""The plain minimax the solver is tested and measured against: every legal card of every
player tried in turn, the trick's winner from :func:`engine.tricks.trick_winner`, the legal
cards from :func:`engine.tricks.legal_cards` (the validating path's functions), no table, no
pruning, no equivalent cards. Exact and slow: endgames, and full deals in the slow test."""

from __future__ import annotations

from engine.cards import cards_of
from engine.solver.position import MISERE, SLAM, Position
from engine.tricks import legal_cards, trick_winner


def _next(pos: Position, p: int) -> int:
    """The player after ``p`` among those who play."""
    n = len(pos.hands)
    q = (p + 1) % n
    while not pos.playing >> q & 1:
        q = (q + 1) % n
    return q


def _after_card(
    pos: Position, hands: list[int], trick: list[tuple[int, int]], p: int, c: int, left: int
) -> int:
    """The side's tricks from the trick in progress on once ``p`` plays ``c`` and everybody
    plays best from there."""
    hands[p] &= ~(1 << c)
    now = [*trick, (p, c)]
    if len(now) < pos.playing.bit_count():
        v = _value(pos, hands, now, _next(pos, p), left)
    else:
        winner = now[trick_winner(pos.order, [x for _, x in now])][0]
        mine = pos.side >> winner & 1
        if left == 1 or (mine and pos.goal == MISERE) or (not mine and pos.goal == SLAM):
            v = mine
        else:
            v = mine + _value(pos, hands, [], winner, left - 1)
    hands[p] |= 1 << c
    return v


def _per_card(
    pos: Position, hands: list[int], trick: list[tuple[int, int]], p: int, left: int
) -> tuple[dict[int, int], bool]:
    """Each legal card of ``p`` with its value, and whether ``p`` wants the higher."""
    legal = legal_cards(pos.order, hands[p], [c for _, c in trick], pos.duty[p])
    values = {c: _after_card(pos, hands, trick, p, c, left) for c in cards_of(legal)}
    return values, (pos.side >> p & 1) == pos.maximising


def _value(pos: Position, hands: list[int], trick: list[tuple[int, int]], p: int, left: int) -> int:
    """The side's tricks from the trick in progress on, ``p`` to play."""
    values, wants_more = _per_card(pos, hands, trick, p, left)
    return max(values.values()) if wants_more else min(values.values())


def reference_solve(pos: Position) -> tuple[int, int]:
    """As :func:`engine.solver.solve`: the side's total tricks under best play and the mask
    of the optimal cards of the player to move, by exhaustive minimax."""
    values, wants_more = _per_card(
        pos, list(pos.hands), list(pos.trick), pos.to_act, pos.tricks_left
    )
    best = max(values.values()) if wants_more else min(values.values())
    return pos.won + best, sum(1 << c for c, v in values.items() if v == best)


def reference_card_values(pos: Position) -> dict[int, int]:
    """Each legal card of the player to move with the side's tricks from the trick in
    progress on after it, by exhaustive minimax (as ``Search.card_values``)."""
    values, _ = _per_card(pos, list(pos.hands), list(pos.trick), pos.to_act, pos.tricks_left)
    return values
