"""The games app in the reader's language (issue 38): a German request (``Accept-Language:
de``) gets German sentences, an English one English sentences, with the same status codes,
``code``s and field names; the engine's refusals are rendered from its catalog; settlement
sentences, money and the score sheet's CSV header speak German; a websocket speaks its
handshake's language, then its user's."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from clubs.models import User
from games.models import Table
from games.rulesets import whose_turn
from games.settlement import Payment, describe, format_money, pot_keeper
from tests.factories import UserFactory
from tests.games.conftest import MADE, hand_url, hands_url

pytestmark = pytest.mark.django_db

LANGUAGES = ("de", "en")


def both(send: Callable[[str], Any]) -> tuple[Any, Any]:
    """The answers to the same request in German and in English: the same status, ``code``
    and field names, each in the language asked for."""
    german, english = (send(language) for language in LANGUAGES)
    assert german.status_code == english.status_code, (german.json(), english.json())
    assert german["Content-Language"] == "de" and english["Content-Language"] == "en"
    if german.status_code >= 400:
        assert german.json()["code"] == english.json()["code"]
        assert set(german.json()["fields"]) == set(english.json()["fields"])
    return german, english


def test_a_move_out_of_turn_is_refused_in_the_readers_language(
    make_table: Callable[..., Table],
    client_for: Callable[[User | None], APIClient],
    anna: User,
    bert: User,
) -> None:
    table = make_table(mode=Table.Mode.HOSTED)  # carl deals: anna is to act
    assert client_for(anna).post(hands_url(table)).status_code == 201
    german, english = both(
        lambda language: client_for(bert).post(
            hand_url(table, 1, "actions/"),
            {"action": {"call": "pass"}},
            format="json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
    )
    assert german.status_code == 403 and german.json()["code"] == "not_your_turn"
    assert english.json()["message"] == "It is anna's turn, not bert's."
    assert german.json()["message"] == "Am Zug ist anna, nicht bert."


def test_an_illegal_move_is_the_engines_refusal_in_the_readers_language(
    make_table: Callable[..., Table],
    client_for: Callable[[User | None], APIClient],
    anna: User,
) -> None:
    """The engine's refusal, rendered from the engine's catalog (``config.i18n.engine_text``):
    German once the engine's catalog translates it."""
    table = make_table(mode=Table.Mode.HOSTED)
    client = client_for(anna)
    assert client.post(hands_url(table)).status_code == 201
    german, english = both(
        lambda language: client.post(
            hand_url(table, 1, "actions/"),
            {"action": {"card": "HA"}},  # a card in the auction
            format="json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
    )
    assert german.status_code == 400 and german.json()["code"] == "rule_violation"
    assert set(german.json()["fields"]) == {"action"}
    assert german.json()["message"] != english.json()["message"]
    assert german.json()["fields"]["action"] == [german.json()["message"]]


def test_a_recorded_entry_the_engine_refuses_keeps_its_code_and_field(
    recorded: Table, client_for: Callable[[User | None], APIClient], anna: User
) -> None:
    wrong = {**MADE, "tricks": {"anna": 6, "bert": 2, "carl": 3}}
    german, english = both(
        lambda language: client_for(anna).post(
            hands_url(recorded), wrong, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    assert german.status_code == 400 and german.json()["code"] == "rule_violation"
    assert set(german.json()["fields"]) == {"tricks"}
    assert german.json()["message"] != english.json()["message"]


def test_table_conflicts_are_german_for_a_german_reader(
    make_table: Callable[..., Table],
    recorded: Table,
    client_for: Callable[[User | None], APIClient],
    anna: User,
) -> None:
    client = client_for(anna)
    hosted = make_table(mode=Table.Mode.HOSTED)
    assert client.post(hands_url(hosted)).status_code == 201
    german, english = both(
        lambda language: client.post(hands_url(hosted), HTTP_ACCEPT_LANGUAGE=language)
    )
    assert german.status_code == 409 and german.json()["code"] == "hand_in_progress"
    assert english.json()["message"] == "Hand 1 is still being played."
    assert german.json()["message"] == "Spiel 1 wird noch gespielt."

    assert client.post(hands_url(recorded), MADE, format="json").status_code == 201
    german, english = both(
        lambda language: client.post(
            hand_url(recorded, 1, "confirm/"), HTTP_ACCEPT_LANGUAGE=language
        )
    )
    assert german.json()["code"] == "already_confirmed"
    assert german.json()["message"] == "Spiel 1 braucht keine Bestätigung."

    assert client.post(f"/api/v1/tables/{recorded.pk}/close/").status_code == 200
    german, english = both(
        lambda language: client.post(
            hands_url(recorded), MADE, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    assert german.status_code == 409 and german.json()["code"] == "table_conflict"
    assert german.json()["message"].startswith("Dieser Tisch ist geschlossen")


def test_a_new_tables_refusal_keeps_its_field_names(
    client_for: Callable[[User | None], APIClient], anna: User
) -> None:
    body = {
        "name": "Zu zweit",
        "mode": "recorded",
        "rules": {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300},
        "seats": [
            {"key": "anna", "kind": "user", "user": anna.pk},
            {"key": "bert", "kind": "guest", "guest_name": "Bert"},
        ],
    }
    german, english = both(
        lambda language: client_for(anna).post(
            "/api/v1/tables/", body, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    assert german.status_code == 400 and german.json()["code"] == "validation_error"
    assert set(german.json()["fields"]) == {"seats"}
    assert german.json()["message"] == "Ein Tisch hat 3 oder 4 Plätze."
    assert english.json()["message"] == "A table has 3 or 4 seats."


def test_settlement_sentences_are_german_with_german_money(
    recorded: Table, client_for: Callable[[User | None], APIClient], anna: User
) -> None:
    client = client_for(anna)
    assert client.post(hands_url(recorded), MADE, format="json").status_code == 201
    german, english = both(
        lambda language: client.get(
            f"/api/v1/tables/{recorded.pk}/settlement/", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    assert [p["sentence"] for p in english.json()["payments"]] == [
        "carl pays anna 0.60 €",
        "carl pays bert 0.20 €",
    ]
    assert [p["sentence"] for p in german.json()["payments"]] == [
        "carl zahlt anna 0,60 €",
        "carl zahlt bert 0,20 €",
    ]
    assert german.json()["payments"][0]["amount"] == english.json()["payments"][0]["amount"]


def test_payments_with_the_pot_read_as_german_sentences() -> None:
    names = {"c": "Carl", "a": "Anna", "e": "Emil"}
    with translation.override("de"):
        assert format_money(123456) == "1234,56 €" and format_money(-5) == "-0,05 €"
        assert describe(Payment("c", "a", 340), names) == "Carl zahlt Anna 3,40 €"
        keeper = pot_keeper(shared=False, club=True)
        assert keeper == "bleibt beim Klub"
        into = describe(Payment("e", "pot", 7850), names, pot_keeper=keeper)
        assert into == "Emil zahlt 78,50 € in den Topf (bleibt beim Klub)"
        out = describe(Payment("pot", "a", 300), names)
        assert out == "Der Topf zahlt Anna 3,00 €"
        assert whose_turn({"dora", "anna"}, ("anna", "bert", "carl", "dora")) == "anna oder dora"
        assert whose_turn(set(), ("anna",)) == "niemand"


def test_the_score_sheets_csv_header_speaks_the_readers_language(
    recorded: Table, client_for: Callable[[User | None], APIClient], anna: User
) -> None:
    client = client_for(anna)
    assert client.post(hands_url(recorded), MADE, format="json").status_code == 201
    german, english = both(
        lambda language: client.get(
            f"/api/v1/tables/{recorded.pk}/sheet.csv", HTTP_ACCEPT_LANGUAGE=language
        )
    )
    rows = {
        language: list(csv.reader(io.StringIO(answer.content.decode())))
        for language, answer in (("de", german), ("en", english))
    }
    assert rows["en"][0] == [
        "number", "dealer", "game", "declarer", "made", "fallen", "anna", "bert", "carl", "pot"
    ]  # fmt: skip
    assert rows["de"][0] == [
        "Nr.", "Geber", "Spiel", "Spieler", "gewonnen", "gefallen", "anna", "bert", "carl", "Topf"
    ]  # fmt: skip
    assert rows["en"][1][4] == "yes" and rows["de"][1][4] == "ja"
    assert rows["de"][1][:4] == rows["en"][1][:4] and rows["de"][1][5:] == rows["en"][1][5:]


# --- the websocket ----------------------------------------------------------------------------


@pytest.fixture
def live(transactional_db: None) -> Iterator[Any]:
    """uvicorn serving config.asgi on a free port (tests/live/server.py)."""
    from tests.live.server import serve

    with serve() as server:
        yield server


def test_a_socket_speaks_its_handshakes_language_then_its_users(live: Any) -> None:
    from tests.live.conftest import token_for
    from tests.live.server import socket_to

    bad = {"type": "subscribe", "topic": "hand", "table_id": 0, "number": 1}
    messages = {}
    for language in LANGUAGES:
        with socket_to(live, additional_headers={"Accept-Language": language}) as sock:
            sock.expect("hello")
            sock.send(bad)
            messages[language] = sock.expect("error", code="invalid")
    assert messages["en"]["message"] == "Give table_id as a positive integer."
    assert messages["de"]["message"] == "Bitte geben Sie table_id als positive ganze Zahl an."
    assert messages["de"]["field"] == messages["en"]["field"] == "table_id"

    german = UserFactory.create(language="de")
    with socket_to(live, token=token_for(german)) as sock:  # English handshake, German user
        sock.send({"type": "unsubscribe", "topic": "notifications"})
        assert sock.expect("error")["message"] == "Das haben Sie nicht abonniert."
