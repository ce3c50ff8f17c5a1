"""Clocks at hosted tables (issue 41, docs/clocks.md), in process: a person's time is charged
as the time control says, a flag falls exactly once and only when due, a move that comes
first wins, a late move is refused with a sentence, the timeout policy's bot plays for the
absent seat and the record shows it, a seat is away after timeouts in a row until its person
comes back, and turn-based tables remind and warn.

Time is never the machine's: each test reads the moment a seat's clock started from the hand
and gives the services the moments it means (``now=``)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import translation

import engine
from clubs import outbox
from clubs.models import Notification, User
from games import clock, services
from games.errors import InvalidInput, TableConflict
from games.models import AuditEntry, Hand, Table
from games.services import clocks
from tests.games.conftest import RULES, hand_url
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

LIVE = {"kind": "live", "action_seconds": 10, "reserve_seconds": 30, "increment_seconds": 2}
TURN = {
    "kind": "turn_based",
    "action_seconds": 86400,
    "reminder_seconds": 43200,
    "warning_seconds": 3600,
}
LAG = 1000  # CLOCK_LAG_CREDIT_MS's default, which the tests pin


def fresh(hand: Hand) -> Hand:
    return Hand.objects.select_related("table").get(pk=hand.pk)


def to_act(hand: Hand) -> str:
    hand = fresh(hand)
    (seat,) = engine.waiting_for(services.hand_state(hand.table, hand))
    return seat


def since(hand: Hand, seat: str) -> dt.datetime:
    """When ``seat``'s clock started, as the hand keeps it."""
    hand = fresh(hand)
    assert hand.clock is not None
    return clock.parse(hand.clock["running"][seat])


def first_legal(hand: Hand, seat: str) -> dict[str, Any]:
    hand = fresh(hand)
    state = services.hand_state(hand.table, hand)
    rules = engine.rule_set(hand.table.rules["variant"])
    return rules.action_to_json(engine.legal_actions(state, seat)[0])


def user_at(table: Table, seat: str) -> User:
    user = next(s.user for s in table.seats.all() if s.key == seat)
    assert user is not None
    return user


def act(hand: Hand, seat: str, now: dt.datetime, lag_ms: int = 0) -> Hand:
    return services.hand_apply_action(
        table_id=hand.table_id,
        number=hand.number,
        user=user_at(fresh(hand).table, seat),
        action=first_legal(hand, seat),
        lag_ms=lag_ms,
        now=now,
    )


@pytest.fixture
def live_table(make_table: Callable[..., Table]) -> Table:
    return make_table(mode=Table.Mode.HOSTED, time_control=LIVE)


@pytest.fixture
def live_hand(live_table: Table, anna: User) -> Hand:
    return services.hand_start(table_id=live_table.pk, user=anna)


@pytest.fixture(autouse=True)
def lag_cap(settings: Any) -> None:
    settings.CLOCK_LAG_CREDIT_MS = LAG


