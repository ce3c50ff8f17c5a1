"""The conditional GET every polled answer goes through (tournaments' public reads, season
standings): a client holding the current copy gets a 304 without a body, carrying the same
validators as the 200 it stands for, and the answer is not built for it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils.http import http_date

from config.api.conditional import conditional_answer

STATE = '"s1-7-7-1700000000.000000"'
#: The tag of the answer: the state's, with the language it speaks (English in these tests).
ETAG = '"s1-7-7-1700000000.000000-en"'
CHANGED = dt.datetime(2026, 11, 24, 18, 41, 46, 236184, tzinfo=dt.UTC)


def answer_to(**headers: str) -> tuple[HttpResponse, int]:
    """The answer to a GET with ``headers`` (``if_none_match`` for ``If-None-Match``), and how
    often it was built."""
    built = []

    def build() -> HttpResponse:
        built.append(1)
        return HttpResponse(b'{"rows": []}', content_type="application/json")

    sent = {name.replace("_", "-"): value for name, value in headers.items()}
    request = RequestFactory().get("/standings/", headers=sent)
    return conditional_answer(request, etag=STATE, last_modified=CHANGED, build=build), len(built)


def test_it_answers_the_current_copy_with_a_304_without_building_the_answer() -> None:
    first, built_first = answer_to()
    again, built_again = answer_to(if_none_match=ETAG)
    assert (first.status_code, built_first) == (200, 1)
    assert (again.status_code, built_again, again.content) == (304, 0, b"")
    for name in ("ETag", "Last-Modified", "Cache-Control"):
        assert again[name] == first[name]
    assert first["ETag"] == ETAG and first["Last-Modified"] == http_date(CHANGED.timestamp())


@pytest.mark.parametrize("sent", [f'"older", {ETAG}', "*"], ids=["one of several tags", "any tag"])
def test_it_takes_any_matching_tag_the_client_sends(sent: str) -> None:
    assert answer_to(if_none_match=sent)[0].status_code == 304


def test_it_answers_in_full_when_the_client_holds_another_state() -> None:
    answer, built = answer_to(if_none_match='"s1-6-6-1690000000.000000"')
    assert (answer.status_code, built) == (200, 1)
    assert answer.content == b'{"rows": []}' and answer["ETag"] == ETAG


@pytest.mark.parametrize(
    ("since", "status"),
    [
        (CHANGED, 304),
        (CHANGED + dt.timedelta(hours=1), 304),
        (CHANGED - dt.timedelta(seconds=1), 200),
    ],
    ids=["the same second", "later", "earlier"],
)
def test_it_answers_by_date_when_no_tag_is_sent(since: dt.datetime, status: int) -> None:
    answer, _ = answer_to(if_modified_since=http_date(since.timestamp()))
    assert answer.status_code == status


def test_a_tag_the_client_sends_wins_over_its_date() -> None:
    answer, _ = answer_to(if_none_match='"older"', if_modified_since=http_date(CHANGED.timestamp()))
    assert answer.status_code == 200


def test_without_a_time_of_change_a_date_alone_never_answers_304() -> None:
    since = {"If-Modified-Since": http_date(CHANGED.timestamp())}
    request = RequestFactory().get("/standings/", headers=since)
    answer = conditional_answer(request, etag=STATE, build=lambda: HttpResponse(b"{}"))
    assert answer.status_code == 200 and "Last-Modified" not in answer
