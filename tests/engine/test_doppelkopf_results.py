"""The result of the play (``spec/next/doppelkopf.md``, "Result of the play"; DDV "Extra
points"): played deals, written trick by trick, turned into outcomes and settled to the
figures of the worked examples 1–5 and D1; queen tricks, Karlchen Müller's last trick and the
extra points by final parties; and over random deals, that every played deal gives a valid
score-sheet entry.

Each deal is written as its 12 tricks, ``(leader, "the four cards in play order")``: the
seats follow the leader in the playing order anna, bert, carl, dora (dora deals), and the
winner is found here by the game's card order, so every trick's winner and Augen can be read
off the cards."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.rules.doppelkopf import ddv, kasse
from engine.rules.doppelkopf.entries import entry_json, parse_entry
from engine.rules.doppelkopf.outcome import Outcome, Trick
from engine.rules.doppelkopf.results import outcome_from_tricks
from tests.draws import draws
from tests.engine.test_doppelkopf_entries import CODES, ORDER, DdvTable, KasseTable

AUGEN = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
NORMAL_TRUMPS = ["CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "DT", "DK", "D9"]
"""Normal game, high to low: "all queens above all jacks, each group in suit order"."""
DDV_TRUMPS = ["HT", *NORMAL_TRUMPS]
"""DDV normal game: the Dulle ``HT`` on top."""
SOLO_H_TRUMPS = ["CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "HA", "HT", "HK", "H9"]
"""Einfaches Solo in H: "the queens and jacks, then X's A T K 9"."""
PLAIN = "ATK9"


def beats(card: str, best: str, trumps: Sequence[str]) -> bool:
    """``card`` is strictly higher than ``best``, the trick's winning card so far."""
    if card in trumps:
        return best not in trumps or trumps.index(card) < trumps.index(best)
    return best not in trumps and card[0] == best[0] and PLAIN.index(card[1]) < PLAIN.index(best[1])


def trick(leader: str, codes: str, trumps: Sequence[str]) -> Trick:
    """One trick: the cards of ``codes`` played by ``leader`` and the seats after him; the
    highest trump, else the highest card of the led suit, wins (of two equal, the first)."""
    i = ORDER.index(leader)
    cards = tuple((ORDER[(i + k) % 4], code) for k, code in enumerate(codes.split()))
    best = cards[0]
    for played in cards[1:]:
        if beats(played[1], best[1], trumps):
            best = played
    return Trick(leader, cards, best[0], sum(AUGEN[c[1]] for _, c in cards))


def tricks(rows: Sequence[tuple[str, str]], trumps: Sequence[str]) -> list[Trick]:
    return [trick(leader, codes, trumps) for leader, codes in rows]


