"""Worlds built once and shared by many tests, each test seeing them as freshly built.

A permission matrix calls every endpoint as every role: hundreds of tests, each of which built
its world (users, a club, tables or a tournament driven to some state) before one request.
Building took most of their time. :func:`built_once` builds a world inside a transaction that
stays open while the tests that share it run; each test's own transaction (pytest-django's)
is then a savepoint inside it, rolled back after the test, so no test sees what another wrote
and every test starts from the world exactly as built. When the last of those tests is done,
the world is rolled back too.

Use it from a module-scoped fixture (``django_db_setup`` and ``django_db_blocker`` are
pytest-django's), for tests marked ``django_db`` without ``transaction=True`` (a
transactional test would commit, and flush, the shared world):

    @pytest.fixture(scope="module")
    def shared_world(request, django_db_setup, django_db_blocker):
        with built_once(django_db_blocker, lambda: build_world(public=request.param)) as world:
            yield world

and give each test :func:`fresh_copy` of it: the Python objects too are as built (a test that
changes ``world.tournament`` in memory changes only its copy).

With the fixture parametrized by what the world depends on (:func:`rows_by_world`), the tests
that need the same world share one; pytest builds it again when the parameter changes.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest
from django.db import transaction

T = TypeVar("T")


@contextmanager
def built_once(django_db_blocker: Any, build: Callable[[], T]) -> Iterator[T]:
    """``build()`` in a transaction kept open (and finally rolled back) around the ``with``
    block; the tests run inside it see the world and roll back only what they wrote."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        # as Django's TestCase marks its own: a durable atomic block in the code under test
        # may run inside it
        outer._from_testcase = True
        outer.__enter__()
        try:
            world = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield world
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def fresh_copy(world: T) -> T:
    """The world's Python objects as they were built (model instances included)."""
    return copy.deepcopy(world)


#: The fixtures :func:`rows_by_world` parametrizes with worlds.
WORLD_FIXTURES: set[str] = set()


def world_name(world: Any) -> list[str]:
    """A world (what it depends on, ``world_of(row)``) in words: its values and the names of
    its set-up functions."""
    return [getattr(part, "__qualname__", None) or repr(part) for part in world]


def rows_by_world(
    rows: Sequence[Any], world_of: Callable[[Any], Hashable], fixture: str = "shared_world"
) -> pytest.MarkDecorator:
    """Parametrize a test by ``row`` (each of ``rows``, its ``id`` the test's) and by the
    module-scoped ``fixture`` with the world that row needs, ``world_of(row)``: a tuple of
    what the world depends on (values and set-up functions). Rows of one world come one after
    another, in the same order in every pytest-xdist worker, and all run on one worker
    (:func:`world_group`), so each world is built once."""
    WORLD_FIXTURES.add(fixture)
    ordered = sorted(rows, key=lambda row: world_name(world_of(row)))
    return pytest.mark.parametrize(
        (fixture, "row"),
        [(world_of(row), row) for row in ordered],
        ids=[row.id for row in ordered],
        indirect=[fixture],
        scope="module",  # the world's: kept from one test to the next while it is the same
    )


def world_group(item: pytest.Item) -> str | None:
    """The pytest-xdist group of a test :func:`rows_by_world` parametrized: its module and
    world (``None`` for other tests). ``tests/conftest.py`` marks each such test
    ``xdist_group`` with it, so that under ``--dist loadgroup`` the tests of one world run on
    one worker, which builds it once, not once on each worker."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    for fixture in sorted(WORLD_FIXTURES & params.keys()):
        module = getattr(item, "module", None)
        return f"{getattr(module, '__name__', '')} world {' '.join(world_name(params[fixture]))}"
    return None
