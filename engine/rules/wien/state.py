"""A ``wien`` hand as a sequence of phases (``spec/wien.md``).

DEAL → AUCTION (Lizitieren) → [GESCHAEFT (resolving several Geschäfte)] → TALON (taking the
talon and discarding two) → DECLARE (naming the game) → LOOK (Nachschauen) → DEFENCE (play or
stay home, then invite or alone) → PLAY (Aushandeln, then card play) → DONE.

Players are numbered by their place in this deal: 0 forehand (Vorhand), 1 middlehand,
2 rearhand; ``State.active`` maps them to seat names. A :class:`State` is an immutable value:
:func:`engine.play.apply` returns a new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.actions import Action
from engine.cards import PIQUET, Deck
from engine.rules.wien.rules import CALL_RANK, WienRules, premium_rank


class Phase(StrEnum):
    AUCTION = "auction"
    GESCHAEFT = "geschaeft"
    TALON = "talon"
    DECLARE = "declare"
    LOOK = "look"
    DEFENCE = "defence"
    INVITE = "invite"
    PLAY = "play"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class Game:
    """The game of a deal: ``suit`` (level a suit letter, ``talon`` false for Geschäft/herz),
    ``premium`` (level 5..8, ``hand`` for von der Hand) or ``ausfechten``."""

    kind: str
    level: str | int | None = None
    talon: bool = True
    hand: bool = False

    @property
    def is_herz(self) -> bool:
        """The hand game ``herz`` (a premium game; not a number game declared in hearts)."""
        return self.kind == "suit" and self.level == "H" and not self.talon

    @property
    def rank(self) -> int:
        """Place on the auction ladder, to compare for Nachschauen."""
        if self.kind == "premium":
            assert isinstance(self.level, int)
            return premium_rank(self.level, self.hand)
        if self.kind == "suit":
            if self.talon:
                return "CSDH".index(str(self.level)) + 1
            return CALL_RANK["herz"] if self.level == "H" else CALL_RANK["geschaeft"]
        return 0

    def to_json(self) -> dict[str, Any]:
        if self.kind == "suit":
            return {"type": "suit", "level": self.level, "talon": self.talon}
        if self.kind == "premium":
            return {"type": "premium", "level": self.level, "hand": self.hand}
        return {"type": "ausfechten"}


@dataclass(frozen=True, slots=True)
class State:
    """Everything about one deal; players are 0, 1, 2 (forehand, middlehand, rearhand)."""

    rules: WienRules
    seats: tuple[str, ...]
    dealer: str
    pot_before: int
    active: tuple[str, str, str]
    deal: tuple[int, int, int, int]  # the three hands as dealt, then the talon
    hands: tuple[int, int, int]
    talon: int
    phase: Phase
    to_act: int | None
    history: tuple[Action, ...] = ()
    # auction
    passed: int = 0  # mask of players who passed
    called: int = 0  # mask of players who made a call other than pass
    high: str | None = None  # the highest call so far
    high_by: int | None = None
    number: int = 0  # the highest number bid so far
    geschaeft_by: tuple[int, ...] = ()  # Geschäft callers in calling order
    talon_seen: int = 0  # mask of players who have seen the dealt talon
    talon_known: int = 0  # mask of players who know what the talon holds now
    # Geschäft resolution
    gs_next: int = 0  # index into geschaeft_by of the next to name a suit
    gs_best: int | None = None  # highest suit named so far (0 C, 1 S, 2 D)
    gs_best_by: int | None = None
    # contract
    declarer: int | None = None
    game: Game | None = None
    raising: bool = False  # the declarer looked (Nachschauen) and must raise
    look_queue: tuple[int, ...] = ()
    # defence: per player "play", "home", "invite", "invited" (declarer and unset: None)
    defence: tuple[str | None, str | None, str | None] = (None, None, None)
    # Aushandeln: the open proposal (by, declarer tricks, defender tricks), proposals made so far
    offer: tuple[int, int, int] | None = None
    offers: int = 0
    bargain_closed: bool = False
    # play
    playing: int = 0b111  # mask of players who play cards
    trick: tuple[tuple[int, int], ...] = ()  # (player, card) in order
    won: tuple[int, int, int] = (0, 0, 0)
    tricks_done: int = 0
    last_trick: tuple[tuple[int, int], ...] = ()
    end: str | None = None  # played, early, both_home, negotiated

    @property
    def deck(self) -> Deck:
        """wien's deck: the 32 piquet cards."""
        return PIQUET

    @property
    def stake(self) -> int:
        return self.rules.stake(self.pot_before)

    @property
    def trump(self) -> int | None:
        """The trump suit index, or None (premium games, Ausfechten)."""
        g = self.game
        if g is None or g.kind != "suit":
            return None
        return "CSDH".index(str(g.level))

    def player(self, seat: str) -> int | None:
        """The player number of ``seat`` in this deal, None for a sitting-out dealer."""
        try:
            return self.active.index(seat)
        except ValueError:
            return None

    @property
    def to_act_seat(self) -> str | None:
        return None if self.to_act is None else self.active[self.to_act]

    @property
    def holder(self) -> int:
        """Who may hold: forehand, or after forehand passed the option's player (wien.md)."""
        if not self.passed & 1:
            return 0
        return 2 if self.rules.holding_after_forehand == "rearhand" else 1

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.DONE

    @property
    def largier_player(self) -> int | None:
        """The defender bound by Largierpflicht, when both defenders play a suit game."""
        g, d = self.game, self.declarer
        if g is None or g.kind != "suit" or d is None or self.playing != 0b111:
            return None
        return (d + 1) % 3


_FIELDS = tuple(State.__dataclass_fields__)
_FIELD_SET = frozenset(_FIELDS)


def _compile_copier() -> Any:
    """A function that copies a State field by field, taking changed fields from a dict:
    generated once so that each copy is straight-line code."""
    lines = ["def copy(state, changes):", "    new = new_state(State)"]
    for name in _FIELDS:
        lines.append(
            f"    put(new, {name!r}, changes[{name!r}] if {name!r} in changes else state.{name})"
        )
    lines.append("    return new")
    scope: dict[str, Any] = {"new_state": object.__new__, "put": object.__setattr__, "State": State}
    exec("\n".join(lines), scope)  # noqa: S102 - generated from the dataclass's own field names
    return scope["copy"]


_copy = _compile_copier()


def evolve(state: State, **changes: Any) -> State:
    """A copy of ``state`` with ``changes``: ``dataclasses.replace`` without its per-call
    introspection, which dominated replaying a record (the state has no ``__post_init__``)."""
    if not changes.keys() <= _FIELD_SET:
        raise TypeError(f"unknown State fields: {sorted(changes.keys() - _FIELD_SET)}")
    new: State = _copy(state, changes)
    return new
