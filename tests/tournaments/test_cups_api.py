"""The cups API (issue 42, docs/cups.md) as a director, a player and the public use it: a
club's director sets up a season, adds a tournament of this server (accepted by its
director) and imports two run elsewhere; the standings move as results come in; exports and
the printable page say what the API says; 304 while nothing changed; names hidden from the
public as the club's policy says; a player's history and own cups; the final's needs."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from clubs import privacy
from clubs.models import Club, Membership, User
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments import matrix_cups
from tests.tournaments.world import RULES, build_tournament_world, call_row
from tournaments import services as tournament_services
from tournaments.models import CupPlayer

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

POLICY = {
    "points": {"table": [10, 8, 6, 5, 4]},
    "best_of": 1,
    "min_events": 1,
    "side_rankings": ["region"],
}
FINAL = {"qualify": {"top": 3}, "carry": [6, 4, 2], "points": {"table": [10, 6, 3]}}
SPRING = (
    "placing,name,score,rounds,region\n"
    "1,Maria Gruber,30,3,Tirol\n"
    "2,Franz Huber,25,3,Kärnten\n"
    "3,Sepp Moser,20,3,Tirol\n"
)


@dataclass
class Season:
    club: Club
    olga: User  # the club's owner, who runs the cup
    maria: User  # a player with an account, not a member of the club
    member: User  # a member of the club
    cup: dict[str, Any]
    run: Callable[[], AbstractContextManager[Any]]

    @property
    def path(self) -> str:
        return f"/api/v1/cups/{self.cup['id']}/"

    def director(self) -> APIClient:
        return client_for(self.olga)

    def send(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        """As the director, running the worker's recomputation the request asks for."""
        with self.run():
            answer = getattr(self.director(), method)(self.path + path, body, format="json")
        assert answer.status_code == status, answer.content
        return answer.json() if answer.content else None

    def summer(self) -> dict[str, Any]:
        """A second import, as JSON: Maria by her account, Franz, a newcomer."""
        return {
            "name": "Sommerturnier Lienz",
            "held_on": "2027-06-12",
            "format": "json",
            "data": {
                "results": [
                    {"placing": 1, "name": "Franz Huber", "score": "31", "rounds": 3},
                    {"placing": 2, "name": "Maria G.", "user": self.maria.pk, "rounds": 3},
                    {
                        "placing": 3,
                        "name": "Toni Pichler",
                        "rounds": 3,
                        "attributes": {"region": "Tirol"},
                    },
                ]
            },
            "field_size": 12,
        }


@pytest.fixture
def season(django_capture_on_commit_callbacks: Any) -> Iterator[Season]:
    olga = UserFactory.create(username="olga")
    maria = UserFactory.create(username="maria", display_name="Maria Gruber")
    member = UserFactory.create(username="mitglied")
    club = Club.objects.create(name="Kartenrunde Graz", slug="kartenrunde-graz")
    Membership.objects.create(club=club, user=olga, role=Membership.Role.OWNER)
    Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
    # Maria plays with Olga at another club (a director names only people they play with)
    elsewhere = Club.objects.create(name="Stammtisch Leoben", slug="stammtisch-leoben")
    for person in (olga, maria):
        Membership.objects.create(club=elsewhere, user=person)

    def run() -> AbstractContextManager[Any]:
        return django_capture_on_commit_callbacks(execute=True)

    with run():
        answer = client_for(olga).post(
            "/api/v1/cups/",
            {
                "club": club.pk,
                "name": "Steirischer Cup",
                "rule_sets": ["wien"],
                "policy": POLICY,
                "final": FINAL,
            },
            format="json",
        )
    assert answer.status_code == 201, answer.content
    yield Season(club, olga, maria, member, answer.json(), run)


def spring(s: Season) -> dict[str, Any]:
    return s.send(
        "post",
        "imports/",
        {"name": "Frühjahrsturnier", "held_on": "2027-04-10", "format": "csv", "data": SPRING},
        201,
    )


def standings(client: APIClient, s: Season, query: str = "") -> dict[str, Any]:
    answer = client.get(s.path + "standings/" + query)
    assert answer.status_code == 200, answer.content
    return answer.json()


def by_name(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in body["rows"]}


