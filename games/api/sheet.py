"""Presentation of a table's money: the running score sheet (JSON and CSV) and payments in
words (``"carl pays anna 3.40 €"``). Nothing here decides an amount: the amounts come from the
hands' results (the engine's settlement) and from ``games.settlement``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings

from config.api.text import DataCSVRenderer
from games.models import POT, SERIES, Hand, Table
from games.rulesets import money_key, rule_set_for, rule_set_of
from games.settlement import Payment, describe, pot_keeper

POT_NAME = "the pot"
SERIES_NAME = "the series"


def seats_in_order(table: Table) -> list[Any]:
    """The table's seats by position (from the prefetched seats)."""
    return sorted(table.seats.all(), key=lambda s: s.position)


def party_names(table: Table) -> dict[str, str]:
    """Ledger party → the name people read: seats' display names, the pot, the series."""
    names = {s.key: s.display_name for s in table.seats.all()}
    names[POT] = POT_NAME
    names[SERIES] = SERIES_NAME
    return names


def with_sentences(table: Table, settlement: Mapping[str, Any]) -> dict[str, Any]:
    """A settlement (``services.settlement_for``) with a sentence for each payment."""
    names = party_names(table)
    currency = settings.CURRENCY_SYMBOL
    keeper = pot_keeper(
        pot_at_close=table.rules.get("pot_at_close", "carry"), club=table.club_id is not None
    )
    payments = [
        {
            **p,
            "sentence": describe(
                Payment(p["from"], p["to"], p["amount"]), names, currency, pot_keeper=keeper
            ),
        }
        for p in settlement["payments"]
    ]
    return {**settlement, "payments": payments}


def game_text(game: Mapping[str, Any] | None, rules: Mapping[str, Any]) -> str:
    """A game as the score sheet of a table with ``rules`` writes it, in the words of its rule
    set (``RuleSet.describe_game``; wien: ``D``, ``Geschäft S``, ``herz``,
    ``5h Bettler von der Hand``, ``Ausfechten``)."""
    return rule_set_for(rules).describe_game(game)


def score_sheet(table: Table, hands: Iterable[Hand]) -> dict[str, Any]:
    """The running sheet: per settled hand (hosted hands still being played are left out) the
    dealer, game, declarer, made, fallen, each seat's running balance and the pot after; at a
    table that keeps a pulya (Preferans: points, not money) also the pulya after the hand,
    pool, mountain and whists per seat (``pulya``, null elsewhere); at a Doppelkopf table the
    deal's parties, winner, Augen, announcements, extras and game points with their running
    totals (``doppelkopf``: ``RuleSet.sheet_row``, null elsewhere)."""
    seats = seats_in_order(table)
    rule_set = rule_set_of(table)
    describe_game = rule_set.describe_game
    pot_key = money_key(rule_set) or "pot"
    running = {s.key: 0 for s in seats}
    points = {s.key: 0 for s in seats}  # running game points where the rule set has them
    rows = []
    for hand in hands:
        result = hand.result
        if hand.status == Hand.Status.PLAYING or result is None:
            continue
        for key, delta in (result.get("delta") or {}).items():  # a points deal moves no money
            running[key] = running.get(key, 0) + int(delta)
        details = rule_set.sheet_row(result)
        if details is not None and details.get("score") is not None:
            for key, score in details["score"].items():
                points[key] = points.get(key, 0) + int(score)
            details = {**details, "totals": dict(points)}
        elif details is not None:
            details = {**details, "totals": None}
        rows.append(
            {
                "number": hand.number,
                "status": hand.status,
                "dealer": hand.dealer,
                "game": describe_game(result.get("game")),
                "declarer": result.get("declarer"),
                "made": result.get("made"),
                "fallen": list(result.get("fallen", [])),
                "balances": dict(running),
                "pot": None if result.get(pot_key) is None else int(result[pot_key]),
                "pulya": result.get("sheet"),
                "doppelkopf": details,
            }
        )
    return {
        "seats": [{"key": s.key, "name": s.display_name} for s in seats],
        "opening_pot": table.opening_pot,
        "rows": rows,
    }


def pulya_columns(keys: list[str]) -> list[str]:
    """The CSV columns of a pulya: each seat's pool and mountain, then each pair's whists
    (``anna>bert``: the whists anna writes on bert)."""
    return [
        *(f"{k} pool" for k in keys),
        *(f"{k} mountain" for k in keys),
        *(f"{a}>{b}" for a in keys for b in keys if a != b),
    ]


def pulya_cells(pulya: Mapping[str, Any], keys: list[str]) -> list[int]:
    """A row's pulya in the order of :func:`pulya_columns`."""
    whists = pulya.get("whists", {})
    return [
        *(pulya["pool"].get(k, 0) for k in keys),
        *(pulya["mountain"].get(k, 0) for k in keys),
        *(whists.get(a, {}).get(b, 0) for a in keys for b in keys if a != b),
    ]


def doppelkopf_columns(keys: list[str]) -> list[str]:
    """The CSV columns of a Doppelkopf sheet: the Re party, the winner, each party's Augen,
    announcement and extras, then each seat's game points for the deal and running."""
    return [
        "re", "winner", "re augen", "kontra augen", "re announced", "kontra announced",
        "re extras", "kontra extras", *(f"{k} points" for k in keys), *(f"{k} total" for k in keys),
    ]  # fmt: skip


def doppelkopf_cells(row: Mapping[str, Any], keys: list[str]) -> list[Any]:
    """A row's Doppelkopf details in the order of :func:`doppelkopf_columns` (empty cells
    where a rule set has none: no Augen for Karlchen Müller, no game points under
    ``doppelkopf``)."""
    augen = row.get("augen") or {}
    said = row["announcements"]
    score = row.get("score") or {}
    totals = row.get("totals") or {}
    return [
        " ".join(row["re"]), row.get("winner") or "", augen.get("re", ""), augen.get("kontra", ""),
        said.get("re") or "", said.get("kontra") or "", " ".join(row["extras"].get("re", [])),
        " ".join(row["extras"].get("kontra", [])), *(score.get(k, "") for k in keys),
        *(totals.get(k, "") for k in keys),
    ]  # fmt: skip


def sheet_csv(sheet: Mapping[str, Any]) -> str:
    """The sheet as CSV with a header row; amounts in cents, ``made`` as yes/no; at a table
    that keeps a pulya, its pool, mountain and whists after each hand too."""
    keys = [s["key"] for s in sheet["seats"]]
    pulya = any(row.get("pulya") for row in sheet["rows"])
    dk = any(row.get("doppelkopf") for row in sheet["rows"])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "number", "dealer", "game", "declarer", "made", "fallen", *keys, "pot",
            *(pulya_columns(keys) if pulya else []),
            *(doppelkopf_columns(keys) if dk else []),
        ]
    )  # fmt: skip
    for row in sheet["rows"]:
        made = "" if row["made"] is None else ("yes" if row["made"] else "no")
        writer.writerow(
            [
                row["number"],
                row["dealer"],
                row["game"],
                row["declarer"] or "",
                made,
                " ".join(row["fallen"]),
                *(row["balances"].get(k, 0) for k in keys),
                "" if row["pot"] is None else row["pot"],
                *(pulya_cells(row["pulya"] or {}, keys) if pulya and row["pulya"] else []),
                *(doppelkopf_cells(row["doppelkopf"], keys) if dk and row["doppelkopf"] else []),
            ]
        )
    return out.getvalue()


class SheetCSVRenderer(DataCSVRenderer):
    key = "rows"
    to_csv = staticmethod(sheet_csv)
