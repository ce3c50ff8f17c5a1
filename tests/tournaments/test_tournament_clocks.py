"""Clocks in hosted tournaments (issue 41): the tournament's time control goes to every hosted
table of a round seated after it is set; each timeout at a round's table is in the directors'
log; directors warn a player, audited. A round's clock runs from its start (or as a director
sets it); when it runs out no table deals a further hand, and the round closes once every
table's hands have ended, duplicate boards counting among the tables that played them.

Time is never the machine's: a flag falls at the moment the hand stores for it (``flag_at``),
given to the service as ``now``."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

import engine
from clubs.models import User
from engine.actions import PlayCard
from engine.solver.playout import playout, tricks_left
from games import services as games
from games.models import Hand, Table
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments.setup import Field, make_field, seat
from tournaments import services
from tournaments.models import Board, LogEntry, Round, RoundSeat, RoundTable
from tournaments.services import standings

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

LIVE = {"kind": "live", "action_seconds": 10, "reserve_seconds": 20}
STORED = {
    "kind": "live",
    "action_seconds": 10,
    "reserve_seconds": 20,
    "increment_seconds": 0,
    "reminder_seconds": None,
    "warning_seconds": None,
    "timeouts_before_away": 2,
    "bot_level": None,
}
TURN = {"kind": "turn_based", "action_seconds": 86400, "warning_seconds": 3600}


@pytest.fixture(autouse=True)
def lag_cap(settings: Any) -> None:
    settings.CLOCK_LAG_CREDIT_MS = 1000


def hosted(players: int = 3, **format: Any) -> Field:
    body = {"results": "hosted", "deals_per_round": 3, "rounds_planned": 2, **format}
    return make_field(players, **body)


def round_tables(f: Field, number: int) -> list[Table]:
    return [
        link.table
        for link in RoundTable.objects.filter(
            round__tournament_id=f.tournament_id, round__number=number
        ).select_related("table")
    ]


def create(director: User, **body: Any) -> Any:
    return client_for(director).post(
        "/api/v1/tournaments/", {"name": "Clock Open", **body}, format="json"
    )


class TestTheTournamentsTimeControl:
    def test_it_is_stored_whole_and_shown_in_the_tournament(self) -> None:
        director = UserFactory.create()
        answer = create(director, results="hosted", time_control=LIVE)
        assert answer.status_code == 201, answer.content
        assert answer.json()["time_control"] == STORED
        shown = client_for(director).get(f"/api/v1/tournaments/{answer.json()['id']}/").json()
        assert shown["time_control"] == STORED

    def test_a_tournament_without_one_shows_null(self) -> None:
        answer = create(UserFactory.create(), results="hosted")
        assert answer.status_code == 201 and answer.json()["time_control"] is None

    @pytest.mark.parametrize("results", ["recorded", "totals"])
    def test_a_tournament_whose_results_are_not_hosted_runs_no_clock(self, results: str) -> None:
        answer = create(UserFactory.create(), results=results, time_control=LIVE)
        assert answer.status_code == 400
        body = answer.json()
        assert list(body["fields"]) == ["time_control"]
        assert "Only hosted tables run a clock" in body["message"]

    def test_results_cannot_become_recorded_under_a_clock(self) -> None:
        director = UserFactory.create()
        made = create(director, results="hosted", time_control=LIVE).json()
        answer = client_for(director).patch(
            f"/api/v1/tournaments/{made['id']}/", {"results": "recorded"}, format="json"
        )
        assert answer.status_code == 400 and "time_control" in answer.json()["fields"]

    def test_a_change_sends_the_whole_time_control(self) -> None:
        director = UserFactory.create()
        made = create(director, results="hosted").json()
        answer = client_for(director).patch(
            f"/api/v1/tournaments/{made['id']}/", {"time_control": {"kind": "live"}}, format="json"
        )
        assert answer.status_code == 400
        assert "time_control.action_seconds" in answer.json()["fields"]

    @pytest.mark.parametrize(
        ("control", "field"),
        [
            ({"kind": "turn_based", "action_seconds": 60}, "action_seconds"),
            ({"kind": "live", "action_seconds": 10, "warning_seconds": 60}, "warning_seconds"),
            ({"kind": "blitz", "action_seconds": 10}, "kind"),
        ],
    )
    def test_a_time_control_the_games_refuse_is_refused(
        self, control: dict[str, Any], field: str
    ) -> None:
        answer = create(UserFactory.create(), results="hosted", time_control=control)
        assert answer.status_code == 400
        assert f"time_control.{field}" in answer.json()["fields"]

    def test_the_bot_that_plays_for_a_timed_out_person_is_one_of_the_rule_sets(self) -> None:
        answer = create(
            UserFactory.create(), results="hosted", time_control={**LIVE, "bot_level": "genius"}
        )
        assert answer.status_code == 400
        assert list(answer.json()["fields"]) == ["time_control"]
        assert "bots of level" in answer.json()["message"]

    def test_each_round_is_seated_with_the_time_control_of_that_moment(self) -> None:
        f = hosted(time_control=LIVE)
        seat(f)
        assert [t.time_control for t in round_tables(f, 1)] == [STORED]
        # the format is fixed now; the clock is not, and round 1 keeps its own
        changed = f.boss().patch(f.url, {"time_control": TURN}, format="json")
        assert changed.status_code == 200, changed.content
        assert changed.json()["time_control"]["kind"] == "turn_based"
        assert [t.time_control for t in round_tables(f, 1)] == [STORED]
        update = LogEntry.objects.filter(
            tournament_id=f.tournament_id, action="tournament_update"
        ).latest("id")
        assert update.detail["before"]["time_control"] == STORED
        assert update.detail["after"]["time_control"]["action_seconds"] == 86400

    def test_null_takes_the_clock_away_from_later_rounds(self) -> None:
        f = hosted(time_control=LIVE)
        answer = f.boss().patch(f.url, {"time_control": None}, format="json")
        assert answer.status_code == 200 and answer.json()["time_control"] is None
        seat(f)
        assert [t.time_control for t in round_tables(f, 1)] == [None]

    def test_only_directors_change_it(self) -> None:
        f = hosted()
        answer = f.api(f.players[0]).patch(f.url, {"time_control": LIVE}, format="json")
        assert answer.status_code == 403


def started_hand(f: Field) -> Hand:
    """Hand 1 of round 1's table, dealt by its first player."""
    (table,) = round_tables(f, 1)
    player = next(s.user for s in table.seats.order_by("position") if s.user is not None)
    return games.hand_start(table_id=table.pk, user=player)


