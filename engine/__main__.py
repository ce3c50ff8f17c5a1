"""Command line: ``python -m engine rules|settle|legal|play|solve|analyse|arena|verify``.

Every command reads JSON (a file or ``-`` for standard input) and prints JSON. A record may
also come as the API's answer to ``GET …/hands/{n}/record/`` (``{"mode", "number", "status",
"record", "result", "timeouts"}``), saved as it is: the commands read the record inside it. Bad
input exits with status 1 and prints ``{"error": {"at": ..., "message": ..., "code": ..., "params":
{...}}}`` (``EngineError.to_json``), never a traceback.
A reader that stops reading (``python -m engine rules | head``) ends the command quietly, with
status 1, as it ends any Unix tool. ``arena`` tells how far it got on standard error
(``arena: 120/500 deals``); standard output has its report alone.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import time
from typing import Any

from engine.bots.arena import arena
from engine.bots.random_bot import choose
from engine.errors import EngineError
from engine.messages import (
    CLI_CANNOT_READ,
    CLI_DEALS_TOO_FEW,
    CLI_JOBS_TOO_FEW,
    CLI_NOT_JSON,
    CLI_RULES_NOT_JSON,
    CLI_RULES_NOT_OBJECT,
    DEALER_NOT_A_SEAT,
)
from engine.play import apply, legal_actions
from engine.record import commitment, from_answer, replay, settle, to_record, verify
from engine.rules import parse_rules, rule_set, rule_sets
from engine.solver.analysis import analyse
from engine.solver.records import solve_state

DEFAULT_RULES = json.dumps(rule_sets()[0].examples[0])
"""The ``--rules`` of ``play`` and ``arena`` when none is given (a convenience of the command
line, spelled out in their ``--help``): the first example of the first registered rule set."""


def _read(path: str) -> Any:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise CLI_CANNOT_READ.error("", path=path, reason=e.strerror) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise CLI_NOT_JSON.error("", reason=e.msg, line=e.lineno, column=e.colno) from None


def cmd_rules(args: argparse.Namespace) -> Any:
    return {"rule_sets": [rs.describe() for rs in rule_sets(include_engine_only=True)]}


def cmd_settle(args: argparse.Namespace) -> Any:
    return settle(from_answer(_read(args.file)))


def cmd_legal(args: argparse.Namespace) -> Any:
    state = replay(from_answer(_read(args.file)))
    return rule_set(state.rules.variant).legal_answer(state)


DEFAULT_SEATS = ("anna", "bert", "carl", "dora")
"""The seats of ``play`` when none are given: the first as many as the table seats."""


def _rules_option(text: str) -> Any:
    """The ``--rules`` option: a JSON rules object (checked by its rule set)."""
    try:
        rules_json = json.loads(text)
    except json.JSONDecodeError as e:
        raise CLI_RULES_NOT_JSON.error("rules", reason=e.msg) from None
    if not isinstance(rules_json, dict):
        raise CLI_RULES_NOT_OBJECT.error("rules")
    parse_rules(rules_json)
    return rules_json


def cmd_play(args: argparse.Namespace) -> Any:
    rules = parse_rules(_rules_option(args.rules))
    rs = rule_set(rules.variant)
    names = args.seats or ",".join(DEFAULT_SEATS[: rs.table.seats[0]])
    seats = [s for s in names.split(",") if s]
    dealer = args.dealer or seats[-1]
    rng = random.Random(args.seed)
    order, salt = rs.shuffled_deck(rng)
    if dealer not in seats:
        raise DEALER_NOT_A_SEAT.error("dealer", dealer=repr(dealer))
    active = rs.active_seats(seats, dealer)
    carry = rs.read_carry(dict.fromkeys(rs.carry.keys, args.pot))  # the pot, or the Kasse
    state = rs.start_hand(rules, seats, dealer, carry, rs.deal_from_deck(order, active))
    while legal_actions(state):
        state = apply(state, choose(state, rng))
    proof = {"commitment": commitment(salt, order), "salt": salt, "deck": order}
    return to_record(state, proof)


def cmd_solve(args: argparse.Namespace) -> Any:
    return solve_state(replay(from_answer(_read(args.file))))


def cmd_analyse(args: argparse.Namespace) -> Any:
    return analyse(from_answer(_read(args.file)))


def cmd_arena(args: argparse.Namespace) -> Any:
    rules = _rules_option(args.rules)
    if args.deals < 1:
        raise CLI_DEALS_TOO_FEW.error("deals")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.jobs < 1:
        raise CLI_JOBS_TOO_FEW.error("jobs")
    return arena(rules, bots, args.deals, args.seed, args.jobs, ArenaProgress(args.deals))


class ArenaProgress:
    """``arena: 120/500 deals`` on standard error: when another twentieth of the deals is
    played, when ten seconds passed since the last line, and after the last deal."""

    STEPS = 20
    QUIET_SECONDS = 10.0

    def __init__(self, total: int) -> None:
        self.total = total
        self.shown = 0
        self.at = time.monotonic()

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        step = done * self.STEPS // self.total
        if (
            done == self.total
            or step > self.shown * self.STEPS // self.total
            or now - self.at >= self.QUIET_SECONDS
        ):
            self.shown, self.at = done, now
            with contextlib.suppress(BrokenPipeError):  # nobody reads stderr: play on in silence
                print(f"arena: {done}/{self.total} deals", file=sys.stderr, flush=True)


def cmd_verify(args: argparse.Namespace) -> Any:
    return verify(from_answer(_read(args.file), dealt=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Card-game rules engine (rule sets: "
        f"{', '.join(rs.name for rs in rule_sets(include_engine_only=True))}).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser(
        "rules", help="list the rule sets with their options, defaults and a one-line description"
    )
    p.set_defaults(run=cmd_rules)
    p = sub.add_parser("settle", help="print the Result of a score-sheet entry or finished record")
    p.add_argument("file", help="JSON file, or - for standard input")
    p.set_defaults(run=cmd_settle)
    p = sub.add_parser("legal", help="print who is to act and their legal actions")
    p.add_argument("file", help="JSON file (a full record in progress), or - for standard input")
    p.set_defaults(run=cmd_legal)
    p = sub.add_parser(
        "play",
        help="deal and play a whole hand with random legal moves; print the full record",
    )
    p.add_argument("--seed", type=int, required=True, help="random seed (deal and moves)")
    p.add_argument(
        "--rules", default=DEFAULT_RULES, help=f"rules object as JSON (default: {DEFAULT_RULES})"
    )
    p.add_argument(
        "--seats",
        default="",
        help="seats in playing order, comma-separated (default: as many of "
        f"{','.join(DEFAULT_SEATS)} as the rule set's smallest table seats)",
    )
    p.add_argument("--dealer", default="", help="the dealer (default: the last seat)")
    p.add_argument(
        "--pot",
        type=int,
        default=0,
        help="pot before the dealer's contribution (Doppelkopf: the Kasse), in cents (default: 0)",
    )
    p.set_defaults(run=cmd_play)
    p = sub.add_parser(
        "solve",
        help="print the declarer's tricks under best play from a record that stops in card play,"
        " and every card of the player to move that achieves them",
    )
    p.add_argument("file", help="JSON file (a full record in card play), or - for standard input")
    p.set_defaults(run=cmd_solve)
    p = sub.add_parser(
        "analyse",
        help="a finished hand's double-dummy analysis: the deal's result under best play and"
        " the tricks each card played gave away",
    )
    p.add_argument("file", help="JSON file (a finished full record), or - for standard input")
    p.set_defaults(run=cmd_analyse)
    p = sub.add_parser(
        "arena",
        help="play bots against each other on duplicate deals (every deal in every seating);"
        " print each bot's mean money per deal and the differences, with 95%% intervals",
    )
    p.add_argument(
        "--bots", required=True, help="one bot level per seat, e.g. pimc,heuristic,random"
    )
    p.add_argument("--deals", type=int, required=True, help="duplicate deals to play")
    p.add_argument("--seed", type=int, required=True, help="random seed (deals and bots)")
    p.add_argument(
        "--rules", default=DEFAULT_RULES, help=f"rules object as JSON (default: {DEFAULT_RULES})"
    )
    p.add_argument("--jobs", type=int, default=1, help="processes to play in (default: 1)")
    p.set_defaults(run=cmd_arena)
    p = sub.add_parser("verify", help="check a finished hosted hand's deal against its commitment")
    p.add_argument(
        "file",
        help="JSON file (a full record with its proof, or the answer of GET …/hands/{n}/record/),"
        " or - for standard input",
    )
    p.set_defaults(run=cmd_verify)
    args = parser.parse_args(argv)
    try:
        result = args.run(args)
    except EngineError as e:
        print(json.dumps({"error": e.to_json()}))
        return 1
    print(json.dumps(result, indent=1))
    return 0


def run() -> int:
    """:func:`main` as a process: when the reader of standard output goes away (``| head``),
    stop quietly with status 1, as Unix tools do (the Python documentation's recipe for
    SIGPIPE: nothing more can be said, so point standard output at the null device, which
    also keeps Python's own flush at exit from failing)."""
    try:
        status = main()
        sys.stdout.flush()  # the answer may still wait in the buffer for a reader
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
