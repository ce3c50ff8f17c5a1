"""The double-dummy solver (``engine.solver``): exact against the plain minimax, on synthetic
endgames and on positions of real hands of every three-hand rule set; consistent along best
play over whole deals; and ``python -m engine solve``.

The reference (``engine.solver.reference``) tries every legal card with the validating path's
functions and nothing else, so it can only check endgames (5 tricks take it a tenth of a
second, 7 tricks minutes); whole deals are checked by what best play must satisfy: playing an
optimal card keeps the value, any other card changes it against the player who chose it, and
the hand played out that way ends with the value's tricks."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.actions import PlayCard
from engine.bots import random_bot
from engine.cards import PIQUET, cards_of
from engine.rules import AnyRuleSet
from engine.solver import (
    FEWEST,
    GOALS,
    MOST,
    Position,
    Search,
    reference_card_values,
    reference_solve,
    solve,
)
from engine.solver.records import solve_state
from engine.tricks import FOLLOW, FOLLOW_TRUMP, HEAD, HEAD_LOW, legal_cards, suit_order
from tests.draws import draws
from tests.engine.helpers import DEAL, TALON, record, suit_game_actions
from tests.engine.test_cli import GOLDEN as GOLDEN_RECORD
from tests.engine.test_cli import error, ok, write

DATA = Path(__file__).resolve().parent.parent / "data" / "solver"
SOLVABLE = [rs for rs in engine.rule_sets(include_engine_only=True) if rs.table.players == 3]
DUTIES = {
    "wien": (HEAD, HEAD_LOW, HEAD),
    "head": (HEAD, HEAD, HEAD),
    "follow-trump": (FOLLOW_TRUMP,) * 3,
    "follow": (FOLLOW,) * 3,
}


def endgame(rng: random.Random, cards: int) -> Position:
    """A random position with ``cards`` cards in each hand, 0 to 2 of them already played to
    the trick in progress, a random trump (or none), obligations, goal and side, and now and
    then a defender at home."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[i * cards : (i + 1) * cards]) for i in range(3)]
    side = rng.randrange(3)
    playing = 0b111 if rng.random() < 0.8 else 0b111 & ~(1 << (side + 1) % 3)
    order = suit_order(PIQUET, rng.choice([None, 0, 1, 2, 3]))
    duty = DUTIES[rng.choice(list(DUTIES))]
    leader = rng.choice([q for q in range(3) if playing >> q & 1])
    trick: list[tuple[int, int]] = []
    p = leader
    for _ in range(rng.randrange(playing.bit_count())):
        legal = list(cards_of(legal_cards(order, hands[p], [c for _, c in trick], duty[p])))
        c = rng.choice(legal)
        hands[p] &= ~(1 << c)
        trick.append((p, c))
        p = (p + 1) % 3
        while not playing >> p & 1:
            p = (p + 1) % 3
    return Position(
        deck=PIQUET,
        seats=("anna", "bert", "carl"),
        hands=tuple(hands),
        trick=tuple(trick),
        to_act=p,
        playing=playing,
        order=order,
        duty=duty,
        side=1 << side,
        won=rng.randrange(3),
        goal=rng.choice(GOALS),
    )


@pytest.mark.parametrize("cards,count", [(1, 400), (2, 800), (3, 800), (4, 300)])
def test_the_solver_agrees_with_plain_minimax_on_random_endgames(cards: int, count: int) -> None:
    rng = random.Random(cards)
    for _ in range(count):
        pos = endgame(rng, cards)
        assert solve(pos) == reference_solve(pos), pos


@pytest.mark.slow
def test_the_solver_agrees_with_plain_minimax_on_endgames_of_five_tricks() -> None:
    """120 endgames on CI, 30 in local runs (tests/draws.py)."""
    rng = random.Random(5)
    for _ in range(draws(120, least=30)):
        pos = endgame(rng, 5)
        assert solve(pos) == reference_solve(pos), pos


def test_each_cards_value_is_the_minimax_value_after_it() -> None:
    """``Search.card_values`` (what the bots compare cards by) against the reference."""
    rng = random.Random(44)
    for _ in range(400):
        pos = endgame(rng, rng.randrange(1, 5))
        assert Search(pos).card_values() == reference_card_values(pos), pos


# --- positions of real hands -----------------------------------------------------------------


def random_hands(rs: AnyRuleSet, seed: int) -> Any:
    """Random hands of ``rs`` dealt and played by the random bot: each hand's states, one
    after another, until it ends."""
    rng = random.Random(seed)
    rules = rs.examples[seed % len(rs.examples)]
    seats = ["anna", "bert", "carl"]
    order, _ = rs.shuffled_deck(rng)
    deal = rs.deal_from_deck(order, rs.active_seats(seats, "carl"))
    carry = rs.carry_examples[0]
    state = engine.replay(
        {"rules": rules, "seats": seats, "dealer": "carl", **carry, "deal": deal, "actions": []}
    )
    while not state.is_over:
        yield state
        state = engine.apply(state, random_bot.choose(state, rng))


@pytest.mark.parametrize("rs", SOLVABLE, ids=[rs.name for rs in SOLVABLE])
def test_positions_of_real_hands_agree_with_plain_minimax(rs: AnyRuleSet) -> None:
    """Every position of the last four tricks of random hands: each rule set's contracts,
    obligations (Largierpflicht, Trumpfzwang …) and early ends as its ``card_play`` states
    them."""
    solved = 0
    for seed in range(60):
        for state in random_hands(rs, seed):
            pos = rs.card_play(state)
            if pos is None or pos.tricks_left > 4:
                continue
            assert solve(pos) == reference_solve(pos), (seed, pos)
            solved += 1
    assert solved > 100


