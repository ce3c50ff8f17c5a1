"""The seating service's refusals in the reader's language.

:mod:`clubs.seating` is pure Python (no Django, no catalogs): a :class:`SeatingError` carries
its English sentence and the parts it is made of (``reason``, ``details``, ``options``), and
:func:`seating_text` writes the same sentence from those parts in the active language, as
``config.i18n.engine_text`` does for the engine's refusals. ``tournaments`` seats its rounds
with the same service and may render its refusals here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from clubs.seating import SeatingError, SplitOption

#: Counts written as words (2 to 9; one is each sentence's singular, 10 and more are digits).
NUMBER_WORDS = {
    2: pgettext_lazy("a count of tables or players", "two"),
    3: pgettext_lazy("a count of tables or players", "three"),
    4: pgettext_lazy("a count of tables or players", "four"),
    5: pgettext_lazy("a count of tables or players", "five"),
    6: pgettext_lazy("a count of tables or players", "six"),
    7: pgettext_lazy("a count of tables or players", "seven"),
    8: pgettext_lazy("a count of tables or players", "eight"),
    9: pgettext_lazy("a count of tables or players", "nine"),
}


def number(n: int) -> str:
    """``two`` … ``nine`` in words, other counts in digits."""
    word = NUMBER_WORDS.get(n)
    return str(word) if word is not None else str(n)


def joined(parts: Sequence[Any]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = [str(p) for p in parts]
    if len(words) == 1:
        return words[0]
    return _("{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])


def tables_text(tables: Sequence[int]) -> str:
    """``two tables of 3 and one of 4`` for (3, 3, 4)."""
    groups = [(size, list(tables).count(size)) for size in dict.fromkeys(tables)]
    parts = [
        ngettext("one table of {size}", "{count} tables of {size}", count).format(
            count=number(count), size=size
        )
        for size, count in groups[:1]
    ]
    parts += [
        ngettext("one of {size}", "{count} of {size}", count).format(count=number(count), size=size)
        for size, count in groups[1:]
    ]
    return joined(parts)


def _unsplittable(n: int, sizes: Sequence[int], options: Sequence[SplitOption]) -> str:
    ways = [
        _("with {count} you get {tables}").format(count=o.players, tables=tables_text(o.tables))
        for o in options[:1]
    ]
    ways += [
        _("with {count} {tables}").format(count=o.players, tables=tables_text(o.tables))
        for o in options[1:]
    ]
    byes = [o.byes for o in options if o.byes]
    if byes:
        ways.append(
            ngettext("or give one player a bye", "or give {count} players a bye", byes[0]).format(
                count=number(byes[0])
            )
        )
    return ngettext(
        "{count} player cannot sit at tables of {sizes}: {ways}.",
        "{count} players cannot sit at tables of {sizes}: {ways}.",
        n,
    ).format(count=n, sizes=joined(sorted(sizes)), ways=", ".join(ways))


def seating_text(error: SeatingError) -> str:
    """``error``'s sentence in the active language; its English ``message`` where it has no
    parts to write it from (a malformed request: the services never send one)."""
    details = error.details
    try:
        if error.reason == "unsplittable":
            return _unsplittable(details["players"], details["sizes"], error.options)
        if error.reason == "forbidden_clique":
            return _(
                "{names} must all sit at different tables, but {count} players make only "
                "{tables}. Allow one of these pairs to meet, or change who plays."
            ).format(
                names=joined(details["names"]),
                count=details["players"],
                tables=tables_text(details["tables"]),
            )
        if error.reason in ("forbidden_not_found", "forbidden_impossible"):
            pairs = "; ".join(joined(pair) for pair in details["pairs"])
            values = {
                "count": details["players"],
                "tables": tables_text(details["tables"]),
                "pairs": pairs,
            }
            if error.reason == "forbidden_not_found":
                return _(
                    "No seating of {count} players at {tables} was found that keeps these "
                    "pairs apart: {pairs}. Allow one of them to meet."
                ).format(**values)
            return _(
                "{count} players cannot sit at {tables} and keep these pairs apart: {pairs}. "
                "Allow one of them to meet, or change who plays."
            ).format(**values)
    except (KeyError, TypeError):
        pass  # parts missing: the English sentence
    return error.message
