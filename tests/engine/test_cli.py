"""``python -m engine``: settle, legal, play, verify; and the error contract (exit status 1,
exactly one JSON object ``{"error": {"at", "message", "code", "params"}}`` on stdout, nothing on
stderr; ``code`` and ``params`` where the refusal has a message code).

The commands run in this process (``engine.__main__.main`` with its standard streams
captured), a tenth of a second less each than a fresh interpreter; a real ``python -m
engine`` process answers every kind of call the same (exit status, stdout, stderr), which
:func:`test_a_real_process_answers_as_the_command_does_here` checks."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.__main__ import main
from engine.errors import MESSAGES
from tests.engine.helpers import (
    DEAL,
    TALON,
    calls,
    record,
    sheet,
    suit,
    suit_game_actions,
)

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "herz-invitation-fails.json"


def run_process(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m engine *args`` in a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m engine *args`` as :func:`run_process` answers it, run in this process: its
    exit status (``main``'s answer, or argparse's exit), standard output and error."""
    out, err = io.StringIO(), io.StringIO()
    stdin_before = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                status = main(list(args))
            except SystemExit as e:  # argparse: --help, or arguments it refuses
                status = e.code if isinstance(e.code, int) else 1
    finally:
        sys.stdin = stdin_before
    return subprocess.CompletedProcess(
        ["python", "-m", "engine", *args], status, out.getvalue(), err.getvalue()
    )


def ok(*args: str, stdin: str | None = None) -> Any:
    proc = run(*args, stdin=stdin)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr == ""
    return json.loads(proc.stdout)


def error(*args: str, stdin: str | None = None) -> dict[str, str]:
    """The error object of a failing run, checking the whole contract."""
    proc = run(*args, stdin=stdin)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stderr == ""  # never a traceback
    out = json.loads(proc.stdout)  # exactly one JSON document
    assert set(out) == {"error"}
    assert set(out["error"]) in ({"at", "message"}, {"at", "message", "code", "params"})
    assert isinstance(out["error"]["message"], str) and out["error"]["message"]
    if "code" in out["error"]:  # the refusal's message (``engine.errors.Message``)
        message = MESSAGES[out["error"]["code"]]
        assert message.text(**out["error"]["params"]) == out["error"]["message"]
    err: dict[str, str] = out["error"]
    return err


