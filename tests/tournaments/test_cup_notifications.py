"""What a phone in a pocket hears of a cup (issue 42, ``docs/notifications.md``): a
tournament's directors are told that a cup proposes their tournament (``cup_proposal``), and
each player with an account who qualifies for the cup's final is told so once, with their cup
rank and the points they carry in (``cup_qualified``). Through the services; the outbox's rows
(``clubs.models.Notification``) and their text as the person reads it, in English and German.

``django_capture_on_commit_callbacks(execute=True)`` runs what a command hands the worker
after its commit (the delivery: these people have no device, so a row is marked sent with
nothing pushed)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone, translation

from clubs import notifications, outbox
from clubs.models import Club, Membership, Notification, User
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Cup, CupEvent, CupPlayer, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

RULES = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 100}
POLICY = {"points": {"table": [10, 8, 6, 5, 4, 3]}}
FINAL = {"qualify": {"top": 2}, "carry": [6, 4], "points": {"table": [10, 5, 0]}}

Capture = Callable[..., AbstractContextManager[list[Callable[[], None]]]]


@dataclass
class World:
    """The cup's director (``boss``); a club whose admin (``host``) runs its tournaments, with
    a co-director (``deputy``); the host, Anna and Bert play with the boss at a Stammtisch (so
    the boss may name their accounts in an import, or make the host a director of the cup)."""

    boss: User
    host: User
    deputy: User
    anna: User
    bert: User
    club: Club
    capture: Capture

    def delivered(self) -> AbstractContextManager[list[Callable[[], None]]]:
        return self.capture(execute=True)

    def cup(
        self, *, final: dict[str, Any] | None = None, running: bool = True, scheduled: bool = True
    ) -> Cup:
        """The boss's cup; with a ``final`` policy its final is on the calendar (``scheduled``:
        a tournament the boss directs, accepted as the final event, not yet played)."""
        cup = services.cup_create(
            user=self.boss,
            club=None,
            name="Tarockcup",
            rule_sets=["wien"],
            policy=POLICY,
            final=final,
        )
        if final is not None and scheduled:
            self.schedule_final(cup)
        return services.cup_open(user=self.boss, cup=cup) if running else cup

    def schedule_final(self, cup: Cup) -> CupEvent:
        """The cup's final: a tournament of the boss, accepted at once (the boss directs both)."""
        t = services.tournament_create(user=self.boss, name="Finale", rules=RULES)
        services.tournament_open_registration(user=self.boss, tournament=t)
        event = services.event_add_tournament(
            user=self.boss, cup=cup, tournament_id=t.pk, is_final=True
        )
        assert event.status == CupEvent.Status.ACCEPTED
        return event

    def tournament(self) -> Tournament:
        """A listed tournament of the club, directed by the host (its creator) and the
        deputy."""
        t = services.tournament_create(
            user=self.host, club_id=self.club.pk, name="Wiener Open", rules=RULES
        )
        t.directors.add(self.deputy)
        services.tournament_open_registration(user=self.host, tournament=t)
        return t

    def season(self, cup: Cup, number: int, lines: str) -> CupEvent:
        """An imported event: ``lines`` of ``placing,name,user`` (``@anna``: Anna's account)."""
        text = lines.replace("@anna", str(self.anna.pk)).replace("@bert", str(self.bert.pk))
        return services.event_import(
            user=self.boss,
            cup=cup,
            name=f"Runde {number}",
            held_on=dt.date(2026, number, 1),
            data="placing,name,user\n" + text,
            format="csv",
        )


@pytest.fixture
def w(django_capture_on_commit_callbacks: Capture) -> Iterator[World]:
    boss = UserFactory.create(username="boss")
    host = UserFactory.create(username="host", display_name="Hanna Host")
    deputy = UserFactory.create(username="deputy")
    anna = UserFactory.create(username="anna", display_name="Anna Berger")
    bert = UserFactory.create(username="bert", display_name="Bert Huber")
    club = Club.objects.create(name="Wiener Runde", slug="wiener-runde", default_rules=RULES)
    Membership.objects.create(club=club, user=host, role=Membership.Role.ADMIN)
    fellows = Club.objects.create(name="Stammtisch", slug="stammtisch")
    for person in (boss, host, anna, bert):
        Membership.objects.create(club=fellows, user=person)
    yield World(boss, host, deputy, anna, bert, club, django_capture_on_commit_callbacks)


