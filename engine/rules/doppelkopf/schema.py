"""Doppelkopf's API shapes (``engine.ruleset.Shapes``): ``doppelkopf`` and ``doppelkopf-ddv``
(``spec/next/doppelkopf.md``, Records and "What each player sees").

A seat's view carries the reservations, the tricks themselves, the public parties, and the
Kasse (``doppelkopf``) or the announcements (DDV); a Result the Re party, the winner, each
party's Augen and (``doppelkopf``) category, amount and Kasse or (DDV) announcements, extra
points, game values and game points. A score-sheet row: the parties, winner, Augen,
announcements, extras, category and game points with their running totals; its CSV columns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.rules.doppelkopf.actions import DDV_PLAIN, PLAIN, WORDS
from engine.rules.doppelkopf.cards import DDV_SOLOS, SOLO_TRUMPS
from engine.ruleset import SEAT_SCHEMA, Shapes, by_seat, game_form, nullable, object_schema

END_PUBLIC = (
    "phase", "to_act", "hand", "hand_sizes", "game", "trick", "last_trick", "tricks",
    "parties",
)  # fmt: skip
"""The view keys the end of a hand makes public while its board is withheld (the parties,
which its Result names anyway; reservations stay ``"none"`` or ``"reserved"``)."""

POSITIONS = ("first", "second", "third", "fourth")
"""The four positions of a deal, from the seat after the dealer."""

PARTY = {"type": "string", "enum": ["re", "kontra"]}
SEATS = {"type": "array", "items": SEAT_SCHEMA}
CARD_PLAYED = object_schema({"seat": SEAT_SCHEMA, "card": {"type": "string"}})
TRICK = object_schema(
    {
        "leader": SEAT_SCHEMA,
        "cards": {"type": "array", "items": CARD_PLAYED},
        "winner": SEAT_SCHEMA,
        "augen": {"type": "integer", "minimum": 0},
    },
    required=["leader", "cards"],
    description="A trick: who led, the cards in order; once complete its winner and Augen.",
)
PAIR = object_schema({"re": {"type": "integer"}, "kontra": {"type": "integer"}})
WORD = {"type": "string", "enum": list(WORDS)}
SCORE = by_seat({"type": "integer"}, "Seat → game points of the deal.")
EXTRAS = ("doppelkopf", "fox", "karlchen", "against_alten")


def party_words(description: str) -> dict[str, Any]:
    """Each party's highest announcement (``re``, ``kontra``), or null."""
    return object_schema({"re": nullable(WORD), "kontra": nullable(WORD)}, description=description)


def party_extras(description: str) -> dict[str, Any]:
    """Each party's extra points (``re``, ``kontra``: lists of extras)."""
    extras = {"type": "array", "items": {"type": "string", "enum": list(EXTRAS)}}
    return object_schema({"re": extras, "kontra": dict(extras)}, description=description)


def _reservation(plain: tuple[str, ...], solos: tuple[str, ...], shown: bool) -> dict[str, Any]:
    """A reservation as a view shows it: a word or ``{"solo": …}`` (``shown``: also
    ``"reserved"``, another seat's before the end of the hand)."""
    words = [*plain, "reserved"] if shown else list(plain)
    return {
        "oneOf": [
            {"type": "string", "enum": words},
            object_schema({"solo": {"type": "string", "enum": list(solos)}}),
        ]
    }


