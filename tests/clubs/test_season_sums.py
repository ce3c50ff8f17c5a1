"""The season standings sum each table's hands in the database (``HandLine.hands``) and ask
who sits where once per person: the same sittings' totals, placings, standings and ratings as
one line per player and hand, read hand by hand from every stored result with every seat
loaded (the reading the standings used before). Over Viennese tables of three and four (the
dealer of four sitting out), club guests, a guest merged into a member at the member's own
table, a guest known by name only, a bot's hosted table, Preferans and Doppelkopf tables,
corrected and deleted hands, closed tables (a pot split, a pulya paid) and league points.
And the standings endpoint's answer to anonymous readers, given without DRF's request cycle,
is the ordinary one."""

from __future__ import annotations

import dataclasses
import datetime as dt
import gc
import random
from collections import defaultdict
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

import engine
from clubs import ratings as rating_core
from clubs import standings as core
from clubs.models import Club, EveningTable, Guest, Season, User
from clubs.players import PlayerInfo, seat_player
from clubs.services import seasons
from engine import rules as registry
from games import services as games
from games.errors import TableConflict
from games.models import Hand, LedgerEntry, Seat, Table
from games.random_entries import entry_for, random_entry
from games.rulesets import rule_set_of, stored_result
from games.selectors import sitting_scores
from games.services.common import carry_after
from tests.clubs.evening_setup import a_season, record
from tests.clubs.world import ClubWorld, build_club_world

pytestmark = pytest.mark.django_db

WIEN = {"variant": "wien", "dealer_contribution": 10, "pot_cap": None}
WIEN_SPLIT = {**WIEN, "pot_at_close": "split"}
PREFERANS = {"variant": "preferans", "convention": "sochi", "pool_target": 20, "whist_value": 10}
DDV = {"variant": "doppelkopf-ddv", "point_value": 10}
LEAGUE = {"2": [2, 1], "3": [3, 2, 1], "4": [4, 3, 2, 1]}


def seat(key: str, who: User | Guest | str) -> games.SeatSpec:
    if isinstance(who, User):
        return games.SeatSpec(key=key, kind="user", user=who)
    if isinstance(who, Guest):
        return games.SeatSpec(key=key, kind="guest", guest=who, guest_name=who.name)
    if who == "bot":
        return games.SeatSpec(key=key, kind="bot")
    return games.SeatSpec(key=key, kind="guest", guest_name=who)  # known by name only


def table_of(
    w: ClubWorld, rules: dict[str, Any], players: list[User | Guest | str], **kw: Any
) -> Table:
    seats = [seat(f"s{i}", p) for i, p in enumerate(players)]
    table = games.table_create(
        user=w.users["owner"],
        name=f"Tisch {w.evening.tables.count() + 1}",
        mode=kw.get("mode", Table.Mode.RECORDED),
        rules=rules,
        seats=seats,
        first_dealer=seats[0].key,
        club_id=w.club.pk,
    )
    EveningTable.objects.create(evening=w.evening, number=w.evening.tables.count() + 1, table=table)
    return table


def correct(w: ClubWorld, table: Table, rng: random.Random) -> None:
    """Corrections as the score sheet allows them: an edit and a deletion."""
    owner = w.users["owner"]
    for change in ("edit", "delete"):
        number = rng.randint(1, table.hands.count())
        try:
            if change == "edit":
                entry = random_entry(table, rng, number)
                games.hand_edit(table_id=table.pk, number=number, user=owner, entry=entry)
            else:
                games.hand_delete(table_id=table.pk, number=number, user=owner)
        except TableConflict:
            pass  # a correction that would leave a later hand unsettled is refused whole


def settled_in_bulk(table: Table, hands: int, rng: random.Random, owner: User) -> None:
    """Settled hands written straight to the table (as the clubs benchmark seeds them): a
    hosted table's hands with a bot, without playing them through the API."""
    rule_set = rule_set_of(table)
    carry, rows = carry_after(table, None), []
    for n in range(1, hands + 1):
        entry = entry_for(table, n, carry, rng)
        record = {**games.common_part(table, n, carry), **entry}
        result = stored_result(table, engine.settle(record))
        rows.append(
            Hand(
                table=table,
                number=n,
                status=Hand.Status.DONE,
                dealer=record["dealer"],
                pot_before=carry.get("pot", 0),
                carry_before={k: v for k, v in carry.items() if k != "pot"},
                entry=entry,
                result=result,
                entered_by=owner,
            )
        )
        carry = dict(rule_set.carry_after(result))
    Hand.objects.bulk_create(rows)


