"""Permission-matrix rows for an evening's rounds, tables, closing and settlement."""

from __future__ import annotations

from tests.clubs.evening_setup import members_checked_in, planned_round, started_round
from tests.clubs.world import (
    MANAGERS_WRITE,
    MEMBERS_READ,
    PUBLIC_MANAGERS_WRITE,
    PUBLIC_READ,
    Row,
    statuses,
    with_status,
)

E = "/api/v1/clubs/{club}/evenings/{evening}/"
R = E + "rounds/1/"

ROWS = [
    Row("get", E + "rounds/", MEMBERS_READ, setup=planned_round),
    Row("get", E + "rounds/", PUBLIC_READ, setup=planned_round, public=True),
    Row(
        "post",
        E + "rounds/",
        with_status(MANAGERS_WRITE, 201),
        setup=members_checked_in,
        body=lambda w, r: {"rounds_total": 2, "seed": 3},
    ),
    Row(
        "post",
        E + "rounds/",
        with_status(PUBLIC_MANAGERS_WRITE, 201),
        setup=members_checked_in,
        body=lambda w, r: {"rounds_total": 2},
        public=True,
    ),
    Row("get", R, MEMBERS_READ, setup=planned_round),
    Row("get", R, PUBLIC_READ, setup=planned_round, public=True),
    Row("delete", R, with_status(MANAGERS_WRITE, 204), setup=planned_round),
    Row(
        "post",
        R + "swap/",
        MANAGERS_WRITE,
        setup=planned_round,
        body=lambda w, r: {"a": f"u:{w.users['member'].pk}", "b": f"u:{w.users['owner'].pk}"},
    ),
    Row("post", R + "start/", MANAGERS_WRITE, setup=planned_round),
    Row("post", R + "start/", PUBLIC_MANAGERS_WRITE, setup=planned_round, public=True),
    Row("get", E + "tables/", MEMBERS_READ, setup=started_round),
    Row("get", E + "tables/", PUBLIC_READ, setup=started_round, public=True),
    Row("post", E + "close/", MANAGERS_WRITE, setup=started_round),
    Row("get", E + "settlement/", MEMBERS_READ, setup=started_round),
    Row("get", E + "settlement.csv", MEMBERS_READ, setup=started_round),
    # a public club shows its evenings, but money stays among members
    Row(
        "get",
        E + "settlement/",
        statuses(anonymous=403, outsider=403),
        setup=started_round,
        public=True,
    ),
]