class TestLiveClock:
    def test_a_new_hand_runs_only_the_clock_of_the_seat_it_waits_for(self, live_hand: Hand) -> None:
        hand = fresh(live_hand)
        seat = to_act(hand)
        assert hand.clock is not None
        assert list(hand.clock["running"]) == [seat]
        assert hand.clock["reserve_ms"] == {"anna": 30_000, "bert": 30_000, "carl": 30_000}
        start = since(hand, seat)
        assert hand.flag_at == start + dt.timedelta(seconds=10 + 30 + LAG / 1000)

    def test_time_beyond_the_action_seconds_comes_off_the_reserve_and_the_increment_tops_it_up(
        self, live_hand: Hand
    ) -> None:
        seat = to_act(live_hand)
        start = since(live_hand, seat)
        act(live_hand, seat, start + dt.timedelta(seconds=15))
        hand = fresh(live_hand)
        assert hand.clock is not None
        assert hand.clock["reserve_ms"][seat] == 30_000 - 5_000 + 2_000
        following = to_act(hand)
        assert list(hand.clock["running"]) == [following]
        assert following != seat

    def test_within_the_action_seconds_the_reserve_only_grows(self, live_hand: Hand) -> None:
        seat = to_act(live_hand)
        act(live_hand, seat, since(live_hand, seat) + dt.timedelta(seconds=9))
        assert fresh(live_hand).clock["reserve_ms"][seat] == 32_000  # type: ignore[index]

    def test_the_flag_does_not_fall_before_the_deadline_and_its_lag_allowance(
        self, live_hand: Hand
    ) -> None:
        hand = fresh(live_hand)
        seat = to_act(hand)
        just_before = since(hand, seat) + dt.timedelta(seconds=40, milliseconds=LAG - 1)
        assert services.flag_fall(hand.pk, hand.version, now=just_before) is None
        assert fresh(hand).clock["auto"] == []  # type: ignore[index]

    def test_a_flag_falls_once_and_the_bot_plays_the_timed_out_action(
        self, live_hand: Hand
    ) -> None:
        hand = fresh(live_hand)
        seat = to_act(hand)
        due = hand.flag_at
        assert due is not None
        assert services.flag_fall(hand.pk, hand.version, now=due) is not None
        assert services.flag_fall(hand.pk, hand.version, now=due) is None  # exactly once
        after = fresh(hand)
        assert after.version == hand.version  # the version counts actions only
        assert after.clock["auto"] == [seat]  # type: ignore[index]
        assert AuditEntry.objects.filter(table=hand.table, action="timeout").count() == 1
        moved = services.hand_bot_move(hand_id=hand.pk, version=hand.version, schedule=False)
        assert moved is not None
        assert moved.actions[-1]["seat"] == seat
        (listed,) = moved.clock["timeouts"]  # type: ignore[index]
        assert (listed["action"], listed["seat"]) == (len(moved.actions) - 1, seat)
        assert clock.parse(listed["at"]).tzinfo is not None
        assert moved.clock["in_row"] == {seat: 1}  # type: ignore[index]
        assert seat not in moved.clock["auto"]  # type: ignore[index]

    def test_a_bot_that_does_not_think_plays_the_timed_out_action_as_the_flag_falls(
        self, make_table: Callable[..., Table], anna: User
    ) -> None:
        """Every level but pimc decides at once: its move is made in the flag's own
        transaction (no bots' task), listed as the timeout policy's, exactly once."""
        table = make_table(mode=Table.Mode.HOSTED, time_control={**LIVE, "bot_level": "random"})
        hand = fresh(services.hand_start(table_id=table.pk, user=anna))
        seat = to_act(hand)
        assert hand.flag_at is not None
        moved = services.flag_fall(hand.pk, hand.version, now=hand.flag_at)
        assert moved is not None
        assert services.flag_fall(hand.pk, hand.version, now=hand.flag_at) is None
        after = fresh(hand)
        assert after.version == hand.version + 1  # the policy's action, played at once
        assert after.actions[-1]["seat"] == seat
        (listed,) = after.clock["timeouts"]  # type: ignore[index]
        assert (listed["action"], listed["seat"]) == (len(after.actions) - 1, seat)
        assert seat not in after.clock["auto"]  # type: ignore[index]
        assert AuditEntry.objects.filter(table=table, action="timeout").count() == 1
        # nothing is left for the bots' task: a bot move at the old version does nothing
        assert services.hand_bot_move(hand_id=hand.pk, version=hand.version) is None

    def test_a_move_after_the_flag_fell_is_refused_with_a_sentence(self, live_hand: Hand) -> None:
        hand = fresh(live_hand)
        seat = to_act(hand)
        assert hand.flag_at is not None
        services.flag_fall(hand.pk, hand.version, now=hand.flag_at)
        with pytest.raises(TableConflict) as refused:
            act(hand, seat, hand.flag_at)
        assert refused.value.code == "time_out"
        assert "ran out" in refused.value.message
        assert fresh(hand).version == hand.version

    def test_a_move_that_arrives_first_wins_and_the_old_flag_does_nothing(
        self, live_hand: Hand
    ) -> None:
        hand = fresh(live_hand)
        seat = to_act(hand)
        old_flag = hand.flag_at
        assert old_flag is not None
        act(hand, seat, since(hand, seat) + dt.timedelta(seconds=39))
        assert services.flag_fall(hand.pk, hand.version, now=old_flag) is None
        after = fresh(hand)
        assert after.clock["auto"] == [] and after.clock["timeouts"] == []  # type: ignore[index]

    def test_claimed_lag_is_credited_up_to_the_cap(self, live_hand: Hand) -> None:
        seat = to_act(live_hand)
        late = since(live_hand, seat) + dt.timedelta(seconds=40, milliseconds=500)
        with pytest.raises(TableConflict):
            act(live_hand, seat, late, lag_ms=300)  # still 200 ms late
        act(live_hand, seat, late, lag_ms=5000)  # credited 1,000 ms: in time, 0.5 s left
        assert fresh(live_hand).clock["reserve_ms"][seat] == 500 + 2_000  # type: ignore[index]

    def test_after_timeouts_in_a_row_the_seat_is_away_until_its_person_comes_back(
        self, live_hand: Hand
    ) -> None:
        hand = fresh(live_hand)
        table = hand.table
        seat = to_act(hand)
        rng = random.Random(4)
        timeouts = 0
        # Others act at once; ``seat`` never does: each of its turns ends by its flag, until
        # it has timed out twice in a row (``timeouts_before_away``), then the bot plays on.
        for _ in range(200):
            hand = fresh(hand)
            if hand.status == Hand.Status.DONE:
                break
            waiting = to_act(hand)
            if waiting == seat and clocks.played_by_policy(table, hand, seat):
                assert services.hand_bot_move(
                    hand_id=hand.pk, version=hand.version, rng=rng, schedule=False
                )
            elif waiting == seat:
                assert hand.flag_at is not None
                assert services.flag_fall(hand.pk, hand.version, now=hand.flag_at)
                timeouts += 1
            else:
                act(hand, waiting, since(hand, waiting) + dt.timedelta(seconds=1))
            if timeouts == 2:
                break
        hand = fresh(hand)
        services.hand_bot_move(hand_id=hand.pk, version=hand.version, rng=rng, schedule=False)
        hand = fresh(hand)
        assert hand.clock["in_row"][seat] == 2  # type: ignore[index]
        tc = clocks.time_control(table)
        assert tc is not None and clock.is_away(tc, hand.clock, seat)  # type: ignore[arg-type]
        assert seat not in hand.clock["running"]  # type: ignore[index]
        client = client_for(user_at(table, seat))
        answer = client.post(f"/api/v1/tables/{table.pk}/back/")
        assert answer.status_code == 200, answer.json()
        assert answer.json() == {"seat": seat, "was_away": True}
        assert not clocks.played_by_policy(table, fresh(hand), seat)
        again = client.post(f"/api/v1/tables/{table.pk}/back/")
        assert again.json() == {"seat": seat, "was_away": False}

    def test_the_view_shows_each_persons_clock_and_the_servers_time(self, live_hand: Hand) -> None:
        hand = fresh(live_hand)
        seat = to_act(hand)
        view = client_for(user_at(hand.table, seat)).get(hand_url(hand.table, 1, "view/")).json()
        shown = view["clock"]
        assert shown["kind"] == "live"
        assert clock.parse(shown["server_time"]) >= since(hand, seat)
        assert shown["seats"][seat]["running"] is True
        deadline = clock.parse(shown["seats"][seat]["deadline"])
        assert deadline == since(hand, seat) + dt.timedelta(seconds=40)
        remaining = shown["seats"][seat]["remaining_ms"]
        assert remaining == clock.ms(deadline - clock.parse(shown["server_time"]))
        others = [k for k in shown["seats"] if k != seat]
        assert all(not shown["seats"][k]["running"] for k in others)
        assert all(shown["seats"][k]["remaining_ms"] == 30_000 for k in others)
        assert view["timeouts"] == []

    def test_the_record_lists_the_actions_the_policy_played(self, live_hand: Hand) -> None:
        hand = fresh(live_hand)
        table = hand.table
        rng = random.Random(9)
        for _ in range(300):
            hand = fresh(hand)
            if hand.status == Hand.Status.DONE:
                break
            moved = services.hand_bot_move(
                hand_id=hand.pk, version=hand.version, rng=rng, schedule=False
            )
            if moved is None:  # nobody away or timed out: the next flag falls
                assert hand.flag_at is not None
                services.flag_fall(hand.pk, hand.version, now=hand.flag_at)
        hand = fresh(hand)
        assert hand.status == Hand.Status.DONE
        body = client_for(user_at(table, "anna")).get(hand_url(table, 1, "record/")).json()
        assert body["timeouts"] == hand.clock["timeouts"]  # type: ignore[index]
        assert len(body["timeouts"]) == len(body["record"]["actions"])
        assert engine.verify(body["record"]) is not None
        reader = client_for(user_at(table, "anna"))
        (row,) = reader.get(f"/api/v1/tables/{table.pk}/sheet/").json()["rows"]
        assert row["timed_out"] == ["anna", "bert", "carl"]
        services.compute_analysis(hand.pk, hand.version)
        analysis = reader.get(hand_url(table, 1, "analysis/")).json()["analysis"]
        assert analysis["cards"] and all(c["by_timeout"] for c in analysis["cards"])
        exported = reader.get("/api/v1/me/export/").json()
        (seat,) = [
            s for t in exported["tables"]["tables"] if t["id"] == table.pk for s in t["seats"]
        ]
        assert seat["hands"][0]["timeouts"] == body["timeouts"]


