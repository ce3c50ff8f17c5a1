"""Generated clients kept between test runs, by what they were generated from.

Generating a client from the schema is the slow part of the client tests (OpenAPI Generator's
JVM for Swift and Kotlin, about 20 s; ``openapi-python-client``, about 8 s), and its output
depends only on its inputs: the schema's bytes, the generator and its version, and the
options. :func:`generated_once` keeps each output under ``.venv/generated/`` by a hash of all
of them, so a run whose schema and generators did not change reads what the last run
generated, and a changed schema (or generator, or option) generates afresh. ``make clean``
removes the virtualenv and with it every kept client; a clean clone (CI) generates them all.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
KEPT = PROJECT_DIR / ".venv" / "generated"


def generated_once(name: str, inputs: list[bytes | str], generate: Callable[[Path], None]) -> Path:
    """The directory ``generate(directory)`` fills from ``inputs`` (everything its output
    depends on), generated the first time these inputs are asked for and kept for later runs.
    Two test processes asking at once may both generate; the first to finish is kept."""
    digest = hashlib.sha256()
    for item in inputs:
        data = item.encode() if isinstance(item, str) else item
        digest.update(len(data).to_bytes(8, "big") + data)
    kept = KEPT / f"{name}-{digest.hexdigest()[:24]}"
    if kept.is_dir():
        return kept
    KEPT.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=KEPT))
    try:
        generate(building)
        try:
            os.rename(building, kept)  # atomic; fails when another process was first
        except OSError:
            if not kept.is_dir():
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    # this one and the two newest others of its name stay (two runs of different schemas at once
    # keep theirs)
    others = [p for p in KEPT.glob(f"{name}-*") if p != kept]
    for old in sorted(others, key=lambda p: p.stat().st_mtime, reverse=True)[2:]:
        shutil.rmtree(old, ignore_errors=True)
    return kept
