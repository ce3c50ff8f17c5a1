"""Invariants over random hands (Hypothesis): whatever is dealt and whatever legal moves are
made, the engine keeps the promises a server, a bot and a client rely on.

A hand is drawn as a table (3 or 4 seats, dealer, stakes, pot, house-rule options), a deck
order dealt as ``spec/wien.md`` "Deal" says, and a move policy with a seed:

- ``uniform``: any legal action, equally likely (mostly ends in premium games raised by
  Nachschauen, but reaches odd corners);
- ``bot``: ``engine.bots.random_bot.choose``, biased like real players (most pass, few look);
- ``modest``: a random legal move that prefers passes, number bids, holding and Geschäft, and
  suit declarations, so talon suit games, invitations and Aushandeln occur often.

``test_random_play_reaches_every_kind_of_game`` checks that together they reach every kind
of game, so the properties are not vacuous. The properties together cover more than 2,000
random hands per run.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import PIQUET, IllegalAction, NotYourTurn
from engine.actions import Action, Call, Declare, Defence, Discard, PlayCard
from engine.bots.random_bot import choose as bot_choose
from engine.cards import cards_of, mask_of
from engine.rules.wien import ALL_CALLS, MISERE_LEVELS, Phase, State
from engine.rules.wien.actions import Accept, GeschaeftSuit, Look, Negotiate
from tests.cards import cards_in
from tests.draws import draws

NAMES = ("anna", "bert", "carl", "dave", "eva")
CONTRIBUTIONS = (10, 50, 100, 200)
CAP_MULTIPLES = (None, 1, 2, 3, 5)  # pot_cap = multiple * G, or no cap
POTS = (0, 10, 90, 100, 200, 300, 450, 1000, 5000)
WHY = {"dealer", "game", "tricks", "fall", "premium", "ausfechten"}

# ---------------------------------------------------------------------------------------------
# drawing and playing random hands


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]
    dealer: str
    rules: dict[str, Any]
    pot: int
    deck: tuple[str, ...]  # the order the cards are dealt in
    policy: str
    seed: int

    def record(self) -> dict[str, Any]:
        """The full record before the first call."""
        active = engine.active_seats(self.seats, self.dealer, variant="wien")
        return {
            "rules": dict(self.rules),
            "seats": list(self.seats),
            "dealer": self.dealer,
            "pot": self.pot,
            "deal": engine.deal_from_deck(list(self.deck), active, variant="wien"),
            "actions": [],
        }


@st.composite
def tables(draw: st.DrawFn, policies: tuple[str, ...] = ("uniform", "bot", "modest")) -> Table:
    n = draw(st.sampled_from((3, 4)))
    seats = tuple(draw(st.permutations(NAMES))[:n])
    g = draw(st.sampled_from(CONTRIBUTIONS))
    cap = draw(st.sampled_from(CAP_MULTIPLES))
    rules = {
        "variant": "wien",
        "dealer_contribution": g,
        "pot_cap": None if cap is None else cap * g,
        "holding_after_forehand": draw(st.sampled_from(("rearhand", "middlehand"))),
        "invitation_tricks": draw(st.sampled_from(("inviter", "each"))),
    }
    return Table(
        seats=seats,
        dealer=draw(st.sampled_from(seats)),
        rules=rules,
        pot=draw(st.sampled_from(POTS)),
        deck=tuple(draw(st.permutations(PIQUET.codes))),
        policy=draw(st.sampled_from(policies)),
        seed=draw(st.integers(0, 2**32 - 1)),
    )


def _uniform(state: State, rng: random.Random) -> Action:
    return rng.choice(engine.legal_actions(state))


def _modest(state: State, rng: random.Random) -> Action:
    """A random legal move leaning towards the suit games of an ordinary evening."""
    legal = engine.legal_actions(state)
    first = legal[0]
    if isinstance(first, Call):
        r = rng.random()
        if r < 0.45:
            return first  # pass
        modest = [
            a
            for a in legal
            if isinstance(a, Call) and a.call in ("1", "2", "3", "4", "hold", "geschaeft")
        ]
        if modest and r < 0.95:
            return rng.choice(modest)
    if isinstance(first, Look):
        return legal[1] if rng.random() < 0.05 else legal[0]
    if isinstance(first, Declare):
        suits = [a for a in legal if isinstance(a, Declare) and a.kind == "suit"]
        if suits and rng.random() < 0.85:
            return rng.choice(suits)
    return rng.choice(legal)


POLICIES: dict[str, Callable[[State, random.Random], Action]] = {
    "uniform": _uniform,
    "bot": bot_choose,
    "modest": _modest,
}


def play(table: Table, each_step: Callable[[State, random.Random], None] | None = None) -> State:
    """Play ``table``'s hand to the end with its policy; ``each_step`` sees every state before
    the hand is over (and may use the hand's random generator)."""
    rng = random.Random(table.seed)
    choose = POLICIES[table.policy]
    state = engine.replay(table.record())
    for _ in range(200):  # a hand has at most about 70 actions
        if state.phase is Phase.DONE:
            return state
        if each_step is not None:
            each_step(state, rng)
        state = engine.apply(state, choose(state, rng))
    raise AssertionError("the hand did not end")


def viewers(state: State) -> list[str | None]:
    """Everyone who can look at the table: the seats (the sitting-out dealer too) and a
    spectator (``None``)."""
    return [*state.seats, None]


# ---------------------------------------------------------------------------------------------
# checks


def check_balance(result: dict[str, Any], record: dict[str, Any]) -> None:
    """wien.md, "Check": players' changes plus the pot's change sum to zero; the transfers
    are the whole story."""
    pot_before = record["pot"]
    assert sum(result["delta"].values()) + result["pot"] - pot_before == 0
    assert set(result["delta"]) == set(record["seats"])
    delta = dict.fromkeys(record["seats"], 0)
    pot = pot_before
    for t in result["transfers"]:
        assert t["amount"] > 0 and t["why"] in WHY
        assert t["from"] != t["to"]
        for party, sign in ((t["from"], -1), (t["to"], 1)):
            if party == "pot":
                pot += sign * t["amount"]
            else:
                delta[party] += sign * t["amount"]
    assert delta == result["delta"]
    assert pot == result["pot"]
    assert pot >= 0
    g = record["rules"]["dealer_contribution"]
    dealer = record["dealer"]
    if len(record["seats"]) == 4:  # wien.md: a sitting-out dealer only pays G
        assert result["delta"][dealer] == -g
    active = engine.active_seats(record["seats"], dealer, variant="wien")
    fallen = result["fallen"]
    assert fallen == sorted(set(fallen), key=active.index)  # playing order from forehand


def check_end(state: State) -> None:
    """Ten tricks are played, unless a premium game ends early (the result is certain), both
    defenders stay home, or a split is agreed (wien.md, "Card play", "Defence")."""
    game, d, won = state.game, state.declarer, state.won
    assert game is not None
    cards_played = sum(isinstance(a, PlayCard) for a in state.history)
    players = state.playing.bit_count()
    assert cards_played == state.tricks_done * players
    if state.end == "played":
        assert state.tricks_done == 10 and sum(won) == 10
        assert all(state.hands[q] == 0 for q in range(3) if state.playing >> q & 1)
    elif state.end == "early":
        assert game.kind == "premium" and d is not None
        assert 1 <= state.tricks_done < 10 and sum(won) == state.tricks_done
        if game.level in MISERE_LEVELS:
            assert won[d] == 1  # the declarer's first trick ends a misère
        else:
            assert state.tricks_done - won[d] == 1  # the defenders' first trick ends a slam
    elif state.end == "both_home":
        assert game.kind == "suit" and d is not None
        assert state.tricks_done == 0 and won == (0, 0, 0)
        assert [x for q, x in enumerate(state.defence) if q != d] == ["home", "home"]
        assert state.pot_before > 0  # with only G in the pot both must play
    elif state.end == "negotiated":
        assert game.kind == "suit" and d is not None and state.tricks_done == 0
        assert players == 2 and sum(won) == 10
        defender = next(q for q in range(3) if q != d and state.playing >> q & 1)
        assert 2 <= won[defender] <= 4 and won[d] == 10 - won[defender]
    else:
        raise AssertionError(f"unknown end {state.end!r}")
    if game.kind == "ausfechten":
        assert d is None and state.end == "played"
        auction = [a for a in state.history if not isinstance(a, PlayCard)]
        assert auction == [Call(seat, "pass") for seat in state.active]


def candidate_actions(state: State, rng: random.Random) -> list[Action]:
    """A few random actions of every kind, by the player to act or by anyone at the table
    (most of them illegal)."""
    seat = (
        state.to_act_seat if state.to_act_seat and rng.random() < 0.7 else rng.choice(state.seats)
    )
    a, b = rng.sample(range(PIQUET.size), 2)
    d = rng.randrange(11)
    return [
        Call(seat, rng.choice(ALL_CALLS)),
        GeschaeftSuit(seat, rng.choice(("C", "S", "D", "pass"))),
        Discard(seat, (1 << a) | (1 << b)),
        Declare(seat, "suit", rng.choice("CSDH")),
        Declare(seat, "premium", rng.choice((5, 6, 7, 8))),
        Look(seat, rng.random() < 0.5),
        Defence(seat, rng.choice(("play", "home", "invite", "alone"))),
        Negotiate(seat, d, rng.choice((10 - d, rng.randrange(11)))),
        Accept(seat, rng.random() < 0.5),
        PlayCard(seat, rng.randrange(PIQUET.size)),
    ]


def check_refusals(state: State, rng: random.Random) -> None:
    """An action not in ``legal_actions`` is refused with IllegalAction (NotYourTurn exactly
    when another seat is to act), with a sentence saying why."""
    legal = engine.legal_actions(state)
    tried = [x for x in candidate_actions(state, rng) if x not in legal]
    for action in rng.sample(tried, min(3, len(tried))):
        try:
            engine.apply(state, action)
        except IllegalAction as e:
            assert e.message
            if state.phase is not Phase.DONE:
                assert isinstance(e, NotYourTurn) == (action.seat != state.to_act_seat)
        else:
            raise AssertionError(f"{action} was accepted but is not legal")


def open_players(state: State) -> set[int]:
    """wien.md, "Card play": in the open games 7 and 8 the defenders' hands are shown to all
    after the first trick."""
    g, d = state.game, state.declarer
    if g is None or g.kind != "premium" or g.level not in (7, 8) or state.tricks_done < 1:
        return set()
    return {q for q in range(3) if q != d}


def saw_dealt_talon(state: State, seat: str | None) -> bool:
    """wien.md, "Auction": a premium call without ``h`` sees the talon at once. (Whoever takes
    the talon holds it, so it is covered by that player's own hand and discards.)"""
    return any(
        isinstance(a, Call) and a.seat == seat and a.call in ("5", "6", "7", "8")
        for a in state.history
    )


def known_cards(state: State, seat: str | None) -> int:
    """Every card the rules have shown ``seat`` before the end of the hand, worked out from the
    rules and the history (not from the view): its own hand and discards, the played cards,
    the open hands, the dealt talon if its call looked into it."""
    p = None if seat is None else state.player(seat)
    out = 0
    for a in state.history:
        if isinstance(a, PlayCard):
            out |= 1 << a.card
        elif isinstance(a, Discard) and a.seat == seat:
            out |= a.cards
    for q in range(3):
        if q == p or q in open_players(state):
            out |= state.hands[q]
    if saw_dealt_talon(state, seat):
        out |= state.deal[3]
    return out


def swap_hidden(state: State, seat: str | None, rng: random.Random) -> State:
    """The same position with the cards hidden from ``seat`` dealt differently among the places
    it cannot see (other players' closed hands and the talon), sizes kept; the deal and the
    recorded discards are permuted the same way, so the state stays one deal."""
    p = None if seat is None else state.player(seat)
    known = known_cards(state, seat)
    places = [state.hands[q] for q in range(3) if q != p and q not in open_players(state)]
    places.append(state.talon)
    pool = [c for mask in places for c in cards_of(mask & ~known)]
    shuffled = pool[:]
    rng.shuffle(shuffled)
    perm = dict(zip(pool, shuffled, strict=True))

    def moved(mask: int) -> int:
        return mask_of(perm.get(c, c) for c in cards_of(mask))

    h = state.hands
    d = state.deal
    return replace(
        state,
        hands=(moved(h[0]), moved(h[1]), moved(h[2])),
        talon=moved(state.talon),
        deal=(moved(d[0]), moved(d[1]), moved(d[2]), moved(d[3])),
        history=tuple(
            replace(a, cards=moved(a.cards)) if isinstance(a, Discard) else a for a in state.history
        ),
    )


def check_views(state: State, rng: random.Random) -> None:
    """Before the end, a view shows what the rules showed that seat and nothing more, and does
    not change when the cards hidden from it lie elsewhere."""
    assert state.phase is not Phase.DONE
    for seat in viewers(state):
        v = engine.view(state, seat)
        p = None if seat is None else state.player(seat)
        assert cards_in(v, PIQUET.codes) <= set(PIQUET.codes_of(known_cards(state, seat))), seat
        assert "deal" not in v
        assert set(v["open_hands"]) == {state.active[q] for q in open_players(state)}
        for q in open_players(state):
            assert v["open_hands"][state.active[q]] == PIQUET.codes_of(state.hands[q])
        if p is None:  # spectator, sitting-out dealer
            assert v["hand"] is None and not v["talon"] and v["dealt_talon"] is None
            assert "legal" not in v
        else:
            assert v["hand"] == PIQUET.codes_of(state.hands[p])
            if saw_dealt_talon(state, seat):
                assert v["dealt_talon"] == PIQUET.codes_of(state.deal[3])
        alt = swap_hidden(state, seat, rng)
        assert engine.view(alt, seat) == v, seat


# ---------------------------------------------------------------------------------------------
# properties


@settings(max_examples=draws(1200))
@given(table=tables())
def test_random_hands_keep_the_rules_promises(table: Table) -> None:
    """One random hand, checked step by step and at the end:

    - ``legal_actions`` is non-empty exactly until the hand is over, and the view of the seat to
      act offers exactly those actions;
    - actions not in ``legal_actions`` are refused with IllegalAction;
    - the hand ends after ten tricks unless it may end earlier;
    - the money balances and the transfers add up to it;
    - the record replays to the same state, survives JSON, and settles like the state and
      like its score-sheet entry.
    """
    midway: list[State] = []

    def each_step(state: State, rng: random.Random) -> None:
        legal = engine.legal_actions(state)
        assert legal and state.to_act is not None
        assert all(a.seat == state.to_act_seat for a in legal)
        assert len(set(legal)) == len(legal)
        own = engine.view(state, state.to_act_seat)
        assert own["legal"] == [engine.action_to_json(a, PIQUET, seat=False) for a in legal]
        if rng.random() < 0.3:
            check_refusals(state, rng)
        if not midway or rng.random() < 0.05:
            midway[:] = [state]

    state = play(table, each_step)

    assert state.phase is Phase.DONE and state.to_act is None
    assert engine.legal_actions(state) == []
    check_refusals(state, random.Random(table.seed))
    check_end(state)

    record = engine.to_record(state)
    assert engine.replay(record) == state
    text = json.dumps(record)
    assert json.loads(text) == record
    assert engine.replay(json.loads(text)) == state

    result = engine.settle(record)
    check_balance(result, record)
    assert result == engine.settle_outcome(engine.outcome(state))
    assert result["tricks"] == engine.sheet_entry(state)["tricks"]

    sheet = json.loads(json.dumps(engine.sheet_entry(state)))
    assert engine.settle(sheet) == result

    # a record may stop anywhere: it replays to the state reached, and cannot be settled yet
    mid = midway[0]
    mid_record = engine.to_record(mid)
    assert engine.replay(json.loads(json.dumps(mid_record))) == mid
    try:
        engine.settle(mid_record)
    except engine.EngineError as e:
        assert "not finished" in e.message
    else:
        raise AssertionError("an unfinished hand was settled")


@settings(max_examples=draws(300))
@given(table=tables())
def test_every_listed_action_applies(table: Table) -> None:
    """Each action ``legal_actions`` lists applies without error, records itself in the history
    and passes the turn to a seat that then has legal actions (or ends the hand)."""

    def each_step(state: State, rng: random.Random) -> None:
        for action in engine.legal_actions(state):
            after = engine.apply(state, action)
            assert after.history == (*state.history, action)
            assert (after.phase is Phase.DONE) == (not engine.legal_actions(after))

    play(table, each_step)


@settings(max_examples=draws(500))
@given(table=tables())
def test_views_hide_what_the_rules_hide(table: Table) -> None:
    """At random points of random hands, every seat's view (and a spectator's) shows only cards
    the rules have shown it, and stays the same when the cards hidden from it are swapped
    among the places it cannot see. After the hand, everything is shown."""

    def each_step(state: State, rng: random.Random) -> None:
        if rng.random() < 0.25:
            check_views(state, rng)

    state = play(table, each_step)
    everything = set(PIQUET.codes)
    for seat in viewers(state):
        v = engine.view(state, seat)
        assert set(sum(v["deal"].values(), [])) == everything


def test_random_play_reaches_every_kind_of_game() -> None:
    """The hand generator of the properties above reaches every kind of game and every branch
    of the hand (so the properties are not vacuous)."""
    seen: set[str] = set()
    rng = random.Random(20240601)
    for i in range(900):
        policy = ("uniform", "bot", "modest")[i % 3]
        n = 3 + i % 2
        seats = tuple(NAMES[:n])
        deck = list(PIQUET.codes)
        rng.shuffle(deck)
        table = Table(
            seats=seats,
            dealer=seats[i % n],
            rules={"variant": "wien", "dealer_contribution": 100, "pot_cap": 300},
            pot=(0, 200, 500)[i % 3 if i % 7 else 0],
            deck=tuple(deck),
            policy=policy,
            seed=i,
        )
        state = play(table)
        seen |= features(state)
    expected = {
        "ausfechten",
        "suit talon",
        "geschaeft",
        "geschaeft contested",
        "herz",
        "premium talon",
        "premium hand",
        "premium made",
        "premium failed",
        "premium early",
        "suit made",
        "suit failed",
        "both home",
        "invitation",
        "alone",
        "negotiated",
        "negotiation refused",
        "counter proposal",
        "hold",
        "looked",
        "four seats",
        "defender fell",
    }
    assert expected <= seen, f"never reached: {sorted(expected - seen)}"


def features(state: State) -> set[str]:
    g = state.game
    assert g is not None
    h = state.history
    out = {"four seats"} if len(state.seats) == 4 else set()
    result = engine.settle_outcome(engine.outcome(state))
    if g.kind == "ausfechten":
        out.add("ausfechten")
    elif g.kind == "premium":
        out |= {
            "premium hand" if g.hand else "premium talon",
            "premium made" if result["made"] else "premium failed",
        }
        if state.end == "early":
            out.add("premium early")
    else:
        out.add("suit talon" if g.talon else "herz" if g.is_herz else "geschaeft")
        out.add("suit made" if result["made"] else "suit failed")
        if any(f != result["declarer"] for f in result["fallen"]):
            out.add("defender fell")
    if state.end in ("both_home", "negotiated"):
        out.add(state.end.replace("_", " "))
    for a in h:
        if isinstance(a, GeschaeftSuit):
            out.add("geschaeft contested")
        elif isinstance(a, Defence) and a.choice in ("invite", "alone"):
            out.add("invitation" if a.choice == "invite" else "alone")
        elif isinstance(a, Accept) and not a.accept:
            out.add("negotiation refused")
        elif isinstance(a, Call) and a.call == "hold":
            out.add("hold")
        elif isinstance(a, Look) and a.look:
            out.add("looked")
    if sum(isinstance(a, Negotiate) for a in h) == 2:
        out.add("counter proposal")
    return out
