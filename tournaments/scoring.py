"""Tournament scoring: standings of a tournament from its rounds, as plain values (no ORM).

The ORM side turns every table sitting of a tournament (and, for duplicate, every player's
result on every board) into the values below and calls ``standings``. Nothing here knows a
particular game: amounts are integers in the game's unit. ``clubs/standings.py`` ranks club
seasons the same way (frozen values, exact fractions, competition ranks).

Terms:

- *round* (Runde): every table plays at the same time; numbered by ``int``.
- *sitting* (``Sitting``, Tischrunde): one table in one round, with its 3 or 4 players (at a
  four-table the dealer sits out each deal) and each player's *amount*: the signed integer
  they won there (cents for money games, points for the others; the sum of their deltas).
- *board* (``BoardResult``, Duplicate-Austeilung): in duplicate scoring every table of a round
  plays the same deals; a board is one of them. Players at different tables who hold the same
  cards on a board sit in the same *direction* (seat position), and only they are compared.
- *points*: what the standings are ordered by first; depends on the *scoring mode*
  (``SCORINGS``):

  - ``balance``: the sum of the player's amounts;
  - ``table_rank``: per sitting, places by amount, highest first, worth as many points as the
    table has players down to 1: 3/2/1 at a three-table, 4/3/2/1 at a four-table, at a table of
    any size the rule set seats (:func:`table_rank_worth`); players tied on a place split the
    points of the places they cover exactly ((3 + 2) / 2 each for two sharing first at a
    three-table); points are the sum over sittings; a table of one player is an error;
  - ``duplicate``: per board, the player's amount is compared with every other player of the
    same (round, board, direction); 2 matchpoints per player beaten, 1 per tie, 0 per loss;
    the board's percentage is matchpoints / (2 x comparisons) x 100, or 50 with nobody to
    compare with; points are the average percentage over all boards the player played. A
    round's points are the average over the boards of that round.

- *round points*: the same measure restricted to one round (``StandingsRow.by_round``).
- *tiebreaks* (``TIEBREAKS``): applied in the chosen order after points; see each function.
  Players equal on points and on every chosen tiebreak share a rank ("competition ranking":
  1, 2, 2, 4); rows of a shared rank are listed by player id.
- *movement*: the player's rank after the previous round minus their rank now (positive is
  up), ``None`` after the first round or for a player without a previous rank.

``standings`` is a pure function of its inputs: the order of sittings and board results does
not matter. All values are exact (``Fraction``); ``to_json`` turns them into text
(``points_text``), the one form points, round points and tiebreak values take in every
answer, export and webhook.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any, TypeAlias

Player: TypeAlias = int | str
"""A player's id: user ids (int) on the server, names (str) in tests; one kind per call."""

Amounts: TypeAlias = Mapping[int, int] | Mapping[str, int]
"""Integers by player (``Mapping`` is invariant in its key, hence one kind of id or the other)."""

Direction: TypeAlias = int | str
"""A seat position at a table (1, 2, 3 or "N", "E", ...): who holds which cards on a board."""

SCORINGS = ("balance", "table_rank", "duplicate")
"""The scoring modes (module text)."""


def table_rank_worth(size: int) -> tuple[int, ...]:
    """``table_rank`` points for places 1, 2, ... at a table of ``size`` players: ``size``
    for the first place down to 1 for the last (3/2/1, 4/3/2/1), so a place is worth one
    point per player it beats plus one, whatever table sizes the rule set seats."""
    return tuple(range(size, 0, -1))


NO_COMPARISON_PERCENT = Fraction(50)
"""A duplicate board's percentage when nobody else held the same cards."""