@pytest.fixture
def world() -> ClubWorld:
    """A season of every kind of table the standings meet."""
    w = build_club_world()
    a_season(w)
    u = w.users
    gustav, helga, ida = (Guest.objects.create(club=w.club, name=n) for n in ("Gustav", "H", "I"))
    merged = Guest.objects.create(club=w.club, name="Merged")
    Guest.objects.filter(pk=merged.pk).update(merged_into=u["member"])
    merged.refresh_from_db()
    rng = random.Random(2026)
    owner = u["owner"]
    three = table_of(w, WIEN, [u["member"], u["scorer"], gustav])
    four = table_of(w, WIEN_SPLIT, [u["owner"], u["admin"], helga, "Xaver"])
    # the member and the guest merged into them at one table: one player, the first seat's
    twice = table_of(w, WIEN, [u["member"], merged, ida])
    preferans = table_of(w, PREFERANS, [u["admin"], u["scorer"], "Yvonne"])
    doppelkopf = table_of(w, DDV, [u["owner"], u["member"], gustav, helga])
    for table, hands in ((three, 14), (four, 17), (twice, 9), (preferans, 12), (doppelkopf, 10)):
        record(w, table, hands, rng)
    for table in (three, four, preferans):
        correct(w, table, rng)
    for table in (four, preferans):
        games.table_close(table_id=table.pk, user=owner)
    hosted = table_of(w, WIEN, [u["scorer"], "bot", u["admin"]], mode=Table.Mode.HOSTED)
    settled_in_bulk(hosted, 11, rng, owner)
    table_of(w, WIEN, [u["owner"], u["scorer"], u["admin"]])  # no hands yet
    return w


def hand_by_hand(
    links: list[EveningTable],
) -> tuple[list[core.Sitting], dict[str, PlayerInfo]]:
    """The sittings as the standings read them before: every seat loaded with its user and
    guest, and one line per player and settled hand from each stored result."""
    scores = sitting_scores(link.table for link in links)
    sittings: list[core.Sitting] = []
    people: dict[str, PlayerInfo] = {}
    for link in links:
        table = link.table
        seats = list(
            Seat.objects.filter(table=table)
            .select_related("user", "guest", "guest__merged_into")
            .order_by("position")
        )
        by_key: dict[str, str] = {}
        for s in seats:
            info = seat_player(s)
            if info is not None and info.key not in by_key.values():
                by_key[s.key] = info.key
                people.setdefault(info.key, info)
        if not by_key:
            continue
        keys = [s.key for s in seats]
        rule_set = rule_set_of(table)
        lines = []
        for hand in table.hands.filter(status=Hand.Status.DONE).order_by("number"):
            result: dict[str, Any] = hand.result or {}
            active = rule_set.active_seats(keys, hand.dealer)
            for seat_key, amount in result["delta"].items():
                if seat_key not in by_key:
                    continue
                declarer = result.get("declarer") == seat_key
                lines.append(
                    core.HandLine(
                        player=by_key[seat_key],
                        amount=int(amount),
                        played=seat_key in active,
                        declarer=declarer,
                        made=result.get("made") is True if declarer else None,
                        premium=declarer and rule_set.is_premium(result.get("game")),
                    )
                )
        extra: dict[str, int] = defaultdict(int)
        for entry in LedgerEntry.objects.filter(table=table, hand__isnull=True):
            extra[entry.payee] += entry.amount
            extra[entry.payer] -= entry.amount
        score = scores.get(table.pk)
        sittings.append(
            core.Sitting(
                key=table.pk,
                evening=link.evening_id,
                at=table.created_at,
                players=tuple(by_key.values()),
                lines=tuple(lines),
                extra={by_key[k]: v for k, v in extra.items() if k in by_key},
                scores=None
                if score is None
                else {by_key[k]: v for k, v in score.items() if k in by_key},
            )
        )
    return sittings, people


def season_links(w: ClubWorld) -> list[EveningTable]:
    season = Season.objects.get(pk=w.extra["season"])
    return list(
        EveningTable.objects.filter(evening__in=seasons.season_evenings(season))
        .select_related("table")
        .order_by("pk")
    )


