"""What a talon-family rule set gives the shared machinery: its data and its few rules.

A :class:`Family` is a rule set's description: its :class:`Ladder` (the auction as data, for
the sets whose auction is a ladder of calls), the contracts a winner may declare, the optional
steps it asks (talon choice, defence, invitation, give-up, no-aces, contra), its obligations,
how far its premium contracts are played, and its settlement. The machine
(:class:`engine.rules.family.hand.Hand`) asks it; each rule set package subclasses it with its
own answers (``kurz``: ``engine/rules/kurz/rules.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.actions import Action, ActionForm, Call, Declare, Defence, Discard, PlayCard
from engine.cards import cards_of
from engine.errors import EngineError
from engine.options import Option
from engine.rules.family import messages as msg
from engine.rules.family.actions import Contra, GiveUp, NoAces, Recontra, vocabulary
from engine.rules.family.game import NORMAL, Game, Rules, make_game
from engine.rules.family.phases import (
    AUCTION,
    CONTRA,
    DECLARE,
    DEFENCE,
    DISCARD,
    GIVE_UP,
    INVITE,
    NO_ACES,
    PLAY,
    RECONTRA,
)
from engine.rules.family.settle import POT, Tally, ante_rounds, result, with_antes
from engine.transfers import Book
from engine.tricks import FOLLOW_TRUMP, Obligations

FLAG_STEPS = frozenset((DEFENCE, INVITE, GIVE_UP, NO_ACES, CONTRA, RECONTRA))
FLAG_ACTIONS: dict[int, Callable[[str, Any], Action]] = {
    DEFENCE: Defence,
    INVITE: Defence,
    GIVE_UP: GiveUp,
    NO_ACES: NoAces,
    CONTRA: Contra,
    RECONTRA: Recontra,
}
ACES = sum(1 << (s * 8 + 7) for s in range(4))

if TYPE_CHECKING:
    from engine.rules.family.hand import Hand
    from engine.rules.family.outcome import Outcome


@dataclass(frozen=True, slots=True)
class Ladder:
    """An auction as data: ``calls`` low to high (``pass`` and ``hold`` not among them).

    - ``jumps``: any higher call; false: exactly the next rung (the first call the lowest),
      except the calls in ``ends_first``;
    - ``hold``: a player who has not passed takes over the highest call at the same level when
      the player holding it sits later in playing order from forehand;
    - ``forced_last``: when forehand and middlehand passed without a call, rearhand may not pass;
    - ``once``: every player calls once, from forehand (no second round);
    - ``ends_first``: calls that end the auction at once when they are the auction's first call.
    """

    calls: tuple[str, ...]
    jumps: bool = True
    hold: bool = False
    forced_last: bool = False
    once: bool = False
    ends_first: tuple[str, ...] = ()

    aboves: tuple[tuple[str, ...], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        calls = self.calls
        aboves = []
        for high in range(-1, len(calls)):
            if self.jumps:
                above = list(calls[high + 1 :])
            else:
                above = [calls[high + 1]] if high + 1 < len(calls) else []
                if high < 0:
                    above += [c for c in self.ends_first if c not in above]
            aboves.append(tuple(above))
        object.__setattr__(self, "aboves", tuple(aboves))

    def rank(self, call: str) -> int:
        return self.calls.index(call)

    def above(self, high: int) -> tuple[str, ...]:
        """The calls a player may make over the call of rank ``high`` (-1: none yet), ``pass``
        not included."""
        return self.aboves[high + 1]


class Family:
    """A talon-family rule set's answers; the defaults are the common case."""

    name: str = ""
    #: The word keys a record may hold (``action_from_json``) beyond call/discard/declare/card.
    keys: tuple[str, ...] = ("call", "discard", "declare", "defence", "card")
    defences: tuple[str, ...] = ("play", "home")
    words: dict[str, tuple[str, ...]] = {}
    options: tuple[Option, ...] = ()
    #: The phases a hand of the set goes through (a view's ``phase``), the last the end.
    phases: tuple[str, ...] = ("auction", "discard", "declare", "defence", "play", "done")
    #: The record vocabulary, whatever the options: every call, every ``declare`` value, every
    #: ``defence`` answer.
    vocabulary_calls: tuple[str, ...] = ()
    vocabulary_declares: tuple[tuple[str, str | int], ...] = tuple(("suit", s) for s in "CSDH")
    vocabulary_defences: tuple[str, ...] = ("play", "home")

    def vocabulary(self) -> tuple[ActionForm, ...]:
        """The set's ``RuleSet.vocabulary``."""
        return vocabulary(
            self.keys,
            self.vocabulary_calls,
            self.vocabulary_declares,
            self.words,
            self.vocabulary_defences,
        )

    # --- options ---------------------------------------------------------------------------

    def check_rules(self, values: dict[str, Any]) -> None:
        """Checks tying options together (raise ``EngineError``)."""

    def read_carry(self, record: Any) -> dict[str, Any]:
        """The carry of a record: the pot before the deal, a non-negative whole number of
        cents."""
        pot = record.get("pot")
        if type(pot) is not int or pot < 0:
            raise msg.POT_CENTS.error("pot", pot=repr(pot))
        return {"pot": pot}

    # --- the auction -----------------------------------------------------------------------

    def ladder(self, rules: Rules) -> Ladder | None:
        """The auction as data; ``None``: the family runs its own (``legal_special``)."""
        return None

    def auction_calls(self, h: Hand) -> list[str]:
        """The legal calls of the player to act (by default the ladder's)."""
        return h.ladder_calls()

    def auction_call(self, h: Hand, p: int, call: str) -> None:
        """Apply a legal call (by default on the ladder)."""
        h.ladder_call(p, call)

    def contra_answer(self, h: Hand, p: int, yes: bool) -> None:
        """A defender's contra (sets with a contra round)."""
        raise NotImplementedError

    def recontra_answer(self, h: Hand, p: int, yes: bool) -> None:
        """The declarer's recontra (sets with a contra round)."""
        raise NotImplementedError

    def legal_special(self, h: Hand) -> list[Action]:
        """The legal actions of a phase the family runs itself."""
        raise NotImplementedError

    def also_legal(self, h: Hand, action: Action) -> bool:
        """An action beyond the listed ones that is legal too (american: any offer above the
        lowest legal one)."""
        return False

    def act_special(self, h: Hand, action: Action) -> None:
        """Apply an action of a phase the family runs itself."""
        raise NotImplementedError

    def won(self, h: Hand, p: int) -> None:
        """Player ``p`` won the auction with ``h.bid``."""
        raise NotImplementedError

    def all_passed(self, h: Hand) -> None:
        """Nobody called: by default the cards are thrown in."""
        h.finish("thrown_in")

    # --- the contract ----------------------------------------------------------------------

    def declarations(self, h: Hand) -> list[tuple[str, str | int]]:
        """The games the declarer may declare now."""
        raise NotImplementedError

    def declared(self, h: Hand, kind: str, level: str | int) -> Game:
        """The game a ``declare`` fixes."""
        return make_game(kind, level, talon=True)

    def after_discard(self, h: Hand) -> None:
        """After the discard: the declaration."""
        h.ask_declare()

    def has_defence(self, h: Hand) -> bool:
        """Whether the defenders choose play or home."""
        return True

    def invitation(self, h: Hand) -> bool:
        """Whether a lone defender may invite."""
        return False

    def asks_give_up(self, h: Hand) -> bool:
        return False

    def asks_no_aces(self, h: Hand) -> bool:
        return False

    def contra(self, h: Hand) -> str:
        """``""`` (none), ``"balkan"`` or ``"danube"``."""
        return ""

    def start_contra(self, h: Hand) -> None:
        """The contra round (sets with ``contra``)."""
        h.start_play()

    def is_open(self, game: Game) -> bool:
        """Whether the declarer's hand is shown to all once the contract is fixed."""
        return False

    # --- card play -------------------------------------------------------------------------

    def playing_mask(self, h: Hand) -> int:
        """The declarer and every defender who plays (all three where nobody was asked)."""
        d = h.declarer
        mask = 1 << d
        for q in (0, 1, 2):
            if q != d and h.defence[q] in ("play", "invite", "invited", ""):
                mask |= 1 << q
        return mask

    def leader(self, h: Hand) -> int:
        """Who leads to the first trick: the declarer."""
        assert h.declarer >= 0
        return h.declarer

    def duty(self, h: Hand) -> Obligations:
        """Every player's obligations in this hand (by default the table's)."""
        return self.obligations(h.rules)

    def obligations(self, rules: Rules) -> Obligations:
        """The obligations of a table's card play (the 1829 rules: follow, else trump)."""
        return FOLLOW_TRUMP

    def target(self, game: Game, rules: Rules) -> int:
        """How far play goes: ``NORMAL`` (ten tricks) or a premium contract's early end."""
        return NORMAL

    # --- score-sheet entries --------------------------------------------------------------

    def extra_of(self, h: Hand) -> dict[str, Any]:
        """The set's own score-sheet keys of a finished hand."""
        return {}

    def game_kinds(self, rules: Rules) -> dict[str, Sequence[Any]]:
        """The ``game`` types of an entry and their levels."""
        return {"suit": "CSDH"}

    def sheet_defence(self, rules: Rules, game: Game) -> tuple[str, ...]:
        """The ``defence`` values of an entry for ``game`` (empty: no defence key)."""
        return self.defences

    def sheet_players(self, o: Outcome) -> list[str]:
        """The players whose tricks an entry gives: the declarer and the defenders who
        played."""
        assert o.declarer is not None
        return [o.declarer, *o.players]

    def sheet_played(self, o: Outcome) -> bool:
        """Whether cards were played (not both home, not given up)."""
        return not o.extra.get("gave_up") and bool(o.players)

    def parse_extra(self, record: Any, o: Outcome) -> dict[str, Any]:
        """The set's own keys of an entry, checked."""
        return {}

    def check_tricks(self, o: Outcome, tricks: dict[str, int]) -> None:
        """A set's own check of an entry's tricks (a slam of six in a row)."""

    def parse_no_game(self, record: Any, base: Outcome) -> Outcome:
        """An entry with ``"game": null``: a thrown-in deal, nothing else."""
        for key in ("declarer", "defence", "tricks", *self.sheet_extra_keys):
            if key in record and not (key == "tricks" and record[key] == {}):
                raise msg.NO_GAME_NO_KEY.error(key, key=key)
        return base

    sheet_extra_keys: tuple[str, ...] = ()

    # --- results ---------------------------------------------------------------------------

    #: The carry as a party to transfers (``None``: no pot).
    party: str | None = POT

    def ante(self, rules: Rules) -> int | None:
        """Cents each seat pays into a short pot (``None``: the pot is never short)."""
        return None

    def payments(self, o: Outcome, book: Book) -> tuple[bool | None, dict[str, Any]]:
        """Write a deal's payments into ``book``; whether the game was made, and the Result's
        extra keys (balkan's ``refe``)."""
        raise NotImplementedError

    def settle(self, o: Outcome) -> dict[str, Any]:
        """The Result: the payments listed (antes where the pot is short), summed."""
        book = Book()
        made, more = self.payments(o, book)
        ante = self.ante(o.rules)
        transfers = book.transfers
        if ante is not None:
            transfers = with_antes(book, o.carry["pot"], o.seats, ante)
        return result(o, transfers, made, party=self.party, **more)

    def fast_settle(self, o: Outcome) -> tuple[list[int], int | None]:
        """The same payments summed (:class:`Tally`): the active players' changes and the pot
        after the deal (the fast path)."""
        tally = Tally(o.seats)
        self.payments(o, tally)
        delta = tally.delta
        if self.party is None:
            return [delta[s] for s in o.active], None
        holds = o.carry["pot"] + tally.into
        ante = self.ante(o.rules)
        if ante is not None:
            k = ante_rounds(holds, tally.out, len(o.seats), ante)
            if k:
                for s in o.seats:
                    delta[s] -= k * ante
                holds += k * ante * len(o.seats)
        return [delta[s] for s in o.active], holds - tally.out

    def is_premium(self, game: Any) -> bool:
        """Whether a Result's ``game`` is one of the set's premium games."""
        return bool(game) and isinstance(game, dict) and game.get("type") == "premium"

    def describe_game(self, game: Any) -> str:
        if not game:
            return ""
        level = game.get("level")
        hand = game.get("talon") is False or game.get("hand") is True
        return f"{level}{'h' if hand else ''}"

    def why(self, h: Hand, action: Action) -> EngineError | None:
        """The refusal of a call on the ladder, in words (None: the generic one)."""
        lad = h.ladder
        if not isinstance(action, Call) or lad is None or h.phase != AUCTION:
            return None
        seat = h.active[h.to_act]
        high = lad.calls[h.high] if h.high >= 0 else None
        legal = ", ".join(h.ladder_calls())
        if action.call == "pass":
            return msg.MAY_NOT_PASS.error("", seat=seat, legal=legal)
        if action.call == "hold":
            if high is None:
                return msg.NOTHING_TO_HOLD.error("")
            return msg.HOLD_EARLIER.error("", high=high, seat=seat, legal=legal)
        if high is not None and lad.rank(action.call) <= h.high:
            return msg.NOT_HIGHER.error("", call=action.call, high=high, legal=legal)
        return msg.ONE_RUNG.error("", seat=seat, legal=legal)

    # --- the random bot --------------------------------------------------------------------

    def random_call(self, calls: Sequence[str], rng: random.Random) -> str:
        """As wien's bot: most players pass (55 %), else a uniformly random legal call."""
        n = len(calls)
        if n > 1 and calls[0] == "pass" and rng.random() < 0.55:
            return "pass"
        return calls[int(rng.random() * n)]

    def random_move(self, h: Hand, rng: random.Random) -> Action:
        """The ``random`` bot, on both paths (``RuleSet.random_action`` and the fast path):
        a uniformly random legal card; two random cards to discard; in the auction most pass
        (``random_call``); a flag step by :meth:`random_flag`; otherwise uniform over the legal
        actions, as wien's bot."""
        ph = h.phase
        p = h.to_act
        seat = h.active[p]
        if ph == PLAY:  # as CardBoard.play_random draws
            mask = h.legal_card_mask()
            count = mask.bit_count()
            for _ in range(int(rng.random() * count) if count > 1 else 0):
                mask &= mask - 1
            return PlayCard(seat, (mask & -mask).bit_length() - 1)
        if ph == DISCARD:
            cards = list(cards_of(h.hands[p]))
            n = len(cards)
            i = int(rng.random() * n)
            j = int(rng.random() * (n - 1))
            j += j >= i
            return Discard(seat, (1 << cards[i]) | (1 << cards[j]))
        if ph == AUCTION:
            return Call(seat, self.random_call(self.auction_calls(h), rng))
        if ph == DECLARE:
            options = self.declarations(h)
            kind, level = options[int(rng.random() * len(options))]
            return Declare(seat, kind, level)
        if ph in FLAG_STEPS:
            value = self.random_answer(h, rng)
            return FLAG_ACTIONS[ph](seat, value)
        legal = h.legal()
        first = legal[0]
        if isinstance(first, Call):
            call = self.random_call([a.call for a in legal if isinstance(a, Call)], rng)
            return Call(seat, call)
        return legal[int(rng.random() * len(legal))]

    def random_answer(self, h: Hand, rng: random.Random) -> str | bool:
        """A flag step's answer: uniform, as wien's bot; few declarers give up; an ace-less
        declarer announces it half the time."""
        ph = h.phase
        if ph == DEFENCE:
            return "play" if rng.random() < 0.5 else "home"
        if ph == INVITE:
            return "invite" if rng.random() < 0.5 else "alone"
        if ph == GIVE_UP:
            return rng.random() < 0.1
        if ph == NO_ACES:
            return not h.twelve & ACES and rng.random() < 0.5
        return rng.random() < 0.5
