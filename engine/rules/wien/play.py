"""The moves of a ``wien`` hand: :func:`new_hand`, :func:`legal_actions`, :func:`apply`.

``apply`` always validates: an action that is not in ``legal_actions`` raises
:class:`engine.errors.IllegalAction` with a sentence naming the rule. Everything cites
``spec/wien.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from engine.actions import Action, Call, Declare, Defence, Discard, PlayCard
from engine.cards import PIQUET, cards_of
from engine.errors import EngineError, IllegalAction
from engine.rules.wien import messages as m
from engine.rules.wien.actions import Accept, GeschaeftSuit, Look, Negotiate
from engine.rules.wien.rules import (
    CALL_RANK,
    MISERE_LEVELS,
    NUMBER_CALLS,
    PREMIUM_CALLS,
    WienRules,
    premium_rank,
)
from engine.rules.wien.state import Game, Phase, State, evolve
from engine.solver.position import FEWEST, MISERE, MOST, SLAM, Position
from engine.table import Dealing, TableShape
from engine.tricks import (
    HEAD,
    HEAD_LOW,
    CardOrder,
    Obligations,
    legal_cards,
    obligation_refusal,
    suit_order,
    trick_winner,
)

SUITS = "CSDH"

TABLE = TableShape(seats=(3, 4), players=3, reserved=("pot", "talon"))
"""wien.md, "Table": 3 players; with 4 the dealer sits out. ``pot`` and ``talon`` are names in
records, so no seat may take them."""

DEALING = Dealing(((3, ""), (2, "talon"), (4, ""), (3, "")))
"""wien.md, "Deal": 3 cards to each active player (forehand first), 2 to the talon, 4 each, 3
each."""

ORDERS: dict[int | None, CardOrder] = {t: suit_order(PIQUET, t) for t in (None, 0, 1, 2, 3)}
"""How the cards rank: by suit and rank, with the declared trump suit or none."""


def active_seats(seats: Sequence[str], dealer: str) -> tuple[str, str, str]:
    """Forehand, middlehand, rearhand: the three seats after the dealer (wien.md, "Table")."""
    a = TABLE.active(seats, dealer)
    return (a[0], a[1], a[2])


def check_pot(pot: object) -> int:
    """wien.md, "Stakes": a record's pot is a non-negative multiple of 10 cents."""
    if type(pot) is not int or pot < 0 or pot % 10:
        raise m.POT.error("pot", pot=repr(pot))
    return pot


def check_table(seats: object, dealer: object, pot: object) -> tuple[str, ...]:
    """Validate the common part of a record: 3 or 4 unique seat names, the dealer among
    them, a pot that is a non-negative multiple of 10 cents."""
    out = TABLE.check(seats, dealer)
    check_pot(pot)
    return out


def new_hand(
    rules: WienRules,
    seats: Sequence[str],
    dealer: str,
    pot: int,
    deal: Mapping[str, int],
) -> State:
    """A hand ready for the first call. ``deal`` maps each active seat and ``"talon"`` to a
    card mask: ten cards each and two in the talon, 32 distinct cards (wien.md, "Deal")."""
    seat_tuple = check_table(list(seats), dealer, pot)
    active = active_seats(seat_tuple, dealer)
    DEALING.check(PIQUET, active, deal)
    hands = (deal[active[0]], deal[active[1]], deal[active[2]])
    return State(
        rules=rules,
        seats=seat_tuple,
        dealer=dealer,
        pot_before=pot,
        active=active,
        deal=(*hands, deal["talon"]),
        hands=hands,
        talon=deal["talon"],
        phase=Phase.AUCTION,
        to_act=0,
    )


# ---------------------------------------------------------------------------------------------
# legal actions


