"""Nobody is attached to a tournament without a say in it: a director adds directly only
people who already play with them (the organising club's members; at a tournament of no club,
anyone who shares a club with the director); anyone else is asked, and becomes a director or
an entrant only by accepting. An unknown id answers exactly as a stranger's."""

from __future__ import annotations

import json
from typing import Any

import pytest

from clubs.models import Club, Membership, User
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments.setup import RULES
from tournaments.models import Entry, Invitation, LogEntry, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

MINE = "/api/v1/me/tournament-invitations/"


def tournament(director: User, **body: Any) -> str:
    """A tournament of ``director`` open for registration; its URL."""
    answer = client_for(director).post(
        "/api/v1/tournaments/", {"name": "Herbstturnier", "rules": RULES, **body}, format="json"
    )
    assert answer.status_code == 201, answer.content
    url = f"/api/v1/tournaments/{answer.json()['id']}/"
    assert client_for(director).post(url + "open-registration/").status_code == 200
    return url


def unused_id() -> int:
    return (User.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1000


def same(answer: Any, user_id: int) -> tuple[int, str]:
    """The status and the body with the id given replaced: what a caller can compare."""
    return answer.status_code, json.dumps(answer.json(), sort_keys=True).replace(
        str(user_id), "<id>"
    )


@pytest.mark.parametrize("what", ["directors/", "entries/"])
def test_a_stranger_is_asked_and_not_attached(what: str) -> None:
    director = UserFactory.create(username="td")
    stranger = UserFactory.create(username="stranger")
    url = tournament(director)
    answer = client_for(director).post(url + what, {"user": stranger.pk}, format="json")
    assert answer.status_code == 202, answer.content
    assert answer.json()["status"] == "invited"
    t = Tournament.objects.get(pk=url.split("/")[-2])
    assert not t.directors.filter(pk=stranger.pk).exists()
    assert not Entry.objects.filter(tournament=t, user=stranger).exists()
    assert client_for(director).get(url + "entries/").json()["count"] == 0
    # directors read nothing about the stranger in the log either
    assert not LogEntry.objects.filter(tournament=t).exclude(
        action__in=("tournament_create", "status_registration")
    )


@pytest.mark.parametrize("what", ["directors/", "entries/"])
def test_an_unknown_id_answers_as_a_strangers(what: str) -> None:
    director = UserFactory.create(username="td")
    stranger = UserFactory.create(username="stranger")
    gone = UserFactory.create(username="gone", is_active=False)
    url = tournament(director)
    boss = client_for(director)
    answers = {
        "stranger": same(boss.post(url + what, {"user": stranger.pk}, format="json"), stranger.pk),
        "inactive": same(boss.post(url + what, {"user": gone.pk}, format="json"), gone.pk),
        "unused": same(boss.post(url + what, {"user": unused_id()}, format="json"), unused_id()),
    }
    assert answers["stranger"] == answers["inactive"] == answers["unused"], answers
    # asking the stranger again changes nothing and answers the same
    again = boss.post(url + what, {"user": stranger.pk}, format="json")
    assert same(again, stranger.pk) == answers["stranger"]
    assert Invitation.objects.filter(user=stranger).count() == 1


def test_people_who_play_with_the_director_are_added_at_once() -> None:
    director = UserFactory.create(username="td")
    friend = UserFactory.create(username="friend")
    club = Club.objects.create(name="Stammtisch", slug="stammtisch")
    for person in (director, friend):
        Membership.objects.create(club=club, user=person)
    url = tournament(director)
    boss = client_for(director)
    entered = boss.post(url + "entries/", {"user": friend.pk}, format="json")
    assert entered.status_code == 201, entered.content
    assert entered.json()["user"] == friend.pk
    made = boss.post(url + "directors/", {"user": friend.pk}, format="json")
    assert made.status_code == 200, made.content
    assert friend.pk in made.json()["directors"]
    # yourself, too
    me = boss.post(url + "entries/", {"user": director.pk}, format="json")
    assert me.status_code == 201, me.content


def test_a_club_tournament_adds_the_clubs_members_at_once_and_asks_others() -> None:
    admin = UserFactory.create(username="admin")
    member = UserFactory.create(username="member")
    elsewhere = UserFactory.create(username="elsewhere")
    club = Club.objects.create(name="Wiener Runde", slug="wiener-runde")
    other = Club.objects.create(name="Grazer Runde", slug="grazer-runde")
    Membership.objects.create(club=club, user=admin, role=Membership.Role.ADMIN)
    Membership.objects.create(club=club, user=member)
    # shares a club with the admin, but not the organising one
    Membership.objects.create(club=other, user=admin)
    Membership.objects.create(club=other, user=elsewhere)
    url = tournament(admin, club=club.pk)
    boss = client_for(admin)
    assert boss.post(url + "entries/", {"user": member.pk}, format="json").status_code == 201
    assert boss.post(url + "entries/", {"user": elsewhere.pk}, format="json").status_code == 202


def test_the_invited_player_accepts_and_enters() -> None:
    director = UserFactory.create(username="td", display_name="Theresia Duschek")
    stranger = UserFactory.create(username="stranger", first_name="Susi", last_name="Stern")
    url = tournament(director)
    boss = client_for(director)
    boss.post(url + "entries/", {"user": stranger.pk, "checked_in": False}, format="json")
    me = client_for(stranger)
    [invitation] = me.get(MINE).json()["results"]
    assert invitation["role"] == "entrant" and invitation["status"] == "invited"
    assert invitation["tournament"]["name"] == "Herbstturnier"
    assert invitation["invited_by_name"] == "Theresia Duschek"
    accepted = me.post(f"{MINE}{invitation['id']}/accept/")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["status"] == "accepted"
    entry = Entry.objects.get(pk=accepted.json()["entry"])
    assert entry.user == stranger and entry.status == Entry.Status.REGISTERED
    assert entry.name == "Susi Stern"
    # answered: gone from the list, and cannot be answered again
    assert me.get(MINE).json()["count"] == 0
    assert me.post(f"{MINE}{invitation['id']}/accept/").status_code == 404
    # the log says who entered, by their own step
    log = LogEntry.objects.filter(action="entry_add").get()
    assert log.user == stranger and log.detail["invited_by"] == director.pk


def test_the_invited_director_accepts_and_directs() -> None:
    director = UserFactory.create(username="td")
    stranger = UserFactory.create(username="stranger")
    url = tournament(director)
    client_for(director).post(url + "directors/", {"user": stranger.pk}, format="json")
    me = client_for(stranger)
    # not a director until accepting
    assert me.patch(url, {"venue": "Café Sperl"}, format="json").status_code == 403
    [invitation] = me.get(MINE).json()["results"]
    assert invitation["role"] == "director"
    assert me.post(f"{MINE}{invitation['id']}/accept/").status_code == 200
    assert me.patch(url, {"venue": "Café Sperl"}, format="json").status_code == 200


def test_a_declined_invitation_changes_nothing() -> None:
    director = UserFactory.create(username="td")
    stranger = UserFactory.create(username="stranger")
    url = tournament(director)
    client_for(director).post(url + "entries/", {"user": stranger.pk}, format="json")
    me = client_for(stranger)
    [invitation] = me.get(MINE).json()["results"]
    declined = me.post(f"{MINE}{invitation['id']}/decline/")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert not Entry.objects.filter(user=stranger).exists()
    assert me.post(f"{MINE}{invitation['id']}/accept/").status_code == 404
    # the director may ask again
    again = client_for(director).post(url + "entries/", {"user": stranger.pk}, format="json")
    assert again.status_code == 202
    assert me.get(MINE).json()["count"] == 1


def test_only_the_invited_person_answers_and_others_see_nothing() -> None:
    director = UserFactory.create(username="td")
    stranger = UserFactory.create(username="stranger")
    nosy = UserFactory.create(username="nosy")
    url = tournament(director)
    client_for(director).post(url + "entries/", {"user": stranger.pk}, format="json")
    invitation = Invitation.objects.get(user=stranger)
    for caller in (nosy, director):
        client = client_for(caller)
        assert client.get(MINE).json()["count"] == 0
        for answer in ("accept/", "decline/"):
            theirs = client.post(f"{MINE}{invitation.pk}/{answer}")
            unused = client.post(f"{MINE}{invitation.pk + 1000}/{answer}")
            assert theirs.status_code == unused.status_code == 404
            assert theirs.json() == unused.json()
    assert client_for(None).get(MINE).status_code == 401
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.INVITED


def test_a_finished_tournament_takes_no_invited_player() -> None:
    director = UserFactory.create(username="td")
    stranger = UserFactory.create(username="stranger")
    url = tournament(director)
    client_for(director).post(url + "entries/", {"user": stranger.pk}, format="json")
    Tournament.objects.filter(pk=url.split("/")[-2]).update(status=Tournament.Status.FINISHED)
    invitation = Invitation.objects.get(user=stranger)
    refused = client_for(stranger).post(f"{MINE}{invitation.pk}/accept/")
    assert refused.status_code == 409 and refused.json()["code"] == "wrong_state"
    assert not Entry.objects.filter(user=stranger).exists()


def test_removing_someone_who_does_not_direct_answers_as_an_unknown_id() -> None:
    director = UserFactory.create(username="td")
    stranger = UserFactory.create(username="stranger")
    url = tournament(director)
    boss = client_for(director)
    theirs = boss.delete(f"{url}directors/{stranger.pk}/")
    unused = boss.delete(f"{url}directors/{unused_id()}/")
    assert theirs.status_code == unused.status_code == 404
    assert theirs.json() == unused.json()
