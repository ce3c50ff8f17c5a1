"""``python -m engine`` on ``preferans`` records (``spec/next/preferans.md`` §13): ``rules`` lists
it, ``settle`` takes every form, ``legal`` answers whole actions (the passer as ``to_act`` in
open play), ``play`` deals a committed deck and ``verify`` checks it."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

from engine.__main__ import main
from tests.engine.preferans_helpers import EXAMPLE_13, SOCHI, calls, record

DATA = Path(__file__).resolve().parent.parent / "data" / "preferans"


def run(*args: str) -> tuple[int, Any]:
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(list(args))
    return status, json.loads(out.getvalue())


def write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_rules_lists_preferans_with_its_options_and_defaults() -> None:
    status, out = run("rules")
    assert status == 0
    (pref,) = [r for r in out["rule_sets"] if r["variant"] == "preferans"]
    assert pref["unit"] == "points" and pref["carry"] == [] and pref["players"] == 3
    options = {o["name"]: o for o in pref["options"]}
    assert options["convention"]["default"] == "sochi"
    assert options["pool_target"]["required"] is True
    assert options["hold"]["default"] == "senior"
    assert [a["key"] for a in pref["actions"]] == [
        "call",
        "discard",
        "declare",
        "whist",
        "mode",
        "card",
    ]
    assert pref["example"] == SOCHI


def test_settle_a_golden_full_record(tmp_path: Path) -> None:
    doc = json.loads((DATA / "deal-open-play.json").read_text(encoding="utf-8"))
    assert run("settle", write(tmp_path, doc["record"])) == (0, doc["expect"])


def test_settle_a_score_sheet_entry_and_a_bare_sheet(tmp_path: Path) -> None:
    entry = {
        "rules": SOCHI,
        "seats": ["anna", "bert", "carl"],
        "dealer": "carl",
        "game": {"type": "contract", "level": 7, "strain": "H"},
        "declarer": "anna",
        "defence": {"bert": "whist", "carl": "pass"},
        "mode": "closed",
        "tricks": {"anna": 5, "bert": 3, "carl": 2},
    }
    status, out = run("settle", write(tmp_path, entry))
    assert status == 0 and out["made"] is False
    assert out["entry"]["whists"] == {"bert": {"anna": 28}, "carl": {"anna": 8}}  # §13 Result
    bare = {"rules": SOCHI, "seats": ["anna", "bert", "carl"], "sheet": out["entry"]}
    status, settled = run("settle", write(tmp_path, bare))
    assert status == 0 and sum(settled["result"].values()) == 0


def test_legal_answers_whole_actions(tmp_path: Path) -> None:
    status, out = run("legal", write(tmp_path, record(actions=calls("anna 6S"))))
    assert status == 0
    assert out == {
        "to_act": "bert",
        "legal": [
            {"seat": "bert", "call": "pass"},
            {"seat": "bert", "call": "6C"},
            {"seat": "bert", "call": "misere"},
        ],
    }


def test_legal_in_open_play_names_the_passer_whose_card_is_due(tmp_path: Path) -> None:
    """§13: ``legal`` on an open-play deal answers the passer as ``to_act``; the whister
    sends the card."""
    status, out = run("legal", write(tmp_path, record(actions=EXAMPLE_13[:-1])))
    assert status == 0
    assert out == {
        "to_act": "carl",
        "legal": [{"seat": "carl", "card": "H8"}, {"seat": "carl", "card": "H9"}],
    }


def test_legal_on_a_finished_deal(tmp_path: Path) -> None:
    doc = json.loads((DATA / "deal-misere.json").read_text(encoding="utf-8"))
    assert run("legal", write(tmp_path, doc["record"])) == (0, {"to_act": None, "legal": []})


def test_play_and_verify(tmp_path: Path) -> None:
    rules = json.dumps(SOCHI)
    for seats in ("anna,bert,carl", "anna,bert,carl,dora"):
        status, rec = run("play", "--seed", "3", "--rules", rules, "--seats", seats)
        assert status == 0 and "pot" not in rec
        assert rec["deal"]["talon"] == rec["proof"]["deck"][6:8]
        status, answer = run("verify", write(tmp_path, rec))
        assert status == 0 and answer["verified"] is True
        assert run("settle", write(tmp_path, rec)) == (0, answer["result"])


def test_errors_name_the_action(tmp_path: Path) -> None:
    actions = [
        *calls("anna 6S", "bert pass", "carl pass"),
        {"seat": "anna", "discard": ["C7", "D8"]},
        {"seat": "anna", "declare": {"type": "contract", "level": 7, "strain": "H"}},
        {"seat": "bert", "whist": "whist"},
        {"seat": "carl", "whist": "half"},
    ]
    status, out = run("settle", write(tmp_path, record(actions=actions)))
    assert status == 1
    assert out == {
        "error": {
            "at": "actions[6]",
            "message": "carl cannot call half (the first defender whisted)",
            "code": "preferans_half_first_whisted",
            "params": {"seat": "carl"},
        }
    }
