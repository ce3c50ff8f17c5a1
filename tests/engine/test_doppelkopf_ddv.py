"""Scoring of rule set ``doppelkopf-ddv`` (``spec/next/doppelkopf.md``, "Rule set
``doppelkopf-ddv``": Winner, Game value, Extra points, Solos, Money): the examples D1–D4 as
score-sheet entries, each rule of the winner and of the game value, extra points, solos, the
transfers, and over random entries the zero sum and the solo factor.

Examples: ``point_value`` 10; dealer dora, so anna is forehand."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

from engine.rules.doppelkopf.ddv import settle, transfers, winner
from engine.rules.doppelkopf.outcome import Outcome, other
from tests.draws import draws
from tests.engine.test_doppelkopf_entries import ORDER, ddv_entries, ddv_entry, party


def deal(
    re: list[str],
    points: int,
    tricks: int,
    re_says: str | None = None,
    kontra_says: str | None = None,
    game: dict[str, Any] | None = None,
    extras: dict[str, list[str]] | None = None,
) -> Outcome:
    """A DDV entry: Re's Augen and tricks, each party's highest announcement, extras."""
    return ddv_entry(
        game=game or {"type": "normal"},
        re=re,
        points=party(points, 240 - points),
        tricks=party(tricks, 12 - tricks),
        announcements={"re": re_says, "kontra": kontra_says},
        extras=extras or {},
    )


def score(outcome: Outcome) -> dict[str, int]:
    return dict(settle(outcome)["score"])


AC = ["anna", "carl"]
BD = ["bert", "dora"]


# --- the worked examples ---------------------------------------------------------------------


def test_d1_re_announced_and_won_with_a_doppelkopf_against_a_fox() -> None:
    """D1: Re (anna, carl) announced ``re``, won 130 : 110; Re won a Doppelkopf, Kontra caught
    a fox. Value 1 + 2 = 3; N = 3 + 1 − 1 = 3: anna, carl +30 cents; bert, dora −30."""
    result = settle(deal(AC, 130, 7, "re", extras={"re": ["doppelkopf"], "kontra": ["fox"]}))
    assert result == {
        "game": {"type": "normal"},
        "re": ["anna", "carl"],
        "winner": "re",
        "points": {"re": 130, "kontra": 110},
        "announcements": {"re": "re", "kontra": None},
        "extras": {"re": ["doppelkopf"], "kontra": ["fox"]},
        "value": {"re": 3, "kontra": 0},
        "score": {"anna": 3, "bert": -3, "carl": 3, "dora": -3},
        "delta": {"anna": 30, "bert": -30, "carl": 30, "dora": -30},
        "transfers": [
            {"from": "bert", "to": "anna", "amount": 30, "why": "score"},
            {"from": "dora", "to": "carl", "amount": 30, "why": "score"},
        ],
    }


def test_d2_re_failed_its_absage_and_kontra_wins_with_90() -> None:
    """D2: Re (bert, dora) announced ``no90``, 150 : 90. Kontra reached 90 against it. Value
    1 + 2 + 1 = 4, plus ``against_alten`` 1: Kontra +5 each, Re −5 each. Δ ±50."""
    result = settle(deal(BD, 150, 8, "no90"))
    assert result["winner"] == "kontra"
    assert result["value"] == {"re": 0, "kontra": 4}
    assert result["extras"] == {"re": [], "kontra": ["against_alten"]}
    assert result["score"] == {"anna": 5, "bert": -5, "carl": 5, "dora": -5}
    assert result["delta"] == {"anna": 50, "bert": -50, "carl": 50, "dora": -50}


def test_d3_a_lustsolo_won_with_kontra_schneider() -> None:
    """D3: carl, Lustsolo ``queens``, 185 : 55, no announcements. Value 1 + 1 + 1 = 3: carl +9
    (+90 cents), the others −3 (−30) each."""
    game = {"type": "solo", "kind": "queens", "pflicht": False}
    result = settle(deal(["carl"], 185, 9, game=game))
    assert result["winner"] == "re"
    assert result["value"] == {"re": 3, "kontra": 0}
    assert result["extras"] == {"re": [], "kontra": []}
    assert result["score"] == {"anna": -3, "bert": -3, "carl": 9, "dora": -3}
    assert result["delta"] == {"anna": -30, "bert": -30, "carl": 90, "dora": -30}
    assert result["transfers"] == [
        {"from": s, "to": "carl", "amount": 30, "why": "score"} for s in ("anna", "bert", "dora")
    ]


def test_d4_both_absagen_fail_and_nobody_wins() -> None:
    """D4: Re (anna, carl) ``no60``, Kontra ``no60``, 100 : 140: both Absagen fail, nobody
    wins. Re 1 (90 against no60), Kontra 2 (120 against no90, 90 against no60): N = −1;
    anna, carl −10 cents, bert, dora +10."""
    result = settle(deal(AC, 100, 5, "no60", "no60"))
    assert result["winner"] is None
    assert result["value"] == {"re": 1, "kontra": 2}
    assert result["extras"] == {"re": [], "kontra": []}
    assert result["score"] == {"anna": -1, "bert": 1, "carl": -1, "dora": 1}
    assert result["delta"] == {"anna": -10, "bert": 10, "carl": -10, "dora": 10}


# --- the winner ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("re_points", "re_says", "kontra_says", "won_by"),
    [
        (121, None, None, "re"),  # Re's need 121
        (120, None, None, "kontra"),  # Kontra's need 120
        (120, "re", "kontra", "kontra"),  # both words: the needs stay
        (121, "re", None, "re"),
        (120, None, "kontra", "re"),  # "when Kontra announced and Re did not ... Re 120"
        (119, None, "kontra", "kontra"),  # ... "Kontra 121"
        (150, "no90", None, "kontra"),  # D2: Kontra reached 90 against no90
        (151, "no90", None, "re"),  # Kontra 89: the Absage is met
        (200, "no30", None, "kontra"),  # Kontra 40: below 60, not below 30: the no30 fails
        (211, "no30", None, "re"),
        (100, None, "no90", "re"),  # Re reached 90 against Kontra's no90
        (89, None, "no90", "kontra"),
        (100, "no60", "no60", None),  # D4
    ],
)
def test_the_winner(
    re_points: int, re_says: str | None, kontra_says: str | None, won_by: str | None
) -> None:
    """Winner: "Party P wins if every Absage of P is met and either P reached its need (Re 121,
    Kontra 120; when Kontra announced and Re did not, Kontra 121 and Re 120) or P reached an
    opposing Absage"."""
    outcome = deal(AC, re_points, 6, re_says, kontra_says)
    assert winner(outcome) == won_by


