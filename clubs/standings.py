"""Season standings: a club's table from its table sittings, as plain values (no ORM).

The ORM side turns every table sitting of a season into the values below and calls
``compute``; ratings (``clubs/ratings.py``) reuse its sittings and placings. Tournaments do
not: ``tournaments/scoring.py`` has its own values (rounds, boards, scoring modes,
tiebreaks), ranked the same way (frozen values, exact fractions, competition ranks), and
imports only the standard library, so it cannot share this module. Nothing here knows a
particular game, so the same code ranks games played for money, games scored in points and
tables where every seat plays each deal.

Terms:

- *amount*: a signed integer a player wins or loses, in the game's unit: cents for money
  games, points for the others. A hand line's amount is the player's ``delta`` of the deal
  (``spec/hand-record.md``, "Result"), dealer contribution included.
- *hand line* (``HandLine``): one player's part in one deal. A sitting-out dealer (Geber, at a
  four-table) has a line with ``played`` false: the dealer contribution still counts in the
  balance, the hand does not count as played. One line may stand for several of a player's
  deals at a sitting that are alike in every flag (``hands``, its amount their total): the
  standings are the same either way, and a season of thousands of deals is summed by the
  database into a few lines per player and sitting.
- *sitting* (``Sitting``, Tischrunde): one table in one round of an evening, with every seated
  player, the lines of its hands and ``extra`` amounts not tied to a hand (a pot split at
  close).
- *score* (optional): a sitting scored as a whole, not deal by deal, has each player's score in
  the rule set's score unit (``RuleSet.sitting_score``; its deals may move no money, their
  amounts then 0). Money the sitting moves (the score at its price, ``RuleSet.point_price``) is
  still its extra.
- *total* of a player at a sitting: their score at a scored sitting, else the sum of their
  lines' amounts plus their extra (``sitting_totals``). The *placing* at a sitting ranks the
  seated players by total, highest first, ties sharing the better place (``sitting_places``);
  ratings use the same placing (``clubs/ratings.py``).
- *league points* (``LeaguePoints``, optional): points for each placing at a sitting by table
  size; tied players share the points of the places they cover, exactly (``Fraction``).

A sitting with no hand line has no placing: it awards no league points and changes no rating,
but its extra amounts still count in the balance and it still counts as a sitting and an
evening.

Ranking (``RANKING_ORDER``), each higher first: league points (only when a league is
configured), balance, average per hand, declarer games made. Where every sitting with a
placing is scored (a season of tables whose rule set has a score unit) the score takes the
balance's place and the average is the score's (``RANKED_BY_SCORE``); where money and scored
sittings mix, money ranks and the score is shown beside it. Players equal on every key share a
rank ("competition ranking": 1, 2, 2, 4); rows of a shared rank are listed by player id.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from types import MappingProxyType
from typing import Any, TypeAlias

Player: TypeAlias = int | str
"""A player's id: user ids (int) on the server, names (str) in tests; one kind per call."""

Amounts: TypeAlias = Mapping[int, int] | Mapping[str, int]
"""Amounts by player (``Mapping`` is invariant in its key, hence one kind of id or the other)."""

SittingKey: TypeAlias = int | str
"""A sitting's id, unique among the sittings given to one call."""

RANKING_ORDER = ("league_points", "balance", "average_per_hand", "made")
"""The keys a standings table is ordered by, each higher first; ``league_points`` only when a
league is configured. Ties on every key share a rank."""

RANKING_ORDER_BY_SCORE = ("league_points", "score", "average_per_hand", "made")
"""The keys where every sitting with a placing is scored (module text)."""

RANKED_BY = (*RANKING_ORDER[:2], "score")
"""What a table is ranked by first (the API's ``ranked_by``): ``league_points`` when a league
is configured, else ``score`` where every placed sitting is scored, else ``balance``
(``ranked_by``)."""


def ranked_by(*, league: bool, by_score: bool = False) -> str:
    """The first ranking key of a table with or without a league (``RANKED_BY``)."""
    if league:
        return RANKED_BY[0]
    return RANKED_BY[2] if by_score else RANKED_BY[1]


