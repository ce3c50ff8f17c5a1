"""Freed frame-stack memory kept for reuse (``config/arenas.py``, ``config/_arenas.c``).

CPython 3.11 maps a new chunk of frame stack when a call goes past the current chunk's end
and unmaps it when the call returns; a loop of deep calls (Django's request path) did that on
every call. With the project loaded, a call that goes just as deep again takes a kept chunk.
The counts are the helper's own: blocks mapped anew, handed out again, unmapped.

Where the helper is not built these tests skip, unless ``REQUIRE_NATIVE_SOLVER=1`` (CI) says
the compiled parts must be there (then they fail). ``KEEP_ARENAS=0`` turns it off.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from config import arenas

#: Deep enough to need several chunks of frame stack (a chunk holds some hundred such frames).
DEPTH = 400
TIMES = 200


def need_helper() -> None:
    if not arenas.available:
        why = "config._arenas is not built (pip install -e . with a C compiler)"
        if os.environ.get("REQUIRE_NATIVE_SOLVER") == "1":
            pytest.fail(f"REQUIRE_NATIVE_SOLVER=1 but {why}")
        pytest.skip(why)


def down(n: int) -> int:
    return 0 if n == 0 else 1 + down(n - 1)


def deep_calls(times: int = TIMES) -> int:
    return sum(down(DEPTH) for _ in range(times))


def test_repeated_deep_calls_reuse_the_kept_chunks_instead_of_mapping_new_ones() -> None:
    need_helper()
    deep_calls(1)  # the chunks this depth needs, mapped once
    mapped, reused, _ = arenas.counts()
    assert deep_calls() == DEPTH * TIMES
    mapped_after, reused_after, _ = arenas.counts()
    assert reused_after - reused >= TIMES  # each time at least one chunk came back
    assert mapped_after - mapped < TIMES // 10  # and almost none was mapped anew


def test_every_process_that_loads_the_project_keeps_them() -> None:
    need_helper()
    code = (
        "import config\n"
        "from config import arenas\n"
        "from tests.config.test_arenas import deep_calls\n"
        "before = arenas.counts()\n"
        "deep_calls()\n"
        "after = arenas.counts()\n"
        "print(after[0] - before[0], after[1] - before[1])\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    mapped, reused = map(int, done.stdout.split())
    assert reused >= TIMES
    assert mapped < TIMES // 10


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_worker_keeps_them_too() -> None:
    """Celery's prefork pool and gunicorn fork their workers from a loaded process."""
    need_helper()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no pytest from here on
        try:
            before = arenas.counts()
            ok = deep_calls() == DEPTH * TIMES
            after = arenas.counts()
            os.write(write, f"{int(ok)} {after[0] - before[0]} {after[1] - before[1]}".encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer:
        right, mapped, reused = map(int, answer.read().split())
    os.waitpid(pid, 0)
    assert right == 1
    assert reused >= TIMES
    assert mapped < TIMES // 10


def test_threads_that_start_call_deep_and_end_at_once_get_their_own_right_answers() -> None:
    """Threads ending free their chunks (sometimes without the GIL, which the helper allows
    for): many at once, each with its own answer."""
    need_helper()
    answers: dict[int, int] = {}

    def run(k: int) -> None:
        answers[k] = deep_calls(20) + k

    for _ in range(5):
        threads = [threading.Thread(target=run, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert answers == {k: DEPTH * 20 + k for k in range(8)}
        answers.clear()


def test_keep_arenas_0_turns_it_off() -> None:
    need_helper()
    code = "import config\nfrom config import arenas\nprint(arenas.available, arenas.counts())\n"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "KEEP_ARENAS": "0"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.split() == ["False", "(0,", "0,", "0)"]


def test_without_the_helper_nothing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arenas, "_arenas", None)
    assert arenas.keep() is False
    assert arenas.counts() == (0, 0, 0)
