"""Cups through their services and the database (issue 42, ``tournaments.services.cups``): the
lifecycle, events proposed and decided by the right people, imports, corrections, merges, a
server tournament's standings flowing into its cups, the final and the winner, and the log.

Tasks run in this process; ``django_capture_on_commit_callbacks(execute=True)`` runs what a
command sends after its commit (the tournament's recompute, then the cup's), as the worker
would."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

import pytest

from clubs import privacy
from clubs.models import Club, Membership, User
from tests.factories import UserFactory
from tournaments import services
from tournaments.errors import CupConflict, CupNotFound, InvalidInput, NotAllowed
from tournaments.models import (
    Cup,
    CupEvent,
    CupLogEntry,
    CupPlayer,
    CupResult,
    CupStanding,
    Round,
    RoundTable,
    StandingRow,
    TableTotals,
    Tournament,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 100}
POLICY = {"points": {"table": [10, 8, 6, 5, 4, 3]}}
FINAL = {"qualify": {"top": 3}, "carry": [6, 4, 2], "points": {"table": [10, 5, 0]}}

Capture = Callable[..., AbstractContextManager[list[Callable[[], None]]]]


@dataclass
class World:
    """The cup's director, a club running tournaments (its admin directs them), its members
    who play, and an outsider. The boss plays with the host, Anna and Bert at a Stammtisch
    (``fellows``), so may name them in the cup (a director names only people they play with:
    ``tournaments.cup_permissions.may_name``); the other members and the outsider play with
    the boss nowhere."""

    boss: User
    host: User
    outsider: User
    club: Club
    fellows: Club
    members: list[User] = field(default_factory=list)
    capture: Capture | None = None

    def after_commit(self) -> AbstractContextManager[list[Callable[[], None]]]:
        assert self.capture is not None
        return self.capture(execute=True)

    def cup(self, **values: Any) -> Cup:
        body: dict[str, Any] = {
            "club": None,
            "name": "Tarockcup",
            "rule_sets": ["wien"],
            "policy": POLICY,
            **values,
        }
        return services.cup_create(user=self.boss, **body)

    def running_cup(self, **values: Any) -> Cup:
        cup = self.cup(**values)
        return services.cup_open(user=self.boss, cup=cup)

    def tournament(self, name: str = "Wiener Open", *, substitute: str = "") -> Tournament:
        """A tournament of the club (public, offline totals, one round) in check-in with six
        entries: the members, or five and a substitute known by name."""
        t = services.tournament_create(
            user=self.host,
            club_id=self.club.pk,
            name=name,
            rules=RULES,
            rounds_planned=1,
            deals_per_round=3,
            results=Tournament.Results.TOTALS,
            tiebreaks=[],
            starts_on=dt.date(2026, 3, 1),
        )
        services.tournament_open_registration(user=self.host, tournament=t)
        services.tournament_open_check_in(user=self.host, tournament=t)
        players = self.members[:5] if substitute else self.members[:6]
        for member in players:
            services.entry_add(
                user=self.host, tournament=t, player_id=member.pk, name=member.display_name
            )
        if substitute:
            services.entry_add(user=self.host, tournament=t, name=substitute)
        return t

    def play(self, t: Tournament, tables: Sequence[Sequence[int]]) -> None:
        """Seat, start, enter each table's totals (by seat position) and close round 1."""
        rnd = services.round_seat(user=self.host, tournament=t)
        services.round_seat_run(round_id=rnd.pk, user_id=self.host.pk)
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.SEATED, rnd.error
        services.round_start(user=self.host, round=rnd)
        for link, amounts in zip(
            RoundTable.objects.filter(round=rnd).order_by("number"), tables, strict=True
        ):
            seats = list(link.seats.order_by("position").values_list("seat", flat=True))
            services.totals_enter(
                user=self.host, round_table=link, amounts=dict(zip(seats, amounts, strict=True))
            )
        services.round_close(user=self.host, round=rnd)

    def finished(self, name: str = "Wiener Open", *, substitute: str = "") -> Tournament:
        t = self.tournament(name, substitute=substitute)
        self.play(t, [[30, -5, -25], [20, -2, -18]])
        with self.after_commit():
            services.tournament_finish(user=self.host, tournament=t)
        t.refresh_from_db()
        return t


@pytest.fixture
def w(django_capture_on_commit_callbacks: Capture) -> Iterator[World]:
    boss = UserFactory.create(username="boss")
    host = UserFactory.create(username="host")
    outsider = UserFactory.create(username="outsider")
    club = Club.objects.create(name="Wiener Runde", slug="wiener-runde", default_rules=RULES)
    Membership.objects.create(club=club, user=host, role=Membership.Role.ADMIN)
    fellows = Club.objects.create(name="Stammtisch", slug="stammtisch")
    world = World(boss, host, outsider, club, fellows, capture=django_capture_on_commit_callbacks)
    for name in ("anna", "bert", "carl", "dora", "emil", "fritz"):
        member = UserFactory.create(username=name)
        Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
        world.members.append(member)
    for person in (boss, host, *world.members[:2]):
        Membership.objects.create(club=fellows, user=person)
    yield world


def standings(cup: Cup, ranking: str = "") -> list[tuple[str, int | None, str]]:
    """(name, rank, points) of a stored ranking, in order."""
    return [
        (row.player.name, row.rank, row.points)
        for row in CupStanding.objects.filter(cup=cup, ranking=ranking)
        .select_related("player")
        .order_by("position")
    ]


