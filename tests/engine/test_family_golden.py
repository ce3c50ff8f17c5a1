"""Golden records of the talon-family rule sets (``tests/data/<variant>/*.json``): full deals
played move by move, each replayed to the Result worked out by hand from its page
(``spec/next/``; the arithmetic is in each file's description).

Each file is ``{"description", "record", "expect"}``; ``expect`` holds the Result fields
``stake declarer game made fallen tricks delta pot`` (and ``refe``, ``refe_written`` for balkan).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.rules.family.ruleset import FamilyRuleSet

DATA = Path(__file__).resolve().parent.parent / "data"
FAMILY = frozenset(
    rs.name for rs in engine.rule_sets(include_engine_only=True) if isinstance(rs, FamilyRuleSet)
)
GOLDEN = sorted(p for p in DATA.glob("*/*.json") if p.parent.name in FAMILY)
FIELDS = ("stake", "declarer", "game", "made", "fallen", "tricks", "delta", "pot")


def load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def test_every_registered_family_rule_set_has_golden_records() -> None:
    variants = {p.parent.name for p in GOLDEN}
    assert FAMILY, "no talon-family rule set is registered"
    for name in FAMILY:
        assert name in variants, f"{name} has no golden records in tests/data/"


@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.name}/{p.stem}" for p in GOLDEN])
def test_a_golden_record_replays_to_its_known_result(path: Path) -> None:
    doc = load(path)
    record = doc["record"]
    assert record["rules"]["variant"] == path.parent.name
    result = engine.settle(record)
    fields = (*FIELDS, *(k for k in ("refe", "refe_written") if k in doc["expect"]))
    assert {k: result[k] for k in fields} == doc["expect"]
    before = record.get("pot", 0)
    after = result["pot"] if result["pot"] is not None else 0
    assert sum(result["delta"].values()) + after - before == 0


@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.name}/{p.stem}" for p in GOLDEN])
def test_a_golden_record_is_finished_and_written_back_unchanged(path: Path) -> None:
    record = load(path)["record"]
    state = engine.replay(record)
    assert state.is_over
    assert engine.legal_actions(state) == []
    assert engine.to_record(state) == record
    assert engine.settle(engine.sheet_entry(state)) == engine.settle(record)