# Example 1: a normal game, Re anna and carl (one CQ each); Re 151 in 8 tricks, Kontra 89 in 4.
EXAMPLE_1 = [
    ("anna", "CK CK C9 CA"),  # dora 19
    ("dora", "HK HT HA HT"),  # bert 35
    ("bert", "DK HQ DA DQ"),  # carl 21
    ("carl", "DK SQ CJ DJ"),  # dora 11
    ("dora", "SK SA ST S9"),  # anna 25
    ("anna", "CA DA HJ C9"),  # carl 24
    ("carl", "DT DJ DT SJ"),  # bert 24
    ("bert", "H9 HA CJ CQ"),  # anna 16, with a CQ
    ("anna", "SA SQ CQ ST"),  # carl 27, with a CQ
    ("carl", "DQ S9 HJ D9"),  # carl 5
    ("carl", "SJ CT HQ H9"),  # anna 15
    ("anna", "CT HK D9 SK"),  # carl 18
]
# Example 2: Re bert and dora; both CQ fall in trick 7, bert's first: Re's only trick, 12 Augen.
EXAMPLE_2 = [
    ("anna", "DQ DT HQ DK"),  # carl 20
    ("carl", "DA DJ SJ DK"),  # anna 19
    ("anna", "SJ D9 HJ DJ"),  # anna 6
    ("anna", "CT CK CT C9"),  # anna 24
    ("anna", "SA SK ST SK"),  # anna 29
    ("anna", "SQ DT HJ D9"),  # anna 15
    ("anna", "SQ CQ HQ CQ"),  # bert 12
    ("bert", "CK CA CA DA"),  # anna 37
    ("anna", "CJ CJ DQ H9"),  # carl 7
    ("carl", "HT H9 HA HK"),  # anna 25
    ("anna", "SA S9 ST S9"),  # anna 21
    ("anna", "HA HK HT C9"),  # anna 25
]
# Example 3: anna's Hochzeit (both CQ). Trick 1 her own lead, trick 2 carl's, trick 3 bert's
# (carl led), trick 4 led by bert and won by anna: partner bert. Re 185, Kontra 55.
EXAMPLE_3 = [
    ("anna", "CA CT CA CT"),  # anna 42
    ("anna", "HJ HJ SQ DT"),  # carl 17
    ("carl", "H9 HT HK HA"),  # bert 25
    ("bert", "C9 C9 SJ CQ"),  # anna 5
    ("anna", "ST SA SK SA"),  # bert 36
    ("bert", "HQ DA DA CQ"),  # anna 28
    ("anna", "ST S9 DT S9"),  # carl 20
    ("carl", "D9 SJ DJ DK"),  # dora 8
    ("dora", "DQ SQ CJ DK"),  # anna 12
    ("anna", "DQ D9 CK HQ"),  # dora 10
    ("dora", "HT DJ HA H9"),  # anna 23
    ("anna", "CJ HK CK SK"),  # anna 14
]
# Example 4: carl's solo in H, anna leads; carl 117, Kontra 123.
EXAMPLE_4 = [
    ("anna", "DJ CQ HK HA"),  # bert 20
    ("bert", "HJ DQ SJ DQ"),  # carl 10
    ("carl", "DT DK DT D9"),  # carl 24
    ("carl", "CQ HT HT HQ"),  # carl 26
    ("carl", "CJ HJ SQ SJ"),  # anna 9
    ("anna", "DK DA DA D9"),  # bert 26
    ("bert", "CA C9 C9 HK"),  # anna 15
    ("anna", "H9 HQ CJ DJ"),  # bert 7
    ("bert", "SA SK S9 ST"),  # bert 25
    ("bert", "SK H9 CT S9"),  # carl 14
    ("carl", "CK CT SQ CK"),  # anna 21
    ("anna", "SA ST HA CA"),  # carl 43
]
# Example 5: dora's Karlchen Müller; in trick 12 her CJ is beaten by carl's DQ.
EXAMPLE_5_LOST = [
    ("anna", "DT CQ D9 DJ"),
    ("bert", "HK H9 HA H9"),
    ("dora", "CA CK CA CT"),
    ("dora", "C9 C9 HQ CT"),
    ("bert", "SK SA S9 S9"),
    ("carl", "SA ST ST SK"),
    ("carl", "HA HK SJ HT"),
    ("anna", "DJ DA DT CQ"),
    ("dora", "HJ DK D9 DQ"),
    ("carl", "SQ DA SJ DK"),
    ("carl", "HQ CJ HJ SQ"),
    ("bert", "HT DQ CJ CK"),  # carl's DQ over dora's CJ
]
# ... and a deal where she takes the last trick with her CJ.
EXAMPLE_5_WON = [
    ("anna", "HQ D9 DK DA"),
    ("anna", "HA HK HT HK"),
    ("anna", "SJ DT SJ SQ"),
    ("dora", "CQ DA DQ HJ"),
    ("dora", "SA ST HJ S9"),
    ("bert", "DJ CQ D9 H9"),
    ("carl", "DQ DJ C9 SQ"),
    ("bert", "CA CT DK CK"),
    ("dora", "SK SK DT S9"),
    ("bert", "C9 CA CJ CK"),
    ("dora", "HT ST HQ H9"),
    ("bert", "CT HA CJ SA"),  # dora's CJ takes it
]
# D1 (DDV trumps): Re anna and carl, 130 : 110. Trick 5 (42 Augen) is Re's Doppelkopf; in
# trick 10 carl's DA is caught by dora (a fox for Kontra); in trick 4 dora's DA goes to her
# partner bert (no fox).
D1 = [
    ("anna", "CQ DQ SJ D9"),  # anna 8
    ("anna", "C9 C9 SQ CK"),  # carl 7
    ("carl", "DQ HT DT HQ"),  # dora 26
    ("dora", "DA DT HT HQ"),  # bert 34
    ("bert", "CT SA CT CA"),  # anna 42
    ("anna", "HA HA H9 DK"),  # dora 26
    ("dora", "DJ SQ CA DK"),  # anna 20
    ("anna", "ST SK HJ SK"),  # carl 20
    ("carl", "D9 DJ CJ S9"),  # anna 4
    ("anna", "SA S9 DA CJ"),  # dora 24
    ("dora", "CK HK HK CQ"),  # carl 15
    ("carl", "SJ HJ ST H9"),  # carl 14
]
# DDV normal games ending on a CJ: Re bert and dora; anna (Kontra) takes trick 12 with CJ.
DDV_KARLCHEN = [
    ("anna", "H9 SK ST H9"),
    ("anna", "CT C9 CK CK"),
    ("anna", "HQ DQ CJ CQ"),
    ("dora", "HT DA SQ DK"),
    ("dora", "HA HK CQ CT"),
    ("bert", "SK SA SA DK"),
    ("anna", "HJ DQ HT D9"),
    ("carl", "HQ DT DJ SJ"),
    ("carl", "HJ DJ SQ DA"),
    ("anna", "DT D9 C9 S9"),
    ("anna", "CA SJ CA HK"),
    ("bert", "ST S9 HA CJ"),  # anna's CJ wins
]
# Re bert and carl; bert's CJ in trick 12 is caught by carl's DQ.
DDV_CJ_CAUGHT = [
    ("anna", "CJ HT DK DA"),
    ("bert", "DA HT SJ DJ"),
    ("carl", "CT CK DJ C9"),
    ("anna", "SA S9 SA SK"),
    ("anna", "H9 HK HA H9"),
    ("carl", "HQ D9 D9 SQ"),
    ("bert", "CQ CQ HJ HJ"),
    ("bert", "DT DK CT HQ"),
    ("anna", "ST DT S9 SK"),
    ("bert", "DQ SQ ST SJ"),
    ("carl", "C9 CA HK CA"),
    ("dora", "CK HA CJ DQ"),  # carl's DQ over bert's CJ
]

