"""One ``preferans`` deal as an immutable state and its transitions (``spec/next/preferans.md``
§1–§8.2): the auction, the talon and the order, whisting, and the card play of a contract, a
misère and raspasy.

Terms: *первая / вторая / третья рука* (first, second, third hand: the active players 0, 1, 2,
first hand senior), *разыгрывающий* (the declarer), *вистующий* (a whister), *пасующий* (a
passer), *прикуп* (the talon, an ordered pair: on raspasy its first card is turned first),
*распасы* (raspasy, the all-pass deal), *мизер* (misère), *здесь* (hold), *полвиста*
(half-whist), *возврат виста* (the first defender's return of a half-whist), *в светлую*
(open play: the lone whister plays both defending hands, face up).

:func:`apply` is pure and always validates: an illegal action raises
:class:`engine.errors.IllegalAction` (:class:`engine.errors.NotYourTurn` out of turn) with a
sentence naming the rule and its code (:mod:`engine.rules.preferans.messages`). Player numbers
are 0, 1, 2 for first, second and third hand, and :data:`TALON` (3) for the card turned from
the talon, which on a talon-led raspasy with four seats is the sitting-out dealer's card
(§8.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from itertools import combinations
from typing import Any, TypeVar

from engine.actions import Action, Call, PlayCard
from engine.cards import PIQUET, cards_of
from engine.errors import EngineError, Message
from engine.rules.preferans import messages as m
from engine.rules.preferans.actions import (
    BIDS,
    STRAINS,
    Declare,
    Discard,
    Mode,
    Whist,
    card_key,
    codes,
)
from engine.rules.preferans.outcome import DealOutcome
from engine.rules.preferans.rules import PreferansRules
from engine.rules.preferans.sheet import Sheet
from engine.tricks import (
    FOLLOW_TRUMP,
    CardOrder,
    best_card,
    legal_cards,
    obligation_refusal,
    suit_order,
)

T = TypeVar("T")

AUCTION, DISCARD, DECLARE, WHIST, MODE, PLAY, DONE = (
    "auction",
    "discard",
    "declare",
    "whist",
    "mode",
    "play",
    "done",
)
PHASES: tuple[str, ...] = (AUCTION, DISCARD, DECLARE, WHIST, MODE, PLAY, DONE)
"""The phases of a deal, the last its end (a view's ``phase``)."""
TALON = 3
"""The player number of a card turned from the talon (raspasy, §8.1)."""


MISERE_RANK = {"below_9": 2 * BIDS.index("8NT") + 1, "below_10": 2 * BIDS.index("9NT") + 1}
"""§3 ``misere_rank``: misère's :func:`bid_rank`, just above ``8NT`` or ``9NT``."""


def bid_rank(call: str, rules: PreferansRules) -> int:
    """A call's place on the ladder (§3), doubled so that misère fits between two bids:
    ``6S`` is 0, ``10NT`` 48; misère is just above ``8NT`` (``below_9``) or ``9NT``
    (``below_10``)."""
    if call == "misere":
        return MISERE_RANK[rules.misere_rank]
    return 2 * BIDS.index(call)


def trump_of(strain: str | None) -> int | None:
    """The deck suit that is trumps in ``strain`` (None: no trumps)."""
    return None if strain is None or strain == "NT" else PIQUET.suit_index(strain)


@dataclass(frozen=True, slots=True)
class State:
    """A deal: its envelope (``rules``, ``seats``, ``dealer``, the ``active`` players first
    hand first, the ``streak`` and ``sheet`` it carries), the cards as dealt (``deal``: the
    three hands; ``talon``: its two cards in order), the ``history`` of actions and where the
    deal stands."""

    rules: PreferansRules
    seats: tuple[str, ...]
    dealer: str
    active: tuple[str, ...]
    streak: int
    sheet: Sheet | None
    deal: tuple[int, int, int]
    talon: tuple[int, int]
    hands: tuple[int, int, int]
    history: tuple[Action, ...] = ()
    phase: str = AUCTION
    turn: int = 0
    """The player whose hand is due (the auction, a defender's call, a card)."""
    passed: tuple[bool, bool, bool] = (False, False, False)
    spoke: tuple[bool, bool, bool] = (False, False, False)
    misere_by: int = -1
    """Who called misère (he may only pass afterwards)."""
    high: int = -1
    """The highest call's :func:`bid_rank` (-1: none yet)."""
    high_by: int = -1
    """Who holds the highest call (made it or held it)."""
    game: str | None = None
    """``contract``, ``misere`` or ``raspasy`` once the auction ended."""
    level: int | None = None
    strain: str | None = None
    declarer: int = -1
    discard: int = 0
    defence: tuple[str, str, str] = ("", "", "")
    """Each defender's call so far (``whist``, ``pass``, ``half``; ``""``: none)."""
    mode: str | None = None
    trick: tuple[tuple[int, int], ...] = ()
    """The trick in progress: (player, card) in play order (:data:`TALON` for a talon card)."""
    last: tuple[tuple[int, int], ...] = ()
    """The last complete trick."""
    won: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Tricks taken by first, second, third hand and (talon-led raspasy, 4 seats) the
    dealer."""
    played: int = 0
    """Complete tricks."""

    @property
    def is_over(self) -> bool:
        return self.phase == DONE

    def player(self, seat: str | None) -> int | None:
        """The player number of ``seat`` in this deal; None for the sitting-out dealer or a
        spectator."""
        return self.active.index(seat) if seat in self.active else None

    @property
    def defenders(self) -> tuple[int, int]:
        """§5: the first defender (the next active player after the declarer), the second."""
        return (self.declarer + 1) % 3, (self.declarer + 2) % 3

    @property
    def checked(self) -> bool:
        """A checked ten (§5, ``ten_whisted = false``): no whist step, open defenders."""
        return self.game == "contract" and self.level == 10 and not self.rules.ten_whisted

    @property
    def open_play(self) -> bool:
        """Whether the defenders' hands are laid open in this deal (§6.3): a lone whister's
        ``open``, misère, a checked ten."""
        return self.mode == "open" or self.game == "misere" or self.checked

    @property
    def whister(self) -> int:
        """The lone whister who plays both hands in open play, else -1."""
        if self.mode != "open":
            return -1
        return next(q for q in self.defenders if self.defence[q] == "whist")

    @property
    def talon_lead(self) -> bool:
        """Raspasy whose first two tricks are led by the talon (§8.1 ``lead``)."""
        return self.game == "raspasy" and self.rules.raspasy_talon == "lead"

    @property
    def order(self) -> CardOrder:
        """How the cards rank in this deal's play (§6.2: trumps only in a suit contract)."""
        return suit_order(PIQUET, trump_of(self.strain if self.game == "contract" else None))

    def sender(self, p: int) -> str:
        """The seat that sends player ``p``'s actions: himself, but the lone whister in open
        play sends the passer's cards (§6.3)."""
        w = self.whister
        if self.phase == PLAY and w >= 0 and p != self.declarer:
            return self.active[w]
        return self.active[p]

    @property
    def to_act(self) -> str | None:
        """The seat that may send the next action (None once the deal is over)."""
        return None if self.is_over else self.sender(self.turn)


_FIELDS = tuple(f.name for f in fields(State))
_set_attr = object.__setattr__


def _with(s: State, **changes: Any) -> State:
    """``dataclasses.replace(s, **changes)`` without the generic machinery (the fast path makes
    a state per action): a new frozen value, ``s``'s fields with ``changes``."""
    new = object.__new__(State)
    for name in _FIELDS:
        _set_attr(new, name, changes[name] if name in changes else getattr(s, name))
    return new


def new_state(
    rules: PreferansRules,
    seats: tuple[str, ...],
    dealer: str,
    active: tuple[str, ...],
    streak: int,
    sheet: Sheet | None,
    hands: tuple[int, int, int],
    talon: tuple[int, int],
) -> State:
    """The deal before the first call: first hand speaks first (§3)."""
    return State(rules, seats, dealer, active, streak, sheet, hands, talon, hands)


# ---------------------------------------------------------------------------------------------
# what may be done


def auction_calls(s: State) -> list[str]:
    """§3: the calls of the player to speak (:func:`ladder_calls`)."""
    p = s.turn
    return ladder_calls(
        s.rules,
        exit_floor(s.rules, s.streak),
        p,
        s.misere_by,
        s.high,
        s.high_by,
        s.spoke[p],
        s.passed.count(False),
    )


def exit_floor(rules: PreferansRules, streak: int) -> int:
    """§8.4: the index in ``BIDS`` of the lowest bid the exit minimum allows after ``streak``
    raspasy in a row (5 strains a level)."""
    return 5 * (rules.exit_minimum(streak) - 6)


def ladder_calls(
    rules: PreferansRules,
    floor: int,
    p: int,
    misere_by: int,
    high: int,
    high_by: int,
    spoke: int,
    left: int,
) -> list[str]:
    """§3: the calls of player ``p`` (non-zero ``spoke``: he called before; ``left`` players
    have not passed; the highest call ranks ``high``, held by ``high_by``; ``misere_by``
    called misère), in ladder order: ``pass``; the contract bids above the highest call and
    from ``BIDS[floor]`` on (the exit minimum, :func:`exit_floor`; only the lowest of them
    without ``bid_jumps``); ``misere`` as a first call while the highest call ranks below it;
    ``hold`` of a contract bid held by a junior player (:func:`refuse_hold`). A misère caller
    may only pass. The validating path and the fast path (:mod:`engine.rules.preferans.fast`)
    both ask this."""
    if p == misere_by:
        return ["pass"]
    first = high // 2 + 1  # the first bid above the highest call
    if first < floor:
        first = floor
    bids = BIDS[first:] if rules.bid_jumps else BIDS[first : first + 1]
    misere = MISERE_RANK[rules.misere_rank]
    if not spoke and high < misere:
        cut = (misere + 1) // 2 - first  # the bids below misère
        if cut <= 0:
            out = ["pass", "misere", *bids]
        else:
            out = ["pass", *bids[:cut], "misere", *bids[cut:]]
    else:
        out = ["pass", *bids]
    if high_by > p and refuse_hold(rules, high, high_by, p, left) is None:
        out.append("hold")
    return out


def _level(bid: str) -> int:
    """The level of a contract bid: ``7`` of ``7NT``."""
    return 6 + BIDS.index(bid) // 5


def hold_refusal(s: State, p: int) -> Message | None:
    """Why player ``p`` may not ``hold`` now (§3, :func:`refuse_hold`), or None when he may."""
    return refuse_hold(s.rules, s.high, s.high_by, p, s.passed.count(False))


def refuse_hold(
    rules: PreferansRules, high: int, high_by: int, p: int, left: int
) -> Message | None:
    """Why player ``p`` may not ``hold`` the highest call (rank ``high``, held by
    ``high_by``) with ``left`` players not passed (§3: the refusal, its one field ``seat``),
    or None when he may."""
    if rules.hold == "none":
        return m.HOLD_NOT_PLAYED
    if high < 0:
        return m.HOLD_NO_BID
    if high % 2:
        return m.HOLD_MISERE
    if high_by <= p:
        return m.HOLD_SENIOR_ONLY
    if rules.hold == "two_left" and left != 2:
        return m.HOLD_TWO_LEFT
    return None


def discards(s: State) -> list[Discard]:
    """§4: every pair of the declarer's 12 cards, each pair and the pairs in Preferans card
    order (§13)."""
    cards = sorted(cards_of(s.hands[s.declarer]), key=card_key)
    seat = s.active[s.declarer]
    return [Discard(seat, 1 << a | 1 << b) for a, b in combinations(cards, 2)]


def declares(s: State) -> list[Declare]:
    """§4: every contract not below the winning bid (never misère)."""
    seat = s.active[s.declarer]
    first = s.high // 2
    return [Declare(seat, 6 + i // 5, STRAINS[i % 5]) for i in range(first, len(BIDS))]


def whist_calls(s: State) -> list[str]:
    """§5: the calls of the defender to speak (:func:`defence_calls`)."""
    first, second = s.defenders
    return defence_calls(s.rules, s.level or 0, s.turn, first, second, s.defence)


def defence_calls(
    rules: PreferansRules, level: int, p: int, first: int, second: int, defence: Sequence[str]
) -> list[str]:
    """§5: the calls of defender ``p`` (``defence``: each player's call so far): ``whist`` or
    ``pass``; the second defender also ``half`` after the first passed, on a 6 or a 7 with
    ``half_whist``. The validating and the fast path both ask this."""
    if refuse_half(rules, level, p, first, second, defence) is None:
        return ["whist", "pass", "half"]
    return ["whist", "pass"]


def half_refusal(s: State, p: int) -> Message | None:
    """Why player ``p`` may not call ``half`` now (§5.2, :func:`refuse_half`), or None."""
    first, second = s.defenders
    return refuse_half(s.rules, s.level or 0, p, first, second, s.defence)


def refuse_half(
    rules: PreferansRules, level: int, p: int, first: int, second: int, defence: Sequence[str]
) -> Message | None:
    """Why defender ``p`` may not call ``half`` on a contract of ``level`` (§5.2: the refusal,
    its one field ``seat``), or None when he may."""
    if p != second or defence[second]:
        return m.HALF_SECOND_ONLY
    if defence[first] != "pass":
        return m.HALF_FIRST_WHISTED
    if level > 7:
        return m.HALF_LEVEL
    if not rules.half_whist:
        return m.HALF_NOT_PLAYED
    return None


def card_mask(s: State) -> int:
    """§6.2: the cards the hand due may play: follow the led suit; void, a trump if held; else
    any card. No duty to beat the trick."""
    return legal_cards(s.order, s.hands[s.turn], [c for _, c in s.trick], FOLLOW_TRUMP)


def legal(s: State) -> list[Action]:
    """Every action due now, in the order §13 lists them (calls, discard pairs, contracts,
    whist calls, modes, cards in Preferans order); the actions' ``seat`` is the hand they are
    about."""
    if s.is_over:
        return []
    seat = s.active[s.turn]
    if s.phase == AUCTION:
        return [Call(seat, c) for c in auction_calls(s)]
    if s.phase == DISCARD:
        return list(discards(s))
    if s.phase == DECLARE:
        return list(declares(s))
    if s.phase == WHIST:
        return [Whist(seat, c) for c in whist_calls(s)]
    if s.phase == MODE:
        return [Mode(seat, "open"), Mode(seat, "closed")]
    return [PlayCard(seat, c) for c in sorted(cards_of(card_mask(s)), key=card_key)]


# ---------------------------------------------------------------------------------------------
# what happens


def apply(s: State, action: Action) -> State:
    """The deal after ``action`` (validated; refusals name the rule)."""
    if s.is_over:
        raise m.DEAL_OVER.error("")
    seat = action.seat
    if seat not in s.seats:
        raise m.NO_SUCH_SEAT.error("", seat=repr(seat))
    p = s.player(seat)
    if p is None:
        raise m.DEALER_SITS_OUT.error("", seat=seat)
    if p != s.turn:
        raise m.NOT_YOUR_TURN[s.phase].error("", due=s.active[s.turn], seat=seat)
    s = _with(s, history=(*s.history, action))
    if s.phase == AUCTION and isinstance(action, Call):
        return _call(s, p, action.call)
    if s.phase == DISCARD and isinstance(action, Discard):
        return _discard(s, p, action.cards)
    if s.phase == DECLARE and isinstance(action, Declare):
        return _declare(s, action)
    if s.phase == WHIST and isinstance(action, Whist):
        return _whist(s, p, action.call)
    if s.phase == MODE and isinstance(action, Mode):
        return _start_play(_with(s, mode=action.mode))
    if s.phase == PLAY and isinstance(action, PlayCard):
        return _play(s, p, action.card)
    raise m.WRONG_ACTION[s.phase].error("", seat=seat)


def _call(s: State, p: int, call: str) -> State:
    allowed = auction_calls(s)
    if call not in allowed:
        raise _call_refusal(s, p, call, allowed)
    spoke = _set(s.spoke, p, True)
    if call == "pass":
        s = _with(s, passed=_set(s.passed, p, True), spoke=spoke)
    elif call == "hold":
        s = _with(s, high_by=p, spoke=spoke)
    else:
        misere_by = p if call == "misere" else s.misere_by
        s = _with(s, high=bid_rank(call, s.rules), high_by=p, spoke=spoke, misere_by=misere_by)
    left = [q for q in range(3) if not s.passed[q]]
    if not left:
        return _start_play(_with(s, game="raspasy", turn=0))
    if len(left) == 1 and s.high_by == left[0]:
        return _won(s, left[0])
    return _with(s, turn=next(q % 3 for q in range(p + 1, p + 4) if not s.passed[q % 3]))


def _call_refusal(s: State, p: int, call: str, allowed: list[str]) -> EngineError:
    """Why player ``p`` may not make ``call`` (not in ``allowed``), to raise."""
    seat = s.active[p]
    if p == s.misere_by:
        return m.MISERE_ONLY_PASS.error("", seat=seat)
    if call == "hold":
        why = hold_refusal(s, p)
        assert why is not None, "hold is refused only for a reason"
        return why.error("", seat=seat)
    if call == "misere":
        if s.spoke[p]:
            return m.MISERE_FIRST_CALL_ONLY.error("", seat=seat)
        return m.MISERE_OVER_HIGHER.error("", seat=seat)
    minimum = s.rules.exit_minimum(s.streak)
    if _level(call) < minimum:
        return m.BID_BELOW_EXIT.error("", seat=seat, call=call, streak=s.streak, minimum=minimum)
    bids = [c for c in allowed if c not in ("pass", "misere", "hold")]
    if bid_rank(call, s.rules) > s.high and bids:
        return m.BID_ONE_STEP.error("", seat=seat, call=call, next=bids[0])
    return m.BID_NOT_HIGHER.error("", seat=seat, call=call)


def _won(s: State, p: int) -> State:
    """§4: the declarer takes the talon, which is turned face up for all."""
    game = "misere" if s.high % 2 else "contract"
    talon = 1 << s.talon[0] | 1 << s.talon[1]
    hands = _set(s.hands, p, s.hands[p] | talon)
    return _with(s, game=game, declarer=p, turn=p, hands=hands, phase=DISCARD)


def _discard(s: State, p: int, cards: int) -> State:
    if cards.bit_count() != 2 or cards & ~s.hands[p]:
        held = " ".join(codes(s.hands[p]))
        raise m.DISCARD_FROM_HAND.error("", seat=s.active[p], cards=held)
    s = _with(s, hands=_set(s.hands, p, s.hands[p] & ~cards), discard=cards)
    if s.game == "misere":
        return _start_play(s)
    return _with(s, phase=DECLARE)


def _declare(s: State, action: Declare) -> State:
    bid = f"{action.level}{action.strain}"
    if 2 * BIDS.index(bid) < s.high:
        won = BIDS[s.high // 2]
        raise m.DECLARE_BELOW_BID.error("", seat=action.seat, bid=bid, won=won)
    s = _with(s, level=action.level, strain=action.strain)
    if s.checked:
        return _start_play(s)
    return _with(s, phase=WHIST, turn=s.defenders[0])


def _whist(s: State, p: int, call: str) -> State:
    seat = s.active[p]
    if call not in whist_calls(s):
        why = half_refusal(s, p) if call == "half" else None
        if why is None:  # not a call of §5 at all
            raise m.WHIST_UNKNOWN.error("", value=repr(call))
        raise why.error("", seat=seat)
    first, second = s.defenders
    if p == first and s.defence[second] == "half":  # the return of a half-whist (§5.3)
        if call == "whist":
            defence = _set(_set(s.defence, first, "whist"), second, "pass")
            return _with(s, defence=defence, phase=MODE, turn=first)
        return _with(s, defence=_set(s.defence, first, "pass"), phase=DONE, turn=-1)
    s = _with(s, defence=_set(s.defence, p, call))
    if p == first:
        return _with(s, turn=second)
    if call == "half":
        return _with(s, turn=first)
    whisters = [q for q in (first, second) if s.defence[q] == "whist"]
    if not whisters:
        return _with(s, phase=DONE, turn=-1)
    if len(whisters) == 1:
        return _with(s, phase=MODE, turn=whisters[0])
    return _start_play(s)


def _start_play(s: State) -> State:
    """§6.1, §8.1: first hand leads to trick 1, or the talon's first card on a talon-led
    raspasy."""
    s = _with(s, phase=PLAY, turn=0)
    if s.talon_lead:
        return _with(s, trick=((TALON, s.talon[0]),))
    return s


def _play(s: State, p: int, card: int) -> State:
    seat = s.active[p]
    hand = s.hands[p]
    if not hand >> card & 1:
        raise m.CARD_NOT_HELD.error("", seat=seat, card=PIQUET.code(card))
    mask = card_mask(s)
    if not mask >> card & 1:
        cards = [c for _, c in s.trick]
        raise obligation_refusal(PIQUET, s.order, hand, cards, mask, seat, FOLLOW_TRUMP)
    trick = (*s.trick, (p, card))
    s = _with(s, hands=_set(s.hands, p, hand & ~(1 << card)), trick=trick)
    if sum(1 for q, _ in trick if q != TALON) < 3:
        return _with(s, turn=(p + 1) % 3)
    winner = trick_winner(s, trick)
    won = tuple(n + (q == winner) for q, n in enumerate(s.won))
    played = s.played + 1
    s = _with(s, won=(won[0], won[1], won[2], won[3]), played=played, last=trick, trick=())
    if played == 10:
        return _with(s, phase=DONE, turn=-1)
    if s.talon_lead and played == 1:
        return _with(s, trick=((TALON, s.talon[1]),), turn=0)
    if s.talon_lead and played == 2:
        return _with(s, turn=0)
    return _with(s, turn=winner)


def trick_winner(s: State, trick: tuple[tuple[int, int], ...]) -> int:
    """§6.2, §8.1: the highest trump, else the highest card of the led suit; a trick led by a
    talon card as :func:`talon_trick_winner` says."""
    order = s.order
    cards = [c for q, c in trick]
    if trick[0][0] == TALON:
        return trick[talon_trick_winner(order, cards, len(s.seats) == 4)][0]
    best_i = 0
    for i in range(1, len(cards)):
        if order.beats(cards[i], cards[best_i]):
            best_i = i
    return trick[best_i][0]


def talon_trick_winner(order: CardOrder, cards: Sequence[int], four: bool) -> int:
    """§8.1: the index in ``cards`` (the talon card first, then the players' in play order)
    of the card that takes a talon-led trick. The talon card names the led suit; with four
    seats it is the dealer's card and wins when it is the highest of its suit (the dealer's
    trick), with three only the players' cards take it."""
    if four:
        return best_card(order, cards)
    led = order.suit_of[cards[0]]
    best = max((c for c in cards[1:] if order.suit_of[c] == led), default=-1)
    return cards.index(best)


def _set(values: tuple[T, ...], i: int, value: T) -> Any:
    """``values`` with entry ``i`` replaced (a tuple of the same length)."""
    return (*values[:i], value, *values[i + 1 :])


# ---------------------------------------------------------------------------------------------
# the outcome


def outcome(s: State) -> DealOutcome:
    """The finished deal as the score sheet records it (§13, :func:`deal_outcome`)."""
    if not s.is_over:
        raise m.DEAL_UNFINISHED[s.phase].error("actions", due=s.active[s.turn])
    return deal_outcome(
        s.rules,
        s.seats,
        s.dealer,
        s.active,
        s.streak,
        s.sheet,
        s.game,
        s.level,
        s.strain,
        s.declarer,
        s.defence,
        s.mode,
        s.won,
        s.played,
    )


def deal_outcome(
    rules: PreferansRules,
    seats: tuple[str, ...],
    dealer: str,
    active: tuple[str, ...],
    streak: int,
    sheet: Sheet | None,
    game: str | None,
    level: int | None,
    strain: str | None,
    declarer: int,
    defence: Sequence[str],
    mode: str | None,
    won: Sequence[int],
    played: int,
) -> DealOutcome:
    """A finished deal as the score sheet records it (§13): the defenders' calls of a whisted
    contract (not of a checked ten), the lone whister's mode (not with a half-whist), the
    tricks of every participant when cards were played (the sitting-out dealer's on a
    talon-led raspasy with four seats). The validating and the fast path both end here."""
    contract = game == "contract"
    calls = None
    chosen = None
    if contract and not (level == 10 and not rules.ten_whisted):
        first, second = (declarer + 1) % 3, (declarer + 2) % 3
        calls = {active[first]: defence[first], active[second]: defence[second]}
        if (defence[first] == "whist") != (defence[second] == "whist") and "half" not in (
            defence[first],
            defence[second],
        ):
            chosen = mode
    tricks: dict[str, int] = {}
    if played:
        tricks = {active[0]: won[0], active[1]: won[1], active[2]: won[2]}
        if game == "raspasy" and rules.raspasy_talon == "lead" and len(seats) == 4:
            tricks[dealer] = won[TALON]
    return DealOutcome(
        rules,
        seats,
        dealer,
        streak,
        sheet,
        game or "raspasy",
        level if contract else None,
        strain if contract else None,
        active[declarer] if declarer >= 0 else None,
        calls,
        chosen,
        tricks,
    )


__all__ = [
    "AUCTION",
    "DECLARE",
    "DISCARD",
    "DONE",
    "MODE",
    "PHASES",
    "PLAY",
    "STRAINS",
    "TALON",
    "WHIST",
    "State",
    "apply",
    "auction_calls",
    "bid_rank",
    "legal",
    "new_state",
    "outcome",
]