def write(tmp_path: Path, data: Any, name: str = "in.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


# --- the program -----------------------------------------------------------------------------


def test_a_real_process_answers_as_the_command_does_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the tests below see of ``main`` here, ``python -m engine`` prints and exits
    with: an answer, an error (exit status 1, nothing on stderr), standard input, a played
    hand, help, and arguments argparse refuses."""
    monkeypatch.setenv("COLUMNS", "80")  # argparse's line width, here as in the process
    golden = str(GOLDEN)
    calls: list[tuple[tuple[str, ...], str | None]] = [
        (("settle", golden), None),
        (("legal", golden), None),
        (("settle", "-"), json.dumps(sheet(suit("D"), {}, defence={"bert": "home"}))),
        (("legal", write(tmp_path, '{"rules": ')), None),
        (("settle", str(tmp_path / "nope.json")), None),
        (("play", "--seed", "3"), None),
        (("play", "--seed", "1", "--dealer", "zoe"), None),
        (("play", "--help"), None),
        (("play",), None),
    ]
    for args, stdin in calls:
        here, there = run(*args, stdin=stdin), run_process(*args, stdin=stdin)
        assert (here.returncode, here.stdout, here.stderr) == (
            there.returncode,
            there.stdout,
            there.stderr,
        ), args


# --- settle ---------------------------------------------------------------------------------


def test_settle_prints_the_result_of_a_score_sheet_entry(tmp_path: Path) -> None:
    entry = sheet(suit("D"), {"anna": 6, "bert": 4}, defence={"bert": "play", "carl": "home"})
    result = ok("settle", write(tmp_path, entry))
    # hand-record.md's example: S = 300, anna +300 - 4*30, bert +120, carl -G
    assert result["delta"] == {"anna": 180, "bert": 120, "carl": -100}
    assert result["pot"] == 0
    assert result == engine.settle(entry)


def test_settle_reads_standard_input() -> None:
    entry = sheet(suit("D"), {}, defence={"bert": "home", "carl": "home"})
    assert ok("settle", "-", stdin=json.dumps(entry))["delta"]["anna"] == 300


def test_settle_prints_the_result_of_a_full_record(tmp_path: Path) -> None:
    doc = json.loads(GOLDEN.read_text(encoding="utf-8"))
    result = ok("settle", write(tmp_path, doc["record"]))
    assert result["delta"] == doc["expect"]["delta"]
    assert result["fallen"] == doc["expect"]["fallen"]


def test_settle_refuses_an_unfinished_hand(tmp_path: Path) -> None:
    err = error("settle", write(tmp_path, record(DEAL, TALON, actions=calls("anna 1"))))
    assert err["at"] == "actions"
    assert "not finished" in err["message"]


# --- legal ----------------------------------------------------------------------------------


def test_legal_names_who_is_to_act_and_what_they_may_do(tmp_path: Path) -> None:
    out = ok("legal", write(tmp_path, record(DEAL, TALON, actions=calls("anna 1"))))
    assert out["to_act"] == "bert"
    assert out["legal"] == [
        {"call": c}
        for c in ("pass", "2", "geschaeft", "herz", "5", "5h", "6", "6h", "7", "7h", "8", "8h")
    ]


def test_legal_in_the_defence(tmp_path: Path) -> None:
    rec = record(DEAL, TALON, pot=0, actions=suit_game_actions(TALON, "D")[:5])
    assert ok("legal", write(tmp_path, rec)) == {"to_act": "bert", "legal": [{"defence": "play"}]}


def test_legal_on_a_finished_hand_is_empty(tmp_path: Path) -> None:
    rec = json.loads(GOLDEN.read_text(encoding="utf-8"))["record"]
    assert ok("legal", write(tmp_path, rec)) == {"to_act": None, "legal": []}


# --- play and verify ------------------------------------------------------------------------


def test_play_is_deterministic_for_a_seed() -> None:
    first = run("play", "--seed", "11")
    again = run("play", "--seed", "11")
    other = run("play", "--seed", "12")
    assert first.returncode == 0 and first.stderr == ""
    assert first.stdout == again.stdout
    assert first.stdout != other.stdout


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_play_prints_a_finished_record_that_replays_settles_and_verifies(
    tmp_path: Path, seed: int
) -> None:
    rec = ok("play", "--seed", str(seed), "--pot", "200")
    assert rec["pot"] == 200 and rec["dealer"] == "carl"
    state = engine.replay(rec)
    assert state.is_over
    result = engine.settle(rec)
    assert sum(result["delta"].values()) + result["pot"] - 200 == 0
    path = write(tmp_path, rec)
    assert ok("settle", path) == result
    assert ok("legal", path) == {"to_act": None, "legal": []}
    verified = ok("verify", path)
    assert verified["verified"] is True
    assert verified["commitment"] == rec["proof"]["commitment"]


def test_play_with_four_seats_leaves_the_dealer_out(tmp_path: Path) -> None:
    rec = ok("play", "--seed", "5", "--seats", "anna,bert,carl,dora", "--dealer", "bert")
    assert set(rec["deal"]) == {"carl", "dora", "anna", "talon"}
    assert engine.settle(rec)["delta"]["bert"] == -100


def tampered(rec: dict[str, Any], how: str) -> dict[str, Any]:
    rec = json.loads(json.dumps(rec))
    proof = rec["proof"]
    if how == "deck":
        proof["deck"][0], proof["deck"][31] = proof["deck"][31], proof["deck"][0]
    elif how == "salt":
        proof["salt"] = ("0" if proof["salt"][0] != "0" else "1") + proof["salt"][1:]
    elif how == "deck-with-new-commitment":
        proof["deck"][0], proof["deck"][31] = proof["deck"][31], proof["deck"][0]
        proof["commitment"] = engine.commitment(proof["salt"], proof["deck"])
    return rec


@pytest.mark.parametrize(
    ("how", "at"),
    [
        ("deck", "proof.commitment"),
        ("salt", "proof.commitment"),
        ("deck-with-new-commitment", "deal."),  # the digest fits, the deal does not follow
    ],
)
def test_verify_fails_on_a_tampered_proof(tmp_path: Path, how: str, at: str) -> None:
    rec = ok("play", "--seed", "8")
    err = error("verify", write(tmp_path, tampered(rec, how)))
    assert err["at"].startswith(at)


def api_answer(rec: dict[str, Any], mode: str = "hosted") -> dict[str, Any]:
    """``rec`` as ``GET …/hands/{n}/record/`` answers it: the record inside, its result beside
    (tests/games/test_hosted_hands.py runs verify on the endpoint's own answer)."""
    plain = {k: v for k, v in rec.items() if k != "proof"}
    return {
        "mode": mode,
        "number": 1,
        "status": "done",
        "record": rec,
        "result": engine.settle(plain),
    }


def test_verify_settle_and_legal_read_the_record_endpoints_answer(tmp_path: Path) -> None:
    rec = ok("play", "--seed", "4")
    path = write(tmp_path, api_answer(rec))
    assert ok("verify", path) == {
        "verified": True,
        "commitment": rec["proof"]["commitment"],
        "result": engine.settle(rec),
    }
    assert ok("settle", path) == engine.settle(rec)
    assert ok("legal", path) == {"to_act": None, "legal": []}


def test_verify_on_the_endpoints_answer_still_catches_a_tampered_proof(tmp_path: Path) -> None:
    rec = ok("play", "--seed", "8")
    err = error("verify", write(tmp_path, api_answer(tampered(rec, "deck"))))
    assert err["at"] == "proof.commitment"


def test_verify_says_a_recorded_hand_has_no_deal(tmp_path: Path) -> None:
    entry = sheet(suit("D"), {}, defence={"bert": "home", "carl": "home"})
    answer = {"mode": "recorded", "number": 1, "status": "done", "record": entry, "result": {}}
    err = error("verify", write(tmp_path, answer))
    assert err["at"] == "mode"
    assert "no deal to verify" in err["message"]


def test_help_shows_the_defaults() -> None:
    proc = run("play", "--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "anna,bert,carl" in text
    assert "(default: 0)" in text  # the pot
    assert '"dealer_contribution": 100' in text and '"pot_cap": 300' in text
    top = run("--help")
    assert top.returncode == 0
    for command in ("settle", "legal", "play", "verify"):
        assert command in top.stdout


# --- the error contract ---------------------------------------------------------------------


def test_malformed_json_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    err = error("settle", write(tmp_path, '{"rules": '))
    assert "not valid JSON" in err["message"]
    assert error("legal", "-", stdin="[1, 2,")["message"].startswith("not valid JSON")


def test_a_missing_file_is_an_error(tmp_path: Path) -> None:
    assert "cannot read" in error("settle", str(tmp_path / "nope.json"))["message"]


def test_a_record_that_is_not_an_object_is_an_error(tmp_path: Path) -> None:
    error("settle", write(tmp_path, [1, 2, 3]))


def test_wrong_card_counts_name_the_hand(tmp_path: Path) -> None:
    rec = record(DEAL, TALON)
    rec["deal"]["anna"] = rec["deal"]["anna"][:9]
    rec["deal"]["talon"].append(DEAL["anna"].split()[9])
    assert error("legal", write(tmp_path, rec))["at"] == "deal.anna"


def test_an_unknown_rules_option_is_an_error(tmp_path: Path) -> None:
    rec = record(DEAL, TALON)
    rec["rules"]["speed"] = "fast"
    assert error("legal", write(tmp_path, rec))["at"] == "rules.speed"


def test_play_with_a_dealer_who_is_not_seated_is_an_error() -> None:
    assert error("play", "--seed", "1", "--dealer", "zoe")["at"] == "dealer"


def test_play_with_invalid_rules_is_an_error() -> None:
    assert error("play", "--seed", "1", "--rules", "{bad")["at"] == "rules"
    rules = json.dumps({"variant": "wien", "dealer_contribution": 100, "pot_cap": 150})
    assert error("play", "--seed", "1", "--rules", rules)["at"] == "rules.pot_cap"


D_GAME = suit_game_actions(TALON, "D")
LOOKING = [
    *calls("anna 1", "bert 2", "carl pass", "anna hold", "bert pass"),
    {"seat": "anna", "discard": ["D7", "S7"]},
    {"seat": "anna", "declare": {"type": "suit", "level": "D"}},
]
ALONE = suit_game_actions(TALON, "D", ("play", "home"), "alone")

ILLEGAL: list[tuple[str, list[dict[str, Any]], dict[str, Any], str]] = [
    # (phase, actions before, the illegal action, words the message must contain)
    ("auction", [], {"seat": "anna", "call": "2"}, "next number bid is 1"),
    ("auction-turn", [], {"seat": "bert", "call": "pass"}, "anna's turn"),
    ("auction-hold", calls("anna 1"), {"seat": "bert", "call": "hold"}, "only the holder"),
    (
        "auction-first-call",
        calls("anna 1", "bert 2", "carl pass"),
        {"seat": "anna", "call": "herz"},
        "first call",
    ),
    ("auction-unknown-seat", [], {"seat": "zoe", "call": "pass"}, "no seat named 'zoe'"),
    ("auction-unknown-call", [], {"seat": "anna", "call": "9"}, "not a call"),
    (
        "geschaeft",
        calls("anna geschaeft", "bert geschaeft", "carl pass"),
        {"seat": "anna", "geschaeft_suit": "pass"},
        "name the Geschäft suit",
    ),
    (
        "geschaeft-lower",
        [
            *calls("anna geschaeft", "bert geschaeft", "carl pass"),
            {"seat": "anna", "geschaeft_suit": "D"},
        ],
        {"seat": "bert", "geschaeft_suit": "S"},
        "pass",
    ),
    (
        "talon",
        calls("anna 1", "bert pass", "carl pass"),
        {"seat": "anna", "discard": ["HA", "D7"]},
        "must discard two cards from the hand",
    ),
    (
        "talon-three-cards",
        calls("anna 1", "bert pass", "carl pass"),
        {"seat": "anna", "discard": ["DA", "DK", "D7"]},
        "exactly two cards",
    ),
    (
        "declare",
        [
            *calls("anna 1", "bert 2", "carl pass", "anna hold", "bert pass"),
            {"seat": "anna", "discard": ["D7", "S7"]},
        ],
        {"seat": "anna", "declare": {"type": "suit", "level": "C"}},
        "declare the game",
    ),
    (
        "declare-shape",
        D_GAME[:4],
        {"seat": "anna", "declare": {"type": "suit", "level": 9}},
        "is not a game",
    ),
    ("look", LOOKING, {"seat": "carl", "look": True}, "bert's turn"),
    ("look-shape", LOOKING, {"seat": "bert", "look": "yes"}, "true or false"),
    ("defence", D_GAME[:5], {"seat": "bert", "defence": "invite"}, "choose play or home"),
    (
        "invite",
        [*D_GAME[:5], {"seat": "bert", "defence": "play"}, {"seat": "carl", "defence": "home"}],
        {"seat": "bert", "defence": "play"},
        "invite the other defender or play alone",
    ),
    ("play-turn", D_GAME, {"seat": "bert", "card": "CK"}, "anna's turn"),
    (
        "play-follow",
        [*D_GAME, {"seat": "anna", "card": "SA"}],
        {"seat": "bert", "card": "CK"},
        "must follow suit S",
    ),
    ("play-not-held", D_GAME, {"seat": "anna", "card": "HA"}, "does not hold HA"),
    ("play-not-a-card", D_GAME, {"seat": "anna", "card": "ZZ"}, "not a card"),
    (
        "negotiation",
        ALONE,
        {"seat": "anna", "negotiate": {"declarer": 5, "defender": 5}},
        "2 to 4 tricks",
    ),
    (
        "negotiation-both-play",
        D_GAME,
        {"seat": "anna", "negotiate": {"declarer": 7, "defender": 3}},
        "no proposal",
    ),
    (
        "negotiation-answer",
        [*ALONE, {"seat": "anna", "negotiate": {"declarer": 7, "defender": 3}}],
        {"seat": "bert", "card": "CK"},
        "answer the proposed split",
    ),
    ("two-keys", [], {"seat": "anna", "call": "1", "card": "DA"}, "exactly one of"),
]


@pytest.mark.parametrize(("phase", "before", "bad", "words"), ILLEGAL, ids=[i[0] for i in ILLEGAL])
def test_an_illegal_action_is_an_error_naming_its_index(
    tmp_path: Path, phase: str, before: list[dict[str, Any]], bad: dict[str, Any], words: str
) -> None:
    rec = record(DEAL, TALON, actions=before)
    engine.replay(rec)  # the actions before are legal
    rec["actions"].append(bad)
    rec["actions"].append({"seat": "anna", "call": "pass"})  # never reached
    for command in ("legal", "settle", "verify"):
        err = error(command, write(tmp_path, rec))
        # actions[i], or a part of it such as actions[i].card
        assert err["at"].split(".")[0] == f"actions[{len(before)}]"
        assert words in err["message"]


def test_home_when_both_must_play_is_an_error(tmp_path: Path) -> None:
    rec = record(DEAL, TALON, pot=0, actions=[*D_GAME[:5], {"seat": "bert", "defence": "home"}])
    err = error("legal", write(tmp_path, rec))
    assert err["at"] == "actions[5]"
    assert "both defenders must play" in err["message"]


def test_an_action_after_the_end_of_the_hand_is_an_error(tmp_path: Path) -> None:
    rec = json.loads(GOLDEN.read_text(encoding="utf-8"))["record"]
    n = len(rec["actions"])
    rec["actions"].append({"seat": "anna", "card": "HA"})
    err = error("settle", write(tmp_path, rec))
    assert err["at"] == f"actions[{n}]"
    assert "the hand is over" in err["message"]
