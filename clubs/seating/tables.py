"""Table shapes and how a number of players splits into tables.

Terms: a *table shape* (Tischform) is a table size with the number of *active* players who play
each deal; at a four-table (Vierertisch) with three active players the dealer (Geber) sits
out each deal, so 3 of the 4 play. A *bye* (Freilos) is a player who sits out a round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


class SeatingError(ValueError):
    """A seating request that cannot be met.

    ``code`` is stable for programs (``unsplittable``, ``forbidden_unsatisfiable``,
    ``invalid``); ``message`` is a sentence a person understands, saying why and what would
    work, in English; ``options`` lists the player counts that would work (``unsplittable``)
    and ``players`` the players involved (``forbidden_unsatisfiable``). The sentence's parts
    are ``reason`` (which sentence: the code, or for ``forbidden_unsatisfiable``
    ``forbidden_clique``, ``forbidden_not_found`` or ``forbidden_impossible``) and
    ``details`` (its numbers and names), from which the API writes it in the reader's
    language (``clubs.seating_text``; this package stays free of Django).
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        options: tuple[SplitOption, ...] = (),
        players: tuple[Any, ...] = (),
        reason: str = "",
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.options = options
        self.players = players
        self.reason = reason or code
        self.details = dict(details or {})

    def to_json(self) -> dict[str, Any]:
        """``code``, ``message``, ``options`` and ``players`` as plain JSON."""
        return {
            "code": self.code,
            "message": self.message,
            "options": [option.to_json() for option in self.options],
            "players": list(self.players),
        }


@dataclass(frozen=True, slots=True)
class TableShape:
    """A table of ``size`` seats where ``active`` players play each deal and the seats take
    turns sitting out (``active`` defaults to ``size``).

    Two players at such a table share the fraction ``active*(active-1) / (size*(size-1))`` of
    its deals (``share``): 1 at a three-table, 1/2 at a four-table with three active, 3/5 at a
    five-table with four.
    """

    size: int
    active: int = 0
    share: Fraction = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.active == 0:
            object.__setattr__(self, "active", self.size)
        if self.size < 2 or not 2 <= self.active <= self.size:
            raise ValueError(f"a table of {self.size} with {self.active} active players")
        share = Fraction(self.active * (self.active - 1), self.size * (self.size - 1))
        object.__setattr__(self, "share", share)


THREE_ACTIVE_SHAPES = (TableShape(3), TableShape(4, 3))
"""Three active players: tables of 3; a table of 4 where the count needs it (dealer sits out)."""
THREE_ACTIVE_PREFERRED = 3

FOUR_ACTIVE_SHAPES = (TableShape(4),)
"""Four active players: tables of exactly 4, all four play every deal."""
FOUR_ACTIVE_WITH_FIVE_SHAPES = (TableShape(4), TableShape(5, 4))
"""Four active players where a table of 5 is allowed (one player sits out each deal)."""
FOUR_ACTIVE_PREFERRED = 4


def shapes_of(seats: tuple[int, ...], players: int) -> tuple[tuple[TableShape, ...], int]:
    """The table shapes of a game whose tables have one of ``seats`` seats with ``players``
    active in each deal (the rule set's ``table`` shape: ``(3, 4)`` seats with 3 players give
    :data:`THREE_ACTIVE_SHAPES`), and the preferred size: the one where everybody plays, else
    the smallest."""
    shapes = tuple(TableShape(n, players) for n in sorted(seats))
    preferred = players if players in seats else min(seats)
    return shapes, preferred


@dataclass(frozen=True, slots=True)
class SplitOption:
    """A player count that can be seated, and how: ``byes`` players sit out to reach it."""

    players: int
    tables: tuple[int, ...]
    byes: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "tables": list(self.tables), "byes": self.byes}


def check_shapes(shapes: tuple[TableShape, ...], preferred: int) -> None:
    """Shapes have distinct sizes and ``preferred`` is one of them (``ValueError`` if not)."""
    sizes = [shape.size for shape in shapes]
    if not sizes or len(set(sizes)) != len(sizes):
        raise ValueError(f"table shapes need distinct sizes, got {sizes}")
    if preferred not in sizes:
        raise ValueError(f"the preferred size {preferred} is not among the shapes {sizes}")