def legal_actions(state: State) -> list[Action]:
    """Every action the player to act may take, in a stable order; empty when the hand is
    over."""
    p = state.to_act
    if p is None or state.phase is Phase.DONE:
        return []
    seat = state.active[p]
    phase = state.phase
    if phase is Phase.AUCTION:
        return [Call(seat, c) for c in _legal_calls(state, p)]
    if phase is Phase.GESCHAEFT:
        return [GeschaeftSuit(seat, s) for s in _legal_geschaeft_suits(state)]
    if phase is Phase.TALON:
        return [
            Discard(seat, (1 << a) | (1 << b)) for a, b in combinations(cards_of(state.hands[p]), 2)
        ]
    if phase is Phase.DECLARE:
        return [Declare(seat, kind, level) for kind, level in _legal_declarations(state)]
    if phase is Phase.LOOK:
        return [Look(seat, False), Look(seat, True)]
    if phase is Phase.DEFENCE:
        choices = ("play", "home") if state.pot_before else ("play",)
        return [Defence(seat, c) for c in choices]
    if phase is Phase.INVITE:
        return [Defence(seat, "invite"), Defence(seat, "alone")]
    # PLAY
    if state.offer is not None:
        out: list[Action] = [Accept(seat, True), Accept(seat, False)]
        if state.offers == 1:
            out += [Negotiate(seat, 10 - n, n) for n in (2, 3, 4)]
        return out
    out = [PlayCard(seat, c) for c in cards_of(_legal_card_mask(state, p))]
    if _may_propose(state, p):
        out += [Negotiate(seat, 10 - n, n) for n in (2, 3, 4)]
    return out


def _legal_calls(state: State, p: int) -> list[str]:
    """wien.md, "Auction": pass; the next number bid while nothing above 4 was called; hold for
    the holder over another's number bid; Geschäft, herz and premium calls as a first call,
    strictly higher (Geschäft also on a Geschäft)."""
    calls = ["pass"]
    high = state.high
    rank = CALL_RANK[high] if high else 0
    first = not state.called >> p & 1
    if rank <= 4 and state.number < 4:
        calls.append(NUMBER_CALLS[state.number])
    if high in NUMBER_CALLS and state.high_by != p and state.holder == p:
        calls.append("hold")
    if first:
        if rank < CALL_RANK["geschaeft"] or high == "geschaeft":
            calls.append("geschaeft")
        calls += [c for c in ("herz", *PREMIUM_CALLS) if CALL_RANK[c] > rank]
    return calls


def _legal_geschaeft_suits(state: State) -> list[str]:
    """wien.md, "Auction" case 3: the first names C, S or D; each later caller a strictly higher
    suit or pass."""
    if state.gs_next == 0:
        return ["C", "S", "D"]
    best = state.gs_best if state.gs_best is not None else -1
    return [SUITS[s] for s in range(best + 1, 3)] + ["pass"]


def _legal_declarations(state: State) -> list[tuple[str, str | int]]:
    """wien.md, "Talon, declaration": at least the winning call; a raise after Nachschauen is a
    strictly higher non-hand premium game."""
    premiums: list[tuple[str, str | int]] = [("premium", k) for k in (5, 6, 7, 8)]
    if state.raising:
        assert state.game is not None
        rank = state.game.rank
        return [("premium", k) for k in (5, 6, 7, 8) if premium_rank(k, False) > rank]
    high = state.high
    if high == "geschaeft":
        return [("suit", s) for s in "CSD"]
    if high in NUMBER_CALLS:
        n = int(high)
        return [("suit", SUITS[i]) for i in range(n - 1, 4)] + premiums
    assert high is not None
    k = int(high[0])
    return [("premium", j) for j in (5, 6, 7, 8) if j >= k]


def duty(state: State, p: int) -> Obligations:
    """wien.md, "Card play": every player must follow, trump and beat the trick (rules 1-3);
    the defender bound by Largierpflicht beats with the lowest card that does."""
    return HEAD_LOW if p == state.largier_player else HEAD


