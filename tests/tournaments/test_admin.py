"""The admin is no way around the services: once a tournament has started its state, format,
prizes and entries are read-only there; the lots seed is never on a page before the end;
times show in the tournament's timezone; model names read as English."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.test import Client

from clubs.admin import local_time
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.tournaments.setup import make_field, seat
from tournaments import services
from tournaments.models import Entry, LogEntry, Tournament
from tournaments.scoring import lots_commitment

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

SEED = 271828182845904523
ZONE = "America/New_York"


def staff() -> Client:
    admin = UserFactory.create(username="admin", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    return client


def change_page(client: Client, t: Tournament) -> Any:
    answer = client.get(f"/admin/tournaments/tournament/{t.pk}/change/")
    assert answer.status_code == 200
    return answer


def editable(answer: Any) -> set[str]:
    return set(answer.context["adminform"].form.fields)


def draft() -> Tournament:
    director = UserFactory.create()
    return services.tournament_create(
        user=director, name="Draft Open", lots_seed=SEED, timezone=ZONE, tiebreaks=["lots"]
    )


def test_a_running_tournaments_state_format_and_seed_are_read_only() -> None:
    f = make_field(6, lots_seed=SEED)
    seat(f)
    t = f.tournament
    assert t.status == Tournament.Status.RUNNING
    answer = change_page(staff(), t)
    fields = editable(answer)
    fixed = {"status", "rules", "scoring", "seating", "tiebreaks", "deals_per_round", "prizes"}
    assert not fields & (fixed | {"lots_seed", "results", "real_money", "rounds_planned"})
    assert {"name", "venue", "description"} <= fields  # the info stays editable
    html = answer.content.decode()
    for name in (*fixed, "lots_seed"):
        assert f'name="{name}"' not in html
    assert str(SEED) not in html
    assert lots_commitment(SEED) in html
    # the entries are read-only too: check-ins and withdrawals go through the API
    entries = answer.context["inline_admin_formsets"][0]
    assert not entries.has_add_permission and not entries.has_delete_permission
    assert not set(entries.formset.forms[0].fields) & {"status", "name", "first_round"}


def test_the_seed_is_neither_shown_nor_editable_before_the_end_then_read_only() -> None:
    t = draft()
    client = staff()
    answer = change_page(client, t)
    assert "lots_seed" not in editable(answer)
    assert "scoring" in editable(answer)  # before the first round the format may change
    assert "status" not in editable(answer)  # the state moves by the lifecycle commands
    assert str(SEED) not in answer.content.decode()
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    answer = change_page(client, t)
    assert "lots_seed" not in editable(answer)
    assert str(SEED) in answer.content.decode()


def test_the_log_shows_no_seed_in_the_admin_nor_to_the_directors() -> None:
    t = draft()
    client = staff()
    entry = LogEntry.objects.get(tournament=t, action="tournament_create")
    page = client.get(f"/admin/tournaments/logentry/{entry.pk}/change/")
    assert page.status_code == 200
    assert str(SEED) not in page.content.decode()
    assert lots_commitment(SEED) in page.content.decode()
    director = t.directors.get()
    log = client_for(director).get(f"/api/v1/tournaments/{t.pk}/log/")
    assert log.status_code == 200
    assert str(SEED) not in log.content.decode()
    assert lots_commitment(SEED) in log.content.decode()


def test_the_migration_takes_the_seed_out_of_earlier_log_entries() -> None:
    from django.apps import apps

    scrubbing = importlib.import_module("tournaments.migrations.0007_names_and_log_without_seed")
    running, ended = draft(), draft()
    Tournament.objects.filter(pk=ended.pk).update(status=Tournament.Status.FINISHED)
    for t in (running, ended):
        LogEntry.objects.filter(tournament=t).update(detail={"after": {"lots_seed": SEED}})
    scrubbing.scrub(apps, None)
    assert LogEntry.objects.get(tournament=running).detail == {
        "after": {"lots_commitment": lots_commitment(SEED)}
    }
    assert LogEntry.objects.get(tournament=ended).detail == {"after": {"lots_seed": SEED}}


def test_times_show_in_the_tournaments_timezone() -> None:
    t = draft()
    client = staff()
    listing = client.get("/admin/tournaments/tournament/").content.decode()
    shown = local_time(t.created_at, ZONE)
    assert shown in listing
    assert shown.split()[-1] in ("EST", "EDT")
    page = change_page(client, t).content.decode()
    assert f"times in {ZONE}" in page
    log = client.get("/admin/tournaments/logentry/").content.decode()
    entry = LogEntry.objects.get(tournament=t, action="tournament_create")
    assert local_time(entry.at, ZONE) in log


def test_model_names_read_as_english() -> None:
    index = staff().get("/admin/").content.decode()
    assert "Log entrys" not in index
    assert "Log entries" in index
    assert Entry._meta.verbose_name_plural == "entries"
    assert LogEntry._meta.verbose_name_plural == "log entries"
