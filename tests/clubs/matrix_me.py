"""Permission-matrix rows for the API root and the caller's own club views."""

from __future__ import annotations

from tests.clubs.world import Row, statuses

SIGNED_IN = statuses(anonymous=401)

ROWS = [
    Row("get", "/api/v1/", statuses()),
    Row("get", "/api/v1/me/evenings/", SIGNED_IN),
    Row("get", "/api/v1/me/tables/", SIGNED_IN),
]