def rows(type_name: str) -> dict[int, Notification]:
    """The outbox's rows of ``type_name`` by person."""
    return {n.user_id: n for n in Notification.objects.filter(type=type_name)}


def read(row: Notification, language: str) -> tuple[str, str]:
    """The title and text of ``row`` in ``language``, as its person's phone shows them."""
    with translation.override(language):
        message = outbox.message_of(row, timezone.now())
    return message.title, message.body


# ---------------------------------------------------------------------------------------------
# a proposal


def test_a_proposal_tells_the_tournament_s_directors_but_not_the_proposer(w: World) -> None:
    cup = w.cup()
    services.cup_director_add(user=w.boss, cup=cup, director_id=w.anna.pk)
    t = w.tournament()
    event = services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
    assert event.status == CupEvent.Status.PROPOSED

    told = rows("cup_proposal")
    assert set(told) == {w.host.pk, w.deputy.pk}  # not the boss, nor the cup's other director
    row = told[w.host.pk]
    assert row.key == f"cup-event:{event.pk}"
    assert row.payload == {
        "type": "cup_proposal",
        "path": f"/api/v1/cups/{cup.pk}/events/{event.pk}/",
        "cup_id": cup.pk,
        "event_id": event.pk,
        "tournament_id": t.pk,
    }
    assert read(row, "en") == (
        "Wiener Open proposed for Tarockcup",
        "The directors of Tarockcup propose that Wiener Open counts in their cup. Accept or "
        "decline it.",
    )
    assert read(row, "de") == (
        "Wiener Open für Tarockcup vorgeschlagen",
        "Die Leitung von Tarockcup schlägt vor, dass Wiener Open in ihrem Cup zählt. Nimm den "
        "Vorschlag an oder lehne ihn ab.",
    )


def test_a_proposal_in_a_draft_of_a_private_cup_is_told_too(w: World) -> None:
    """The tournament's directors may not see the cup, but they read the proposal (and
    decide it): the push names the cup."""
    cup = services.cup_create(
        user=w.boss,
        club=None,
        name="Geheimcup",
        rule_sets=["wien"],
        policy=POLICY,
        is_public=False,
    )
    t = w.tournament()
    event = services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
    assert set(rows("cup_proposal")) == {w.host.pk, w.deputy.pk}
    assert rows("cup_proposal")[w.deputy.pk].payload["path"] == (
        f"/api/v1/cups/{cup.pk}/events/{event.pk}/"
    )


def test_a_tournament_its_cup_director_directs_is_accepted_and_nobody_is_told(w: World) -> None:
    cup = w.cup()
    services.cup_director_add(user=w.boss, cup=cup, director_id=w.host.pk)
    t = w.tournament()
    event = services.event_add_tournament(user=w.host, cup=cup, tournament_id=t.pk)
    assert event.status == CupEvent.Status.ACCEPTED
    assert rows("cup_proposal") == {}


def test_a_removed_proposal_is_withdrawn_before_it_is_sent(w: World) -> None:
    cup = w.cup()
    t = w.tournament()
    event = services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
    assert len(rows("cup_proposal")) == 2  # not sent yet: the commit has not run
    services.event_remove(user=w.boss, event=event)
    assert rows("cup_proposal") == {}


def test_a_decided_proposal_is_not_told_to_the_other_directors_any_more(w: World) -> None:
    cup = w.cup()
    t = w.tournament()
    event = services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
    services.event_decline(user=w.host, event=event)
    assert rows("cup_proposal") == {}