def _view(ddv: bool) -> dict[str, Any]:
    plain, solos = (DDV_PLAIN, DDV_SOLOS) if ddv else (PLAIN, SOLO_TRUMPS)
    view: dict[str, Any] = {
        "own_reservation": nullable(
            _reservation(plain, solos, shown=False),
            "The reservation the caller's seat sent; null before it sent one or for a spectator.",
        ),
        "reservations": {
            "type": "array",
            "items": object_schema(
                {
                    "seat": SEAT_SCHEMA,
                    "reservation": {
                        **_reservation(plain, solos, shown=True),
                        "description": '"none" or "reserved" until the end of the hand, then '
                        "the reservation sent.",
                    },
                }
            ),
            "description": "The reservations sent so far, in playing order.",
        },
        "tricks": {
            "type": "array",
            "items": TRICK,
            "description": "Every trick so far in order, the one being played last.",
        },
        "parties": object_schema(
            {"re": SEATS, "kontra": SEATS},
            description="The players publicly known to be Re and Kontra (all four at the end).",
        ),
    }
    if ddv:
        view["announcements"] = {
            "type": "array",
            "items": object_schema({"seat": SEAT_SCHEMA, "announce": WORD}),
            "description": "The announcements so far, in order.",
        }
    else:
        view["kasse"] = {"type": "integer", "description": "The Kasse before the deal (cents)."}
    return {"properties": view, "required": list(view)}


def _result(ddv: bool) -> dict[str, Any]:
    result: dict[str, Any] = {"re": {**SEATS, "description": "The Re party."}}
    if ddv:
        result |= {
            "winner": nullable(PARTY, "The winning party; null: nobody won."),
            "points": {**PAIR, "description": "Each party's Augen."},
            "announcements": party_words("Each party's highest announcement, or null."),
            "extras": party_extras("Each party's extra points."),
            "value": {**PAIR, "description": "Each party's game value."},
            "score": {**SCORE, "description": "Each seat's game points (× point_value: delta)."},
        }
    else:
        result |= {
            "winner": {**PARTY, "description": "The winning party."},
            "category": nullable(
                {"type": "string", "enum": ["simple", "schneider", "schwarz"]},
                "The losing party's category; null for Karlchen Müller.",
            ),
            "points": nullable(PAIR, "Each party's Augen; null for Karlchen Müller."),
            "amount": {"type": "integer", "description": "What each winner is paid (cents)."},
            "kasse": {"type": "integer", "description": "The Kasse after the deal (cents)."},
        }
    return {"properties": result, "required": list(result)}


def _games(ddv: bool) -> tuple[dict[str, Any], ...]:
    seat = {**SEAT_SCHEMA, "x-optional": True}
    soloist = {**seat, "description": "A view's game: the soloist, once known."}
    normal = game_form(
        "normal",
        "A normal game (a view shows a hidden solo as one until it is revealed).",
    )
    hochzeit = game_form(
        "hochzeit",
        "A Hochzeit.",
        announcer={**seat, "description": "A view's game: the announcer."},
        partner={
            **nullable(SEAT_SCHEMA),
            "x-optional": True,
            "description": "A view's game: the partner once clarified (null: alone).",
        },
    )
    if ddv:
        solo = game_form(
            "solo",
            "A DDV solo: its kind and whether it is the soloist's Pflichtsolo.",
            kind={"type": "string", "enum": list(DDV_SOLOS)},
            pflicht={"type": "boolean"},
            soloist=soloist,
        )
        return (
            normal,
            hochzeit,
            solo,
            game_form("silent_solo", "A stilles Solo.", soloist=soloist),
        )
    solo = game_form(
        "solo",
        "An einfaches Solo in its trump suit.",
        trump={"type": "string", "enum": list(SOLO_TRUMPS)},
        soloist=soloist,
    )
    return (
        normal,
        hochzeit,
        solo,
        game_form("karlchen", "Karlchen Müller.", soloist=soloist),
        game_form("secret_solo", "A Heimliches Solo.", soloist=soloist),
    )


SHEET_ROW: dict[str, Any] = {
    "properties": {
        "re": {**SEATS, "description": "The Re party (a soloist alone)."},
        "winner": nullable(PARTY, "null: nobody won (DDV)."),
        "augen": nullable(PAIR, "Each party's Augen (of 240); null for Karlchen Müller."),
        "announcements": party_words(
            "Each party's highest announcement or null (always null under doppelkopf)."
        ),
        "extras": party_extras("Each party's extra points (none under doppelkopf)."),
        "category": nullable(
            {"type": "string", "enum": ["simple", "schneider", "schwarz"]},
            "doppelkopf: simple, schneider or schwarz; null under DDV.",
        ),
        "score": nullable(SCORE, "Seat → game points of the deal (DDV); null under doppelkopf."),
        "totals": nullable(
            by_seat({"type": "integer"}, "Seat → running game points."),
            "Seat → running game points after the deal; null without game points.",
        ),
    },
    "required": ["re", "winner", "augen", "announcements", "extras", "category", "score", "totals"],
}

