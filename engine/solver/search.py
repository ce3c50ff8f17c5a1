"""The double-dummy search: the exact result of card play with every hand open.

The techniques are those of bridge double-dummy solvers (Haglund and Hein's DDS, described in
Haglund's "Search algorithms for a bridge double dummy solver"), written afresh for three-hand
trick games and the obligations of :mod:`engine.tricks`:

- *bit masks*: a hand is an int, legal cards come from :func:`engine.tricks.legal_mask`;
- *zero-window searches*: :meth:`Search.at_least` only asks whether the side can reach a
  target; the exact value is found by a binary search over targets;
- *transposition table* at trick boundaries, keyed by the remaining hands and the leader,
  holding the bounds proved so far on the side's tricks from there (valid for every target);
- *equivalent cards*: of cards of one hand that touch (no card still in play, or in the
  trick, lies between them in their game suit) only one is searched; touching is re-computed
  at every node, so cards become equivalent as the tricks fall;
- *quick bounds*: the side can take no more tricks than remain, nor more than one in a misère
  (it ends at the side's first trick);
- *move ordering*: winners and cheap discards first, a partner's winning trick not overtaken.

:mod:`engine.solver.reference` is the plain minimax these are tested against.
"""

from __future__ import annotations

from engine.solver.native import native_card_values, native_solve
from engine.solver.position import MISERE, SLAM, Position
from engine.tricks import FOLLOW_BIT
from engine.tricks import legal_mask as _legal