@dataclass(frozen=True, slots=True)
class Sitting:
    """One table in one round: its players, each one's amount and, optionally, how many games
    each won as declarer (Spieler) there. Every seated player needs an amount; a (round,
    table) is given once per call."""

    round: int
    table: int
    players: tuple[Player, ...]
    amounts: Amounts
    declarer_wins: Amounts = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "amounts", MappingProxyType(dict(self.amounts)))
        object.__setattr__(self, "declarer_wins", MappingProxyType(dict(self.declarer_wins)))
        name = f"round {self.round}, table {self.table}"
        if not self.players:
            raise ValueError(f"{name}: no players")
        if len(set(self.players)) != len(self.players):
            raise ValueError(f"{name}: a player is seated twice")
        if set(self.amounts) != set(self.players):
            raise ValueError(f"{name}: amounts must be given for exactly the seated players")
        if not set(self.declarer_wins) <= set(self.players):
            raise ValueError(f"{name}: declarer wins of a player who is not seated")

    def amount(self, player: Player) -> int:
        """The player's amount at this sitting (``KeyError`` when not seated)."""
        return self.amounts[player]  # type: ignore[index]  # the key kind matches (Amounts)


@dataclass(frozen=True, slots=True)
class BoardResult:
    """One player's amount on one duplicate board, sitting in ``direction`` at ``table``."""

    round: int
    board: int
    table: int
    direction: Direction
    player: Player
    amount: int


@dataclass(frozen=True, slots=True)
class BoardScore:
    """A board result scored: ``comparisons`` other players held the same cards, the player
    earned ``matchpoints`` (2 per player beaten, 1 per tie) and ``percent`` of the maximum."""

    result: BoardResult
    comparisons: int
    matchpoints: int
    percent: Fraction


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One player's line: ``points`` (by the scoring mode), ``rounds`` played, ``by_round``
    their points per round played, ``tiebreaks`` the value of each chosen tiebreak (higher is
    better) and ``movement`` since the previous round."""

    player: Player
    rank: int
    points: Fraction
    rounds: int
    by_round: Mapping[int, Fraction]
    tiebreaks: Mapping[str, Fraction]
    movement: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON; every fraction through ``points_text``."""
        return {
            "rank": self.rank,
            "player": self.player,
            "points": points_text(self.points),
            "rounds": self.rounds,
            "by_round": {str(r): points_text(p) for r, p in self.by_round.items()},
            "tiebreaks": {name: points_text(v) for name, v in self.tiebreaks.items()},
            "movement": self.movement,
        }


@dataclass(frozen=True, slots=True)
class Standings:
    """The table: ``rows`` in rank order (a shared rank by player id), the ``scoring`` mode and
    the ``tiebreaks`` applied, in order."""

    scoring: str
    tiebreaks: tuple[str, ...]
    rows: tuple[StandingsRow, ...]

    def row(self, player: Player) -> StandingsRow:
        """The row of ``player`` (``KeyError`` when the player is not in the table)."""
        for row in self.rows:
            if row.player == player:
                return row
        raise KeyError(player)

    def decided_by(self) -> dict[Player, tuple[str, ...]]:
        """Each player's tiebreaks that decided a placing (module function ``decided_by``)."""
        found = decided_by([(r.points, r.tiebreaks) for r in self.rows], self.tiebreaks)
        return {row.player: names for row, names in zip(self.rows, found, strict=True)}

    def to_json(self) -> dict[str, Any]:
        return {
            "scoring": self.scoring,
            "tiebreaks": list(self.tiebreaks),
            "rows": [row.to_json() for row in self.rows],
        }


POINTS_PATTERN = r"^-?[0-9]+(/[0-9]+)?$"
"""What ``points_text`` writes, as a regular expression (for the API schema)."""


def points_text(value: Fraction) -> str:
    """An exact value as text, the one form of points everywhere: an integer ("3", "-120",
    and a ``lots`` draw of 20 digits, which no JSON number would keep), else the fraction in
    lowest terms, numerator "/" denominator ("3/2", "175/3": a percentage of thirds has no
    exact decimal)."""
    return str(Fraction(value))


# --- points ------------------------------------------------------------------------------