def actions(cup: Cup) -> list[str]:
    return list(CupLogEntry.objects.filter(cup=cup).order_by("id").values_list("action", flat=True))


def recompute(cup: Cup) -> None:
    assert services.cup_recompute(cup_id=cup.pk)


CSV = "placing,name,score,rounds,region\n1,Anna Berger,12,3,Tirol\n2,Bert Huber,7/2,3,Kärnten\n"


# ---------------------------------------------------------------------------------------------
# the cup and its lifecycle


def test_a_signed_in_user_creates_a_draft_cup_that_they_direct(w: World) -> None:
    cup = w.cup(season_starts_on=dt.date(2026, 1, 1), season_ends_on=dt.date(2026, 12, 31))
    assert (cup.status, cup.slug, cup.created_by_id) == ("draft", "tarockcup", w.boss.pk)
    assert list(cup.directors.all()) == [w.boss]
    assert w.cup().slug == "tarockcup-2"
    assert actions(cup) == ["cup_create"]


def test_a_cup_counts_only_rule_sets_that_exist(w: World) -> None:
    with pytest.raises(InvalidInput) as caught:
        w.cup(rule_sets=["wien", "schnapsen"])
    assert list(caught.value.fields) == ["rule_sets"]
    assert "schnapsen" in caught.value.message
    with pytest.raises(InvalidInput):
        w.cup(rule_sets=[])


def test_a_policy_the_core_refuses_is_refused_naming_its_field(w: World) -> None:
    with pytest.raises(InvalidInput) as caught:
        w.cup(policy={"points": {"table": [10, 8, -1]}})
    (name,) = caught.value.fields
    assert name.startswith("policy.points.table")
    with pytest.raises(InvalidInput) as caught:
        w.cup(final={"carry": [3, 2, 1]})
    assert list(caught.value.fields) == ["final.points"]


def test_a_season_ends_after_it_starts(w: World) -> None:
    with pytest.raises(InvalidInput) as caught:
        w.cup(season_starts_on=dt.date(2026, 6, 1), season_ends_on=dt.date(2026, 5, 1))
    assert list(caught.value.fields) == ["season_ends_on"]


def test_a_clubs_cup_is_created_and_run_by_its_owners_and_admins(w: World) -> None:
    with pytest.raises(NotAllowed):
        services.cup_create(
            user=w.members[0], club=w.club, name="Clubcup", rule_sets=["wien"], policy=POLICY
        )
    cup = services.cup_create(
        user=w.host, club=w.club, name="Clubcup", rule_sets=["wien"], policy=POLICY
    )
    admin = UserFactory.create(username="admin2")
    Membership.objects.create(club=w.club, user=admin, role=Membership.Role.ADMIN)
    services.cup_update(user=admin, cup=cup, description="Der Cup des Vereins.")
    cup.refresh_from_db()
    assert cup.description == "Der Cup des Vereins."


def test_only_directors_change_a_cup_and_outsiders_find_no_draft(w: World) -> None:
    draft = w.cup()
    with pytest.raises(CupNotFound):
        services.cup_update(user=w.outsider, cup=draft, name="Mine")
    running = w.running_cup(name="Offener Cup")
    with pytest.raises(NotAllowed):
        services.cup_update(user=w.outsider, cup=running, name="Mine")
    hidden = w.running_cup(name="Geheimer Cup", is_public=False)
    with pytest.raises(CupNotFound):
        services.cup_finish(user=w.outsider, cup=hidden)


def test_unknown_fields_are_refused(w: World) -> None:
    with pytest.raises(InvalidInput):
        services.cup_update(user=w.boss, cup=w.cup(), winner=3)


def test_the_lifecycle_runs_in_order_and_refuses_steps_out_of_it(w: World) -> None:
    cup = w.cup()
    with pytest.raises(CupConflict) as caught:
        services.cup_finish(user=w.boss, cup=cup)
    assert caught.value.code == "wrong_state"
    services.cup_open(user=w.boss, cup=cup)
    with pytest.raises(CupConflict) as caught:
        services.cup_finish(user=w.boss, cup=cup)
    assert caught.value.code == "no_winner"  # nobody ranked yet
    with pytest.raises(CupConflict) as caught:
        services.cup_delete(user=w.boss, cup=cup)
    assert caught.value.code == "wrong_state"
    services.event_import(
        user=w.boss,
        cup=cup,
        name="Grazer Open",
        held_on=dt.date(2026, 2, 1),
        data=CSV,
        format="csv",
    )
    cup = services.cup_finish(user=w.boss, cup=cup)
    assert cup.status == "finished"
    assert cup.winner is not None and cup.winner.name == "Anna Berger"
    with pytest.raises(CupConflict):
        services.event_import(
            user=w.boss, cup=cup, name="Late", held_on=dt.date(2026, 3, 1), data=CSV, format="csv"
        )
    cup = services.cup_reopen(user=w.boss, cup=cup, reason="A late correction.")
    assert (cup.status, cup.winner_id) == ("running", None)
    assert actions(cup) == ["cup_create", "cup_open", "event_import", "cup_finish", "cup_reopen"]
    entry = CupLogEntry.objects.filter(cup=cup, action="cup_reopen").get()
    assert entry.detail["reason"] == "A late correction."


def test_only_a_draft_is_deleted(w: World) -> None:
    cup = w.cup()
    services.cup_delete(user=w.boss, cup=cup)
    assert not Cup.objects.filter(pk=cup.pk).exists()


