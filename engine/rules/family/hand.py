"""The one machine of a talon-family deal: the shared card-play board plus the phases.

:class:`Hand` is mutable ints, lists and bit masks. The validating path keeps it inside an
immutable :class:`engine.rules.family.state.State` and steps a copy after checking the action
against :meth:`Hand.legal`; the fast path (``play_random_hand``) steps one hand in place and
plays its cards straight on the board. Both therefore play by the same rules by construction,
and ``tests/engine/test_family_fast.py`` drives them side by side all the same.

Phases (``engine.rules.family.phases``): AUCTION (the ladder, or the family's own), then where
a set has them OFFER (american round 2), SECOND and FORCED (1829), HAND_CONTRACT (balkan),
TALON (take it or not), DISCARD, DECLARE, DEFENCE, INVITE, GIVE_UP, NO_ACES, CONTRA, RECONTRA,
PLAY, DONE. Players are 0, 1, 2: forehand, middlehand, rearhand.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Call, Declare, Defence, Discard, PlayCard
from engine.board import CardBoard
from engine.cards import PIQUET, cards_of
from engine.rules.family import spec
from engine.rules.family.actions import Contra, GiveUp, NoAces, Recontra
from engine.rules.family.game import MISERE, NORMAL, SLAM, UNO, Game, Rules
from engine.rules.family.phases import (
    AUCTION,
    CONTRA,
    DECLARE,
    DEFENCE,
    DISCARD,
    DONE,
    GIVE_UP,
    INVITE,
    NO_ACES,
    PLAY,
    RECONTRA,
)
from engine.rules.family.spec import Family, Ladder
from engine.tricks import suit_order

ORDERS = {t: suit_order(PIQUET, t) for t in (None, 0, 1, 2, 3)}
ACES = spec.ACES


class Hand(CardBoard):
    """A deal in progress (see the module docstring). ``to_act`` is -1 once it is over."""

    __slots__ = (
        "family",
        "rules",
        "ladder",
        "active",
        "deal",
        "carry",
        "phase",
        "passed",
        "called",
        "high",
        "high_by",
        "turns",
        "queue",
        "top",
        "top_by",
        "talon",
        "talon_seen",
        "talon_known",
        "declarer",
        "bid",
        "game",
        "forced",
        "twelve",
        "kept",
        "defence",
        "gave_up",
        "no_aces",
        "contra",
        "offers",
        "open",
        "target",
        "streak",
        "made",
        "end",
        "extra",
    )

    def __init__(
        self,
        family: Family,
        rules: Rules,
        active: tuple[str, ...],
        deal: tuple[int, int, int, int],
        carry: dict[str, Any],
    ) -> None:
        CardBoard.__init__(self, deal[:3])
        self.family = family
        self.rules = rules
        self.ladder: Ladder | None = family.ladder(rules)
        self.active = active
        self.deal = deal
        self.carry = carry
        self.phase = AUCTION
        self.passed = 0
        self.called = 0
        self.high = -1
        self.high_by = -1
        self.turns = 0
        self.queue: list[int] = []
        self.top = 0  # the highest offer or hand contract code so far (american, balkan)
        self.top_by = -1
        self.talon = deal[3]
        self.talon_seen = 0
        self.talon_known = 0
        self.declarer = -1
        self.bid: str | None = None
        self.game: Game | None = None
        self.forced: str | None = None
        self.twelve = 0
        self.kept = 0
        self.defence = ["", "", ""]
        self.gave_up: bool | None = None
        self.no_aces: bool | None = None
        self.contra = ["", "", ""]
        self.offers: list[Any] = [None, None, None]
        self.open = 0
        self.target = NORMAL
        self.streak = 0
        self.made: bool | None = None
        self.end = ""
        self.extra: list[Any] = []

    # --- copies and comparison (the validating path's immutable states) --------------------

    def copy(self) -> Hand:
        new = Hand.__new__(Hand)
        for name in _SLOTS:
            value = getattr(self, name)
            setattr(new, name, value[:] if type(value) is list else value)
        return new

    def snapshot(self) -> tuple[Any, ...]:
        return tuple(
            tuple(v) if type(v) is list else v for v in (getattr(self, name) for name in _SLOTS)
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self.snapshot() == other.snapshot()

    def __hash__(self) -> int:
        return hash(self.snapshot())

    # --- who acts ----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == DONE

    def seat(self, p: int) -> str:
        return self.active[p]

    def next_caller(self, p: int) -> int:
        """The next player after ``p`` who has not passed."""
        for k in (1, 2, 3):
            q = (p + k) % 3
            if not self.passed >> q & 1:
                return q
        return p

    # --- legal actions -----------------------------------------------------------------------

    def legal(self) -> list[Action]:
        """Every action of the player to act, in a stable order."""
        ph = self.phase
        p = self.to_act
        if ph == DONE or p < 0:
            return []
        seat = self.active[p]
        if ph == PLAY:
            return [PlayCard(seat, c) for c in cards_of(self.legal_card_mask())]
        if ph == AUCTION:
            return [Call(seat, c) for c in self.family.auction_calls(self)]
        if ph == DISCARD:
            cards = list(cards_of(self.hands[p]))
            return [
                Discard(seat, (1 << a) | (1 << b))
                for i, a in enumerate(cards)
                for b in cards[i + 1 :]
            ]
        if ph == DECLARE:
            return [Declare(seat, k, v) for k, v in self.family.declarations(self)]
        if ph == DEFENCE:
            return [Defence(seat, "play"), Defence(seat, "home")]
        if ph == INVITE:
            return [Defence(seat, "invite"), Defence(seat, "alone")]
        if ph == GIVE_UP:
            return [GiveUp(seat, False), GiveUp(seat, True)]
        if ph == NO_ACES:
            no_ace = not self.twelve & ACES
            return [NoAces(seat, False), *([NoAces(seat, True)] if no_ace else [])]
        if ph == CONTRA:
            return [Contra(seat, False), Contra(seat, True)]
        if ph == RECONTRA:
            return [Recontra(seat, False), Recontra(seat, True)]
        return self.family.legal_special(self)

    def ladder_calls(self) -> list[str]:
        """The ladder's legal calls for the player to act (``Ladder``)."""
        lad = self.ladder
        assert lad is not None
        p = self.to_act
        forced = lad.forced_last and p == 2 and self.passed == 3 and not self.called
        out = [*(() if forced else ("pass",)), *lad.aboves[self.high + 1]]
        if lad.hold and self.high >= 0 and p < self.high_by:
            out.append("hold")
        return out

    # --- applying ----------------------------------------------------------------------------

    def step(self, action: Action) -> None:
        """Apply a legal action (checked by the caller)."""
        ph = self.phase
        p = self.to_act
        if ph == PLAY:
            assert isinstance(action, PlayCard)
            self.play_card(action.card)
        elif ph == AUCTION:
            assert isinstance(action, Call)
            self.family.auction_call(self, p, action.call)
        elif ph == DISCARD:
            assert isinstance(action, Discard)
            self.discard(p, action.cards)
        elif ph == DECLARE:
            assert isinstance(action, Declare)
            self.fix(self.family.declared(self, action.kind, action.level))
        elif ph in (DEFENCE, INVITE):
            assert isinstance(action, Defence)
            self.defend(p, action.choice)
        elif ph in (GIVE_UP, NO_ACES, CONTRA, RECONTRA):
            assert isinstance(action, GiveUp | NoAces | Contra | Recontra)
            self.answer(action.value)
        else:
            self.family.act_special(self, action)

    def answer(self, value: Any) -> None:
        """The answer of a flag step (play or home, invite or alone, give up, no aces, contra,
        recontra) of the player to act."""
        ph = self.phase
        p = self.to_act
        if ph in (DEFENCE, INVITE):
            self.defend(p, value)
        elif ph == GIVE_UP:
            self.gave_up = value
            if value:
                self.finish("gave_up")
            else:
                self.after_give_up()
        elif ph == NO_ACES:
            self.no_aces = value
            self.after_no_aces()
        elif ph == CONTRA:
            self.family.contra_answer(self, p, value)
        else:
            self.family.recontra_answer(self, p, value)

    def ladder_call(self, p: int, call: str) -> None:
        lad = self.ladder
        assert lad is not None
        self.turns += 1
        if call == "pass":
            self.passed |= 1 << p
        elif call == "hold":
            self.called |= 1 << p
            self.high_by = p
        else:
            first_of_auction = self.high < 0
            self.called |= 1 << p
            self.high = lad.rank(call)
            self.high_by = p
            if first_of_auction and call in lad.ends_first:
                return self.auction_won(p)
        if lad.once:
            if self.turns < 3:
                self.to_act = p + 1
                return None
            if self.high < 0:
                return self.family.all_passed(self)
            return self.auction_won(self.high_by)
        left = 0b111 & ~self.passed
        if not left:
            return self.family.all_passed(self)
        if not left & (left - 1) and self.called & left:  # one left, and he has called
            return self.auction_won(left.bit_length() - 1)
        self.to_act = self.next_caller(p)
        return None

    def auction_won(self, p: int) -> None:
        lad = self.ladder
        assert lad is not None
        self.declarer = p
        self.bid = lad.calls[self.high]
        self.family.won(self, p)

    def take_talon(self, p: int, *, public: bool = False) -> None:
        """``p`` takes the talon into his hand and must discard two cards (``public``: the
        talon is shown to all first)."""
        dealt = self.talon == self.deal[3]
        self.twelve = self.hands[p] | self.talon
        self.hands[p] |= self.talon
        if dealt:
            self.talon_seen |= 0b111 if public else 1 << p
        self.talon = 0
        self.talon_known = 0b111
        self.phase = DISCARD
        self.to_act = p

    def discard(self, p: int, cards: int) -> None:
        self.hands[p] &= ~cards
        self.talon = cards
        self.talon_known = 1 << p
        self.kept = self.hands[p]
        self.family.after_discard(self)

    def ask_declare(self) -> None:
        self.phase = DECLARE
        self.to_act = self.declarer

    def fix(self, game: Game) -> None:
        """The contract is fixed: open hands, then the defence (or what follows it)."""
        d = self.declarer
        self.game = game
        if not self.twelve:
            self.twelve = self.hands[d]
        if not self.kept:
            self.kept = self.hands[d]
        if self.family.is_open(game):
            self.open |= 1 << d
        if self.family.has_defence(self):
            self.phase = DEFENCE
            self.to_act = (d + 1) % 3
        else:
            self.after_defence()

    def defend(self, p: int, choice: str) -> None:
        d = self.declarer
        if self.phase == INVITE:
            if choice == "invite":
                self.defence[p] = "invite"
                self.defence[3 - d - p] = "invited"
            return self.after_defence()
        self.defence[p] = choice
        if p == (d + 1) % 3:
            self.to_act = (d + 2) % 3
            return None
        players = [q for q in (0, 1, 2) if self.defence[q] == "play"]
        if not players:
            return self.finish("both_home")
        if len(players) == 1 and self.family.invitation(self):
            self.phase = INVITE
            self.to_act = players[0]
            return None
        return self.after_defence()

    def after_defence(self) -> None:
        if self.family.asks_give_up(self):
            self.phase = GIVE_UP
            self.to_act = self.declarer
        else:
            self.after_give_up()

    def after_give_up(self) -> None:
        if self.family.asks_no_aces(self):
            self.phase = NO_ACES
            self.to_act = self.declarer
        else:
            self.after_no_aces()

    def after_no_aces(self) -> None:
        if self.family.contra(self):
            self.family.start_contra(self)
        else:
            self.start_play()

    def start_play(self) -> None:
        game = self.game
        assert game is not None
        self.phase = PLAY
        self.target = self.family.target(game, self.rules)
        duty = self.family.duty(self)
        self.start_tricks(ORDERS[game.trump], (duty, duty, duty), 0, self.family.playing_mask(self))
        self.to_act = self.family.leader(self)

    def trick_done(self, winner: int) -> None:
        """The end of play: ten tricks, or a premium contract decided early."""
        t = self.target
        done = self.tricks
        if t == NORMAL:
            if done == 10:
                self.finish("played")
            return
        d = self.declarer
        if t == MISERE:
            stop = winner == d
        elif t == SLAM:
            stop = winner != d
        elif t == UNO:
            stop = winner == d and self.won[d] == 2
        else:  # ROW: six tricks in a row
            if winner == d:
                self.streak += 1
                stop = self.streak == 6
                if stop:
                    self.made = True
            else:
                self.streak = 0
                stop = 10 - done < 6
                if stop:
                    self.made = False
        if stop or done == 10:
            self.finish("early" if done < 10 else "played")

    def finish(self, end: str) -> None:
        self.phase = DONE
        self.to_act = -1
        self.end = end


_SLOTS = (*CardBoard.__slots__, *Hand.__slots__)
