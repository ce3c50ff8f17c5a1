"""How a hosted hand ends when a tournament round's clock runs out (issue 41,
docs/tournaments.md, "Round clocks"): by the double-dummy play-out of its remaining cards
(``end_hand_by_solver``) when it is in card play with few enough tricks left, or taken back
(``hand_abandon``) for the director's adjusted score. Both change nothing when the hand is
not theirs to end, and change nothing more when run twice."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

import pytest

import engine
from clubs.models import User
from engine.actions import PlayCard
from engine.solver import solve
from engine.solver.playout import playout, tricks_left
from engine.solver.records import position_of
from games import services
from games.models import AuditEntry, Hand, Table

pytestmark = pytest.mark.django_db

LIVE = {"kind": "live", "action_seconds": 10, "reserve_seconds": 30}


def fresh(hand: Hand) -> Hand:
    return Hand.objects.select_related("table").get(pk=hand.pk)


def user_at(table: Table, seat: str) -> User:
    user = next(s.user for s in table.seats.all() if s.key == seat)
    assert user is not None
    return user


def step(hand: Hand, rng: random.Random) -> Hand:
    """The seat the hand waits for sends a random legal action, as its player (in card play a
    card)."""
    hand = fresh(hand)
    state = services.hand_state(hand.table, hand)
    seat = sorted(engine.to_act(state))[0]
    rules = engine.rule_set(hand.table.rules["variant"])
    legal = engine.legal_actions(state, seat)
    cards = [a for a in legal if isinstance(a, PlayCard)]  # no bargain ends the play
    action = rules.action_to_json(rng.choice(cards or legal))
    return services.hand_apply_action(
        table_id=hand.table_id,
        number=hand.number,
        user=user_at(hand.table, seat),
        action=action,
    )


def in_card_play(make: Callable[..., Table], most: int, **options: object) -> Hand:
    """A hosted hand played at random until card play with at most ``most`` tricks left (a
    fresh table for each deal tried)."""
    for seed in range(200):
        table = make(mode=Table.Mode.HOSTED, **options)
        hand = services.hand_start(table_id=table.pk, user=None)
        rng = random.Random(seed)
        while fresh(hand).status == Hand.Status.PLAYING:
            state = services.hand_state(table, fresh(hand))
            try:
                if tricks_left(state) <= most:
                    return fresh(hand)
            except engine.EngineError:
                pass
            hand = step(hand, rng)
    raise AssertionError("no hand reached card play")


class TestEndingByTheSolver:
    def test_the_remaining_cards_are_played_double_dummy_and_the_hand_is_settled(
        self, make_table: Callable[..., Table]
    ) -> None:
        hand = in_card_play(make_table, 10)  # every trick: the play-out's longest
        state = services.hand_state(hand.table, hand)
        pos = position_of(state)
        value, _ = solve(pos)
        declarer = pos.seats[next(q for q in range(3) if pos.side >> q & 1)]
        rules = engine.rule_set(hand.table.rules["variant"])
        expected = [rules.action_to_json(c) for c in playout(state)]
        before = len(hand.actions)
        ended = services.end_hand_by_solver(
            table_id=hand.table_id, number=hand.number, max_tricks=10
        )
        assert ended is not None
        hand = fresh(hand)
        assert hand.status == Hand.Status.DONE and hand.result is not None
        assert hand.actions[before:] == expected
        final = services.hand_state(hand.table, hand)
        assert final.is_over
        if pos.goal != "fewest":
            assert rules.view(final, None)["tricks"][declarer] == value
        audit = AuditEntry.objects.get(table=hand.table, action="hand_end_solver")
        assert audit.user is None and audit.hand_number == hand.number
        assert audit.after == {
            "from_action": before,
            "cards": expected,
            "tricks_left": tricks_left(state),
        }
        # again: the hand is over, nothing changes
        version = hand.version
        assert (
            services.end_hand_by_solver(table_id=hand.table_id, number=hand.number, max_tricks=10)
            is None
        )
        assert fresh(hand).version == version

    def test_more_tricks_than_allowed_leave_the_hand_to_its_players(
        self, make_table: Callable[..., Table]
    ) -> None:
        hand = in_card_play(make_table, 10)
        left = tricks_left(services.hand_state(hand.table, hand))
        ended = services.end_hand_by_solver(
            table_id=hand.table_id, number=hand.number, max_tricks=left - 1
        )
        assert ended is None
        assert fresh(hand).version == hand.version
        assert not AuditEntry.objects.filter(action="hand_end_solver").exists()

    def test_a_hand_still_in_its_auction_is_not_ended(self, hosted: Table) -> None:
        hand = services.hand_start(table_id=hosted.pk, user=None)
        assert services.end_hand_by_solver(table_id=hosted.pk, number=1, max_tricks=10) is None
        assert fresh(hand).status == Hand.Status.PLAYING
        assert services.end_hand_by_solver(table_id=hosted.pk, number=2, max_tricks=10) is None

    def test_a_hand_with_a_clock_is_not_charged_and_its_clock_stops(
        self, make_table: Callable[..., Table]
    ) -> None:
        hand = in_card_play(make_table, 10, time_control=LIVE)
        assert fresh(hand).flag_at is not None
        late = dt.datetime(2100, 1, 1, tzinfo=dt.UTC)  # long after every flag
        ended = services.end_hand_by_solver(
            table_id=hand.table_id, number=hand.number, max_tricks=10, now=late
        )
        assert ended is not None
        hand = fresh(hand)
        assert hand.status == Hand.Status.DONE and hand.flag_at is None
        assert hand.clock is not None
        assert hand.clock["running"] == {} and hand.clock["timeouts"] == []


class TestTakingAHandBack:
    def test_the_hand_being_played_is_taken_back_and_audited(self, hosted: Table) -> None:
        hand = services.hand_start(table_id=hosted.pk, user=None)
        step(hand, random.Random(1))
        what = services.hand_abandon(table_id=hosted.pk, number=1)
        assert what == {
            "number": 1,
            "dealer": hand.dealer,
            "commitment": hand.commitment,
            "actions": 1,
        }
        assert not hosted.hands.exists()
        audit = AuditEntry.objects.get(table=hosted, action="hand_abandon")
        assert audit.hand_number == 1 and audit.before == what
        assert "deal" not in audit.before  # a board may still be played elsewhere
        assert services.hand_abandon(table_id=hosted.pk, number=1) is None

    def test_a_finished_hand_stays(self, make_table: Callable[..., Table]) -> None:
        hand = in_card_play(make_table, 10)
        services.end_hand_by_solver(table_id=hand.table_id, number=hand.number, max_tricks=10)
        assert services.hand_abandon(table_id=hand.table_id, number=hand.number) is None
        assert fresh(hand).status == Hand.Status.DONE

    def test_a_recorded_tables_hands_are_not_taken_back(self, recorded: Table) -> None:
        assert services.hand_abandon(table_id=recorded.pk, number=1) is None
