"""The Kasse settlement of rule set ``doppelkopf`` (``spec/next/doppelkopf.md``, "Result of the
play" and "Settlement (Kasse)"): the worked examples 1–5 as score-sheet entries, the winner,
the categories, the payout table row by row, the order of the transfers, and over random
entries that the Kasse balances and never goes negative.

Examples: ``base`` 20, ``ante`` 10; dealer dora, so anna is forehand."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules.doppelkopf.kasse import category, settle, winner
from engine.rules.doppelkopf.outcome import Outcome
from tests.draws import draws
from tests.engine.test_doppelkopf_entries import (
    ORDER,
    KasseTable,
    kasse_entries,
    kasse_entry,
    kasse_rules,
    party,
)


def ante(seat: str, why: str = "ante") -> dict[str, Any]:
    return {"from": seat, "to": "kasse", "amount": 10, "why": why}


def win(seat: str, amount: int) -> dict[str, Any]:
    return {"from": "kasse", "to": seat, "amount": amount, "why": "win"}


ANTES = [ante(s) for s in ORDER]
REFILL = [ante(s, "refill") for s in ORDER]


def normal(re: list[str], points: int, tricks: int, queens: int = 0, **kw: Any) -> dict[str, Any]:
    """A normal game's entry: Re's Augen, tricks and queen tricks."""
    return {
        "game": {"type": "normal"},
        "re": re,
        "points": party(points, 240 - points),
        "tricks": party(tricks, 12 - tricks),
        "queen_tricks": party(queens, 0),
        **kw,
    }


# --- the worked examples ---------------------------------------------------------------------


def test_example_1_a_normal_game_won_by_re() -> None:
    """Example 1: Re anna, carl 151 : 89 (Kontra 4 tricks). Kasse 100 + 40 ante = 140; Re wins
    simple, B = 20 each; Kasse 100. Δ anna +10, bert −10, carl +10, dora −10."""
    result = settle(kasse_entry(100, **normal(["anna", "carl"], 151, 8, 2)))
    assert result == {
        "game": {"type": "normal"},
        "re": ["anna", "carl"],
        "winner": "re",
        "category": "simple",
        "points": {"re": 151, "kontra": 89},
        "amount": 20,
        "delta": {"anna": 10, "bert": -10, "carl": 10, "dora": -10},
        "kasse": 100,
        "transfers": [*ANTES, win("anna", 20), win("carl", 20)],
    }


def test_example_2_kontra_wins_schwarz_against_the_alten_with_two_refills() -> None:
    """Example 2: Re bert, dora; both CQ fell in one trick (12 Augen), Re's only trick; Kontra
    228. Re is schwarz: 3B + B = 80 to each Kontra player, 160 in all. Kasse 50 + 40 = 90 is
    short: two refills (130, 170), then pay; Kasse 10. Δ anna +50, carl +50, bert −30,
    dora −30."""
    result = settle(kasse_entry(50, **normal(["bert", "dora"], 12, 1, 1)))
    assert result["winner"] == "kontra"
    assert result["category"] == "schwarz"
    assert result["points"] == {"re": 12, "kontra": 228}
    assert result["amount"] == 80
    assert result["kasse"] == 10
    assert result["delta"] == {"anna": 50, "bert": -30, "carl": 50, "dora": -30}
    assert result["transfers"] == [*ANTES, *REFILL, *REFILL, win("anna", 80), win("carl", 80)]


def test_example_3_a_hochzeit_won_by_the_bride_and_her_partner() -> None:
    """Example 3: anna's Hochzeit, partner bert. Re 185 : 55, Kontra schneider: 2B = 40 to anna
    and bert. Kasse 100 + 40 − 80 = 60. Δ anna +30, bert +30, carl −10, dora −10."""
    entry = {**normal(["anna", "bert"], 185, 9, 2), "game": {"type": "hochzeit"}}
    result = settle(kasse_entry(100, **entry))
    assert (result["winner"], result["category"], result["amount"]) == ("re", "schneider", 40)
    assert result["kasse"] == 60
    assert result["delta"] == {"anna": 30, "bert": 30, "carl": -10, "dora": -10}
    assert result["transfers"] == [*ANTES, win("anna", 40), win("bert", 40)]


def test_example_4_an_einfaches_solo_lost() -> None:
    """Example 4: carl's solo in H, 117 : 123. Kontra (anna, bert, dora) wins simple: 2B = 40
    each. Kasse 200 + 40 − 120 = 120. Δ carl −10, anna, bert, dora +30 each."""
    entry = {
        "game": {"type": "solo", "trump": "H"},
        "re": ["carl"],
        "points": party(117, 123),
        "tricks": party(5, 7),
    }
    result = settle(kasse_entry(200, **entry))
    assert (result["winner"], result["category"], result["amount"]) == ("kontra", "simple", 40)
    assert result["kasse"] == 120
    assert result["delta"] == {"anna": 30, "bert": 30, "carl": -10, "dora": 30}
    assert result["transfers"] == [*ANTES, win("anna", 40), win("bert", 40), win("dora", 40)]


def test_example_5_karlchen_mueller_lost() -> None:
    """Example 5: dora's Karlchen Müller; in trick 12 her CJ is beaten by a queen. Kasse 80 +
    40 ante + 20 (dora's B) = 140; anna, bert, carl 2B = 40 each; Kasse 20. Δ dora −30, the
    others +30 each."""
    entry = {
        "game": {"type": "karlchen"},
        "re": ["dora"],
        "last_trick": {"winner": "bert", "card": "SQ"},
    }
    result = settle(kasse_entry(80, **entry))
    assert result["winner"] == "kontra"
    assert result["category"] is None and result["points"] is None
    assert result["amount"] == 40
    assert result["kasse"] == 20
    assert result["delta"] == {"anna": 30, "bert": 30, "carl": 30, "dora": -30}
    assert result["transfers"] == [
        *ANTES,
        {"from": "dora", "to": "kasse", "amount": 20, "why": "karlchen"},
        win("anna", 40),
        win("bert", 40),
        win("carl", 40),
    ]


def test_example_5_karlchen_mueller_won() -> None:
    """Example 5: "Had she taken the last trick with the CJ: Kasse 80 + 40 − 40 = 80; Δ dora
    +30, the others −10"."""
    entry = {
        "game": {"type": "karlchen"},
        "re": ["dora"],
        "last_trick": {"winner": "dora", "card": "CJ"},
    }
    result = settle(kasse_entry(80, **entry))
    assert (result["winner"], result["amount"], result["kasse"]) == ("re", 40, 80)
    assert result["delta"] == {"anna": -10, "bert": -10, "carl": -10, "dora": 30}
    assert result["transfers"] == [*ANTES, win("dora", 40)]


# --- the winner ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("re_points", "re_tricks", "won_by"),
    [
        (121, 6, "re"),  # "Re wins with 121 or more"
        (240, 12, "re"),
        (120, 6, "kontra"),  # "120 : 120 is a Kontra win"
        (0, 0, "kontra"),
    ],
)
def test_re_needs_121(re_points: int, re_tricks: int, won_by: str) -> None:
    assert winner(kasse_entry(0, **normal(["anna", "carl"], re_points, re_tricks))) == won_by


