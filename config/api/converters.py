"""Path converters for ids and numbers: only values the database can hold match.

Django's ``int`` converter matches any run of digits; an id beyond the database's integer
range then failed deep inside the query (a 500, ``OverflowError`` on SQLite, "out of range"
on PostgreSQL). ``<id:…>`` matches up to 18 digits (every value fits a 64-bit id) and
``<num:…>`` up to 9 (a hand, round or table number fits a 32-bit column): anything longer
matches no route and is answered 404 with the error shape like any unknown path. Registered
when :mod:`config.api` is imported, which every URL module does before it builds its paths.
"""

from __future__ import annotations

from django.urls import register_converter


class IdConverter:
    """A database id: 1 to 18 digits."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class NumberConverter(IdConverter):
    """A hand, round or table number: 1 to 9 digits."""

    regex = "[0-9]{1,9}"


def register() -> None:
    register_converter(IdConverter, "id")
    register_converter(NumberConverter, "num")