def must(pos: Position | None) -> Position:
    assert pos is not None, "the hand is not in card play"
    return pos


def _after(state: Any, rs: AnyRuleSet, card: int) -> Any:
    pos = must(rs.card_play(state))
    return engine.apply(state, PlayCard(pos.seats[pos.to_act], card))


def _side(pos: Position) -> str:
    return pos.seats[next(q for q in range(len(pos.seats)) if pos.side >> q & 1)]


@pytest.mark.slow
@pytest.mark.parametrize("rs", SOLVABLE, ids=[rs.name for rs in SOLVABLE])
def test_best_play_over_whole_deals_keeps_the_value_and_ends_with_it(rs: AnyRuleSet) -> None:
    """From the first card of random hands: an optimal card keeps the value, every other card
    changes it against its player, and the hand played out by optimal cards ends with the
    side taking exactly the value's tricks (the whole deal is solved at every card)."""
    rng = random.Random(7)
    checked = 0
    for seed in range(400):
        state = next((s for s in random_hands(rs, seed) if rs.card_play(s)), None)
        if state is None or must(rs.card_play(state)).goal == FEWEST:
            continue  # FEWEST is the mover's own: its side changes with the mover
        first = must(rs.card_play(state))
        value, _ = solve(first)
        while (pos := rs.card_play(state)) is not None:
            total, optimal = solve(pos)
            assert total == value
            wants_more = (pos.side >> pos.to_act & 1) == pos.maximising
            p = pos.to_act
            legal = legal_cards(pos.order, pos.hands[p], [c for _, c in pos.trick], pos.duty[p])
            for c in cards_of(legal & ~optimal):
                after = _after(state, rs, c)
                then = rs.card_play(after)  # None: the play ended with this card
                worse = _side_tricks(rs, after, _side(first)) if then is None else solve(then)[0]
                assert worse < value if wants_more else worse > value, (seed, c)
            state = _after(state, rs, rng.choice(list(cards_of(optimal))))
        assert _side_tricks(rs, state, _side(first)) == value
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def _side_tricks(rs: AnyRuleSet, state: Any, seat: str) -> int:
    """The tricks ``seat`` took in the hand that ``state`` ends: its view's ``tricks``."""
    tricks = rs.view(state, None)["tricks"]
    return int(tricks[seat])


# --- readable cases ----------------------------------------------------------------------------


def wien_position(trump: str) -> Any:
    state = engine.replay(record(DEAL, TALON, actions=suit_game_actions(TALON, trump)))
    return state


def test_leading_the_club_ace_lets_carl_ruff_with_his_only_trump() -> None:
    """anna plays diamonds holding six top trumps, SA SK, CA C7; carl's only diamond is D8
    and his only spade S8, bert has no diamond. Drawing carl's trump first (or cashing SA, or
    giving up C7) gives anna nine tricks; CA first loses a trick to carl's forced ruff."""
    pos = must(engine.rule_set("wien").card_play(wien_position("D")))
    total, optimal = solve(pos)
    assert (total, pos.goal) == (9, MOST)
    assert set(PIQUET.codes_of(optimal)) == {"DA", "DK", "DQ", "DJ", "DT", "D9", "SA", "SK", "C7"}


# --- golden deals --------------------------------------------------------------------------

GOLDEN = sorted(DATA.glob("*.json"))


def test_there_are_golden_deals() -> None:
    assert len(GOLDEN) >= 6


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_golden_deal_solves_to_its_known_answer(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    state = engine.replay(case["record"])
    assert solve_state(state) == case["solution"]
    pos = must(engine.rule_set(state.rules.variant).card_play(state))
    if pos.tricks_left <= 5:  # late in the hand the plain minimax can check the answer too
        total, optimal = reference_solve(pos)
        assert (total, PIQUET.codes_of(optimal)) == (
            case["solution"]["declarer_tricks"],
            case["solution"]["optimal"],
        )


# --- python -m engine solve ---------------------------------------------------------------------


def test_solve_prints_the_declarers_tricks_and_the_optimal_cards() -> None:
    text = json.dumps(record(DEAL, TALON, actions=suit_game_actions(TALON, "D")))
    out = ok("solve", "-", stdin=text)
    assert out["declarer_tricks"] == 9 and out["declarer"] == "anna" and out["to_act"] == "anna"
    assert "CA" not in out["optimal"] and "DA" in out["optimal"]


def test_solve_reads_the_record_endpoints_answer(tmp_path: Path) -> None:
    rec = record(
        DEAL, TALON, actions=[*suit_game_actions(TALON, "D"), {"seat": "anna", "card": "DA"}]
    )
    answer = {"mode": "hosted", "number": 1, "status": "in_progress", "record": rec, "result": None}
    out = ok("solve", write(tmp_path, answer))
    assert out["to_act"] == "bert" and out["declarer_tricks"] == 9


def test_solve_refuses_a_record_that_is_not_in_card_play(tmp_path: Path) -> None:
    before_play = record(DEAL, TALON, actions=suit_game_actions(TALON, "D")[:3])
    assert "card play" in error("solve", write(tmp_path, before_play))["message"]
    finished = json.loads(GOLDEN_RECORD.read_text(encoding="utf-8"))["record"]
    assert "over" in error("solve", write(tmp_path, finished))["message"]


def test_solve_says_when_the_solver_does_not_play_a_game(tmp_path: Path) -> None:
    rules = json.dumps(engine.rule_set("doppelkopf").examples[0])
    played = ok("play", "--seed", "1", "--rules", rules)
    first_card = next(i for i, a in enumerate(played["actions"]) if "card" in a)
    played["actions"] = played["actions"][:first_card]
    assert "not one the solver plays" in error("solve", write(tmp_path, played))["message"]