def test_directors_are_added_and_a_cup_of_no_club_keeps_one(w: World) -> None:
    cup = w.cup()
    # the outsider joins the boss's Stammtisch: the boss may name them now
    Membership.objects.create(club=w.fellows, user=w.outsider)
    services.cup_director_add(user=w.boss, cup=cup, director_id=w.outsider.pk)
    services.cup_update(user=w.outsider, cup=cup, name="Neuer Name")
    services.cup_director_remove(user=w.outsider, cup=cup, director_id=w.boss.pk)
    with pytest.raises(CupConflict) as caught:
        services.cup_director_remove(user=w.outsider, cup=cup, director_id=w.outsider.pk)
    assert caught.value.code == "last_director"
    with pytest.raises(InvalidInput):
        services.cup_director_add(user=w.outsider, cup=cup, director_id=999999)
    assert actions(cup) == ["cup_create", "director_add", "cup_update", "director_remove"]


# ---------------------------------------------------------------------------------------------
# events of this server


def test_a_tournament_proposed_by_the_cup_counts_once_its_director_accepts(w: World) -> None:
    cup = w.running_cup()
    t = w.tournament()
    event = services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
    assert (event.status, event.kind, event.name) == ("proposed", "tournament", "Wiener Open")
    with pytest.raises(NotAllowed):
        services.event_accept(user=w.boss, event=event)  # the cup's director is not the host
    with pytest.raises(NotAllowed):
        services.event_accept(user=w.outsider, event=event)
    event = services.event_accept(user=w.host, event=event)
    assert (event.status, event.decided_by_id) == ("accepted", w.host.pk)
    with pytest.raises(CupConflict) as caught:
        services.event_accept(user=w.host, event=event)
    assert caught.value.code == "wrong_state"
    event = services.event_decline(user=w.host, event=event)
    assert event.status == "declined"
    assert actions(cup)[-3:] == ["event_add", "event_accept", "event_decline"]


def test_a_proposal_in_a_cup_nobody_may_see_is_not_found_by_strangers(w: World) -> None:
    cup = w.cup()  # a draft
    t = w.tournament()
    event = services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
    with pytest.raises(NotAllowed):
        # the tournament is public: its existence is no secret, the decision is not theirs
        services.event_decline(user=w.outsider, event=event)
    assert services.event_decline(user=w.host, event=event).status == "declined"


def test_a_director_of_both_adds_a_tournament_accepted(w: World) -> None:
    cup = w.running_cup()
    services.cup_director_add(user=w.boss, cup=cup, director_id=w.host.pk)
    t = w.tournament()
    event = services.event_add_tournament(user=w.host, cup=cup, tournament_id=t.pk)
    assert event.status == "accepted"
    with pytest.raises(CupConflict) as caught:
        services.event_add_tournament(user=w.host, cup=cup, tournament_id=t.pk)
    assert caught.value.code == "event_exists"


def test_a_tournament_of_a_rule_set_the_cup_does_not_count_is_refused(w: World) -> None:
    cup = w.running_cup(rule_sets=["preferans"])
    t = w.tournament()
    with pytest.raises(InvalidInput) as caught:
        services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
    assert caught.value.code == "rule_set"
    assert "wien" in caught.value.message and "preferans" in caught.value.message


def test_a_tournament_the_director_may_not_see_does_not_exist(w: World) -> None:
    cup = w.running_cup()
    t = w.tournament()
    Tournament.objects.filter(pk=t.pk).update(is_public=False)
    with pytest.raises(InvalidInput) as caught:
        services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
    assert list(caught.value.fields) == ["tournament_id"]


def test_a_finished_tournament_s_standings_flow_into_the_cup(w: World) -> None:
    cup = w.running_cup()
    services.cup_director_add(user=w.boss, cup=cup, director_id=w.host.pk)
    t = w.tournament(substitute="Gast Huber")
    with w.after_commit():
        services.event_add_tournament(user=w.host, cup=cup, tournament_id=t.pk)
    assert not CupResult.objects.filter(event__cup=cup).exists()  # not finished yet
    w.play(t, [[30, -5, -25], [20, -2, -18]])
    with w.after_commit():
        services.tournament_finish(user=w.host, tournament=t)
    rows = {
        (r.user_id, r.name): (r.rank, r.points, r.rounds)
        for r in StandingRow.objects.filter(tournament=t)
    }
    copied = {
        (r.player.user_id, r.player.name): (r.placing, r.score, r.rounds)
        for r in CupResult.objects.filter(event__cup=cup).select_related("player")
    }
    assert copied == rows
    assert sorted(r[1] for r in copied.values()) == ["-18", "-2", "-25", "-5", "20", "30"]
    guest = CupPlayer.objects.get(cup=cup, user=None)
    assert guest.name == "Gast Huber"
    table = standings(cup)
    assert [points for _, _, points in table] == ["10", "8", "6", "5", "4", "3"]
    cup.refresh_from_db()
    assert cup.computed_version == cup.requested_version > 0