AVERAGE_DECIMALS = 2
"""Decimals of ``average_per_hand`` in ``to_json`` (the row keeps the exact fraction)."""


@dataclass(frozen=True, slots=True)
class HandLine:
    """One player's part in one deal, or in ``hands`` deals alike in every flag.

    ``amount`` is the player's ``delta`` of the deal (of the ``hands`` deals, their total);
    ``played`` is false only for the sitting-out dealer of a four-table; ``declarer`` marks
    the declarer (Spieler); ``made`` says whether the declarer made the game and is ``None``
    on every other line (and when the deal had no declarer, e.g. Ausfechten); ``premium``
    marks the declarer of a premium game. The table's rule set says who declared, whether the
    game was made and whether it was a premium game (``RuleSet.statistics``). ``hands`` lines
    of one deal each and one line of ``hands`` deals count the same in every figure (module
    text).
    """

    player: Player
    amount: int
    played: bool = True
    declarer: bool = False
    made: bool | None = None
    premium: bool = False
    hands: int = 1

    def __post_init__(self) -> None:
        if self.hands < 1:
            raise ValueError(f"{self.player!r}: a line stands for at least one hand")
        if self.declarer and not self.played:
            raise ValueError(f"{self.player!r}: a declarer must have played the hand")
        if self.declarer != (self.made is not None):
            raise ValueError(f"{self.player!r}: `made` is a bool for the declarer, else None")
        if self.premium and not self.declarer:
            raise ValueError(f"{self.player!r}: only the declarer has a premium game")


@dataclass(frozen=True, slots=True)
class Sitting:
    """One table in one round of an evening.

    ``players`` are every seated player, also those who never played a hand there; ``lines`` the
    lines of all its hands; ``extra`` amounts not tied to a hand (a pot split at close, a score paid
    at its price), added to the balance; ``scores``, for a sitting scored as a whole, each seated
    player's score (module text). ``at`` orders sittings (with ``key`` breaking ties).
    """

    key: SittingKey
    evening: Hashable
    at: datetime
    players: tuple[Player, ...]
    lines: tuple[HandLine, ...] = ()
    extra: Amounts = field(default_factory=dict)
    scores: Amounts | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "lines", tuple(self.lines))
        object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))
        if self.scores is not None:
            object.__setattr__(self, "scores", MappingProxyType(dict(self.scores)))
        seated = set(self.players)
        if not self.players:
            raise ValueError(f"sitting {self.key!r}: no players")
        if len(seated) != len(self.players):
            raise ValueError(f"sitting {self.key!r}: a player is seated twice")
        strangers = sorted(
            {repr(line.player) for line in self.lines if line.player not in seated}
            | {repr(p) for p in self.extra if p not in seated}
            | {repr(p) for p in self.scores or () if p not in seated}
        )
        if strangers:
            raise ValueError(f"sitting {self.key!r}: not seated: {', '.join(strangers)}")


