"""``wien`` hand records (``spec/hand-record.md``): the score-sheet entry (form 1) read and
checked against the rules, and a finished hand as one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.errors import Message
from engine.messages import KEY_REQUIRED, NOT_BOOLEAN
from engine.rules.wien import messages as m
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
        raise KEY_REQUIRED.error("game", key="game")
    game = _parse_game(record["game"])
    if "tricks" not in record:
        raise KEY_REQUIRED.error("tricks", key="tricks")
    tricks = record["tricks"]
    if not isinstance(tricks, dict):
        raise m.TRICKS_NOT_OBJECT.error("tricks")
    for seat, n in tricks.items():
        if seat not in active:
            refusal = m.TRICKS_SITS_OUT if seat in seats else m.TRICKS_NOT_A_SEAT
            raise refusal.error(f"tricks.{seat}", seat=seat)
        if type(n) is not int or not 0 <= n <= 10:
            raise m.TRICK_COUNT.error(f"tricks.{seat}", count=repr(n))
    negotiated = record.get("negotiated", False)
    if type(negotiated) is not bool:
        raise NOT_BOOLEAN.error("negotiated", key="negotiated")
    base = Outcome(rules, seats, dealer, pot, active, game=Game("ausfechten"), declarer=None)

    if game.kind == "ausfechten":
        for key in ("declarer", "defence"):
            if key in record:
                raise m.AUSFECHTEN_NO_KEY.error(key, key=key)
        if negotiated:
            raise m.NEGOTIATED_ONLY_SUIT.error("negotiated")
        _need_all(tricks, active, m.AUSFECHTEN_ALL_PLAY)
        _sum(tricks, 10, m.AUSFECHTEN_TRICKS_SUM)
        return replace(base, game=game, declarer=None, tricks=dict(tricks))

    declarer = read_declarer(record, active, seats)
    others = [p for p in active if p != declarer]

    if game.kind == "premium":
        if "defence" in record:
            raise m.PREMIUM_NO_DEFENCE.error("defence")
        if negotiated:
            raise m.NEGOTIATED_ONLY_SUIT.error("negotiated")
        _need_all(tricks, active, m.PREMIUM_ALL_PLAY)
        dec = tricks[declarer]
        opp = sum(tricks[p] for p in others)
        total = dec + opp
        if total > 10:
            raise m.TEN_TRICKS.error("tricks", total=total)
        if game.level in (5, 7):
            if dec > 1 or (dec == 0 and total != 10) or total == 0:
                raise m.MISERE_TRICKS.error("tricks")
        elif opp > 1 or (opp == 0 and dec != 10) or total == 0:
            raise m.SLAM_TRICKS.error("tricks")
        return replace(base, game=game, declarer=declarer, tricks=dict(tricks))

    defence = record.get("defence")
    if not isinstance(defence, dict) or set(defence) != set(others):
        raise m.DEFENCE_CHOICES.error("defence", first=others[0], second=others[1])
    for seat, choice in defence.items():
        if choice not in ("play", "home", "invite", "invited"):
            raise m.DEFENCE_CHOICE.error(f"defence.{seat}", choice=repr(choice))
    choices = sorted(defence.values())
    if choices not in (["play", "play"], ["home", "play"], ["home", "home"], ["invite", "invited"]):
        raise m.INVITATION_PAIR.error("defence")
    if pot == 0 and choices != ["play", "play"]:
        raise m.BOTH_HAD_TO_PLAY.error("defence")
    players = [declarer, *(p for p in others if defence[p] in PLAYING)]
    for seat, n in tricks.items():
        if seat not in players and n:
            raise m.HOME_NO_TRICKS.error(f"tricks.{seat}", seat=seat)
    if len(players) == 1:
        if negotiated:
            raise m.NOTHING_TO_NEGOTIATE.error("negotiated")
        return replace(base, game=game, declarer=declarer, defence=dict(defence), tricks={})
    _need_all(tricks, players, m.PLAYER_NEEDS_TRICKS)
    _sum({p: tricks[p] for p in players}, 10, m.SUIT_TRICKS_SUM)
    if negotiated:
        if len(players) != 2:
            raise m.SPLIT_ONE_DEFENDER.error("negotiated")
        if not 2 <= tricks[players[1]] <= 4:
            raise m.SPLIT_RANGE.error("negotiated")
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
        raise m.GAME_NOT_OBJECT.error("game")
    kind = data["type"]
    if kind == "ausfechten":
        if set(data) != {"type"}:
            raise m.AUSFECHTEN_ONLY_TYPE.error("game")
        return Game("ausfechten")
    if kind == "suit":
        if set(data) != {"type", "level", "talon"}:
            raise m.SUIT_GAME_SHAPE.error("game")
        if data["level"] not in ("C", "S", "D", "H"):
            raise m.SUIT_GAME_LEVEL.error("game.level", level=repr(data["level"]))
        if type(data["talon"]) is not bool:
            raise NOT_BOOLEAN.error("game.talon", key="talon")
        return Game("suit", data["level"], talon=data["talon"])
    if kind == "premium":
        if set(data) != {"type", "level", "hand"}:
            raise m.PREMIUM_GAME_SHAPE.error("game")
        level = data["level"]
        if type(level) is not int or not 5 <= level <= 8:
            raise m.PREMIUM_GAME_LEVEL.error("game.level", level=repr(level))
        if type(data["hand"]) is not bool:
            raise NOT_BOOLEAN.error("game.hand", key="hand")
        return Game("premium", level, talon=not data["hand"], hand=data["hand"])
    raise m.GAME_TYPE.error("game.type", kind=repr(kind))


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


def _need_all(tricks: dict[str, int], players: Sequence[str], why: Message) -> None:
    """Each of ``players`` has a trick count; ``why`` says why one who has none needs one."""
    for p in players:
        if p not in tricks:
            raise why.error(f"tricks.{p}", seat=p)


def _sum(tricks: dict[str, int], total: int, what: Message) -> None:
    """The tricks add up to ``total``; ``what`` names them when they do not."""
    if sum(tricks.values()) != total:
        raise what.error("tricks", total=total, given=sum(tricks.values()))


# ---------------------------------------------------------------------------------------------
# a finished hand


def outcome(state: State) -> Outcome:
    """The score-sheet view of a finished hand."""
    if state.phase is not Phase.DONE:
        who = state.to_act_seat
        raise m.HAND_NOT_FINISHED.error("actions", seat=who, phase=state.phase.value)
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