def test_a_reopened_tournament_leaves_the_cup_and_a_correction_changes_it(w: World) -> None:
    cup = w.running_cup()
    t = w.finished()
    with w.after_commit():
        event = services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
        services.event_accept(user=w.host, event=event)
    assert CupResult.objects.filter(event=event).count() == 6
    first = standings(cup)[0]

    with w.after_commit():
        services.tournament_reopen(user=w.host, tournament=t, reason="A wrong total.")
    assert not CupResult.objects.filter(event=event).exists()
    assert standings(cup) == []

    # the director turns table 1 around, and finishes again
    link = RoundTable.objects.filter(round__tournament=t).order_by("number").first()
    assert link is not None
    seats = list(link.seats.order_by("position").values_list("seat", flat=True))
    with w.after_commit():
        services.totals_enter(
            user=w.host, round_table=link, amounts=dict(zip(seats, [-25, -5, 30], strict=True))
        )
        services.tournament_finish(user=w.host, tournament=t)
    assert TableTotals.objects.get(round_table=link).amounts[seats[2]] == 30
    after = standings(cup)
    assert len(after) == 6 and after[0] != first
    winner = StandingRow.objects.get(tournament=t, rank=1)
    assert after[0][0] == winner.name


def test_a_correction_of_a_finished_tournament_changes_the_cup(w: World) -> None:
    cup = w.running_cup()
    t = w.finished()
    with w.after_commit():
        event = services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
        services.event_accept(user=w.host, event=event)
    link = RoundTable.objects.filter(round__tournament=t).order_by("number").first()
    assert link is not None
    seats = list(link.seats.order_by("position").values_list("seat", flat=True))
    last = CupResult.objects.get(event=event, score="-25")
    with w.after_commit():  # directors correct a closed round's totals
        services.totals_enter(
            user=w.host, round_table=link, amounts=dict(zip(seats, [30, -25, -5], strict=True))
        )
    moved = CupResult.objects.get(event=event, player=last.player)
    assert moved.score == "-5"
    assert moved.placing == StandingRow.objects.get(tournament=t, user=last.player.user).rank


def test_a_recompute_run_twice_changes_nothing(w: World) -> None:
    cup = w.running_cup(policy={**POLICY, "side_rankings": ["region"]})
    services.event_import(
        user=w.boss,
        cup=cup,
        name="Grazer Open",
        held_on=dt.date(2026, 2, 1),
        data=CSV,
        format="csv",
    )
    recompute(cup)
    results = set(CupResult.objects.filter(event__cup=cup).values_list("pk", "placing", "score"))
    first = list(
        CupStanding.objects.filter(cup=cup)
        .order_by("ranking", "position")
        .values("ranking", "player", "position", "rank", "points", "details", "history")
    )
    recompute(cup)
    again = list(
        CupStanding.objects.filter(cup=cup)
        .order_by("ranking", "position")
        .values("ranking", "player", "position", "rank", "points", "details", "history")
    )
    assert again == first
    assert set(CupResult.objects.filter(event__cup=cup).values_list("pk", "placing", "score")) == (
        results
    )
    assert {row["ranking"] for row in first} == {"", "region:Tirol", "region:Kärnten"}


def test_a_task_for_an_answered_version_computes_nothing(w: World) -> None:
    cup = w.running_cup()
    Cup.objects.filter(pk=cup.pk).update(requested_version=3, computed_version=0)
    assert services.cup_recompute(cup_id=cup.pk, version=1)  # the first since: takes 1-3
    assert not services.cup_recompute(cup_id=cup.pk, version=2)
    assert not services.cup_recompute(cup_id=cup.pk, version=3)
    cup.refresh_from_db()
    assert (cup.computed_version, cup.computations) == (3, 1)


# ---------------------------------------------------------------------------------------------
# imports


def test_an_import_matches_accounts_by_id_and_guests_by_name(w: World) -> None:
    cup = w.running_cup(policy={**POLICY, "side_rankings": ["region"]})
    anna = w.members[0]
    first = f"placing,name,user,region\n1,Anna B.,{anna.pk},Tirol\n2,Bert Huber,,Kärnten\n"
    services.event_import(
        user=w.boss, cup=cup, name="Grazer Open", held_on=dt.date(2026, 2, 1), data=first,
        format="csv",
    )  # fmt: skip
    second = {
        "results": [
            {"placing": 1, "name": "  bert   HUBER ", "score": "12.5", "rounds": 3},
            {"placing": 2, "name": "Anna", "user": anna.pk},
            {"placing": 3, "name": "Carl Maier", "attributes": {"region": "Tirol"}},
        ]
    }
    event = services.event_import(
        user=w.boss,
        cup=cup,
        name="Villacher Open",
        held_on=dt.date(2026, 3, 1),
        data=second,
        format="json",
        field_size=12,
    )
    assert event.field_size == 12 and event.source["format"] == "json"
    players = {p.name: p for p in CupPlayer.objects.filter(cup=cup)}
    assert set(players) == {"Anna B.", "Bert Huber", "Carl Maier"}
    assert players["Anna B."].user_id == anna.pk
    assert players["Bert Huber"].attributes == {"region": "Kärnten"}
    bert = CupResult.objects.get(event=event, player=players["Bert Huber"])
    assert (bert.score, bert.rounds) == ("25/2", 3)
    recompute(cup)
    # 10 + 8 each: equal placings and best results; Bert placed better at the latest event
    assert standings(cup) == [("Bert Huber", 1, "18"), ("Anna B.", 2, "18"), ("Carl Maier", 3, "6")]
    assert [name for name, _, _ in standings(cup, "region:Tirol")] == ["Anna B.", "Carl Maier"]
    assert actions(cup)[-2:] == ["event_import", "event_import"]