class Search:
    """One position's search, its transposition table kept across its zero-window
    searches."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        order = pos.order
        self.suit_of = order.suit_of
        self.suit_mask = order.suit_mask
        self.above = order.above
        self.trump = order.trump
        n = len(pos.seats)
        self.duty = [d.bits for d in pos.duty]
        after = []
        for q in range(n):
            r = (q + 1) % n
            while not pos.playing >> r & 1:
                r = (r + 1) % n
            after.append(r)
        self.after = after
        self.playing = pos.playing
        self.players = [q for q in range(n) if pos.playing >> q & 1]
        self.size = len(self.players)
        self.side = pos.side
        self.max_side = pos.maximising
        self.stop_win = pos.goal == MISERE
        self.stop_loss = pos.goal == SLAM
        self.tt: dict[int, tuple[int, int]] = {}
        self.moves: dict[int, int] = {}  # the lead that last proved a bound, tried first
        self.hint = -1
        self.cut = -1
        self.hands = list(pos.hands)
        self.nodes = 0
        # the player to move and the trick in progress
        self.root = pos.to_act
        led = best = best_by = -1
        tmask = 0
        for q, c in pos.trick:
            tmask |= 1 << c
            if best < 0:
                led, best, best_by = self.suit_of[c], c, q
            elif self.above[best] >> c & 1 or (
                self.suit_of[c] == self.trump and self.suit_of[best] != self.trump
            ):
                best, best_by = c, q
        self.root_trick = (len(pos.trick), led, best, best_by, tmask)

    # --- the search -------------------------------------------------------------------------

    def boundary(self, leader: int, t: int) -> bool:
        """Whether the side takes at least ``t`` of the tricks still to come, ``leader`` to
        lead to the next one."""
        if t <= 0:
            return True
        left = self.hands[leader].bit_count()
        if t > (min(left, 1) if self.stop_win else left):
            return False
        hands = self.hands
        key = leader
        for h in hands:
            key = key << 32 | h
        bounds = self.tt.get(key)
        if bounds is not None:
            lo, hi = bounds
            if lo >= t:
                return True
            if hi < t:
                return False
        else:
            lo, hi = self._quick_bounds(leader, left)
            if lo >= t or hi < t:
                self.tt[key] = (lo, hi)
                return lo >= t
        if left == 1:
            result = self._last_trick(leader) >= t
        else:
            self.hint = self.moves.get(key, -1)
            result = self.card(leader, 0, -1, -1, -1, 0, t, -1)
            if self.cut >= 0:
                self.moves[key] = self.cut
        if result:
            lo = t
        else:
            hi = t - 1
        self.tt[key] = (lo, hi)
        return result

    def _quick_bounds(self, leader: int, left: int) -> tuple[int, int]:
        """Bounds on the side's tricks from a trick boundary from the leader's sure tricks
        (quick tricks): the top cards of a suit that nobody can ruff before they are out. They
        bound the result only where everybody wants tricks (a suit game, a slam: there the
        opponents' first trick ends the play), never in a misère."""
        if not self.max_side:  # a misère: nobody wants tricks
            return 0, left
        mine = self.side >> leader & 1
        hands, suit_mask, trump = self.hands, self.suit_mask, self.trump
        own = hands[leader]
        others = [hands[q] for q in self.players if q != leader]
        # who may trump a suit: holding trumps, void in it (or free of the duty to follow)
        ruffers = [
            (hands[q], self.duty[q] & FOLLOW_BIT)
            for q in self.players
            if q != leader and trump >= 0 and hands[q] & suit_mask[trump]
        ]
        total = best = 0
        for s, smask in enumerate(suit_mask):
            mine_s = own & smask
            if not mine_s:
                continue
            theirs = 0
            for h in others:
                theirs |= h & smask
            top = mine_s & ~((1 << theirs.bit_length()) - 1) if theirs else mine_s
            k = top.bit_count()
            if k and s != trump:
                for h, follows in ruffers:
                    k = min(k, (h & smask).bit_count() if follows else 0)
            total += k
            best = max(best, k)
        quick = min(total if not ruffers else best, left)
        if mine:
            return quick, left
        if self.stop_loss:
            return 0, 0 if quick else left
        return 0, left - quick

    def _last_trick(self, leader: int) -> int:
        """The side's tricks from the last trick: every card is forced."""
        hands = self.hands
        c = hands[leader]
        best, best_by = c.bit_length() - 1, leader
        suit_of, above, trump = self.suit_of, self.above, self.trump
        q = self.after[leader]
        for _ in range(self.size - 1):
            c = hands[q].bit_length() - 1
            if above[best] >> c & 1 or (suit_of[c] == trump and suit_of[best] != trump):
                best, best_by = c, q
            q = self.after[q]
        return self.side >> best_by & 1

    def card(
        self, p: int, k: int, led: int, best: int, best_by: int, tmask: int, t: int, only: int
    ) -> bool:
        """Player ``p`` plays the ``k``-th card (from 0) of the trick so far led in ``led``,
        won by ``best`` of ``best_by``, holding cards ``tmask``: whether the side then takes at
        least ``t`` tricks from this trick on. ``only`` (a mask, or -1 for all) limits the cards
        tried."""
        self.nodes += 1
        hands = self.hands
        hand = hands[p]
        suit_of, suit_mask, above, trump = self.suit_of, self.suit_mask, self.above, self.trump
        if k == 0:
            legal = hand
        else:
            legal = _legal(hand, led, best, suit_of, suit_mask, above, trump, self.duty[p])
        legal &= only
        side = self.side
        mine = side >> p & 1
        maxnode = mine == self.max_side  # p's party wants "at least t" to hold
        # cards still in play (and in the trick) decide which of p's cards touch
        live = tmask
        for q in self.players:
            live |= hands[q]
        last = k + 1 == self.size
        hint = self.hint if k == 0 else -1
        # candidates: one card of each run of touching legal cards, with an ordering score
        cands: list[tuple[int, int]] = []
        m = legal
        partner_wins = k > 0 and (side >> best_by & 1) == mine
        while m:
            c = m.bit_length() - 1
            m ^= 1 << c
            s = suit_of[c]
            higher = live & suit_mask[s] & ~((2 << c) - 1)
            nxt = higher & -higher
            if nxt & legal:
                continue
            if k == 0:
                # lead: sure winners first (nothing higher still out), then low cards
                score = 40 + c if not higher else -c
                if s == trump:
                    score -= 8
                if c == hint:
                    score += 1000
            else:
                beats = above[best] >> c & 1 or (s == trump and suit_of[best] != trump)
                if partner_wins:
                    score = -c - (32 if beats else 0)
                elif beats:
                    score = 64 - c if last else 32 + c
                else:
                    score = -c
            cands.append((score, c))
        if len(cands) > 1:
            cands.sort(reverse=True)
        after = self.after[p]
        stop_win, stop_loss = self.stop_win, self.stop_loss
        for _, c in cands:
            bit = 1 << c
            hands[p] = hand ^ bit
            if k == 0:
                nled, nbest, nby = suit_of[c], c, p
            elif above[best] >> c & 1 or (suit_of[c] == trump and suit_of[best] != trump):
                nled, nbest, nby = led, c, p
            else:
                nled, nbest, nby = led, best, best_by
            if not last:
                r = self.card(after, k + 1, nled, nbest, nby, tmask | bit, t, -1)
            elif side >> nby & 1:
                r = t <= 1 if stop_win else self.boundary(nby, t - 1)
            else:
                r = False if stop_loss else self.boundary(nby, t)
            hands[p] = hand
            if r == maxnode:
                if k == 0:
                    self.cut = c
                return r
        if k == 0:
            self.cut = -1
        return not maxnode

    # --- the answers ------------------------------------------------------------------------

    def at_least(self, t: int, only: int = -1) -> bool:
        """Whether the side takes at least ``t`` tricks from the start of the trick in progress
        (``only``: the player to move limited to these cards)."""
        k, led, best, best_by, tmask = self.root_trick
        if t <= 0:
            return True
        if k == 0 and only == -1:
            return self.boundary(self.root, t)
        return self.card(self.root, k, led, best, best_by, tmask, t, only)

    def value(self) -> int:
        """The side's tricks from the start of the trick in progress under best play."""
        lo, hi = 0, self.pos.tricks_left
        if self.stop_win:
            hi = min(hi, 1)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.at_least(mid):
                lo = mid
            else:
                hi = mid - 1
        return lo

    def _runs(self) -> list[int]:
        """The legal cards of the player to move in runs of touching cards (masks), the
        highest run first: the cards of a run are worth the same."""
        k, led, best, best_by, tmask = self.root_trick
        p = self.root
        hand = self.hands[p]
        if k == 0:
            legal = hand
        else:
            duty = self.duty[p]
            legal = _legal(
                hand, led, best, self.suit_of, self.suit_mask, self.above, self.trump, duty
            )
        live = tmask
        for q in self.players:
            live |= self.hands[q]
        runs = []
        m = legal
        while m:  # from the highest card down, a run of touching cards at a time
            c = m.bit_length() - 1
            run = 1 << c
            while True:
                lower = live & self.suit_mask[self.suit_of[c]] & ((1 << c) - 1)
                if not lower or not (nxt := 1 << (lower.bit_length() - 1)) & legal:
                    break
                run |= nxt
                c = nxt.bit_length() - 1
            m &= ~run
            runs.append(run)
        return runs

    def optimal(self, v: int) -> int:
        """The mask of the cards of the player to move that keep the value ``v`` (from the
        start of the trick in progress): one zero-window search per run of touching cards."""
        maxnode = (self.side >> self.root & 1) == self.max_side
        out = 0
        for run in self._runs():
            top = 1 << (run.bit_length() - 1)
            if self.at_least(v, top) if maxnode else not self.at_least(v + 1, top):
                out |= run
        return out

    def card_values(self) -> dict[int, int]:
        """Each legal card of the player to move with the side's tricks from the start of the
        trick in progress if he plays it and everybody plays best from there (the bots
        compare cards by it)."""
        out = {}
        for run in self._runs():
            top = 1 << (run.bit_length() - 1)
            lo, hi = 0, self.pos.tricks_left
            if self.stop_win:
                hi = min(hi, 1)
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if self.at_least(mid, top):
                    lo = mid
                else:
                    hi = mid - 1
            m = run
            while m:
                c = m & -m
                m ^= c
                out[c.bit_length() - 1] = lo
        return out


def python_solve(pos: Position) -> tuple[int, int]:
    """:func:`solve` by this module's search alone (the reference of the compiled one)."""
    search = Search(pos)
    v = search.value()
    return pos.won + v, search.optimal(v)


def solve(pos: Position) -> tuple[int, int]:
    """The side's total tricks at the end of the hand under best play (``pos.won``
    included), and the mask of every card of the player to move that achieves it: by the
    compiled search where it is built (``engine.solver.native``), else by :class:`Search`."""
    answer = native_solve(pos)
    return python_solve(pos) if answer is None else answer


def card_values(pos: Position) -> dict[int, int]:
    """Each legal card of the player to move with the side's tricks from the start of the
    trick in progress if he plays it and everybody plays best from there
    (:meth:`Search.card_values`; compiled where built)."""
    answer = native_card_values(pos)
    return Search(pos).card_values() if answer is None else answer
