"""Cups and ranking lists: standings across tournaments, as plain values (no ORM).

The ORM side (``tournaments/services/cups.py``) turns a cup's events, players and results into
the values below and calls :func:`standings`, :func:`rank_history` and, for a cup with a final,
:func:`qualified`, :func:`final_standings` and :func:`needs`. Nothing here knows a card game:
placings, scores and rounds are whatever the member tournaments kept. Every point is exact
(``Fraction`` or ``int``); :func:`points_text` writes them ("7", "7/2").

Terms:

- *cup* (Cup, Turnierserie): a season of *events* (member tournaments on this server, or
  tournaments run elsewhere and imported) whose results add up to one table. A *ranking list*
  (Rangliste) is the same machinery with a rolling window (below).
- *event* (``Event``, Turnier): one tournament of the cup, held on a date, with a *field size*
  (Teilnehmerzahl); at most one event is the cup's *final* (Finale).
- *result* (``Result``, Ergebnis): one player's *placing* (Platz, 1 = winner; shared placings
  allowed), *score* (the tournament's own points, exact, or ``None``) and *rounds* (Runden,
  Serien) at one event.
- *event points* (Cuppunkte): what a result earns in the cup: the *points rule* of the policy
  applied to (placing, field size), plus the *participation* points (Teilnahmepunkte).
- *counted* (gewertet) / *dropped* (Streichresultat): with *best k of n* (die besten k
  Ergebnisse), a player's k best events count and the others are dropped.
- *ranked* (gewertet, in der Wertung): a player who meets the minimums (events played, and for
  a ranking list rounds played). Players who do not are *listed* after the ranked ones, without
  a rank.
- *side ranking* (Sonderwertung): the same table restricted to the players with one value of
  an attribute (region, category such as women or seniors, club), keyed ``"<attribute>:<value>"``.
- *tiebreaks* (Feinwertung), *shared rank* (the "1224" rule: ranks 1, 2, 2, 4), *position*
  (1..n, always distinct, for listing).
- *final* (Finale): the best ranked players *qualify* (qualifizieren sich); each *carries* points
  into the final by cup rank (Bonuspunkte, Vorpunkte); the final's placing points are added.

Where the policies come from (each shape of the policy JSON covers one real cup):

- Raiffeisen Tarock-Cup (Austria, 32 tournaments, 793 players in a season): points per placing
  from a table, the best 6 results of the season count, at least 4 tournaments to qualify for
  the final, which is played with points carried in by cup rank. Policy
  ``{"points": {"table": [...]}, "best_of": 6}`` and final ``{"qualify": {"min_events": 4,
  "top": ...}, "carry": [...], "points": {...}}``.
- The regional cups (Tiroler, Kärntner Tarockcup) publish the same kind of tables and write by
  hand "what the leader needs in the final": :func:`needs`.
- Ö-Finale (Austrian final): fixed points per placing, the table chosen by the size stage of the
  tournament: ``{"points": {"stages": [{"from_field": 1, ...}, {"from_field": 40, ...}]}}``.
- DDV ranking list (Deutscher Doppelkopf-Verband, Rangliste): a rolling 24 months, at least 36
  rounds (Serien) to be listed as ranked, ordered by the average score per round:
  ``{"points": {"score": {}}, "window": {"months": 24, "min_rounds": 36}}``.
- Points from the field size (bigger tournaments are worth more, as many club cups count):
  ``{"points": {"field": {"factor": 1, "bonus": [...]}}}``.

Decisions where the design left a choice (a cup director's reading):

- A worse placing never earns more: every points table (and a field rule's bonus) must not
  rise, so "better placing, more points" holds and :func:`needs` is exact.
- A field rule never gives negative points: a placing beyond the field size (imported data)
  earns the bonus only.
- A player is listed when they have any result (also one only at the final or outside the
  window: their history shows it); a player who played no counting event is never ranked, even
  with ``min_events`` 0.
- ``played`` counts the events in scope (not the final; with a window, the events in the
  window); ``rounds`` counts the rounds of the counted events (the average's denominator).
- With a window, "best" (for ``best_of`` and ``best_result``) still means the most event
  points, as without; the average is the counted events' points over their rounds.
- ``as_of`` matters only with a window; it defaults to the latest date of a non-final event.
- The "latest" tiebreak between two players is the placing at the latest event both played
  (counted or dropped, the final and events outside the window left out). Between more than
  two equal players it is not always an order (A before B before C before A), so each player of
  the tie scores +1 for each other player of the tie they beat by it and -1 for each who beats
  them; a higher balance ranks higher, an equal balance stays tied (for two players this is
  exactly the pairwise rule).
- Side rankings keep the overall order and its shared ranks (two players share a side rank
  exactly when they share the overall rank); a player without the attribute, or with an empty
  value, is in no side ranking of it.
- The final: ties at the qualification cut all qualify; points are carried by the rank among
  the qualified players (the carry table is laid out for the finalists); a player with a result
  at the final who did not qualify (a wildcard) is in the final's table and carries nothing.
  The final's points must come from placings (a table, stages or the field), never the score.
- What each contender needs (:func:`needs`) ranks exactly as the final's table does: in the
  final every player has a placing of their own, so equal totals go to the better final
  placing and no tie is left open (a player who wins the final with a total nobody exceeds
  wins the cup for sure). It assumes every qualified player plays the final, each at a
  distinct placing.
"""

from __future__ import annotations

import calendar
import sys
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from types import MappingProxyType
from typing import Any

# --- errors ------------------------------------------------------------------------------


def gettext_noop(message: str) -> str:
    """Marks an English sentence for the translation catalogs (``make messages`` finds it by
    this name); the Django layer translates it by its code (this module imports no Django)."""
    return message