SHAPES = Shapes(
    view=_view(ddv=False),
    result=_result(ddv=False),
    games=_games(ddv=False),
    sheet_row=SHEET_ROW,
    reasons=("ante", "refill", "karlchen", "win", "split"),
    end_public=END_PUBLIC,
    legacy_sheet_key="doppelkopf",
)
ROUND = object_schema(
    {
        "round": {"type": "integer", "description": "The round, 1 first."},
        "deals": {"type": "integer", "description": "Deals that count towards a round (24)."},
        "counted": {
            "type": "integer",
            "description": "Deals of this round played so far that count (a Pflichtsolo or a "
            "Vorführung does not).",
        },
        "pflicht_owed": {
            **SEATS,
            "description": "The seats that still owe this round's Pflichtsolo, in playing order.",
        },
        "vorfuehrung": nullable(
            SEAT_SCHEMA,
            "The seat vorgeführt in the next deal: the 24 deals are done and it has not played "
            "its Pflichtsolo, so it sits forehand and must reserve a solo; null otherwise.",
        ),
        "dealer": {
            **SEAT_SCHEMA,
            "description": "Who deals the next deal (a Pflichtsolo is dealt again by the same "
            "dealer).",
        },
    },
    description="A doppelkopf-ddv table's round of 24 deals and its Pflichtsoli "
    "(``engine.rules.doppelkopf.series``).",
)
"""A DDV table's round (``series.Series.to_json``)."""

DDV_SHAPES = Shapes(
    view=_view(ddv=True),
    result=_result(ddv=True),
    games=_games(ddv=True),
    sheet_row=SHEET_ROW,
    reasons=("score",),
    end_public=END_PUBLIC,
    round=ROUND,
    legacy_sheet_key="doppelkopf",
)


def sheet_rows(rows: Sequence[dict[str, Any] | None]) -> list[dict[str, Any] | None]:
    """The sheet rows with ``totals``: each seat's running game points after the deal where
    the rows have game points (``score``, DDV), else null."""
    points: dict[str, int] = {}
    out: list[dict[str, Any] | None] = []
    for row in rows:
        if row is not None and row.get("score") is not None:
            for seat, score in row["score"].items():
                points[seat] = points.get(seat, 0) + int(score)
            row = {**row, "totals": dict(points)}
        elif row is not None:
            row = {**row, "totals": None}
        out.append(row)
    return out


def sheet_columns(seats: Sequence[str]) -> list[str]:
    """The CSV columns of a Doppelkopf sheet: the Re party, the winner, each party's Augen,
    announcement and extras, then each seat's game points for the deal and running."""
    return [
        "re", "winner", "re augen", "kontra augen", "re announced", "kontra announced",
        "re extras", "kontra extras", *(f"{k} points" for k in seats),
        *(f"{k} total" for k in seats),
    ]  # fmt: skip


def sheet_cells(row: Mapping[str, Any], seats: Sequence[str]) -> list[Any]:
    """A row in the order of :func:`sheet_columns` (empty cells where a rule set has none: no
    Augen for Karlchen Müller, no game points under ``doppelkopf``)."""
    augen = row.get("augen") or {}
    said = row["announcements"]
    score = row.get("score") or {}
    totals = row.get("totals") or {}
    return [
        " ".join(row["re"]), row.get("winner") or "", augen.get("re", ""), augen.get("kontra", ""),
        said.get("re") or "", said.get("kontra") or "", " ".join(row["extras"].get("re", [])),
        " ".join(row["extras"].get("kontra", [])), *(score.get(k, "") for k in seats),
        *(totals.get(k, "") for k in seats),
    ]  # fmt: skip
