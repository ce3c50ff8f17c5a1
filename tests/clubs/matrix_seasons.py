"""Permission-matrix rows for seasons, standings and ratings."""

from __future__ import annotations

from tests.clubs.evening_setup import a_season
from tests.clubs.world import (
    MANAGERS_WRITE,
    MEMBERS_READ,
    PUBLIC_MANAGERS_WRITE,
    PUBLIC_READ,
    Row,
    with_status,
)

C = "/api/v1/clubs/{club}/"
S = C + "seasons/{season}/"

ROWS = [
    Row("get", C + "seasons/", MEMBERS_READ),
    Row("get", C + "seasons/", PUBLIC_READ, public=True),
    Row(
        "post",
        C + "seasons/",
        with_status(MANAGERS_WRITE, 201),
        body=lambda w, r: {"name": "2027", "starts_on": "2027-01-01", "ends_on": "2027-12-31"},
    ),
    Row(
        "post",
        C + "seasons/",
        with_status(PUBLIC_MANAGERS_WRITE, 201),
        body=lambda w, r: {"name": "2027", "starts_on": "2027-01-01", "ends_on": "2027-12-31"},
        public=True,
    ),
    Row("get", S, MEMBERS_READ, setup=a_season),
    Row("get", S, PUBLIC_READ, setup=a_season, public=True),
    Row("patch", S, MANAGERS_WRITE, setup=a_season, body=lambda w, r: {"name": "Neu"}),
    Row(
        "patch",
        S,
        PUBLIC_MANAGERS_WRITE,
        setup=a_season,
        body=lambda w, r: {"name": "Neu"},
        public=True,
    ),
    Row("delete", S, with_status(MANAGERS_WRITE, 204), setup=a_season),
    Row("get", S + "standings/", MEMBERS_READ, setup=a_season),
    Row("get", S + "standings/", PUBLIC_READ, setup=a_season, public=True),
    Row("post", S + "recompute/", with_status(MANAGERS_WRITE, 202), setup=a_season),
    Row("get", C + "ratings/", MEMBERS_READ),
    Row("get", C + "ratings/", PUBLIC_READ, public=True),
    Row("get", C + "ratings/history/", MEMBERS_READ),
    Row("get", C + "ratings/history/", PUBLIC_READ, public=True),
]