@pytest.mark.parametrize(
    ("last_trick", "won_by"),
    [
        ({"winner": "dora", "card": "CJ"}, "re"),  # the soloist takes the 12th trick with a CJ
        ({"winner": "dora", "card": "CQ"}, "kontra"),  # his trick, but not with a CJ
        ({"winner": "anna", "card": "CJ"}, "kontra"),  # another's CJ takes it
        ({"winner": "anna", "card": "HA"}, "kontra"),  # "also when no CJ takes it"
    ],
)
def test_karlchen_mueller_is_won_only_by_the_soloists_cj_in_the_last_trick(
    last_trick: dict[str, str], won_by: str
) -> None:
    """Karlchen Müller: "Gewinner des Spiels ist, wer den letzten Stich mit Kreuz-Buben macht"."""
    entry = {"game": {"type": "karlchen"}, "re": ["dora"], "last_trick": last_trick}
    assert winner(kasse_entry(0, **entry)) == won_by


# --- the losing party's category -------------------------------------------------------------


def cat(entry: dict[str, Any], **rules: Any) -> str | None:
    outcome = kasse_entry(0, KasseTable(**rules), **entry)
    return category(outcome, winner(outcome))


def test_a_party_without_a_trick_is_schwarz() -> None:
    """Category ``schwarz``: "every trick it won was won by a CQ, no trick included"."""
    assert cat(normal(["anna", "carl"], 240, 12, 2)) == "schwarz"