MESSAGES: dict[str, str] = {
    "not_an_object": gettext_noop("This must be an object."),
    "not_a_list": gettext_noop("This must be a list."),
    "unknown_key": gettext_noop("This is not a known setting."),
    "required": gettext_noop("This setting is required."),
    "not_an_integer": gettext_noop("This must be a whole number."),
    "too_small": gettext_noop("This must be at least {minimum}."),
    "too_long": gettext_noop("This list may have at most {maximum} entries."),
    "empty": gettext_noop("This list must not be empty."),
    "rising": gettext_noop("A worse placing may not earn more points than a better one."),
    "points_kind": gettext_noop("Give exactly one of: table, stages, field, score."),
    "stages_order": gettext_noop("Stages must start at a field of 1 and rise strictly."),
    "not_a_name": gettext_noop("This must be a non-empty name without a colon."),
    "duplicate": gettext_noop("This appears twice."),
    "unknown_tiebreak": gettext_noop("This is not a known tiebreak."),
    "final_score": gettext_noop("The final's points must come from placings, not from the score."),
}
"""Every :class:`PolicyError` code and its English message template (``{minimum}`` and
``{maximum}`` are filled from the error's ``params``); the Django layer translates by code."""


class PolicyError(ValueError):
    """A policy (or final policy) JSON that :func:`parse_policy` (:func:`parse_final`) refuses:
    ``field`` is the dotted path of the offending value (``"points.table[2]"``, ``""`` for the
    whole document), ``code`` one of :data:`MESSAGES`, ``params`` the template's values."""

    def __init__(self, field: str, code: str, **params: object) -> None:
        self.field = field
        self.code = code
        self.params = params
        super().__init__(f"{field or 'policy'}: {self.message}")

    @property
    def message(self) -> str:
        """The English sentence."""
        return MESSAGES[self.code].format(**self.params)


def points_text(value: Fraction | int) -> str:
    """Exact points as text, the tournaments' form: "7", "-3", "7/2" (lowest terms)."""
    return str(Fraction(value))


# --- inputs ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """One event of the cup: ``field_size`` is the number of players it had (imported events
    may state it; else the number of its results); ``is_final`` marks the cup's final."""

    id: int
    held_on: date
    field_size: int
    is_final: bool = False


@dataclass(frozen=True, slots=True)
class Result:
    """One player's result at one event: ``placing`` >= 1, ``score`` the tournament's own
    points (``None`` when it kept none), ``rounds`` >= 0."""

    event: int
    player: int
    placing: int
    score: Fraction | None
    rounds: int


@dataclass(frozen=True, slots=True)
class Player:
    """A cup player: ``name`` orders players of a shared rank; ``attributes`` (read-only) feed
    the side rankings."""

    id: int
    name: str
    attributes: Mapping[str, str] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "attributes", MappingProxyType(dict(self.attributes)))


# --- policies ----------------------------------------------------------------------------

POINTS_KINDS = ("table", "stages", "field", "score")
"""The points rules: a table by placing, tables by field-size stage, a formula of the field
size, or the tournament's own score."""

TIEBREAKS = ("better_placings", "best_result", "latest")
"""The tiebreaks a policy may order (see :func:`standings`)."""

DEFAULT_TIEBREAKS = TIEBREAKS

MAX_TABLE = 10_000
"""The longest points table (and carry table, and list of side rankings) a policy may give."""


@dataclass(frozen=True, slots=True)
class PointsRule:
    """How a placing earns points (``kind`` one of :data:`POINTS_KINDS`):

    - ``table``: ``table[placing - 1]``, 0 beyond the table;
    - ``stages``: the ``table`` of the stage with the largest ``from_field`` <= the field size;
    - ``field``: ``(field_size - placing + 1) * factor`` (never below 0) plus
      ``bonus[placing - 1]`` (0 beyond the bonus list);
    - ``score``: the result's score as the tournament kept it (:meth:`for_placing` refuses).
    """

    kind: str
    table: tuple[int, ...] = ()
    stages: tuple[tuple[int, tuple[int, ...]], ...] = ()
    factor: int = 0
    bonus: tuple[int, ...] = ()

    def for_placing(self, placing: int, field_size: int) -> int:
        """The points of ``placing`` in a field of ``field_size`` (not for ``score``)."""
        if self.kind == "field":
            base = max(0, field_size - placing + 1) * self.factor
            return base + (self.bonus[placing - 1] if placing <= len(self.bonus) else 0)
        if self.kind == "table":
            table = self.table
        elif self.kind == "stages":
            table = self.stages[0][1]
            for start, stage in self.stages:
                if start <= field_size:
                    table = stage
        else:
            raise ValueError("score points depend on the score, not on the placing")
        return table[placing - 1] if placing <= len(table) else 0

    def to_json(self) -> dict[str, Any]:
        """The rule as policy JSON (what :func:`parse_policy` reads back)."""
        if self.kind == "table":
            return {"table": list(self.table)}
        if self.kind == "stages":
            return {"stages": [{"from_field": f, "table": list(t)} for f, t in self.stages]}
        if self.kind == "field":
            return {"field": {"factor": self.factor, "bonus": list(self.bonus)}}
        return {"score": {}}


@dataclass(frozen=True, slots=True)
class Window:
    """A rolling ranking list: results of the last ``months`` calendar months count, and a
    player needs ``min_rounds`` counted rounds to be ranked."""

    months: int
    min_rounds: int = 0


