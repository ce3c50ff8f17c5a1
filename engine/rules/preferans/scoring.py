"""Scoring one ``preferans`` deal (``spec/next/preferans.md`` §9), help and game end (§10), the
streak after a deal (§8.3), and the score-sheet entry record (§13).

Terms: *entry* (запись) is what one deal writes on the sheet: pool points P (пуля), mountain
points M (гора) and whists W[i→j] (висты) seat ``i`` writes on seat ``j``. *Remise* (ремиз) is
a lost contract, *undertricks* ``u = c − d``; *consolation* (консоляция) the whists the
defenders write per undertrick; *liability* (ответственность) the mountain a whister takes for
the defence's shortfall; *help* (помощь) the pool points past the target given to others.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from engine.rules.preferans import messages as m
from engine.rules.preferans.outcome import DealOutcome, active_seats, defenders, participants
from engine.rules.preferans.rules import PreferansRules
from engine.rules.preferans.sheet import Sheet, game_over
from engine.table import read_declarer

PRICE = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}
"""§9: ``p`` by contract level (Kodeks §2.2.2); misère is 10."""
MISERE_PRICE = 10
OBLIGATION = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
"""§5: ``ob``, the tricks the defending side must take."""
STRAINS = ("S", "C", "D", "H", "NT")
GAMES = ("contract", "misere", "raspasy")
DEFENCE_CALLS = ("whist", "pass", "half")
MODES = ("open", "closed")
ENVELOPE = ("rules", "seats", "dealer", "streak", "sheet")
"""The common part of a single record (§13); :func:`parse_entry` leaves these to its caller."""


@dataclass(slots=True)
class Entry:
    """One deal's entry while it is written (§9): pool entries in order, mountain and whists."""

    seats: tuple[str, ...]
    pools: list[tuple[str, int]] = field(default_factory=list)
    mountain: dict[str, int] = field(default_factory=dict)
    whists: dict[str, dict[str, int]] = field(default_factory=dict)

    def pool(self, seat: str, points: int) -> None:
        if points:
            self.pools.append((seat, points))

    def mount(self, seat: str, points: int) -> None:
        self.mountain[seat] = self.mountain.get(seat, 0) + points

    def whist(self, writer: str, target: str, whists: int) -> None:
        if whists:
            row = self.whists.setdefault(writer, {})
            row[target] = row.get(target, 0) + whists

    def to_json(self) -> dict[str, Any]:
        seats = self.seats
        pool = dict.fromkeys(seats, 0)
        for seat, points in self.pools:
            pool[seat] += points
        mountain = dict.fromkeys(seats, 0)
        if self.mountain:
            mountain.update(self.mountain)  # written for seats only: their order stays
        whists = _ordered_whists(self.whists, seats) if self.whists else {}
        return {"pool": pool, "mountain": mountain, "whists": whists}


def _ordered_whists(
    whists: Mapping[str, Mapping[str, int]], seats: Sequence[str]
) -> dict[str, dict[str, int]]:
    """The non-zero pairs of ``whists``, writers and targets in seat order."""
    out: dict[str, dict[str, int]] = {}
    for writer in seats:
        row = whists.get(writer)
        if not row:
            continue
        if len(row) == 1:  # a deal's entry: each writer writes on one seat
            for target, n in row.items():
                if n and target in seats:
                    out[writer] = {target: n}
            continue
        kept = {t: row[t] for t in seats if row.get(t)}
        if kept:
            out[writer] = kept
    return out


def price(outcome: DealOutcome) -> int:
    """§9: ``p`` = 2, 4, 6, 8, 10 for a 6 … 10; 10 for misère."""
    if outcome.game == "misere":
        return MISERE_PRICE
    assert outcome.level is not None
    return PRICE[outcome.level]


def checked_ten(outcome: DealOutcome) -> bool:
    """§5: with ``ten_whisted = false`` a ten is checked: no whist step, ``ob`` = 0."""
    return outcome.game == "contract" and outcome.level == 10 and not outcome.rules.ten_whisted


def consolation_writers(outcome: DealOutcome) -> tuple[str, ...]:
    """§9: both defenders, plus the sitting-out dealer with ``dealer_consolation``."""
    assert outcome.declarer is not None
    return _writers(
        outcome.seats, outcome.dealer, outcome.declarer, outcome.rules.dealer_consolation
    )