def test_a_party_whose_tricks_were_all_won_by_a_cq_is_schwarz() -> None:
    """Seed: "Als Schwarz gilt ..., wenn nur auf die beiden Alten Stiche gemacht wurden"."""
    assert cat(normal(["anna", "carl"], 20, 2, 2)) == "schwarz"
    assert cat(normal(["anna", "carl"], 20, 2, 1)) == "schneider"


def test_a_solos_kontra_party_with_only_cq_tricks_is_schwarz_too() -> None:
    """Schwarz is "applied in every game, to either party": here a soloist's opponents, who
    held the Alten."""
    entry = {
        "game": {"type": "solo", "trump": "C"},
        "re": ["bert"],
        "points": party(220, 20),
        "tricks": party(10, 2),
        "queen_tricks": party(0, 2),
    }
    assert cat(entry) == "schwarz"


@pytest.mark.parametrize(
    ("kontra_points", "below", "expected"),
    [
        (59, 60, "schneider"),  # "weniger als 60 Augen"
        (60, 60, "simple"),
        (89, 90, "schneider"),  # schneider_below is the table's
        (90, 90, "simple"),
    ],
)
def test_a_losing_kontra_is_schneider_below_schneider_below(
    kontra_points: int, below: int, expected: str
) -> None:
    entry = normal(["anna", "carl"], 240 - kontra_points, 9, 1)
    assert cat(entry, schneider_below=below) == expected


@pytest.mark.parametrize(
    ("re_points", "below", "expected"),
    [
        (59, 60, "schneider"),
        (60, 60, "simple"),
        (60, 61, "schneider"),  # 61: "the traditional rule"
        (61, 61, "simple"),
    ],
)
def test_a_losing_re_is_schneider_below_schneider_re_below(
    re_points: int, below: int, expected: str
) -> None:
    entry = normal(["anna", "carl"], re_points, 3, 1)
    assert cat(entry, schneider_re_below=below, schneider_below=100) == expected


# --- the payout table ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("re_points", "re_tricks", "queens", "won_by", "cat_", "each"),
    [
        (151, 8, 1, "re", "simple", 20),  # Re: B
        (190, 9, 1, "re", "schneider", 40),  # Re: 2B ("verdoppelt sich" when Schneider)
        (240, 12, 2, "re", "schwarz", 60),  # Re: 3B ("den dreifachen Grundbetrag")
        (100, 5, 1, "kontra", "simple", 40),  # Kontra: 2B ("zuzüglich ... den Grundbetrag")
        (50, 3, 1, "kontra", "schneider", 60),  # Kontra: 3B
        (12, 1, 1, "kontra", "schwarz", 80),  # Kontra: 4B
    ],
)
def test_the_payout_table(
    re_points: int, re_tricks: int, queens: int, won_by: str, cat_: str, each: int
) -> None:
    """Settlement (Kasse): the payout to each member of the winning party, B = 20."""
    result = settle(kasse_entry(1000, **normal(["anna", "carl"], re_points, re_tricks, queens)))
    assert (result["winner"], result["category"], result["amount"]) == (won_by, cat_, each)
    winners = ["anna", "carl"] if won_by == "re" else ["bert", "dora"]
    assert [t["to"] for t in result["transfers"] if t["why"] == "win"] == winners


def test_a_won_solo_pays_the_soloist_as_re() -> None:
    """A won solo pays by the Re row; the party of three is paid three times when it wins."""
    entry = {
        "game": {"type": "secret_solo"},
        "re": ["bert"],
        "points": party(200, 40),
        "tricks": party(10, 2),
        "queen_tricks": party(1, 1),
    }
    result = settle(kasse_entry(100, **entry))
    assert (result["winner"], result["category"], result["amount"]) == ("re", "schneider", 40)
    assert result["delta"] == {"anna": -10, "bert": 30, "carl": -10, "dora": -10}