def play_terms(
    game: Game | None, declarer: int | None, to_act: int, playing: int
) -> tuple[int, str, tuple[Obligations, ...]]:
    """Whose tricks count, what they want, and each player's obligations, in a game's card
    play: suit games (the declarer's most tricks; Largierpflicht when both defenders play),
    premium games (a misère 5 or 7 ends at the declarer's first trick, a slam 6 or 8 at his
    first lost) and Ausfechten seen from the player to move (his fewest tricks, the others
    against him)."""
    if game is None or game.kind == "ausfechten" or declarer is None:
        return to_act, FEWEST, (HEAD, HEAD, HEAD)
    if game.kind == "premium":
        return declarer, MISERE if game.level in MISERE_LEVELS else SLAM, (HEAD, HEAD, HEAD)
    largier = (declarer + 1) % 3 if playing == 0b111 else -1
    return declarer, MOST, tuple(HEAD_LOW if q == largier else HEAD for q in range(3))


def card_play(state: State) -> Position | None:
    """The card play for the solver (:func:`play_terms`); ``None`` outside card play or
    while a split is proposed."""
    if state.phase is not Phase.PLAY or state.offer is not None or state.to_act is None:
        return None
    side, goal, duties = play_terms(state.game, state.declarer, state.to_act, state.playing)
    return Position(
        deck=PIQUET,
        seats=state.active,
        hands=state.hands,
        trick=state.trick,
        to_act=state.to_act,
        playing=state.playing,
        order=ORDERS[state.trump],
        duty=duties,
        side=1 << side,
        won=state.won[side],
        goal=goal,
    )


def _legal_card_mask(state: State, p: int) -> int:
    trick = [c for _, c in state.trick]
    return legal_cards(ORDERS[state.trump], state.hands[p], trick, duty(state, p))


def _may_propose(state: State, p: int) -> bool:
    """Aushandeln (wien.md): the declarer, before leading to the first trick, when only the
    declarer and one defender play (no invitation), and no proposal was made yet."""
    return (
        p == state.declarer
        and state.tricks_done == 0
        and not state.trick
        and state.offers == 0
        and not state.bargain_closed
        and state.playing.bit_count() == 2
    )