def test_kontra_alone_announcing_needs_121() -> None:
    """Winner: "when Kontra announced and Re did not, Kontra 121 and Re 120": 120 : 120 is Re's."""
    assert winner(deal(AC, 120, 6, None, "kontra")) == "re"
    assert winner(deal(AC, 119, 6, None, "kontra")) == "kontra"
    assert winner(deal(AC, 120, 6, None, None)) == "kontra"


def test_one_trick_of_no_augen_defeats_schwarz() -> None:
    """Winner: "one trick, even of 0 Augen, against schwarz": Re announced ``schwarz``, took 240
    Augen, but Kontra took a trick: Re's Absage fails and Kontra wins."""
    assert winner(deal(AC, 240, 11, "schwarz")) == "kontra"
    assert winner(deal(AC, 240, 12, "schwarz")) == "re"


# --- the game value --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("re_points", "re_tricks", "re_says", "kontra_says", "value"),
    [
        (121, 6, None, None, 1),  # 1 for winning
        (151, 8, None, None, 2),  # + Kontra below 90
        (181, 9, None, None, 3),  # + below 60
        (211, 11, None, None, 4),  # + below 30
        (240, 12, None, None, 5),  # + no trick
        (121, 6, "re", None, 3),  # + 2 for re announced
        (121, 6, "re", "kontra", 5),  # + 2 for kontra announced
        (151, 8, "no90", None, 5),  # 1 + below 90 + re 2 + no90 1
        (240, 12, "schwarz", None, 11),  # 1 + 4 shortfalls + 2 + 4 Absage levels
        (240, 12, "schwarz", "no90", 15),  # + kontra 2, no90 1, and 120 reached against it
    ],
)
def test_the_game_value_of_a_re_win(
    re_points: int, re_tricks: int, re_says: str | None, kontra_says: str | None, value: int
) -> None:
    """Game value: "1 for winning; +1 each for losers below 90, below 60, below 30, with no
    trick; +2 for re announced, +2 for kontra announced; +1 per Absage level announced by
    either party; +1 each for winners reaching 120 against no90 ..."."""
    result = settle(deal(AC, re_points, re_tricks, re_says, kontra_says))
    assert result["winner"] == "re"
    assert result["value"] == {"re": value, "kontra": 0}


