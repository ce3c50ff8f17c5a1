"""A talon-family deal as its score sheet records it (``hand-record.md`` form 1 and the
"Records" sections of ``spec/next/``): reading an entry, writing one, and a finished hand's
outcome."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.rules.family import messages as msg
from engine.rules.family.game import MISERE, NORMAL, SLAM, UNO, Game, Rules, make_game
from engine.ruleset import Common
from engine.table import read_declarer

if TYPE_CHECKING:
    from engine.rules.family.hand import Hand
    from engine.rules.family.spec import Family

PLAYING = ("play", "invite", "invited")


@dataclass(slots=True)
class Outcome:
    """What happened in a deal: the envelope, the ``game`` (None: no game), the ``declarer``,
    each asked defender's ``defence``, the ``tricks`` of every player who played, and the
    set's own score-sheet keys (``extra``, as JSON). Not frozen (a frozen dataclass costs the
    fast path a tenth of its settlement): treat it as a value, never change one."""

    rules: Rules
    seats: tuple[str, ...]
    dealer: str
    carry: dict[str, Any]
    active: tuple[str, ...]
    game: Game | None
    declarer: str | None
    defence: dict[str, str] = field(default_factory=dict)
    tricks: dict[str, int] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def others(self) -> list[str]:
        return [p for p in self.active if p != self.declarer]

    @property
    def players(self) -> list[str]:
        """The defenders who played (all where nobody was asked)."""
        return [p for p in self.others if self.defence.get(p, "play") in PLAYING]


def outcome_of(h: Hand, seats: tuple[str, ...], dealer: str) -> Outcome:
    """The outcome of a finished hand."""
    active = h.active
    d = h.declarer
    defence = {active[q]: h.defence[q] for q in (0, 1, 2) if q != d and h.defence[q]}
    tricks: dict[str, int] = {}
    if h.end in ("played", "early"):
        tricks = {active[q]: h.won[q] for q in (0, 1, 2) if h.playing >> q & 1}
    return Outcome(
        h.rules,
        seats,
        dealer,
        h.carry,
        active,
        h.game,
        None if d < 0 else active[d],
        defence,
        tricks,
        h.family.extra_of(h),
    )


def sheet_json(o: Outcome) -> dict[str, Any]:
    """The score-sheet keys of an outcome."""
    out: dict[str, Any] = {"game": None if o.game is None else o.game.to_json()}
    if o.declarer is not None:
        out["declarer"] = o.declarer
    if o.defence:
        out["defence"] = dict(o.defence)
    if o.game is not None:
        out["tricks"] = dict(o.tricks)
    out.update(o.extra)
    return out


def parse_game(data: Any, kinds: Mapping[str, Sequence[Any]]) -> Game:
    """A ``game`` object of the kinds a set plays: ``kinds`` maps ``suit`` / ``premium`` /
    ``notrump`` to its levels."""
    if not isinstance(data, dict) or data.get("type") not in kinds:
        names = ", ".join(kinds)
        raise msg.GAME_OBJECT.error("game", types=names)
    kind = data["type"]
    flag = "hand" if kind == "premium" else "talon"
    if set(data) != {"type", "level", flag}:
        raise msg.GAME_KEYS.error("game", kind=kind, flag=flag)
    level = data["level"]
    if type(level) is bool or level not in kinds[kind]:
        levels = ", ".join(str(v) for v in kinds[kind])
        raise msg.GAME_LEVEL.error("game.level", kind=kind, levels=levels, level=repr(level))
    if type(data[flag]) is not bool:
        raise msg.TRUE_OR_FALSE.error(f"game.{flag}", key=flag)
    talon = not data[flag] if kind == "premium" else data[flag]
    return make_game(kind, level, talon)


def parse_sheet(fam: Family, record: Mapping[str, Any], common: Common) -> Outcome:
    """Check a score-sheet entry against the rules (envelope checked already)."""
    rules, seats, dealer, carry = common.rules, common.seats, common.dealer, common.carry
    active = tuple(fam_active(seats, dealer))
    if "game" not in record:
        raise msg.GAME_REQUIRED.error("game")
    base = Outcome(rules, seats, dealer, carry, active, None, None)
    if record["game"] is None:
        return fam.parse_no_game(record, base)
    game = parse_game(record["game"], fam.game_kinds(rules))
    declarer = read_declarer(record, active, seats)
    others = [p for p in active if p != declarer]
    asked = fam.sheet_defence(rules, game)
    defence: dict[str, str] = {}
    if asked:
        data = record.get("defence")
        if not isinstance(data, dict) or set(data) != set(others):
            raise msg.DEFENCE_BOTH.error("defence", first=others[0], second=others[1])
        for seat, choice in data.items():
            if choice not in asked:
                raise msg.DEFENCE_VALUE.error(
                    f"defence.{seat}", choice=repr(choice), choices=" or ".join(asked)
                )
        choices = sorted(data.values())
        if ("invite" in choices or "invited" in choices) and choices != ["invite", "invited"]:
            raise msg.INVITATION_PAIR.error("defence")
        defence = dict(data)
    elif "defence" in record:
        raise msg.DEFENCE_OMIT.error("defence")
    o = Outcome(rules, seats, dealer, carry, active, game, declarer, defence)
    extra = fam.parse_extra(record, o)
    o = Outcome(rules, seats, dealer, carry, active, game, declarer, defence, {}, extra)
    played = fam.sheet_players(o) if fam.sheet_played(o) else []
    tricks = read_tricks(record, o, played, fam.target(game, rules))
    if tricks:
        fam.check_tricks(o, tricks)
    return Outcome(rules, seats, dealer, carry, active, game, declarer, defence, tricks, extra)


def fam_active(seats: Sequence[str], dealer: str) -> list[str]:
    i = list(seats).index(dealer)
    return [seats[(i + k) % len(seats)] for k in (1, 2, 3)]


def read_tricks(
    record: Mapping[str, Any], o: Outcome, players: list[str], target: int
) -> dict[str, int]:
    """The ``tricks`` of an entry: every player who played (a player at home omitted or 0),
    summing to 10, or a premium contract's early end; ``{}`` or omitted when nobody played."""
    data = record.get("tricks", {})
    if not isinstance(data, dict):
        raise msg.TRICKS_OBJECT.error("tricks")
    for seat, n in data.items():
        if seat not in o.active:
            where = msg.TRICKS_SITS_OUT if seat in o.seats else msg.TRICKS_NOT_A_SEAT
            raise where.error(f"tricks.{seat}", seat=seat)
        if type(n) is not int or not 0 <= n <= 10:
            raise msg.TRICK_COUNT.error(f"tricks.{seat}", count=repr(n))
    if not players:
        if any(data.values()):
            raise msg.TRICKS_NOBODY_PLAYED.error("tricks")
        return {}
    d = o.declarer
    for seat, n in data.items():
        if seat not in players and n:
            raise msg.TRICKS_NOT_PLAYED.error(f"tricks.{seat}", seat=seat)
    for seat in players:
        if seat not in data:
            raise msg.TRICKS_MISSING.error(f"tricks.{seat}", seat=seat)
    tricks = {p: data[p] for p in o.active if p in players}
    total = sum(tricks.values())
    if target == NORMAL:
        if total != 10:
            raise msg.TRICKS_SUM.error("tricks", total=total)
        return tricks
    assert d is not None
    dec = tricks[d]
    opp = total - dec
    if total > 10 or total == 0:
        raise msg.TRICKS_TOTAL.error("tricks", total=total)
    if target == MISERE and (dec > 1 or (dec == 0 and total != 10)):
        raise msg.TRICKS_MISERE.error("tricks")
    if target == SLAM and (opp > 1 or (opp == 0 and dec != 10)):
        raise msg.TRICKS_SLAM.error("tricks")
    if target == UNO and (dec > 2 or (dec < 2 and total != 10)):
        raise msg.TRICKS_UNO.error("tricks")
    return tricks