def test_a_person_who_acts_in_time_is_not_marked_in_the_sheet_or_the_analysis(
    live_table: Table, live_hand: Hand
) -> None:
    hand = fresh(live_hand)
    for _ in range(300):
        hand = fresh(hand)
        if hand.status == Hand.Status.DONE:
            break
        seat = to_act(hand)
        act(hand, seat, since(hand, seat) + dt.timedelta(seconds=1))
    hand = fresh(hand)
    reader = client_for(user_at(live_table, "anna"))
    (row,) = reader.get(f"/api/v1/tables/{live_table.pk}/sheet/").json()["rows"]
    assert row["timed_out"] == []
    services.compute_analysis(hand.pk, hand.version)
    analysis = reader.get(hand_url(live_table, 1, "analysis/")).json()["analysis"]
    assert not any(c["by_timeout"] for c in analysis["cards"])


def with_bots(person: User) -> dict[str, Any]:
    """A hosted table's body: ``person`` and two bots."""
    return {
        "name": "Clocked",
        "mode": "hosted",
        "rules": RULES,
        "seats": [
            {"key": "anna", "kind": "user", "user": person.pk},
            {"key": "robo1", "kind": "bot", "bot_level": "random"},
            {"key": "robo2", "kind": "bot", "bot_level": "random"},
        ],
    }