def let_flag_fall(hand: Hand) -> str:
    """Let the flag of whoever the hand waits for fall when it is due; the seat."""
    hand = Hand.objects.get(pk=hand.pk)
    assert hand.clock is not None and hand.flag_at is not None
    (running,) = hand.clock["running"]
    assert games.flag_fall(hand.pk, hand.version, now=hand.flag_at) is not None
    return str(running)


def timeouts(f: Field) -> list[LogEntry]:
    return list(
        LogEntry.objects.filter(tournament_id=f.tournament_id, action="timeout").order_by("id")
    )


class TestTimeoutsInTheLog:
    def test_each_timeout_names_round_table_hand_entry_and_seat(self) -> None:
        f = hosted(time_control=LIVE)
        seat(f)
        hand = started_hand(f)
        fallen = let_flag_fall(hand)
        (row,) = timeouts(f)
        link = RoundTable.objects.get(table_id=hand.table_id)
        entry = RoundSeat.objects.get(round_table=link, seat=fallen).entry_id
        assert row.round_number == 1 and row.user_id is None
        assert row.detail == {
            "table": link.number,
            "games_table": hand.table_id,
            "hand": 1,
            "entry": entry,
            "seat": fallen,
            "in_row": 1,
            "away": False,
            "timeouts": 1,
        }
        # the policy's bot played the action, and the flag fell once
        hand.refresh_from_db()
        assert [t["seat"] for t in hand.clock["timeouts"]] == [fallen]  # type: ignore[index]

    def test_timeouts_in_a_row_make_a_seat_away_and_each_entry_counts_its_own(self) -> None:
        f = hosted(time_control=LIVE)
        seat(f)
        hand = started_hand(f)
        seats: list[str] = []
        while seats.count(seats[-1] if seats else "") < 2:  # until a seat times out again
            hand = Hand.objects.get(pk=hand.pk)
            if hand.status == Hand.Status.DONE:  # the timeouts in a row carry on
                hand = games.hand_start(table_id=hand.table_id, user=None)
            seats.append(let_flag_fall(hand))
            assert len(seats) < 12
        rows = timeouts(f)
        assert [r.detail["seat"] for r in rows] == seats
        for i, row in enumerate(rows):
            before = seats[:i].count(seats[i])
            assert row.detail["in_row"] == row.detail["timeouts"] == before + 1
            assert row.detail["away"] == (before + 1 >= 2)
        assert rows[-1].detail["away"]

    def test_directors_read_them_in_the_log_and_nobody_else(self) -> None:
        f = hosted(time_control=LIVE)
        seat(f)
        let_flag_fall(started_hand(f))
        newest = f.get("log/")["results"][0]
        assert newest["action"] == "timeout" and newest["detail"]["hand"] == 1
        stranger = UserFactory.create()
        assert f.api(f.players[0]).get(f.url + "log/").status_code == 403
        assert f.api(stranger).get(f.url + "log/").status_code == 403
        assert f.api(None).get(f.url + "log/").status_code == 401
        # a private tournament does not exist for the stranger
        assert f.boss().patch(f.url, {"is_public": False}, format="json").status_code == 200
        assert f.api(stranger).get(f.url + "log/").status_code == 404
        assert f.api(f.players[0]).get(f.url + "log/").status_code == 403

    def test_a_table_of_no_tournament_writes_no_log(self, django_user_model: Any) -> None:
        users = [UserFactory.create() for _ in range(3)]
        table = games.table_create(
            user=users[0],
            name="Friday",
            mode=Table.Mode.HOSTED,
            rules={"variant": "wien", "dealer_contribution": 10, "pot_cap": 100},
            seats=[games.SeatSpec(key=f"s{i}", kind="user", user=u) for i, u in enumerate(users)],
            time_control=LIVE,
        )
        let_flag_fall(games.hand_start(table_id=table.pk, user=users[0]))
        assert not LogEntry.objects.filter(action="timeout").exists()


