"""The three-hand bots' card play (``engine.bots``): the heuristic's etiquette of defenders,
PIMC's sampling and choice, and both choosing only legal cards from a view.

Positions are written as beliefs (what a seat knows): ``belief(...)`` below places the seat's
own hand, the cards played and the cards it cannot see."""

from __future__ import annotations

import json
import random
from typing import Any

from engine.bots import heuristic, pimc
from engine.bots.belief import Belief, exclusions, sample
from engine.cards import PIQUET
from engine.solver import MISERE, MOST, Position, solve
from engine.tricks import FOLLOW_TRUMP, HEAD, HEAD_LOW, suit_order
from tests.engine.test_cli import error, run

SEATS = ("anna", "bert", "carl")


def cards(text: str) -> int:
    return sum(1 << PIQUET.index[c] for c in text.split())


def belief(
    me: int,
    hand: str,
    unknown: str,
    counts: tuple[int, int, int],
    *,
    trick: tuple[tuple[int, str], ...] = (),
    declarer: int = 0,
    trump: str | None = "H",
    goal: str = MOST,
    follow_trump: bool = False,
) -> Belief:
    hands = [0, 0, 0]
    hands[me] = cards(hand)
    played = tuple((q, PIQUET.index[c]) for q, c in trick)
    to_act = me
    duty = tuple(HEAD_LOW if q == (declarer + 1) % 3 else HEAD for q in range(3))
    if follow_trump:
        duty = (FOLLOW_TRUMP,) * 3
    pos = Position(
        deck=PIQUET,
        seats=SEATS,
        hands=tuple(hands),
        trick=played,
        to_act=to_act,
        playing=0b111,
        order=suit_order(PIQUET, None if trump is None else "CSDH".index(trump)),
        duty=duty,
        side=1 << declarer,
        won=0,
        goal=goal,
    )
    return Belief(pos, me, cards(unknown), counts, (), (0, 0, 0))


def test_a_defender_does_not_overtake_the_other_defenders_trick() -> None:
    """Without a duty to beat (follow, else trump): anna declared hearts and led S9; bert
    headed it with SQ. carl, who could win with SK, follows with S7 instead of overtaking his
    partner."""
    b = belief(
        2,
        "S7 SK C7 C8",
        "SA CA CK D7 D8 H7 H8",
        (3, 3, 0),
        trick=((0, "S9"), (1, "SQ")),
        follow_trump=True,
    )
    assert PIQUET.code(heuristic.choose_card(b)) == "S7"


def test_a_defender_leads_his_highest_card_when_the_declarer_plays_last() -> None:
    """carl declared; anna leads, bert plays second, carl last: anna leads the highest card of
    her longest suit."""
    b = belief(0, "C7 C9 CJ D8", "CQ CK CA DA DK S7 S8 S9", (0, 4, 4), declarer=2)
    assert PIQUET.code(heuristic.choose_card(b)) == "CJ"


def test_in_a_misere_the_declarer_plays_the_highest_card_that_still_loses() -> None:
    """bert led SA, carl followed: anna, playing a misère, cannot beat the ace and sheds her
    queen, the card most likely to win a trick later."""
    b = belief(
        0,
        "S8 SJ SQ",
        "C7 C8 D7 D8",
        (0, 2, 2),
        trick=((1, "SA"), (2, "S7")),
        trump=None,
        goal=MISERE,
    )
    assert PIQUET.code(heuristic.choose_card(b)) == "SQ"


def test_pimc_with_every_card_known_plays_a_double_dummy_optimal_card() -> None:
    rng = random.Random(3)
    deck = list(range(32))
    for _ in range(30):
        rng.shuffle(deck)
        hands = tuple(sum(1 << c for c in deck[i * 4 : (i + 1) * 4]) for i in range(3))
        pos = Position(
            PIQUET,
            SEATS,
            hands,
            (),
            0,
            0b111,
            suit_order(PIQUET, 3),
            (HEAD, HEAD_LOW, HEAD),
            1,
            0,
            MOST,
        )
        known = Belief(pos, 0, 0, (0, 0, 0), (), (0, 0, 0))
        card, means, solved = pimc.choose_card(known, rng, samples=5)
        _, optimal = solve(pos)
        assert optimal >> card & 1 and solved == 5
        assert set(means) == {c for c in range(32) if hands[0] >> c & 1}


def test_sampled_deals_keep_the_known_cards_and_what_the_play_revealed() -> None:
    """bert did not follow a spade lead: no sampled deal gives him a spade."""
    b = belief(0, "SA HA", "S7 S8 C7 C8 D7 D8", (0, 2, 2), trick=((2, "SK"), (1, "C9")))
    b = Belief(b.position, b.me, b.unknown, (0, 2, 3), (), (0, 0, 0))
    assert exclusions(b)[1] == cards("S7 S8")
    rng = random.Random(1)
    for _ in range(50):
        hands = sample(b, rng)
        assert hands is not None
        assert hands[0] == cards("SA HA")
        assert not hands[1] & cards("S7 S8 SK S9")
        assert hands[1].bit_count() == 2 and hands[2].bit_count() == 3


# --- python -m engine arena -------------------------------------------------------------------


def arena_report(*args: str) -> Any:
    """The report ``python -m engine arena *args`` prints; standard error has its progress
    lines alone (tests/engine/test_cli_streams.py)."""
    proc = run("arena", *args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert all(line.startswith("arena: ") for line in proc.stderr.splitlines()), proc.stderr
    return json.loads(proc.stdout)


def test_the_arena_plays_duplicate_deals_and_reports_each_bot_with_an_interval() -> None:
    out = arena_report("--bots", "random,random,random", "--deals", "6", "--seed", "4")
    assert out["deals"] == 6 and out["seatings"] == 1 and out["unit"] == "cents"
    low, high = out["bots"]["random"]["ci95"]
    assert low <= out["bots"]["random"]["mean"] <= high
    again = arena_report(
        "--bots", "random,random,random", "--deals", "6", "--seed", "4", "--jobs", "2"
    )
    assert again == out  # the same deals and moves however many processes play them


def test_the_arena_compares_two_bots_seat_by_seat() -> None:
    """Two levels on three seats: every distinct seating (three), and their difference."""
    bots = "heuristic,random,random"
    out = arena_report("--bots", bots, "--deals", "4", "--seed", "1")
    assert out["seatings"] == 3 and set(out["bots"]) == {"heuristic", "random"}
    assert set(out["differences"]) == {"heuristic - random"}


def test_the_arena_refuses_unknown_bots_and_a_wrong_number_of_them() -> None:
    assert (
        "levels are random"
        in error("arena", "--bots", "best,random,random", "--deals", "1", "--seed", "1")["message"]
    )
    assert (
        "name 3 bots"
        in error("arena", "--bots", "random,random", "--deals", "1", "--seed", "1")["message"]
    )
