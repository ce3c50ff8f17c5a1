"""A person's data in the clubs app (issue 39): what their export shows of their account and
their clubs, and what erasing them does: they leave every club, what served only them goes,
and every other member's standings, ratings and settlements stay exactly as they were."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework_simplejwt.token_blacklist.models import OutstandingToken

from clubs import privacy
from clubs.errors import ClubConflict
from clubs.models import (
    Attendance,
    CalendarFeed,
    Club,
    DataRequest,
    Evening,
    Guest,
    Invitation,
    JoinRequest,
    Membership,
    Rating,
    SeasonStanding,
    User,
)
from clubs.privacy import Scope
from clubs.services import evenings, people, rounds
from tests.clubs.evening_setup import a_season, check_in, evening_table, record
from tests.clubs.world import ClubWorld, build_club_world
from tests.factories import DEFAULT_PASSWORD, UserFactory

# Committed rows (the standings' and ratings' hooks run on commit) and the tasks they send
# run in this process.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

NAMES = ("annaberger", "Anna Berger", "anna.berger@example.com")


def sign_in(user: User) -> dict[str, str]:
    response = APIClient().post(
        "/api/v1/auth/token/",
        {"username": user.username, "password": DEFAULT_PASSWORD},
        format="json",
    )
    assert response.status_code == 200, response.json()
    tokens: dict[str, str] = response.json()
    return tokens


def a_club(name: str, owner: User, *, public: bool = False) -> Club:
    club = Club.objects.create(name=name, is_public=public)
    Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    return club


@pytest.fixture
def world() -> ClubWorld:
    """The (public) Wiener Runde with a season, and Anna: she asked to join and was
    accepted, has an invitation still open, came to the evening and played a table of six
    hands there with the member and the scorer (the evening closed and settled, so she has a
    standing and a rating); a guest "Anni" was merged into her. In the Grazer Runde she
    accepted an invitation and was checked in at an evening; at the Linzer Runde her join
    request waits. She has a calendar feed, a signed-in device, three data requests and two
    admin log entries about her."""
    w = build_club_world(public=True)
    a_season(w)
    owner = w.users["owner"]
    anna = UserFactory.create(
        username="annaberger",
        display_name="Anna Berger",
        first_name="Anna",
        last_name="Berger",
        email="anna.berger@example.com",
        email_verified_at=timezone.now(),
    )
    request = people.join_request_create(club_id=w.club.pk, user=anna, message="Anna Berger hier")
    people.join_request_accept(club_id=w.club.pk, user=owner, request_id=request.pk)
    people.invitation_create(club_id=w.club.pk, user=owner, email=anna.email, role="scorer")
    anni = Guest.objects.create(club=w.club, name="Anni", created_by=owner)
    Guest.objects.filter(pk=anni.pk).update(merged_into=anna, merged_at=timezone.now())
    check_in(w.evening, anna)
    table = evening_table(w, [anna, w.users["member"], w.users["scorer"]], "Tisch 1")
    record(w, table, 6, random.Random(3))
    other = evening_table(w, [w.users["member"], w.users["admin"], w.users["owner"]], "Tisch 2")
    record(w, other, 4, random.Random(4))
    rounds.evening_close(user=owner, evening_id=w.evening.pk)

    graz_owner = w.users["outsider"]
    graz = a_club("Grazer Runde", graz_owner)
    invitation = people.invitation_create(club_id=graz.pk, user=graz_owner, email=anna.email)
    people.invitation_accept(code=invitation.code, user=anna)
    starts = timezone.now() - dt.timedelta(days=2)
    graz_evening = Evening.objects.create(
        club=graz, title="Grazer Abend", starts_at=starts, ends_at=starts + dt.timedelta(hours=4)
    )
    check_in(graz_evening, anna)
    linz = a_club("Linzer Runde", graz_owner, public=True)
    people.join_request_create(club_id=linz.pk, user=anna)

    evenings.calendar_feed_create(user=anna)
    w.extra["tokens"] = sign_in(anna)
    DataRequest.objects.create(
        subject=anna, actor=anna, kind=DataRequest.Kind.EXPORT, status="ready", document={}
    )
    DataRequest.objects.create(subject=anna, actor=owner, club=w.club, kind="export")
    DataRequest.objects.create(subject=anna, actor=graz_owner, club=graz, kind="export")
    kind = ContentType.objects.get_for_model(User)
    LogEntry.objects.create(
        user=owner,
        content_type=kind,
        object_id=str(anna.pk),
        object_repr="Anna Berger",
        action_flag=CHANGE,
        change_message=json.dumps([{"changed": {"fields": ["Display name"]}}]),
    )
    LogEntry.objects.create(
        user=owner,
        content_type=ContentType.objects.get_for_model(Membership),
        object_id="999",
        object_repr="Anna Berger in Wiener Runde (member)",
        action_flag=CHANGE,
        change_message=json.dumps([{"changed": {"name": "membership", "object": "annaberger"}}]),
    )
    w.users["anna"] = User.objects.get(pk=anna.pk)
    w.extra.update(graz=graz, linz=linz, anni=anni)
    return w


def fresh(user: User) -> User:
    return User.objects.get(pk=user.pk)


def without_time(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "generated_at"}


def rows_of(model: type[SeasonStanding] | type[Rating]) -> list[dict[str, Any]]:
    return [dict(row) for row in model.objects.order_by("pk").values()]


def settlement_of(evening_id: int) -> dict[str, Any]:
    settled = Evening.objects.get(pk=evening_id).settlement
    assert isinstance(settled, dict)
    return settled


def clubs_named(rows: list[dict[str, Any]]) -> list[str]:
    return [row["club"]["name"] for row in rows]


def every_club_id(section: dict[str, Any]) -> set[int]:
    return {row["club"]["id"] for rows in section.values() for row in rows}


# ---------------------------------------------------------------------------------------------
# the export


def test_the_export_shows_the_persons_clubs_answers_standings_and_ratings(
    world: ClubWorld,
) -> None:
    anna = world.users["anna"]
    clubs = privacy.export(anna)["clubs"]
    assert sorted(clubs_named(clubs["memberships"])) == ["Grazer Runde", "Wiener Runde"]
    assert {(i["club"]["name"], i["state"]) for i in clubs["invitations_received"]} == {
        ("Wiener Runde", "active"),
        ("Grazer Runde", "used_up"),
    }
    assert {(r["club"]["name"], r["status"]) for r in clubs["join_requests"]} == {
        ("Wiener Runde", "accepted"),
        ("Linzer Runde", "pending"),
    }
    assert [(g["name"], g["merged_into_you"]) for g in clubs["guests"]] == [("Anni", True)]
    assert {(a["evening"]["title"], a["answer"]) for a in clubs["attendances"]} == {
        ("Clubabend", "yes"),
        ("Grazer Abend", "yes"),
    }
    assert all(a["checked_in_at"] for a in clubs["attendances"])
    assert len(clubs["calendar_feeds"]) == 1
    [standing] = clubs["season_standings"]
    assert (standing["season"]["name"], standing["hands_played"]) == ("Saison", 6)
    [rating] = clubs["ratings"]
    assert rating["club"]["name"] == "Wiener Runde" and rating["sittings"] == 1
    assert len(rating["changes"]) == 1


def test_the_export_shows_devices_requests_and_the_admin_log_but_no_secret(
    world: ClubWorld,
) -> None:
    anna = world.users["anna"]
    document = privacy.export(anna)
    account = document["account"]
    assert [s["revoked"] for s in account["sessions"]] == [False]
    assert sorted(r["asked_by"] for r in account["data_requests"]) == ["club", "club", "self"]
    assert [e["object_repr"] for e in account["admin_log"]] == ["Anna Berger"]
    text = json.dumps(document)
    token = OutstandingToken.objects.get(user=anna)
    feed = CalendarFeed.objects.get(user=anna)
    codes = Invitation.objects.filter(email=anna.email).values_list("code", flat=True)
    for secret in (token.token, token.jti, world.extra["tokens"]["refresh"], feed.token, *codes):
        assert secret not in text


def test_a_clubs_export_shows_only_that_clubs_rows(world: ClubWorld) -> None:
    anna = world.users["anna"]
    document = privacy.export(anna, Scope(club=world.club))
    assert every_club_id(document["clubs"]) == {world.club.pk}
    assert clubs_named(document["clubs"]["memberships"]) == ["Wiener Runde"]
    assert document["clubs"]["calendar_feeds"] == []
    account = document["account"]
    assert (account["sessions"], account["admin_log"]) == ([], [])
    assert [r["club"] for r in account["data_requests"]] == [
        {"id": world.club.pk, "name": "Wiener Runde"}
    ]
    graz = privacy.export(anna, Scope(club=world.extra["graz"]))["clubs"]
    assert every_club_id(graz) == {world.extra["graz"].pk}
    assert [a["evening"]["title"] for a in graz["attendances"]] == ["Grazer Abend"]


# ---------------------------------------------------------------------------------------------
# erasure


def names_left(value: Any) -> list[str]:
    text = json.dumps(value, default=str).casefold()
    return [name for name in NAMES if name.casefold() in text]


def test_erasure_removes_the_persons_names_and_address_everywhere(world: ClubWorld) -> None:
    anna = world.users["anna"]
    stand_in = privacy.pseudonym(anna)
    assert names_left(privacy.export(anna)) == list(NAMES)
    for kept in (SeasonStanding, Rating, LogEntry, Invitation, JoinRequest):
        assert names_left(list(kept.objects.values())), kept
    assert names_left(list(Evening.objects.values("settlement")))
    privacy.erase(anna)
    assert names_left(privacy.export(fresh(anna))) == []
    assert names_left(list(SeasonStanding.objects.values())) == []
    assert names_left(list(Rating.objects.values())) == []
    assert names_left(list(LogEntry.objects.values())) == []
    assert names_left(list(Invitation.objects.values())) == []
    assert names_left(list(JoinRequest.objects.values())) == []
    assert names_left(list(Evening.objects.values("settlement"))) == []
    assert SeasonStanding.objects.get(user=anna).name == stand_in
    assert Rating.objects.get(user=anna).name == stand_in
    assert Guest.objects.get(pk=world.extra["anni"].pk).name == stand_in
    settled = settlement_of(world.evening.pk)
    assert stand_in in [row["name"] for row in settled["players"]]


def test_erasure_ends_memberships_and_deletes_what_served_only_the_person(
    world: ClubWorld,
) -> None:
    anna = world.users["anna"]
    privacy.erase(anna)
    assert not Membership.objects.filter(user=anna).exists()
    assert not CalendarFeed.objects.filter(user=anna).exists()
    assert list(JoinRequest.objects.filter(user=anna).values_list("status", "message")) == [
        ("accepted", "")
    ]
    # the open invitation to her went; the one she used stays in its club's books, blank
    assert not Invitation.objects.filter(club=world.club).exists()
    used = Invitation.objects.get(club=world.extra["graz"])
    assert (used.email, used.uses) == ("", 1)
    # her evenings' history stays (the club's), pointing at the account
    assert Attendance.objects.filter(user=anna).count() == 2
    assert all(r["document"] is None for r in DataRequest.objects.values("document"))


def test_erasure_keeps_every_other_players_standings_ratings_and_settlement(
    world: ClubWorld,
) -> None:
    anna = world.users["anna"]
    key = f"u:{anna.pk}"
    standings = rows_of(SeasonStanding)
    ratings = rows_of(Rating)
    settlement = settlement_of(world.evening.pk)
    assert any(key in (p["from"], p["to"]) for p in settlement["payments"])
    privacy.erase(anna)
    stand_in = privacy.pseudonym(anna)

    def as_erased(row: dict[str, Any]) -> dict[str, Any]:
        return {**row, "name": stand_in} if row["player"] == key else row

    assert rows_of(SeasonStanding) == [as_erased(r) for r in standings]
    assert rows_of(Rating) == [as_erased(r) for r in ratings]
    after = settlement_of(world.evening.pk)
    assert [as_erased(r) for r in settlement["players"]] == after["players"]
    for before, now in zip(settlement["payments"], after["payments"], strict=True):
        if key not in (before["from"], before["to"]):
            assert now == before
        else:
            assert stand_in in now["sentence"] and "Anna" not in now["sentence"]
            assert {k: v for k, v in now.items() if not k.endswith("name") and k != "sentence"} == {
                k: v for k, v in before.items() if not k.endswith("name") and k != "sentence"
            }


def test_erasure_signs_every_device_out(world: ClubWorld) -> None:
    anna = world.users["anna"]
    refresh = world.extra["tokens"]["refresh"]
    privacy.erase(anna)
    answer = APIClient().post("/api/v1/auth/token/refresh/", {"refresh": refresh}, format="json")
    assert answer.status_code == 401
    assert not OutstandingToken.objects.filter(user=anna, blacklistedtoken__isnull=True).exists()
    assert [s["revoked"] for s in privacy.export(fresh(anna))["account"]["sessions"]] == [True]


def test_the_last_owner_is_refused_and_nothing_changes(world: ClubWorld) -> None:
    anna = world.users["anna"]
    Membership.objects.filter(user=anna, club=world.extra["graz"]).update(role="owner")
    Membership.objects.filter(club=world.extra["graz"], user=world.users["outsider"]).delete()
    before = without_time(privacy.export(anna))
    standings = list(SeasonStanding.objects.order_by("pk").values())
    with pytest.raises(ClubConflict) as refused:
        privacy.erase(anna)
    assert (refused.value.status_code, refused.value.code) == (409, "last_owner")
    assert "Grazer Runde" in refused.value.message
    assert without_time(privacy.export(fresh(anna))) == before
    assert list(SeasonStanding.objects.order_by("pk").values()) == standings
    assert fresh(anna).is_active and fresh(anna).erased_at is None


def test_erasing_twice_changes_nothing_more(world: ClubWorld) -> None:
    anna = world.users["anna"]
    privacy.erase(anna)
    once = without_time(privacy.export(fresh(anna)))
    rows = (list(SeasonStanding.objects.values()), list(Rating.objects.values()))
    privacy.erase(fresh(anna))
    assert without_time(privacy.export(fresh(anna))) == once
    assert (list(SeasonStanding.objects.values()), list(Rating.objects.values())) == rows


# ---------------------------------------------------------------------------------------------
# pseudonyms and public names


@pytest.mark.parametrize(
    ("policy", "choice", "public"),
    [
        ("consent", None, False),
        ("consent", True, True),
        ("consent", False, False),
        ("publish", None, True),
        ("publish", True, True),
        ("publish", False, False),
    ],
)
def test_a_name_is_public_as_the_club_and_the_person_say(
    db: None, policy: str, choice: bool | None, public: bool
) -> None:
    club = Club.objects.create(name="Runde", name_policy=policy)
    person = UserFactory.create(public_name=choice)
    assert privacy.name_is_public(person, club) is public
    assert privacy.name_is_public(None, club) is (policy == "publish")  # a guest
    assert privacy.name_is_public(person, None) is bool(choice)  # no club: only consent


def test_a_pseudonym_is_the_same_on_every_call_and_different_per_person(db: None) -> None:
    first, second = UserFactory.create(), UserFactory.create()
    assert privacy.pseudonym(first) == privacy.pseudonym(fresh(first))
    assert privacy.pseudonym(first) != privacy.pseudonym(second)
    privacy.erase(first)
    assert fresh(first).display_name == privacy.pseudonym(first)
    assert privacy.name_is_public(fresh(first), None)  # an erased name is a pseudonym
