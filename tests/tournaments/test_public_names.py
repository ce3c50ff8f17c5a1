"""A tournament's public pages name a player only where the player agreed (issue 39,
docs/tournaments.md "Names"): the others read as their pseudonym ("Player 7f3a2c"). Under a
club's ``publish`` policy every name shows but of those who objected. Whoever runs the
tournament and the members of its club read every name, and everyone reads their own.

The players carry display names nobody could mistake for anything else on a page, so that a
name that should not show is found wherever it leaks (a row, a CSV cell, the printable page).
"""

from __future__ import annotations

import csv
import io
import random
from typing import Any

import pytest

from clubs.models import Club, Membership, User
from clubs.privacy import public_pseudonym
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments.setup import Field, make_field, play, seat
from tournaments.models import Entry, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

NAMES = ["Anna Zwieselbauer", "Bert Quastlhuber", "Cilli Hochwimmer", "Done Frauscher"]
SUBSTITUTE = "Resi Grubinger"


def field(players: int = 4, **format: Any) -> Field:
    """``players`` entrants with the display names of ``NAMES`` (agreed: the first; objected:
    the second; not asked: the others) and a substitute known only by name."""
    f = make_field(players, **format)
    for user, name in zip(f.players, NAMES, strict=False):
        User.objects.filter(pk=user.pk).update(display_name=name)
    agree(f.players[0], True)
    agree(f.players[1], False)
    f.post("entries/", {"name": SUBSTITUTE}, status=201)
    return f


def of_club(f: Field, policy: str) -> Club:
    """Make ``f``'s tournament one of a new club with name policy ``policy``."""
    club = Club.objects.create(name="Wiener Runde", slug="wiener-runde", name_policy=policy)
    Tournament.objects.filter(pk=f.tournament_id).update(club=club)
    return club


def agree(user: User, choice: bool | None) -> None:
    User.objects.filter(pk=user.pk).update(public_name=choice)


def entry(f: Field, user: User | None = None) -> int:
    """The entry of ``user``; of the substitute for None."""
    found = Entry.objects.filter(tournament_id=f.tournament_id)
    if user is None:
        return found.get(user__isnull=True).pk
    return found.get(user=user).pk


def named(f: Field, *, shown: list[int], substitute: bool) -> dict[int, str]:
    """What a reader reads for each entry: the names of the players ``shown`` (indexes into
    ``f.players``) and of the substitute if ``substitute``, else their pseudonyms."""
    out = {}
    for i, user in enumerate(f.players):
        name = User.objects.get(pk=user.pk).display_name
        out[entry(f, user)] = name if i in shown else public_pseudonym(f"u:{user.pk}")
    stand_in = entry(f)
    out[stand_in] = SUBSTITUTE if substitute else public_pseudonym(f"e:{stand_in}")
    return out


def standings(client: Any, f: Field) -> dict[str, Any]:
    answer = client.get(f.url + "standings/")
    assert answer.status_code == 200, answer.content
    return answer.json()


def by_entry(rows: list[dict[str, Any]]) -> dict[int, str]:
    return {r["entry"]: r["display_name"] for r in rows}


def hidden(text: str, f: Field, *, shown: list[int]) -> None:
    """None of the names but of the players ``shown`` appears in ``text``: neither the
    display name nor the login it was entered under."""
    for i, user in enumerate(f.players):
        if i not in shown:
            name = User.objects.get(pk=user.pk).display_name
            assert name not in text and user.username not in text, name


def test_the_public_reads_a_name_only_where_its_player_agreed() -> None:
    f = field()
    answer = standings(client_for(None), f)
    assert answer["names"] == "consent"
    assert by_entry(answer["rows"]) == named(f, shown=[0], substitute=False)
    # ``name`` (what the entry was entered under) hides the same names
    for row in answer["rows"]:
        if row["entry"] != entry(f, f.players[0]):
            assert row["name"] == row["display_name"]
    hidden(str(answer), f, shown=[0])
    assert SUBSTITUTE not in str(answer)
    # the entries list follows the same rule
    listed = client_for(None).get(f.url + "entries/").json()["results"]
    assert {e["id"]: e["display_name"] for e in listed} == named(f, shown=[0], substitute=False)
    hidden(str(listed), f, shown=[0])


