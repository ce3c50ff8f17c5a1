"""The public settlement examples (``../shared/examples/settlement``) through ``engine.settle``.

Each example is a score-sheet entry with the result it must settle to under ``spec/wien.md``.
They run in three forms, as the pre-stop hook does: as given, with the seats renamed (the
engine must not depend on who sits where by name), and with every amount times ten (nothing
may depend on the size of the cent amounts). ``examples/README.md``: compare stake, made,
delta, pot and fallen (sorted); transfers are free in order and grouping as long as they sum
to delta and the pot; the engine returns ``fallen`` in playing order from forehand.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import engine

EXAMPLES = Path(__file__).resolve().parents[2].parent / "shared" / "examples" / "settlement"
RENAME = {"anna": "zora", "bert": "yves", "carl": "xaver", "dave": "wanda"}
SCALE = 10


def _example_files() -> list[Path]:
    # Fail loudly (at collection) rather than skip: without the examples nothing is checked.
    if not EXAMPLES.is_dir():
        raise FileNotFoundError(
            f"{EXAMPLES} is missing: check out the project with ../shared beside it"
        )
    files = sorted(EXAMPLES.glob("*.json"))
    if not files:
        raise FileNotFoundError(f"{EXAMPLES} holds no *.json examples")
    return files


FILES = _example_files()


def renamed(x: Any) -> Any:
    """Rename seats in keys and string values, as the hook does."""
    if isinstance(x, dict):
        return {RENAME.get(k, k): renamed(v) for k, v in x.items()}
    if isinstance(x, list):
        return [renamed(v) for v in x]
    return RENAME.get(x, x) if isinstance(x, str) else x


def scaled(record: dict[str, Any], expect: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Every amount times ten: dealer contribution, cap, pot; expected stake, pot, deltas."""
    record, expect = copy.deepcopy(record), copy.deepcopy(expect)
    rules = record["rules"]
    rules["dealer_contribution"] *= SCALE
    if rules.get("pot_cap") is not None:
        rules["pot_cap"] *= SCALE
    record["pot"] *= SCALE
    expect["stake"] *= SCALE
    expect["pot"] *= SCALE
    expect["delta"] = {seat: v * SCALE for seat, v in expect["delta"].items()}
    return record, expect


def _cases() -> list[Any]:
    cases = []
    for path in FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        record, expect = data["record"], data["expect"]
        forms = {
            "as-given": (record, expect),
            "renamed": (renamed(record), renamed(expect)),
            "x10": scaled(record, expect),
        }
        for form, (rec, exp) in forms.items():
            cases.append(pytest.param(rec, exp, id=f"{path.stem}-{form}"))
    return cases


def test_there_are_examples() -> None:
    assert len(FILES) >= 10


@pytest.mark.parametrize(("record", "expect"), _cases())
def test_example_settles_as_expected(record: dict[str, Any], expect: dict[str, Any]) -> None:
    pot_before = record["pot"]
    result = engine.settle(copy.deepcopy(record))

    got = {k: result[k] for k in ("stake", "made", "delta", "pot")}
    got["fallen"] = sorted(result["fallen"])
    want = {k: expect[k] for k in ("stake", "made", "delta", "pot")}
    want["fallen"] = sorted(expect["fallen"])
    assert got == want

    # wien.md, "Check": the players' changes plus the pot's change sum to zero.
    assert sum(result["delta"].values()) + result["pot"] - pot_before == 0

    # The transfers are the whole story: they add up to delta and the pot.
    delta = {seat: 0 for seat in record["seats"]}
    pot = pot_before
    for t in result["transfers"]:
        assert t["amount"] > 0
        assert t["why"] in {"dealer", "game", "tricks", "fall", "premium", "ausfechten"}
        for party, sign in ((t["from"], -1), (t["to"], +1)):
            if party == "pot":
                pot += sign * t["amount"]
            else:
                delta[party] += sign * t["amount"]
    assert delta == result["delta"]
    assert pot == result["pot"]

    # hand-record.md, "Result": fallen in playing order from forehand (the seat after the
    # dealer), without repeats.
    seats, i = record["seats"], record["seats"].index(record["dealer"])
    playing_order = [seats[(i + k) % len(seats)] for k in range(1, len(seats) + 1)]
    fallen = result["fallen"]
    assert fallen == sorted(set(fallen), key=playing_order.index)
