"""Presentation of a table's money: the running score sheet (JSON and CSV) and payments in
words (``"carl pays anna 3.40 €"``, in German ``"carl zahlt anna 3,40 €"``). Nothing here
decides an amount: the amounts come from the hands' results (the engine's settlement) and from
``games.settlement``. The sentences and the CSV's header speak the reader's language; the JSON
keys and codes do not. People are named as the reader reads them (``names``: seat key → name,
:meth:`games.selectors.TableNames.parties`); the CSV names seats by their keys only.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy, pgettext

import engine
from config.api.rule_sets import legacy_sheet_keys
from config.api.text import DataCSVRenderer
from games.hands import hand_timeouts
from games.models import POT, SERIES, Hand, Table
from games.rulesets import money_key, rule_set_for, rule_set_of, shares_pot_at_close
from games.settlement import Payment, describe, pot_keeper

POT_NAME = gettext_lazy("the pot")
SERIES_NAME = gettext_lazy("the series")


def seats_in_order(table: Table) -> list[Any]:
    """The table's seats by position (from the prefetched seats)."""
    return sorted(table.seats.all(), key=lambda s: s.position)


def party_names(table: Table, names: Mapping[str, str] | None = None) -> dict[str, str]:
    """Ledger party → the name people read: the seats' players as the reader reads them
    (``names``; their display names when not given), the pot, the series."""
    parties = {s.key: s.display_name for s in table.seats.all()}
    parties.update(names or {})
    parties[POT] = str(POT_NAME)
    parties[SERIES] = str(SERIES_NAME)
    return parties


def with_sentences(
    table: Table, settlement: Mapping[str, Any], names: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """A settlement (``services.settlement_for``) with a sentence for each payment, its
    players named as ``names`` says (seat key → name: :func:`party_names`)."""
    names = party_names(table, names)
    currency = settings.CURRENCY_SYMBOL
    keeper = pot_keeper(shared=shares_pot_at_close(table.rules), club=table.club_id is not None)
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
    set (``RuleSet.describe_game``)."""
    return rule_set_for(rules).describe_game(game)


def score_sheet(
    table: Table, hands: Iterable[Hand], names: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The running sheet of the table's rule set (``variant``): per settled hand (hosted hands
    still being played are left out) the dealer, game, declarer, made, fallen, each seat's
    running balance and the pot after, and in ``details`` the rule set's own part of the row
    (``RuleSet.sheet_rows``: e.g. a running score, a deal's parties and points), null where it
    has none (:func:`sheet_of`). The seats' players are named as ``names`` says (seat key →
    name; their display names when not given)."""
    names = names or {}
    settled = [h for h in hands if h.status != Hand.Status.PLAYING and h.result is not None]
    return sheet_of(
        rule_set_of(table),
        [(s.key, names.get(s.key, s.display_name)) for s in seats_in_order(table)],
        table.opening_pot,
        [(h.number, h.status, h.dealer, h.result) for h in settled if h.result is not None],
        timed_out={
            hand.number: sorted({t["seat"] for t in hand_timeouts(hand)}) for hand in settled
        },
    )


def sheet_of(
    rule_set: engine.RuleSet[Any, Any, Any],
    seats: Sequence[tuple[str, str]],
    opening_pot: int,
    settled: Sequence[tuple[int, str, str, Mapping[str, Any]]],
    timed_out: Mapping[int, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """The running sheet of a table of ``rule_set`` whose ``seats`` (key, name) opened with
    ``opening_pot``, from its ``settled`` hands in order (number, status, dealer, Result);
    ``timed_out``: by hand number, the seats a timeout policy played for (at a table with a
    clock).
    The keys of API 1.x (``Shapes.legacy_sheet_key``) repeat ``details`` at the tables of the
    rule sets whose details they held (deprecated, null elsewhere)."""
    describe_game = rule_set.describe_game
    pot_key = money_key(rule_set) or "pot"
    details = rule_set.sheet_rows([result for *_, result in settled])
    legacy = legacy_sheet_keys()
    running = {key: 0 for key, _ in seats}
    rows = []
    for (number, status, dealer, result), own in zip(settled, details, strict=True):
        for key, delta in (result.get("delta") or {}).items():  # a points deal moves no money
            running[key] = running.get(key, 0) + int(delta)
        rows.append(
            {
                "number": number,
                "status": status,
                "dealer": dealer,
                "game": describe_game(result.get("game")),
                "declarer": result.get("declarer"),
                "made": result.get("made"),
                "fallen": list(result.get("fallen", [])),
                "balances": dict(running),
                "pot": None if result.get(pot_key) is None else int(result[pot_key]),
                "details": own,
                "timed_out": list((timed_out or {}).get(number, ())),
                **{
                    key: own if rule_set.name in holders else None
                    for key, holders in legacy.items()
                },
            }
        )
    return {
        "variant": rule_set.name,
        "seats": [{"key": key, "name": name} for key, name in seats],
        "opening_pot": opening_pot,
        "rows": rows,
    }


def sheet_header() -> list[str]:
    """The header cells of the columns every sheet has, in the reader's language: number,
    dealer, game, declarer, made, fallen (the seats' keys and the pot follow)."""
    return [
        pgettext("score sheet column", "number"),
        pgettext("score sheet column", "dealer"),
        pgettext("score sheet column", "game"),
        pgettext("score sheet column", "declarer"),
        pgettext("score sheet column", "made"),
        pgettext("score sheet column", "fallen"),
    ]


def sheet_csv(sheet: Mapping[str, Any]) -> str:
    """The sheet as CSV with a header row in the reader's language; amounts in cents, ``made``
    as yes/no (German ja/nein); where the table's rule set has its own part of a row
    (``details``), its columns after the pot (``RuleSet.sheet_columns``), empty in a row
    without it."""
    keys = [s["key"] for s in sheet["seats"]]
    rule_set = engine.rule_set(sheet["variant"])
    own = rule_set.sheet_columns(keys) if any(r["details"] for r in sheet["rows"]) else []
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    pot = pgettext("score sheet column", "pot")
    writer.writerow([*sheet_header(), *keys, pot, *own])
    yes, no = pgettext("score sheet cell", "yes"), pgettext("score sheet cell", "no")
    for row in sheet["rows"]:
        made = "" if row["made"] is None else (yes if row["made"] else no)
        details = row["details"]
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
                *(rule_set.sheet_cells(details, keys) if own and details else [""] * len(own)),
            ]
        )
    return out.getvalue()


class SheetCSVRenderer(DataCSVRenderer):
    key = "rows"
    to_csv = staticmethod(sheet_csv)