def test_an_import_is_refused_naming_the_line_and_nothing_is_stored(w: World) -> None:
    cup = w.running_cup()
    with pytest.raises(InvalidInput) as caught:
        services.event_import(
            user=w.boss,
            cup=cup,
            name="Grazer Open",
            held_on=dt.date(2026, 2, 1),
            data="placing,name\n1,Anna\n0,Bert\n",
            format="csv",
        )
    assert caught.value.message == "line 3: placing must be a whole number of at least 1"
    assert caught.value.fields == {"data": [caught.value.message]}
    assert caught.value.code == "placing"
    with pytest.raises(InvalidInput) as caught:
        services.event_import(
            user=w.boss,
            cup=cup,
            name="Grazer Open",
            held_on=dt.date(2026, 2, 1),
            data={"results": [{"placing": 1, "name": "Anna", "score": 1.5}]},
            format="json",
        )
    assert list(caught.value.fields) == ["data.results[0].score"]
    with pytest.raises(InvalidInput) as caught:
        services.event_import(
            user=w.boss,
            cup=cup,
            name="Grazer Open",
            held_on=dt.date(2026, 2, 1),
            data="placing,name,user\n1,Anna,999999\n",
            format="csv",
        )
    assert caught.value.message.startswith("line 2: ")
    assert caught.value.code == "unknown_account"
    with pytest.raises(InvalidInput) as caught:
        services.event_import(
            user=w.boss, cup=cup, name="X", held_on=dt.date(2026, 2, 1), data=CSV, format="xls"
        )
    assert list(caught.value.fields) == ["format"]
    with pytest.raises(InvalidInput) as caught:
        services.event_import(
            user=w.boss, cup=cup, name="X", held_on=dt.date(2026, 2, 1), data=CSV, format="csv",
            field_size=1,
        )  # fmt: skip
    assert list(caught.value.fields) == ["field_size"]
    assert not CupEvent.objects.filter(cup=cup).exists()
    assert actions(cup) == ["cup_create", "cup_open"]


def test_only_directors_import(w: World) -> None:
    cup = w.running_cup()
    with pytest.raises(NotAllowed):
        services.event_import(
            user=w.outsider, cup=cup, name="X", held_on=dt.date(2026, 2, 1), data=CSV, format="csv"
        )


def test_replacing_an_import_s_results_corrects_the_standings(w: World) -> None:
    cup = w.running_cup()
    event = services.event_import(
        user=w.boss,
        cup=cup,
        name="Grazer Open",
        held_on=dt.date(2026, 2, 1),
        data=CSV,
        format="csv",
    )
    recompute(cup)
    assert [name for name, _, _ in standings(cup)] == ["Anna Berger", "Bert Huber"]
    swapped = "placing,name,score\n1,Bert Huber,12\n2,Anna Berger,7/2\n"
    with w.after_commit():
        services.event_replace_results(user=w.boss, event=event, data=swapped, format="csv")
    assert standings(cup) == [("Bert Huber", 1, "10"), ("Anna Berger", 2, "8")]
    assert CupPlayer.objects.filter(cup=cup).count() == 2  # the same players, by name
    entry = CupLogEntry.objects.filter(cup=cup, action="event_replace_results").get()
    assert entry.detail["before"]["digest"] != entry.detail["digest"]


def test_a_server_tournament_s_results_are_not_replaced_by_hand(w: World) -> None:
    cup = w.running_cup()
    t = w.tournament()
    event = services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
    with pytest.raises(CupConflict) as caught:
        services.event_replace_results(user=w.boss, event=event, data=CSV, format="csv")
    assert caught.value.code == "not_imported"


def test_removing_an_event_takes_its_results_out_of_the_standings(w: World) -> None:
    cup = w.running_cup()
    event = services.event_import(
        user=w.boss,
        cup=cup,
        name="Grazer Open",
        held_on=dt.date(2026, 2, 1),
        data=CSV,
        format="csv",
    )
    recompute(cup)
    with w.after_commit():
        services.event_remove(user=w.boss, event=event)
    assert standings(cup) == []
    assert actions(cup)[-1] == "event_remove"


# ---------------------------------------------------------------------------------------------
# players


def test_merging_a_duplicate_moves_its_results_and_its_name_leads_there(w: World) -> None:
    cup = w.running_cup()
    anna = w.members[0]
    services.event_import(
        user=w.boss, cup=cup, name="Grazer Open", held_on=dt.date(2026, 2, 1),
        data="placing,name\n1,Anna Berger\n2,Bert Huber\n", format="csv",
    )  # fmt: skip
    services.event_import(
        user=w.boss, cup=cup, name="Villacher Open", held_on=dt.date(2026, 3, 1),
        data=f"placing,name,user\n1,Anna,{anna.pk}\n2,Bert Huber,\n", format="csv",
    )  # fmt: skip
    guest = CupPlayer.objects.get(cup=cup, name="Anna Berger")
    account = CupPlayer.objects.get(cup=cup, user=anna)
    bert = CupPlayer.objects.get(cup=cup, name="Bert Huber")
    with pytest.raises(CupConflict) as caught:
        services.player_merge(user=w.boss, player=bert, into=account)
    assert caught.value.code == "duplicate_result"
    with w.after_commit():
        target = services.player_merge(user=w.boss, player=guest, into=account)
    assert target.pk == account.pk
    assert CupResult.objects.filter(player=account).count() == 2
    assert not CupResult.objects.filter(player=guest).exists()
    guest.refresh_from_db()
    assert guest.merged_into_id == account.pk
    assert [(name, rank) for name, rank, _ in standings(cup)][0] == ("Anna", 1)
    # the duplicate's name comes again in a later import: it is the account's player
    services.event_import(
        user=w.boss, cup=cup, name="Linzer Open", held_on=dt.date(2026, 4, 1),
        data="placing,name\n1,anna berger\n", format="csv",
    )  # fmt: skip
    assert CupResult.objects.filter(player=account).count() == 3
    assert actions(cup).count("player_merge") == 1