def test_under_a_clubs_publish_policy_every_name_shows_but_of_those_who_objected() -> None:
    f = field()
    of_club(f, Club.NamePolicy.PUBLISH)
    answer = standings(client_for(None), f)
    assert answer["names"] == "publish"
    assert by_entry(answer["rows"]) == named(f, shown=[0, 2, 3], substitute=True)
    hidden(str(answer), f, shown=[0, 2, 3])
    page = client_for(None).get(f.url + "standings/print/").content.decode()
    assert "The club publishes its players&#x27; names" in page
    hidden(page, f, shown=[0, 2, 3])


def test_who_runs_the_tournament_and_the_clubs_members_read_every_name() -> None:
    f = field()
    club = of_club(f, Club.NamePolicy.CONSENT)
    member = UserFactory.create()
    Membership.objects.create(club=club, user=member)
    admin = UserFactory.create()
    Membership.objects.create(club=club, user=admin, role=Membership.Role.ADMIN)
    staff = UserFactory.create(is_staff=True)
    everyone = named(f, shown=[0, 1, 2, 3], substitute=True)
    for reader in (f.director, admin, staff, member):
        answer = standings(client_for(reader), f)
        assert answer["names"] == "insider", reader
        assert by_entry(answer["rows"]) == everyone, reader
    # an entrant who is not a member of the club reads what the public reads, and their own
    answer = standings(client_for(f.players[2]), f)
    assert answer["names"] == "consent"
    assert by_entry(answer["rows"]) == named(f, shown=[0, 2], substitute=False)


def test_a_player_reads_their_own_name_and_the_others_as_the_public() -> None:
    f = field()
    me = f.players[3]
    answer = standings(client_for(me), f)
    assert answer["names"] == "consent"
    assert by_entry(answer["rows"]) == named(f, shown=[0, 3], substitute=False)
    mine = f.get("me/", user=me)
    assert mine["entry"]["display_name"] == NAMES[3]
    # their answer is theirs: not the one a cache keeps for the public
    anonymous = client_for(None).get(f.url + "standings/")
    assert client_for(me).get(f.url + "standings/")["ETag"] != anonymous["ETag"]


