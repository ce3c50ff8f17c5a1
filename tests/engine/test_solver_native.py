"""The compiled double-dummy search (``engine.solver.native``, ``engine/solver/_dd.c``)
against the pure-Python :class:`engine.solver.search.Search` it mirrors: the same value and
optimal cards, the same value of each card, on thousands of random positions (every goal,
trump or none, every kind of obligation, a player at home, three and four seats).

Where the extension is not built these tests skip, unless ``REQUIRE_NATIVE_SOLVER=1`` says it
must be (then they fail); the tests of what the module does without it always run.
"""

from __future__ import annotations

import importlib
import os
import random
from types import ModuleType
from typing import Any

import pytest

from engine.cards import PIQUET, Deck, cards_of
from engine.solver import native
from engine.solver.position import GOALS, MOST, Position
from engine.solver.search import Search
from engine.tricks import (
    FOLLOW,
    FOLLOW_TRUMP,
    HEAD,
    HEAD_LOW,
    CardOrder,
    Obligations,
    legal_cards,
    suit_order,
)
from tests.draws import draws

SEATS = ("anna", "bert", "carl", "dora")


def need_native() -> ModuleType:
    """The extension module; the test skips without it, or fails with
    ``REQUIRE_NATIVE_SOLVER=1``."""
    if not native.available:
        why = "engine.solver._dd is not built (pip install -e . with a C compiler)"
        if os.environ.get("REQUIRE_NATIVE_SOLVER") == "1":
            pytest.fail(f"REQUIRE_NATIVE_SOLVER=1 but {why}")
        pytest.skip(why)
    return importlib.import_module("engine.solver._dd")


def duties(rng: random.Random, seats: int) -> tuple[Obligations, ...]:
    """Everybody bound by Stichzwang (one of them by Largierpflicht too, as in ``wien``), by
    Farbzwang and Trumpfzwang, by Farbzwang only, or each by a random mix of the four."""
    style = rng.randrange(5)
    if style == 0:
        return (HEAD,) * seats
    if style == 1:
        duty = [HEAD] * seats
        duty[rng.randrange(seats)] = HEAD_LOW
        return tuple(duty)
    if style == 2:
        return (FOLLOW_TRUMP,) * seats
    if style == 3:
        return (FOLLOW,) * seats
    return tuple(
        Obligations(
            follow=rng.random() < 0.8,
            trump=rng.random() < 0.5,
            head=rng.random() < 0.5,
            lowest=rng.random() < 0.5,
        )
        for _ in range(seats)
    )


def position(rng: random.Random, cards: int, seats: int = 3, playing: int = 0) -> Position:
    """A random position: ``cards`` cards dealt to each seat from the 32, the players who play
    (``playing``, every seat when 0), 0 to all but one of them having played a legal card to
    the trick in progress, a random trump (or none), obligations, goal and side."""
    playing = playing or (1 << seats) - 1
    players = [q for q in range(seats) if playing >> q & 1]
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[q * cards : (q + 1) * cards]) for q in range(seats)]
    order = suit_order(PIQUET, rng.choice([None, 0, 1, 2, 3]))
    duty = duties(rng, seats)
    i = rng.randrange(len(players))
    trick: list[tuple[int, int]] = []
    for _ in range(rng.randrange(len(players)) if cards else 0):
        p = players[i % len(players)]
        legal = legal_cards(order, hands[p], [c for _, c in trick], duty[p])
        c = rng.choice(list(cards_of(legal)))
        hands[p] &= ~(1 << c)
        trick.append((p, c))
        i += 1
    return Position(
        deck=PIQUET,
        seats=SEATS[:seats],
        hands=tuple(hands),
        trick=tuple(trick),
        to_act=players[i % len(players)],
        playing=playing,
        order=order,
        duty=duty,
        side=1 << rng.choice(players),
        won=rng.randrange(3),
        goal=rng.choice(GOALS),
    )


def assert_same(pos: Position) -> None:
    """The compiled answers equal :class:`Search`'s: ``solve`` (value and optimal cards) and
    ``card_values``."""
    search = Search(pos)
    value = search.value()
    assert native.native_solve(pos) == (pos.won + value, search.optimal(value)), pos
    assert native.native_card_values(pos) == search.card_values(), pos