# ---------------------------------------------------------------------------------------------
# apply


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises :class:`IllegalAction` (or :class:`NotYourTurn`) with
    the rule in words when the rules do not allow it."""
    if action not in legal_actions(state):
        raise _refusal(state, action)
    p = state.to_act
    assert p is not None
    state = evolve(state, history=(*state.history, action))
    match action:
        case Call():
            return _apply_call(state, p, action.call)
        case GeschaeftSuit():
            return _apply_geschaeft_suit(state, p, action.suit)
        case Discard():
            hands = _set(state.hands, p, state.hands[p] & ~action.cards)
            return evolve(
                state, hands=hands, talon=action.cards, talon_known=1 << p, phase=Phase.DECLARE
            )
        case Declare():
            return _fix_game(state, p, _declared_game(state, action))
        case Look():
            return _apply_look(state, p, action.look)
        case Defence():
            return _apply_defence(state, p, action.choice)
        case Negotiate():
            other = _bargain_partner(state, p)
            return evolve(
                state,
                offer=(p, action.declarer, action.defender),
                offers=state.offers + 1,
                to_act=other,
            )
        case Accept():
            return _apply_accept(state, p, action.accept)
        case PlayCard():
            return _apply_card(state, p, action.card)
    raise AssertionError(action)  # pragma: no cover


def _set(t: tuple[int, int, int], i: int, v: int) -> tuple[int, int, int]:
    out = list(t)
    out[i] = v
    return (out[0], out[1], out[2])


def _apply_call(state: State, p: int, call: str) -> State:
    bit = 1 << p
    if call == "pass":
        state = evolve(state, passed=state.passed | bit)
    elif call == "hold":
        state = evolve(state, called=state.called | bit, high_by=p)
    elif call in NUMBER_CALLS:
        state = evolve(state, called=state.called | bit, high=call, high_by=p, number=int(call))
    elif call == "geschaeft":
        state = evolve(
            state,
            called=state.called | bit,
            high=call,
            high_by=p,
            geschaeft_by=(*state.geschaeft_by, p),
        )
    else:  # herz and premium calls; without "h" the caller sees the talon at once
        look = bit if call in PREMIUM_CALLS and not call.endswith("h") else 0
        state = evolve(
            state,
            called=state.called | bit,
            high=call,
            high_by=p,
            talon_seen=state.talon_seen | look,
            talon_known=state.talon_known | look,
        )
    return _after_call(state, p)


def _after_call(state: State, p: int) -> State:
    """End of the auction (wien.md, "Turns") or the next caller."""
    left = [q for q in range(3) if not state.passed >> q & 1]
    if not left:
        return _start_play(evolve(state, game=Game("ausfechten"), declarer=None), leader=2)
    if len(left) == 1 and state.called >> left[0] & 1:
        return _auction_won(state, left[0])
    if state.high == "geschaeft" and len(left) >= 2 and all(q in state.geschaeft_by for q in left):
        return evolve(state, phase=Phase.GESCHAEFT, to_act=state.geschaeft_by[0])
    for k in (1, 2, 3):
        q = (p + k) % 3
        if state.passed >> q & 1:
            continue
        if state.high == "geschaeft" and q in state.geschaeft_by:
            continue  # standing on Geschäft
        return evolve(state, to_act=q)
    raise AssertionError("no caller left")  # pragma: no cover


def _auction_won(state: State, winner: int) -> State:
    high = state.high
    assert high is not None
    state = evolve(state, declarer=winner)
    if high == "geschaeft":
        return evolve(state, phase=Phase.DECLARE, to_act=winner)
    if high == "herz":
        return _fix_game(state, winner, Game("suit", "H", talon=False))
    if high.endswith("h"):
        return _fix_game(state, winner, Game("premium", int(high[0]), talon=False, hand=True))
    return _take_talon(state, winner)


def _take_talon(state: State, p: int) -> State:
    hands = _set(state.hands, p, state.hands[p] | state.talon)
    seen = state.talon_seen | (1 << p if state.talon == state.deal[3] else 0)
    return evolve(
        state, hands=hands, talon=0, talon_seen=seen, talon_known=0b111, phase=Phase.TALON, to_act=p
    )


def _apply_geschaeft_suit(state: State, p: int, suit: str) -> State:
    if suit != "pass":
        state = evolve(state, gs_best=SUITS.index(suit), gs_best_by=p)
    nxt = state.gs_next + 1
    if nxt < len(state.geschaeft_by):
        return evolve(state, gs_next=nxt, to_act=state.geschaeft_by[nxt])
    assert state.gs_best is not None and state.gs_best_by is not None
    winner, best = state.gs_best_by, state.gs_best
    state = evolve(state, gs_next=nxt, declarer=winner)
    return _fix_game(state, winner, Game("suit", SUITS[best], talon=False))


def _declared_game(state: State, action: Declare) -> Game:
    if action.kind == "premium":
        return Game("premium", action.level, talon=True, hand=False)
    return Game("suit", action.level, talon=state.high != "geschaeft" or state.raising)


def _fix_game(state: State, declarer: int, game: Game) -> State:
    """The game is named: Nachschauen starts (wien.md, "Talon, declaration, Nachschauen")."""
    state = evolve(state, game=game, declarer=declarer, raising=False)
    return _next_look(state, _look_round(state))


def _look_round(state: State) -> tuple[int, ...]:
    """Who is asked to look, in playing order from the player after the declarer: every other
    player who made a call other than pass, while a higher non-hand premium game exists."""
    assert state.game is not None and state.declarer is not None
    if state.game.rank >= premium_rank(8, False):
        return ()
    d = state.declarer
    return tuple(q for q in ((d + 1) % 3, (d + 2) % 3) if state.called >> q & 1)


def _next_look(state: State, queue: tuple[int, ...]) -> State:
    if queue:
        return evolve(state, phase=Phase.LOOK, look_queue=queue, to_act=queue[0])
    return _start_defence(evolve(state, look_queue=()))


def _apply_look(state: State, p: int, look: bool) -> State:
    if not look:
        return _next_look(state, state.look_queue[1:])
    state = evolve(state, declarer=p, raising=True, look_queue=())
    return _take_talon(state, p)


def _start_defence(state: State) -> State:
    """Suit games ask each defender to play or stay home; premium games are played by all
    (wien.md, "Defence")."""
    assert state.game is not None and state.declarer is not None
    if state.game.kind == "premium":
        return _start_play(state, leader=state.declarer)
    return evolve(state, phase=Phase.DEFENCE, to_act=(state.declarer + 1) % 3)


def _apply_defence(state: State, p: int, choice: str) -> State:
    d = state.declarer
    assert d is not None
    if state.phase is Phase.INVITE:
        if choice == "invite":
            other = 3 - d - p
            return _start_play(
                evolve(
                    state, defence=_set_str(_set_str(state.defence, p, "invite"), other, "invited")
                ),
                leader=d,
            )
        return _start_play(evolve(state, playing=(1 << d) | (1 << p)), leader=d)
    defence = _set_str(state.defence, p, choice)
    state = evolve(state, defence=defence)
    if p == (d + 1) % 3:
        return evolve(state, to_act=(d + 2) % 3)
    players = [q for q in range(3) if defence[q] == "play"]
    if not players:
        return evolve(state, phase=Phase.DONE, to_act=None, end="both_home", playing=1 << d)
    if len(players) == 1:
        return evolve(state, phase=Phase.INVITE, to_act=players[0])
    return _start_play(state, leader=d)


def _set_str(
    t: tuple[str | None, str | None, str | None], i: int, v: str
) -> tuple[str | None, str | None, str | None]:
    out = list(t)
    out[i] = v
    return (out[0], out[1], out[2])


def _start_play(state: State, leader: int) -> State:
    return evolve(state, phase=Phase.PLAY, to_act=leader)


def _bargain_partner(state: State, p: int) -> int:
    d = state.declarer
    assert d is not None
    if p != d:
        return d
    return next(q for q in range(3) if q != d and state.playing >> q & 1)


def _apply_accept(state: State, p: int, accept: bool) -> State:
    assert state.offer is not None and state.declarer is not None
    _, dec, den = state.offer
    d = state.declarer
    if not accept:
        return evolve(state, offer=None, bargain_closed=True, to_act=d)
    defender = _bargain_partner(state, d)
    won = _set(_set((0, 0, 0), d, dec), defender, den)
    return evolve(state, won=won, phase=Phase.DONE, to_act=None, end="negotiated")


def _apply_card(state: State, p: int, card: int) -> State:
    hands = _set(state.hands, p, state.hands[p] & ~(1 << card))
    trick = (*state.trick, (p, card))
    if len(trick) < state.playing.bit_count():
        nxt = next(q for q in ((p + 1) % 3, (p + 2) % 3) if state.playing >> q & 1)
        return evolve(state, hands=hands, trick=trick, to_act=nxt)
    w = trick[trick_winner(ORDERS[state.trump], [c for _, c in trick])][0]
    won = _set(state.won, w, state.won[w] + 1)
    done = state.tricks_done + 1
    state = evolve(
        state, hands=hands, trick=(), won=won, tricks_done=done, to_act=w, last_trick=trick
    )
    g = state.game
    assert g is not None
    if g.kind == "premium" and ((w == state.declarer) == (g.level in MISERE_LEVELS)):
        return evolve(state, phase=Phase.DONE, to_act=None, end="early" if done < 10 else "played")
    if done == 10:
        return evolve(state, phase=Phase.DONE, to_act=None, end="played")
    return state


# ---------------------------------------------------------------------------------------------
# explaining a refusal


def _refusal(state: State, action: Action) -> IllegalAction:
    seat = action.seat
    if state.phase is Phase.DONE:
        return _illegal(m.HAND_OVER.error(""))
    if seat not in state.seats:
        return _illegal(m.NO_SUCH_SEAT.error("", seat=repr(seat)))
    p = state.player(seat)
    if p is None:
        return _illegal(m.SITS_OUT.error("", seat=seat))
    if p != state.to_act:
        return _illegal(m.NOT_YOUR_TURN.error("", to_act=state.to_act_seat, seat=seat))
    asked = state.phase.value
    if state.phase is Phase.PLAY and state.offer is not None:
        asked = "offer"
    legal = legal_actions(state)
    if (
        isinstance(action, Negotiate)
        and state.phase is Phase.PLAY
        and not any(isinstance(a, Negotiate) for a in legal)
    ):
        return _illegal(m.NO_PROPOSAL.error(""))
    if not any(type(a) is type(action) for a in legal):
        return _illegal(m.NOT_NOW[asked].error("", seat=seat))
    match action:
        case Call():
            return _why_call(state, p, action.call)
        case PlayCard():
            return _why_card(state, p, action.card)
        case Discard():
            cards = " ".join(state.deck.codes_of(state.hands[p]))
            return _illegal(m.DISCARD_FROM_HAND.error("", seat=seat, cards=cards))
        case Defence():
            if action.choice == "home" and state.phase is Phase.DEFENCE:
                return _illegal(m.NOBODY_HOME.error(""))
            return _illegal(m.MUST[asked].error("", seat=seat))
        case Negotiate():
            if state.offers >= 2 or (state.offer is None and not _may_propose(state, p)):
                return _illegal(m.NO_PROPOSAL.error(""))
            return _illegal(m.SPLIT_TERMS.error(""))
    names = ", ".join(_describe(a, state) for a in legal)
    return _illegal(m.MUST_ONE_OF[asked].error("", seat=seat, legal=names))


def _illegal(error: EngineError) -> IllegalAction:
    """A refusal of wien's, all of them :class:`IllegalAction` (``NotYourTurn`` included)."""
    assert isinstance(error, IllegalAction)
    return error