@dataclass(frozen=True, slots=True)
class Policy:
    """A cup's aggregation policy (:func:`parse_policy` documents the JSON)."""

    points: PointsRule
    participation: int = 0
    best_of: int | None = None
    min_events: int = 0
    window: Window | None = None
    side_rankings: tuple[str, ...] = ()
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS

    def to_json(self) -> dict[str, Any]:
        """The policy as normalised JSON, every default spelled out."""
        window = self.window
        return {
            "points": self.points.to_json(),
            "participation": self.participation,
            "best_of": self.best_of,
            "min_events": self.min_events,
            "window": None
            if window is None
            else {"months": window.months, "min_rounds": window.min_rounds},
            "side_rankings": list(self.side_rankings),
            "tiebreaks": list(self.tiebreaks),
        }


@dataclass(frozen=True, slots=True)
class FinalPolicy:
    """A cup's final (:func:`parse_final` documents the JSON): the best ``top`` ranked players
    (``None``: all) with at least ``min_events`` events qualify; ``carry[r - 1]`` points are
    carried in by rank ``r`` among the qualified (0 beyond); ``points`` rates the final's
    placings."""

    points: PointsRule
    top: int | None = None
    min_events: int = 0
    carry: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The final policy as normalised JSON."""
        return {
            "qualify": {"top": self.top, "min_events": self.min_events},
            "carry": list(self.carry),
            "points": self.points.to_json(),
        }


def _object(value: Any, path: str, allowed: Iterable[str], required: Iterable[str] = ()) -> dict:
    if not isinstance(value, dict):
        raise PolicyError(path, "not_an_object")
    for key in value:
        if key not in allowed:
            raise PolicyError(_join(path, str(key)), "unknown_key")
    for key in required:
        if key not in value:
            raise PolicyError(_join(path, key), "required")
    return value


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _int(value: Any, path: str, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PolicyError(path, "not_an_integer")
    if value < minimum:
        raise PolicyError(path, "too_small", minimum=minimum)
    return value


def _list(value: Any, path: str, *, empty: bool) -> list:
    if not isinstance(value, list):
        raise PolicyError(path, "not_a_list")
    if not value and not empty:
        raise PolicyError(path, "empty")
    if len(value) > MAX_TABLE:
        raise PolicyError(path, "too_long", maximum=MAX_TABLE)
    return value


def _table(value: Any, path: str, *, empty: bool = False) -> tuple[int, ...]:
    """A list of non-negative integers that never rises."""
    items = _list(value, path, empty=empty)
    out = tuple(_int(v, f"{path}[{i}]", 0) for i, v in enumerate(items))
    for i in range(1, len(out)):
        if out[i] > out[i - 1]:
            raise PolicyError(f"{path}[{i}]", "rising")
    return out


def _points(value: Any, path: str) -> PointsRule:
    data = _object(value, path, POINTS_KINDS)
    if len(data) != 1:
        raise PolicyError(path, "points_kind")
    ((kind, body),) = data.items()
    here = _join(path, kind)
    if kind == "table":
        return PointsRule(kind, table=_table(body, here))
    if kind == "stages":
        stages: list[tuple[int, tuple[int, ...]]] = []
        for i, stage in enumerate(_list(body, here, empty=False)):
            at = f"{here}[{i}]"
            item = _object(stage, at, ("from_field", "table"), ("from_field", "table"))
            start = _int(item["from_field"], _join(at, "from_field"), 1)
            if (i == 0 and start != 1) or (i > 0 and start <= stages[-1][0]):
                raise PolicyError(_join(at, "from_field"), "stages_order")
            stages.append((start, _table(item["table"], _join(at, "table"))))
        return PointsRule(kind, stages=tuple(stages))
    if kind == "field":
        item = _object(body, here, ("factor", "bonus"), ("factor",))
        factor = _int(item["factor"], _join(here, "factor"), 0)
        bonus = _table(item.get("bonus", []), _join(here, "bonus"), empty=True)
        return PointsRule(kind, factor=factor, bonus=bonus)
    _object(body, here, ())
    return PointsRule(kind)


def parse_policy(data: Any) -> Policy:
    """A cup's policy from its JSON, refusing anything else with :class:`PolicyError`::

        {"points": {"table": [100, 80, 65, 55, 50]}            # by placing; beyond: 0
                 | {"stages": [{"from_field": 1, "table": [...]},
                               {"from_field": 40, "table": [...]}]}   # by the field size
                 | {"field": {"factor": 1, "bonus": [5, 3]}}  # (field - placing + 1) * factor
                 | {"score": {}},                              # the tournament's score
         "participation": 0,      # points for each event played (int >= 0)
         "best_of": 6,            # the best k events count (null: all)
         "min_events": 4,         # events played to be ranked (0: everyone who played)
         "window": null | {"months": 24, "min_rounds": 36},   # a rolling ranking list
         "side_rankings": ["region", "category"],               # attribute names
         "tiebreaks": ["better_placings", "best_result", "latest"]}  # any subset and order

    ``points`` is required; the rest default as shown (``best_of`` null, ``window`` null, no
    side rankings, all three tiebreaks in that order). Integers must be JSON integers (not
    booleans); tables non-empty lists of non-negative integers that never rise (a worse
    placing earns no more); stages start at ``from_field`` 1 and rise strictly; a field rule's
    ``bonus`` may be empty or left out; attribute names are non-empty, without ":" and unique.
    """
    allowed = (
        "points",
        "participation",
        "best_of",
        "min_events",
        "window",
        "side_rankings",
        "tiebreaks",
    )
    doc = _object(data, "", allowed, ("points",))
    points = _points(doc["points"], "points")
    participation = _int(doc.get("participation", 0), "participation", 0)
    best_of = doc.get("best_of")
    if best_of is not None:
        best_of = _int(best_of, "best_of", 1)
    min_events = _int(doc.get("min_events", 0), "min_events", 0)
    window = None
    if doc.get("window") is not None:
        item = _object(doc["window"], "window", ("months", "min_rounds"), ("months",))
        window = Window(
            months=_int(item["months"], "window.months", 1),
            min_rounds=_int(item.get("min_rounds", 0), "window.min_rounds", 0),
        )
    sides: list[str] = []
    for i, name in enumerate(_list(doc.get("side_rankings", []), "side_rankings", empty=True)):
        at = f"side_rankings[{i}]"
        if not isinstance(name, str) or not name.strip() or ":" in name:
            raise PolicyError(at, "not_a_name")
        if name in sides:
            raise PolicyError(at, "duplicate")
        sides.append(name)
    tiebreaks: list[str] = []
    for i, name in enumerate(_list(doc.get("tiebreaks", list(TIEBREAKS)), "tiebreaks", empty=True)):
        at = f"tiebreaks[{i}]"
        if name not in TIEBREAKS:
            raise PolicyError(at, "unknown_tiebreak")
        if name in tiebreaks:
            raise PolicyError(at, "duplicate")
        tiebreaks.append(name)
    return Policy(
        points=points,
        participation=participation,
        best_of=best_of,
        min_events=min_events,
        window=window,
        side_rankings=tuple(sides),
        tiebreaks=tuple(tiebreaks),
    )


def parse_final(data: Any) -> FinalPolicy | None:
    """A cup's final policy from its JSON (``None``: the cup has no final)::

        {"qualify": {"top": 24, "min_events": 4},   # both optional: top null = every ranked
         "carry": [30, 25, 21, 18, 16],              # carried in by rank among the qualified
         "points": {"table": [...]}}                 # the final's placing points

    ``points`` is required and takes the shapes of the policy's points but ``score`` (the
    contenders' needs are computed from placings); ``participation`` does not apply. ``carry``
    (default empty: nothing carried) never rises.
    """
    if data is None:
        return None
    doc = _object(data, "", ("qualify", "carry", "points"), ("points",))
    points = _points(doc["points"], "points")
    if points.kind == "score":
        raise PolicyError("points.score", "final_score")
    qualify = _object(doc.get("qualify", {}), "qualify", ("top", "min_events"))
    top = qualify.get("top")
    if top is not None:
        top = _int(top, "qualify.top", 1)
    return FinalPolicy(
        points=points,
        top=top,
        min_events=_int(qualify.get("min_events", 0), "qualify.min_events", 0),
        carry=_table(doc.get("carry", []), "carry", empty=True),
    )


# --- outputs -----------------------------------------------------------------------------

STATUSES = ("counted", "dropped", "carried")
"""A detail's status: counted, dropped, or (in the final's table) the points carried in."""

REASONS = ("", "not_best", "outside_window", "final")
"""Why a result is dropped: not among the best k, outside the rolling window, the final's."""