@pytest.mark.parametrize(
    ("kontra_points", "re_says", "reached"),
    [
        (130, "no90", 1),  # 120 against no90
        (95, "no60", 1),  # 90 against no60 (not 120 against no90)
        (125, "no60", 2),  # 120 against no90, 90 against no60
        (65, "no30", 1),  # 60 against no30
        (35, "schwarz", 1),  # 30 against schwarz
        (130, "schwarz", 4),  # all four
    ],
)
def test_winners_score_what_they_reached_against_the_losers_absagen(
    kontra_points: int, re_says: str, reached: int
) -> None:
    """Game value: "+1 each for winners reaching 120 against no90, 90 against no60, 60
    against no30, 30 against schwarz". Re (no shortfall here) made an Absage that failed;
    Kontra wins with 1 + 2 (``re`` announced) + 1 per Absage level + what it reached."""
    result = settle(deal(AC, 240 - kontra_points, 6, re_says))
    assert result["winner"] == "kontra"
    levels = {"no90": 1, "no60": 2, "no30": 3, "schwarz": 4}[re_says]
    assert result["value"]["kontra"] == 1 + 2 + levels + reached


def test_nobody_wins_scores_only_shortfalls_and_what_was_reached() -> None:
    """Nobody wins (TSR 7.1.4): "each party scores +1 for each of the other party's
    shortfalls ... and +1 for each of 120/90/60/30 it reached against the other party's
    Absagen; no win or announcement points". Re's no30 fails (Kontra 50), Kontra's no60
    fails (Re 190). Re: Kontra below 90 and below 60 (2), 120 against no90 and 90 against
    no60 (2). Kontra: no shortfall of Re's, and 50 reaches nothing against Re's no90, no60,
    no30 (120, 90, 60). N = 4."""
    result = settle(deal(AC, 190, 9, "no30", "no60"))
    assert result["winner"] is None
    assert result["value"] == {"re": 4, "kontra": 0}
    assert result["score"] == {"anna": 4, "bert": -4, "carl": 4, "dora": -4}


# --- extra points ----------------------------------------------------------------------------


def test_against_alten_is_kontras_extra_when_it_wins_a_normal_game() -> None:
    """Extra points: ``against_alten`` (Kontra won), 1 more game point."""
    result = settle(deal(AC, 100, 5))
    assert result["extras"] == {"re": [], "kontra": ["against_alten"]}
    assert result["value"] == {"re": 0, "kontra": 1}
    assert result["score"]["bert"] == 2


def test_extras_count_for_each_party_whoever_wins() -> None:
    """Extra points, "each to the party that earned it": the losers' extras lower N."""
    result = settle(
        deal(AC, 121, 6, extras={"re": ["doppelkopf"], "kontra": ["fox", "fox", "karlchen"]})
    )
    assert result["winner"] == "re"
    assert result["extras"] == {"re": ["doppelkopf"], "kontra": ["fox", "fox", "karlchen"]}
    assert result["score"] == {"anna": -1, "bert": 1, "carl": -1, "dora": 1}


def test_a_hochzeit_with_a_partner_has_extras() -> None:
    game = {"type": "hochzeit"}
    result = settle(deal(AC, 100, 5, game=game, extras={"re": ["fox"]}))
    assert result["extras"] == {"re": ["fox"], "kontra": ["against_alten"]}
    assert result["score"]["anna"] == -1