# (seats, the players who play or 0 for all or -1 for one at random at home, hand sizes, how
# many positions)
SHAPES = {
    "three-hands-short": (3, 0, (1, 6), 1500),
    "three-hands-long": (3, 0, (7, 8), 150),
    "three-hands-nine-ten": (3, 0, (9, 10), 8),
    "one-at-home": (3, -1, (1, 10), 600),
    "four-seats": (4, 0, (1, 5), 300),
    "four-seats-one-at-home": (4, -1, (1, 7), 300),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_it_agrees_with_search_on_random_positions(shape: str) -> None:
    need_native()
    seats, playing, (fewest, most), count = SHAPES[shape]
    rng = random.Random(shape)
    for _ in range(count):
        at_home = 1 << rng.randrange(seats)
        mask = (1 << seats) - 1 & ~at_home if playing < 0 else playing
        assert_same(position(rng, rng.randint(fewest, most), seats, mask))


def wien_deal(rng: random.Random) -> Position:
    """A whole deal of ``wien``: ten cards each, the declarer leads to the first trick and
    wants the most tricks in a random trump, everybody bound by Stichzwang and the player
    after the declarer by Largierpflicht."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = tuple(sum(1 << c for c in deck[q * 10 : (q + 1) * 10]) for q in range(3))
    declarer = rng.randrange(3)
    duty = [HEAD] * 3
    duty[(declarer + 1) % 3] = HEAD_LOW
    return Position(
        deck=PIQUET,
        seats=SEATS[:3],
        hands=hands,
        trick=(),
        to_act=declarer,
        playing=0b111,
        order=suit_order(PIQUET, rng.randrange(4)),
        duty=tuple(duty),
        side=1 << declarer,
        won=0,
        goal=MOST,
    )


def test_it_agrees_with_search_on_whole_deals() -> None:
    need_native()
    rng = random.Random(10)
    for _ in range(12):
        assert_same(wien_deal(rng))


@pytest.mark.slow
def test_it_agrees_with_search_on_many_whole_deals_and_long_positions() -> None:
    """200 whole deals, 100 long and 40 four-seat positions on CI; a quarter of each in local
    runs (tests/draws.py)."""
    need_native()
    rng = random.Random(11)
    for _ in range(draws(200, least=50)):
        assert_same(wien_deal(rng))
    for _ in range(draws(100, least=25)):
        assert_same(position(rng, rng.randint(9, 10)))
    for _ in range(draws(40, least=10)):
        assert_same(position(rng, rng.randint(6, 8), seats=4))


def test_a_played_out_hand_has_no_card_to_value() -> None:
    need_native()
    pos = position(random.Random(1), 0)
    assert native.native_solve(pos) == (pos.won, 0) == (pos.won + Search(pos).value(), 0)
    assert native.native_card_values(pos) == {} == Search(pos).card_values()


# --- positions it does not take ----------------------------------------------------------


def _with(pos: Position, **changes: Any) -> Position:
    fields = {name: getattr(pos, name) for name in Position.__dataclass_fields__}
    return Position(**{**fields, **changes})


def test_it_declines_five_seats_and_no_position_ranks_cards_out_of_index() -> None:
    """More than four seats are left to :class:`Search`; decks with duplicate cards
    (Doppelkopf's) and game suits that do not rank by card index make no position at all,
    for either search."""
    pos = position(random.Random(3), 3)
    doubled = Deck("doubled", "CSDH", "9TJQKA", copies=2)
    five = ("anna", "bert", "carl", "dora", "emil")
    order = pos.order
    reversed_order = CardOrder(
        order.suit_of,
        order.suit_mask,
        tuple(order.suit_mask[s] & ((1 << c) - 1) for c, s in enumerate(order.suit_of)),
        order.trump,
        order.names,
    )
    other = _with(pos, seats=five, hands=(*pos.hands, 0, 0), duty=(*pos.duty, HEAD, HEAD))
    assert native.native_solve(other) is None
    assert native.native_card_values(other) is None
    for order in (suit_order(doubled, None), reversed_order):
        with pytest.raises(ValueError, match="rank by their index"):
            _with(pos, order=order)


def test_a_position_that_breaks_the_course_of_play_is_refused() -> None:
    need_native()
    rng = random.Random(4)
    pos = position(rng, 4)
    while pos.trick:
        pos = position(rng, 4)
    a, b, c = pos.hands
    top = 1 << (a.bit_length() - 1)
    broken = [
        _with(pos, hands=(a, b | top, c)),  # a card in two hands
        _with(pos, hands=(a & ~top, b, c)),  # hands of unequal length
        _with(pos, trick=((pos.to_act, 0),)),  # the player to move played to the trick
    ]
    for bad in broken:
        with pytest.raises(ValueError):
            native.native_solve(bad)
        with pytest.raises(ValueError):
            native.native_card_values(bad)


def _replace(args: tuple[object, ...], i: int, value: object) -> tuple[object, ...]:
    return (*args[:i], value, *args[i + 1 :])


# (argument index of _dd.solve, a value out of range)
BAD_ARGUMENTS = {
    "no-hands": (0, ()),
    "five-hands": (0, (1, 2, 4, 8, 16)),
    "hand-beyond-32-bits": (0, (1 << 32, 0, 0)),
    "negative-hand": (0, (-1, 0, 0)),
    "trick-card-not-a-pair": (1, ((0,),)),
    "to-act-out-of-range": (2, 7),
    "nobody-plays": (3, 0),
    "suit-out-of-range": (4, (9,) * 32),
    "too-many-cards": (4, (0,) * 33),
    "above-not-per-card": (6, (0,) * 5),
    "trump-out-of-range": (7, 4),
    "duty-out-of-range": (8, (16, 0, 0)),
    "side-out-of-range": (9, 8),
    "goal-out-of-range": (10, 4),
}


@pytest.mark.parametrize("name", list(BAD_ARGUMENTS))
def test_bad_arguments_raise_value_error(name: str) -> None:
    dd = need_native()
    args = native._arguments(position(random.Random(5), 3))
    assert args is not None
    i, value = BAD_ARGUMENTS[name]
    with pytest.raises(ValueError):
        dd.solve(*_replace(args, i, value))
    with pytest.raises(ValueError):
        dd.card_values(*_replace(args, i, value))


def test_arguments_of_the_wrong_type_raise_type_error() -> None:
    dd = need_native()
    args = native._arguments(position(random.Random(6), 3))
    assert args is not None
    with pytest.raises(TypeError):
        dd.solve(*_replace(args, 0, ("a", 0, 0)))
    with pytest.raises(TypeError):
        dd.solve(*args[:-1])