@dataclass(frozen=True, slots=True)
class Detail:
    """One line of a player's cup history: the result at ``event`` (``None`` for the points
    carried into the final, whose ``placing`` is then the rank among the qualified), its
    ``points`` under the cup's rule (also when dropped: what it would have been worth; a final's
    result in the cup's table: what the cup's rule would give), ``status`` and ``reason`` as in
    :data:`STATUSES`, :data:`REASONS`; ``note`` is ``"no_score"`` when a score rule met a result
    without a score (0 points)."""

    event: int | None
    placing: int | None
    points: Fraction
    status: str
    reason: str = ""
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON, the points as text."""
        return {
            "event": self.event,
            "placing": self.placing,
            "points": points_text(self.points),
            "status": self.status,
            "reason": self.reason,
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class Row:
    """One player's line: ``position`` 1..n (distinct), ``rank`` (shared by equals, ``None``
    when not ranked), ``points`` (the average with a window), ``counted`` and ``played`` events,
    ``rounds`` of the counted events, ``average`` (with a window, else ``None``), ``details`` in
    event date order."""

    player: int
    position: int
    rank: int | None
    points: Fraction
    counted: int
    played: int
    rounds: int
    average: Fraction | None
    ranked: bool
    details: tuple[Detail, ...]


@dataclass(frozen=True, slots=True)
class Standings:
    """The overall table and each side ranking (key ``"<attribute>:<value>"``)."""

    overall: tuple[Row, ...]
    side: Mapping[str, tuple[Row, ...]]

    def row(self, player: int) -> Row:
        """The overall row of ``player`` (``KeyError`` when not listed)."""
        for row in self.overall:
            if row.player == player:
                return row
        raise KeyError(player)


# --- computing ---------------------------------------------------------------------------

_LAST = sys.maxsize
"""Ends every placings key: a player with fewer counted placings has none at the next place."""


@dataclass(slots=True)
class _Item:
    """A result prepared once: its event's order (date, then id), day, and its event points."""

    order: int
    event: int
    day: int
    final: bool
    placing: int
    rounds: int
    points: int | Fraction
    note: str


@dataclass(slots=True)
class _Summary:
    player: int
    points: Fraction
    counted: int
    played: int
    rounds: int
    average: Fraction | None
    ranked: bool
    key: tuple[Any, ...]
    placings: dict[int, int]
    recent: list[tuple[int, int]]
    best: tuple[int, Any]
    by_placings: tuple[int, ...]
    details: tuple[Detail, ...] = ()


