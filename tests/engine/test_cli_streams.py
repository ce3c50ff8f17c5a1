"""``python -m engine`` as one stage of a Unix pipeline: a reader that stops early (``| head``)
ends it quietly, as it ends any Unix tool, and ``arena``, which may play for minutes, says how
far it got on standard error while its report alone goes to standard output."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from tests.engine.test_cli import ROOT, run


def test_a_reader_that_closes_early_ends_the_command_without_a_traceback() -> None:
    """The reader goes away before the command writes (``python -m engine rules | head -c0``):
    writing its answer finds no reader, and the command stops without a word on stderr."""
    reader, writer = os.pipe()
    with subprocess.Popen(
        [sys.executable, "-m", "engine", "rules"],
        cwd=ROOT,
        stdout=writer,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        os.close(writer)
        os.close(reader)  # the only reader: every write from now on has nobody to read it
        _, stderr = process.communicate(timeout=60)
    assert stderr == ""
    assert process.returncode != 0  # it did not say everything it had to say


PROGRESS = re.compile(r"arena: (\d+)/(\d+) deals")


def test_the_arena_reports_its_progress_on_standard_error_and_only_its_report_on_output() -> None:
    args = ("arena", "--bots", "random,random,random", "--deals", "5", "--seed", "4")
    proc = run(*args)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)  # standard output: the report and nothing else
    assert report["deals"] == 5
    lines = proc.stderr.splitlines()
    done = [PROGRESS.fullmatch(line) for line in lines]
    assert all(done), lines
    counts = [int(m.group(1)) for m in done if m]
    assert counts == sorted(set(counts)) and counts[-1] == 5, lines
    assert {int(m.group(2)) for m in done if m} == {5}


def test_the_arena_reports_progress_when_it_plays_in_several_processes() -> None:
    args = ("arena", "--bots", "random,random,random", "--deals", "8", "--seed", "4")
    proc = run(*args, "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    counts = [int(m.group(1)) for m in map(PROGRESS.fullmatch, proc.stderr.splitlines()) if m]
    assert len(counts) == len(proc.stderr.splitlines()) and counts[-1] == 8
    assert counts == sorted(set(counts))
    assert json.loads(proc.stdout) == json.loads(run(*args).stdout)