class TestWarnings:
    def warn(self, f: Field, entry: int, user: User | None, **body: Any) -> Any:
        client = f.boss() if user is None else f.api(user)
        return client.post(f"{f.url}entries/{entry}/warn/", body, format="json")

    def entry_of(self, f: Field, user: User) -> int:
        return int(f.tournament.entries.get(user=user).pk)

    def test_a_director_warns_a_player_in_the_log(self) -> None:
        f = hosted(time_control=LIVE)
        seat(f)
        entry = self.entry_of(f, f.players[1])
        first = self.warn(f, entry, None, reason="Two timeouts in round 1.")
        assert first.status_code == 201, first.content
        body = first.json()
        assert body["action"] == "entry_warn" and body["round_number"] == 1
        assert body["user"] == f.director.pk
        assert body["detail"] == {
            "entry": entry,
            "reason": "Two timeouts in round 1.",
            "warnings": 1,
        }
        again = self.warn(f, entry, None, reason="Three now.").json()
        assert again["detail"]["warnings"] == 2
        assert f.get("log/")["results"][0]["id"] == again["id"]

    def test_players_and_strangers_may_not_warn(self) -> None:
        f = hosted()
        seat(f)
        entry = self.entry_of(f, f.players[1])
        stranger = UserFactory.create()
        assert self.warn(f, entry, f.players[0], reason="x").status_code == 403
        assert self.warn(f, entry, stranger, reason="x").status_code == 403
        assert f.api(None).post(f"{f.url}entries/{entry}/warn/", {"reason": "x"}).status_code == 401
        assert f.boss().patch(f.url, {"is_public": False}, format="json").status_code == 200
        assert self.warn(f, entry, stranger, reason="x").status_code == 404
        assert not LogEntry.objects.filter(action="entry_warn").exists()

    def test_a_warning_needs_a_reason_and_a_running_tournament(self) -> None:
        f = hosted()
        entry = self.entry_of(f, f.players[1])
        refused = self.warn(f, entry, None, reason="Late.")
        assert refused.status_code == 409 and refused.json()["code"] == "wrong_state"
        seat(f)
        missing = self.warn(f, entry, None)
        assert missing.status_code == 400 and "reason" in missing.json()["fields"]

    def test_an_entry_of_another_tournament_is_not_found(self) -> None:
        f = hosted()
        seat(f)
        other = create(f.director, results="hosted").json()
        entry = self.entry_of(f, f.players[1])
        answer = f.boss().post(
            f"/api/v1/tournaments/{other['id']}/entries/{entry}/warn/", {"reason": "x"}
        )
        assert answer.status_code == 404