def test_a_guest_is_linked_to_an_account_and_an_account_merged_into_a_guest(w: World) -> None:
    cup = w.running_cup()
    anna, bert = w.members[:2]
    services.event_import(
        user=w.boss, cup=cup, name="Grazer Open", held_on=dt.date(2026, 2, 1),
        data=f"placing,name,user\n1,Anna Berger,\n2,B,{bert.pk}\n3,Bert Huber,\n", format="csv",
    )  # fmt: skip
    guest = CupPlayer.objects.get(cup=cup, name="Anna Berger")
    linked = services.player_update(
        user=w.boss, player=guest, user_id=anna.pk, attributes={"Region": "Tirol"}
    )
    assert (linked.user_id, linked.attributes) == (anna.pk, {"region": "Tirol"})
    account = CupPlayer.objects.get(cup=cup, user=bert)
    with pytest.raises(CupConflict) as caught:
        services.player_update(
            user=w.boss, player=CupPlayer.objects.get(name="Bert Huber"), user_id=bert.pk
        )
    assert caught.value.code == "account_taken"
    # merging the account's player into the guest: the guest takes the account
    with pytest.raises(CupConflict):  # both played the Grazer Open
        services.player_merge(
            user=w.boss, player=account, into=CupPlayer.objects.get(name="Bert Huber")
        )
    with pytest.raises(NotAllowed):
        services.player_update(user=w.outsider, player=guest, name="X")


# ---------------------------------------------------------------------------------------------
# whom a director may name


Answer = tuple[str, str, dict[str, list[str]]]


def refusal(call: Callable[[], object]) -> Answer:
    """The (code, message, fields) of the input refusal ``call`` ends in."""
    with pytest.raises(InvalidInput) as caught:
        call()
    return caught.value.code, caught.value.message, dict(caught.value.fields)


def blanked(person: int, answers: list[Answer]) -> list[Answer]:
    """``answers`` with the id ``person`` blanked where a sentence names it."""

    def blank(text: str) -> str:
        return text.replace(f"account {person} ", "account ? ")

    return [(c, blank(m), {k: [blank(x) for x in v] for k, v in f.items()}) for c, m, f in answers]


def test_a_stranger_s_account_is_refused_exactly_like_an_id_nobody_uses(w: World) -> None:
    """Making a director, linking a player and naming an account in an import: an account of
    someone the boss plays with nowhere answers as an unused id does, so a director cannot
    probe which accounts exist; nothing changes."""
    cup = w.running_cup()
    services.event_import(
        user=w.boss, cup=cup, name="Grazer Open", held_on=dt.date(2026, 2, 1), data=CSV,
        format="csv",
    )  # fmt: skip
    guest = CupPlayer.objects.get(cup=cup, name="Anna Berger")
    gone = UserFactory.create(username="gone", is_active=False)
    Membership.objects.create(club=w.fellows, user=gone)  # a fellow, but no longer an account
    unused = max(User.objects.values_list("pk", flat=True)) + 1000

    def answers(person: int) -> list[Answer]:
        def director() -> None:
            services.cup_director_add(user=w.boss, cup=cup, director_id=person)

        def link() -> None:
            services.player_update(user=w.boss, player=guest, user_id=person)

        def name() -> None:
            rows = {"results": [{"placing": 1, "name": "Anna", "user": person}]}
            services.event_import(
                user=w.boss, cup=cup, name="Villacher Open", held_on=dt.date(2026, 3, 1),
                data=rows, format="json",
            )  # fmt: skip

        return [refusal(director), refusal(link), refusal(name)]

    nobody = answers(unused)
    sentence = "There is no such account among the people you play with."
    assert nobody[:2] == [
        ("validation_error", sentence, {"director_id": [sentence]}),
        ("validation_error", sentence, {"user_id": [sentence]}),
    ]
    code, message, fields = nobody[2]
    assert code == "unknown_account"
    assert message.endswith(f"there is no account {unused} among the people you play with")
    # the outsider; Carl, who plays in the host's club but not with the boss; a fellow gone
    for stranger in (w.outsider, w.members[2], gone):
        theirs = answers(stranger.pk)
        assert blanked(stranger.pk, theirs) == blanked(unused, nobody), stranger.username
    assert list(cup.directors.all()) == [w.boss]
    guest.refresh_from_db()
    assert guest.user_id is None
    assert CupEvent.objects.filter(cup=cup).count() == 1
    assert actions(cup) == ["cup_create", "cup_open", "event_import"]