@cache
def _writers(
    seats: tuple[str, ...], dealer: str, declarer: str, dealer_consolation: bool
) -> tuple[str, ...]:
    writers = tuple(s for s in active_seats(seats, dealer) if s != declarer)
    if len(seats) == 4 and dealer_consolation:
        writers = (*writers, dealer)
    return writers


def _consolation(outcome: DealOutcome, p: int) -> int:
    """§9: ``cons`` per undertrick: ``p·wm`` with ``"price"``, else 10."""
    r = outcome.rules
    return p * r.whist_mult if r.consolation == "price" else 10


def made(outcome: DealOutcome) -> bool | None:
    """A contract is made when unplayed (both passed, half-whist) or ``d ≥ c``; a misère when
    the declarer took no trick; None on raspasy."""
    if outcome.game == "raspasy":
        return None
    assert outcome.declarer is not None
    if not outcome.tricks:
        return True
    d = outcome.tricks[outcome.declarer]
    if outcome.game == "misere":
        return d == 0
    assert outcome.level is not None
    return d >= outcome.level


def _contract(outcome: DealOutcome, e: Entry) -> None:
    """§9.1."""
    r = outcome.rules
    decl = outcome.declarer
    level = outcome.level
    assert decl is not None and level is not None
    p = price(outcome)
    pm, mm, wm = r.pool_mult, r.mountain_mult, r.whist_mult
    calls = outcome.defence or {}
    if not outcome.tricks:
        # Both passed, or half-whist: the contract counts as made without play.
        e.pool(decl, p * pm)
        for seat, call in calls.items():
            if call == "half":
                e.whist(seat, decl, p * wm * OBLIGATION[level] // 2)
        return
    d = outcome.tricks[decl]
    if d >= level:
        e.pool(decl, p * pm)
    else:
        u = level - d
        if r.consolation != "fixed10_only":
            e.mount(decl, p * u * mm)
        cons = _consolation(outcome, p)
        for writer in consolation_writers(outcome):
            e.whist(writer, decl, cons * u)
    if checked_ten(outcome):
        return
    first, second = defenders(outcome)
    whisters = []
    if calls.get(first) == "whist":
        whisters.append(first)
    if calls.get(second) == "whist":
        whisters.append(second)
    s = 10 - d
    if len(whisters) == 2:
        for w in whisters:
            e.whist(w, decl, p * wm * outcome.tricks[w])
    elif len(whisters) == 1:
        halves = r.whist_split == "gentleman" or (r.whist_split == "gentleman_remise" and d < level)
        if halves:
            for w in (first, second):
                e.whist(w, decl, p * wm * s // 2)
        else:
            e.whist(whisters[0], decl, p * wm * s)
    for seat, missing in _liability(outcome, whisters, s).items():
        if r.whist_liability == "full":
            e.mount(seat, p * mm * missing)
        else:
            e.mount(seat, p // 2 * mm * missing)


def _liability(outcome: DealOutcome, whisters: list[str], s: int) -> dict[str, int]:
    """§5: each liable whister's share of ``missing = ob − s``."""
    r = outcome.rules
    assert outcome.level is not None
    ob = OBLIGATION[outcome.level]
    missing = ob - s
    if missing <= 0 or not whisters:
        return {}
    if len(whisters) == 1:
        return {whisters[0]: missing}
    if outcome.level in (6, 7):
        share = ob // 2
        out = {}
        for w in whisters:
            t = outcome.tricks[w]
            if t < share:
                out[w] = min(share - t, missing) if r.liability_6_7 == "capped" else share - t
        return out
    if r.liability_8_10 == "both":
        return {w: missing for w in whisters}
    return {defenders(outcome)[1]: missing}


def _misere(outcome: DealOutcome, e: Entry) -> None:
    """§9.2."""
    r = outcome.rules
    decl = outcome.declarer
    assert decl is not None
    d = outcome.tricks[decl]
    if d == 0:
        e.pool(decl, MISERE_PRICE * r.pool_mult)
        return
    if r.consolation != "fixed10_only":
        e.mount(decl, MISERE_PRICE * d * r.mountain_mult)
    if r.misere_consolation or r.consolation == "fixed10_only":
        cons = _consolation(outcome, MISERE_PRICE)
        for writer in consolation_writers(outcome):
            e.whist(writer, decl, cons * d)


def _raspasy(outcome: DealOutcome, e: Entry) -> None:
    """§9.3, participants from first hand, the dealer last."""
    r = outcome.rules
    b = r.base_price(outcome.streak)
    order = participants(outcome)
    t = {s: outcome.tricks[s] for s in order}
    fewest = min(t.values())
    if r.raspasy_scoring == "mountain":
        a = fewest if r.raspasy_amnesty else 0
        for s in order:
            e.mount(s, b * r.mountain_mult * (t[s] - a))
    else:
        writers = [s for s in order if t[s] == fewest]
        for j in order:
            if j in writers:
                continue
            amount = r.raspasy_whists * b * t[j]
            each, left = divmod(amount, len(writers))
            for k, w in enumerate(writers):
                e.whist(w, j, each + (1 if k < left else 0))
    if r.raspasy_zero_pool:
        zero = [s for s in order if t[s] == 0]
        if len(outcome.seats) == 4 and r.raspasy_talon == "closed":
            zero.append(outcome.dealer)
        for s in zero:
            e.pool(s, b * r.pool_mult)


def entry(outcome: DealOutcome) -> Entry:
    """The deal's own entry before help (§9)."""
    e = Entry(outcome.seats)
    if outcome.game == "contract":
        _contract(outcome, e)
    elif outcome.game == "misere":
        _misere(outcome, e)
    else:
        _raspasy(outcome, e)
    return e


def next_streak(outcome: DealOutcome) -> int:
    """§8.3: ``k + 1`` after raspasy; after any other deal per ``raspasy_reset``:
    ``"any_game"`` 0; ``"made_game"`` 0 after a made contract (unplayed included) or misère;
    ``"whisted_game"`` 0 after a misère, a checked ten, or a contract a defender whisted or
    half-whisted. Otherwise unchanged."""
    k = outcome.streak
    if outcome.game == "raspasy":
        return k + 1
    reset = outcome.rules.raspasy_reset
    if reset == "any_game":
        return 0
    if reset == "made_game":
        return 0 if made(outcome) else k
    if outcome.game == "misere" or checked_ten(outcome):
        return 0
    calls = (outcome.defence or {}).values()
    return 0 if any(c in ("whist", "half") for c in calls) else k


def _help_order(
    rules: PreferansRules, seats: Sequence[str], i: str, pool: Mapping[str, int]
) -> str | None:
    """§10: the seat to help next, or None when every other pool is closed."""
    n = len(seats)
    k = list(seats).index(i)
    after = [seats[(k + step) % n] for step in range(1, n)]
    open_ = [s for s in after if pool[s] < rules.pool_target]
    if not open_:
        return None
    if rules.help_to == "next":
        return open_[0]
    best = max(pool[s] for s in open_)
    return next(s for s in open_ if pool[s] == best)


def apply_entry(
    rules: PreferansRules, seats: Sequence[str], sheet: Sheet, e: Entry
) -> tuple[Sheet, list[dict[str, Any]]]:
    """§10: the sheet after the deal, and the help transfers in order.

    Pool entries are applied one at a time. With ``"all_closed"`` a pool past T stops at T;
    the excess E helps other seats below T (``help_to``), ``i`` writing ``g·K_P`` whists on
    each; what is left is written off ``i``'s mountain, ``E·K_P/K_M``. With ``"sum"`` pools
    are not capped and there is no help."""
    target = rules.pool_target
    pool = dict(sheet.pool)
    mountain = {s: sheet.mountain[s] + e.mountain.get(s, 0) for s in seats}
    whists: dict[str, dict[str, int]] = {w: dict(row) for w, row in sheet.whists.items()}

    def write(writer: str, target_seat: str, n: int) -> None:
        row = whists.setdefault(writer, {})
        row[target_seat] = row.get(target_seat, 0) + n

    for writer, row in e.whists.items():
        for target_seat, n in row.items():
            write(writer, target_seat, n)
    transfers: list[dict[str, Any]] = []
    for i, points in e.pools:
        if rules.game_end == "sum" or pool[i] + points <= target:
            pool[i] += points
            continue
        excess = pool[i] + points - target
        pool[i] = target
        while excess > 0:
            j = _help_order(rules, seats, i, pool)
            if j is None:
                break
            g = min(excess, target - pool[j])
            pool[j] += g
            write(i, j, g * rules.pool_point_whists)
            transfers.append(
                {"from": i, "to": j, "points": g, "whists": g * rules.pool_point_whists}
            )
            excess -= g
        if excess > 0:
            off = excess * rules.pool_point_whists // rules.mountain_point_whists
            mountain[i] -= off
            transfers.append({"from": i, "to": None, "points": excess, "mountain": -off})
    return Sheet(pool, mountain, _ordered_whists(whists, seats)), transfers


def game_json(outcome: DealOutcome) -> dict[str, Any]:
    """§13 ``game``: ``{"type": "contract", "level", "strain"}``, ``{"type": "misere"}`` or
    ``{"type": "raspasy"}``."""
    if outcome.game == "contract":
        return {"type": "contract", "level": outcome.level, "strain": outcome.strain}
    return {"type": outcome.game}


def score(outcome: DealOutcome) -> dict[str, Any]:
    """§13 Result of one deal: ``declarer``, ``game``, ``made``, ``tricks``, ``defence``,
    ``entry`` (before help), ``help``, ``streak`` (for the next deal), and with a sheet also
    ``sheet`` (after the deal) and ``game_over``. A sheet that already meets the game-end
    condition is an error (§10)."""
    e = entry(outcome)
    result: dict[str, Any] = {
        "declarer": outcome.declarer,
        "game": game_json(outcome),
        "made": made(outcome),
        "tricks": dict(outcome.tricks),
        "defence": dict(outcome.defence) if outcome.defence is not None else None,
        "entry": e.to_json(),
        "help": [],
        "streak": next_streak(outcome),
    }
    if outcome.sheet is not None:
        check_open(outcome.rules, outcome.sheet)
        after, transfers = apply_entry(outcome.rules, outcome.seats, outcome.sheet, e)
        result["help"] = transfers
        result["sheet"] = after.to_json()
        result["game_over"] = game_over(outcome.rules, after)
    return result


def check_open(rules: PreferansRules, sheet: Sheet, at: str = "sheet") -> None:
    """§10: no deal is scored on a sheet that already meets the game-end condition."""
    if game_over(rules, sheet):
        raise m.GAME_OVER.error(at)


def entry_json(outcome: DealOutcome) -> dict[str, Any]:
    """§13 score-sheet keys of a deal: ``game``, ``declarer``, ``defence``, ``mode``,
    ``tricks``; those that do not apply are left out."""
    out: dict[str, Any] = {"game": game_json(outcome)}
    if outcome.declarer is not None:
        out["declarer"] = outcome.declarer
    if outcome.defence is not None:
        out["defence"] = dict(outcome.defence)
    if outcome.mode is not None:
        out["mode"] = outcome.mode
    if outcome.tricks or outcome.game != "contract":
        out["tricks"] = dict(outcome.tricks)
    return out


# --- parsing a score-sheet entry (§13) ------------------------------------------------------


def _is_int(value: object) -> bool:
    return type(value) is int


def _parse_game(
    data: object, rules: PreferansRules, streak: int
) -> tuple[str, int | None, str | None]:
    if not isinstance(data, Mapping) or data.get("type") not in GAMES:
        raise m.GAME_SHAPE.error("game")
    kind = data["type"]
    allowed = ("type", "level", "strain") if kind == "contract" else ("type",)
    for key in data:
        if key not in allowed:
            raise m.GAME_KEY[kind].error(f"game.{key}", key=repr(key))
    if kind != "contract":
        return kind, None, None
    level = data.get("level")
    if not isinstance(level, int) or isinstance(level, bool) or not 6 <= level <= 10:
        raise m.CONTRACT_LEVEL.error("game.level", level=repr(level))
    strain = data.get("strain")
    if strain not in STRAINS:
        raise m.GAME_STRAIN.error("game.strain", strain=repr(strain))
    minimum = rules.exit_minimum(streak)
    if level < minimum:
        raise m.CONTRACT_BELOW_EXIT.error(
            "game.level", streak=streak, minimum=minimum, contract=f"{level}{strain}"
        )
    return kind, level, strain


def _parse_tricks(data: object, who: tuple[str, ...]) -> dict[str, int]:
    if not isinstance(data, Mapping):
        raise m.TRICKS_NOT_OBJECT.error("tricks")
    for key in data:
        if key not in who:
            raise m.TRICKS_NOT_PLAYER.error(f"tricks.{key}", key=repr(key))
    out: dict[str, int] = {}
    for seat in who:
        if seat not in data:
            raise m.TRICKS_MISSING_PLAYER.error(f"tricks.{seat}", seat=seat)
        t = data[seat]
        if not _is_int(t) or not 0 <= t <= 10:
            raise m.TRICKS_VALUE.error(f"tricks.{seat}", value=repr(t))
        out[seat] = t
    if sum(out.values()) != 10:
        raise m.TRICKS_SUM.error("tricks", total=sum(out.values()))
    return out


def parse_entry(
    record: Mapping[str, Any],
    rules: PreferansRules,
    seats: tuple[str, ...],
    dealer: str,
    streak: int,
    sheet: Sheet | None,
) -> DealOutcome:
    """A §13 score-sheet entry (``game``, ``declarer``, ``defence``, ``mode``, ``tricks``)
    checked against the envelope the caller parsed (``rules``, ``seats``, ``dealer``,
    ``streak``, ``sheet``, whose keys it leaves alone). Errors name the key."""
    for key in record:
        if key == "pot":
            raise m.NO_POT.error("pot")
        if key not in ENVELOPE and key not in ("game", "declarer", "defence", "mode", "tricks"):
            raise m.ENTRY_UNKNOWN_KEY.error(key, key=repr(key))
    if "game" not in record:
        raise m.ENTRY_NEEDS_GAME.error("game")
    kind, level, strain = _parse_game(record["game"], rules, streak)
    active = active_seats(seats, dealer)
    base = DealOutcome(
        rules, seats, dealer, streak, sheet, kind, level, strain, None, None, None, {}
    )
    if kind == "raspasy":
        for key in ("declarer", "defence", "mode"):
            if key in record:
                raise m.RASPASY_KEY.error(key, key=key)
        if "tricks" not in record:
            raise m.RASPASY_NEEDS_TRICKS.error("tricks")
        tricks = _parse_tricks(record["tricks"], participants(base))
        return _with(base, tricks=tricks)
    decl = read_declarer(record, active, base.seats, "contract")
    base = _with(base, declarer=decl)
    if kind == "misere" or checked_ten(base):
        misere = kind == "misere"
        for key in ("defence", "mode"):
            if key in record:
                no_whist = m.MISERE_NO_WHIST_KEY if misere else m.CHECKED_TEN_NO_WHIST_KEY
                raise no_whist.error(key, key=key)
        if "tricks" not in record:
            needs = m.MISERE_NEEDS_TRICKS if misere else m.CHECKED_TEN_NEEDS_TRICKS
            raise needs.error("tricks")
        return _with(base, tricks=_parse_tricks(record["tricks"], active))
    defence = _parse_defence(record.get("defence"), base)
    whisters = [s for s, c in defence.items() if c == "whist"]
    mode = record.get("mode")
    if "mode" in record:
        if mode not in MODES:
            raise m.ENTRY_MODE.error("mode", mode=repr(mode))
        if len(whisters) != 1:
            raise m.MODE_LONE_WHISTER.error("mode")
    played = bool(whisters)
    if played and "tricks" not in record:
        raise m.WHISTED_NEEDS_TRICKS.error("tricks")
    if not played and "tricks" in record:
        raise m.UNWHISTED_NO_TRICKS.error("tricks")
    tricks = _parse_tricks(record["tricks"], active) if played else {}
    return _with(base, defence=defence, mode=mode, tricks=tricks)


def _parse_defence(data: object, base: DealOutcome) -> dict[str, str]:
    first, second = defenders(base)
    if not isinstance(data, Mapping):
        raise m.DEFENCE_SHAPE.error("defence", first=first, second=second)
    for key in data:
        if key not in (first, second):
            raise m.NOT_A_DEFENDER.error(f"defence.{key}", key=repr(key))
    out: dict[str, str] = {}
    for seat in (first, second):
        call = data.get(seat)
        if call not in DEFENCE_CALLS:
            raise m.DEFENCE_CALL.error(f"defence.{seat}", seat=seat, call=repr(call))
        out[seat] = call
    if out[first] == "half":
        raise m.HALF_BY_FIRST.error(f"defence.{first}")
    if out[second] == "half":
        assert base.level is not None
        why = None
        if out[first] != "pass":
            why = m.HALF_AFTER_PASS
        elif base.level not in (6, 7):
            why = m.HALF_ON_SIX_SEVEN
        elif not base.rules.half_whist:
            why = m.HALF_NOT_AT_TABLE
        if why:
            raise why.error(f"defence.{second}", seat=second)
    return out


def _with(base: DealOutcome, **changes: Any) -> DealOutcome:
    return replace(base, **changes)