def _exact_key(value: Fraction) -> tuple[int, Fraction]:
    """A sort key of ``value`` in the same order: ``floor(value * 2**64)`` first, an integer
    that decides nearly every comparison quickly, then the exact value for the rare equal
    first parts (comparing ``Fraction`` values is slow, and a history sorts a thousand
    players once per event)."""
    return ((value.numerator << 64) // value.denominator, value)


def _months_before(day: date, months: int) -> date:
    """``day`` minus calendar ``months``: the same day number, clamped to the month's end."""
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


class _Cup:
    """The prepared inputs: events in order, each player's items in event order."""

    def __init__(
        self,
        policy: Policy,
        events: Iterable[Event],
        results: Iterable[Result],
        players: Iterable[Player],
    ) -> None:
        self.policy = policy
        self.events = sorted(events, key=lambda e: (e.held_on, e.id))
        self.by_id = {e.id: e for e in self.events}
        if len(self.by_id) != len(self.events):
            raise ValueError("an event is given twice")
        order = {e.id: i for i, e in enumerate(self.events)}
        self.players = {p.id: p for p in players}
        rule = policy.points
        extra = policy.participation
        items: dict[int, list[_Item]] = {}
        seen: set[tuple[int, int]] = set()
        for r in results:
            event = self.by_id.get(r.event)
            if event is None or r.player not in self.players:
                raise ValueError(f"result of an unknown event or player: {r}")
            if (r.event, r.player) in seen:
                raise ValueError(f"two results of player {r.player} at event {r.event}")
            if r.placing < 1 or r.rounds < 0:
                raise ValueError(f"placing must be >= 1 and rounds >= 0: {r}")
            seen.add((r.event, r.player))
            note = ""
            points: int | Fraction
            if rule.kind == "score":
                if r.score is None:
                    points, note = 0, "no_score"
                else:
                    score = Fraction(r.score)
                    points = score.numerator if score.denominator == 1 else score
            else:
                points = rule.for_placing(r.placing, event.field_size)
            item = _Item(
                order[r.event],
                r.event,
                event.held_on.toordinal(),
                event.is_final,
                r.placing,
                r.rounds,
                points + extra,
                note,
            )
            items.setdefault(r.player, []).append(item)
        for player_items in items.values():
            player_items.sort(key=lambda i: i.order)
        self.items = items

    def summarize(
        self, player: int, items: Sequence[_Item], start: int, end: int, full: bool
    ) -> _Summary:
        """A player's summary over ``items`` (in event order): with a window, only the items
        of days in (``start``, ``end``] are in scope; ``full`` builds the details too."""
        policy = self.policy
        window = policy.window
        scope = [i for i in items if not i.final and (window is None or start < i.day <= end)]
        best = sorted(scope, key=lambda i: (-i.points, i.placing, -i.day, i.event))
        counted = best if policy.best_of is None else best[: policy.best_of]
        total = sum(i.points for i in counted)
        rounds = sum(i.rounds for i in counted)
        average: Fraction | None = None
        if window is not None:
            average = Fraction(total, rounds) if rounds else Fraction(0)
            points = average
        else:
            points = Fraction(total)
        ranked = len(scope) >= max(1, policy.min_events) and (
            window is None or rounds >= window.min_rounds
        )
        by_placings = (*sorted(i.placing for i in counted), _LAST)
        best_key = (0, -counted[0].points) if counted else (1, 0)
        details: tuple[Detail, ...] = ()
        if full:
            chosen = {id(i) for i in counted}
            in_scope = {id(i) for i in scope}
            out = []
            for i in items:
                if id(i) in chosen:
                    status, reason = "counted", ""
                elif i.final:
                    status, reason = "dropped", "final"
                elif id(i) in in_scope:
                    status, reason = "dropped", "not_best"
                else:
                    status, reason = "dropped", "outside_window"
                out.append(Detail(i.event, i.placing, Fraction(i.points), status, reason, i.note))
            details = tuple(out)
        return _Summary(
            player=player,
            points=points,
            counted=len(counted),
            played=len(scope),
            rounds=rounds,
            average=average,
            ranked=ranked,
            key=(_exact_key(-points),),
            placings={i.order: i.placing for i in scope},
            recent=[(i.order, i.placing) for i in reversed(scope)],
            best=best_key,
            by_placings=by_placings,
            details=details,
        )

    def window_start(self, as_of: date) -> int | None:
        window = self.policy.window
        return None if window is None else _months_before(as_of, window.months).toordinal()

    def order(self, summaries: Iterable[_Summary]) -> list[list[_Summary]]:
        """Equivalence classes in rank order: ranked ones first, then the others; each class
        is the players equal on points and every tiebreak, listed by name then id."""
        everyone = list(summaries)
        ranked = [s for s in everyone if s.ranked]
        others = [s for s in everyone if not s.ranked]
        return [
            sorted(group, key=self._name_key)
            for part in (ranked, others)
            for group in _refine(part, ("points", *self.policy.tiebreaks), 0)
        ]

    def _name_key(self, s: _Summary) -> tuple[str, int]:
        return (self.players[s.player].name.casefold(), s.player)


def _absolute(s: _Summary, name: str) -> Any:
    if name == "points":
        return s.key
    if name == "better_placings":
        return s.by_placings
    return s.best


def _refine(group: list[_Summary], names: Sequence[str], start: int) -> list[list[_Summary]]:
    """Split ``group`` by ``names[start:]`` into ordered classes of equals."""
    end = start
    while end < len(names) and names[end] != "latest":
        end += 1
    if end > start:
        chosen = names[start:end]
        if len(chosen) == 1:
            name = chosen[0]
            keyed = [(_absolute(s, name), s) for s in group]
        else:
            keyed = [(tuple(_absolute(s, n) for n in chosen), s) for s in group]
        keyed.sort(key=lambda pair: pair[0])
        parts: list[list[_Summary]] = []
        previous: Any = object()
        for key, s in keyed:
            if parts and key == previous:
                parts[-1].append(s)
            else:
                parts.append([s])
                previous = key
    else:
        parts = [group]
    if end == len(names):
        return parts
    out: list[list[_Summary]] = []
    for part in parts:
        if len(part) == 1:
            out.append(part)
        else:
            for sub in _by_latest(part):
                out.extend(_refine(sub, names, end + 1))
    return out


def _latest(a: _Summary, b: _Summary) -> int:
    """-1 when ``a`` placed better at the latest event both played where their placings
    differ, 1 when ``b`` did, 0 when they never played together (or always placed equal)."""
    if len(a.recent) > len(b.recent):
        return -_latest(b, a)
    placings = b.placings
    for order, placing in a.recent:
        other = placings.get(order)
        if other is not None and other != placing:
            return -1 if placing < other else 1
    return 0


def _by_latest(group: list[_Summary]) -> list[list[_Summary]]:
    """Order a tie by the "latest" tiebreak: each player's balance of players of the tie they
    beat by it minus those who beat them; equal balance stays tied.

    Pairs are judged all at once, event by event from the latest: each player keeps the set
    (a bit mask over the tie) of players not yet judged against them; at an event, those of
    the set who played it and placed worse are beaten, better placed ones beat them, and both
    leave the set (equal placings stay undecided). Linear in the tie's results, not in its
    pairs."""
    if len(group) == 2:
        c = _latest(group[0], group[1])
        if c == 0:
            return [group]
        return [[group[0]], [group[1]]] if c < 0 else [[group[1]], [group[0]]]
    at: dict[int, list[tuple[int, int]]] = {}
    for index, s in enumerate(group):
        for order, placing in s.recent:
            at.setdefault(order, []).append((placing, index))
    everyone = (1 << len(group)) - 1
    open_ = [everyone & ~(1 << i) for i in range(len(group))]
    balance = [0] * len(group)
    for order in sorted(at, reverse=True):
        played = sorted(at[order])
        if len(played) < 2:
            continue
        levels: list[tuple[int, list[int]]] = []
        previous = None
        for placing, index in played:
            if levels and placing == previous:
                mask, members = levels[-1]
                levels[-1] = (mask | (1 << index), [*members, index])
            else:
                levels.append((1 << index, [index]))
                previous = placing
        total = 0
        for mask, _ in levels:
            total |= mask
        better = 0
        for mask, members in levels:
            worse = total & ~better & ~mask
            for index in members:
                won = open_[index] & worse
                lost = open_[index] & better
                balance[index] += won.bit_count() - lost.bit_count()
                open_[index] &= ~(worse | better)
            better |= mask
    out: list[list[_Summary]] = []
    last = None
    for value, s in sorted(zip(balance, group, strict=True), key=lambda pair: -pair[0]):
        if out and value == last:
            out[-1].append(s)
        else:
            out.append([s])
            last = value
    return out


def _rows(classes: list[list[_Summary]]) -> tuple[Row, ...]:
    return tuple(
        Row(
            player=s.player,
            position=position,
            rank=rank,
            points=s.points,
            counted=s.counted,
            played=s.played,
            rounds=s.rounds,
            average=s.average,
            ranked=s.ranked,
            details=s.details,
        )
        for position, (s, rank) in enumerate(_ranked(classes), 1)
    )


def _restrict(rows: Sequence[Row]) -> tuple[Row, ...]:
    """``rows`` (a subsequence of the overall order) re-ranked: positions 1..n, a shared
    overall rank stays shared, the next rank skips ("1224")."""
    out: list[Row] = []
    for i, row in enumerate(rows):
        rank = None
        if row.rank is not None:
            same = out and out[-1].rank is not None and rows[i - 1].rank == row.rank
            rank = out[-1].rank if same else i + 1
        out.append(
            Row(
                row.player,
                i + 1,
                rank,
                row.points,
                row.counted,
                row.played,
                row.rounds,
                row.average,
                row.ranked,
                row.details,
            )
        )
    return tuple(out)


def _default_as_of(cup: _Cup) -> date | None:
    days = [e.held_on for e in cup.events if not e.is_final]
    return max(days) if days else None


def standings(
    policy: Policy,
    events: Iterable[Event],
    results: Iterable[Result],
    players: Iterable[Player],
    *,
    as_of: date | None = None,
) -> Standings:
    """The cup's standings: one row per player with a result, ranked ones first.

    - Event points: the points rule applied to (placing, field size) plus ``participation``;
      with a ``score`` rule the result's score (none: 0 points, detail note ``"no_score"``).
    - The final's results are left out (reason ``"final"``): they belong to the final.
    - With a window (a ranking list) only events held in (``as_of`` - months, ``as_of``] count
      (calendar months, the day clamped to the month's end; ``as_of`` defaults to the latest
      non-final event's date); others are dropped (``"outside_window"``).
    - The best ``best_of`` events in scope count by event points (a player's own equal results:
      the better placing, then the later event, then the lower event id), the others are
      dropped (``"not_best"``). Points: the sum of the counted; with a window the average
      (counted points over counted rounds; no rounds: 0).
    - Ranked: played >= ``min_events`` (and at least one event; with a window also counted
      rounds >= ``min_rounds``). Ranked players come first, by points, then the tiebreaks in
      the policy's order; the others follow in the same order, without a rank.
    - Tiebreaks: ``better_placings`` (counted placings compared as counts of 1st, 2nd, ...:
      the first placing whose count differs decides, more wins: [1, 3, 3] beats [1, 4, 4] and
      [1, 3, 5] beats [1, 3]); ``best_result`` (the best counted event's points);
      ``latest`` (the better placing at the latest event both played; see the module text for
      a tie of more than two).
    - Equal on points and every tiebreak: a shared rank, the next skips ("1224"); positions by
      name (case-insensitive) then player id.
    - Side rankings: per attribute of the policy and per non-empty value, the overall order
      restricted to the players with that value, re-ranked.
    """
    cup = _Cup(policy, events, results, players)
    if as_of is None:
        as_of = _default_as_of(cup)
    start = end = 0  # with a window and no event yet: nothing in scope
    if policy.window is not None and as_of is not None:
        start, end = cup.window_start(as_of) or 0, as_of.toordinal()
    summaries = [
        cup.summarize(player, items, start, end, True) for player, items in cup.items.items()
    ]
    overall = _rows(cup.order(summaries))
    side: dict[str, tuple[Row, ...]] = {}
    for attribute in policy.side_rankings:
        groups: dict[str, list[Row]] = {}
        for row in overall:
            value = cup.players[row.player].attributes.get(attribute, "")
            if value:
                groups.setdefault(value, []).append(row)
        for value in sorted(groups):
            side[f"{attribute}:{value}"] = _restrict(groups[value])
    return Standings(overall=overall, side=MappingProxyType(side))


def rank_history(
    policy: Policy,
    events: Iterable[Event],
    results: Iterable[Result],
    players: Iterable[Player],
) -> dict[int, list[tuple[int, int | None]]]:
    """Each player's rank over time: after each non-final event in date order (then id), the
    standings of the events so far (with a window, ``as_of`` that event's date); a player gets
    an entry ``(event id, rank)`` at their first event and after every later event that changed
    their rank (``None``: listed, not ranked). The last entry is the rank in :func:`standings`.

    Incremental: after an event only its players (and, with a window, the players whose
    results left the window) are summarised again; the order is then re-sorted.
    """
    cup = _Cup(policy, events, results, players)
    steps = [e for e in cup.events if not e.is_final]
    at_event: dict[int, list[int]] = {}
    for player, items in cup.items.items():
        for item in items:
            if not item.final:
                at_event.setdefault(item.event, []).append(player)
    known: dict[int, int] = {}  # how many of the player's items are held by now
    summaries: dict[int, _Summary] = {}
    history: dict[int, list[tuple[int, int | None]]] = {}
    leaving = 0  # steps[:leaving] are outside the window already
    for step in steps:
        dirty = set()
        for player in at_event.get(step.id, ()):
            items = cup.items[player]
            count = known.get(player, 0)
            while count < len(items) and (items[count].day, items[count].event) <= (
                step.held_on.toordinal(),
                step.id,
            ):
                count += 1
            known[player] = count
            dirty.add(player)
        start = cup.window_start(step.held_on) or 0
        if policy.window is not None:
            while leaving < len(steps) and steps[leaving].held_on.toordinal() <= start:
                dirty.update(at_event.get(steps[leaving].id, ()))
                leaving += 1
        end = step.held_on.toordinal()
        for player in dirty:
            summaries[player] = cup.summarize(
                player, cup.items[player][: known[player]], start, end, False
            )
        for s, rank in _ranked(cup.order(summaries.values())):
            entries = history.setdefault(s.player, [])
            if not entries or entries[-1][1] != rank:
                entries.append((step.id, rank))
    return history


def _ranked(classes: list[list[_Summary]]) -> Iterable[tuple[_Summary, int | None]]:
    """Each summary of ``classes`` (in order) with its rank: the position of its class's first
    member, ``None`` when not ranked."""
    position = 0
    for group in classes:
        rank = position + 1
        for s in group:
            position += 1
            yield s, rank if s.ranked else None


# --- the final ---------------------------------------------------------------------------


def _carried(final: FinalPolicy, table: Standings) -> list[tuple[Row, int, int]]:
    """(cup row, rank among the qualified, carried points) of each qualified player."""
    rows = [table.row(p) for p in qualified(final, table)]
    out: list[tuple[Row, int, int]] = []
    for row in _restrict(rows):
        rank = row.rank or 0
        carried = final.carry[rank - 1] if rank <= len(final.carry) else 0
        out.append((table.row(row.player), rank, carried))
    return out


def qualified(final: FinalPolicy, standings: Standings) -> tuple[int, ...]:
    """The players who qualify for the final, in cup order: the ranked players who played at
    least ``min_events`` events, the best ``top`` of them (``None``: all); a player who shares
    the rank of the last one to qualify qualifies too (nobody is left out by a name)."""
    eligible = [r for r in standings.overall if r.ranked and r.played >= final.min_events]
    if final.top is None or len(eligible) <= final.top:
        return tuple(r.player for r in eligible)
    cut = final.top
    while cut < len(eligible) and eligible[cut].rank == eligible[final.top - 1].rank:
        cut += 1
    return tuple(r.player for r in eligible[:cut])


def final_standings(
    final: FinalPolicy,
    standings: Standings,
    events: Iterable[Event],
    results: Iterable[Result],
) -> tuple[Row, ...]:
    """The final's table: each qualified player's total = carried points (by rank among the
    qualified, :class:`FinalPolicy`) + the final's points for their placing there (0 without a
    result: before the final's results exist every total is the carried points). A player
    with a result at the final who did not qualify (a wildcard) carries nothing.

    Ranked by total, then the better final placing (none is worst), then the better cup rank
    (none is worst); equal on all three: a shared rank ("1224"); positions then by cup
    position, then player id. ``details``: the carried points (``event`` ``None``, ``placing``
    the rank among the qualified, status ``"carried"``) and the final's result (``counted``).
    """
    finals = [e for e in events if e.is_final]
    if len(finals) > 1:
        raise ValueError("a cup has at most one final")
    event = finals[0] if finals else None
    at_final = {r.player: r for r in results if event is not None and r.event == event.id}
    cup_rows = {r.player: r for r in standings.overall}
    entries: list[tuple[tuple[Any, ...], tuple[int, int], Row]] = []
    players: list[tuple[int, int | None, int]] = [
        (row.player, rank, carried) for row, rank, carried in _carried(final, standings)
    ]
    qualified_ids = {p for p, _, _ in players}
    players += [(p, None, 0) for p in sorted(at_final) if p not in qualified_ids]
    for player, rank, carried in players:
        details = [Detail(None, rank, Fraction(carried), "carried")]
        result = at_final.get(player)
        total = Fraction(carried)
        if result is not None and event is not None:
            points = final.points.for_placing(result.placing, event.field_size)
            total += points
            details.append(Detail(event.id, result.placing, Fraction(points), "counted"))
        cup = cup_rows.get(player)
        cup_rank = cup.rank if cup is not None and cup.rank is not None else _LAST
        key = (-total, result.placing if result is not None else _LAST, cup_rank)
        order = (cup.position if cup is not None else _LAST, player)
        row = Row(
            player=player,
            position=0,
            rank=0,
            points=total,
            counted=len(details) - 1,
            played=len(details) - 1,
            rounds=result.rounds if result is not None else 0,
            average=None,
            ranked=True,
            details=tuple(details),
        )
        entries.append((key, order, row))
    entries.sort(key=lambda e: (e[0], e[1]))
    out: list[Row] = []
    for i, (key, _, row) in enumerate(entries):
        shared = i > 0 and entries[i - 1][0] == key
        rank = out[-1].rank if shared else i + 1
        out.append(
            Row(
                row.player,
                i + 1,
                rank,
                row.points,
                row.counted,
                row.played,
                row.rounds,
                None,
                True,
                row.details,
            )
        )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Need:
    """What a contender reaches with ``placing`` in the final: ``total`` (carried + the
    placing's points), the ``best_rank`` possible and the ``worst_rank`` sure whatever the
    others place, both in the final's table (:func:`final_standings`), and ``wins``:
    ``"sure"`` (nobody can be ranked above), ``"possible"`` (the others can all place below)
    or ``"no"``."""

    placing: int
    total: Fraction
    best_rank: int
    worst_rank: int
    wins: str


def needs(final: FinalPolicy, standings: Standings, field_size: int) -> dict[int, tuple[Need, ...]]:
    """ "What each contender needs": for each qualified player and each final placing ``p`` in
    1..``field_size``, the total they reach and the ranks it brings in the final's table,
    whatever the others place.

    The others are the other qualified players (with their carried points) and, when the
    field is larger than the qualified, as many players carrying nothing (wildcards); they take
    the placings other than ``p``, one each. The ranks are those of :func:`final_standings`,
    exactly: there every finalist has a distinct placing, so equal totals are always split by
    the better final placing (the cup rank never decides, no rank is shared), and another
    player at placing ``q`` is ranked above the player iff their total exceeds the player's,
    or equals it and ``q`` < ``p``. The rank is 1 + the number of others above:

    - worst rank = 1 + the most others that can be above at once;
    - best rank = 1 + the fewest others that must be above (all of them less the most that can
      be below at once).

    Points never rise with the placing, so the placings that put one other above the player
    are a prefix of the free placings (those beating the total, then those reaching it exactly
    while better than ``p``), and the ones that keep them below the rest, a suffix. Serving
    the others by the length of their prefix (suffix), shortest first, each with the best
    (worst) free placing, is then a largest matching (an exchange argument; tests compare with
    :func:`final_standings` over every permutation of fields up to 7 players).

    ``ValueError`` when the field is smaller than the number of qualified players, or when the
    final's points rise with the placing (:func:`parse_final` refuses such a policy).
    """
    carried = [(row.player, c) for row, _, c in _carried(final, standings)]  # ints: exact
    if field_size < len(carried):
        raise ValueError("the final's field is smaller than the number of qualified players")
    worth = [final.points.for_placing(p, field_size) for p in range(1, field_size + 1)]
    if any(better < worse for better, worse in zip(worth, worth[1:], strict=False)):
        raise ValueError("the final's points rise with the placing")
    falling = [-w for w in worth]  # ascending, for bisect
    out: dict[int, tuple[Need, ...]] = {}
    pool = Counter(c for _, c in carried)  # the field's carried points, wildcards carry 0
    pool[0] += field_size - len(carried)
    for player, own in carried:
        pool[own] -= 1
        others = sorted((c, n) for c, n in pool.items() if n)  # (carried, how many) ascending
        pool[own] += 1
        items = []
        for placing in range(1, field_size + 1):
            total = own + worth[placing - 1]
            # more carried, more placings above: ``above`` is ascending by length already
            above = [(_placings_above(c, falling, total, placing), n) for c, n in others]
            below = [(field_size - 1 - length, n) for length, n in reversed(above)]
            worst = 1 + _most_served(above)
            best = field_size - _most_served(below)  # 1 + (field_size - 1) - the most below
            wins = "sure" if worst == 1 else "possible" if best == 1 else "no"
            items.append(Need(placing, Fraction(total), best, worst, wins))
        out[player] = tuple(items)
    return out


def _placings_above(carried: int, falling: Sequence[int], total: int, p: int) -> int:
    """How many of the placings other than ``p`` rank a player carrying ``carried`` above one
    with ``total`` at ``p`` (``falling``: the final's points per placing, negated): they are
    the best ones, 1..k less ``p``, where 1..k are the placings beating ``total`` and, when
    better than ``p``, those reaching it exactly."""
    beating = bisect_left(falling, carried - total)  # carried + points > total
    reaching = bisect_right(falling, carried - total)  # carried + points >= total
    best_k = max(beating, min(reaching, p - 1))
    return best_k - 1 if p <= best_k else best_k


def _most_served(groups: Iterable[tuple[int, int]]) -> int:
    """The most players served at once with distinct placings when each of a group of ``n``
    may take one of the first ``length`` placings of a common list (``groups``: (length, n),
    ascending by length; the same count for the last ``length``): each in turn takes the first
    free placing it may."""
    count = 0
    for length, n in groups:
        count = max(count, min(length, count + n))
    return count
