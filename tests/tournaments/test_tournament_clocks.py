"""Clocks in hosted tournaments (issue 41): the tournament's time control goes to every hosted
table of a round seated after it is set; each timeout at a round's table is in the directors'
log; directors warn a player, audited.

Time is never the machine's: a flag falls at the moment the hand stores for it (``flag_at``),
given to the service as ``now``."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import User
from games import services as games
from games.models import Hand, Table
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments.setup import Field, make_field, seat
from tournaments.models import LogEntry, RoundSeat, RoundTable

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
        seats = [let_flag_fall(hand) for _ in range(4)]
        rows = timeouts(f)
        assert [r.detail["seat"] for r in rows] == seats
        assert seats[3] == seats[0]  # each of the three timed out once, then the first again
        assert [r.detail["in_row"] for r in rows] == [1, 1, 1, 2]
        assert [r.detail["away"] for r in rows] == [False, False, False, True]
        assert [r.detail["timeouts"] for r in rows] == [1, 1, 1, 2]

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
