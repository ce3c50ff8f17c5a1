"""The tournaments app in German and English (issue 38): a refusal speaks the caller's
language with the same status, code and field names; the printable standings say their
language in ``lang`` and write their words, times and amounts as it does; the standings' ETag
names the language, so a German copy is never current for an English reader, and a copy in
the same language still gets its 304."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import User
from tests.factories import UserFactory
from tests.helpers import client_for
from tests.pseudo import PSEUDO, english_left
from tests.tournaments.setup import RULES, make_field
from tournaments import services
from tournaments.api import public
from tournaments.models import Entry, StandingRow, Tournament

pytestmark = pytest.mark.django_db

LANGUAGES = ("de", "en")


def both(call: Any) -> dict[str, Any]:
    """``call(language)`` for German and English: the answers by language, after checking
    that each says its language and that both have the same status, code and field names
    and different sentences."""
    answers = {language: call(language) for language in LANGUAGES}
    german, english = answers["de"], answers["en"]
    assert german.status_code == english.status_code
    assert german["Content-Language"] == "de" and english["Content-Language"] == "en"
    assert german.json()["code"] == english.json()["code"]
    assert set(german.json()["fields"]) == set(english.json()["fields"])
    assert german.json()["message"] != english.json()["message"]
    return {language: answer.json() for language, answer in answers.items()}


def tournament(director: User, **values: Any) -> Tournament:
    """A public tournament open for registration."""
    t = services.tournament_create(user=director, name="Herbstturnier", rules=RULES, **values)
    return services.tournament_open_registration(user=director, tournament=t)


def url(t: Tournament, path: str = "") -> str:
    return f"/api/v1/tournaments/{t.pk}/{path}"


def test_registration_closed_is_refused_in_the_callers_language() -> None:
    deadline = dt.datetime(2026, 11, 23, 18, 30, tzinfo=dt.UTC)
    t = tournament(UserFactory.create(), entry_deadline=deadline, timezone="Europe/Vienna")
    assert timezone.now() > deadline
    player = client_for(UserFactory.create())
    said = both(lambda language: player.post(url(t, "entries/"), HTTP_ACCEPT_LANGUAGE=language))
    assert said["de"]["code"] == "entries_closed" and said["de"]["fields"] == {}
    # the deadline in the tournament's time zone, written as each language writes it
    assert said["en"]["message"] == "Entries closed at 2026-11-23 19:30 CET; ask a director."
    assert said["de"]["message"] == (
        "Der Nennschluss war am 23.11.2026, 19:30 CET; wenden Sie sich an die Turnierleitung."
    )


def test_a_tournaments_state_is_named_in_the_callers_language() -> None:
    director = UserFactory.create()
    draft = services.tournament_create(user=director, name="Entwurf", rules=RULES)
    player = client_for(UserFactory.create())
    said = both(lambda language: player.post(url(draft, "entries/"), HTTP_ACCEPT_LANGUAGE=language))
    assert said["en"]["code"] == "not_found"  # a draft does not exist for a player
    boss = client_for(director)
    said = both(
        lambda language: boss.post(url(draft, "open-check-in/"), HTTP_ACCEPT_LANGUAGE=language)
    )
    assert said["de"]["code"] == "wrong_state"
    assert said["en"]["message"] == (
        "Cannot open check-in: the tournament is a draft, not open for registration."
    )
    assert said["de"]["message"] == (
        "Es ist nicht möglich, den Check-in zu öffnen: Das Turnier ist ein Entwurf, nicht zur "
        "Anmeldung offen."
    )


def test_someone_who_is_no_director_is_refused_in_their_language() -> None:
    t = tournament(UserFactory.create())
    player = client_for(UserFactory.create())
    said = both(
        lambda language: player.patch(
            url(t), {"venue": "Café Sperl"}, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    assert said["de"]["code"] == "permission_denied"
    assert said["en"]["message"] == "Only the tournament's directors may do that."
    assert said["de"]["message"] == "Das darf nur die Turnierleitung."


def test_the_deals_check_names_the_multiples_in_the_callers_language() -> None:
    boss = client_for(UserFactory.create())
    body = {"name": "Zehn", "rules": RULES, "deals_per_round": 10}
    said = both(
        lambda language: boss.post(
            "/api/v1/tournaments/", body, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    for language in LANGUAGES:
        assert said[language]["code"] == "validation_error"
        assert said[language]["fields"] == {"deals_per_round": [said[language]["message"]]}
    assert said["en"]["message"].startswith("Each seat deals equally often: give a multiple of 3")
    assert said["de"]["message"] == (
        "Jeder Platz gibt gleich oft: Wählen Sie ein Vielfaches von 3 (für einen Tisch mit 3 "
        "Plätzen) oder 4 (für einen Tisch mit 4 Plätzen) Spielen pro Runde, ein Vielfaches von "
        "12, wo jeder dieser Tische nötig sein kann; 10 passt zu keinem Tisch von wien."
    )
    assert not Tournament.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_tasks")
def test_a_round_whose_tables_cannot_deal_equally_is_refused_in_the_callers_language() -> None:
    f = make_field(10, deals_per_round=9)
    said = both(
        lambda language: f.boss().post(
            f.url + "rounds/", {}, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    assert said["de"]["code"] == "deals_not_divisible"
    assert "use a multiple of 12 deals per round" in said["en"]["message"]
    assert "Wählen Sie ein Vielfaches von 12 Spielen pro Runde" in said["de"]["message"]


def test_the_rules_refusal_keeps_the_field_and_speaks_the_callers_language() -> None:
    boss = client_for(UserFactory.create())
    body = {"name": "Falsch", "rules": {"variant": "wien", "pot_cap": "viel"}}
    said = both(
        lambda language: boss.post(
            "/api/v1/tournaments/", body, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    assert list(said["de"]["fields"]) == ["rules"]
    assert said["en"]["message"].startswith("The rules are not valid: ")
    assert said["de"]["message"].startswith("Die Regeln sind ungültig: ")


def test_an_invitation_says_what_happens_next_in_the_callers_language() -> None:
    director = UserFactory.create()
    t = tournament(director)
    stranger = UserFactory.create()
    boss = client_for(director)
    answers = {
        language: boss.post(
            url(t, "directors/"),
            {"user": stranger.pk},
            format="json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        for language in LANGUAGES
    }
    assert answers["de"].status_code == answers["en"].status_code == 202
    german, english = answers["de"].json(), answers["en"].json()
    assert {**german, "message": ""} == {**english, "message": ""}
    assert english["message"].startswith("Asked: they become a director once they accept.")
    assert german["message"].startswith("Angefragt: Die Person gehört zur Turnierleitung")


# --- the printable standings -----------------------------------------------------------------


def printable(language: str) -> tuple[Tournament, Any]:
    """A running tournament's printable standings after round 1, asked in ``language``: two
    players, one with a prize and a board pending, the standings as of 23 November 2026,
    19:30 in Vienna."""
    t = tournament(UserFactory.create(), timezone="Europe/Vienna")
    for name in ("Anna Berger", "Karl Brunner"):  # who agreed to show their names in public
        user = UserFactory.create(display_name=name, public_name=True)
        services.entry_register(user=user, tournament=t)
    for position, entry in enumerate(Entry.objects.filter(tournament=t).order_by("pk"), 1):
        StandingRow.objects.create(
            tournament=t,
            entry=entry,
            name=entry.name,
            user=entry.user,
            position=position,
            rank=position,
            points="5/2" if position == 1 else "-5/2",
            rounds=1,
            by_round={"1": "5/2" if position == 1 else "-5/2"},
            prize=340 if position == 1 else 0,
            pending=1 if position == 1 else 0,
        )
    computed = dt.datetime(2026, 11, 23, 18, 30, tzinfo=dt.UTC)
    Tournament.objects.filter(pk=t.pk).update(computed_at=computed, status="running")
    answer = APIClient().get(url(t, "standings/print/"), HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    assert answer["Content-Language"] == language
    return t, answer


def test_the_printable_standings_in_german() -> None:
    _, answer = printable("de")
    html = answer.content.decode()
    assert '<html lang="de">' in html
    assert "<title>Herbstturnier: vorläufige Rangliste</title>" in html
    for words in (
        "Vorläufige Rangliste",
        "Stand: 23.11.2026, 19:30 CET",
        "Saldo",
        '<th class="name">Spieler</th><th>Punkte</th>',
        "(1 Board ausständig)",
        "<td>3,40</td>",
        "Vorläufig: Die Rangliste ändert sich mit jedem Ergebnis",
    ):
        assert words in html, words
    for english in ("Provisional", "Player", "Points", "as of", "pending", "Balance"):
        assert english not in html, english


def test_the_printable_standings_in_english() -> None:
    _, answer = printable("en")
    html = answer.content.decode()
    assert '<html lang="en">' in html
    assert "<title>Herbstturnier: provisional standings</title>" in html
    for words in (
        "Provisional standings",
        "as of 2026-11-23 19:30 CET",
        "Balance",
        '<th class="name">Player</th><th>Points</th>',
        "(1 board pending)",
        "<td>3.40</td>",
    ):
        assert words in html, words
    assert "Rangliste" not in html


@pytest.mark.parametrize("path", ["standings/", "standings/print/"])
def test_the_standings_etag_names_the_language_and_a_current_copy_still_gets_304(
    path: str,
) -> None:
    t, _ = printable("en")
    anonymous = APIClient()
    first = {
        language: anonymous.get(url(t, path), HTTP_ACCEPT_LANGUAGE=language)
        for language in LANGUAGES
    }
    assert first["de"].status_code == first["en"].status_code == 200
    assert first["de"]["ETag"] != first["en"]["ETag"]
    for language in LANGUAGES:
        again = anonymous.get(
            url(t, path), HTTP_ACCEPT_LANGUAGE=language, HTTP_IF_NONE_MATCH=first[language]["ETag"]
        )
        assert again.status_code == 304 and again["ETag"] == first[language]["ETag"]
    # a German copy is not current for an English reader
    german = first["de"]["ETag"]
    other = anonymous.get(url(t, path), HTTP_ACCEPT_LANGUAGE="en", HTTP_IF_NONE_MATCH=german)
    assert other.status_code == 200 and other["ETag"] == first["en"]["ETag"]


def test_the_standings_are_kept_once_per_language() -> None:
    t, _ = printable("en")
    public._BODIES.clear()
    for language in LANGUAGES:
        answer = APIClient().get(url(t, "standings/"), HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 200
    kept = [key for key in public._BODIES if key[0] == t.pk]
    assert sorted(key[-1] for key in kept) == ["de", "en"]


def test_the_printable_standings_in_the_pseudo_locale_have_no_english_sentence() -> None:
    """Every word of the page a reader sees is a catalog's (``⟦…⟧`` in ``en-xa``) or data: the
    tournament's and the players' names."""
    _, answer = printable(PSEUDO)
    html = answer.content.decode()
    assert f'<html lang="{PSEUDO}">' in html
    shown = re.sub(r"<style.*?</style>|<[^>]+>", " ", html, flags=re.S)
    left = english_left(unescape(shown), ["Herbstturnier", "Anna Berger", "Karl Brunner"])
    assert not left, left