def test_a_lone_hochzeit_lost_pays_kontra_with_the_surcharge() -> None:
    """A Hochzeit without a partner: the bride alone against three, and her loss is one of
    "die Partei mit den Alten"."""
    entry = {**normal(["carl"], 100, 5, 2), "game": {"type": "hochzeit"}}
    result = settle(kasse_entry(500, **entry))
    assert (result["winner"], result["amount"]) == ("kontra", 40)
    assert result["delta"] == {"anna": 30, "bert": 30, "carl": -10, "dora": 30}


# --- antes and refills -----------------------------------------------------------------------


def test_without_ante_each_deal_only_the_refill_rule_applies() -> None:
    """``ante_each_deal`` false: no ante; the Kasse pays what it holds."""
    result = settle(
        kasse_entry(100, KasseTable(ante_each_deal=False), **normal(["anna", "carl"], 151, 8))
    )
    assert result["transfers"] == [win("anna", 20), win("carl", 20)]
    assert result["kasse"] == 60
    assert result["delta"] == {"anna": 20, "bert": 0, "carl": 20, "dora": 0}


def test_an_empty_kasse_is_refilled_until_it_can_pay() -> None:
    """Refill: "while the Kasse holds less than the payouts of step 4, each player pays A into
    it again" (80 to pay from 0: two rounds of 40)."""
    rules = KasseTable(ante_each_deal=False)
    result = settle(kasse_entry(0, rules, **normal(["anna", "carl"], 190, 9, 1)))
    assert result["transfers"] == [*REFILL, *REFILL, win("anna", 40), win("carl", 40)]
    assert result["kasse"] == 0
    assert result["delta"] == {"anna": 20, "bert": -20, "carl": 20, "dora": -20}


def test_a_kasse_holding_exactly_the_payouts_is_not_refilled() -> None:
    result = settle(kasse_entry(0, **normal(["anna", "carl"], 130, 7, 1)))
    assert result["transfers"] == [*ANTES, win("anna", 20), win("carl", 20)]
    assert result["kasse"] == 0


def test_the_lost_karlchen_b_counts_before_a_refill() -> None:
    """Order: antes, the Karlchen B, refills: 0 + 40 + 20 = 60 < 120, one refill to 100 < 120,
    a second to 140."""
    entry = {
        "game": {"type": "karlchen"},
        "re": ["anna"],
        "last_trick": {"winner": "anna", "card": "CQ"},
    }
    result = settle(kasse_entry(0, **entry))
    whys = [t["why"] for t in result["transfers"]]
    assert whys == ["ante"] * 4 + ["karlchen"] + ["refill"] * 8 + ["win"] * 3
    assert result["kasse"] == 20
    assert result["delta"] == {"anna": -50, "bert": 10, "carl": 10, "dora": 10}


# --- invariants ------------------------------------------------------------------------------


def kasse_path(outcome: Outcome, transfers: list[dict[str, Any]]) -> list[int]:
    """The Kasse after each transfer."""
    assert outcome.kasse is not None
    kasse = outcome.kasse
    path = []
    for t in transfers:
        kasse += t["amount"] if t["to"] == "kasse" else 0
        kasse -= t["amount"] if t["from"] == "kasse" else 0
        path.append(kasse)
    return path


@settings(max_examples=draws(300))
@given(kasse_entries(), kasse_rules(), st.integers(0, 1000))
def test_the_kasse_balances_and_never_goes_negative(
    entry: dict[str, Any], rules: KasseTable, before: int
) -> None:
    """Settlement: "Losers pay nothing beyond A (and step 2); the Kasse never goes negative. Check:
    ``sum(delta) + kasse − kasse_before == 0``"."""
    outcome = kasse_entry(before, rules, **entry)
    result = settle(outcome)
    assert sum(result["delta"].values()) + result["kasse"] - before == 0
    assert min(kasse_path(outcome, result["transfers"]), default=before) >= 0
    assert result["kasse"] >= 0
    winners = [t["to"] for t in result["transfers"] if t["why"] == "win"]
    assert all(t["amount"] == result["amount"] for t in result["transfers"] if t["why"] == "win")
    assert winners == [s for s in ORDER if (s in outcome.re) == (result["winner"] == "re")]
    # a refill is made only while the Kasse cannot pay: the last refill round was needed
    refills = sum(t["amount"] for t in result["transfers"] if t["why"] == "refill")
    assert refills == 0 or result["kasse"] < rules.ante * 4
