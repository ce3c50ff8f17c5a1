"""Names in a public club's lists (issue 39, docs/privacy.md): its season standings and its
ratings show a player's name to readers outside the club only where the player agreed
(``User.public_name``), or the club publishes names (``Club.name_policy``) and the player did
not object; everyone else reads the player's pseudonym. Members read every name, everyone
reads their own, and the standings' ETag changes with the names it may show."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs import privacy
from clubs.models import Club, Guest, Membership, Rating, Season, User
from games import services as games
from tests.clubs.evening_setup import a_season, evening_table, record
from tests.clubs.world import ClubWorld, build_club_world
from tests.helpers import client_for

# The hooks run on commit and their tasks in this process (as in test_seasons.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

PLAYERS = ("member", "scorer", "admin", "owner")


@pytest.fixture(autouse=True)
def no_poll_cache(settings: Any) -> None:
    """Every read sees the players' choices as they are now (phones' anonymous polls may
    reuse them for a second: ``PUBLIC_POLL_CACHE_SECONDS``)."""
    settings.PUBLIC_POLL_CACHE_SECONDS = 0


@pytest.fixture
def world() -> ClubWorld:
    """A public club whose four members and two guests played a table each in its season:
    ``member`` agreed to show their name, ``scorer`` objected, ``admin`` and ``owner`` chose
    nothing."""
    w = build_club_world(public=True)
    a_season(w)
    guests = [Guest.objects.create(club=w.club, name=n) for n in ("Gustav", "Helga")]
    u = w.users
    first = evening_table(w, [u["member"], u["scorer"], u["admin"]], "Tisch 1")
    second = evening_table(w, [u["owner"], *guests], "Tisch 2")
    rng = random.Random(7)
    record(w, first, 3, rng)
    record(w, second, 3, rng)
    User.objects.filter(pk=u["member"].pk).update(public_name=True)
    User.objects.filter(pk=u["scorer"].pk).update(public_name=False)
    w.extra["guests"] = guests
    w.extra["tables"] = [first, second]
    return w


def standings_url(w: ClubWorld) -> str:
    return f"/api/v1/clubs/{w.club.pk}/seasons/{w.extra['season']}/standings/"


def standings(w: ClubWorld, client: APIClient) -> dict[str, Any]:
    answer = client.get(standings_url(w))
    assert answer.status_code == 200, answer.content
    body: dict[str, Any] = answer.json()
    return body


def names(body: dict[str, Any] | list[dict[str, Any]]) -> dict[str, str]:
    rows = body["rows"] if isinstance(body, dict) else body
    return {row["player"]: row["name"] for row in rows}


def key(user: User) -> str:
    return f"u:{user.pk}"


def real(w: ClubWorld) -> dict[str, str]:
    """Every player's name, as the club's members read it."""
    out = {key(w.users[role]): w.users[role].display_name for role in PLAYERS}
    out.update({f"g:{g.pk}": g.name for g in w.extra["guests"]})
    return out


def public(w: ClubWorld, *shown: str) -> dict[str, str]:
    """The names the public reads when only the players ``shown`` (their keys) are named."""
    return {
        player: name if player in shown else privacy.public_pseudonym(player)
        for player, name in real(w).items()
    }


def set_policy(w: ClubWorld, policy: str) -> None:
    Club.objects.filter(pk=w.club.pk).update(name_policy=policy)


# ---------------------------------------------------------------------------------------------
# standings


@pytest.mark.parametrize("reader", ["anonymous", "outsider"])
def test_the_public_reads_only_the_names_of_players_who_agreed(
    world: ClubWorld, reader: str
) -> None:
    body = standings(world, world.client(reader))
    assert body["names"] == "consent"
    assert names(body) == public(world, key(world.users["member"]))
    # keys, ids and numbers stay as they are
    rows = {row["player"]: row for row in body["rows"]}
    assert rows[key(world.users["scorer"])]["user"] == world.users["scorer"].pk


@pytest.mark.parametrize("reader", ["anonymous", "outsider"])
def test_a_club_that_publishes_names_shows_every_name_but_of_who_objected(
    world: ClubWorld, reader: str
) -> None:
    set_policy(world, Club.NamePolicy.PUBLISH)
    body = standings(world, world.client(reader))
    assert body["names"] == "publish"
    shown = set(real(world)) - {key(world.users["scorer"])}
    assert names(body) == public(world, *shown)


@pytest.mark.parametrize("role", ["member", "scorer", "admin", "owner"])
def test_members_read_every_name(world: ClubWorld, role: str) -> None:
    body = standings(world, world.client(role))
    assert body["names"] == "insider"
    assert names(body) == real(world)


def test_a_person_reads_their_own_name_outside_the_club(world: ClubWorld) -> None:
    scorer = world.users["scorer"]
    Membership.objects.filter(club=world.club, user=scorer).delete()
    body = standings(world, world.client("scorer"))
    assert body["names"] == "consent"
    assert names(body) == public(world, key(world.users["member"]), key(scorer))


def test_an_anonymous_poll_reads_what_a_signed_in_outsider_reads(world: ClubWorld) -> None:
    # the anonymous poll is answered outside DRF's request cycle (StandingsView.dispatch)
    assert names(standings(world, APIClient())) == names(standings(world, world.client("outsider")))


def test_the_etag_changes_when_a_listed_player_changes_their_choice(world: ClubWorld) -> None:
    url = standings_url(world)
    first = APIClient().get(url)
    etag = first["ETag"]
    assert APIClient().get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    admin = world.users["admin"]
    User.objects.filter(pk=admin.pk).update(public_name=True)
    changed = APIClient().get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert names(changed.json())[key(admin)] == admin.display_name
    # and back: the name goes again, under yet another tag
    User.objects.filter(pk=admin.pk).update(public_name=None)
    again = APIClient().get(url, HTTP_IF_NONE_MATCH=changed["ETag"])
    assert again.status_code == 200
    assert names(again.json())[key(admin)] == privacy.public_pseudonym(key(admin))


def test_the_etag_changes_with_the_clubs_policy(world: ClubWorld) -> None:
    url = standings_url(world)
    etag = APIClient().get(url)["ETag"]
    set_policy(world, Club.NamePolicy.PUBLISH)
    changed = APIClient().get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.json()["names"] == "publish"


def test_the_members_version_and_the_public_one_have_their_own_etags(world: ClubWorld) -> None:
    url = standings_url(world)
    member = world.client("member").get(url)
    anonymous = APIClient().get(url)
    assert member["ETag"] != anonymous["ETag"]
    # the members' tag gets no 304 for the public, nor the other way round
    assert APIClient().get(url, HTTP_IF_NONE_MATCH=member["ETag"]).status_code == 200
    assert world.client("member").get(url, HTTP_IF_NONE_MATCH=anonymous["ETag"]).status_code == 200
    assert {"Authorization", "Cookie"} <= set(anonymous["Vary"].split(", "))
    assert {"Authorization", "Cookie"} <= set(member["Vary"].split(", "))


def test_a_pseudonym_speaks_the_readers_language(world: ClubWorld) -> None:
    body = APIClient().get(standings_url(world), HTTP_ACCEPT_LANGUAGE="de").json()
    owner = key(world.users["owner"])
    assert names(body)[owner].startswith("Spieler ")
    assert names(body)[owner].endswith(privacy.pseudonym_code(owner))


def test_an_erased_player_is_a_pseudonym_for_members_too(world: ClubWorld) -> None:
    member = world.users["member"]
    assert names(standings(world, world.client("owner")))[key(member)] == member.display_name
    privacy.erase(member)
    assert names(standings(world, world.client("owner")))[key(member)].startswith("Player ")
    assert names(standings(world, APIClient()))[key(member)].startswith("Player ")


# ---------------------------------------------------------------------------------------------
# ratings


def ratings(w: ClubWorld, client: APIClient) -> list[dict[str, Any]]:
    answer = client.get(f"/api/v1/clubs/{w.club.pk}/ratings/")
    assert answer.status_code == 200, answer.content
    results: list[dict[str, Any]] = answer.json()["results"]
    return results


@pytest.fixture
def rated(world: ClubWorld) -> ClubWorld:
    """The world with both tables closed: every player rated."""
    for table in world.extra["tables"]:
        games.table_close(table_id=table.pk, user=world.users["owner"])
    assert Rating.objects.filter(club=world.club).count() == 6
    return world


def test_the_ratings_name_players_as_the_standings_do(rated: ClubWorld) -> None:
    w = rated
    assert names(ratings(w, APIClient())) == public(w, key(w.users["member"]))
    assert names(ratings(w, w.client("member"))) == real(w)
    set_policy(w, Club.NamePolicy.PUBLISH)
    everyone_but_scorer = set(real(w)) - {key(w.users["scorer"])}
    assert names(ratings(w, w.client("outsider"))) == public(w, *everyone_but_scorer)


# ---------------------------------------------------------------------------------------------
# the club's policy


def club_url(w: ClubWorld) -> str:
    return f"/api/v1/clubs/{w.club.pk}/"


def test_the_clubs_answer_says_whose_names_its_lists_show(world: ClubWorld) -> None:
    assert APIClient().get(club_url(world)).json()["name_policy"] == "consent"
    set_policy(world, Club.NamePolicy.PUBLISH)
    assert APIClient().get(club_url(world)).json()["name_policy"] == "publish"


@pytest.mark.parametrize(
    ("role", "status"),
    [("owner", 200), ("admin", 200), ("scorer", 403), ("member", 403), ("outsider", 403)],
)
def test_owners_and_admins_set_the_name_policy(world: ClubWorld, role: str, status: int) -> None:
    answer = world.client(role).patch(club_url(world), {"name_policy": "publish"}, format="json")
    assert answer.status_code == status, answer.content
    world.club.refresh_from_db()
    assert world.club.name_policy == ("publish" if status == 200 else "consent")
    if status == 200:
        assert answer.json()["name_policy"] == "publish"
    else:
        assert answer.json()["code"] == "permission_denied"


def test_anonymous_callers_set_no_name_policy(world: ClubWorld) -> None:
    answer = APIClient().patch(club_url(world), {"name_policy": "publish"}, format="json")
    assert answer.status_code == 401


def test_a_club_is_founded_with_the_consent_policy_unless_told(world: ClubWorld) -> None:
    client = client_for(world.users["outsider"])
    plain = client.post("/api/v1/clubs/", {"name": "Stille Runde"}, format="json")
    assert plain.status_code == 201 and plain.json()["name_policy"] == "consent"
    told = client.post(
        "/api/v1/clubs/", {"name": "Laute Runde", "name_policy": "publish"}, format="json"
    )
    assert told.status_code == 201 and told.json()["name_policy"] == "publish"
    assert Club.objects.get(pk=told.json()["id"]).name_policy == "publish"


def test_an_unknown_name_policy_is_a_field_error(world: ClubWorld) -> None:
    answer = world.client("owner").patch(club_url(world), {"name_policy": "open"}, format="json")
    assert answer.status_code == 400
    assert list(answer.json()["fields"]) == ["name_policy"]
    assert Season.objects.filter(club=world.club).exists()  # nothing else changed either


def test_an_evenings_rounds_and_tables_follow_the_names_rule() -> None:
    """A public club's evening: a stranger reads the round's and the tables' seats with the
    names the players allow; a member reads every name."""
    from tests.clubs.evening_setup import started_round

    w = build_club_world(public=True)
    started_round(w)
    u = w.users
    User.objects.filter(pk=u["member"].pk).update(public_name=True)
    base = f"/api/v1/clubs/{w.club.pk}/evenings/{w.evening.pk}/"
    seated = {key(u[r]): u[r].display_name for r in PLAYERS}
    hidden = {p: privacy.public_pseudonym(p) for p in seated if p != key(u["member"])}

    def seats(client: APIClient) -> list[dict[str, str]]:
        answers = [client.get(base + "rounds/"), client.get(base + "rounds/1/")]
        answers.append(client.get(base + "tables/"))
        assert all(a.status_code == 200 for a in answers), [a.content for a in answers]
        listed, one, tables = (a.json() for a in answers)
        return [
            *(s for t in listed["results"][0]["tables"] for s in t["seats"]),
            *(s for t in one["tables"] for s in t["seats"]),
            *(s for t in tables["results"] for s in t["seats"]),
        ]

    public = seats(APIClient())
    assert public and {s["name"] for s in public} == {
        seated[key(u["member"])],
        *hidden.values(),
    }
    assert all(s["name"] == hidden.get(s["player"], seated[s["player"]]) for s in public)
    inside = seats(client_for(u["member"]))
    assert all(s["name"] == seated[s["player"]] for s in inside)
