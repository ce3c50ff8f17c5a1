"""A fast playout of ``wien`` hands: mutable ints and bit masks, no per-step re-validation.

Bots and simulations play thousands of hands; the validating ``apply`` is too slow for that.
:class:`FastHand` is the shared card-play board (``engine.board.CardBoard``: tricks, the
obligations as data, who wins) plus what only wien has: its auction, Geschäft, talon,
Nachschauen, defence, Aushandeln, when play ends, and its settlement. It plays by exactly the
same rules as the validating path — ``tests/engine/test_fast.py`` drives both side by side over
random hands and checks that the legal moves, the turns and the settlement agree at every step
— and :func:`play_random_hand` is what ``engine.fast.play_random_hand`` (the benchmark) runs
for wien.

Moves are small tuples: ``("call", "1")``, ``("gs", "D")``, ``("discard", mask)``,
``("declare", ("suit", "D"))``, ``("look", True)``, ``("defence", "play")``,
``("negotiate", (d, n))``, ``("accept", True)``, ``("card", c)``.
"""

from __future__ import annotations

import random
from typing import Any

from engine.board import CardBoard
from engine.rules.wien.play import ORDERS
from engine.rules.wien.rules import CALL_RANK, PREMIUM_CALLS, WienRules
from engine.rules.wien.state import Phase
from engine.tricks import HEAD, HEAD_LOW, Obligations

PHASE_NAMES: tuple[str, ...] = tuple(p.value for p in Phase)
"""Each phase's name by its number here: the phases of :class:`engine.rules.wien.state.Phase`,
numbered in their order."""
AUCTION = PHASE_NAMES.index(Phase.AUCTION)
GESCHAEFT = PHASE_NAMES.index(Phase.GESCHAEFT)
TALON = PHASE_NAMES.index(Phase.TALON)
DECLARE = PHASE_NAMES.index(Phase.DECLARE)
LOOK = PHASE_NAMES.index(Phase.LOOK)
DEFENCE = PHASE_NAMES.index(Phase.DEFENCE)
INVITE = PHASE_NAMES.index(Phase.INVITE)
PLAY = PHASE_NAMES.index(Phase.PLAY)
DONE = PHASE_NAMES.index(Phase.DONE)

