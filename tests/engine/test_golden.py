"""Golden records (tests/data/*.json): full deals played move by move, each replayed to the
Result worked out by hand from spec/wien.md (the arithmetic is in each file's description).

Each file is ``{"description", "record", "expect"}``; ``expect`` holds the Result fields
``stake declarer game made fallen tricks delta pot``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine
from tests.engine.helpers import check_balance

DATA = Path(__file__).resolve().parent.parent / "data"
GOLDEN = sorted(p for p in DATA.glob("*.json") if not p.name.endswith(".result.json"))
FIELDS = ("stake", "declarer", "game", "made", "fallen", "tricks", "delta", "pot")


def load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def test_there_are_golden_records() -> None:
    assert len(GOLDEN) >= 6


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_golden_record_replays_to_its_known_result(path: Path) -> None:
    doc = load(path)
    result = engine.settle(doc["record"])
    assert {k: result[k] for k in FIELDS} == doc["expect"]
    check_balance(result, doc["record"]["pot"])


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_golden_record_is_finished_and_written_back_unchanged(path: Path) -> None:
    record = load(path)["record"]
    state = engine.replay(record)
    assert state.is_over
    assert engine.legal_actions(state) == []
    assert engine.to_record(state) == record


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_golden_record_settles_like_its_score_sheet_entry(path: Path) -> None:
    record = load(path)["record"]
    sheet = engine.sheet_entry(engine.replay(record))
    assert engine.settle(sheet) == engine.settle(record)


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_every_prefix_of_a_golden_record_is_a_hand_in_progress(path: Path) -> None:
    record = load(path)["record"]
    actions = record["actions"]
    for i in range(len(actions)):
        state = engine.replay({**record, "actions": actions[:i]})
        assert not state.is_over
        expected = {k: v for k, v in actions[i].items() if k != "seat"}
        assert state.to_act_seat == actions[i]["seat"]
        legal = [
            engine.action_to_json(a, engine.PIQUET, seat=False) for a in engine.legal_actions(state)
        ]
        if "discard" in expected:  # any two of the twelve, in card order
            expected = {"discard": sorted(expected["discard"], key=engine.PIQUET.parse)}
        assert expected in legal