@pytest.mark.parametrize(
    "path", ["standings/", "export/standings.json", "export/standings.csv", "standings/print/"]
)
def test_a_copy_is_stale_once_a_listed_player_changes_their_mind(path: str) -> None:
    f = field()
    club = of_club(f, Club.NamePolicy.CONSENT)
    anon = client_for(None)
    first = anon.get(f.url + path)
    assert first.status_code == 200
    assert NAMES[2] not in first.content.decode()
    assert "Authorization" in first["Vary"] and "Cookie" in first["Vary"]
    assert anon.get(f.url + path, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    agree(f.players[2], True)
    now = anon.get(f.url + path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert now.status_code == 200 and now["ETag"] != first["ETag"]
    assert NAMES[2] in now.content.decode()
    assert anon.get(f.url + path, HTTP_IF_NONE_MATCH=now["ETag"]).status_code == 304

    # the club's policy is part of it too
    Club.objects.filter(pk=club.pk).update(name_policy=Club.NamePolicy.PUBLISH)
    published = anon.get(f.url + path, HTTP_IF_NONE_MATCH=now["ETag"])
    assert published.status_code == 200 and SUBSTITUTE in published.content.decode()

    # and the director's copy is another one
    director = f.boss().get(f.url + path, HTTP_IF_NONE_MATCH=published["ETag"])
    assert director.status_code == 200 and NAMES[1] in director.content.decode()


def test_the_csv_and_the_printable_page_follow_the_same_rule() -> None:
    f = field()
    anon = client_for(None)
    public = named(f, shown=[0], substitute=False)
    text = anon.get(f.url + "export/standings.csv").content.decode()
    assert {int(r["entry"]): r["name"] for r in csv.DictReader(io.StringIO(text))} == public
    hidden(text, f, shown=[0])

    page = anon.get(f.url + "standings/print/").content.decode()
    for name in public.values():
        assert name in page
    hidden(page, f, shown=[0])
    assert SUBSTITUTE not in page
    assert "Names appear only of players who agreed" in page

    page = f.boss().get(f.url + "standings/print/").content.decode()
    assert all(name in page for name in [*NAMES, SUBSTITUTE])
    assert "You see every name because you run this tournament" in page


def test_the_printable_page_says_so_in_german() -> None:
    f = field()
    page = client_for(None).get(f.url + "standings/print/", HTTP_ACCEPT_LANGUAGE="de")
    assert "Namen erscheinen nur von Spielern, die zugestimmt haben" in page.content.decode()


def test_a_pseudonym_is_the_same_on_every_page_and_every_time(settings: Any) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = field(5, real_money=True, deals_per_round=3, scoring="balance")
    seat(f, seed=3)
    play(f, 1, random.Random(7))
    f.post("rounds/1/close/")
    anon = client_for(None)
    public = named(f, shown=[0], substitute=False)

    assert by_entry(standings(anon, f)["rows"]) == public
    assert by_entry(standings(anon, f)["rows"]) == public  # again: the same
    assert by_entry(anon.get(f.url + "export/standings.json").json()["rows"]) == public
    hands = anon.get(f.url + "export/hands.json").json()["hands"]
    assert {p["entry"]: p["display_name"] for h in hands for p in h["players"]} == public
    text = anon.get(f.url + "export/hands.csv").content.decode()
    assert {int(r["entry"]): r["name"] for r in csv.DictReader(io.StringIO(text))} == public
    hidden(text, f, shown=[0])

    # a player's results: their opponents as the public reads them
    seated = {p["entry"] for t in f.get("rounds/1/")["tables"] for p in t["players"]}
    for pk in seated:
        results = anon.get(f.url + f"entries/{pk}/results/").json()
        assert results["entry"]["display_name"] == public[pk]
        assert set(results["rounds"][0]["opponents"]) <= set(public.values())
        hidden(str(results), f, shown=[0])

    # the settlement: the director reads every name; an entrant the public names, their own,
    # and the names of those they pay or are paid by (they must find each other)
    everyone = named(f, shown=list(range(5)), substitute=True)
    director = f.get("settlement/")
    assert {n["entry"]: n["display_name"] for n in director["nets"]} == {
        n["entry"]: everyone[n["entry"]] for n in director["nets"]
    }
    between = [
        (p["payer"]["entry"], p["payee"]["entry"])
        for p in director["payments"]
        if None not in (p["payer"]["entry"], p["payee"]["entry"])
    ]
    me = next(u for u in f.players[1:] if any(entry(f, u) in pair for pair in between))
    mine = entry(f, me)
    money = f.get("settlement/", user=me)
    partners = set()
    for p in money["payments"]:
        if p["payer"]["entry"] == mine:
            partners.add(p["payee"]["entry"])
        if p["payee"]["entry"] == mine:
            partners.add(p["payer"]["entry"])
    assert partners - {None}
    for net in money["nets"]:
        pk = net["entry"]
        expected = everyone[pk] if pk == mine or pk in partners else public[pk]
        assert net["display_name"] == expected, pk
    for p in money["payments"]:
        for party in (p["payer"], p["payee"]):
            if party["entry"] is not None:
                pk = party["entry"]
                expected = everyone[pk] if pk == mine or pk in partners else public[pk]
                assert party["display_name"] == expected, pk


def test_a_rounds_tables_and_an_entry_name_players_as_the_standings_do() -> None:
    f = field(5, deals_per_round=3)
    seat(f, seed=3)
    public = named(f, shown=[0], substitute=False)
    everyone = named(f, shown=list(range(5)), substitute=True)
    anon = client_for(None)
    for path in ("rounds/1/", "rounds/1/tables/1/"):
        answer = anon.get(f.url + path)
        assert answer.status_code == 200, answer.content
        body = answer.json()
        tables = body.get("tables", [body])
        players = [p for t in tables for p in t["players"]]
        assert {p["entry"]: p["display_name"] for p in players} == {
            p["entry"]: public[p["entry"]] for p in players
        }
        hidden(answer.content.decode(), f, shown=[0])
        assert SUBSTITUTE not in answer.content.decode()
    tables = f.get("rounds/1/")["tables"]
    assert {p["entry"]: p["display_name"] for t in tables for p in t["players"]} == everyone
    stand_in = entry(f)
    assert anon.get(f.url + f"entries/{stand_in}/").json()["display_name"] == public[stand_in]
    assert f.get(f"entries/{stand_in}/")["display_name"] == SUBSTITUTE