_ALL_HEAD = (HEAD, HEAD, HEAD)
_NUMBERS = ("1", "2", "3", "4")
_FIRST_ONLY = ("herz", *PREMIUM_CALLS)
_GESCHAEFT = CALL_RANK["geschaeft"]
_EIGHT = CALL_RANK["8"]
_SUIT_RANK = {"C": 1, "S": 2, "D": 3, "H": 4}
_PREMIUM_RANK = {(k, h): CALL_RANK[f"{k}{'h' if h else ''}"] for k in (5, 6, 7, 8) for h in (0, 1)}


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class FastHand(CardBoard):
    """One deal in progress, players 0, 1, 2 = forehand, middlehand, rearhand."""

    __slots__ = (
        "talon",
        "pot_before",
        "g",
        "stake",
        "holder_after",
        "inv_each",
        "phase",
        "passed",
        "called",
        "high",
        "high_rank",
        "high_by",
        "number",
        "gs_by",
        "gs_next",
        "gs_best",
        "gs_best_by",
        "declarer",
        "kind",
        "level",
        "talon_game",
        "hand",
        "raising",
        "look_queue",
        "defence",
        "offer",
        "offers",
        "closed",
        "end",
    )

    def __init__(
        self, hands: tuple[int, int, int], talon: int, rules: WienRules, pot_before: int
    ) -> None:
        CardBoard.__init__(self, hands)
        self.talon = talon
        self.pot_before = pot_before
        self.g = rules.dealer_contribution
        self.stake = rules.stake(pot_before)
        self.holder_after = 2 if rules.holding_after_forehand == "rearhand" else 1
        self.inv_each = rules.invitation_tricks == "each"
        self.phase = AUCTION
        self.passed = 0
        self.called = 0
        self.high: str | None = None
        self.high_rank = 0
        self.high_by = -1
        self.number = 0
        self.gs_by: list[int] = []
        self.gs_next = 0
        self.gs_best = -1
        self.gs_best_by = -1
        self.declarer = -1
        self.kind = ""  # suit, premium, ausfechten
        self.level: Any = None
        self.talon_game = True
        self.hand = False
        self.raising = False
        self.look_queue: list[int] = []
        self.defence = ["", "", ""]
        self.offer: tuple[int, int, int] | None = None
        self.offers = 0
        self.closed = False
        self.end = ""

    # ---- legal moves ---------------------------------------------------------------------

    def legal_calls(self) -> list[str]:
        p = self.to_act
        rank = self.high_rank
        calls = ["pass"]
        if rank <= 4 and self.number < 4:
            calls.append(_NUMBERS[self.number])
        if (
            rank
            and rank <= 4
            and self.high_by != p
            and (p == 0 if not self.passed & 1 else p == self.holder_after)
        ):
            calls.append("hold")
        if not self.called >> p & 1:
            if rank < _GESCHAEFT or self.high == "geschaeft":
                calls.append("geschaeft")
            calls.extend(c for c in _FIRST_ONLY if CALL_RANK[c] > rank)
        return calls

    def legal(self) -> list[tuple[str, Any]]:
        """Every legal move, as tuples (for tests and bots; the playout avoids building it)."""
        ph = self.phase
        if ph == AUCTION:
            return [("call", c) for c in self.legal_calls()]
        if ph == GESCHAEFT:
            if self.gs_next == 0:
                return [("gs", s) for s in "CSD"]
            return [("gs", "CSD"[s]) for s in range(self.gs_best + 1, 3)] + [("gs", "pass")]
        if ph == TALON:
            cards = _bits(self.hands[self.to_act])
            return [
                ("discard", (1 << a) | (1 << b))
                for i, a in enumerate(cards)
                for b in cards[i + 1 :]
            ]
        if ph == DECLARE:
            return [("declare", d) for d in self.legal_declarations()]
        if ph == LOOK:
            return [("look", False), ("look", True)]
        if ph == DEFENCE:
            return [("defence", "play")] + ([("defence", "home")] if self.pot_before else [])
        if ph == INVITE:
            return [("defence", "invite"), ("defence", "alone")]
        if ph == PLAY:
            if self.offer is not None:
                out: list[tuple[str, Any]] = [("accept", True), ("accept", False)]
                if self.offers == 1:
                    out += [("negotiate", (10 - n, n)) for n in (2, 3, 4)]
                return out
            out = [("card", c) for c in _bits(self.legal_card_mask())]
            if self.may_propose():
                out += [("negotiate", (10 - n, n)) for n in (2, 3, 4)]
            return out
        return []

    def legal_declarations(self) -> list[tuple[str, Any]]:
        if self.raising:
            rank = self.game_rank()
            return [("premium", k) for k in (5, 6, 7, 8) if _PREMIUM_RANK[k, 0] > rank]
        high = self.high
        if high == "geschaeft":
            return [("suit", s) for s in "CSD"]
        if high in _NUMBERS:
            n = int(high)
            return [("suit", "CSDH"[i]) for i in range(n - 1, 4)] + [
                ("premium", k) for k in (5, 6, 7, 8)
            ]
        assert high is not None
        return [("premium", k) for k in (5, 6, 7, 8) if k >= int(high[0])]

    def may_propose(self) -> bool:
        return (
            self.to_act == self.declarer
            and self.tricks == 0
            and not self.trick
            and self.offers == 0
            and not self.closed
            and self.playing.bit_count() == 2
        )

    def game_rank(self) -> int:
        if self.kind == "premium":
            return _PREMIUM_RANK[self.level, int(self.hand)]
        if self.talon_game:
            return _SUIT_RANK[self.level]
        return CALL_RANK["herz"] if self.level == "H" else _GESCHAEFT

    # ---- transitions ---------------------------------------------------------------------

    def step(self, move: tuple[str, Any]) -> None:
        """Apply a legal move (not re-validated)."""
        kind, value = move
        if kind == "card":
            self.play_card(value)
        elif kind == "call":
            self.call(value)
        elif kind == "gs":
            self.geschaeft_suit(value)
        elif kind == "discard":
            p = self.to_act
            self.hands[p] &= ~value
            self.talon = value
            self.phase = DECLARE
        elif kind == "declare":
            k, level = value
            if k == "premium":
                self.fix_game(self.to_act, "premium", level, True, False)
            else:
                self.fix_game(
                    self.to_act, "suit", level, self.high != "geschaeft" or self.raising, False
                )
        elif kind == "look":
            self.look(value)
        elif kind == "defence":
            self.defend(value)
        elif kind == "negotiate":
            p = self.to_act
            self.offer = (p, value[0], value[1])
            self.offers += 1
            self.to_act = self.partner(p)
        else:
            self.accept(value)

    def call(self, c: str) -> None:
        p = self.to_act
        bit = 1 << p
        if c == "pass":
            self.passed |= bit
        else:
            self.called |= bit
            if c != "hold":
                self.high = c
                self.high_rank = CALL_RANK[c]
                if c in _NUMBERS:
                    self.number = int(c)
                elif c == "geschaeft":
                    self.gs_by.append(p)
            self.high_by = p
        left = [q for q in (0, 1, 2) if not self.passed >> q & 1]
        if not left:
            self.kind = "ausfechten"
            self.phase = PLAY
            self.start_tricks(ORDERS[None], _ALL_HEAD, 2, 7)
            return
        if len(left) == 1 and self.called >> left[0] & 1:
            self.won_auction(left[0])
            return
        g = self.high == "geschaeft"
        if g and len(left) >= 2 and all(q in self.gs_by for q in left):
            self.phase = GESCHAEFT
            self.to_act = self.gs_by[0]
            return
        for k in (1, 2, 3):
            q = (p + k) % 3
            if self.passed >> q & 1 or (g and q in self.gs_by):
                continue
            self.to_act = q
            return

    def won_auction(self, w: int) -> None:
        high = self.high
        assert high is not None
        self.declarer = w
        if high == "geschaeft":
            self.phase = DECLARE
            self.to_act = w
        elif high == "herz":
            self.fix_game(w, "suit", "H", False, False)
        elif high.endswith("h"):
            self.fix_game(w, "premium", int(high[0]), False, True)
        else:
            self.take_talon(w)

    def take_talon(self, p: int) -> None:
        self.hands[p] |= self.talon
        self.talon = 0
        self.phase = TALON
        self.to_act = p

    def geschaeft_suit(self, s: str) -> None:
        if s != "pass":
            self.gs_best = "CSD".index(s)
            self.gs_best_by = self.to_act
        self.gs_next += 1
        if self.gs_next < len(self.gs_by):
            self.to_act = self.gs_by[self.gs_next]
            return
        self.declarer = self.gs_best_by
        self.fix_game(self.gs_best_by, "suit", "CSD"[self.gs_best], False, False)

    def fix_game(self, d: int, kind: str, level: Any, talon_game: bool, hand: bool) -> None:
        self.declarer = d
        self.kind = kind
        self.level = level
        self.talon_game = talon_game
        self.hand = hand
        self.raising = False
        if self.game_rank() >= _EIGHT:
            queue = []
        else:
            queue = [q for q in ((d + 1) % 3, (d + 2) % 3) if self.called >> q & 1]
        self.next_look(queue)

    def next_look(self, queue: list[int]) -> None:
        if queue:
            self.look_queue = queue
            self.phase = LOOK
            self.to_act = queue[0]
            return
        self.look_queue = []
        d = self.declarer
        if self.kind == "premium":
            self.start_play()
        else:
            self.phase = DEFENCE
            self.to_act = (d + 1) % 3

    def look(self, yes: bool) -> None:
        if not yes:
            self.next_look(self.look_queue[1:])
            return
        p = self.to_act
        self.declarer = p
        self.raising = True
        self.look_queue = []
        self.take_talon(p)

    def defend(self, choice: str) -> None:
        p = self.to_act
        d = self.declarer
        if self.phase == INVITE:
            if choice == "invite":
                self.defence[p] = "invite"
                self.defence[3 - d - p] = "invited"
            else:
                self.playing = (1 << d) | (1 << p)
            self.start_play()
            return
        self.defence[p] = choice
        if p == (d + 1) % 3:
            self.to_act = (d + 2) % 3
            return
        players = [q for q in (0, 1, 2) if self.defence[q] == "play"]
        if not players:
            self.phase = DONE
            self.end = "both_home"
            self.playing = 1 << d
        elif len(players) == 1:
            self.phase = INVITE
            self.to_act = players[0]
        else:
            self.start_play()

    def start_play(self) -> None:
        self.phase = PLAY
        d = self.declarer
        if self.kind != "suit":
            self.start_tricks(ORDERS[None], _ALL_HEAD, d, self.playing)
            return
        duty: tuple[Obligations, ...] = _ALL_HEAD
        if self.playing == 7:  # Largierpflicht: the defender after the declarer
            duty = tuple(HEAD_LOW if q == (d + 1) % 3 else HEAD for q in range(3))
        self.start_tricks(ORDERS["CSDH".index(self.level)], duty, d, self.playing)

    def partner(self, p: int) -> int:
        d = self.declarer
        if p != d:
            return d
        return next(q for q in (0, 1, 2) if q != d and self.playing >> q & 1)

    def accept(self, yes: bool) -> None:
        d = self.declarer
        if not yes:
            self.offer = None
            self.closed = True
            self.to_act = d
            return
        assert self.offer is not None
        self.won[d] = self.offer[1]
        self.won[self.partner(d)] = self.offer[2]
        self.phase = DONE
        self.end = "negotiated"

    def trick_done(self, winner: int) -> None:
        """A premium game ends as soon as its result is certain, any game after ten tricks."""
        done = self.tricks
        if self.kind == "premium" and (winner == self.declarer) == (self.level in (5, 7)):
            self.phase = DONE
            self.end = "early" if done < 10 else "played"
        elif done == 10:
            self.phase = DONE
            self.end = "played"

    # ---- settlement ----------------------------------------------------------------------

    def settle(self) -> tuple[list[int], int]:
        """Each active player's change (the dealer's contribution not included) and the pot
        after the deal, as ``engine.settle`` computes them (wien.md, "Settlement")."""
        g, s = self.g, self.stake
        t = s // 10
        delta = [0, 0, 0]
        pot = self.pot_before + g
        won = self.won
        d = self.declarer
        if self.kind == "ausfechten":
            most = max(won)
            for q in (0, 1, 2):
                if won[q] == most:
                    delta[q] -= g
                    pot += g
            return delta, pot
        others = [q for q in (0, 1, 2) if q != d]
        if self.kind == "premium":
            k = self.level - 4 + (1 if self.hand else 0)
            made = won[d] == 0 if self.level in (5, 7) else won[others[0]] + won[others[1]] == 0
            sign = 1 if made else -1
            delta[d] += sign * (s + 2 * k * g)
            pot -= sign * s
            for q in others:
                delta[q] -= sign * k * g
            return delta, pot
        players = [q for q in others if self.defence[q] in ("play", "invite", "invited")]
        if not players:
            made = True
            delta[d] += s
            pot -= s
        else:
            made = won[d] >= 6
            delta[d] += s if made else -s
            pot -= s if made else -s
            inviter = next((q for q in players if self.defence[q] == "invite"), -1)
            together = sum(won[q] for q in players)
            if inviter >= 0 and not self.inv_each:
                delta[d] -= t * together
                delta[inviter] += t * together
            else:
                for q in players:
                    delta[d] -= t * won[q]
                    delta[q] += t * won[q]
            if inviter >= 0:
                if together < 4:
                    delta[inviter] -= s
                    pot += s
            else:
                for q in players:
                    if won[q] < 2:
                        delta[q] -= s
                        pot += s
        if self.kind == "suit" and self.level == "H" and not self.talon_game:
            sign = 1 if made else -1
            delta[d] += sign * 2 * g
            for q in others:
                delta[q] -= sign * g
        return delta, pot