@dataclass(frozen=True, slots=True)
class LeaguePoints:
    """Points for each placing at a sitting, by table size: ``{3: (3, 2, 1), 4: (4, 3, 2, 1)}``.

    Points are kept as exact fractions (a float is read through its shortest decimal, so 0.5
    is 1/2); they must not rise with the placing.
    """

    by_size: Mapping[int, Sequence[int | float | Fraction]]
    points: Mapping[int, tuple[Fraction, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        normal: dict[int, tuple[Fraction, ...]] = {}
        for size, points in self.by_size.items():
            exact = tuple(_fraction(p) for p in points)
            if len(exact) != size:
                raise ValueError(f"league points for {size} players: {len(exact)} values given")
            if any(a < b for a, b in zip(exact, exact[1:], strict=False)):
                raise ValueError(f"league points for {size} players rise with the placing")
            normal[size] = exact
        object.__setattr__(self, "points", MappingProxyType(normal))

    def for_size(self, size: int, *, sitting: SittingKey) -> tuple[Fraction, ...]:
        """The points of places 1..size; an unconfigured table size is an error."""
        try:
            return self.points[size]
        except KeyError:
            raise ValueError(
                f"sitting {sitting!r}: no league points for a table of {size}"
            ) from None


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One player's line in the table. ``average_per_hand`` is exact (balance, or score where
    the table ranks by score, / hands played, 0 without hands); ``score`` is the sum of the
    player's scores at scored sittings (0 without any); ``league_points`` is ``None`` when no
    league is configured."""

    player: Player
    rank: int
    balance: int
    hands_played: int
    declared: int
    made: int
    premium_games: int
    average_per_hand: Fraction
    evenings: int
    sittings: int
    league_points: Fraction | None
    score: int = 0

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: the average rounded to ``AVERAGE_DECIMALS``, league points as a number."""
        return {
            "rank": self.rank,
            "player": self.player,
            "balance": self.balance,
            "score": self.score,
            "hands_played": self.hands_played,
            "declared": self.declared,
            "made": self.made,
            "premium_games": self.premium_games,
            "average_per_hand": float(round(self.average_per_hand, AVERAGE_DECIMALS)),
            "evenings": self.evenings,
            "sittings": self.sittings,
            "league_points": None if self.league_points is None else float(self.league_points),
        }


@dataclass(frozen=True, slots=True)
class Standings:
    """The table: ``rows`` in rank order, players of a shared rank by id; ``order`` names the
    ranking keys used (``RANKING_ORDER``, or ``RANKING_ORDER_BY_SCORE`` where every placed
    sitting is scored, without league points when none are configured)."""

    rows: tuple[StandingsRow, ...]
    order: tuple[str, ...]

    @property
    def by_score(self) -> bool:
        """Whether the score ranks in the balance's place (module text)."""
        return "score" in self.order

    def row(self, player: Player) -> StandingsRow:
        """The row of ``player`` (``KeyError`` when the player is not in the table)."""
        for row in self.rows:
            if row.player == player:
                return row
        raise KeyError(player)

    def to_json(self) -> dict[str, Any]:
        return {"order": list(self.order), "rows": [row.to_json() for row in self.rows]}


def _fraction(value: int | float | Fraction) -> Fraction:
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


def sitting_totals(sitting: Sitting) -> dict[Player, int]:
    """Each seated player's total at the sitting: their score at a scored sitting, else their
    lines' amounts plus their extra, in seating order; 0 for a player who never played a hand
    there."""
    totals = {player: 0 for player in sitting.players}
    if sitting.scores is not None:
        for player, score in sitting.scores.items():
            totals[player] = score
        return totals
    for line in sitting.lines:
        totals[line.player] += line.amount
    for player, amount in sitting.extra.items():
        totals[player] += amount
    return totals


def has_placing(sitting: Sitting) -> bool:
    """Whether the sitting ranks its players: at least one hand line (see the module text)."""
    return bool(sitting.lines)


def sitting_places(sitting: Sitting) -> dict[Player, int]:
    """Each seated player's place at the sitting by total, highest first; equal totals share
    the better place (1, 2, 2, 4). Every seated player is placed, also one without hands."""
    totals = sitting_totals(sitting)
    return _competition_ranks(totals, key=lambda player: -totals[player])


def sitting_league_points(sitting: Sitting, league: LeaguePoints) -> dict[Player, Fraction]:
    """League points of each seated player: the points of their place, where players tied on
    a place split the points of all the places they cover equally ((3 + 2) / 2 for two
    sharing first at a three-table). A sitting without hands awards none."""
    if not has_placing(sitting):
        return {}
    points = league.for_size(len(sitting.players), sitting=sitting.key)
    places = sitting_places(sitting)
    sharing: dict[int, int] = {}
    for place in places.values():
        sharing[place] = sharing.get(place, 0) + 1
    return {
        player: sum(points[place - 1 : place - 1 + sharing[place]], Fraction(0)) / sharing[place]
        for player, place in places.items()
    }


def _competition_ranks(
    players: Iterable[Player], *, key: Callable[[Player], Any]
) -> dict[Player, int]:
    """1-based ranks by ``key`` (lower first); equal keys share the better rank."""
    by_key = sorted(players, key=key)
    ranks: dict[Player, int] = {}
    for index, player in enumerate(by_key):
        if index and key(player) == key(by_key[index - 1]):
            ranks[player] = ranks[by_key[index - 1]]
        else:
            ranks[player] = index + 1
    return ranks


@dataclass(slots=True)
class _Tally:
    balance: int = 0
    score: int = 0
    hands_played: int = 0
    declared: int = 0
    made: int = 0
    premium_games: int = 0
    evenings: set[Hashable] = field(default_factory=set)
    sittings: int = 0
    league_points: Fraction = Fraction(0)


def ordered(sittings: Iterable[Sitting]) -> list[Sitting]:
    """Sittings in the order they happened: by ``at``, then ``key``. Keys must be unique."""
    result = sorted(sittings, key=lambda s: (s.at, s.key))
    seen: set[SittingKey] = set()
    for sitting in result:
        if sitting.key in seen:
            raise ValueError(f"sitting {sitting.key!r} is given twice")
        seen.add(sitting.key)
    return result


def compute(
    sittings: Iterable[Sitting],
    *,
    league: LeaguePoints | None = None,
    members: Collection[Player] | None = None,
) -> Standings:
    """The standings of a set of sittings (a season, a tournament).

    Per player: ``balance`` (all line amounts and extras), ``score`` (scores at scored
    sittings), ``hands_played`` (the hands of lines with ``played``), ``declared``, ``made``,
    ``premium_games`` (counted in hands likewise), ``average_per_hand``,
    ``evenings`` (distinct evenings with a sitting), ``sittings`` and, with ``league``,
    ``league_points``. ``members`` are listed even without a sitting, with zeros, and ranked
    like everybody else. Ranked by ``RANKING_ORDER`` (module text).

    A pure function of the set: the order of ``sittings`` does not matter. A sitting key
    given twice is an error.
    """
    tallies: dict[Player, _Tally] = {player: _Tally() for player in members or ()}
    sittings = ordered(sittings)
    placed = [s for s in sittings if has_placing(s)]
    by_score = bool(placed) and all(s.scores is not None for s in placed)
    for sitting in sittings:
        for player in sitting.players:
            tally = tallies.setdefault(player, _Tally())
            tally.sittings += 1
            tally.evenings.add(sitting.evening)
        for line in sitting.lines:
            tally = tallies[line.player]
            tally.balance += line.amount
            if line.played:
                tally.hands_played += line.hands
            if line.declarer:
                tally.declared += line.hands
            if line.made:
                tally.made += line.hands
            if line.premium:
                tally.premium_games += line.hands
        for player, amount in sitting.extra.items():
            tallies[player].balance += amount
        for player, score in (sitting.scores or {}).items():
            tallies[player].score += score
        if league is not None:
            for player, points in sitting_league_points(sitting, league).items():
                tallies[player].league_points += points

    unranked = {
        player: StandingsRow(
            player=player,
            rank=0,
            balance=t.balance,
            hands_played=t.hands_played,
            declared=t.declared,
            made=t.made,
            premium_games=t.premium_games,
            average_per_hand=(
                Fraction(t.score if by_score else t.balance, t.hands_played)
                if t.hands_played
                else Fraction(0)
            ),
            evenings=len(t.evenings),
            sittings=t.sittings,
            league_points=None if league is None else t.league_points,
            score=t.score,
        )
        for player, t in tallies.items()
    }

    def key(player: Player) -> tuple[Fraction, int, Fraction, int]:
        row = unranked[player]
        points = row.league_points if row.league_points is not None else Fraction(0)
        amount = row.score if by_score else row.balance
        return (-points, -amount, -row.average_per_hand, -row.made)

    ranks = _competition_ranks(unranked, key=key)
    rows = sorted(
        (replace(unranked[player], rank=rank) for player, rank in ranks.items()),
        key=lambda row: (row.rank, row.player),
    )
    full = RANKING_ORDER_BY_SCORE if by_score else RANKING_ORDER
    order = full if league is not None else full[1:]
    return Standings(rows=tuple(rows), order=order)
