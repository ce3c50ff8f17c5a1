"""The contract of a talon-family deal and a rule set's options.

A :class:`Game` is what the declarer plays: a suit game (``level`` the trump suit letter), an
``illustrated`` premium contract (``level`` 5..8) or a Balkan no-trump contract (``level``
``misere``, ``sans``, ``uno``, ``slam``); ``talon`` false is a hand game (Handspiel, without the
talon). :class:`Rules` holds a rule set's options, read by ``engine.options.read_options``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.options import Option, read_options

SUITS = "CSDH"
#: How far the declarer goes for each target (``Hand.target``).
NORMAL, MISERE, SLAM, UNO, ROW = range(5)


@dataclass(frozen=True, slots=True)
class Game:
    """A deal's contract: ``kind`` ``suit`` / ``premium`` / ``notrump``, its ``level``, and
    ``talon`` (false: played from the hand)."""

    kind: str
    level: str | int
    talon: bool = True

    @property
    def trump(self) -> int | None:
        """The trump suit index (C 0 … H 3), or None for a no-trump contract."""
        return SUITS.index(str(self.level)) if self.kind == "suit" else None

    def to_json(self) -> dict[str, Any]:
        if self.kind == "premium":
            return {"type": "premium", "level": self.level, "hand": not self.talon}
        return {"type": self.kind, "level": self.level, "talon": self.talon}


@cache
def make_game(kind: str, level: str | int, talon: bool = True) -> Game:
    """The :class:`Game` value (one per contract: they are immutable, so shared)."""
    return Game(kind, level, talon)


@dataclass(frozen=True, slots=True)
class Rules:
    """A talon-family table's options: ``variant`` and each option's value by name
    (``rules["unit"]``), defaults filled in."""

    variant: str
    values: tuple[tuple[str, Any], ...]
    index: dict[str, Any] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", dict(self.values))

    def __getitem__(self, name: str) -> Any:
        return self.index[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.index.get(name, default)

    def to_json(self) -> dict[str, Any]:
        """The full ``rules`` object, defaults spelled out."""
        out: dict[str, Any] = {"variant": self.variant}
        for key, value in self.values:
            out[key] = dict(value) if isinstance(value, dict) else value
        return out


def read_rules(
    variant: str,
    options: Sequence[Option],
    data: Any,
    check: Callable[[dict[str, Any]], None] | None = None,
) -> Rules:
    """The options of a ``rules`` object (``engine.options.read_options``), then the checks
    that tie options together (``check`` raises ``EngineError``)."""
    values = read_options(variant, options, data)
    if check is not None:
        check(values)
    return Rules(variant, tuple(values.items()))
