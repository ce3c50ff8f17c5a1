"""Plain SQL for the hot paths, building the same model instances the ORM builds.

A move or a score-sheet entry is a handful of short statements; on this project's servers the
ORM spends longer compiling each of them than the database spends running it (about 1 ms
against 0.1 ms). The few statements on those paths are therefore written once here, with every
column, converter and parameter adapter taken from the models, so the instances they return
and the rows they write are exactly the ORM's: callers cannot tell the difference, and a new
model field is picked up without touching this module.

Only services and selectors use it, and only where a benchmark showed the ORM's cost
(``bench/games_bench.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


class Columns:
    """The concrete columns of ``model`` (all, or ``only`` these fields; the others are
    deferred as with ``QuerySet.only``) under a table ``alias``, for a ``SELECT`` list, and the
    way back from a row to an instance."""

    def __init__(self, model: type[M], alias: str, only: Sequence[str] = ()) -> None:
        self.model = model
        self.alias = alias
        self.fields: list[Field[Any, Any]] = [
            f for f in model._meta.concrete_fields if not only or f.name in only or f.primary_key
        ]
        self.names = [f.attname for f in self.fields]
        self.sql = ", ".join(f"{alias}.{quote(f.column)}" for f in self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    @property
    def converters(self) -> list[tuple[int, list[Callable[..., Any]], Any]]:
        return _converters(self.model, tuple(self.names), self.alias, connection.vendor)

    def instance(self, row: Sequence[Any], start: int = 0) -> Any:
        """The model instance of ``row[start : start + len(self)]``, as the ORM loads it."""
        values = list(row[start : start + len(self.fields)])
        for i, functions, expression in self.converters:
            value = values[i]
            for convert in functions:
                value = convert(value, expression, connection)
            values[i] = value
        return self.model.from_db(connection.alias, self.names, values)


@cache
def _converters(
    model: type[Model], names: tuple[str, ...], alias: str, vendor: str
) -> list[tuple[int, list[Callable[..., Any]], Any]]:
    """(column index, converters, expression) of the columns ``names`` that need converting,
    as the compiler would apply them (backend converters first, then the field's own)."""
    out = []
    fields = {f.attname: f for f in model._meta.concrete_fields}
    for i, field in enumerate(fields[name] for name in names):
        expression = field.get_col(alias)
        functions = connection.ops.get_db_converters(expression) + expression.get_db_converters(
            connection
        )
        if functions:
            out.append((i, functions, expression))
    return out


def for_update(alias: str) -> str:
    """The row-lock clause for rows of ``alias`` (nothing where the database locks whole
    files instead, as SQLite does)."""
    if not connection.features.has_select_for_update:
        return ""
    if connection.features.has_select_for_update_of:
        return f" FOR UPDATE OF {alias}"
    return " FOR UPDATE"


def fetch(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    """The first row of ``sql``, or None."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else tuple(row)


def _prepared(instance: Model, fields: Iterable[Field[Any, Any]], add: bool) -> list[Any]:
    """Each field's value as the database takes it (``auto_now`` and other ``pre_save``
    hooks applied, JSON and dates adapted)."""
    return [f.get_db_prep_save(f.pre_save(instance, add), connection) for f in fields]


def update(instance: Model, names: Sequence[str]) -> None:
    """``instance.save(update_fields=names)`` as one plain ``UPDATE`` (no signals: the
    models of this app have none)."""
    meta = instance._meta
    by_name = {f.name: f for f in meta.concrete_fields}
    fields = [by_name[name] for name in names]
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    with connection.cursor() as cursor:
        cursor.execute(sql, [*_prepared(instance, fields, False), instance.pk])


def insert(instances: Sequence[Model]) -> None:
    """``bulk_create`` of new instances of one model as one plain ``INSERT … RETURNING`` of
    their ids, which are set on them (no signals: the models of this app have none)."""
    if not instances:
        return
    if not connection.features.can_return_rows_from_bulk_insert:  # SQLite before 3.35
        for obj in instances:
            obj.save(force_insert=True)
        return
    meta = instances[0]._meta
    fields = [f for f in meta.concrete_fields if f is not meta.auto_field]
    columns = ", ".join(quote(f.column) for f in fields)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES "
        + ", ".join([one] * len(instances))
        + f" RETURNING {quote(meta.pk.column)}"
    )
    params = [value for obj in instances for value in _prepared(obj, fields, True)]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = [row[0] for row in cursor.fetchall()]
    for obj, pk in zip(instances, ids, strict=True):
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = connection.alias
