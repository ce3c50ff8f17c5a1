"""The tests the inner loop (``make test-quick``) leaves out, marked ``slow`` by
``tests/conftest.py``; ``make test``, and so CI, runs every one of them.

Two kinds: the folders and files of :data:`SLOW_TESTS` (seconds each: fuzzing every operation,
the whole demo data, end-to-end runs through a real server or a generated client), and the test
functions of ``tests/slow_tests.txt`` (:data:`SLOW_FUNCTIONS`): those one of whose cases took
over :data:`THRESHOLD` seconds in a phase (setup, call or teardown) on a quiet two-core
machine. ``make slow-list`` writes that file again: it times the inner loop's tests with the
file ignored (``SLOW_LIST=ignore``) and pipes pytest's ``--durations`` lines through this
module (``python -m tests.slow_list``). The list changes no test's outcome, only whether the
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

DURATION = re.compile(r"^(?P<seconds>[0-9.]+)s (?:setup|call|teardown)\s+(?P<nodeid>\S+)")

HEADER = f"""\
# Test functions `make test-quick` leaves out (marked `slow` by tests/conftest.py): one of
# their cases took over {THRESHOLD} s in a phase on a quiet two-core machine. `make test` and CI
# run them. Written by `make slow-list` (tests/slow_list.py); do not edit by hand.
"""


def function_of(nodeid: str) -> str:
    """``file::function`` of a test id, without its parameters or xdist group."""
    return nodeid.split("@", 1)[0].split("[", 1)[0]


def is_slow(nodeid: str) -> bool:
    """Whether the inner loop leaves the test ``nodeid`` out."""
    return nodeid.startswith(SLOW_TESTS) or function_of(nodeid) in SLOW_FUNCTIONS


def slow_functions(lines: Iterable[str]) -> list[str]:
    """The test functions of pytest's ``--durations`` ``lines`` with a phase over
    :data:`THRESHOLD`, outside :data:`SLOW_TESTS`, sorted."""
    found = set()
    for line in lines:
        match = DURATION.match(line.strip())
        if match is None or float(match["seconds"]) <= THRESHOLD:
            continue
        name = function_of(match["nodeid"])
        if not name.startswith(SLOW_TESTS):
            found.add(name)
    return sorted(found)


def main() -> None:
    """Read ``--durations`` lines on standard input, write the list on standard output."""
    sys.stdout.write(HEADER + "".join(f"{name}\n" for name in slow_functions(sys.stdin)))


if __name__ == "__main__":
    main()
