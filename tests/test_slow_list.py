"""The inner loop's list of slow tests (``tests/slow_list.py``, ``tests/slow_tests.txt``)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.slow_list import LIST, SLOW_FUNCTIONS, THRESHOLD, is_slow, listed, slow_functions

ROOT = Path(__file__).resolve().parent.parent


def test_it_lists_each_function_with_a_phase_over_the_threshold_once() -> None:
    lines = [
        f"{THRESHOLD + 0.5:.2f}s call     tests/games/test_x.py::test_a[wien]",
        f"{THRESHOLD + 0.1:.2f}s setup    tests/games/test_x.py::test_a[kurz]",
        f"{THRESHOLD:.2f}s call     tests/games/test_x.py::test_b",
        f"{THRESHOLD + 1:.2f}s teardown tests/games/test_x.py::test_c@world",
        "9.00s call     tests/config/test_schemathesis.py::test_every_operation[tables]",
        "============ 12 passed in 3.00s ============",
    ]
    assert slow_functions(lines) == [
        "tests/games/test_x.py::test_a",
        "tests/games/test_x.py::test_c",
    ]


def test_a_set_up_shared_by_many_cases_does_not_make_their_function_slow() -> None:
    """A module's world (or a worker's test database) is built in the set-up of whichever case
    comes first; the function is slow only if its cases take the threshold each on average."""
    # the ids of a matrix's cases have spaces
    fast = [f"0.01s call     tests/games/test_x.py::test_matrix[get /x/ -{n}]" for n in range(99)]
    lines = [
        f"{THRESHOLD * 10:.2f}s setup    tests/games/test_x.py::test_matrix[get /x/ -first]@w 1",
        *fast,
        *(f"{THRESHOLD + 0.1:.2f}s setup    tests/games/test_x.py::test_world[{n}]" for n in "ab"),
        "0.01s call     tests/games/test_x.py::test_world[a]",
        "0.01s call     tests/games/test_x.py::test_world[b]",
    ]
    assert slow_functions(lines) == ["tests/games/test_x.py::test_world"]


def test_every_listed_function_exists_and_is_left_out_in_every_case() -> None:
    assert listed(), f"{LIST} lists no test"
    for name in listed():
        path, *classes, function = name.split("::")  # a test class's method: path::Class::test
        source = (ROOT / path).read_text(encoding="utf-8")
        for test_class in classes:
            assert re.search(rf"^class {test_class}\b", source, re.M), f"{name} does not exist"
        indent = r"    " if classes else ""
        assert re.search(rf"^{indent}(async )?def {function}\(", source, re.M), (
            f"{name} does not exist"
        )
        if SLOW_FUNCTIONS:  # not while make slow-list times them all (SLOW_LIST=ignore)
            assert is_slow(f"{name}[some-case]") and is_slow(f"{name}@group") and is_slow(name)
    assert not is_slow("tests/games/test_x.py::test_not_listed")