def test_a_sent_proposal_stays_in_the_inbox_when_the_event_is_removed(w: World) -> None:
    cup = w.cup()
    t = w.tournament()
    with w.delivered():
        event = services.event_add_tournament(user=w.boss, cup=cup, tournament_id=t.pk)
    sent = rows("cup_proposal")
    assert all(row.sent_at is not None for row in sent.values())
    services.event_remove(user=w.boss, event=event)
    assert set(rows("cup_proposal")) == {w.host.pk, w.deputy.pk}


# ---------------------------------------------------------------------------------------------
# qualified for the final


def test_each_player_with_an_account_who_qualifies_is_told_rank_and_carried_points(
    w: World,
) -> None:
    cup = w.cup(final=FINAL)
    w.season(cup, 1, "1,Anna,@anna\n2,Carl,\n3,Bert,@bert\n")
    assert services.cup_recompute(cup_id=cup.pk)

    told = rows("cup_qualified")
    # Anna 1st carries 6; Carl 2nd (a guest, no account) is told nothing; Bert 3rd is out
    assert set(told) == {w.anna.pk}
    row = told[w.anna.pk]
    assert row.key == f"cup:{cup.pk}"
    assert row.payload == {
        "type": "cup_qualified",
        "path": f"/api/v1/cups/{cup.pk}/final/",
        "cup_id": cup.pk,
    }
    assert row.context == {"cup": "Tarockcup", "rank": 1, "carried": 6}
    assert read(row, "en") == (
        "Qualified for the final: Tarockcup",
        "You qualified for the final of Tarockcup: rank 1, 6 points carried in.",
    )
    assert read(row, "de") == (
        "Für das Finale qualifiziert: Tarockcup",
        "Du hast dich für das Finale von Tarockcup qualifiziert: Rang 1, 6 Punkte mitgenommen.",
    )


def test_a_finalist_is_told_once_however_often_the_standings_move(w: World) -> None:
    cup = w.cup(final=FINAL)
    w.season(cup, 1, "1,Anna,@anna\n2,Bert,@bert\n3,Carl,\n")
    with w.delivered():
        services.cup_recompute(cup_id=cup.pk)
    first = rows("cup_qualified")
    assert {u: r.context["rank"] for u, r in first.items()} == {w.anna.pk: 1, w.bert.pk: 2}
    assert all(r.sent_at is not None for r in first.values())

    # Carl wins twice: Bert (8) drops out behind Carl (26) and Anna (10)
    w.season(cup, 2, "1,Carl,\n")
    w.season(cup, 3, "1,Carl,\n")
    services.cup_recompute(cup_id=cup.pk)
    # Bert wins three times: he is back, first now (38), and Anna is out
    for number in (4, 5, 6):
        w.season(cup, number, "1,Bert,@bert\n")
    services.cup_recompute(cup_id=cup.pk)
    assert cup.standings.filter(ranking="", qualified=True, player__user=w.bert).exists()
    again = rows("cup_qualified")
    # nobody was told a second time: the rows are the ones sent first, unchanged
    assert {u: (r.pk, r.sent_at, r.context) for u, r in again.items()} == {
        u: (r.pk, r.sent_at, r.context) for u, r in first.items()
    }


def test_a_notice_not_yet_sent_is_withdrawn_when_the_player_drops_out(w: World) -> None:
    cup = w.cup(final=FINAL)
    w.season(cup, 1, "1,Anna,@anna\n2,Bert,@bert\n")
    services.cup_recompute(cup_id=cup.pk)
    assert set(rows("cup_qualified")) == {w.anna.pk, w.bert.pk}
    w.season(cup, 2, "1,Carl,\n2,Dora,\n")
    w.season(cup, 3, "1,Carl,\n2,Dora,\n")
    services.cup_recompute(cup_id=cup.pk)
    # Carl 20 and Dora 16 are ahead of Anna 10 and Bert 8: nobody with an account qualifies
    assert rows("cup_qualified") == {}


