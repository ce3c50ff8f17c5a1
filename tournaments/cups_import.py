"""The results of a tournament run elsewhere, as a cup imports them (issue 42, ``docs/cups.md``,
"Importing a tournament"): a CSV or a JSON document of placings, parsed into :class:`Row`
values or refused with the line (CSV) or item (JSON) and the field at fault.

Pure: the standard library only (no Django). Scores stay exact (:class:`fractions.Fraction`):
``"12"``, ``"-3"``, ``"7/2"``, and decimals written as ``"12.5"`` (or ``"12,5"``, as a
spreadsheet of a German-speaking organiser writes it) are read exactly, never through a float.

CSV (UTF-8, a header row, ``,`` separated; ``;`` where the header is written with it)::

    placing,name,score,rounds,user,region,category,club
    1,Anna Berger,12,3,17,Tirol,women,Kartenrunde Graz

``placing`` and ``name`` are required; ``score`` (exact, empty: none), ``rounds`` (a whole
number, empty: 0) and ``user`` (an account id, empty: a guest) are optional; every other column
is an *attribute* (a side ranking's value: region, category, club), left out where the cell is
empty. JSON::

    {"results": [{"placing": 1, "name": "Anna Berger", "score": "12", "rounds": 3,
                  "user": 17, "attributes": {"region": "Tirol"}}]}

Refusals (:class:`ImportRefused`) carry a ``code`` (a key of :data:`MESSAGES`, whose English
template the Django layer translates by that template), the parameters of the sentence, the
CSV ``line`` (the header is line 1) or the JSON ``item`` (its index in ``results``, from 0)
and the ``field``.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks an English template for the catalogs (``make messages`` finds it by this name);
    the Django layer translates it when it shows the refusal."""
    return message


#: Every refusal's English template, by code (its parameters in braces).
MESSAGES: dict[str, str] = {
    "not_text": gettext_noop("The document is not UTF-8 text."),
    "not_json": gettext_noop("The document is not JSON: {reason}"),
    "not_object": gettext_noop('The document is an object with a list "results".'),
    "empty": gettext_noop("The document has no results."),
    "too_many": gettext_noop("The document has more than {most} results."),
    "no_header": gettext_noop("The first line names the columns."),
    "missing_column": gettext_noop("The header has no column {column}."),
    "duplicate_column": gettext_noop("The header names the column {column} twice."),
    "empty_column": gettext_noop("The header has a column without a name."),
    "extra_cells": gettext_noop("the line has more cells than the header has columns"),
    "not_item": gettext_noop("each result is an object"),
    "unknown_field": gettext_noop("{field} is not a field of a result"),
    "placing": gettext_noop("placing must be a whole number of at least 1"),
    "name": gettext_noop("name must be given"),
    "name_long": gettext_noop("name has at most {most} characters"),
    "score": gettext_noop(
        'score must be exact: a whole number ("12", "-3"), a fraction ("7/2") or a decimal ("12.5")'
    ),
    "score_float": gettext_noop(
        'score must be a whole number or a string ("12.5", "7/2"): a JSON decimal number is '
        "not exact"
    ),
    "rounds": gettext_noop("rounds must be a whole number from 0 to {most}"),
    "user": gettext_noop("user must be an account id (a whole number of at least 1)"),
    "attributes": gettext_noop("attributes must map names to texts"),
    "attribute_long": gettext_noop("the attribute {attribute} has at most {most} characters"),
    "duplicate_user": gettext_noop("the account {user} is listed twice (also {other})"),
    "duplicate_name": gettext_noop("{name} is listed twice (also {other})"),
}

#: How many results one document may hold.
MAX_ROWS = 5000
MAX_NAME = 150
MAX_ATTRIBUTE = 100
MAX_ROUNDS = 32767
MAX_SCORE = 60
"""The longest score as text (``CupResult.score``)."""
FIELDS = ("placing", "name", "score", "rounds", "user")
JSON_FIELDS = (*FIELDS, "attributes")

_INTEGER = re.compile(r"[+-]?\d+")
_FRACTION = re.compile(r"([+-]?\d+)\s*/\s*(\d+)")
_DECIMAL = re.compile(r"([+-]?)(\d*)[.,](\d+)")


class ImportRefused(ValueError):
    """A document the import refuses: ``code`` (a key of :data:`MESSAGES`), the ``line`` of a
    CSV (1: the header) or the ``item`` of a JSON document (its index in ``results``), the
    ``field`` at fault (``""``: the whole line or item, or the document) and the sentence's
    ``params`` (``field`` among them)."""

    def __init__(
        self,
        code: str,
        *,
        line: int | None = None,
        item: int | None = None,
        field: str = "",
        **params: Any,
    ) -> None:
        self.code = code
        self.line = line
        self.item = item
        self.field = field
        self.params = {"field": field, **{key: str(value) for key, value in params.items()}}
        super().__init__(self.english())

    @property
    def where(self) -> str:
        """``line 4`` or ``results[3]``; ``""`` for the whole document."""
        if self.line is not None:
            return f"line {self.line}"
        if self.item is not None:
            return f"results[{self.item}]"
        return ""

    @property
    def path(self) -> str:
        """The field at fault as a path into the document: ``results[3].placing`` (JSON),
        ``placing`` (CSV), ``""`` (the document)."""
        if self.item is not None:
            return f"results[{self.item}]" + (f".{self.field}" if self.field else "")
        return self.field

    def english(self) -> str:
        sentence = MESSAGES[self.code].format(**self.params)
        return f"{self.where}: {sentence}" if self.where else sentence