# ---------------------------------------------------------------------------------------------
# round clocks


def rounds_of(f: Field, number: int = 1) -> Round:
    return Round.objects.get(tournament_id=f.tournament_id, number=number)


def act_once(table: Table, number: int) -> Hand:
    """The seat the hand waits for plays its first legal action (through the games service,
    as its player)."""
    hand = Hand.objects.select_related("table").get(table=table, number=number)
    state = games.hand_state(hand.table, hand)
    seat = sorted(engine.to_act(state))[0]
    rules = engine.rule_set(table.rules["variant"])
    action = rules.action_to_json(engine.legal_actions(state, seat)[0])
    player = next(s.user for s in table.seats.all() if s.key == seat)
    assert player is not None
    return games.hand_apply_action(table_id=table.pk, number=number, user=player, action=action)


def play_hand(table: Table, number: int) -> None:
    """Deal hand ``number`` (unless dealt) and play it to its end."""
    if not table.hands.filter(number=number).exists():
        games.hand_start(table_id=table.pk, user=None)
    for _ in range(200):
        if Hand.objects.get(table=table, number=number).status == Hand.Status.DONE:
            return
        act_once(table, number)
    raise AssertionError("the hand did not end")


def run_out(f: Field, number: int = 1, after: dt.timedelta = dt.timedelta(seconds=1)) -> bool:
    rnd = rounds_of(f, number)
    assert rnd.ends_at is not None
    return services.round_clock_run(round_id=rnd.pk, now=rnd.ends_at + after)


class TestTheRoundClocksSettings:
    def test_a_hosted_tournament_gives_its_rounds_minutes_and_tricks(self) -> None:
        answer = create(
            UserFactory.create(), results="hosted", round_minutes=90, round_clock_tricks=4
        )
        assert answer.status_code == 201, answer.content
        assert (answer.json()["round_minutes"], answer.json()["round_clock_tricks"]) == (90, 4)

    def test_by_default_there_is_no_round_clock_and_three_tricks_end_by_double_dummy(
        self,
    ) -> None:
        body = create(UserFactory.create(), results="hosted").json()
        assert (body["round_minutes"], body["round_clock_tricks"]) == (None, 3)

    def test_a_tournament_that_records_its_results_has_no_round_clock(self) -> None:
        answer = create(UserFactory.create(), results="recorded", round_minutes=90)
        assert answer.status_code == 400 and list(answer.json()["fields"]) == ["round_minutes"]

    @pytest.mark.parametrize(
        ("field", "value"),
        [("round_minutes", 0), ("round_minutes", 50_000), ("round_clock_tricks", 11)],
    )
    def test_out_of_range_is_refused(self, field: str, value: int) -> None:
        answer = create(UserFactory.create(), results="hosted", **{field: value})
        assert answer.status_code == 400 and field in answer.json()["fields"]

    def test_a_round_starts_its_clock_from_the_tournaments_minutes(self) -> None:
        f = hosted(round_minutes=90)
        started = seat(f)
        rnd = rounds_of(f)
        assert rnd.started_at is not None
        assert rnd.ends_at == rnd.started_at + dt.timedelta(minutes=90)
        assert started["ends_at"] is not None and started["ran_out_at"] is None

    def test_without_minutes_a_round_has_no_clock(self) -> None:
        f = hosted()
        assert seat(f)["ends_at"] is None


