"""The CLI (``python -m engine play|settle|legal|verify|rules``) for every talon-family rule
set, in-process: a seeded hand is played, verified, settled, and its legal list read back
midway."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.__main__ import main
from engine.rules.family.ruleset import FamilyRuleSet

FAMILY = [rs for rs in engine.rule_sets() if isinstance(rs, FamilyRuleSet)]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code = main(list(argv))
    out = json.loads(capsys.readouterr().out)
    assert code == 0, out
    return out


@pytest.mark.parametrize("rs", FAMILY, ids=[rs.name for rs in FAMILY])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_play_verify_settle_and_legal(
    rs: FamilyRuleSet, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = json.dumps(rs.examples[0])
    record = run(capsys, "play", "--seed", str(seed), "--rules", rules, "--pot", "300")
    assert record["rules"]["variant"] == rs.name
    assert ("pot" in record) == ("pot" in rs.carry.keys)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    verified = run(capsys, "verify", str(path))
    assert verified["verified"] is True
    assert verified["result"] == run(capsys, "settle", str(path)) == engine.settle(record)
    assert run(capsys, "legal", str(path)) == {"to_act": None, "legal": []}
    half = {**record, "actions": record["actions"][: len(record["actions"]) // 2]}
    del half["proof"]
    path.write_text(json.dumps(half), encoding="utf-8")
    legal = run(capsys, "legal", str(path))
    state = engine.replay(half)
    assert legal["to_act"] == state.to_act_seat
    assert legal["legal"] == [
        engine.action_to_json(a, rs.deck, seat=False) for a in engine.legal_actions(state)
    ]


def test_rules_lists_every_rule_set_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    listed = {r["variant"]: r for r in run(capsys, "rules")["rule_sets"]}
    for rs in FAMILY:
        assert {o["name"] for o in listed[rs.name]["options"]} == {o.name for o in rs.options}
        assert listed[rs.name]["phases"][-1] == "done"


def test_a_bad_record_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({"rules": {"variant": "balkan", "unit": 1}, "seats": [], "dealer": "x"}),
        encoding="utf-8",
    )
    assert main(["settle", str(path)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["at"] == "pot" or error["at"].startswith("rules")
