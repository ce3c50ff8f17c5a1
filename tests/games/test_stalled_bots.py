"""The beat's kick for bots whose task was lost (``games.tasks.kick_stalled_bots``): which idle
hosted hands it restarts (``games.services.bots.hands_waiting_for_bots``). Only a hand at a
table with a bot, or with a clock whose timeout policy plays for a person, can wait for a bot;
a hand of people only is never restarted (nor replayed to find out)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from clubs.models import User
from games import services
from games.models import Table

pytestmark = pytest.mark.django_db

EVERY_IDLE = -60.0
"""An idle time in the future: every playing hand counts as idle."""


def test_an_idle_hand_a_bot_is_to_act_in_is_restarted(
    make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(
        mode=Table.Mode.HOSTED, kinds={"bert": "bot", "carl": "bot"}, first_dealer="anna"
    )
    # the bots' task runs after the commit, which a test's transaction never makes: lost
    hand = services.hand_start(table_id=table.pk, user=anna)
    assert services.hands_waiting_for_bots(EVERY_IDLE) == [(hand.pk, hand.version)]


def test_a_hand_of_people_only_is_never_restarted(
    make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(mode=Table.Mode.HOSTED)
    services.hand_start(table_id=table.pk, user=anna)
    assert services.hands_waiting_for_bots(EVERY_IDLE) == []


def test_a_hand_at_a_bot_s_table_waiting_for_a_person_is_not_restarted(
    make_table: Callable[..., Table], anna: User
) -> None:
    table = make_table(mode=Table.Mode.HOSTED, kinds={"carl": "bot"}, first_dealer="carl")
    services.hand_start(table_id=table.pk, user=anna)  # anna, a person, acts first
    assert services.hands_waiting_for_bots(EVERY_IDLE) == []


def test_a_clocked_hand_whose_timeout_bot_s_task_was_lost_is_restarted(
    make_table: Callable[..., Table], anna: User
) -> None:
    """A table of people with a clock: the flag fell and the timeout policy's bot (the rule
    set's strongest, which thinks in the bots' task) never got its task."""
    live = {"kind": "live", "action_seconds": 10, "reserve_seconds": 30}
    table = make_table(mode=Table.Mode.HOSTED, time_control=live)
    hand = services.hand_start(table_id=table.pk, user=anna)
    assert services.hands_waiting_for_bots(EVERY_IDLE) == []  # a person's clock runs
    assert hand.flag_at is not None
    fallen = services.flag_fall(hand.pk, hand.version, now=hand.flag_at)
    assert fallen is not None and fallen.flag_at is None
    assert services.hands_waiting_for_bots(EVERY_IDLE) == [(hand.pk, hand.version)]