def test_summed_lines_make_the_same_sittings_as_one_line_per_hand(world: ClubWorld) -> None:
    links = season_links(world)
    before, people_before = hand_by_hand(links)
    summed, people = seasons.sittings_for_tables(links)
    assert people == people_before
    assert [s.key for s in summed] == [s.key for s in before]
    for new, old in zip(summed, before, strict=True):
        assert (new.players, new.evening, new.at) == (old.players, old.evening, old.at)
        assert (dict(new.extra), new.scores and dict(new.scores)) == (
            dict(old.extra),
            old.scores and dict(old.scores),
        )
        assert core.sitting_totals(new) == core.sitting_totals(old)
        assert core.has_placing(new) == core.has_placing(old)
    # what the database summed: far fewer lines than hands, none of them empty
    assert sum(len(s.lines) for s in summed) < sum(len(s.lines) for s in before) / 2
    assert all(line.hands >= 1 for s in summed for line in s.lines)
    # the variety the fixture promises is there
    kinds = {p[:2] for p in people}
    assert kinds == {"u:", "g:", "s:"}
    assert any(not line.played for s in before for line in s.lines)  # a dealer of four
    assert any(line.premium for s in before for line in s.lines)
    assert any(s.scores is not None for s in before) and any(s.extra for s in before)


@pytest.mark.parametrize("league", [None, LEAGUE])
def test_the_standings_and_ratings_are_those_of_one_line_per_hand(
    world: ClubWorld, league: dict[str, list[int]] | None
) -> None:
    links = season_links(world)
    before, _ = hand_by_hand(links)
    summed, _ = seasons.sittings_for_tables(links)
    points = None if league is None else seasons._league(league)
    assert core.compute(summed, league=points) == core.compute(before, league=points)
    replayed, expected = rating_core.replay(summed), rating_core.replay(before)
    assert replayed.current == expected.current
    assert replayed.history == expected.history
    # and the service's own computation stores exactly that table
    Season.objects.filter(pk=world.extra["season"]).update(league_points=league)
    season = Season.objects.select_related("club").get(pk=world.extra["season"])
    table, _ = seasons.compute_standings(season)
    assert table == core.compute(before, league=points)


def test_one_line_of_several_hands_counts_as_that_many_lines() -> None:
    single = [
        core.HandLine("anna", 30, declarer=True, made=True, premium=True),
        core.HandLine("anna", -10, declarer=True, made=True, premium=True),
        core.HandLine("anna", 5, played=False),
        core.HandLine("anna", 5, played=False),
        core.HandLine("anna", 5, played=False),
        core.HandLine("bert", -30),
        core.HandLine("bert", 0, declarer=True, made=False),
    ]
    summed = [
        core.HandLine("anna", 20, declarer=True, made=True, premium=True, hands=2),
        core.HandLine("anna", 15, played=False, hands=3),
        core.HandLine("bert", -30),
        core.HandLine("bert", 0, declarer=True, made=False),
    ]
    at = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    one = core.Sitting(key=1, evening=1, at=at, players=("anna", "bert"), lines=tuple(single))
    other = core.Sitting(key=1, evening=1, at=at, players=("anna", "bert"), lines=tuple(summed))
    assert core.compute([one]) == core.compute([other])
    assert core.sitting_totals(one) == core.sitting_totals(other)
    with pytest.raises(ValueError, match="at least one hand"):
        core.HandLine("anna", 0, hands=0)


def test_who_sits_where_is_asked_once_per_person(world: ClubWorld) -> None:
    table_ids = [link.table_id for link in season_links(world)]
    expected = {
        table_id: [
            (s.key, seat_player(s))
            for s in Seat.objects.filter(table_id=table_id)
            .select_related("user", "guest", "guest__merged_into")
            .order_by("position")
        ]
        for table_id in table_ids
    }
    assert dict(seasons.seat_players(table_ids)) == expected
    assert any(info is None for seats in expected.values() for _, info in seats)  # the bot


def test_computing_a_season_takes_the_same_queries_however_many_tables(
    world: ClubWorld,
) -> None:
    season = Season.objects.select_related("club").get(pk=world.extra["season"])
    with CaptureQueriesContext(connection) as first:
        seasons.compute_standings(season)
    u = world.users
    for _ in range(3):
        table = table_of(world, PREFERANS, [u["owner"], u["admin"], "Zora"])
        record(world, table, 2, random.Random(3))
    with CaptureQueriesContext(connection) as more:
        seasons.compute_standings(season)
    assert len(more) == len(first)