def test_an_account_playing_in_the_cup_may_be_named_by_its_directors(w: World) -> None:
    """Carl plays with the boss nowhere, until a finished tournament of this server puts him
    in the boss's cup: then the boss may name him (make him a director, link him, import his
    results), as one of the cup's players."""
    cup = w.running_cup()
    carl = w.members[2]
    services.event_import(
        user=w.boss, cup=cup, name="Grazer Open", held_on=dt.date(2026, 2, 1),
        data="placing,name\n1,C. Maier\n", format="csv",
    )  # fmt: skip
    guest = CupPlayer.objects.get(cup=cup, name="C. Maier")
    with pytest.raises(InvalidInput):
        services.player_update(user=w.boss, player=guest, user_id=carl.pk)
    t = w.tournament()
    event = services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
    services.event_accept(user=w.host, event=event)
    w.play(t, [[30, -5, -25], [20, -2, -18]])
    with w.after_commit():
        services.tournament_finish(user=w.host, tournament=t)
    playing = CupPlayer.objects.get(cup=cup, user=carl)
    # linking the guest to Carl now finds his player: the answer is to merge the two
    with pytest.raises(CupConflict) as caught:
        services.player_update(user=w.boss, player=guest, user_id=carl.pk)
    assert caught.value.code == "account_taken"
    assert caught.value.message == "Another player of the cup has that account: merge the two."
    imported = services.event_import(
        user=w.boss, cup=cup, name="Villacher Open", held_on=dt.date(2026, 3, 1),
        data=f"placing,name,user\n1,Carl,{carl.pk}\n", format="csv",
    )  # fmt: skip
    assert CupResult.objects.get(event=imported).player_id == playing.pk
    services.cup_director_add(user=w.boss, cup=cup, director_id=carl.pk)
    assert set(cup.directors.all()) == {w.boss, carl}


# ---------------------------------------------------------------------------------------------
# the final and the winner


def test_the_final_decides_the_winner(w: World) -> None:
    cup = w.running_cup(final=FINAL)
    season = [
        "placing,name\n1,Anna\n2,Bert\n3,Carl\n4,Dora\n",
        "placing,name\n1,Anna\n2,Bert\n3,Carl\n4,Dora\n",
    ]
    for number, text in enumerate(season, 1):
        services.event_import(
            user=w.boss, cup=cup, name=f"Runde {number}", held_on=dt.date(2026, number, 1),
            data=text, format="csv",
        )  # fmt: skip
    recompute(cup)
    overall = CupStanding.objects.filter(cup=cup, ranking="").order_by("position")
    assert [(r.player.name, r.qualified) for r in overall] == [
        ("Anna", True),
        ("Bert", True),
        ("Carl", True),
        ("Dora", False),
    ]
    assert [(name, points) for name, _, points in standings(cup, "final")] == [
        ("Anna", "6"),
        ("Bert", "4"),
        ("Carl", "2"),
    ]
    with pytest.raises(CupConflict) as caught:
        services.cup_finish(user=w.boss, cup=cup)
    assert caught.value.code == "final_missing"
    with pytest.raises(CupConflict) as caught:
        services.event_import(
            user=w.boss, cup=cup, name="Noch ein Finale", held_on=dt.date(2026, 5, 1),
            data="placing,name\n1,Anna\n", format="csv", is_final=True, field_size=3,
        )  # fmt: skip
        services.event_import(
            user=w.boss, cup=cup, name="Finale", held_on=dt.date(2026, 6, 1),
            data="placing,name\n1,Carl\n2,Anna\n3,Bert\n", format="csv", is_final=True,
        )  # fmt: skip
    assert caught.value.code == "final_exists"
    final = CupEvent.objects.get(cup=cup, is_final=True)
    services.event_replace_results(
        user=w.boss, event=final, data="placing,name\n1,Carl\n2,Anna\n3,Bert\n", format="csv"
    )
    cup = services.cup_finish(user=w.boss, cup=cup)
    assert cup.winner is not None and cup.winner.name == "Carl"  # 2 + 10 beats 6 + 5
    assert [(name, points) for name, _, points in standings(cup, "final")] == [
        ("Carl", "12"),
        ("Anna", "11"),
        ("Bert", "4"),
    ]
    # the final's results are the final's: the cup's own table is the season's
    assert [name for name, _, _ in standings(cup)][:1] == ["Anna"]
    finish = CupLogEntry.objects.get(cup=cup, action="cup_finish")
    assert finish.detail["winner"] == cup.winner.pk


def test_a_cup_shared_at_the_top_is_not_finished_by_the_names_order(w: World) -> None:
    """Without a final, two players equal on points and every tiebreak share rank 1; the
    position between them is only their names' order, so finishing is refused (409
    ``tied_for_first``) until a tiebreak separates them."""
    cup = w.running_cup(policy={**POLICY, "tiebreaks": ["best_result"]})
    services.event_import(
        user=w.boss, cup=cup, name="Runde 1", held_on=dt.date(2026, 3, 1),
        data="placing,name\n1,Bert\n2,Anna\n3,Carl\n", format="csv",
    )  # fmt: skip
    services.event_import(
        user=w.boss, cup=cup, name="Runde 2", held_on=dt.date(2026, 4, 1),
        data="placing,name\n1,Anna\n2,Bert\n", format="csv",
    )  # fmt: skip
    with pytest.raises(CupConflict) as caught:
        services.cup_finish(user=w.boss, cup=cup)
    assert caught.value.code == "tied_for_first"
    assert caught.value.message == (
        "Anna and Bert share rank 1 on points and every tiebreak of the policy: add to the "
        "policy a tiebreak that separates them, or give the cup a final, which then decides."
    )
    cup.refresh_from_db()
    assert (cup.status, cup.winner_id) == ("running", None)
    assert "cup_finish" not in actions(cup)
    # the latest event both played separates them: Anna won it
    cup = services.cup_update(
        user=w.boss, cup=cup, policy={**POLICY, "tiebreaks": ["best_result", "latest"]}
    )
    cup = services.cup_finish(user=w.boss, cup=cup)
    assert cup.winner is not None and cup.winner.name == "Anna"