def table_rank_points(sitting: Sitting) -> dict[Player, Fraction]:
    """``table_rank`` points of each player at a sitting: places by amount, highest first,
    worth :func:`table_rank_worth`; players tied on a place split the points of all the places
    they cover equally (three tied for second at a four-table: (3 + 2 + 1) / 3 each)."""
    size = len(sitting.players)
    if size < 2:
        raise ValueError(
            f"round {sitting.round}, table {sitting.table}: table_rank ranks the players of a "
            f"table, and it has {size}"
        )
    worth = table_rank_worth(size)
    points: dict[Player, Fraction] = {}
    for amount in set(sitting.amounts.values()):
        tied = [p for p in sitting.players if sitting.amount(p) == amount]
        above = sum(1 for a in sitting.amounts.values() if a > amount)
        share = Fraction(sum(worth[above : above + len(tied)]), len(tied))
        points.update(dict.fromkeys(tied, share))
    return points


def board_scores(results: Iterable[BoardResult]) -> tuple[BoardScore, ...]:
    """Score duplicate board results: each result against every other of the same (round,
    board, direction): 2 matchpoints per lower amount, 1 per equal amount; percent =
    matchpoints / (2 x comparisons) x 100, ``NO_COMPARISON_PERCENT`` without comparisons.

    Each comparison hands out 2 matchpoints in total, so a group of n results shares
    n (n - 1). A seat (round, board, table, direction) or a player on a (round, board) given
    twice is an error. Returned by round, board, table, player.
    """
    results = list(results)
    seats: set[tuple[int, int, int, Direction]] = set()
    played: set[tuple[int, int, Player]] = set()
    groups: dict[tuple[int, int, Direction], list[BoardResult]] = {}
    for r in results:
        seat = (r.round, r.board, r.table, r.direction)
        if seat in seats:
            raise ValueError(
                f"round {r.round}, board {r.board}, table {r.table}: "
                f"direction {r.direction!r} is given twice"
            )
        if (r.round, r.board, r.player) in played:
            raise ValueError(f"round {r.round}, board {r.board}: {r.player!r} is given twice")
        seats.add(seat)
        played.add((r.round, r.board, r.player))
        groups.setdefault((r.round, r.board, r.direction), []).append(r)
    scores = []
    for group in groups.values():
        for r in group:
            others = [o.amount for o in group if o is not r]
            matchpoints = 2 * sum(r.amount > a for a in others) + sum(r.amount == a for a in others)
            percent = (
                Fraction(100 * matchpoints, 2 * len(others)) if others else NO_COMPARISON_PERCENT
            )
            scores.append(BoardScore(r, len(others), matchpoints, percent))
    scores.sort(key=lambda s: (s.result.round, s.result.board, s.result.table, s.result.player))
    return tuple(scores)


# --- tiebreaks ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TiebreakInput:
    """What a tiebreak may look at: every player's final ``points`` and ``by_round`` points,
    the ``sittings`` (in duplicate, tables known only from board results appear as sittings
    whose amounts are the player's board amounts summed) and the ``seed`` for lots."""

    points: Mapping[Player, Fraction]
    by_round: Mapping[Player, Mapping[int, Fraction]]
    sittings: tuple[Sitting, ...]
    seed: int


Tiebreak: TypeAlias = Callable[[TiebreakInput, frozenset[Player]], dict[Player, Fraction]]
"""A tiebreak: the value of each player of a group still tied, higher is better. Most values
do not depend on the group; ``head_to_head`` does."""


def declarer_wins(data: TiebreakInput, group: frozenset[Player]) -> dict[Player, Fraction]:
    """``declarer_wins``: games won as declarer, summed over all the player's sittings."""
    wins = dict.fromkeys(group, Fraction(0))
    for sitting in data.sittings:
        for player, count in sitting.declarer_wins.items():
            if player in wins:
                wins[player] += count
    return wins


def best_round(data: TiebreakInput, group: frozenset[Player]) -> dict[Player, Fraction]:
    """``best_round``: the player's best points in a single round (0 without rounds)."""
    return {p: max(data.by_round[p].values(), default=Fraction(0)) for p in group}