class TestTimeControlInput:
    def test_a_hosted_table_takes_a_time_control_and_reads_it_back(self, anna: User) -> None:
        body = {**with_bots(anna), "time_control": LIVE}
        answer = client_for(anna).post("/api/v1/tables/", body, format="json")
        assert answer.status_code == 201, answer.json()
        assert answer.json()["time_control"] == {
            **LIVE,
            "reminder_seconds": None,
            "warning_seconds": None,
            "timeouts_before_away": 2,
            "bot_level": None,
        }

    @pytest.mark.parametrize(
        ("control", "field"),
        [
            ({**LIVE, "action_seconds": 3600}, "action_seconds"),
            ({**TURN, "reserve_seconds": 60}, "reserve_seconds"),
            ({**TURN, "warning_seconds": 86400}, "warning_seconds"),
            ({**LIVE, "reminder_seconds": 600}, "reminder_seconds"),
            ({**LIVE, "kind": "blitz"}, "kind"),
        ],
    )
    def test_a_time_control_that_contradicts_itself_is_a_400_naming_its_field(
        self, anna: User, control: dict[str, Any], field: str
    ) -> None:
        body = {**with_bots(anna), "time_control": control}
        answer = client_for(anna).post("/api/v1/tables/", body, format="json")
        assert answer.status_code == 400, answer.json()
        assert list(answer.json()["fields"]) == [f"time_control.{field}"]
        assert answer.json()["code"] == "validation_error"

    def test_a_recorded_table_runs_no_clock(self, make_table: Callable[..., Table]) -> None:
        with pytest.raises(InvalidInput) as refused:
            make_table(time_control=LIVE)
        assert "time_control" in refused.value.fields

    def test_an_unknown_bot_level_is_refused(self, make_table: Callable[..., Table]) -> None:
        with pytest.raises(InvalidInput) as refused:
            make_table(mode=Table.Mode.HOSTED, time_control={**LIVE, "bot_level": "oracle"})
        assert "time_control" in refused.value.fields


class TestTurnBased:
    def test_the_person_to_act_is_reminded_and_warned_before_their_time_runs_out(
        self, make_table: Callable[..., Table], anna: User
    ) -> None:
        table = make_table(mode=Table.Mode.HOSTED, time_control=TURN)
        hand = services.hand_start(table_id=table.pk, user=anna)
        seat = to_act(hand)
        person = user_at(table, seat)
        start = since(hand, seat)
        rows = {
            n.key.rsplit(":", 1)[1]: n
            for n in Notification.objects.filter(user=person, type="time_running_out")
        }
        assert set(rows) == {"reminder", "warning"}
        deadline = start + dt.timedelta(days=1)
        # due at the deadline less each offset (written a moment after the clock started)
        for which, before in (("reminder", 43200), ("warning", 3600)):
            due = rows[which].due_at
            assert abs(due - (deadline - dt.timedelta(seconds=before))) < dt.timedelta(seconds=5)
            assert rows[which].payload["deadline"] == clock.iso(deadline)
        act(hand, seat, start + dt.timedelta(hours=2))
        assert not Notification.objects.filter(
            user=person, type="time_running_out", sent_at__isnull=True
        ).exists()
        following = to_act(hand)
        assert (
            Notification.objects.filter(
                user=user_at(table, following), type="time_running_out"
            ).count()
            == 2
        )

    def test_a_turn_expires_at_its_deadline(
        self, make_table: Callable[..., Table], anna: User
    ) -> None:
        table = make_table(mode=Table.Mode.HOSTED, time_control=TURN)
        hand = fresh(services.hand_start(table_id=table.pk, user=anna))
        seat = to_act(hand)
        assert hand.flag_at is not None
        assert hand.flag_at - since(hand, seat) == dt.timedelta(days=1, milliseconds=LAG)
        assert services.flag_fall(hand.pk, hand.version, now=hand.flag_at) is not None
        assert fresh(hand).clock["auto"] == [seat]  # type: ignore[index]