DEALS = {
    "example 1": (EXAMPLE_1, NORMAL_TRUMPS),
    "example 2": (EXAMPLE_2, NORMAL_TRUMPS),
    "example 3": (EXAMPLE_3, NORMAL_TRUMPS),
    "example 4": (EXAMPLE_4, SOLO_H_TRUMPS),
    "example 5 lost": (EXAMPLE_5_LOST, NORMAL_TRUMPS),
    "example 5 won": (EXAMPLE_5_WON, NORMAL_TRUMPS),
    "D1": (D1, DDV_TRUMPS),
    "DDV Karlchen": (DDV_KARLCHEN, DDV_TRUMPS),
    "DDV CJ caught": (DDV_CJ_CAUGHT, DDV_TRUMPS),
}


def play(
    rows: Sequence[tuple[str, str]],
    trumps: Sequence[str],
    game: dict[str, Any],
    re: Sequence[str],
    kasse_before: int | None = None,
    announcements: dict[str, str | None] | None = None,
) -> Outcome:
    """The outcome of a played deal at the examples' table (``doppelkopf`` with a Kasse,
    ``doppelkopf-ddv`` without)."""
    rules = KasseTable() if kasse_before is not None else DdvTable()
    played = tricks(rows, trumps)
    return outcome_from_tricks(rules, ORDER, game, re, played, announcements, kasse_before, ())


@pytest.mark.parametrize("name", DEALS)
def test_each_deal_here_is_a_whole_deal(name: str) -> None:
    """48 cards, each code twice; 240 Augen; anna (forehand) leads, then each trick's
    winner."""
    rows, trumps = DEALS[name]
    played = tricks(rows, trumps)
    assert Counter(c for t in played for _, c in t.cards) == dict.fromkeys(CODES, 2)
    assert sum(t.augen for t in played) == 240
    assert [t.leader for t in played] == ["anna", *(t.winner for t in played[:-1])]


# --- the worked examples, played -------------------------------------------------------------


def test_example_1_played() -> None:
    """Example 1: Re anna, carl 151 : 89 (Kontra 4 tricks). Kasse 100 + 40 = 140; Re wins
    simple, 20 each; Kasse 100. Δ anna +10, bert −10, carl +10, dora −10."""
    outcome = play(EXAMPLE_1, NORMAL_TRUMPS, {"type": "normal"}, ["carl", "anna"], 100)
    assert outcome.re == ("anna", "carl")
    assert outcome.points == {"re": 151, "kontra": 89}
    assert outcome.tricks == {"re": 8, "kontra": 4}
    assert outcome.queen_tricks == {"re": 2, "kontra": 0}
    result = kasse.settle(outcome)
    assert (result["winner"], result["category"], result["amount"]) == ("re", "simple", 20)
    assert result["kasse"] == 100
    assert result["delta"] == {"anna": 10, "bert": -10, "carl": 10, "dora": -10}


