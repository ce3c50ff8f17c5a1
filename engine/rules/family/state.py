"""A talon-family hand as an immutable value: the deal's envelope, the actions so far and a
frozen :class:`engine.rules.family.hand.Hand` (never stepped in place once a state holds it:
``apply`` steps a copy)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.rules.family.game import Game, Rules
from engine.rules.family.hand import Hand
from engine.rules.family.phases import DONE, PHASES


@dataclass(frozen=True, slots=True)
class State:
    """One deal: ``rules``, ``seats``, ``dealer``, what the table carried into it
    (``carry``: the record's carry keys as pairs), the ``active`` players (forehand first),
    the ``history`` of actions and the machine ``hand``."""

    rules: Rules
    seats: tuple[str, ...]
    dealer: str
    carry: tuple[tuple[str, Any], ...]
    active: tuple[str, ...]
    history: tuple[Action, ...]
    hand: Hand

    @property
    def is_over(self) -> bool:
        return self.hand.phase == DONE

    @property
    def phase(self) -> str:
        return PHASES[self.hand.phase]

    @property
    def to_act_seat(self) -> str | None:
        p = self.hand.to_act
        return None if self.is_over or p < 0 else self.active[p]

    @property
    def declarer(self) -> str | None:
        d = self.hand.declarer
        return None if d < 0 else self.active[d]

    @property
    def game(self) -> Game | None:
        return self.hand.game

    @property
    def carry_dict(self) -> dict[str, Any]:
        return {k: (dict(v) if isinstance(v, tuple) and k == "refe" else v) for k, v in self.carry}

    def player(self, seat: str | None) -> int | None:
        """The player number of ``seat`` in this deal; None for a sitting-out dealer."""
        try:
            return self.active.index(seat) if seat is not None else None
        except ValueError:
            return None