def test_nobody_wins_has_no_against_alten() -> None:
    result = settle(deal(AC, 100, 5, "no60", "no60", extras={"kontra": ["doppelkopf"]}))
    assert result["extras"] == {"re": [], "kontra": ["doppelkopf"]}
    assert result["score"]["anna"] == -2


# --- solos -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game",
    [
        {"type": "solo", "kind": "fleischlos", "pflicht": False},
        {"type": "silent_solo"},  # "stilles Solo ... scored as a solo"
        {"type": "hochzeit"},  # a lone bride, "scored as a solo"
    ],
)
def test_a_lost_solo_costs_the_soloist_three_times_and_has_no_against_alten(
    game: dict[str, Any],
) -> None:
    """Solos: "no extra points; the soloist scores ±3·value, each opponent ∓value"."""
    result = settle(deal(["bert"], 100, 5, game=game))
    assert result["winner"] == "kontra"
    assert result["extras"] == {"re": [], "kontra": []}
    assert result["value"] == {"re": 0, "kontra": 1}
    assert result["score"] == {"anna": 1, "bert": -3, "carl": 1, "dora": 1}
    assert result["transfers"] == [
        {"from": "bert", "to": s, "amount": 10, "why": "score"} for s in ("anna", "carl", "dora")
    ]


def test_a_pflichtsolo_scores_like_a_lustsolo() -> None:
    game = {"type": "solo", "kind": "jacks", "pflicht": True}
    outcome = ddv_entry(
        ("dora",),
        game=game,
        re=["dora"],
        points=party(130, 110),
        tricks=party(7, 5),
        announcements={"re": "re", "kontra": None},
    )
    assert settle(outcome)["score"] == {"anna": -3, "bert": -3, "carl": -3, "dora": 9}


# --- money -----------------------------------------------------------------------------------


def test_transfers_match_payers_and_payees_greedily_in_playing_order() -> None:
    """Money: payers and payees "each in playing order from forehand, greedily"."""
    delta = {"anna": -50, "bert": 20, "carl": -10, "dora": 40}
    assert transfers(ORDER, delta) == [
        {"from": "anna", "to": "bert", "amount": 20, "why": "score"},
        {"from": "anna", "to": "dora", "amount": 30, "why": "score"},
        {"from": "carl", "to": "dora", "amount": 10, "why": "score"},
    ]


def test_a_zero_score_has_no_transfers() -> None:
    """120 : 120, Kontra announced, Re wins: N = 1 + 2 = 3; but with Kontra's fox and two
    Doppelkopf N is 0."""
    result = settle(
        deal(AC, 120, 6, None, "kontra", extras={"kontra": ["fox", "doppelkopf", "doppelkopf"]})
    )
    assert result["winner"] == "re"
    assert result["score"] == dict.fromkeys(ORDER, 0)
    assert result["transfers"] == []


# --- invariants ------------------------------------------------------------------------------


@settings(max_examples=draws(300))
@given(ddv_entries())
def test_scores_sum_to_zero_and_a_soloist_scores_three_times(
    drawn: tuple[dict[str, Any], tuple[str, ...]],
) -> None:
    """Zero-sum money; in a solo the soloist's score is −3 × each opponent's; the transfers
    pay exactly the deltas."""
    entry, owed = drawn
    outcome = ddv_entry(owed, **entry)
    result = settle(outcome)
    assert sum(result["delta"].values()) == 0
    assert result["delta"] == {s: 10 * result["score"][s] for s in ORDER}
    if len(outcome.re) == 1:
        soloist = outcome.re[0]
        for seat in ORDER:
            if seat != soloist:
                assert result["score"][soloist] == -3 * result["score"][seat]
        assert result["extras"] == {"re": [], "kontra": []}
    paid = dict.fromkeys(ORDER, 0)
    for t in result["transfers"]:
        assert t["amount"] > 0 and t["why"] == "score"
        paid[t["from"]] -= t["amount"]
        paid[t["to"]] += t["amount"]
    assert paid == result["delta"]
    won_by = result["winner"]
    if won_by is not None:
        assert result["value"][won_by] >= 1 and result["value"][other(won_by)] == 0