def test_a_draft_cup_does_not_exist_for_the_public_until_it_opens(season: Season) -> None:
    assert client_for(None).get(season.path).status_code == 404
    assert client_for(season.maria).get(season.path + "standings/").status_code == 404
    opened = season.send("post", "open/")
    assert opened["status"] == "running"
    assert client_for(None).get(season.path).status_code == 200
    listed = client_for(None).get("/api/v1/cups/", {"club": season.club.pk}).json()
    assert [c["id"] for c in listed["results"]] == [season.cup["id"]]


def test_the_standings_move_as_imports_come_in(season: Season) -> None:
    season.send("post", "open/")
    event = spring(season)
    assert event["kind"] == "imported" and event["status"] == "accepted"
    assert [(r["placing"], r["name"], r["score"]) for r in event["results"]] == [
        (1, "Maria Gruber", "30"),
        (2, "Franz Huber", "25"),
        (3, "Sepp Moser", "20"),
    ]
    first = standings(season.director(), season)
    assert first["up_to_date"] and first["version"] == first["requested_version"]
    assert [(r["rank"], r["name"], r["points"]) for r in first["rows"]] == [
        (1, "Maria Gruber", "10"),
        (2, "Franz Huber", "8"),
        (3, "Sepp Moser", "6"),
    ]
    assert "region:Tirol" in first["rankings"] and "final" in first["rankings"]

    season.send("post", "imports/", season.summer(), 201)
    second = standings(season.director(), season)
    assert second["version"] > first["version"]
    rows = by_name(second)
    # best 1 of 2: Franz won the summer, Maria's spring win still counts for her
    assert rows["Franz Huber"]["points"] == "10" and rows["Franz Huber"]["played"] == 2
    assert rows["Maria Gruber"]["points"] == "10"
    # Maria's account matched no guest by name: "Maria G." is a new player of the cup
    assert "Maria G." in rows
    tirol = standings(season.director(), season, "?ranking=region:Tirol")
    assert [r["name"] for r in tirol["rows"]] == ["Maria Gruber", "Sepp Moser", "Toni Pichler"]
    # Sepp and Toni, third of different events: equal on points and every tiebreak
    assert [r["rank"] for r in tirol["rows"]] == [1, 2, 2]
    unknown = season.director().get(season.path + "standings/?ranking=region:Wien")
    assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_ranking"


def test_an_import_is_corrected_and_the_standings_follow(season: Season) -> None:
    season.send("post", "open/")
    event = spring(season)
    corrected = season.send(
        "put",
        f"events/{event['id']}/results/",
        {"format": "csv", "data": SPRING.replace("1,Maria", "9,Maria").replace("3,Sepp", "1,Sepp")},
    )
    assert [r["name"] for r in corrected["results"]][0] == "Sepp Moser"
    rows = by_name(standings(season.director(), season))
    assert rows["Sepp Moser"]["rank"] == 1 and rows["Sepp Moser"]["points"] == "10"
    results = season.director().get(season.path + f"events/{event['id']}/results/").json()
    assert results["count"] == 3 and results["results"][0]["name"] == "Sepp Moser"