def test_a_final_shared_at_the_top_is_refused_until_its_results_separate_them(w: World) -> None:
    cup = w.running_cup(policy={**POLICY, "tiebreaks": []}, final=FINAL)
    services.event_import(
        user=w.boss, cup=cup, name="Runde 1", held_on=dt.date(2026, 3, 1),
        data="placing,name\n1,Anna\n1,Bert\n3,Carl\n", format="csv",
    )  # fmt: skip
    final = services.event_import(
        user=w.boss, cup=cup, name="Finale", held_on=dt.date(2026, 6, 1),
        data="placing,name\n1,Bert\n1,Anna\n3,Carl\n", format="csv", is_final=True,
    )  # fmt: skip
    with pytest.raises(CupConflict) as caught:
        services.cup_finish(user=w.boss, cup=cup)
    # both carry 6 from a shared rank 1 and share the final's first place: 16 each
    assert caught.value.code == "tied_for_first"
    assert caught.value.message.startswith("Anna and Bert share rank 1 of the final's table")
    assert "correct the final's results" in caught.value.message
    services.event_replace_results(
        user=w.boss, event=final, data="placing,name\n1,Bert\n2,Anna\n3,Carl\n", format="csv"
    )
    cup = services.cup_finish(user=w.boss, cup=cup)
    assert cup.winner is not None and cup.winner.name == "Bert"


def test_a_final_event_needs_the_cup_s_final(w: World) -> None:
    cup = w.running_cup()
    with pytest.raises(InvalidInput) as caught:
        services.event_import(
            user=w.boss, cup=cup, name="Finale", held_on=dt.date(2026, 6, 1), data=CSV,
            format="csv", is_final=True,
        )  # fmt: skip
    assert list(caught.value.fields) == ["is_final"]


def test_a_policy_change_asks_for_new_standings(w: World) -> None:
    cup = w.running_cup()
    services.event_import(
        user=w.boss,
        cup=cup,
        name="Grazer Open",
        held_on=dt.date(2026, 2, 1),
        data=CSV,
        format="csv",
    )
    recompute(cup)
    assert standings(cup)[0][2] == "10"
    with w.after_commit():
        services.cup_update(user=w.boss, cup=cup, policy={"points": {"table": [25, 20]}})
    assert [points for _, _, points in standings(cup)] == ["25", "20"]
    entry = CupLogEntry.objects.filter(cup=cup, action="cup_update").get()
    assert entry.detail["before"]["policy"] == POLICY


# ---------------------------------------------------------------------------------------------
# the log and the person's data


def test_every_command_leaves_one_log_entry(w: World) -> None:
    cup = w.cup()
    services.cup_update(user=w.boss, cup=cup, description="Saison 2026")
    services.cup_open(user=w.boss, cup=cup)
    event = services.event_import(
        user=w.boss,
        cup=cup,
        name="Grazer Open",
        held_on=dt.date(2026, 2, 1),
        data=CSV,
        format="csv",
    )
    services.event_replace_results(user=w.boss, event=event, data=CSV, format="csv")
    player = CupPlayer.objects.get(cup=cup, name="Bert Huber")
    services.player_update(user=w.boss, player=player, attributes={"club": "Graz"})
    services.cup_director_add(user=w.boss, cup=cup, director_id=w.host.pk)
    services.cup_director_remove(user=w.boss, cup=cup, director_id=w.host.pk)
    services.cup_finish(user=w.boss, cup=cup)
    services.cup_reopen(user=w.boss, cup=cup)
    services.event_remove(user=w.boss, event=event)
    assert actions(cup) == [
        "cup_create",
        "cup_update",
        "cup_open",
        "event_import",
        "event_replace_results",
        "player_update",
        "director_add",
        "director_remove",
        "cup_finish",
        "cup_reopen",
        "event_remove",
    ]
    assert set(CupLogEntry.objects.filter(cup=cup).values_list("user", flat=True)) == {w.boss.pk}


def test_a_person_s_export_lists_their_cups_and_erasure_leaves_a_pseudonym(w: World) -> None:
    cup = w.running_cup()
    anna = w.members[0]
    services.event_import(
        user=w.boss, cup=cup, name="Grazer Open", held_on=dt.date(2026, 2, 1),
        data=f"placing,name,score,user\n1,Anna Berger,12,{anna.pk}\n2,Bert Huber,3,\n",
        format="csv",
    )  # fmt: skip
    recompute(cup)
    section = privacy.export(anna)["cups"]
    (player,) = section["players"]
    assert player["cup"]["name"] == "Tarockcup"
    assert player["results"][0]["placing"] == 1 and player["results"][0]["score"] == "12"
    assert player["standings"][0]["rank"] == 1
    boss = privacy.export(w.boss)["cups"]
    assert [c["name"] for c in boss["cups"]] == ["Tarockcup"]
    erasure = privacy.erase(anna)
    renamed = CupPlayer.objects.get(cup=cup, user=anna)
    assert renamed.name == erasure.pseudonym
    assert CupResult.objects.filter(player=renamed).count() == 1  # Bert keeps his second place
    assert CupPlayer.objects.get(cup=cup, name="Bert Huber")


def test_the_last_director_of_a_cup_of_no_club_is_not_erased_before_adding_another(
    w: World,
) -> None:
    w.running_cup()
    codes = [o.code for o in privacy.obstacles(w.boss)]
    assert "last_cup_director" in codes
