"""clubs.ratings: OpenSkill Plackett–Luce ratings, one update per table sitting, exactly
reproducible (replay equals incremental updates, JSON keeps the floats)."""

from __future__ import annotations

import ast
import json
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from clubs.ratings import (
    DEFAULT_MODEL,
    Rating,
    RatingModel,
    Ratings,
    rate_sitting,
    replay,
    start,
    update,
)
from clubs.standings import HandLine, Sitting, ordered
from tests.clubs.test_standings import START, seasons

ROOT = Path(__file__).resolve().parents[2]


def sitting(key: int, totals: dict[str, int], *, seated: tuple[str, ...] = ()) -> Sitting:
    """A sitting whose players end on ``totals`` (one hand); ``seated`` adds players without
    a hand."""
    return Sitting(
        key=key,
        evening="e",
        at=START + timedelta(hours=key),
        players=(*totals, *seated),
        lines=tuple(HandLine(p, amount) for p, amount in totals.items()),
    )


def test_the_model_is_openskills_default_and_a_new_player_starts_at_ordinal_zero() -> None:
    openskill = PlackettLuce()
    assert DEFAULT_MODEL.to_json() == {
        "mu": openskill.mu,
        "sigma": openskill.sigma,
        "beta": openskill.beta,
        "kappa": openskill.kappa,
        "tau": openskill.tau,
    }
    assert DEFAULT_MODEL.to_json() == {
        "mu": 25.0,
        "sigma": 25 / 3,
        "beta": 25 / 6,
        "kappa": 0.0001,
        "tau": 25 / 300,
    }
    assert start().rating("anna") == Rating(25.0, 25 / 3)
    assert start().rating("anna").ordinal == pytest.approx(0.0)


def test_the_winner_goes_up_and_the_loser_down() -> None:
    ratings = replay([sitting(1, {"anna": 100, "bert": 0, "carl": -100})])
    anna, bert, carl = (ratings.current[p] for p in ("anna", "bert", "carl"))
    assert anna.mu > 25 > carl.mu
    assert anna.ordinal > bert.ordinal > carl.ordinal
    assert all(r.sigma < 25 / 3 for r in (anna, bert, carl))  # everybody is better known


def test_players_tied_at_a_sitting_get_equal_updates_when_they_were_equal() -> None:
    ratings = replay([sitting(1, {"anna": 50, "bert": 50, "carl": -100})])
    assert ratings.current["anna"] == ratings.current["bert"]
    assert ratings.current["anna"].mu > 25 > ratings.current["carl"].mu


def test_a_seated_player_without_a_hand_is_placed_by_their_total() -> None:
    # dave sat at the table but left before a hand: placed on 0, between anna and the losers.
    changes = rate_sitting(
        start(), sitting(1, {"anna": 100, "bert": -50, "carl": -50}, seated=("dave",))
    )
    assert [(c.player, c.place) for c in changes] == [
        ("anna", 1),
        ("dave", 2),
        ("bert", 3),
        ("carl", 3),
    ]
    after = {c.player: c.after for c in changes}
    assert after["bert"] == after["carl"]
    assert after["anna"].mu > after["dave"].mu > after["bert"].mu


def test_a_sitting_without_hands_or_with_one_player_changes_nothing() -> None:
    empty = Sitting(key=1, evening="e", at=START, players=("anna", "bert", "carl"))
    alone = sitting(2, {"anna": 10})
    ratings = start()
    assert update(update(ratings, empty), alone) == ratings
    assert replay([empty, alone]).history == ()


def test_initial_ratings_are_the_starting_point() -> None:
    one = sitting(1, {"anna": 100, "bert": 0, "carl": -100})
    known = replay([one], initial={"anna": (25.0, 2.0)})
    first = {c.player: c for c in known.history}
    assert first["anna"].before == Rating(25.0, 2.0)
    assert first["bert"].before == Rating(25.0, 25 / 3)
    # the same win moves a well-known player less than a new one
    new = replay([one])
    assert 25.0 < known.current["anna"].mu < new.current["anna"].mu


def test_the_history_has_one_change_per_sitting_and_seated_player_chained() -> None:
    sittings = [
        sitting(1, {"anna": 100, "bert": 0, "carl": -100}),
        sitting(2, {"anna": -30, "carl": 10, "dave": 20}),
    ]
    ratings = replay(sittings)
    assert [(c.sitting, c.player) for c in ratings.history] == [
        (1, "anna"),
        (1, "bert"),
        (1, "carl"),
        (2, "dave"),
        (2, "carl"),
        (2, "anna"),
    ]
    anna = [c for c in ratings.history if c.player == "anna"]
    assert anna[1].before == anna[0].after
    assert ratings.current["anna"] == anna[1].after


def test_the_seating_order_does_not_change_a_single_bit() -> None:
    a = sitting(1, {"anna": 100, "bert": 30, "carl": -60, "dave": -70})
    b = sitting(1, {"dave": -70, "bert": 30, "anna": 100, "carl": -60})
    assert replay([a]) == replay([b])


@given(seasons())
def test_a_full_replay_equals_updating_one_sitting_at_a_time(sittings: list[Sitting]) -> None:
    ratings = start(initial={"anna": (28.5, 4.25)})
    for one in ordered(sittings):
        ratings = update(ratings, one)
    assert ratings == replay(sittings, initial={"anna": (28.5, 4.25)})


@given(seasons(), st.data())
def test_replay_applies_sittings_by_time_and_key_whatever_the_input_order(
    sittings: list[Sitting], data: st.DataObject
) -> None:
    assert replay(data.draw(st.permutations(sittings))) == replay(sittings)


@given(seasons(), st.integers(0, 7))
def test_stored_ratings_resume_exactly(sittings: list[Sitting], cut: int) -> None:
    in_order = ordered(sittings)
    ratings = replay(in_order[:cut], model=RatingModel(tau=0.1))
    stored = json.loads(json.dumps(ratings.to_json()))
    resumed = Ratings.from_json(stored)
    assert resumed == ratings
    for one in in_order[cut:]:
        resumed = update(resumed, one)
    assert resumed == replay(in_order, model=RatingModel(tau=0.1))


def test_ratings_render_as_plain_json_with_integer_ids_kept() -> None:
    one = Sitting(
        key=7,
        evening=1,
        at=START,
        players=(12, 3, 5),
        lines=(HandLine(12, 10), HandLine(3, -10), HandLine(5, 0)),
    )
    data = json.loads(json.dumps(replay([one]).to_json()))
    assert data["model"] == {
        "mu": 25.0,
        "sigma": 25 / 3,
        "beta": 25 / 6,
        "kappa": 0.0001,
        "tau": 25 / 300,
    }
    assert [p["player"] for p in data["players"]] == [3, 5, 12]
    assert set(data["players"][0]) == {"player", "mu", "sigma", "ordinal"}
    assert data["history"][0]["sitting"] == 7
    assert data["history"][0]["player"] == 12
    assert data["history"][0]["place"] == 1
    assert data["history"][0]["before"] == {"mu": 25.0, "sigma": 25 / 3, "ordinal": 0.0}


def test_ratings_import_only_the_standard_library_openskill_and_standings() -> None:
    tree = ast.parse((ROOT / "clubs" / "ratings.py").read_text(encoding="utf-8"))
    modules = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    outside = {m for m in modules if m.split(".")[0] not in sys.stdlib_module_names}
    assert outside <= {"__future__", "openskill.models", "clubs.standings"}
