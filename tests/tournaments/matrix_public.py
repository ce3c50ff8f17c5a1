"""Permission-matrix rows for what spectators read (standings, results, exports, the printable
page), the caller's own tournament, and the money settlement."""

from __future__ import annotations

from tests.tournaments.world import DIRECTORS, READ, SIGNED_IN, Row, hidden, statuses, with_status

T = "/api/v1/tournaments/{tournament}/"
EXPORTS = [T + f"export/{what}.{fmt}" for what in ("standings", "hands") for fmt in ("csv", "json")]
MINE = statuses(anonymous=401, outsider=404, director=404, club_admin=404)
"""``…/me/`` is the caller's entry: not there for those who did not enter."""
SETTLEMENT = statuses(anonymous=401, outsider=403)
"""Money stays among the directors and the players."""

ROWS = [
    Row("get", T + "standings/", READ, state="playing"),
    hidden(Row("get", T + "standings/", READ, state="playing")),
    Row("post", T + "standings/recompute/", with_status(DIRECTORS, 202), state="playing"),
    hidden(Row("post", T + "standings/recompute/", with_status(DIRECTORS, 202), state="playing")),
    Row("get", T + "standings/print/", READ, state="playing"),
    hidden(Row("get", T + "standings/print/", READ, state="playing")),
    *(Row("get", path, READ, state="between_rounds") for path in EXPORTS),
    *(hidden(Row("get", path, READ, state="between_rounds")) for path in EXPORTS),
    Row("get", T + "export/hands.xml", statuses(rest=404), state="playing", label="no such format"),
    Row("get", T + "entries/{entry}/results/", READ, state="between_rounds"),
    hidden(Row("get", T + "entries/{entry}/results/", READ, state="between_rounds")),
    Row("get", T + "me/", MINE, state="playing"),
    hidden(Row("get", T + "me/", MINE, state="playing")),
    Row("get", "/api/v1/me/tournaments/", SIGNED_IN, state="playing"),
    Row("get", T + "settlement/", SETTLEMENT, state="between_rounds", kind="money"),
    hidden(Row("get", T + "settlement/", SETTLEMENT, state="between_rounds", kind="money")),
    Row(
        "get",
        T + "settlement/",
        with_status(SETTLEMENT, 409),
        state="between_rounds",
        label="played for points",
    ),
]