def test_example_2_played() -> None:
    """Example 2: both CQ fell in one trick (the first played won it, 12 Augen): Re's only
    trick; Kontra 228. Re schwarz: 80 to each Kontra player. Kasse 50 → 90 → 130 → 170 → 10.
    Δ anna +50, carl +50, bert −30, dora −30."""
    outcome = play(EXAMPLE_2, NORMAL_TRUMPS, {"type": "normal"}, ["bert", "dora"], 50)
    cq_trick = tricks(EXAMPLE_2, NORMAL_TRUMPS)[6]
    assert [c for _, c in cq_trick.cards].count("CQ") == 2
    assert (cq_trick.winner, cq_trick.augen) == ("bert", 12)
    assert outcome.points == {"re": 12, "kontra": 228}
    assert outcome.tricks == {"re": 1, "kontra": 11}
    assert outcome.queen_tricks == {"re": 1, "kontra": 0}
    result = kasse.settle(outcome)
    assert (result["winner"], result["category"], result["amount"]) == ("kontra", "schwarz", 80)
    assert [t["why"] for t in result["transfers"]].count("refill") == 8
    assert result["kasse"] == 10
    assert result["delta"] == {"anna": 50, "bert": -30, "carl": 50, "dora": -30}


def test_example_3_played() -> None:
    """Example 3: anna's Hochzeit; partner bert. Re 185 : 55, Kontra schneider: 40 to anna and
    bert. Kasse 100 + 40 − 80 = 60. Δ anna +30, bert +30, carl −10, dora −10."""
    played = tricks(EXAMPLE_3, NORMAL_TRUMPS)
    assert [(t.leader, t.winner) for t in played[:4]] == [
        ("anna", "anna"),  # her own lead: does not count
        ("anna", "carl"),
        ("carl", "bert"),
        ("bert", "anna"),  # the first trick another led and she won: bert
    ]
    outcome = play(EXAMPLE_3, NORMAL_TRUMPS, {"type": "hochzeit"}, ["anna", "bert"], 100)
    assert outcome.points == {"re": 185, "kontra": 55}
    result = kasse.settle(outcome)
    assert (result["winner"], result["category"], result["amount"]) == ("re", "schneider", 40)
    assert result["kasse"] == 60
    assert result["delta"] == {"anna": 30, "bert": 30, "carl": -10, "dora": -10}


def test_example_4_played() -> None:
    """Example 4: carl's solo in H, 117 : 123; Kontra wins simple, 40 each. Kasse 200 + 40 −
    120 = 120. Δ carl −10, the others +30."""
    outcome = play(EXAMPLE_4, SOLO_H_TRUMPS, {"type": "solo", "trump": "H"}, ["carl"], 200)
    assert outcome.points == {"re": 117, "kontra": 123}
    result = kasse.settle(outcome)
    assert (result["winner"], result["category"], result["amount"]) == ("kontra", "simple", 40)
    assert result["kasse"] == 120
    assert result["delta"] == {"anna": 30, "bert": 30, "carl": -10, "dora": 30}


def test_example_5_played_lost() -> None:
    """Example 5: dora's CJ is beaten by a queen in trick 12. Kasse 80 + 40 + 20 = 140; 40 to
    each of anna, bert, carl; Kasse 20. Δ dora −30, the others +30."""
    outcome = play(EXAMPLE_5_LOST, NORMAL_TRUMPS, {"type": "karlchen"}, ["dora"], 80)
    assert outcome.last_trick == {"winner": "carl", "card": "DQ"}
    assert outcome.points is None and outcome.tricks is None
    result = kasse.settle(outcome)
    assert result["kasse"] == 20
    assert result["delta"] == {"anna": 30, "bert": 30, "carl": 30, "dora": -30}


def test_example_5_played_won() -> None:
    """Example 5: "Had she taken the last trick with the CJ: Kasse 80 + 40 − 40 = 80; Δ dora
    +30, the others −10"."""
    outcome = play(EXAMPLE_5_WON, NORMAL_TRUMPS, {"type": "karlchen"}, ["dora"], 80)
    assert outcome.last_trick == {"winner": "dora", "card": "CJ"}
    result = kasse.settle(outcome)
    assert result["kasse"] == 80
    assert result["delta"] == {"anna": -10, "bert": -10, "carl": -10, "dora": 30}


