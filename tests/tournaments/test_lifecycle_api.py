"""A tournament's lifecycle through the API: registration with capacity, waitlist and
deadline, check-in, rounds seated, played, closed, withdrawals, a late entry, a corrected
result, standings equal to a fresh computation, finish with prizes, reopen."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import timezone

from clubs.models import User
from games import services as games
from games.models import AuditEntry, Hand, LedgerEntry, Table
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments.setup import RULES, entries, make_field, play, seat
from tournaments import selectors, services
from tournaments.models import Entry, LogEntry, RoundSeat, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]


def stored(f) -> list[tuple[int, int, str]]:
    return [(r["entry"], r["rank"], r["points"]) for r in f.get("standings/")["rows"]]


def fresh(f) -> list[tuple[int, int, str]]:
    from tournaments.scoring import points_text

    table = services.compute(f.tournament)
    return [(int(r.player), r.rank, points_text(r.points)) for r in table.rows]


def test_a_nine_player_tournament_runs_from_draft_to_finished(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(9, prizes=[3000, 2000, 1000], scoring="table_rank", seating="fewest_repeats")
    rng = random.Random(9)
    for number in (1, 2, 3):
        rnd = seat(f)
        assert rnd["status"] == "playing"
        assert [len(t["players"]) for t in rnd["tables"]] == [3, 3, 3]
        play(f, number, rng)
        closed = f.post(f"rounds/{number}/close/")
        assert closed["status"] == "closed"
        assert all(t["complete"] for t in closed["tables"])
        assert stored(f) == fresh(f)
    # fewest repeats with 9 players over 3 rounds: a Kirkman design, nobody meets twice
    tables: dict[int, list[int]] = {}
    for table, entry in RoundSeat.objects.filter(round__tournament_id=f.tournament_id).values_list(
        "round_table_id", "entry_id"
    ):
        tables.setdefault(table, []).append(entry)
    assert len(tables) == 9
    pairs = [(a, b) for people in tables.values() for a in people for b in people if a < b]
    assert len(pairs) == len(set(pairs)) == 27
    f.post("finish/")
    answer = f.get("standings/")
    assert answer["final"] is True
    assert sum(r["prize"] for r in answer["rows"]) == 6000
    assert sum(r["points"] == "0" for r in answer["rows"]) == 0
    # reopened by a director, audited with the reason
    f.post("reopen/", {"reason": "Table 2's sheet was misread."})
    assert f.tournament.status == "running"
    entry = LogEntry.objects.filter(tournament_id=f.tournament_id, action="status_running").last()
    assert entry is not None and entry.detail["reason"] == "Table 2's sheet was misread."


def test_ten_players_need_a_table_of_four_and_twelve_deals_at_it() -> None:
    f = make_field(10, deals_per_round=9)
    answer = f.post("rounds/", {}, status=409)
    assert answer["code"] == "deals_not_divisible"
    assert "multiple of 12" in answer["message"]
    t = f.tournament
    t.deals_per_round = 12
    t.save()
    rnd = seat(f)
    assert sorted(len(x["players"]) for x in rnd["tables"]) == [3, 3, 4]


def test_five_players_get_the_options_and_a_bye_seats_them() -> None:
    f = make_field(5)
    answer = f.post("rounds/", {}, status=409)
    assert answer["code"] == "unsplittable"
    assert "bye" in answer["message"] and "substitute" in answer["message"]
    bye = entries(f)[0]["id"]
    rnd = seat(f, byes=[bye])
    assert [len(t["players"]) for t in rnd["tables"]] == [4]
    assert rnd["byes"] == [bye]


def test_capacity_waitlist_and_a_freed_place() -> None:
    director = UserFactory.create()
    api = client_for(director)
    t = api.post(
        "/api/v1/tournaments/",
        {"name": "Klein", "capacity": 3},
        format="json",
    ).json()
    url = f"/api/v1/tournaments/{t['id']}/"
    api.post(url + "open-registration/", format="json")
    people = [UserFactory.create() for _ in range(5)]
    states = [
        client_for(p).post(url + "entries/", {}, format="json").json()["status"] for p in people
    ]
    assert states == ["registered"] * 3 + ["waitlisted"] * 2
    again = client_for(people[0]).post(url + "entries/", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "entered"
    first = Entry.objects.get(user=people[0])
    out = client_for(people[0]).post(url + f"entries/{first.pk}/withdraw/", {}, format="json")
    assert out.json()["status"] == "withdrawn"
    assert Entry.objects.get(user=people[3]).status == "registered"
    assert Entry.objects.get(user=people[4]).status == "waitlisted"


def test_entries_close_at_the_deadline() -> None:
    director = UserFactory.create()
    api = client_for(director)
    t = api.post(
        "/api/v1/tournaments/",
        {"name": "Spät", "entry_deadline": (timezone.now() - dt.timedelta(hours=1)).isoformat()},
        format="json",
    ).json()
    url = f"/api/v1/tournaments/{t['id']}/"
    api.post(url + "open-registration/", format="json")
    late = client_for(UserFactory.create()).post(url + "entries/", {}, format="json")
    assert late.status_code == 409
    assert late.json()["code"] == "entries_closed"
    # a director still adds the player
    added = api.post(url + "entries/", {"name": "Nachzügler"}, format="json")
    assert added.status_code == 201


def test_commands_out_of_order_are_refused_with_a_sentence() -> None:
    f = make_field(6)
    answer = f.post("open-registration/", status=409)
    assert answer["code"] == "wrong_state"
    assert "in check-in" in answer["message"]
    assert f.post("finish/", status=409)["code"] == "wrong_state"
    seat(f)
    assert f.post("rounds/", {}, status=409)["code"] == "round_open"
    unfinished = f.post("rounds/1/close/", status=409)
    assert unfinished["code"] == "tables_unfinished"
    assert "0 of 12 deals" in unfinished["message"]
    assert f.post("finish/", status=409)["code"] == "round_open"
    patch = f.boss().patch(f.url, {"deals_per_round": 24}, format="json")
    assert patch.status_code == 409 and patch.json()["code"] == "format_fixed"


def test_withdrawal_late_entry_and_a_corrected_result(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(9, rounds_planned=3)
    rng = random.Random(3)
    seat(f)
    # no withdrawals during a round
    one = Entry.objects.filter(tournament_id=f.tournament_id).order_by("pk").first()
    refused = f.post(f"entries/{one.pk}/withdraw/", status=409)
    assert refused["code"] == "round_open"
    play(f, 1, rng)
    f.post("rounds/1/close/")
    # between rounds: one withdraws, a late entry comes: 9 players again
    f.post(f"entries/{one.pk}/withdraw/", user=one.user)
    # the late player shares no club with the director: asked, entered once they accept
    late = UserFactory.create(username="late")
    asked = f.post("entries/", {"user": late.pk}, status=202)
    assert asked["status"] == "invited"
    assert not Entry.objects.filter(user=late).exists()
    [invitation] = f.api(late).get("/api/v1/me/tournament-invitations/").json()["results"]
    accepted = f.api(late).post(f"/api/v1/me/tournament-invitations/{invitation['id']}/accept/")
    assert accepted.status_code == 200, accepted.content
    added = f.get(f"entries/{accepted.json()['entry']}/")
    assert added["first_round"] == 2 and added["status"] == "checked_in"
    rnd = seat(f)
    seated = {p["entry"] for t in rnd["tables"] for p in t["players"]}
    assert one.pk not in seated and added["id"] in seated
    play(f, 2, rng)
    # a director corrects a hand at a table of round 2 (games records the audit)
    link_table = rnd["tables"][0]["table"]
    table = Table.objects.get(pk=link_table)
    hand = Hand.objects.get(table=table, number=12)
    from games.random_entries import random_entry

    games.hand_edit(
        table_id=table.pk, number=12, user=f.director, entry=random_entry(table, rng, 12)
    )
    assert AuditEntry.objects.filter(table=table, hand_number=12, action="hand_edit").exists()
    assert Hand.objects.get(pk=hand.pk).entry != hand.entry
    assert stored(f) == fresh(f)
    f.post("rounds/2/close/")
    rows = f.get("standings/")["rows"]
    withdrawn = next(r for r in rows if r["entry"] == one.pk)
    assert withdrawn["rounds"] == 1
    assert next(r for r in rows if r["entry"] == added["id"])["rounds"] == 1
    assert any(r["movement"] is not None for r in rows)
    assert stored(f) == fresh(f)


def test_my_tournament_shows_my_table_seat_and_rank(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6)
    rnd = seat(f)
    me = f.players[0]
    mine = f.get("me/", user=me)
    assert mine["round_status"] == "playing"
    assert me.pk in [
        next(e.user_id for e in Entry.objects.filter(pk=p["entry"]))
        for p in mine["next_table"]["players"]
    ]
    assert mine["next_seat"] in {p["seat"] for t in rnd["tables"] for p in t["players"]}
    play(f, 1, random.Random(1))
    f.post("rounds/1/close/")
    mine = f.get("me/", user=me)
    assert mine["next_table"] is None
    assert mine["rank"] is not None and len(mine["rounds"]) == 1
    listed = f.api(me).get("/api/v1/me/tournaments/").json()
    assert [t["id"] for t in listed["results"]] == [f.tournament_id]
    outsider = client_for(UserFactory.create()).get(f.url + "me/")
    assert outsider.status_code == 404


def test_public_reads_answer_304_while_nothing_changed(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6)
    seat(f)
    anon = client_for(None)
    for path in (
        "",
        "standings/",
        "rounds/",
        "rounds/1/",
        f"entries/{entries(f)[0]['id']}/results/",
    ):
        first = anon.get(f.url + path)
        assert first.status_code == 200, path
        etag = first["ETag"]
        again = anon.get(f.url + path, HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 304, path
        assert again.content == b""
        since = anon.get(f.url + path, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
        assert since.status_code == 304, path
    before = anon.get(f.url + "standings/")["ETag"]
    play(f, 1, random.Random(5), deals=3)
    after = anon.get(f.url + "standings/", HTTP_IF_NONE_MATCH=before)
    assert after.status_code == 200
    assert after["ETag"] != before


def test_drafts_and_private_tournaments_do_not_exist_for_outsiders() -> None:
    director = UserFactory.create()
    t = client_for(director).post("/api/v1/tournaments/", {"name": "Geheim"}, format="json").json()
    url = f"/api/v1/tournaments/{t['id']}/"
    assert client_for(None).get(url).status_code == 404
    assert client_for(UserFactory.create()).get(url).status_code == 404
    assert client_for(director).get(url).status_code == 200
    listed = client_for(None).get("/api/v1/tournaments/").json()
    assert t["id"] not in [x["id"] for x in listed["results"]]
    Tournament.objects.filter(pk=t["id"]).update(status="registration")
    assert client_for(None).get(url).status_code == 200
    Tournament.objects.filter(pk=t["id"]).update(is_public=False)
    assert client_for(None).get(url).status_code == 404


def test_exports_and_the_printable_page(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(6, prizes=[1500], tiebreaks=["declarer_wins", "lots"])
    seat(f)
    play(f, 1, random.Random(8))
    f.post("rounds/1/close/")
    f.post("finish/")
    # the players agreed to show their names in public (issue 39): the page names them
    User.objects.filter(pk__in=[p.pk for p in f.players]).update(public_name=True)
    anon = client_for(None)
    csv_answer = anon.get(f.url + "export/standings.csv")
    assert csv_answer.status_code == 200
    assert csv_answer["Content-Type"].startswith("text/csv")
    lines = csv_answer.content.decode().splitlines()
    assert lines[0] == (
        "position,rank,entry,name,points,rounds,declarer_wins,lots,movement,prize,pending,unit"
    )
    assert {line.rsplit(",", 1)[1] for line in lines[1:]} == {"cents"}
    assert len(lines) == 7
    assert anon.get(f.url + "export/standings.json").json()["final"] is True
    hands = anon.get(f.url + "export/hands.json").json()["hands"]
    assert len(hands) == 2 * 12
    assert all(sum(p["amount"] for p in h["players"]) <= 0 for h in hands)
    hands_csv = anon.get(f.url + "export/hands.csv").content.decode().splitlines()
    assert len(hands_csv) == 1 + 2 * 12 * 3
    assert anon.get(f.url + "export/standings.xml").status_code == 404
    page = anon.get(f.url + "standings/print/")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    text = page.content.decode()
    assert "Final standings" in text and "15.00" in text
    for player in f.players:
        assert player.first_name in text or player.username in text


def test_the_money_settlement_sums_to_zero_with_the_pot(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(7, real_money=True, deals_per_round=12)
    seat(f)
    play(f, 1, random.Random(12))
    f.post("rounds/1/close/")
    money = f.get("settlement/", user=f.players[0])
    assert sum(n["net"] for n in money["nets"]) + money["pot"] == 0
    balance: dict[int | None, int] = {}
    for p in money["payments"]:
        balance[p["payer"]["entry"]] = balance.get(p["payer"]["entry"], 0) - p["amount"]
        balance[p["payee"]["entry"]] = balance.get(p["payee"]["entry"], 0) + p["amount"]
    assert {k: v for k, v in balance.items() if k is not None and v} == {
        n["entry"]: n["net"] for n in money["nets"] if n["net"]
    }
    assert client_for(UserFactory.create()).get(f.url + "settlement/").status_code == 403
    points = make_field(3, real_money=False)
    answer = points.get("settlement/", status=409)
    assert answer["code"] == "not_money"


def test_swiss_seating_puts_the_leaders_together(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(12, seating="swiss", scoring="balance", tiebreaks=["lots"])
    seat(f)
    play(f, 1, random.Random(21))
    f.post("rounds/1/close/")
    ranking = [r["entry"] for r in f.get("standings/")["rows"]]
    rnd = seat(f)
    assert rnd["seating"] == "swiss"
    tables = [[p["entry"] for p in t["players"]] for t in rnd["tables"]]
    # the leader sits at table 1, and every table holds players of neighbouring ranks:
    # nobody is more than one table away from their place in the standings
    assert ranking[0] in tables[0]
    for number, table in enumerate(tables):
        for entry in table:
            assert abs(ranking.index(entry) // 3 - number) <= 1
    met = {
        frozenset((a, b))
        for t in f.get("rounds/1/")["tables"]
        for a in (p["entry"] for p in t["players"])
        for b in (p["entry"] for p in t["players"])
        if a != b
    }
    naive = [ranking[i : i + 3] for i in range(0, 12, 3)]
    repeats = sum(frozenset((a, b)) in met for t in tables for a in t for b in t if a < b)
    naive_repeats = sum(frozenset((a, b)) in met for t in naive for a in t for b in t if a < b)
    assert repeats <= naive_repeats
    assert rnd["plan"]["repeats"] == repeats


def test_anonymous_standings_polls_are_at_most_the_cache_time_behind(
    settings, fake_clock, monkeypatch
) -> None:
    clock = fake_clock(selectors)
    monkeypatch.setattr(selectors, "_LISTED", {})  # what this test caches stays in this test
    settings.STANDINGS_COALESCE_SECONDS = 0
    settings.PUBLIC_POLL_CACHE_SECONDS = 1
    f = make_field(6)
    seat(f)
    anon = client_for(None)
    first = anon.get(f.url + "standings/")
    play(f, 1, random.Random(5), deals=3)
    # within the cache time this process still answers from what it read
    cached = anon.get(f.url + "standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert cached.status_code == 304
    # a signed-in caller always gets the database's state (one who reads the public names,
    # as the anonymous polls do: the names a director reads make another ETag)
    stranger = client_for(UserFactory.create())
    fresh = stranger.get(f.url + "standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert fresh.status_code == 200
    clock.advance(0.75)
    assert anon.get(f.url + "standings/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    clock.advance(0.25)
    later = anon.get(f.url + "standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert later.status_code == 200
    assert later["ETag"] == fresh["ETag"]


@pytest.mark.django_db
def test_asking_again_for_a_round_still_being_seated_seats_it_once(
    django_capture_on_commit_callbacks,
) -> None:
    f = make_field(6)
    # the worker never got the first message: the round waits in `seating`
    with django_capture_on_commit_callbacks(execute=False):
        first = f.post("rounds/", {}, status=202)
    assert first["status"] == "seating"
    with django_capture_on_commit_callbacks(execute=True):
        again = f.post("rounds/", {}, status=202)
    assert again["number"] == 1
    rnd = f.get("rounds/1/")
    assert rnd["status"] == "seated" and len(rnd["tables"]) == 2
    assert f.tournament.rounds.count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert f.post("rounds/", {}, status=409)["code"] == "round_open"


def test_a_players_results_add_up_to_their_balance_points(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    rules = {"variant": "wien", "dealer_contribution": 10, "pot_cap": 100, "pot_at_close": "split"}
    f = make_field(6, scoring="balance", rules=rules)
    seat(f)
    play(f, 1, random.Random(31))
    f.post("rounds/1/close/")
    assert LedgerEntry.objects.filter(
        table__round_link__round__tournament_id=f.tournament_id, reason="split"
    ).exists(), "the seed should leave money in a pot at close"
    for row in f.get("standings/")["rows"]:
        results = f.get(f"entries/{row['entry']}/results/", user=None)
        assert [r["amount"] for r in results["rounds"]] == [int(row["points"])]
        assert results["rank"] == row["rank"]


@pytest.mark.django_db
def test_a_seating_that_fails_half_way_creates_no_table_and_says_why(
    django_capture_on_commit_callbacks,
) -> None:
    f = make_field(9)
    with django_capture_on_commit_callbacks(execute=False):
        f.post("rounds/", {}, status=202)
    rnd = f.tournament.rounds.get(number=1)
    # someone else's row already holds table number 2 of the round: the worker creates
    # table 1, then fails on table 2
    other = games.table_create(
        user=f.director,
        name="elsewhere",
        mode="recorded",
        rules=RULES,
        seats=[games.SeatSpec(key=k, kind="guest", guest_name=k) for k in ("a", "b", "c")],
    )
    RoundTable.objects.create(round=rnd, number=2, table=other)
    tables_before = Table.objects.count()
    assert services.round_seat_run(round_id=rnd.pk, user_id=f.director.pk) is False
    rnd.refresh_from_db()
    assert rnd.status == "failed" and rnd.error
    assert Table.objects.count() == tables_before
    assert not RoundSeat.objects.filter(round=rnd).exists()
    assert f.get("rounds/1/")["status"] == "failed"
    # cleared, the director seats the round again
    RoundTable.objects.filter(table=other).delete()
    with django_capture_on_commit_callbacks(execute=True):
        f.post("rounds/", {}, status=202)
    again = f.get("rounds/1/")
    assert again["status"] == "seated" and len(again["tables"]) == 3


def test_the_money_settlement_says_its_payments_are_proven_fewest(settings) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f = make_field(7, real_money=True, deals_per_round=12)
    seat(f)
    play(f, 1, random.Random(13))
    f.post("rounds/1/close/")
    assert f.get("settlement/", user=f.players[0])["payments_proven"] is True