def test_a_draft_tells_nobody_until_it_opens(w: World) -> None:
    cup = w.cup(final=FINAL, running=False)
    w.season(cup, 1, "1,Anna,@anna\n2,Bert,@bert\n")
    services.cup_recompute(cup_id=cup.pk)
    assert rows("cup_qualified") == {}  # a director trying a policy out is not news
    services.cup_open(user=w.boss, cup=cup)
    services.cup_recompute(cup_id=cup.pk)
    assert {u: r.context["carried"] for u, r in rows("cup_qualified").items()} == {
        w.anna.pk: 6,
        w.bert.pk: 4,
    }


def test_a_cup_without_a_final_tells_nobody(w: World) -> None:
    cup = w.cup()
    w.season(cup, 1, "1,Anna,@anna\n2,Bert,@bert\n")
    services.cup_recompute(cup_id=cup.pk)
    assert rows("cup_qualified") == {}


def test_a_finalist_who_carries_nothing_is_told_the_rank_alone(w: World) -> None:
    cup = w.cup(final={"qualify": {"top": 2}, "points": {"table": [10, 5]}})
    w.season(cup, 1, "1,Carl,\n2,Bert,@bert\n")
    services.cup_recompute(cup_id=cup.pk)
    row = rows("cup_qualified")[w.bert.pk]
    assert row.context["carried"] == 0
    assert read(row, "en")[1] == "You qualified for the final of Tarockcup: rank 2."
    assert read(row, "de")[1] == "Du hast dich für das Finale von Tarockcup qualifiziert: Rang 2."


def test_nobody_is_told_anew_once_the_final_is_played(w: World) -> None:
    cup = w.cup(final=FINAL, scheduled=False)  # its final is imported with its results
    w.season(cup, 1, "1,Carl,\n2,Dora,\n3,Anna,@anna\n")
    services.event_import(
        user=w.boss,
        cup=cup,
        name="Finale",
        held_on=dt.date(2026, 12, 1),
        data="placing,name\n1,Dora\n2,Carl\n",
        format="csv",
        is_final=True,
    )
    # a late import puts Anna (16) ahead of Dora (8): she qualifies, but the final is over
    w.season(cup, 2, "1,Anna,@anna\n")
    services.cup_recompute(cup_id=cup.pk)
    anna = CupPlayer.objects.get(cup=cup, user=w.anna)
    assert cup.standings.filter(ranking="", player=anna, qualified=True).exists()
    assert rows("cup_qualified") == {}


# ---------------------------------------------------------------------------------------------
# the settings screen


def test_the_settings_screen_lists_the_cup_types_last_in_both_languages() -> None:
    assert notifications.TYPE_NAMES[-2:] == ("cup_proposal", "cup_qualified")
    assert notifications.TYPE_NAMES[:11] == (
        "seated",
        "round_starts",
        "your_turn",
        "time_running_out",
        "rsvp_closes",
        "moved_up",
        "invited",
        "join_request_answered",
        "join_request",
        "results_corrected",
        "standings_final",
    )
    proposal, qualified = (notifications.BY_NAME[n] for n in ("cup_proposal", "cup_qualified"))
    assert (proposal.default, proposal.channels) == ("push", ("push", "email", "off"))
    with translation.override("de"):
        assert str(proposal.title) == "Ein Cup schlägt dein Turnier vor"
        assert str(qualified.title) == "Für ein Cup-Finale qualifiziert"
        assert "du" in str(qualified.description).split()


def test_nobody_is_told_before_the_final_is_on_the_calendar(w: World) -> None:
    """During the season "qualified" is only how the standings stand: the notice waits until
    the cup's final event is accepted, then each player who qualifies is told once."""
    cup = w.cup(final=FINAL, scheduled=False)
    w.season(cup, 1, "1,Anna,@anna\n2,Bert,@bert\n")
    assert services.cup_recompute(cup_id=cup.pk)
    assert cup.standings.filter(ranking="", qualified=True).count() == 2
    assert rows("cup_qualified") == {}
    w.schedule_final(cup)
    assert services.cup_recompute(cup_id=cup.pk)
    assert set(rows("cup_qualified")) == {w.anna.pk, w.bert.pk}
