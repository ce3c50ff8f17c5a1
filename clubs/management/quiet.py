"""Quiet task logging while a demo command loads its data."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

#: Logger -> the level it keeps while the demo loads: without a broker every task runs
#: in-process and Celery logs a line for each ("Task … succeeded"), hundreds of them, and kombu
#: warns once that the in-memory broker URL names no host. Failures still show.
QUIET = {"celery.app.trace": logging.WARNING, "kombu.connection": logging.ERROR}


@contextmanager
def quiet_task_logs() -> Iterator[None]:
    """Raise the task loggers to :data:`QUIET`'s levels for the block, then restore them."""
    loggers = {logging.getLogger(name): level for name, level in QUIET.items()}
    before = {logger: logger.level for logger in loggers}
    for logger, level in loggers.items():
        logger.setLevel(level)
    try:
        yield
    finally:
        for logger, level in before.items():
            logger.setLevel(level)