class TestADirectorSetsTheRoundsClock:
    def test_a_seated_round_keeps_the_moment_set_when_it_starts(self) -> None:
        f = hosted(round_minutes=90)
        rnd = f.post("rounds/", {}, status=202)
        moment = "2031-05-01T20:00:00Z"
        set_ = f.post(f"rounds/{rnd['number']}/clock/", {"ends_at": moment})
        assert set_["ends_at"] == moment
        started = f.post(f"rounds/{rnd['number']}/start/")
        assert started["ends_at"] == moment
        row = LogEntry.objects.get(tournament_id=f.tournament_id, action="round_clock")
        assert row.detail == {"before": None, "after": "2031-05-01T20:00:00+00:00"}

    def test_null_stops_the_clock(self) -> None:
        f = hosted(round_minutes=90)
        seat(f)
        assert f.post("rounds/1/clock/", {"ends_at": None})["ends_at"] is None
        assert services.rounds_out_of_time(dt.datetime(2100, 1, 1, tzinfo=dt.UTC)) == []

    def test_only_directors_set_it(self) -> None:
        f = hosted(round_minutes=90)
        seat(f)
        body = {"ends_at": "2031-05-01T20:00:00Z"}
        assert f.api(f.players[0]).post(f.url + "rounds/1/clock/", body).status_code == 403
        assert f.api(UserFactory.create()).post(f.url + "rounds/1/clock/", body).status_code == 403

    def test_a_tournament_of_recorded_results_has_no_round_clock(self) -> None:
        f = make_field(3, deals_per_round=3, rounds_planned=1)
        seat(f)
        refused = f.post("rounds/1/clock/", {"ends_at": None}, status=409)
        assert refused["code"] == "not_hosted"

    def test_a_clock_that_ran_out_is_not_set_again(self) -> None:
        f = hosted(round_minutes=90)
        seat(f)
        (table,) = round_tables(f, 1)
        games.hand_start(table_id=table.pk, user=None)  # a hand keeps the round open
        run_out(f)
        refused = f.post("rounds/1/clock/", {"ends_at": None}, status=409)
        assert refused["code"] == "round_clock_out"


class TestWhenTheRoundsClockRunsOut:
    def test_nothing_happens_before_it(self) -> None:
        f = hosted(round_minutes=90)
        seat(f)
        assert not run_out(f, after=-dt.timedelta(seconds=1))
        assert rounds_of(f).ran_out_at is None

    def test_no_further_hand_is_dealt_and_the_round_closes_once_the_last_hand_ends(
        self,
    ) -> None:
        f = hosted(round_minutes=90)
        seat(f)
        (table,) = round_tables(f, 1)
        play_hand(table, 1)
        games.hand_start(table_id=table.pk, user=None)
        act_once(table, 2)  # hand 2 is being played when the clock runs out
        assert not run_out(f)
        rnd = rounds_of(f)
        assert rnd.ran_out_at == rnd.ends_at + dt.timedelta(seconds=1)
        assert rnd.status == Round.Status.PLAYING
        out = LogEntry.objects.get(tournament_id=f.tournament_id, action="round_clock_out")
        assert out.user_id is None and out.round_number == 1
        assert out.detail["tables"] == [{"number": 1, "hands_done": 1, "hands_pending": 1}]
        # the players finish hand 2; hand 3 is not dealt
        play_hand(table, 2)
        player = next(s.user for s in table.seats.all() if s.user is not None)
        refused = client_for(player).post(f"/api/v1/tables/{table.pk}/hands/")
        assert refused.status_code == 409 and refused.json()["code"] == "round_clock_out"
        detail = f.get("rounds/1/")
        assert [t["complete"] for t in detail["tables"]] == [True]
        # the next sweep closes the round in the name of the director who started it
        assert services.round_clocks_sweep(now=rnd.ends_at + dt.timedelta(seconds=20)) == 1
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.CLOSED
        table.refresh_from_db()
        assert table.status == Table.Status.CLOSED
        closed = LogEntry.objects.get(tournament_id=f.tournament_id, action="round_close")
        assert closed.user_id is None
        assert closed.detail == {"closed_by": "round_clock", "closer": f.director.pk}
        # run again: nothing more
        assert services.round_clocks_sweep(now=rnd.ends_at + dt.timedelta(seconds=40)) == 0
        assert LogEntry.objects.filter(action="round_clock_out").count() == 1

    def test_a_round_whose_tables_have_no_hand_pending_closes_at_once(self) -> None:
        f = hosted(round_minutes=90)
        seat(f)
        (table,) = round_tables(f, 1)
        play_hand(table, 1)
        assert run_out(f)
        assert rounds_of(f).status == Round.Status.CLOSED
        # the standings count the hand played
        assert f.get("standings/")["rows"][0]["rounds"] == 1

    def test_a_director_closes_a_run_out_round_as_any_other(self) -> None:
        f = hosted(round_minutes=90)
        seat(f)
        (table,) = round_tables(f, 1)
        games.hand_start(table_id=table.pk, user=None)
        run_out(f)
        refused = f.post("rounds/1/close/", status=409)
        assert refused["code"] == "tables_unfinished"
        assert "1 hand still being played or waiting for its adjusted score" in refused["message"]
        play_hand(table, 1)
        assert f.post("rounds/1/close/")["status"] == "closed"
        assert not run_out(f)  # the sweep finds it closed


