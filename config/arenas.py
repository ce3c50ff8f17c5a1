"""Keep CPython 3.11 from mapping and unmapping memory on every deep call.

CPython 3.11 unmaps a chunk of a thread's frame stack as soon as the call that needed it
returns, so code whose calls keep crossing a chunk's end (Django's request path does) maps
16 KiB, faults its pages in and unmaps it again on each call (CPython issue gh-142183;
releases of 3.13 and 3.14 from March 2026 on keep one chunk, and there the helper changes
little). The compiled helper ``config/_arenas.c`` (built by ``pip install -e .``, ``make
install``, where a C compiler is found) keeps a few freed blocks for reuse: :func:`keep`
installs it, once per process, as the first thing ``config`` does, so the web server, the
Celery workers, ``manage.py`` and the tests all run with it. Where the helper was not built
(no C compiler where the project was installed), on another interpreter than CPython, or
where the environment says ``KEEP_ARENAS=0`` (to compare, or to rule it out), nothing
changes. docs/benchmarks.md ("Issue 36") has what it saves.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType


def _load() -> ModuleType | None:
    """The compiled helper, or ``None`` where it was not built, cannot work or is off."""
    if sys.implementation.name != "cpython":
        return None
    if os.environ.get("KEEP_ARENAS", "1") == "0":
        return None
    try:
        return importlib.import_module("config._arenas")
    except ImportError:
        return None


_arenas = _load()
available: bool = _arenas is not None
"""Whether this process can keep freed arena blocks."""


def keep() -> bool:
    """Install the allocator that keeps freed blocks (once: later calls change nothing);
    answers whether it is installed."""
    if _arenas is None:
        return False
    _arenas.keep()
    return True


def counts() -> tuple[int, int, int]:
    """Blocks mapped anew, handed out again and unmapped since :func:`keep` (zeros where the
    helper is not built)."""
    if _arenas is None:
        return (0, 0, 0)
    mapped, reused, unmapped = _arenas.counts()
    return int(mapped), int(reused), int(unmapped)