@dataclass(frozen=True, slots=True)
class Row:
    """One imported result: where it stood (``line`` of the CSV, or ``item`` index + 1 of
    the JSON), the placing, the player's name, the exact score (``None``: none given), rounds
    played, the account id (``None``: a guest) and the attributes as sorted pairs."""

    line: int
    placing: int
    name: str
    score: Fraction | None
    rounds: int
    user: int | None
    attributes: tuple[tuple[str, str], ...] = ()

    @property
    def attribute_map(self) -> dict[str, str]:
        return dict(self.attributes)


def score_text(value: Fraction | None) -> str:
    """A score as the cups store it: ``""`` (none), ``"12"``, ``"-3"`` or ``"7/2"``."""
    if value is None:
        return ""
    return str(value.numerator) if value.denominator == 1 else str(value)


def parse_score(text: str) -> Fraction | None:
    """An exact score from its text (``""``: none); ValueError where it is not exact."""
    text = text.strip()
    if not text:
        return None
    if _INTEGER.fullmatch(text):
        return Fraction(int(text))
    found = _FRACTION.fullmatch(text)
    if found:
        denominator = int(found.group(2))
        if denominator == 0:
            raise ValueError(text)
        return Fraction(int(found.group(1)), denominator)
    found = _DECIMAL.fullmatch(text)
    if found and (found.group(2) or found.group(3)):
        sign, whole, part = found.groups()
        value = Fraction(int(whole or "0")) + Fraction(int(part), 10 ** len(part))
        return -value if sign == "-" else value
    raise ValueError(text)


def parse(data: Any, format: str) -> tuple[Row, ...]:
    """The results of ``data`` in ``format`` (``"csv"``: text or UTF-8 bytes; ``"json"``: the
    parsed object or its text), checked: placings, names, exact scores, rounds, account ids,
    attributes, and no account or guest name twice. Refuses with :class:`ImportRefused`."""
    if format == "csv":
        return parse_csv(data)
    if format == "json":
        return parse_json(data)
    raise ValueError(f"unknown import format {format!r}")


def _text(data: Any) -> str:
    if isinstance(data, bytes):
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ImportRefused("not_text") from None
    if not isinstance(data, str):
        raise ImportRefused("not_text")
    return data.removeprefix("\ufeff")


def parse_csv(data: str | bytes) -> tuple[Row, ...]:
    """The results of a CSV document (see the module's docstring)."""
    text = _text(data)
    first = text.split("\n", 1)[0]
    delimiter = ";" if ";" in first and "," not in first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header: list[str] | None = None
    rows: list[Row] = []
    try:
        for cells in reader:
            line = reader.line_num
            if header is None:
                if not any(cell.strip() for cell in cells):
                    raise ImportRefused("no_header", line=line)
                header = _header(cells, line)
                continue
            if not any(cell.strip() for cell in cells):
                continue  # an empty line
            if len(rows) >= MAX_ROWS:
                raise ImportRefused("too_many", most=MAX_ROWS)
            if len(cells) > len(header) and any(cell.strip() for cell in cells[len(header) :]):
                raise ImportRefused("extra_cells", line=line)
            values = dict(zip(header, (cell.strip() for cell in cells), strict=False))
            rows.append(_csv_row(values, line))
    except csv.Error as e:
        raise ImportRefused("not_text", line=reader.line_num, reason=str(e)) from None
    if header is None:
        raise ImportRefused("no_header", line=1)
    return _unique(rows, csv_lines=True)


def _header(cells: list[str], line: int) -> list[str]:
    names = [cell.strip().lower() for cell in cells]
    while names and not names[-1]:  # a spreadsheet's trailing separators
        names.pop()
    seen: set[str] = set()
    for name in names:
        if not name:
            raise ImportRefused("empty_column", line=line)
        if name in seen:
            raise ImportRefused("duplicate_column", line=line, column=name)
        seen.add(name)
    for required in ("placing", "name"):
        if required not in seen:
            raise ImportRefused("missing_column", line=line, column=required)
    return names


def _csv_row(values: Mapping[str, str], line: int) -> Row:
    where = {"line": line}
    placing = _whole(values.get("placing", ""), "placing", where, least=1)
    name = _name(values.get("name", ""), where)
    try:
        score = parse_score(values.get("score", ""))
    except ValueError:
        raise ImportRefused("score", field="score", **where) from None
    if len(score_text(score)) > MAX_SCORE:
        raise ImportRefused("score", field="score", **where)
    rounds_text = values.get("rounds", "")
    rounds = _whole(rounds_text, "rounds", where, least=0) if rounds_text else 0
    user_text = values.get("user", "")
    user = _whole(user_text, "user", where, least=1) if user_text else None
    attributes = {
        key: _attribute(key, value, where)
        for key, value in values.items()
        if key not in FIELDS and value
    }
    return Row(line, placing, name, score, rounds, user, tuple(sorted(attributes.items())))


