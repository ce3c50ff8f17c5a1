"""Player ratings: OpenSkill's Plackett–Luce model, updated once per table sitting (no ORM).

Each player of a club has a rating, a normal belief about their skill: *mu* (μ, the mean) and
*sigma* (σ, the uncertainty). A table sitting is one game of the model: every seated player
is a one-player team, ranked by their placing at the sitting (``clubs.standings``:
total amount, highest first, ties sharing a place; a seated player who played no hand is
placed by their total too, usually 0). A sitting without hands, or with a single player,
changes nothing.

The *ordinal* shown to people is the conventional conservative estimate μ − 3σ: a new player
starts at 25 − 3 · 25/3 = 0 and climbs as wins accumulate and σ shrinks.

Model parameters (``RatingModel``) are openskill's defaults: μ₀ = 25, σ₀ = 25/3,
β = 25/6 (performance noise around skill), κ = 0.0001 (keeps variances positive),
τ = 25/300 (σ becomes √(σ² + τ²) before each sitting, so ratings keep moving over a long
season).

Sittings are applied in the order they happened, by (``at``, ``key``). The floats are a
function of that sequence: ``replay`` from scratch and ``update`` one sitting at a time give
the same bits, and ``Ratings.to_json``/``from_json`` keep them, so a service can store the
ratings, add the next sitting, and recompute everything when an old sitting changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any, TypeAlias

from openskill.models import PlackettLuce, PlackettLuceRating

from clubs.standings import (
    Player,
    Sitting,
    SittingKey,
    has_placing,
    ordered,
    sitting_places,
)

Initial: TypeAlias = Mapping[int, tuple[float, float]] | Mapping[str, tuple[float, float]]
"""Starting ratings, player → (mu, sigma), one kind of player id."""

ORDINAL_SIGMAS = 3.0
"""The ordinal is mu − ORDINAL_SIGMAS · sigma."""


@dataclass(frozen=True, slots=True)
class RatingModel:
    """Plackett–Luce parameters; the defaults are openskill's (module text)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    kappa: float = 0.0001
    tau: float = 25.0 / 300.0

    def to_json(self) -> dict[str, float]:
        return {
            "mu": self.mu,
            "sigma": self.sigma,
            "beta": self.beta,
            "kappa": self.kappa,
            "tau": self.tau,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RatingModel:
        return cls(**{name: float(data[name]) for name in ("mu", "sigma", "beta", "kappa", "tau")})


DEFAULT_MODEL = RatingModel()


@cache
def _openskill(model: RatingModel) -> PlackettLuce:
    return PlackettLuce(
        mu=model.mu, sigma=model.sigma, beta=model.beta, kappa=model.kappa, tau=model.tau
    )


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating: ``mu`` and ``sigma``; ``ordinal`` = mu − 3 sigma for display."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - ORDINAL_SIGMAS * self.sigma

    def to_json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rating:
        return cls(mu=float(data["mu"]), sigma=float(data["sigma"]))


def _prior(model: RatingModel) -> Rating:
    return Rating(mu=model.mu, sigma=model.sigma)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one sitting did to one seated player's rating; ``place`` is their placing there."""

    sitting: SittingKey
    player: Player
    place: int
    before: Rating
    after: Rating

    def to_json(self) -> dict[str, Any]:
        return {
            "sitting": self.sitting,
            "player": self.player,
            "place": self.place,
            "before": self.before.to_json(),
            "after": self.after.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RatingChange:
        return cls(
            sitting=data["sitting"],
            player=data["player"],
            place=int(data["place"]),
            before=Rating.from_json(data["before"]),
            after=Rating.from_json(data["after"]),
        )


@dataclass(frozen=True, slots=True)
class Ratings:
    """Everyone's current rating and the history that led there.

    ``current`` holds every player rated so far (and every player given an initial rating);
    ``history`` one ``RatingChange`` per rated sitting and seated player, in the order
    applied. ``model`` is kept so that ``update`` goes on with the same parameters.
    """

    model: RatingModel = DEFAULT_MODEL
    current: Mapping[Player, Rating] = field(default_factory=dict)
    history: tuple[RatingChange, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "current", MappingProxyType(dict(self.current)))
        object.__setattr__(self, "history", tuple(self.history))

    def rating(self, player: Player) -> Rating:
        """The player's current rating; the model's prior for a player not rated yet."""
        found = self.current.get(player)
        return found if found is not None else _prior(self.model)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (players as a list, so integer ids stay integers). Python writes floats
        as their shortest round-tripping decimal, so ``from_json`` restores them exactly."""
        return {
            "model": self.model.to_json(),
            "players": [
                {"player": player, **self.current[player].to_json()}
                for player in sorted(self.current)
            ],
            "history": [change.to_json() for change in self.history],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ratings:
        return cls(
            model=RatingModel.from_json(data["model"]),
            current={entry["player"]: Rating.from_json(entry) for entry in data["players"]},
            history=tuple(RatingChange.from_json(change) for change in data["history"]),
        )


def start(
    *,
    initial: Initial | None = None,
    model: RatingModel = DEFAULT_MODEL,
) -> Ratings:
    """Ratings before any sitting: ``initial`` (player → (mu, sigma)), e.g. carried over from
    last season; everybody else starts at the model's prior when first seated."""
    current = {
        player: Rating(mu=float(mu), sigma=float(sigma))
        for player, (mu, sigma) in (initial or {}).items()
    }
    return Ratings(model=model, current=current)


def rate_sitting(ratings: Ratings, sitting: Sitting) -> tuple[RatingChange, ...]:
    """The rating changes one sitting causes, one per seated player, best placed first (ties
    by player id); none for a sitting without a placing or with fewer than two players.

    Players are handed to the model in that fixed order, so the floats never depend on the
    seating order of the input.
    """
    return _changes(sitting, ratings.current, ratings.model)


def _changes(
    sitting: Sitting, current: Mapping[Player, Rating], model: RatingModel
) -> tuple[RatingChange, ...]:
    if not has_placing(sitting) or len(sitting.players) < 2:
        return ()
    places = sitting_places(sitting)
    players = sorted(places, key=lambda player: (places[player], player))
    before = [current.get(player) or _prior(model) for player in players]
    teams = [[PlackettLuceRating(mu=r.mu, sigma=r.sigma)] for r in before]
    ranks = [float(places[player]) for player in players]
    rated = _openskill(model).rate(teams, ranks=ranks)
    return tuple(
        RatingChange(
            sitting=sitting.key,
            player=player,
            place=places[player],
            before=old,
            after=Rating(mu=team[0].mu, sigma=team[0].sigma),
        )
        for player, old, team in zip(players, before, rated, strict=True)
    )


def update(ratings: Ratings, sitting: Sitting) -> Ratings:
    """The ratings after one more sitting. The caller applies sittings in (``at``, ``key``)
    order; after a change to an earlier sitting, ``replay`` the season instead."""
    changes = rate_sitting(ratings, sitting)
    if not changes:
        return ratings
    current = dict(ratings.current)
    for change in changes:
        current[change.player] = change.after
    return Ratings(model=ratings.model, current=current, history=ratings.history + changes)


def replay(
    sittings: Iterable[Sitting],
    *,
    initial: Initial | None = None,
    model: RatingModel = DEFAULT_MODEL,
) -> Ratings:
    """The ratings after all ``sittings``, applied in (``at``, ``key``) order from ``initial``
    (see ``start``); the same floats as ``update`` applied one sitting at a time."""
    ratings = start(initial=initial, model=model)
    current = dict(ratings.current)
    history: list[RatingChange] = []
    for sitting in ordered(sittings):
        changes = _changes(sitting, current, model)
        for change in changes:
            current[change.player] = change.after
        history.extend(changes)
    return Ratings(model=model, current=current, history=tuple(history))