def test_a_tournament_counts_once_its_director_accepts(season: Season) -> None:
    season.send("post", "open/")
    toni = UserFactory.create(username="toni")
    t = tournament_services.tournament_create(user=toni, name="Grazer Open", rules=RULES)
    tournament_services.tournament_open_registration(user=toni, tournament=t)
    proposal = season.send("post", "events/", {"tournament": t.pk, "is_final": False}, 201)
    assert proposal["status"] == "proposed" and proposal["kind"] == "tournament"
    # the public does not read a proposal; the tournament's director does, and decides
    assert client_for(None).get(season.path + f"events/{proposal['id']}/").status_code == 404
    mine = client_for(toni).get(season.path + "events/").json()
    assert [e["id"] for e in mine["results"]] == [proposal["id"]]
    hidden = UserFactory.create(username="geheim")
    private = tournament_services.tournament_create(user=hidden, name="Privat", rules=RULES)
    for unseen in (private.pk, private.pk + 1000):  # a draft not ours, an id nobody uses
        answer = season.director().post(season.path + "events/", {"tournament": unseen})
        assert answer.status_code == 400, answer.content
        assert list(answer.json()["fields"]) == ["tournament"]
    refused = season.director().post(season.path + f"events/{proposal['id']}/accept/")
    assert refused.status_code == 403
    with season.run():
        accepted = client_for(toni).post(season.path + f"events/{proposal['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert client_for(None).get(season.path + f"events/{proposal['id']}/").status_code == 200
    log = season.director().get(season.path + "log/").json()["results"]
    assert {"cup_create", "cup_open"} <= {entry["action"] for entry in log}
    assert client_for(toni).get(season.path + "log/").status_code == 403


def rows_of_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_exports_and_the_printable_page_say_what_the_api_says(season: Season) -> None:
    season.send("post", "open/")
    spring(season)
    season.send("post", "imports/", season.summer(), 201)
    for client in (season.director(), client_for(None)):
        api = standings(client, season)
        exported = client.get(season.path + "export/standings.json")
        assert exported.status_code == 200
        assert exported["Content-Disposition"].startswith("attachment")
        assert exported.json() == api
        text = client.get(season.path + "export/standings.csv")
        assert text["Content-Type"].startswith("text/csv")
        rows = rows_of_csv(text.content.decode())
        assert [(r["rank"], r["name"], r["points"], r["played"]) for r in rows] == [
            (str(r["rank"]), r["name"], r["points"], str(r["played"])) for r in api["rows"]
        ]
        page = client.get(season.path + "standings/print/")
        assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
        html = page.content.decode()
        assert "Steirischer Cup" in html and "Provisional standings" in html
        for row in api["rows"]:
            assert row["name"] in html
    side = client_for(None).get(season.path + "export/standings.csv?ranking=region:Tirol")
    assert len(rows_of_csv(side.content.decode())) == 3


@pytest.mark.parametrize(
    "path", ["standings/", "final/", "export/standings.csv", "standings/print/"]
)
def test_an_unchanged_cup_answers_304_and_a_change_a_new_etag(season: Season, path: str) -> None:
    season.send("post", "open/")
    spring(season)
    public = client_for(None)
    first = public.get(season.path + path)
    assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
    again = public.get(season.path + path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]
    # the director reads other names: another representation
    insider = season.director().get(season.path + path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert insider.status_code == 200 and insider["ETag"] != first["ETag"]
    season.send("post", "imports/", season.summer(), 201)
    after = public.get(season.path + path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]


def test_names_are_hidden_from_the_public_as_the_clubs_policy_says(season: Season) -> None:
    season.send("post", "open/")
    spring(season)
    season.send("post", "imports/", season.summer(), 201)
    players = {p.name: p for p in CupPlayer.objects.filter(cup_id=season.cup["id"])}

    def pseudonym(name: str) -> str:
        return privacy.public_pseudonym(f"cp:{players[name].pk}")

    # consent (the default): guests and Maria, who did not agree, under pseudonyms
    public = by_name(standings(client_for(None), season))
    assert "Franz Huber" not in public and "Maria G." not in public
    assert pseudonym("Franz Huber") in public and pseudonym("Maria G.") in public
    assert standings(client_for(None), season)["names"] == "consent"
    # insiders: the director and the club's members read every name
    for insider in (season.director(), client_for(season.member)):
        body = standings(insider, season)
        assert body["names"] == "insider" and "Franz Huber" in by_name(body)
    # Maria reads her own name, not the others'
    hers = by_name(standings(client_for(season.maria), season))
    assert "Maria G." in hers and pseudonym("Franz Huber") in hers
    # a name search finds only the names the caller reads
    found = client_for(None).get(season.path + "players/", {"name": "Franz"}).json()
    assert found["count"] == 0
    found = season.director().get(season.path + "players/", {"name": "Franz"}).json()
    assert [p["name"] for p in found["results"]] == ["Franz Huber"]
    # Maria agrees: the public reads her name
    User.objects.filter(pk=season.maria.pk).update(public_name=True)
    assert "Maria G." in by_name(standings(client_for(None), season))
    # a club that publishes names: guests' names too
    Club.objects.filter(pk=season.club.pk).update(name_policy=Club.NamePolicy.PUBLISH)
    body = standings(client_for(None), season)
    assert body["names"] == "publish" and "Franz Huber" in by_name(body)
    page = client_for(None).get(season.path + "standings/print/").content.decode()
    assert "Franz Huber" in page and "publishes" in page


def test_a_player_reads_their_history_and_their_cups(season: Season) -> None:
    season.send("post", "open/")
    spring(season)
    season.send("post", "imports/", season.summer(), 201)
    maria = CupPlayer.objects.get(cup_id=season.cup["id"], user=season.maria)
    franz = CupPlayer.objects.get(cup_id=season.cup["id"], name="Franz Huber")
    history = client_for(None).get(season.path + f"players/{franz.pk}/history/").json()
    # level with Maria Gruber on 10, who placed above him where both played (`latest`)
    assert history["rank"] == 2 and history["points"] == "10"
    assert [
        (e["name"], e["placing"], e["points"], e["status"], e["reason"]) for e in history["events"]
    ] == [
        ("Frühjahrsturnier", 2, "8", "dropped", "not_best"),
        ("Sommerturnier Lienz", 1, "10", "counted", ""),
    ]
    assert history["ranks"] and history["ranks"][-1]["rank"] == 2
    assert history["player"]["name"] == privacy.public_pseudonym(f"cp:{franz.pk}")

    mine = client_for(season.maria).get("/api/v1/me/cups/").json()
    assert mine["count"] == 1
    (cup,) = mine["results"]
    assert cup["cup"] == season.cup["id"] and cup["player"] == maria.pk
    own = by_name(standings(client_for(season.maria), season))["Maria G."]
    assert (cup["rank"], cup["points"]) == (own["rank"], own["points"])
    assert client_for(None).get("/api/v1/me/cups/").status_code == 401


def test_my_cups_lists_a_draft_and_a_private_cup_i_play_in(season: Season) -> None:
    """A cup's players may see it (``cup_permissions.can_see_cup``): a draft, or a cup that
    is not public, is in their own list, though not in the public list of cups."""
    season.send("patch", "", {"is_public": False})
    season.send("post", "imports/", season.summer(), 201)  # Maria by her account, in a draft
    maria = client_for(season.maria)
    mine = maria.get("/api/v1/me/cups/").json()
    assert [(c["cup"], c["status"]) for c in mine["results"]] == [(season.cup["id"], "draft")]
    assert maria.get(season.path).status_code == 200
    assert maria.get("/api/v1/cups/").json()["count"] == 0
    season.send("post", "open/")
    (cup,) = maria.get("/api/v1/me/cups/").json()["results"]
    assert (cup["status"], cup["rank"], cup["points"]) == ("running", 2, "8")
    # somebody else's private cup stays out of a stranger's list
    stranger = client_for(UserFactory.create(username="fremd"))
    assert stranger.get("/api/v1/me/cups/").json()["count"] == 0
    assert stranger.get(season.path).status_code == 404


def test_a_tournament_s_directors_find_the_proposals_of_cups_they_may_not_see(
    season: Season,
) -> None:
    season.send("patch", "", {"is_public": False})  # a private draft: Toni may not see it
    toni = UserFactory.create(username="toni")
    t = tournament_services.tournament_create(user=toni, name="Grazer Open", rules=RULES)
    tournament_services.tournament_open_registration(user=toni, tournament=t)
    proposal = season.send("post", "events/", {"tournament": t.pk}, 201)
    path = f"/api/v1/tournaments/{t.pk}/cups/"
    assert client_for(toni).get(season.path).status_code == 404

    found = client_for(toni).get(path).json()
    assert found["count"] == 1
    (row,) = found["results"]
    assert (row["id"], row["cup"], row["cup_name"], row["cup_status"], row["status"]) == (
        proposal["id"],
        season.cup["id"],
        "Steirischer Cup",
        "draft",
        "proposed",
    )
    # enough to answer it
    with season.run():
        answer = client_for(toni).post(f"/api/v1/cups/{row['cup']}/events/{row['id']}/accept/")
    assert answer.status_code == 200, answer.content
    assert client_for(toni).get(path, {"status": "proposed"}).json()["count"] == 0
    assert client_for(toni).get(path, {"status": "accepted"}).json()["count"] == 1

    # everyone else: the accepted events of cups they may see
    public = client_for(None)
    assert public.get(path).json()["count"] == 0  # a private draft
    season.send("post", "open/")
    assert public.get(path).json()["count"] == 0  # private
    season.send("patch", "", {"is_public": True})
    listed = public.get(path).json()
    assert [(r["id"], r["status"]) for r in listed["results"]] == [(proposal["id"], "accepted")]

    # a proposal still open is the tournament's directors' (and the cup's) business alone
    second = tournament_services.tournament_create(user=toni, name="Leobner Open", rules=RULES)
    tournament_services.tournament_open_registration(user=toni, tournament=second)
    season.send("post", "events/", {"tournament": second.pk}, 201)
    second_path = f"/api/v1/tournaments/{second.pk}/cups/"
    assert public.get(second_path).json()["count"] == 0
    assert client_for(season.member).get(second_path).json()["count"] == 0
    assert client_for(toni).get(second_path).json()["count"] == 1
    assert client_for(season.olga).get(second_path).json()["count"] == 1  # the cup's director

    # a tournament the caller may not see is missing, as an id nobody uses
    hidden = tournament_services.tournament_create(user=toni, name="Entwurf", rules=RULES)
    for unseen in (hidden.pk, hidden.pk + 1000):
        answer = client_for(season.maria).get(f"/api/v1/tournaments/{unseen}/cups/")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_a_duplicate_player_is_merged_and_renamed(season: Season) -> None:
    season.send("post", "open/")
    spring(season)
    season.send("post", "imports/", season.summer(), 201)
    guest = CupPlayer.objects.get(cup_id=season.cup["id"], name="Maria Gruber")
    account = CupPlayer.objects.get(cup_id=season.cup["id"], user=season.maria)
    kept = season.send("post", f"players/{guest.pk}/merge/", {"into": account.pk})
    assert kept["id"] == account.pk and kept["results_count"] == 2
    renamed = season.send(
        "patch",
        f"players/{account.pk}/",
        {"name": "Maria Gruber", "attributes": {"region": "Tirol"}},
    )
    assert renamed["attributes"] == {"region": "Tirol"}
    rows = by_name(standings(season.director(), season))
    assert "Maria G." not in rows and rows["Maria Gruber"]["played"] == 2
    assert season.director().get(season.path + f"players/{guest.pk}/").status_code == 404


def test_the_final_says_what_each_contender_needs(season: Season) -> None:
    season.send("post", "open/")
    spring(season)
    final = client_for(None).get(season.path + "final/").json()
    assert final["has_final"] and final["event"] is None and not final["played"]
    contenders = final["qualified"]
    assert [c["cup_rank"] for c in contenders] == [1, 2, 3]
    assert [c["carried"] for c in contenders] == ["6", "4", "2"]
    assert final["field_size"] == 3
    leader = contenders[0]["needs"]
    assert [(n["placing"], n["total"]) for n in leader] == [(1, "16"), (2, "12"), (3, "9")]
    # first place in the final wins it for sure; third place still may (if the others miss)
    assert leader[0]["wins"] == "sure" and leader[0]["worst_rank"] == 1
    assert leader[2]["best_rank"] >= 1 and leader[2]["wins"] in ("possible", "no")
    assert final["winner"] is None


def test_a_cup_director_may_do_what_the_clubs_owner_may() -> None:
    """The sixth role of the matrix (tests/tournaments/matrix_cups.py): a director of the
    cup who has no role in its club gets the club owner's status on every row, but where
    :data:`~tests.tournaments.matrix_cups.CUP_DIRECTOR` says otherwise. One world per set-up,
    each row in a savepoint rolled back after it."""
    groups: dict[Any, list[Any]] = {}
    for row in matrix_cups.ROWS:
        groups.setdefault((row.state, row.kind, row.public, row.setup), []).append(row)
    checked = 0
    for (state, kind, public, setup), rows in groups.items():
        with transaction.atomic():
            world = build_tournament_world(state=state, public=public, kind=kind)
            setup(world)
            world.users["club_admin"] = User.objects.get(pk=world.extra["cupdir"])
            for row in rows:
                expected = matrix_cups.CUP_DIRECTOR.get(row.id, row.expect["club_admin"])
                with transaction.atomic():
                    answer = call_row(world, row, "club_admin")
                    transaction.set_rollback(True)
                assert answer.status_code == expected, (row.id, answer.content[:300])
                checked += 1
            transaction.set_rollback(True)
    assert checked == len(matrix_cups.ROWS)