def test_d1_played() -> None:
    """D1: Re (anna, carl) announced re, won 130 : 110; Re won a Doppelkopf, Kontra caught a
    fox. Value 3; N = 3: anna, carl +30 cents; bert, dora −30."""
    outcome = play(
        D1, DDV_TRUMPS, {"type": "normal"}, ["anna", "carl"], None, {"re": "re", "kontra": None}
    )
    assert outcome.points == {"re": 130, "kontra": 110}
    assert outcome.extras == {"re": ("doppelkopf",), "kontra": ("fox",)}
    assert outcome.queen_tricks == {"re": 0, "kontra": 0}
    result = ddv.settle(outcome)
    assert result["value"] == {"re": 3, "kontra": 0}
    assert result["score"] == {"anna": 3, "bert": -3, "carl": 3, "dora": -3}
    assert result["delta"] == {"anna": 30, "bert": -30, "carl": 30, "dora": -30}


@pytest.mark.parametrize(
    ("name", "game", "re", "kasse_before"),
    [
        ("example 1", {"type": "normal"}, ["anna", "carl"], 100),
        ("example 3", {"type": "hochzeit"}, ["anna", "bert"], 100),
        ("example 4", {"type": "solo", "trump": "H"}, ["carl"], 200),
        ("example 5 lost", {"type": "karlchen"}, ["dora"], 80),
        ("D1", {"type": "normal"}, ["anna", "carl"], None),
    ],
)
def test_a_played_deal_writes_the_entry_that_reads_back_to_it(
    name: str, game: dict[str, Any], re: list[str], kasse_before: int | None
) -> None:
    """A full record's outcome is the outcome of its score-sheet entry."""
    rows, trumps = DEALS[name]
    outcome = play(rows, trumps, game, re, kasse_before)
    assert parse_entry(entry_json(outcome), outcome.rules, ORDER, kasse_before, ()) == outcome


# --- queen tricks, the last trick, extra points ----------------------------------------------


def test_a_queen_trick_is_one_whose_winning_card_is_a_cq() -> None:
    """Schwarz counts "tricks of each party won by a CQ": a CQ that loses to the first one does
    not make its trick a queen trick (Example 2: two CQ, one queen trick)."""
    outcome = play(EXAMPLE_2, NORMAL_TRUMPS, {"type": "normal"}, ["bert", "dora"], 0)
    assert outcome.queen_tricks == {"re": 1, "kontra": 0}


def test_queen_tricks_are_doppelkopfs_and_extras_the_ddvs() -> None:
    """``queen_tricks``: "doppelkopf" only (DDV: always 0); ``extras``: DDV only. D1's tricks
    under each rule set: anna's CQ wins trick 1, carl's trick 11."""
    doppelkopf = play(D1, DDV_TRUMPS, {"type": "normal"}, ["anna", "carl"], 0)
    assert doppelkopf.queen_tricks == {"re": 2, "kontra": 0}
    assert doppelkopf.extras == {"re": (), "kontra": ()}
    assert doppelkopf.announcements == {"re": None, "kontra": None}
    assert doppelkopf.kasse == 0
    ddv_deal = play(D1, DDV_TRUMPS, {"type": "normal"}, ["anna", "carl"])
    assert ddv_deal.queen_tricks == {"re": 0, "kontra": 0}
    assert ddv_deal.kasse is None


def test_extras_go_by_final_parties() -> None:
    """Extra points "each to the party that earned it, by final parties": with bert as anna's
    partner (a Hochzeit) dora's DA in trick 4, won by bert, is Re's fox, and carl's DA won by
    his partner dora in trick 10 is none."""
    outcome = play(D1, DDV_TRUMPS, {"type": "hochzeit"}, ["anna", "bert"])
    assert outcome.extras == {"re": ("doppelkopf", "fox"), "kontra": ()}


@pytest.mark.parametrize(
    ("game", "re"),
    [
        ({"type": "solo", "kind": "D", "pflicht": False}, ["anna"]),
        ({"type": "silent_solo"}, ["anna"]),
        ({"type": "hochzeit"}, ["anna"]),  # a lone bride
    ],
)
def test_solos_have_no_extras(game: dict[str, Any], re: list[str]) -> None:
    """ "Extra points (normal game and Hochzeit with a partner only)"."""
    assert play(D1, DDV_TRUMPS, game, re).extras == {"re": (), "kontra": ()}


def test_a_cj_winning_the_last_trick_is_karlchen_for_its_party() -> None:
    """``karlchen``: "a CJ wins the 12th trick", to the party of its player."""
    outcome = play(DDV_KARLCHEN, DDV_TRUMPS, {"type": "normal"}, ["bert", "dora"])
    assert outcome.extras["kontra"].count("karlchen") == 1
    assert "karlchen" not in outcome.extras["re"]


