"""The API's routes: each app's include is entered only by paths its routes can match
(:class:`config.urls.FirstSegments`), and every route still answers its own path."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.urls.resolvers import RoutePattern

from config import urls

pytestmark = pytest.mark.django_db


def routes(
    patterns: list[URLPattern | URLResolver], prefix: str = ""
) -> Iterator[tuple[str, URLPattern]]:
    """Every route below ``patterns`` as one route string, with its pattern."""
    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            yield from routes(p.url_patterns, route)
        else:
            yield route, p


SAMPLES = {None: "x", "str": "x", "slug": "x", "uuid": "12345678-1234-5678-1234-567812345678"}


def a_path(route: str) -> str:
    """A path ``route`` matches: each converter filled with a value it takes (digits for the
    number converters: ``int``, ``id``, ``num``)."""
    return "/" + re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLES.get(m[1], "7"), route)


API_ROUTES = [
    (route, p)
    for route, p in routes(get_resolver().url_patterns)
    if route.startswith("api/v1/") and isinstance(p.pattern, RoutePattern)
]


def test_every_api_route_answers_its_own_path() -> None:
    assert len(API_ROUTES) > 100
    wrong = []
    for route, pattern in API_ROUTES:
        found = resolve(a_path(route))
        if found.route != route or found.func is not pattern.callback:
            wrong.append((route, found.route))
    assert wrong == []


def test_each_app_is_entered_only_by_its_first_segments() -> None:
    guards = {
        p.urlconf_name.__name__.split(".")[0]: p.pattern
        for p in urls.api_v1
        if isinstance(p, URLResolver) and isinstance(p.pattern, urls.FirstSegments)
    }
    assert guards["clubs"].heads == {"auth", "me", "clubs", "invitations", "calendar", "push"}
    assert guards["games"].heads == {"rules", "tables", "series", "pings"}
    assert guards["tournaments"].heads == {"tournaments", "me", "cups"}
    assert guards["games"].match("tournaments/7/standings/") is None
    assert guards["games"].match("tables/7/") == ("tables/7/", (), {})


def test_a_route_that_begins_with_a_converter_leaves_its_include_open() -> None:
    """A route whose first segment a path chooses could match any path: no guard then."""
    from django.urls import path

    def view() -> None:
        return None

    assert urls.first_segments([path("tables/<int:pk>/", view)]) == {"tables"}
    assert urls.first_segments([path("<slug:club>/", view)]) is None
    assert urls.first_segments([path("", view)]) is None


def test_reversed_urls_and_unknown_paths_are_as_before(api_client) -> None:
    assert reverse("t-standings", kwargs={"tournament_id": 7}) == "/api/v1/tournaments/7/standings/"
    answer = api_client.get("/api/v1/nothing-here/")
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"