class TestDuplicateBoardsAfterTheClock:
    def test_a_board_one_table_never_dealt_counts_among_the_tables_that_played_it(
        self,
    ) -> None:
        f = hosted(players=6, scoring="duplicate", round_minutes=90)
        seat(f)
        first, second = round_tables(f, 1)
        for table in (first, second):
            play_hand(table, 1)
        play_hand(first, 2)
        rnd = rounds_of(f)
        revealed = dict(Board.objects.filter(round=rnd).values_list("number", "revealed_at"))
        assert revealed[1] is not None and revealed[2] is None
        _, boards, _ = standings.inputs(f.tournament)
        assert {b.board for b in boards} == {1}
        assert run_out(f)  # no hand pending: the round closes
        revealed = dict(Board.objects.filter(round=rnd).values_list("number", "revealed_at"))
        assert all(moment is not None for moment in revealed.values())
        _, boards, _ = standings.inputs(f.tournament)
        assert {(b.board, b.table) for b in boards if b.board == 2} == {
            (2, RoundTable.objects.get(table=first).number)
        }

    def test_a_board_still_being_played_stays_secret(self) -> None:
        f = hosted(players=6, scoring="duplicate", round_minutes=90)
        seat(f)
        first, second = round_tables(f, 1)
        for table in (first, second):
            play_hand(table, 1)
        play_hand(first, 2)
        games.hand_start(table_id=second.pk, user=None)
        assert not run_out(f)
        board = Board.objects.get(round=rounds_of(f), number=2)
        assert board.revealed_at is None
        assert Board.objects.get(round=rounds_of(f), number=3).revealed_at is not None
        play_hand(second, 2)
        board.refresh_from_db()
        assert board.revealed_at is not None
        _, boards, _ = standings.inputs(f.tournament)
        assert len([b for b in boards if b.board == 2]) == 6


# ---------------------------------------------------------------------------------------------
# how the hands a round's clock cut off end


def act_randomly(table: Table, number: int, rng: random.Random) -> None:
    """A random legal action of the seat the hand waits for; in card play a card (no
    bargaining that would end the hand before its cards are played)."""
    hand = Hand.objects.select_related("table").get(table=table, number=number)
    state = games.hand_state(hand.table, hand)
    seat = sorted(engine.to_act(state))[0]
    rules = engine.rule_set(table.rules["variant"])
    legal = engine.legal_actions(state, seat)
    cards = [a for a in legal if isinstance(a, PlayCard)]
    action = rules.action_to_json(rng.choice(cards or legal))
    player = next(s.user for s in table.seats.all() if s.key == seat)
    assert player is not None
    games.hand_apply_action(table_id=table.pk, number=number, user=player, action=action)


def into_card_play(table: Table, most: int, rng: random.Random) -> Hand:
    """Deal and play the table's hands at random until one is in card play with at most
    ``most`` tricks to play; that hand."""
    while True:
        hand = games.hand_start(table_id=table.pk, user=None)
        while (hand := Hand.objects.get(pk=hand.pk)).status == Hand.Status.PLAYING:
            try:
                if tricks_left(games.hand_state(table, hand)) <= most:
                    return hand
            except engine.EngineError:
                pass
            act_randomly(table, hand.number, rng)