def _split(n: int, sizes: tuple[int, ...], preferred: int) -> tuple[int, ...] | None:
    """The split of ``n`` by the rule of :func:`table_sizes`, or ``None``."""
    others = sorted((s for s in sizes if s != preferred), reverse=True)
    for count in range(n // preferred, -1, -1):
        rest = _fewest_tables(n - count * preferred, others)
        if rest is not None:
            return (preferred,) * count + tuple(sorted(rest))
    return None


def _fewest_tables(rest: int, sizes: list[int]) -> list[int] | None:
    """``rest`` as a sum of ``sizes`` (largest first) with the fewest tables, or ``None``."""
    best: list[list[int]] = [[] for _ in range(rest + 1)]
    reachable = [False] * (rest + 1)
    reachable[0] = True
    for total in range(1, rest + 1):
        for size in sizes:  # largest first: ties keep the larger tables
            if size <= total and reachable[total - size]:
                candidate = [size, *best[total - size]]
                if not reachable[total] or len(candidate) < len(best[total]):
                    best[total] = candidate
                    reachable[total] = True
    return best[rest] if reachable[rest] else None


def table_sizes(n: int, *, shapes: tuple[TableShape, ...], preferred: int) -> list[int]:
    """How ``n`` players split into tables: as many tables of the ``preferred`` size as
    possible, the rest made up by the other sizes with as few tables as possible (larger
    tables first on a tie). Tables of the preferred size come first, the others after them,
    smallest first. No players, no tables.

    Tables of 3, with 4 allowed: 7 → [3, 4], 8 → [4, 4], 10 → [3, 3, 4]; 1, 2 and 5 players
    cannot be seated. Tables of 4 only: multiples of 4.

    Raises :class:`SeatingError` (``unsplittable``) naming the nearest counts below and above
    that work, and the byes that reach the one below.
    """
    check_shapes(shapes, preferred)
    if n < 0:
        raise ValueError(f"a negative number of players: {n}")
    sizes = tuple(shape.size for shape in shapes)
    split = _split(n, sizes, preferred)
    if split is not None:
        return list(split)
    options: list[SplitOption] = []
    above = n + 1
    while (tables := _split(above, sizes, preferred)) is None:
        above += 1
    options.append(SplitOption(above, tables))
    below = n - 1
    while below > 0 and _split(below, sizes, preferred) is None:
        below -= 1
    if below > 0:
        options.append(SplitOption(below, _split(below, sizes, preferred) or (), byes=n - below))
    raise SeatingError(
        _unsplittable_message(n, sizes, options),
        code="unsplittable",
        options=tuple(options),
        details={"players": n, "sizes": tuple(sorted(sizes))},
    )


def _count(n: int, word: str) -> str:
    """``one table``, ``two tables``, ``12 tables``."""
    number = NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)
    return f"{number} {word}" if n == 1 else f"{number} {word}s"


def describe_tables(tables: tuple[int, ...]) -> str:
    """``two tables of 3 and one of 4`` for (3, 3, 4)."""
    groups = [(size, tables.count(size)) for size in dict.fromkeys(tables)]
    parts = [f"{_count(count, 'table')} of {size}" for size, count in groups[:1]]
    parts += [
        f"{NUMBER_WORDS[count] if count < 10 else count} of {size}" for size, count in groups[1:]
    ]
    return _join(parts)


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _unsplittable_message(n: int, sizes: tuple[int, ...], options: list[SplitOption]) -> str:
    players = "1 player" if n == 1 else f"{n} players"
    shape_words = _join([str(size) for size in sorted(sizes)])
    ways = [f"with {o.players} you get {describe_tables(o.tables)}" for o in options[:1]]
    ways += [f"with {o.players} {describe_tables(o.tables)}" for o in options[1:]]
    byes = [o.byes for o in options if o.byes]
    if byes:
        who = _count(byes[0], "player")
        ways.append(f"or give {who} a bye")
    return f"{players} cannot sit at tables of {shape_words}: {', '.join(ways)}."