def test_a_table_without_a_time_control_keeps_no_clock(hosted: Table, anna: User) -> None:
    hand = fresh(services.hand_start(table_id=hosted.pk, user=anna))
    assert hand.clock is None and hand.flag_at is None
    view = client_for(anna).get(hand_url(hosted, 1, "view/")).json()
    assert view["clock"] is None and view["timeouts"] == []


def test_without_a_broker_a_due_flag_falls_when_the_hand_is_read(
    live_hand: Hand, settings: Any, django_capture_on_commit_callbacks: Any, eager_tasks: None
) -> None:
    """The embedded default (``make run``) has no worker and no beat: reading the hand lets its
    due flag fall, and the bot's task runs in process."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    hand = fresh(live_hand)
    seat = to_act(hand)
    assert hand.flag_at is not None
    early = hand.flag_at - dt.timedelta(seconds=1)
    assert not services.flags_due_on_read(hand.table, hand, now=early)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.flags_due_on_read(hand.table, hand, now=hand.flag_at)
    after = fresh(hand)
    assert after.actions and after.actions[0]["seat"] == seat
    assert after.clock["timeouts"][0]["seat"] == seat  # type: ignore[index]


def test_your_turn_at_a_table_with_a_clock_says_the_time_left_in_the_persons_language(
    live_hand: Hand,
) -> None:
    hand = fresh(live_hand)
    seat = to_act(hand)
    person = user_at(hand.table, seat)
    row = Notification.objects.get(user=person, type="your_turn")
    deadline = since(hand, seat) + dt.timedelta(seconds=40)
    assert row.payload["deadline"] == clock.iso(deadline)
    with translation.override("de"):
        said = outbox.message_of(row, deadline - dt.timedelta(seconds=25))
    assert said.body == "Du bist an Friday table am Zug: noch 25 Sekunden."
    assert said.payload["deadline"] == clock.iso(deadline)
    with translation.override("en"):
        said = outbox.message_of(row, deadline - dt.timedelta(hours=3))
    assert said.body == "It is your turn at Friday table: 3 hours left."


def test_the_sweep_hands_each_flag_on_once_and_an_overdue_one_again_only_after_a_while(
    live_hand: Hand,
) -> None:
    """The beat's sweep hands on a flag the move did not (it was beyond the horizon, or the
    cache forgot it), once; an overdue flag (its message lost) again at most every
    ``CLOCK_RESEND_SECONDS``. What the worker then does with it is the worker tests'."""
    hand = fresh(live_hand)
    assert hand.flag_at is not None
    now = hand.flag_at - dt.timedelta(seconds=30)
    cache.delete_many([clocks.SWEPT_UNTIL, clocks.AGAIN_AFTER])
    assert clocks.hand_on_due(now) == 0  # the deal handed its flag on already
    at = int(hand.flag_at.timestamp() * 1000)  # Redis restarted empty: the flag is forgotten
    cache.delete_many(
        [clocks.SENT_KEY.format(hand=hand.pk, version=hand.version, at=at), clocks.SWEPT_UNTIL]
    )
    assert clocks.hand_on_due(now) == 1
    assert clocks.hand_on_due(now + dt.timedelta(seconds=1)) == 0
    late = hand.flag_at + dt.timedelta(seconds=60)  # overdue: its message was lost
    cache.delete(clocks.AGAIN_AFTER)  # CLOCK_RESEND_SECONDS have passed (the cache's own time)
    assert clocks.hand_on_due(late) == 1
    assert clocks.hand_on_due(late + dt.timedelta(seconds=1)) == 0  # not again at once
    cache.delete(clocks.AGAIN_AFTER)  # CLOCK_RESEND_SECONDS later
    assert clocks.hand_on_due(late + dt.timedelta(seconds=20)) == 1
