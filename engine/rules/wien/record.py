"""``wien`` hand records (``spec/hand-record.md``): the score-sheet entry (form 1) read and
checked against the rules, and a finished hand as one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.errors import EngineError
from engine.rules.wien.play import TABLE
from engine.rules.wien.rules import PREMIUM_NAMES
from engine.rules.wien.settle import PLAYING, Outcome
from engine.rules.wien.state import Game, Phase, State
from engine.ruleset import Common
from engine.table import read_declarer

SHEET_KEYS = frozenset({"game", "declarer", "defence", "tricks", "negotiated"})
"""The keys of a score-sheet entry beyond the common part."""


# ---------------------------------------------------------------------------------------------
# form 1: score-sheet entry


def parse_sheet(record: Mapping[str, Any], common: Common) -> Outcome:
    """Check a score-sheet entry against the rules and return its :class:`Outcome`; its
    common part (``common``) is checked already."""
    rules, seats, dealer, pot = common.rules, common.seats, common.dealer, common.carry
    a = TABLE.active(seats, dealer)
    active = (a[0], a[1], a[2])
    if "game" not in record:
        raise EngineError("game", "game is required")
    game = _parse_game(record["game"])
    if "tricks" not in record:
        raise EngineError("tricks", "tricks is required")
    tricks = record["tricks"]
    if not isinstance(tricks, dict):
        raise EngineError("tricks", "tricks must map player names to trick counts")
    for seat, n in tricks.items():
        if seat not in active:
            where = "sits out this deal" if seat in seats else "is not a seat"
            raise EngineError(f"tricks.{seat}", f"{seat} {where}")
        if type(n) is not int or not 0 <= n <= 10:
            raise EngineError(f"tricks.{seat}", f"a trick count is a whole number 0..10, not {n!r}")
    negotiated = record.get("negotiated", False)
    if type(negotiated) is not bool:
        raise EngineError("negotiated", "negotiated must be true or false")
    base = Outcome(rules, seats, dealer, pot, active, game=Game("ausfechten"), declarer=None)

    if game.kind == "ausfechten":
        for key in ("declarer", "defence"):
            if key in record:
                raise EngineError(key, f"an Ausfechten has no {key}")
        if negotiated:
            raise EngineError("negotiated", "only a suit game with one defender can be negotiated")
        _need_all(tricks, active, "in an Ausfechten all three players play")
        _sum(tricks, 10, "the tricks of an Ausfechten")
        return replace(base, game=game, declarer=None, tricks=dict(tricks))

    declarer = read_declarer(record, active, seats)
    others = [p for p in active if p != declarer]

    if game.kind == "premium":
        if "defence" in record:
            raise EngineError("defence", "in a premium game everybody plays; omit defence")
        if negotiated:
            raise EngineError("negotiated", "only a suit game with one defender can be negotiated")
        _need_all(tricks, active, "in a premium game all three players play")
        dec = tricks[declarer]
        opp = sum(tricks[p] for p in others)
        total = dec + opp
        if total > 10:
            raise EngineError("tricks", f"a hand has 10 tricks, not {total}")
        if game.level in (5, 7):
            if dec > 1 or (dec == 0 and total != 10) or total == 0:
                raise EngineError(
                    "tricks",
                    "a misère ends with the declarer's first trick: the declarer has 0 "
                    "tricks of 10, or 1 trick when play stopped there",
                )
        elif opp > 1 or (opp == 0 and dec != 10) or total == 0:
            raise EngineError(
                "tricks",
                "a slam ends with the defenders' first trick: the defenders have 0 "
                "tricks (declarer 10), or 1 when play stopped there",
            )
        return replace(base, game=game, declarer=declarer, tricks=dict(tricks))

    defence = record.get("defence")
    if not isinstance(defence, dict) or set(defence) != set(others):
        raise EngineError("defence", f"defence must give the choice of {others[0]} and {others[1]}")
    for seat, choice in defence.items():
        if choice not in ("play", "home", "invite", "invited"):
            raise EngineError(f"defence.{seat}", f"{choice!r} is not play, home, invite or invited")
    choices = sorted(defence.values())
    if choices not in (["play", "play"], ["home", "play"], ["home", "home"], ["invite", "invited"]):
        raise EngineError(
            "defence", "an invitation needs one defender with invite and the other with invited"
        )
    if pot == 0 and choices != ["play", "play"]:
        raise EngineError(
            "defence", "the pot held only the dealer's contribution, so both defenders had to play"
        )
    players = [declarer, *(p for p in others if defence[p] in PLAYING)]
    for seat, n in tricks.items():
        if seat not in players and n:
            raise EngineError(f"tricks.{seat}", f"{seat} stayed home and took no tricks")
    if len(players) == 1:
        if negotiated:
            raise EngineError("negotiated", "both defenders stayed home: nothing to negotiate")
        return replace(base, game=game, declarer=declarer, defence=dict(defence), tricks={})
    _need_all(tricks, players, "every player who played needs a trick count")
    _sum({p: tricks[p] for p in players}, 10, "the tricks of a suit game")
    if negotiated:
        if len(players) != 2:
            raise EngineError(
                "negotiated", "a split is agreed only with one defender playing and one at home"
            )
        if not 2 <= tricks[players[1]] <= 4:
            raise EngineError("negotiated", "an agreed split gives the defender 2 to 4 tricks")
    return replace(
        base,
        game=game,
        declarer=declarer,
        defence=dict(defence),
        tricks={p: tricks[p] for p in players},
        negotiated=negotiated,
    )


def _parse_game(data: Any) -> Game:
    if not isinstance(data, dict) or "type" not in data:
        raise EngineError("game", 'game must be an object with a "type"')
    kind = data["type"]
    if kind == "ausfechten":
        if set(data) != {"type"}:
            raise EngineError("game", "an Ausfechten game has only a type")
        return Game("ausfechten")
    if kind == "suit":
        if set(data) != {"type", "level", "talon"}:
            raise EngineError(
                "game", 'a suit game is {"type": "suit", "level": "C|S|D|H", "talon": true|false}'
            )
        if data["level"] not in ("C", "S", "D", "H"):
            raise EngineError(
                "game.level", f"a suit game's level is C, S, D or H, not {data['level']!r}"
            )
        if type(data["talon"]) is not bool:
            raise EngineError("game.talon", "talon must be true or false")
        return Game("suit", data["level"], talon=data["talon"])
    if kind == "premium":
        if set(data) != {"type", "level", "hand"}:
            raise EngineError(
                "game", 'a premium game is {"type": "premium", "level": 5..8, "hand": true|false}'
            )
        level = data["level"]
        if type(level) is not int or not 5 <= level <= 8:
            raise EngineError(
                "game.level", f"a premium game's level is 5, 6, 7 or 8, not {level!r}"
            )
        if type(data["hand"]) is not bool:
            raise EngineError("game.hand", "hand must be true or false")
        return Game("premium", level, talon=not data["hand"], hand=data["hand"])
    raise EngineError("game.type", f"game type must be suit, premium or ausfechten, not {kind!r}")


def game_text(game: Mapping[str, Any] | None) -> str:
    """A game as the score sheet writes it: ``D``, ``Geschäft S``, ``herz``,
    ``5h Bettler von der Hand``, ``Ausfechten`` (``""`` for none)."""
    if not game:
        return ""
    kind = game.get("type")
    if kind == "ausfechten":
        return "Ausfechten"
    if kind == "suit":
        level = str(game.get("level"))
        if game.get("talon", True):
            return level
        return "herz" if level == "H" else f"Geschäft {level}"
    if kind == "premium":
        premium = int(game["level"])
        hand = bool(game.get("hand"))
        text = f"{premium}{'h' if hand else ''} {PREMIUM_NAMES[premium]}"
        return f"{text} von der Hand" if hand else text
    return str(kind)


def _need_all(tricks: dict[str, int], players: Sequence[str], why: str) -> None:
    for p in players:
        if p not in tricks:
            raise EngineError(f"tricks.{p}", f"{why}: give {p}'s tricks")


def _sum(tricks: dict[str, int], total: int, what: str) -> None:
    if sum(tricks.values()) != total:
        raise EngineError("tricks", f"{what} must add up to {total}, not {sum(tricks.values())}")


# ---------------------------------------------------------------------------------------------
# a finished hand


def outcome(state: State) -> Outcome:
    """The score-sheet view of a finished hand."""
    if state.phase is not Phase.DONE:
        who = state.to_act_seat
        raise EngineError(
            "actions", f"the hand is not finished: {who} is to act ({state.phase.value})"
        )
    assert state.game is not None
    base = Outcome(
        state.rules, state.seats, state.dealer, state.pot_before, state.active, state.game, None
    )
    won = dict(zip(state.active, state.won, strict=True))
    if state.declarer is None:
        return replace(base, declarer=None, tricks=won)
    decl = state.active[state.declarer]
    if state.game.kind == "premium":
        return replace(base, declarer=decl, tricks=won)
    defence = {
        state.active[q]: (state.defence[q] or "play") for q in range(3) if q != state.declarer
    }
    if state.end == "both_home":
        return replace(base, declarer=decl, defence=defence, tricks={})
    tricks = {state.active[q]: state.won[q] for q in range(3) if state.playing >> q & 1}
    return replace(
        base, declarer=decl, defence=defence, tricks=tricks, negotiated=state.end == "negotiated"
    )


def sheet_json(o: Outcome) -> dict[str, Any]:
    """The score-sheet keys of an outcome (form 1, beyond the common part)."""
    out: dict[str, Any] = {"game": o.game.to_json()}
    if o.declarer is not None:
        out["declarer"] = o.declarer
    if o.defence:
        out["defence"] = o.defence
    out["tricks"] = o.tricks
    if o.negotiated:
        out["negotiated"] = True
    return out
