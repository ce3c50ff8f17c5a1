"""Issue 39 in the tournaments: what a person's export shows of their tournaments (entries,
seats, results, standings row, money, invitations, log, webhooks; never a webhook's secret),
and what their erasure does: their name is gone from the standings, their files, the printable
page and the webhook deliveries, while every other player's rows stay exactly as they were;
an erased director directs nothing, and a club's tournament stays run by the club's managers.

Players enter under logins ``p001``… with first and display names ``P001``…; seat keys carry
no name (``p-`` and the pseudonym code: tests/test_seat_keys.py) and stay (``docs/privacy.md``)."""

from __future__ import annotations

import csv
import io
import json
import random
from typing import Any

import pytest

from clubs import privacy
from clubs.models import Membership, User
from clubs.privacy import Scope
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.helpers import client_for
from tests.tournaments.setup import Field, make_field, play, seat
from tournaments import services, webhooks
from tournaments.models import (
    Delivery,
    Entry,
    Invitation,
    LogEntry,
    StandingRow,
    Tournament,
    Webhook,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

HOOK = "https://x.invalid/hook"


@pytest.fixture(autouse=True)
def standings_at_once(settings: Any) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0


def played() -> tuple[Field, Webhook]:
    """Six players, played for money, a webhook told of every event, round 1 played and
    closed (the webhook's receiver never answers: its deliveries stay as they were built)."""
    f = make_field(6, real_money=True, deals_per_round=3, scoring="balance")
    hook = webhooks.webhook_create(
        user=f.director, tournament=f.tournament, url=HOOK, events=list(Webhook.EVENTS)
    )
    seat(f)
    play(f, 1, random.Random(7))
    f.post("rounds/1/close/")
    return f, hook


def entry_of(f: Field, user: User) -> Entry:
    return Entry.objects.get(tournament_id=f.tournament_id, user=user)


def section(user: User, scope: Scope | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = privacy.export(user, scope)["tournaments"]
    return answer


def names(user: User) -> list[str]:
    """What named the player before the erasure (login, first and display name, e-mail)."""
    return [user.username, user.first_name, user.display_name, user.email]


def rows_by_entry(answer: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {row["entry"]: row for row in answer["rows"]}


# ---------------------------------------------------------------------------------------------
# export


def test_an_entrants_export_holds_their_entry_seats_results_standing_and_money() -> None:
    f, _ = played()
    me = f.players[0]
    entry = entry_of(f, me)
    mine = section(me)

    (exported,) = mine["entries"]
    assert exported["id"] == entry.pk
    assert exported["tournament"] == {"id": f.tournament_id, "name": "Test Open", "club": None}
    assert exported["name"] == entry.name == "P001"
    assert exported["status"] == "checked_in"
    assert exported["registered_at"] == entry.registered_at.isoformat()
    assert exported["checked_in_at"] == entry.checked_in_at.isoformat()  # type: ignore[union-attr]

    # the seat and results the player reads in "my tournament", without the opponents' names
    own = f.get("me/", user=me)
    (played_round,) = own["rounds"]
    assert exported["seats"] == [
        {
            "round": 1,
            "table": played_round["table"],
            "games_table": played_round["games_table"],
            "seat": played_round["seat"],
            "position": exported["seats"][0]["position"],
        }
    ]
    assert exported["results"] == [
        {key: value for key, value in row.items() if key != "opponents"} for row in own["rounds"]
    ]

    # the standings row as the standings answer it (to the player, who reads their own name)
    row = rows_by_entry(client_for(me).get(f.url + "standings/").json())[entry.pk]
    assert exported["standing"] == {
        key: row[key]
        for key in (
            "position",
            "rank",
            "name",
            "points",
            "rounds",
            "by_round",
            "tiebreaks",
            "movement",
            "prize",
            "pending",
        )
    }

    # the money as the settlement keeps it
    settlement = f.get("settlement/")
    net = next((n["net"] for n in settlement["nets"] if n["entry"] == entry.pk), 0)
    assert exported["money"]["net"] == net
    pays = sum(p["amount"] for p in settlement["payments"] if p["payer"]["entry"] == entry.pk)
    gets = sum(p["amount"] for p in settlement["payments"] if p["payee"]["entry"] == entry.pk)
    assert sum(
        p["amount"] if p["direction"] == "receives" else -p["amount"]
        for p in exported["money"]["payments"]
    ) == (gets - pays)

    assert {(r["action"], r["by_them"]) for r in mine["log"]} >= {
        ("entry_register", True),
        ("entry_check_in", True),
    }
    assert mine["tournaments"] == [] and mine["webhooks"] == []
    assert mine["invitations"] == {"received": [], "sent": []}

    # no other player's name
    text = json.dumps(mine).casefold()
    for other in f.players[1:]:
        assert other.display_name.casefold() not in text


def test_a_directors_export_holds_the_tournament_and_its_webhook_never_the_secret() -> None:
    f, hook = played()
    mine = section(f.director)
    (directed,) = mine["tournaments"]
    assert directed["id"] == f.tournament_id
    assert directed["created"] is True and directed["directs"] is True
    assert directed["status"] == "running"
    (exported,) = mine["webhooks"]
    assert exported["id"] == hook.pk
    assert exported["url"] == HOOK
    assert exported["events"] == list(Webhook.EVENTS)
    assert hook.secret not in json.dumps(privacy.export(f.director))
    assert {"tournament_create", "round_seat", "round_close"} <= {r["action"] for r in mine["log"]}
    assert mine["entries"] == []


def test_the_export_holds_what_a_director_logged_about_the_persons_entry() -> None:
    f = make_field(3)
    me = f.players[0]
    entry = entry_of(f, me)
    f.post(f"entries/{entry.pk}/withdraw/", {"reason": "ill"})
    logged = [r for r in section(me)["log"] if r["action"] == "entry_withdraw"]
    assert logged == [
        {
            "tournament": {"id": f.tournament_id, "name": "Test Open", "club": None},
            "action": "entry_withdraw",
            "round": None,
            "at": logged[0]["at"],
            "by_them": False,
            "detail": {"entry": entry.pk, "before": "checked_in", "reason": "ill"},
        }
    ]
    assert [r for r in section(f.players[1])["log"] if r["action"] == "entry_withdraw"] == []


def test_a_clubs_export_leaves_out_tournaments_of_no_club_and_of_other_clubs() -> None:
    f, _ = played()
    club = ClubFactory.create()
    mine = section(f.players[0], Scope(club))
    assert mine["entries"] == [] and mine["log"] == [] and mine["table_totals"] == []
    assert section(f.director, Scope(club))["tournaments"] == []


def test_an_offline_tables_totals_are_in_the_export_of_whoever_entered_or_confirmed_them() -> None:
    f = make_field(3, results="totals", deals_per_round=3)
    seat(f)
    table = f.get("rounds/1/")["tables"][0]
    keys = [p["seat"] for p in table["players"]]
    enterer, confirmer, silent = (
        User.objects.get(tournament_entries=p["entry"]) for p in table["players"]
    )
    path = f"rounds/1/tables/{table['number']}/totals/"
    amounts = dict(zip(keys, [30, -10, -20], strict=True))
    answer = f.api(enterer).put(f.url + path, {"amounts": amounts}, format="json")
    assert answer.status_code == 200, answer.content
    totals = answer.json()
    f.post(path + "confirm/", {"version": totals["version"]}, user=confirmer)

    (entered,) = section(enterer)["table_totals"]
    assert entered["entered_by_them"] is True and entered["confirmed_by_them"] is True
    assert entered["amounts"] == amounts
    (confirmed,) = section(confirmer)["table_totals"]
    assert confirmed["entered_by_them"] is False and confirmed["confirmed_by_them"] is True
    assert section(silent)["table_totals"] == []


# ---------------------------------------------------------------------------------------------
# erasure


def test_erasure_removes_the_name_from_standings_files_page_and_deliveries_and_keeps_the_rest() -> (
    None
):
    f, _ = played()
    me = f.players[0]
    # they agreed to show their name in public (issue 39): the public pages named them
    User.objects.filter(pk=me.pk).update(public_name=True)
    me.refresh_from_db()
    entry = entry_of(f, me)
    old = names(me)
    anon = client_for(None)
    others = [e.pk for e in Entry.objects.filter(tournament_id=f.tournament_id) if e.pk != entry.pk]

    standings = rows_by_entry(anon.get(f.url + "standings/").json())
    csv_rows = {
        int(r["entry"]): r
        for r in csv.DictReader(io.StringIO(anon.get(f.url + "export/standings.csv").text))
    }
    results = {pk: anon.get(f.url + f"entries/{pk}/results/").json() for pk in others}
    stored = {
        row["entry_id"]: row for row in StandingRow.objects.filter(entry_id__in=others).values()
    }
    deliveries = {d.pk: d.payload for d in Delivery.objects.all()}
    assert any(d["event"] == "round_seated" for d in deliveries.values())
    shown = entry.user.display_name  # type: ignore[union-attr]
    assert any(shown in row["opponents"] for r in results.values() for row in r["rounds"])

    erasure = privacy.erase(me)
    stand_in = erasure.pseudonym

    after = anon.get(f.url + "standings/")
    assert after.status_code == 200
    text = after.content.decode().casefold()
    assert all(name.casefold() not in text for name in old)
    assert rows_by_entry(after.json())[entry.pk]["name"] == stand_in
    assert rows_by_entry(after.json())[entry.pk]["display_name"] == stand_in
    text = anon.get(f.url + "export/standings.csv").text
    assert all(name.casefold() not in text.casefold() for name in old)
    assert stand_in in text
    page = anon.get(f.url + "standings/print/").content.decode()
    assert all(name.casefold() not in page.casefold() for name in old)
    assert stand_in in page

    # every other player's row, file line and results as before, but the erased opponent's name
    now = rows_by_entry(anon.get(f.url + "standings/").json())
    assert {pk: now[pk] for pk in others} == {pk: standings[pk] for pk in others}
    now_csv = {
        int(r["entry"]): r
        for r in csv.DictReader(io.StringIO(anon.get(f.url + "export/standings.csv").text))
    }
    assert {pk: now_csv[pk] for pk in others} == {pk: csv_rows[pk] for pk in others}
    renamed = json.dumps(results).replace(json.dumps(shown), json.dumps(stand_in))
    now_results = {pk: anon.get(f.url + f"entries/{pk}/results/").json() for pk in others}
    assert json.dumps(now_results) == renamed
    assert {
        row["entry_id"]: row for row in StandingRow.objects.filter(entry_id__in=others).values()
    } == stored
    entry.refresh_from_db()
    assert entry.user_id == me.pk and entry.name == stand_in  # the tombstone keeps the rows

    # the deliveries name the pseudonym; everything else in them, seat keys too, stays
    for pk, payload in deliveries.items():
        now_payload = Delivery.objects.get(pk=pk).payload
        if payload["event"] != "round_seated":
            assert now_payload == payload
            continue
        for table, now_table in zip(
            payload["data"]["tables"], now_payload["data"]["tables"], strict=True
        ):
            for player, now_player in zip(table["players"], now_table["players"], strict=True):
                if player["entry"] == entry.pk:
                    assert now_player == {**player, "name": stand_in, "display_name": stand_in}
                else:
                    assert now_player == player
            assert {**now_table, "players": []} == {**table, "players": []}
        assert {**now_payload, "data": None} == {**payload, "data": None}


def test_an_erased_director_no_longer_directs_and_the_clubs_managers_still_run_it() -> None:
    owner, admin = UserFactory.create(), UserFactory.create()
    club = ClubFactory.create()
    MembershipFactory.create(club=club, user=owner, role=Membership.Role.OWNER)
    MembershipFactory.create(club=club, user=admin, role=Membership.Role.ADMIN)
    t = services.tournament_create(user=admin, name="Club Cup", club_id=club.pk)

    privacy.erase(admin)

    answer = client_for(owner).get(f"/api/v1/tournaments/{t.pk}/").json()
    assert answer["directors"] == []
    t.refresh_from_db()
    assert t.created_by_id == admin.pk
    assert not Tournament.objects.filter(directors=admin).exists()
    opened = client_for(owner).post(f"/api/v1/tournaments/{t.pk}/open-registration/")
    assert opened.status_code == 200, opened.content


def test_erasure_deletes_the_invitations_nobody_answered_and_keeps_the_answered() -> None:
    f = make_field(3)
    stranger = UserFactory.create()
    services.director_add(user=f.director, tournament=f.tournament, director_id=stranger.pk)
    answered = Invitation.objects.get(user=stranger)
    services.invitation_decline(user=stranger, invitation_id=answered.pk)
    services.director_add(user=f.director, tournament=f.tournament, director_id=stranger.pk)
    assert Invitation.objects.filter(user=stranger, status="invited").exists()

    privacy.erase(stranger)

    assert list(Invitation.objects.filter(user=stranger).values_list("pk", flat=True)) == [
        answered.pk
    ]


def test_erasure_replaces_the_name_they_were_entered_under_in_the_log() -> None:
    f = make_field(3)
    services.entry_add(
        user=f.director, tournament=f.tournament, player_id=f.director.pk, name="Der Chef"
    )
    other = LogEntry.objects.filter(tournament_id=f.tournament_id).exclude(action="entry_add")
    kept = {row.pk: row.detail for row in other}
    f.tournament.directors.add(UserFactory.create())  # someone runs it after them

    erasure = privacy.erase(f.director)

    added = LogEntry.objects.get(tournament_id=f.tournament_id, action="entry_add")
    assert added.user_id == f.director.pk
    assert added.detail["name"] == erasure.pseudonym
    assert {row.pk: row.detail for row in other.filter(pk__in=kept)} == kept
    every = LogEntry.objects.filter(tournament_id=f.tournament_id).values_list("detail", flat=True)
    assert "der chef" not in json.dumps(list(every)).casefold()
    assert Entry.objects.get(user=f.director).name == erasure.pseudonym


def test_the_only_director_of_an_open_tournament_of_no_club_is_told_to_hand_it_over() -> None:
    """Nobody but the site's staff could run it after them: 409 ``last_director`` with the
    way out, nothing erased; another director (or the finish) lets the erasure through."""
    director, helper = UserFactory.create(), UserFactory.create()
    t = services.tournament_create(user=director, name="Open Cup")

    with pytest.raises(privacy.ClubConflict) as refused:
        privacy.erase(director)
    assert refused.value.code == "last_director"
    assert "Open Cup" in refused.value.message and "directors/" in refused.value.message
    director.refresh_from_db()
    assert director.erased_at is None and t.directors.filter(pk=director.pk).exists()

    t.directors.add(helper)
    privacy.erase(director)
    assert list(t.directors.all()) == [helper]
