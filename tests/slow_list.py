"""The tests the inner loop (``make test-quick``) leaves out, marked ``slow`` by
``tests/conftest.py``; ``make test``, and so CI, runs every one of them.

Two kinds: the folders and files of :data:`SLOW_TESTS` (seconds each: fuzzing every operation,
the whole demo data, end-to-end runs through a real server or a generated client), and the test
functions of ``tests/slow_tests.txt`` (:data:`SLOW_FUNCTIONS`): those one of whose cases' call
took over :data:`THRESHOLD` seconds on a quiet two-core machine, or whose cases took that
long each on average, set-up and tear-down included (:func:`slow_functions`). ``make
slow-list`` writes that file again: it times the inner loop's tests with the file ignored
(``SLOW_LIST=ignore``) and pipes pytest's ``--durations`` lines through this module
(``python -m tests.slow_list``). The list changes no test's outcome, only whether the
inner loop runs it, so a slower or faster machine that writes it again moves tests between the
inner loop and the full run, nothing else.

Imports nothing of Django, so the generator runs without settings.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path

#: Folders and files whose tests take seconds each.
SLOW_TESTS = (
    "tests/clients/",
    "tests/clubs/test_demo_data.py",
    "tests/clubs/test_demo_data_log.py",
    "tests/config/test_no_server_errors.py",
    "tests/config/test_schemathesis.py",
    "tests/live/",
    "tests/tournaments/test_lifecycle_api.py",
    "tests/tournaments/test_printable.py",
)

#: Seconds a phase of a test may take and stay in the inner loop.
THRESHOLD = 0.3

LIST = Path(__file__).parent / "slow_tests.txt"


def listed() -> frozenset[str]:
    """The test functions ``tests/slow_tests.txt`` lists."""
    lines = LIST.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


SLOW_FUNCTIONS = frozenset() if os.environ.get("SLOW_LIST") == "ignore" else listed()
"""The test functions the inner loop leaves out (none with ``SLOW_LIST=ignore``)."""

DURATION = re.compile(r"^(?P<seconds>[0-9.]+)s (?P<phase>setup|call|teardown)\s+(?P<nodeid>\S.*)$")

HEADER = f"""\
# Test functions `make test-quick` leaves out (marked `slow` by tests/conftest.py): a call of
# one of their cases took over {THRESHOLD} s on a quiet two-core machine, or their cases did on
# average. `make test` and CI run them. Written by `make slow-list` (tests/slow_list.py); do not
# edit by hand.
"""


def function_of(nodeid: str) -> str:
    """``file::function`` of a test id, without its parameters or xdist group."""
    return nodeid.split("@", 1)[0].split("[", 1)[0]


def is_slow(nodeid: str) -> bool:
    """Whether the inner loop leaves the test ``nodeid`` out."""
    return nodeid.startswith(SLOW_TESTS) or function_of(nodeid) in SLOW_FUNCTIONS


def slow_functions(lines: Iterable[str]) -> list[str]:
    """The test functions of pytest's ``--durations`` ``lines`` (every phase of every test:
    ``--durations=0 --durations-min=0``), outside :data:`SLOW_TESTS`, sorted, that are slow:
    a case's call over :data:`THRESHOLD`, or over it a case on average (set-up, call and
    tear-down). A set-up shared by many cases (a world built once per module, the test
    database built for a worker's first test) is paid by whichever case comes first: it
    makes a function slow only when its cases together take that long each."""
    seconds: dict[str, float] = {}
    cases: dict[str, set[str]] = {}
    slow_call = set()
    for line in lines:
        match = DURATION.match(line.strip())
        if match is None:
            continue
        name = function_of(match["nodeid"])
        if name.startswith(SLOW_TESTS):
            continue
        took = float(match["seconds"])
        seconds[name] = seconds.get(name, 0.0) + took
        cases.setdefault(name, set()).add(match["nodeid"])
        if match["phase"] == "call" and took > THRESHOLD:
            slow_call.add(name)
    return sorted(
        name
        for name in seconds
        if name in slow_call or seconds[name] / len(cases[name]) > THRESHOLD
    )


def main() -> None:
    """Read ``--durations`` lines on standard input, write the list on standard output."""
    sys.stdout.write(HEADER + "".join(f"{name}\n" for name in slow_functions(sys.stdin)))


if __name__ == "__main__":
    main()
