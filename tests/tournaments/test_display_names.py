"""Every answer a person reads names players by their display names (docs/tournaments.md,
"Names"): the entries, a round's tables, my tournament, a player's results, the standings,
the exports (JSON and CSV) and the money settlement; the ids (``entry``, ``user``) stay for
machines, and ``name`` keeps what the entry was entered as.

The players enter under logins (``p001``…) with first names ``P001``…, and then choose display
names with umlauts, which they agree to show in public; a substitute entered by name is named by
that name where names are read in full (the director), and by a pseudonym in public: a
substitute cannot agree (issue 39, tests/tournaments/test_public_names.py).
"""

from __future__ import annotations

import csv
import io
import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import User
from clubs.privacy import public_pseudonym
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments.setup import Field, make_field, play, seat
from tournaments.models import Entry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

DISPLAY = ["Jürgen Öhlschläger", "Zoë Weiß", "Franziska Grüner", "Anna Bäcker", "Sepp Maier"]
SUBSTITUTE = "Resi Steiner"


def field() -> tuple[Field, dict[int, str]]:
    """Five players who chose display names (and agreed to show them) and a substitute known
    by name; each entry's display name by entry id."""
    f = make_field(5, real_money=True, deals_per_round=3, scoring="balance")
    for user, name in zip(f.players, DISPLAY, strict=True):
        User.objects.filter(pk=user.pk).update(display_name=name, public_name=True)
    f.post("entries/", {"name": SUBSTITUTE}, status=201)
    names = {
        e.pk: DISPLAY[f.players.index(e.user)] if e.user else e.name
        for e in Entry.objects.filter(tournament_id=f.tournament_id).select_related("user")
    }
    assert sorted(names.values()) == sorted([*DISPLAY, SUBSTITUTE])
    return f, names


def public(names: dict[int, str]) -> dict[int, str]:
    """``names`` as the public reads them: the substitute under a pseudonym."""
    return {
        pk: public_pseudonym(f"e:{pk}") if name == SUBSTITUTE else name
        for pk, name in names.items()
    }


def no_login(text: str, f: Field) -> None:
    for user in f.players:
        assert user.username not in text and user.first_name not in text, user.username


def test_the_entries_and_the_standings_before_play_name_players_by_display_name() -> None:
    f, names = field()
    listed = f.get("entries/?page_size=50")["results"]
    assert {e["id"]: e["display_name"] for e in listed} == names
    assert all(e["user"] is not None for e in listed if e["display_name"] != SUBSTITUTE)
    rows = client_for(None).get(f.url + "standings/").json()["rows"]
    assert {r["entry"]: r["display_name"] for r in rows} == public(names)


def test_rounds_results_me_standings_exports_and_the_settlement_use_display_names(
    settings: Any,
) -> None:
    settings.STANDINGS_COALESCE_SECONDS = 0
    f, names = field()
    seat(f)
    me = f.players[0]
    mine = f.get("me/", user=me)
    my_entry = mine["entry"]["id"]
    assert mine["entry"]["display_name"] == names[my_entry] == DISPLAY[0]
    assert {p["entry"]: p["display_name"] for p in mine["next_table"]["players"]} == {
        p["entry"]: public(names)[p["entry"]] for p in mine["next_table"]["players"]
    }
    tables = f.get("rounds/1/")["tables"]
    assert {p["entry"]: p["display_name"] for t in tables for p in t["players"]} == names

    play(f, 1, random.Random(4))
    f.post("rounds/1/close/")

    results = f.get(f"entries/{my_entry}/results/", user=me)
    assert results["entry"]["display_name"] == DISPLAY[0]
    table = next(t for t in tables if my_entry in [p["entry"] for p in t["players"]])
    others = [public(names)[p["entry"]] for p in table["players"] if p["entry"] != my_entry]
    assert results["rounds"][0]["opponents"] == others

    anon = client_for(None)
    shown = public(names)
    standings = anon.get(f.url + "standings/").json()["rows"]
    assert {r["entry"]: r["display_name"] for r in standings} == shown
    assert {r["entry"]: r["display_name"] for r in anon.get(
        f.url + "export/standings.json").json()["rows"]} == shown  # fmt: skip
    text = anon.get(f.url + "export/standings.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {int(r["entry"]): r["name"] for r in rows} == shown
    no_login(text, f)

    hands = anon.get(f.url + "export/hands.json").json()["hands"]
    assert {p["entry"]: p["display_name"] for h in hands for p in h["players"]} == shown
    text = anon.get(f.url + "export/hands.csv").content.decode()
    assert {int(r["entry"]): r["name"] for r in csv.DictReader(io.StringIO(text))} == shown
    no_login(text, f)

    money = f.get("settlement/")
    assert all(n["display_name"] == names[n["entry"]] for n in money["nets"])
    parties = [p[side] for p in money["payments"] for side in ("payer", "payee")]
    assert parties
    for party in parties:
        expected = "pot" if party["entry"] is None else names[party["entry"]]
        assert party["display_name"] == expected


def test_the_entries_list_reads_the_players_accounts_in_one_query() -> None:
    """Naming entries by their accounts' display names costs no query per entry: the list
    takes as many queries for five players as for twelve."""
    f, _ = field()

    def queries(page_size: int) -> int:
        # a page size of its own for each read: the list's cache answers a repeated one
        with CaptureQueriesContext(connection) as captured:
            listed = f.get(f"entries/?page_size={page_size}")["results"]
        assert len(listed) == len(Entry.objects.filter(tournament_id=f.tournament_id))
        return len(captured)

    before = queries(50)
    for _ in range(7):
        user = UserFactory.create(display_name="Grüße")
        Entry.objects.create(
            tournament_id=f.tournament_id, user=user, name=user.username, status="registered"
        )
    assert queries(51) == before