def test_a_caught_cj_in_the_last_trick_scores_nothing() -> None:
    """ "A caught CJ scores nothing": bert's CJ loses trick 12 to carl's DQ (his partner's,
    so no fox-like catch either)."""
    outcome = play(DDV_CJ_CAUGHT, DDV_TRUMPS, {"type": "normal"}, ["bert", "carl"])
    assert tricks(DDV_CJ_CAUGHT, DDV_TRUMPS)[-1].winner == "carl"
    assert "karlchen" not in outcome.extras["re"] + outcome.extras["kontra"]


def test_a_trick_of_exactly_40_augen_is_a_doppelkopf() -> None:
    """``doppelkopf``: "a trick of ≥ 40 Augen"; D1's trick 5 counted as 40 is
    one, counted as 39 it is not."""
    played = tricks(D1, DDV_TRUMPS)
    played[4] = Trick(played[4].leader, played[4].cards, played[4].winner, 40)
    rules = DdvTable()
    outcome = outcome_from_tricks(
        rules, ORDER, {"type": "normal"}, ["anna", "carl"], played, None, None, ()
    )
    assert outcome.extras["re"] == ("doppelkopf",)
    played[4] = Trick(played[4].leader, played[4].cards, played[4].winner, 39)
    outcome = outcome_from_tricks(
        rules, ORDER, {"type": "normal"}, ["anna", "carl"], played, None, None, ()
    )
    assert outcome.extras["re"] == ()


def test_announcements_and_replies_are_passed_on() -> None:
    played = tricks(D1, DDV_TRUMPS)
    outcome = outcome_from_tricks(
        DdvTable(),
        ORDER,
        {"type": "normal"},
        ["anna", "carl"],
        played,
        {"re": "no60", "kontra": "kontra"},
        None,
        ["bert"],
        replies={"re": False, "kontra": True},
    )
    assert outcome.announcements == {"re": "no60", "kontra": "kontra"}
    assert outcome.replies == {"re": False, "kontra": True}
    assert outcome.pflicht_owed == ("bert",)


def test_an_unfinished_deal_has_no_outcome() -> None:
    """ "``settle`` on an unfinished hand is an error"."""
    played = tricks(EXAMPLE_1, NORMAL_TRUMPS)[:11]
    with pytest.raises(EngineError, match="11 of 12 tricks"):
        outcome_from_tricks(
            KasseTable(), ORDER, {"type": "normal"}, ["anna", "carl"], played, None, 0, ()
        )


# --- random played deals ---------------------------------------------------------------------


def random_tricks(seed: int, trumps: Sequence[str]) -> list[Trick]:
    """12 tricks of a shuffled pack, each led by the last trick's winner (the cards are not
    checked against following suit: the result of the play does not depend on it)."""
    deck = [c for c in CODES for _ in range(2)]
    random.Random(seed).shuffle(deck)
    leader = "anna"
    out = []
    for k in range(12):
        t = trick(leader, " ".join(deck[4 * k : 4 * k + 4]), trumps)
        out.append(t)
        leader = t.winner
    return out


def normal_game(played: list[Trick]) -> tuple[dict[str, Any], list[str]]:
    """The game of a normal deal: the CQ holders are Re; one holder of both plays a Hochzeit
    (here alone)."""
    holders = sorted({s for t in played for s, c in t.cards if c == "CQ"})
    return ({"type": "normal"} if len(holders) == 2 else {"type": "hochzeit"}), holders


@settings(max_examples=draws(200))
@given(st.integers(0, 2**32), st.booleans())
def test_every_played_deal_gives_a_valid_entry_with_the_same_result(
    seed: int, ddv_rules: bool
) -> None:
    """A played deal's outcome passes every check of a score-sheet entry (240 Augen, queen
    tricks, extras …), reads back from its entry, and settles the same either way."""
    played = random_tricks(seed, DDV_TRUMPS if ddv_rules else NORMAL_TRUMPS)
    game, re = normal_game(played)
    rules = DdvTable() if ddv_rules else KasseTable()
    kasse_before = None if ddv_rules else seed % 500
    outcome = outcome_from_tricks(rules, ORDER, game, re, played, None, kasse_before, ())
    again = parse_entry(entry_json(outcome), rules, ORDER, kasse_before, ())
    assert again == outcome
    settle = ddv.settle if ddv_rules else kasse.settle
    assert settle(again) == settle(outcome)