def _whole(text: str, field: str, where: Mapping[str, int], *, least: int) -> int:
    """A whole number at least ``least`` written as ``text`` (a CSV cell)."""
    text = text.strip()
    if not _INTEGER.fullmatch(text) or int(text) < least:
        raise _refusal(field, where)
    value = int(text)
    if field == "rounds" and value > MAX_ROUNDS:
        raise _refusal(field, where)
    return value


def _refusal(field: str, where: Mapping[str, int]) -> ImportRefused:
    if field == "rounds":
        return ImportRefused("rounds", field=field, most=MAX_ROUNDS, **where)
    return ImportRefused(field, field=field, **where)


def _name(value: Any, where: Mapping[str, int]) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ImportRefused("name", field="name", **where)
    name = " ".join(value.split())
    if len(name) > MAX_NAME:
        raise ImportRefused("name_long", field="name", most=MAX_NAME, **where)
    return name


def _attribute(key: str, value: str, where: Mapping[str, int]) -> str:
    value = " ".join(value.split())
    if len(key) > MAX_ATTRIBUTE or len(value) > MAX_ATTRIBUTE:
        raise ImportRefused(
            "attribute_long", field=key, attribute=key[:MAX_ATTRIBUTE], most=MAX_ATTRIBUTE, **where
        )
    return value


def parse_json(data: Any) -> tuple[Row, ...]:
    """The results of a JSON document, parsed already or as text (see the module's
    docstring)."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(_text(data))
        except json.JSONDecodeError as e:
            raise ImportRefused("not_json", reason=str(e)) from None
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise ImportRefused("not_object")
    items = data["results"]
    if len(items) > MAX_ROWS:
        raise ImportRefused("too_many", most=MAX_ROWS)
    return _unique([_json_row(item, index) for index, item in enumerate(items)], csv_lines=False)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _json_row(item: Any, index: int) -> Row:
    where: dict[str, Any] = {"item": index}
    if not isinstance(item, dict):
        raise ImportRefused("not_item", **where)
    for key in item:
        if key not in JSON_FIELDS:
            raise ImportRefused("unknown_field", field=str(key), **where)
    placing: Any = item.get("placing")
    if not _is_int(placing) or placing < 1:
        raise ImportRefused("placing", field="placing", **where)
    name = _name(item.get("name"), where)
    raw = item.get("score")
    score: Fraction | None
    if raw is None:
        score = None
    elif isinstance(raw, float):
        raise ImportRefused("score_float", field="score", **where)
    elif _is_int(raw):
        score = Fraction(raw)
    elif isinstance(raw, str):
        try:
            score = parse_score(raw)
        except ValueError:
            raise ImportRefused("score", field="score", **where) from None
    else:
        raise ImportRefused("score", field="score", **where)
    if len(score_text(score)) > MAX_SCORE:
        raise ImportRefused("score", field="score", **where)
    rounds = item.get("rounds", 0)
    if rounds is None:
        rounds = 0
    if not _is_int(rounds) or not 0 <= rounds <= MAX_ROUNDS:
        raise ImportRefused("rounds", field="rounds", most=MAX_ROUNDS, **where)
    user = item.get("user")
    if user is not None and (not _is_int(user) or user < 1):
        raise ImportRefused("user", field="user", **where)
    attributes = item.get("attributes") or {}
    if not isinstance(attributes, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in attributes.items()
    ):
        raise ImportRefused("attributes", field="attributes", **where)
    cleaned = {
        " ".join(k.split()).lower(): _attribute(k, v, where)
        for k, v in attributes.items()
        if k.strip() and v.strip()
    }
    return Row(index + 1, placing, name, score, rounds, user, tuple(sorted(cleaned.items())))


def _unique(rows: list[Row], *, csv_lines: bool) -> tuple[Row, ...]:
    """``rows``, refusing an account listed twice, or a guest's name (without an account)
    twice: each is one player, who has one result at an event."""
    if not rows:
        raise ImportRefused("empty")

    def at(row: Row) -> dict[str, int]:
        return {"line": row.line} if csv_lines else {"item": row.line - 1}

    def called(row: Row) -> str:
        return f"line {row.line}" if csv_lines else f"results[{row.line - 1}]"

    users: dict[int, Row] = {}
    names: dict[str, Row] = {}
    for row in rows:
        if row.user is not None:
            other = users.setdefault(row.user, row)
            if other is not row:
                raise ImportRefused(
                    "duplicate_user", field="user", user=row.user, other=called(other), **at(row)
                )
            continue
        key = normal_name(row.name)
        other = names.setdefault(key, row)
        if other is not row:
            raise ImportRefused(
                "duplicate_name", field="name", name=row.name, other=called(other), **at(row)
            )
    return tuple(rows)


def normal_name(name: str) -> str:
    """How a guest's name is matched: trimmed, inner spaces single, case-folded."""
    return " ".join(name.split()).casefold()