def standings_url(w: ClubWorld) -> str:
    return f"/api/v1/clubs/{w.club.pk}/seasons/{w.extra['season']}/standings/"


def test_an_anonymous_reader_gets_the_ordinary_answer(world: ClubWorld) -> None:
    Club.objects.filter(pk=world.club.pk).update(is_public=True)
    seasons.season_recompute(season_id=world.extra["season"])
    url = standings_url(world)
    # anonymous too, through DRF's cycle: an Accept header the short way leaves to it
    ordinary = APIClient().get(url, HTTP_ACCEPT="text/html")
    anonymous = APIClient().get(url)
    assert anonymous.status_code == ordinary.status_code == 200
    assert anonymous.content == ordinary.content
    # a member reads the same standings with every name; the public, here, pseudonyms
    member, public = world.client("member").get(url).json(), ordinary.json()
    assert (member["names"], public["names"]) == ("insider", "consent")
    unnamed = [{**row, "name": None} for row in public["rows"]]
    assert [{**row, "name": None} for row in member["rows"]] == unnamed
    assert {**member, "names": None, "rows": None} == {**public, "names": None, "rows": None}
    headers = {k: v for k, v in anonymous.headers.items() if k != "Vary"}
    assert headers == {k: v for k, v in ordinary.headers.items() if k != "Vary"}
    assert set(anonymous["Vary"].split(", ")) == set(ordinary["Vary"].split(", "))
    again = APIClient().get(url, HTTP_IF_NONE_MATCH=anonymous["ETag"])
    assert again.status_code == 304 and again["ETag"] == anonymous["ETag"]
    # an answer DRF would refuse is refused as before
    assert APIClient().get(url, HTTP_ACCEPT="application/xml").status_code == 406


def test_an_anonymous_reader_of_a_private_club_still_finds_nothing(world: ClubWorld) -> None:
    seasons.season_recompute(season_id=world.extra["season"])
    answer = APIClient().get(standings_url(world))
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    missing = f"/api/v1/clubs/{world.club.pk}/seasons/999999/standings/"
    Club.objects.filter(pk=world.club.pk).update(is_public=True)
    assert APIClient().get(missing).status_code == 404


@pytest.mark.parametrize("enabled", [True, False])
def test_a_computation_leaves_the_garbage_collector_as_it_found_it(
    world: ClubWorld, enabled: bool
) -> None:
    season = Season.objects.select_related("club").get(pk=world.extra["season"])
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        seasons.compute_standings(season)
        seasons.ratings_recompute(club_id=world.club.pk)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_the_statistics_are_the_tables_rule_sets_answers() -> None:
    """Declarer games, made and premium are what the table's rule set answers of each
    result (``RuleSet.statistics``), not keys the server reads itself: a copy of wien that
    counts every declarer's game as premium (registered for the engine only, for this test)
    makes every declarer line premium; wien itself does not."""
    w = build_club_world()
    a_season(w)
    u = w.users
    table = table_of(w, WIEN, [u["member"], u["scorer"], u["admin"]])
    record(w, table, 12, random.Random(37))
    links = season_links(w)
    lines = [line for s in seasons.sittings_for_tables(links)[0] for line in s.lines]
    declarers = sum(line.hands for line in lines if line.declarer)
    assert declarers and not all(line.premium for line in lines if line.declarer)

    wien = engine.rule_set("wien")

    class AllPremium(type(wien)):  # type: ignore[misc]
        def statistics(self, result: Any) -> dict[str, Any]:
            return {**super().statistics(result), "premium": bool(result.get("declarer"))}

    fields = {f.name: getattr(wien, f.name) for f in dataclasses.fields(wien) if f.init}
    copy = AllPremium(**{**fields, "name": "wien-all-premium"})
    registry.register(copy, offered=False)
    try:
        Table.objects.filter(pk=table.pk).update(rules={**table.rules, "variant": copy.name})
        again = [line for s in seasons.sittings_for_tables(season_links(w))[0] for line in s.lines]
    finally:
        registry._REGISTRY.pop(copy.name, None)  # the registry has no unregister: tests only
        registry._ENGINE_ONLY.discard(copy.name)
    assert sum(line.hands for line in again if line.declarer) == declarers
    assert all(line.premium for line in again if line.declarer)