def head_to_head(data: TiebreakInput, group: frozenset[Player]) -> dict[Player, Fraction]:
    """``head_to_head``: points scored against the other players of the tied group: for each
    sitting the player shared with another player of the group, the player's amount minus
    that opponent's amount, summed. Computed afresh within every group still tied when this
    tiebreak is reached (a player no longer tied has 0)."""
    scored = dict.fromkeys(group, Fraction(0))
    for sitting in data.sittings:
        tied = [p for p in sitting.players if p in group]
        for player in tied:
            for opponent in tied:
                scored[player] += sitting.amount(player) - sitting.amount(opponent)
    return scored


def average_opponent(data: TiebreakInput, group: frozenset[Player]) -> dict[Player, Fraction]:
    """``average_opponent`` (strength of schedule, like Buchholz): the average final points of
    the opponents the player met, one entry per opponent per sitting (an opponent met twice
    counts twice); 0 for a player who met nobody."""
    met: dict[Player, list[Fraction]] = {p: [] for p in group}
    for sitting in data.sittings:
        for player in sitting.players:
            if player in met:
                met[player].extend(data.points[o] for o in sitting.players if o != player)
    return {p: sum(v, Fraction(0)) / len(v) if v else Fraction(0) for p, v in met.items()}


def lots_draw(seed: int, player: Player) -> int:
    """The player's draw for ``lots``: the first 8 bytes of the SHA-256 digest of the UTF-8
    text ``"<seed>:<player id>"``, read as a big-endian unsigned integer. To check a draw by
    hand: ``int(hashlib.sha256(b"42:anna").hexdigest()[:16], 16)`` for seed 42, player anna."""
    digest = hashlib.sha256(f"{seed}:{player}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def lots_commitment(seed: int) -> str:
    """The published commitment to a lots seed: the SHA-256 hex digest of ``"lots:<seed>"``.
    Public from the start, so the seed cannot change, while the seed itself stays hidden
    until the tournament is finished."""
    return hashlib.sha256(f"lots:{seed}".encode()).hexdigest()


def lots(data: TiebreakInput, group: frozenset[Player]) -> dict[Player, Fraction]:
    """``lots``: a reproducible random order from the recorded seed: the higher
    ``lots_draw(seed, player)`` ranks higher. Record the seed before the tournament.

    Nobody may know the draw in advance, so the server applies ``lots`` only to the final
    standings (``tournaments.services.standings.rank``) and shows a player's draw only where
    it decided a placing (``decided_by``)."""
    return {p: Fraction(lots_draw(data.seed, p)) for p in group}


TIEBREAKS: Mapping[str, Tiebreak] = MappingProxyType(
    {
        "declarer_wins": declarer_wins,
        "best_round": best_round,
        "head_to_head": head_to_head,
        "average_opponent": average_opponent,
        "lots": lots,
    }
)
"""The tiebreaks a director may choose from, by name, in any order."""

TIEBREAK_NAMES: tuple[str, ...] = tuple(TIEBREAKS)
"""The names of ``TIEBREAKS``, in their order (the API's ``TiebreakEnum``)."""

LOTS_PATTERN = r"^[0-9]{1,20}$"
"""What ``points_text`` writes for a ``lots`` draw (``lots_draw``), as a regular expression:
an unsigned 64-bit integer, 20 digits at most."""

GROUP_FREE = frozenset({"declarer_wins", "best_round", "average_opponent", "lots"})
"""The tiebreaks whose value for a player does not depend on who else is tied."""


# --- standings ---------------------------------------------------------------------------


def standings(
    sittings: Iterable[Sitting],
    *,
    scoring: str,
    tiebreaks: Sequence[str] = (),
    seed: int = 0,
    duplicate: Iterable[BoardResult] = (),
    players: Collection[Player] = (),
    rounds_up_to: int | None = None,
) -> Standings:
    """The standings of a tournament after its rounds (or after round ``rounds_up_to``).

    Points by ``scoring`` (``SCORINGS``, module text), then ``tiebreaks`` in the order given,
    each a name in ``TIEBREAKS``: the players tied on points are split by the first tiebreak,
    those still tied by the next, and so on; players tied after all of them share the rank.
    ``duplicate`` holds the board results (only with ``scoring="duplicate"``). ``players`` are
    listed even without a sitting, with zero points. Each row's ``movement`` compares with the
    standings before the last round played (same arguments, earlier rounds only).

    A pure function of its inputs: the order of sittings and board results does not matter.
    """
    _check_names(scoring, tiebreaks)
    kept = [s for s in sittings if rounds_up_to is None or s.round <= rounds_up_to]
    boards = [b for b in duplicate if rounds_up_to is None or b.round <= rounds_up_to]
    if boards and scoring != "duplicate":
        raise ValueError(f"board results are only scored with scoring 'duplicate', not {scoring!r}")
    now = _compute(kept, boards, scoring, tuple(tiebreaks), seed, players)
    rounds = sorted({s.round for s in kept} | {b.round for b in boards})
    if len(rounds) < 2:
        return now
    before = _compute(
        [s for s in kept if s.round < rounds[-1]],
        [b for b in boards if b.round < rounds[-1]],
        scoring,
        tuple(tiebreaks),
        seed,
        players,
    )
    moves = movement(before, now)
    return replace(now, rows=tuple(replace(row, movement=moves[row.player]) for row in now.rows))


def decided_by(
    rows: Sequence[tuple[Any, Mapping[str, Any]]], tiebreaks: Sequence[str]
) -> list[tuple[str, ...]]:
    """For standings rows in order, each given as (points, tiebreak values by name): the
    tiebreaks that decided each row's place, in the order chosen. Against the row above and
    the row below, when it has the same points: the first of ``tiebreaks`` on which the two
    differ (none when they are equal on all of them and share the rank). Players with the
    same points are neighbours in the standings, so this is every placing a tiebreak decided.
    A value missing on one side counts as different. Works on exact values or on their text
    (``points_text`` writes one text per value)."""
    out: list[set[str]] = [set() for _ in rows]
    for i in range(len(rows) - 1):
        (points, values), (next_points, next_values) = rows[i], rows[i + 1]
        if points != next_points:
            continue
        for name in tiebreaks:
            if values.get(name) != next_values.get(name):
                out[i].add(name)
                out[i + 1].add(name)
                break
    return [tuple(name for name in tiebreaks if name in found) for found in out]


def movement(previous: Standings, current: Standings) -> dict[Player, int | None]:
    """Each current player's rank in ``previous`` minus their rank in ``current`` (2 means up
    two places); ``None`` for a player not in ``previous``."""
    before = {row.player: row.rank for row in previous.rows}
    return {
        row.player: before[row.player] - row.rank if row.player in before else None
        for row in current.rows
    }


def _check_names(scoring: str, tiebreaks: Sequence[str]) -> None:
    if scoring not in SCORINGS:
        raise ValueError(f"unknown scoring {scoring!r}; the known ones are {', '.join(SCORINGS)}")
    for name in tiebreaks:
        if name not in TIEBREAKS:
            raise ValueError(
                f"unknown tiebreak {name!r}; the known ones are {', '.join(TIEBREAKS)}"
            )
    if len(set(tiebreaks)) != len(tiebreaks):
        raise ValueError("a tiebreak is chosen twice")


def _tables(sittings: list[Sitting], boards: list[BoardResult]) -> tuple[Sitting, ...]:
    """The sittings plus, in duplicate, a sitting for every (round, table) known only from
    board results (amounts summed over its boards); checks that a (round, table) is given once,
    that a player sits at one table per round and that board results match their sitting."""
    by_key: dict[tuple[int, int], Sitting] = {}
    for s in sittings:
        if (s.round, s.table) in by_key:
            raise ValueError(f"round {s.round}, table {s.table} is given twice")
        by_key[(s.round, s.table)] = s
    implicit: dict[tuple[int, int], dict[Player, int]] = {}
    for b in boards:
        key = (b.round, b.table)
        if key in by_key:
            if b.player not in by_key[key].players:
                raise ValueError(
                    f"round {b.round}, board {b.board}: {b.player!r} has a result at "
                    f"table {b.table} without a seat there"
                )
        else:
            amounts = implicit.setdefault(key, {})
            amounts[b.player] = amounts.get(b.player, 0) + b.amount
    for (rnd, table), amounts in implicit.items():
        by_key[(rnd, table)] = Sitting(rnd, table, tuple(sorted(amounts)), amounts)  # type: ignore[arg-type]
    seen: dict[tuple[int, Player], int] = {}
    for (rnd, table), s in by_key.items():
        for player in s.players:
            if (rnd, player) in seen:
                raise ValueError(
                    f"round {rnd}: {player!r} sits at tables {seen[rnd, player]} and {table}"
                )
            seen[(rnd, player)] = table
    return tuple(by_key[key] for key in sorted(by_key))


def _compute(
    sittings: list[Sitting],
    boards: list[BoardResult],
    scoring: str,
    tiebreaks: tuple[str, ...],
    seed: int,
    players: Collection[Player],
) -> Standings:
    tables = _tables(sittings, boards)
    everyone = set(players) | {p for s in tables for p in s.players}
    if not (all(isinstance(p, int) for p in everyone) or all(isinstance(p, str) for p in everyone)):
        raise ValueError("player ids must be all ints or all strings")
    by_round: dict[Player, dict[int, Fraction]] = {p: {} for p in everyone}
    points: dict[Player, Fraction] = dict.fromkeys(everyone, Fraction(0))
    if scoring == "duplicate":
        percents: dict[Player, dict[int, list[Fraction]]] = {p: {} for p in everyone}
        for score in board_scores(boards):
            r = score.result
            percents[r.player].setdefault(r.round, []).append(score.percent)
        for player, rounds in percents.items():
            every = [pc for per_round in rounds.values() for pc in per_round]
            points[player] = sum(every, Fraction(0)) / len(every) if every else Fraction(0)
            for rnd, per_round in rounds.items():
                by_round[player][rnd] = sum(per_round, Fraction(0)) / len(per_round)
    else:
        for s in tables:
            gained = (
                table_rank_points(s)
                if scoring == "table_rank"
                else {p: Fraction(s.amount(p)) for p in s.players}
            )
            for player, value in gained.items():
                by_round[player][s.round] = by_round[player].get(s.round, Fraction(0)) + value
                points[player] += value
    rounds_of: dict[Player, set[int]] = {p: set() for p in everyone}
    for s in tables:
        for player in s.players:
            rounds_of[player].add(s.round)
    played = {p: len(r) for p, r in rounds_of.items()}

    data = TiebreakInput(points, by_round, tables, seed)
    groups = _split(sorted(everyone), points)
    # A tiebreak that does not depend on the group is computed once for everyone; one that
    # does (head_to_head) within every group still tied, and is 0 for a player alone.
    values: dict[str, dict[Player, Fraction]] = {
        name: TIEBREAKS[name](data, frozenset(everyone)) if name in GROUP_FREE else {}
        for name in tiebreaks
    }
    for name in tiebreaks:
        split: list[list[Player]] = []
        for group in groups:
            if name in GROUP_FREE:
                found = values[name]
            elif len(group) == 1:
                found = {group[0]: Fraction(0)}
                values[name].update(found)
            else:
                found = TIEBREAKS[name](data, frozenset(group))
                values[name].update(found)
            split.extend(_split(group, found))
        groups = split

    rows = []
    rank = 1
    for group in groups:
        for player in group:
            rows.append(
                StandingsRow(
                    player=player,
                    rank=rank,
                    points=points[player],
                    rounds=played[player],
                    by_round=MappingProxyType(dict(sorted(by_round[player].items()))),
                    tiebreaks=MappingProxyType({name: values[name][player] for name in tiebreaks}),
                )
            )
        rank += len(group)
    return Standings(scoring=scoring, tiebreaks=tiebreaks, rows=tuple(rows))


def _split(group: list[Player], values: Mapping[Player, Fraction]) -> list[list[Player]]:
    """``group`` (sorted by id) split by value, highest first, each part keeping id order."""
    return [
        [p for p in group if values[p] == v]
        for v in sorted(set(values[p] for p in group), reverse=True)
    ]
