"""``manage.py demo_data``: accounts, the club, two recorded tables and a hosted hand.

The demo is built once for the tests that read it (``tests/worlds.py``): each starts from it as
built and rolls back what it changed. The test of the command committing for real is in
``test_demo_data_log.py``: a transaction of its own cannot run inside the shared one."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import TestCase

import engine
from clubs.management import demo_evenings
from clubs.management.commands import demo_data
from clubs.models import Club, Evening, Membership, Rating, User
from games import services
from games.models import AuditEntry, Hand, LedgerEntry, Table
from tests.conftest import tasks_in_process
from tests.worlds import built_once

# eager_tasks: the tests that run the command again run its tasks in this process too
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

CaptureOnCommit = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]


def _run(capture: CaptureOnCommit) -> str:
    """Run the command as ``make demo`` does: its on-commit work (the bots' moves) runs."""
    out = StringIO()
    with capture(execute=True):
        call_command("demo_data", stdout=out)
    return out.getvalue()


def _counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (User, Club, Membership, Evening, Table, Hand, LedgerEntry, AuditEntry)
    }


@pytest.fixture(scope="module")
def demo(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """The demo, built once for this module's tests; what the command printed."""
    with (
        tasks_in_process(),
        built_once(django_db_blocker, lambda: _run(TestCase.captureOnCommitCallbacks)) as out,
    ):
        yield out


def _hands(name: str) -> list[Hand]:
    return list(Hand.objects.filter(table__name=name).order_by("number"))


def test_it_creates_the_demo_accounts(demo: str) -> None:
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.check_password("admin-demo-1")
    for name in ("anna", "bert", "carl", "dave"):
        assert User.objects.get(username=name).check_password("demo-pass-1")
    assert User.objects.count() == 5 + len(demo_evenings.MORE_PLAYERS)


def test_it_changes_nothing_when_run_again(
    demo: str, django_capture_on_commit_callbacks: CaptureOnCommit
) -> None:
    before = _counts()
    hosted = Hand.objects.get(table__name=demo_data.HOSTED_TABLE)
    _run(django_capture_on_commit_callbacks)
    assert _counts() == before
    again = Hand.objects.get(table__name=demo_data.HOSTED_TABLE)
    assert (again.version, again.actions) == (hosted.version, hosted.actions)


def test_it_creates_the_club_with_anna_as_owner_and_the_two_evenings_the_readme_names(
    demo: str,
) -> None:
    club = Club.objects.get(name=demo_data.CLUB_NAME)
    roles = dict(club.memberships.values_list("user__username", "role"))
    assert roles == {
        "anna": "owner",
        **{name: "member" for name in ("bert", "carl", "dave", *demo_evenings.MORE_PLAYERS)},
    }
    titles = set(club.evenings.values_list("title", flat=True))
    assert titles == {demo_evenings.PAST_EVENING, demo_evenings.COMING_EVENING}


def test_it_counts_every_account_it_made_or_found(
    demo: str, django_capture_on_commit_callbacks: CaptureOnCommit
) -> None:
    assert User.objects.count() == 13
    assert "Demo data ready: 13 accounts (13 created, 0 already there)." in demo
    again = _run(django_capture_on_commit_callbacks)
    assert "Demo data ready: 13 accounts (0 created, 13 already there)." in again


def test_every_member_played_the_one_evening_of_the_season(demo: str) -> None:
    """anna, bert and carl's score sheet at Dienstagsrunde is a table of its own, not a
    second evening of theirs."""
    season = Club.objects.get(name=demo_data.CLUB_NAME).seasons.get()
    assert {row.evenings for row in season.standings.all()} == {1}


def test_it_ends_with_a_summary_of_the_logins_and_ids(demo: str) -> None:
    club = Club.objects.get(name=demo_data.CLUB_NAME)
    past = club.evenings.get(title=demo_evenings.PAST_EVENING)
    coming = club.evenings.get(title=demo_evenings.COMING_EVENING)
    season = club.seasons.get()
    summary = demo[demo.index("Demo data ready") :]
    for text in (
        "admin / admin-demo-1",
        "lena / demo-pass-1",
        f"(id {club.pk}; anna owns it, 12 members)",
        f"evening {past.pk} (3 rounds, closed and settled)",
        f"/evenings/{coming.pk}/attendances/",
        f"season {season.pk}: GET /api/v1/clubs/{club.pk}/seasons/{season.pk}/standings/",
    ):
        assert text in summary


def test_it_prints_the_table_ids(demo: str) -> None:
    for table in Table.objects.filter(evening_link__round__isnull=True):
        assert f"table {table.pk} '{table.name}'" in demo
    recorded = Table.objects.get(name=demo_data.RECORDED_TABLE)
    assert f"/api/v1/tables/{recorded.pk}/sheet/" in demo


def test_every_other_rule_set_has_a_recorded_table_with_a_few_hands(demo: str) -> None:
    for rule_set in engine.rule_sets():
        if rule_set.name == demo_data.RULES["variant"]:
            continue
        table = Table.objects.get(name=demo_data.RULE_SET_TABLE.format(variant=rule_set.name))
        assert table.rules["variant"] == rule_set.name
        assert table.hands.filter(status="done").count() == demo_data.RULE_SET_HANDS
        assert f"/api/v1/tables/{table.pk}/sheet/" in demo


def test_the_recorded_table_has_its_twelve_hands(demo: str) -> None:
    table = Table.objects.get(name=demo_data.RECORDED_TABLE)
    assert table.mode == Table.Mode.RECORDED and table.is_public
    assert table.club is not None and table.club.name == demo_data.CLUB_NAME
    assert not hasattr(table, "evening_link")  # in no evening
    assert services.seat_keys(table) == ["anna", "bert", "carl"]
    assert table.rules["dealer_contribution"] == 100 and table.rules["pot_cap"] == 300
    hands = _hands(demo_data.RECORDED_TABLE)
    assert [h.entry for h in hands] == list(demo_data.DIENSTAG_HANDS)
    assert all(h.status == Hand.Status.DONE for h in hands)
    assert [h.dealer for h in hands] == ["carl", "anna", "bert"] * 4


def test_the_recorded_ledger_sums_to_zero_with_the_pot(demo: str) -> None:
    table = Table.objects.get(name=demo_data.RECORDED_TABLE)
    balances = services.table_balances(table)
    hands = _hands(demo_data.RECORDED_TABLE)
    pots = [(h.result or {})["pot"] for h in hands]
    assert sum(balances.values()) == 0
    assert balances["pot"] == pots[-1] > 0
    assert [h.pot_before for h in hands] == [0, *pots[:-1]]


def _kinds(hand: Hand) -> set[str]:
    """The demo's kinds of result a hand shows."""
    entry, result = hand.entry or {}, hand.result or {}
    game = entry["game"]
    kinds = set()
    if game["type"] == "ausfechten":
        return {"ausfechten"}
    declarer = entry["declarer"]
    if game["type"] == "premium":
        made = "made" if result["made"] else "lost"
        return {f"premium {game['level']}{'h' if game['hand'] else ''} {made}"}
    defence = sorted(entry["defence"].values())
    if not result["made"]:
        kinds.add("fallen declarer")
    if any(p != declarer for p in result["fallen"]):
        kinds.add("fallen defender")
    if defence == ["invite", "invited"]:
        kinds.add("invitation")
    if defence == ["home", "play"]:
        kinds.add("one home")
    if defence == ["home", "home"]:
        kinds.add("both home")
    if not game["talon"]:
        kinds.add("herz" if game["level"] == "H" else "geschaeft")
    if entry.get("negotiated"):
        kinds.add("negotiated")
    return kinds


def test_the_recorded_table_shows_every_kind_of_hand(demo: str) -> None:
    seen = set().union(*(_kinds(h) for h in _hands(demo_data.RECORDED_TABLE)))
    assert seen >= {
        "fallen declarer",
        "fallen defender",
        "invitation",
        "one home",
        "both home",
        "geschaeft",
        "herz",
        "premium 5 made",
        "premium 8h lost",
        "ausfechten",
        "negotiated",
    }


def test_the_four_seat_table_has_a_dealer_who_sits_out(demo: str) -> None:
    table = Table.objects.get(name=demo_data.FOUR_SEAT_TABLE)
    assert services.seat_keys(table) == ["anna", "bert", "carl", "dave"]
    hands = _hands(demo_data.FOUR_SEAT_TABLE)
    assert len(hands) == len(demo_data.VIERER_HANDS) >= 2
    for hand in hands:
        assert hand.result is not None
        assert hand.dealer not in hand.result["tricks"]
        assert hand.result["delta"][hand.dealer] == -100
    assert sum(services.table_balances(table).values()) == 0


def test_the_hosted_hand_is_dealt_with_a_commitment_and_waits_for_anna(demo: str) -> None:
    table = Table.objects.get(name=demo_data.HOSTED_TABLE)
    assert table.mode == Table.Mode.HOSTED
    kinds = {s.key: (s.kind, s.bot_level) for s in table.seats.all()}
    assert kinds == {"anna": ("user", ""), "bot-1": ("bot", "random"), "bot-2": ("bot", "random")}
    (hand,) = _hands(demo_data.HOSTED_TABLE)
    assert hand.status == Hand.Status.PLAYING
    assert len(hand.commitment) == 64
    assert hand.commitment == engine.commitment(hand.salt, hand.deck or [])
    assert [a["seat"] for a in hand.actions] == ["bot-1", "bot-2"]
    assert services.hand_state(table, hand).to_act_seat == "anna"


def test_last_weeks_evening_was_seated_played_and_settled(demo: str) -> None:
    club = Club.objects.get(name=demo_data.CLUB_NAME)
    evening = club.evenings.get(title=demo_evenings.PAST_EVENING)
    assert evening.status == Evening.Status.CLOSED
    rounds = list(evening.rounds.order_by("number"))
    assert [r.status for r in rounds] == ["closed"] * 3
    assert all(sorted(len(g) for g in r.groups) == [3, 3, 3, 3] for r in rounds)
    tables = [link.table for link in evening.tables.select_related("table")]
    assert len(tables) == 12 and all(t.status == Table.Status.CLOSED for t in tables)
    assert all(t.hands.count() == demo_evenings.HANDS_PER_TABLE for t in tables)
    settlement = evening.settlement
    assert sum(p["net"] for p in settlement["players"]) + settlement["pot_net"] == 0
    assert f"/evenings/{evening.pk}/settlement/" in demo
    into_pot = [p["sentence"] for p in settlement["payments"] if p["to"] == "pot"]
    assert into_pot and all(s.endswith(" into the pot (kept by the club)") for s in into_pot)


def test_last_weeks_hands_look_like_a_club_night(demo: str) -> None:
    """Mostly suit games, most of them made: the pot gains the dealers' 1 € and the falls,
    each at most the 3 € cap, and the made games take it back (wien.md, "Settlement")."""
    evening = Club.objects.get(name=demo_data.CLUB_NAME).evenings.get(
        title=demo_evenings.PAST_EVENING
    )
    hands = list(Hand.objects.filter(table__evening_link__evening=evening))
    results = [h.result or {} for h in hands]
    suit = [r for r in results if r["game"]["type"] == "suit"]
    assert len(suit) >= 0.75 * len(hands)
    assert sum(r["made"] for r in suit) >= 0.6 * len(suit)
    # the twelve sittings' pots together (the first dealers are drawn, so this varies a
    # little): a few euros a sitting, far below the 229 € the random bot's lost premium
    # games paid in
    assert 0 < evening.settlement["pot_net"] <= 150 * len(hands)


def test_the_season_table_and_the_ratings_are_filled(demo: str) -> None:
    club = Club.objects.get(name=demo_data.CLUB_NAME)
    season = club.seasons.get(name=demo_evenings.SEASON_NAME)
    assert season.is_active and season.computed_version == season.requested_version
    assert season.standings.count() == 12
    assert Rating.objects.filter(club=club, sittings=3).count() == 12


def test_next_weeks_evening_has_a_waitlist(demo: str) -> None:
    club = Club.objects.get(name=demo_data.CLUB_NAME)
    evening = club.evenings.get(title=demo_evenings.COMING_EVENING)
    assert evening.capacity == demo_evenings.COMING_CAPACITY
    answers = evening.attendances
    assert answers.filter(answer="yes", waitlisted=False).count() == 9
    assert answers.filter(waitlisted=True).count() == 2
    assert answers.filter(answer="maybe").count() == 1