def random_move(h: FastHand, rng: random.Random) -> tuple[str, Any]:
    """The random bot's policy on the fast path: most players pass, few look into the talon,
    otherwise a uniformly random legal move (discards: two random cards of the twelve)."""
    ph = h.phase
    if ph == PLAY and h.offer is None and not h.may_propose():
        mask = h.legal_card_mask()
        for _ in range(int(rng.random() * mask.bit_count())):
            mask &= mask - 1
        return ("card", (mask & -mask).bit_length() - 1)
    if ph == AUCTION:
        calls = h.legal_calls()
        if len(calls) > 1 and rng.random() < 0.55:
            return ("call", "pass")
        return ("call", calls[int(rng.random() * len(calls))])
    if ph == TALON:
        a, b = rng.sample(_bits(h.hands[h.to_act]), 2)
        return ("discard", (1 << a) | (1 << b))
    if ph == LOOK:
        return ("look", rng.random() < 0.1)
    moves = h.legal()
    return moves[int(rng.random() * len(moves))]


_DECK = list(range(32))


def play_random_hand(
    rules: WienRules, pot_before: int, rng: random.Random
) -> tuple[list[int], int]:
    """Deal, bid, play and settle one random hand on the fast path; returns the active
    players' changes and the pot after the deal."""
    deck = _DECK[:]
    rand = rng.random
    for i in range(31, 0, -1):  # Fisher-Yates
        j = int(rand() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    hands = (
        (1 << deck[0])
        | (1 << deck[1])
        | (1 << deck[2])
        | (1 << deck[11])
        | (1 << deck[12])
        | (1 << deck[13])
        | (1 << deck[14])
        | (1 << deck[23])
        | (1 << deck[24])
        | (1 << deck[25]),
        (1 << deck[3])
        | (1 << deck[4])
        | (1 << deck[5])
        | (1 << deck[15])
        | (1 << deck[16])
        | (1 << deck[17])
        | (1 << deck[18])
        | (1 << deck[26])
        | (1 << deck[27])
        | (1 << deck[28]),
        (1 << deck[6])
        | (1 << deck[7])
        | (1 << deck[8])
        | (1 << deck[19])
        | (1 << deck[20])
        | (1 << deck[21])
        | (1 << deck[22])
        | (1 << deck[29])
        | (1 << deck[30])
        | (1 << deck[31]),
    )
    h = FastHand(hands, (1 << deck[9]) | (1 << deck[10]), rules, pot_before)
    while h.phase != DONE:
        h.step(random_move(h, rng))
    return h.settle()