def _describe(action: Action, state: State) -> str:
    match action:
        case GeschaeftSuit():
            return action.suit
        case Declare():
            return f"{action.kind} {action.level}"
        case Defence():
            return action.choice
    return str(action)


def _why_call(state: State, p: int, call: str) -> IllegalAction:
    seat = state.active[p]
    high = state.high
    rank = CALL_RANK[high] if high else 0
    if call in NUMBER_CALLS:
        if rank > 4:
            return _illegal(m.NO_NUMBER_AFTER.error("", high=high))
        if state.number >= 4:
            return _illegal(m.FOUR_IS_HIGHEST.error(""))
        return _illegal(m.NEXT_NUMBER.error("", next=state.number + 1, call=call))
    if call == "hold":
        holder = state.active[state.holder]
        if state.holder != p:
            return _illegal(m.ONLY_HOLDER.error("", holder=holder))
        if high not in NUMBER_CALLS:
            return _illegal(m.NOTHING_TO_HOLD.error(""))
        return _illegal(m.HOLDS_HIGHEST.error("", seat=seat))
    if state.called >> p & 1:
        return _illegal(m.FIRST_CALL_ONLY.error("", call=call, seat=seat))
    return _illegal(m.CALL_NOT_HIGHER.error("", call=call, high=high))


def _why_card(state: State, p: int, card: int) -> IllegalAction:
    seat = state.active[p]
    code = state.deck.code(card)
    if not state.hands[p] >> card & 1:
        return _illegal(m.CARD_NOT_HELD.error("", seat=seat, card=code))
    trick = [c for _, c in state.trick]
    legal = _legal_card_mask(state, p)
    return obligation_refusal(
        state.deck, ORDERS[state.trump], state.hands[p], trick, legal, seat, duty(state, p)
    )