def adjust(f: Field, number: int, body: dict[str, Any], user: User | None = None) -> Any:
    client = f.boss() if user is None else f.api(user)
    return client.post(f"{f.url}rounds/1/tables/1/hands/{number}/adjust/", body, format="json")


def seat_keys_of(table: Table) -> list[str]:
    return list(table.seats.order_by("position").values_list("key", flat=True))


class TestTheDoubleDummyEnding:
    def test_a_hand_in_card_play_is_played_out_and_the_round_closes(self) -> None:
        f = hosted(round_minutes=90, deals_per_round=12, round_clock_tricks=10)
        seat(f)
        (table,) = round_tables(f, 1)
        hand = into_card_play(table, 10, random.Random(5))
        state = games.hand_state(table, hand)
        cards = [engine.rule_set("wien").action_to_json(c) for c in playout(state)]
        assert run_out(f)
        hand.refresh_from_db()
        assert hand.status == Hand.Status.DONE
        assert hand.actions[-len(cards) :] == cards
        ended = LogEntry.objects.get(tournament_id=f.tournament_id, action="hand_end_solver")
        assert ended.round_number == 1 and ended.detail == {"table": 1, "hand": hand.number}
        assert rounds_of(f).status == Round.Status.CLOSED

    @pytest.mark.parametrize("tricks", [0, 3])
    def test_more_tricks_than_the_tournament_allows_wait_for_the_director(
        self, tricks: int
    ) -> None:
        f = hosted(round_minutes=90, deals_per_round=12, round_clock_tricks=tricks)
        seat(f)
        (table,) = round_tables(f, 1)
        hand = into_card_play(table, 10, random.Random(5))
        assert tricks_left(games.hand_state(table, hand)) > 3  # card play has just begun
        assert not run_out(f)
        hand.refresh_from_db()
        assert hand.status == Hand.Status.PLAYING
        assert not LogEntry.objects.filter(action="hand_end_solver").exists()


