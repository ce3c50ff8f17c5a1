"""Writing benchmark figures into ``docs/benchmarks.md``: each benchmark owns one section,
replaced in place, headed with the commit, ``nproc``, the CPU model and the exact command."""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"
HEAD = (
    "# Benchmarks\n\nFigures written by the scripts in `bench/`; each section is replaced "
    "when its\nbenchmark runs again.\n"
)


def machine() -> dict[str, str]:
    """Commit, core count, CPU model and Python version of this run."""
    try:
        commit = (
            subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=False,
            ).stdout.strip()
            or "uncommitted"
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        if dirty and commit != "uncommitted":
            commit += " (with uncommitted changes)"
    except OSError:
        commit = "unknown"
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or "unknown"
    return {
        "commit": commit,
        "nproc": str(os.cpu_count()),
        "cpu": cpu,
        "python": platform.python_version(),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def write_section(name: str, title: str, body: str, doc: Path = DOC) -> None:
    """Replace (or append) the section ``name`` of docs/benchmarks.md (or of ``doc``)."""
    m = machine()
    command = " ".join(["python", *sys.argv]) if sys.argv else "?"
    block = (
        f"<!-- {name}:start -->\n## {title}\n\n"
        f"- commit: `{m['commit']}`, run {m['date']}\n"
        f"- machine: nproc {m['nproc']}, CPU {m['cpu']}, Python {m['python']}\n"
        f"- command: `{command}`\n\n{body.rstrip()}\n<!-- {name}:end -->\n"
    )
    text = doc.read_text() if doc.exists() else HEAD
    pattern = re.compile(rf"<!-- {name}:start -->.*?<!-- {name}:end -->\n", re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text)
    else:
        text = text.rstrip() + "\n\n" + block
    doc.parent.mkdir(exist_ok=True)
    doc.write_text(text)


def cpu_wall_medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The medians of (CPU, wall) figures of repeated runs, each on its own."""
    return statistics.median(c for c, _ in runs), statistics.median(w for _, w in runs)