class TestAdjustedScores:
    def cut_off(self, **format: Any) -> tuple[Field, Table, Hand]:
        """Round 1 with hand 1 played and hand 2 in its auction when the clock ran out."""
        f = hosted(round_minutes=90, **format)
        seat(f)
        (table,) = round_tables(f, 1)
        play_hand(table, 1)
        hand = games.hand_start(table_id=table.pk, user=None)
        assert not run_out(f)
        return f, table, hand

    def test_the_director_gives_it_a_score_the_hand_is_taken_back_and_the_round_closes(
        self,
    ) -> None:
        f, table, hand = self.cut_off()
        keys = seat_keys_of(table)
        amounts = dict(zip(keys, [40, -10, -30], strict=True))
        before = {row.player: row.points for row in standings.compute(f.tournament).rows}
        answer = adjust(f, 2, {"amounts": amounts, "reason": "Cut off in the auction."})
        assert answer.status_code == 201, answer.content
        assert answer.json() == {
            "round": 1,
            "table": 1,
            "hand": 2,
            "dealer": hand.dealer,
            "amounts": amounts,
            "reason": "Cut off in the auction.",
            "entered_by": f.director.pk,
            "created_at": answer.json()["created_at"],
        }
        assert not table.hands.filter(number=2).exists()
        row = LogEntry.objects.get(tournament_id=f.tournament_id, action="hand_adjust")
        assert row.user_id == f.director.pk
        assert row.detail == {
            "table": 1,
            "hand": 2,
            "amounts": amounts,
            "reason": "Cut off in the auction.",
        }
        assert rounds_of(f).status == Round.Status.CLOSED
        # the amounts count as a hand's: balance points move by them
        entry_of = dict(RoundSeat.objects.filter(round__number=1).values_list("seat", "entry_id"))
        after = {row.player: row.points for row in standings.compute(f.tournament).rows}
        for key, amount in amounts.items():
            assert after[entry_of[key]] - before[entry_of[key]] == amount
        # a player's results: the hand played and the adjusted score
        (hand_1,) = table.hands.filter(number=1)
        assert hand_1.result is not None
        for key, amount in amounts.items():
            mine = f.get(f"entries/{entry_of[key]}/results/")["rounds"][0]
            assert mine["amount"] == int(hand_1.result["delta"].get(key, 0)) + amount

    @pytest.mark.parametrize(
        ("amounts", "field"),
        [
            ({"x": 0}, "amounts"),
            (None, "amounts"),  # not summing to zero: filled in below
        ],
    )
    def test_amounts_for_every_seat_that_sum_to_zero(
        self, amounts: dict[str, int] | None, field: str
    ) -> None:
        f, table, _hand = self.cut_off()
        if amounts is None:
            amounts = dict.fromkeys(seat_keys_of(table), 5)
        answer = adjust(f, 2, {"amounts": amounts})
        assert answer.status_code == 400 and field in answer.json()["fields"]
        assert table.hands.filter(number=2).exists()

    def test_not_before_the_clock_ran_out_nor_for_a_hand_not_being_played(self) -> None:
        f = hosted(round_minutes=90)
        seat(f)
        (table,) = round_tables(f, 1)
        games.hand_start(table_id=table.pk, user=None)
        amounts = dict.fromkeys(seat_keys_of(table), 0)
        early = adjust(f, 1, {"amounts": amounts})
        assert early.status_code == 409 and early.json()["code"] == "round_clock_running"
        run_out(f)
        gone = adjust(f, 2, {"amounts": amounts})
        assert gone.status_code == 409 and gone.json()["code"] == "hand_not_pending"

    def test_only_directors_adjust(self) -> None:
        f, table, _hand = self.cut_off()
        body = {"amounts": dict.fromkeys(seat_keys_of(table), 0)}
        assert adjust(f, 2, body, f.players[0]).status_code == 403
        stranger = UserFactory.create()
        assert adjust(f, 2, body, stranger).status_code == 403
        assert f.boss().patch(f.url, {"is_public": False}, format="json").status_code == 200
        assert adjust(f, 2, body, stranger).status_code == 404
        assert table.hands.filter(number=2).exists()

    def test_the_money_settlement_counts_it(self) -> None:
        f, table, _hand = self.cut_off(real_money=True)
        keys = seat_keys_of(table)
        amounts = dict(zip(keys, [25, 25, -50], strict=True))
        assert adjust(f, 2, {"amounts": amounts}).status_code == 201
        table.refresh_from_db()
        assert table.closing is not None
        entry_of = dict(RoundSeat.objects.filter(round__number=1).values_list("seat", "entry_id"))
        nets = {row["entry"]: row["net"] for row in f.get("settlement/")["nets"]}
        for key in keys:
            expected = int(table.closing["nets"].get(key, 0)) + amounts[key]
            assert nets.get(entry_of[key], 0) == expected

    def test_in_duplicate_an_adjusted_board_is_compared_with_the_tables_that_played_it(
        self,
    ) -> None:
        f = hosted(players=6, scoring="duplicate", round_minutes=90)
        seat(f)
        first, second = round_tables(f, 1)
        play_hand(first, 1)
        games.hand_start(table_id=second.pk, user=None)  # board 1, cut off in its auction
        assert not run_out(f)
        board = Board.objects.get(round=rounds_of(f), number=1)
        assert board.revealed_at is None
        keys = seat_keys_of(second)
        amounts = dict(zip(keys, [20, 0, -20], strict=True))
        link = RoundTable.objects.get(table=second)
        answer = f.boss().post(
            f"{f.url}rounds/1/tables/{link.number}/hands/1/adjust/",
            {"amounts": amounts},
            format="json",
        )
        assert answer.status_code == 201, answer.content
        board.refresh_from_db()
        assert board.revealed_at is not None
        _, boards, _ = standings.inputs(f.tournament)
        entry_of = dict(RoundSeat.objects.filter(round_table=link).values_list("seat", "entry_id"))
        adjusted = {b.player: b.amount for b in boards if b.table == link.number}
        assert adjusted == {entry_of[k]: v for k, v in amounts.items()}
        assert len([b for b in boards if b.board == 1]) == 6
        assert rounds_of(f).status == Round.Status.CLOSED
