"""wien.md, "Settlement", as tables. Unless a row says otherwise: G = 100, L = 300, pot 200
before the deal, so S = min(200 + 100, 300) = 300 and t = 30; anna is forehand and declarer,
bert middlehand, carl rearhand and dealer (carl's delta includes his G = 100).

The rows complement ``/work/shared/examples/settlement`` (tested in test_examples.py).
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import EngineError
from tests.engine.helpers import AUSFECHTEN, RULES, check_balance, premium, sheet, suit

PP = {"bert": "play", "carl": "play"}
PH = {"bert": "play", "carl": "home"}
HH = {"bert": "home", "carl": "home"}
INV = {"bert": "invite", "carl": "invited"}


def row(
    rid: str,
    record: dict[str, Any],
    delta: tuple[int, ...],
    pot: int,
    fallen: list[str],
    made: bool | None = True,
    stake: int = 300,
) -> Any:
    return pytest.param(record, delta, pot, fallen, made, stake, id=rid)


SUIT_ROWS = [
    # Suit games: declarer pays each playing defender t per trick; d >= 6 takes S, else pays S;
    # a playing defender with fewer than 2 tricks pays S.
    row(
        "one-defender-falls",  # anna +300 - 1*30; bert +30 - 300; pot 200+100-300+300
        sheet(suit("D"), {"anna": 9, "bert": 1}, defence=PH),
        (270, -270, -100),
        300,
        ["bert"],
    ),
    row(
        "both-defenders-fall",  # anna 300-30-30; bert 30-300; carl -100+30-300; pot 300+300+300-300
        sheet(suit("D"), {"anna": 8, "bert": 1, "carl": 1}, defence=PP),
        (240, -270, -370),
        600,
        ["bert", "carl"],
    ),
    row(
        "defender-with-0-tricks-falls",  # anna 300; bert -300; pot 300
        sheet(suit("S"), {"anna": 10, "bert": 0}, defence=PH),
        (300, -300, -100),
        300,
        ["bert"],
    ),
    row(
        "declarer-falls-and-pays-tricks",  # anna -300-90-60; bert +90; carl -100+60; pot 300+300
        sheet(suit("D"), {"anna": 5, "bert": 3, "carl": 2}, defence=PP),
        (-450, 90, -40),
        600,
        ["anna"],
        made=False,
    ),
    row(
        "declarer-and-a-defender-fall",  # anna -300-120-30; carl -100+30-300; pot 300+300+300
        sheet(suit("D"), {"anna": 5, "bert": 4, "carl": 1}, defence=PP),
        (-450, 120, -370),
        900,
        ["anna", "carl"],
        made=False,
    ),
    row(
        "lone-defender-beats-the-declarer",  # anna -300-150; bert +150; pot 300+300
        sheet(suit("C"), {"anna": 5, "bert": 5}, defence=PH),
        (-450, 150, -100),
        600,
        ["anna"],
        made=False,
    ),
    row(
        "invitation-fails-inviter-falls",  # 2+1 < 4: anna 300-90; bert 90-300; carl never pays
        sheet(suit("D"), {"anna": 7, "bert": 2, "carl": 1}, defence=INV),
        (210, -210, -100),
        300,
        ["bert"],
    ),
    row(
        "invitation-fails-invited-took-all",  # 0+3 < 4: bert (inviter) gets 90 and falls
        sheet(suit("D"), {"anna": 7, "bert": 0, "carl": 3}, defence=INV),
        (210, -210, -100),
        300,
        ["bert"],
    ),
    row(
        "invitation-each-pays-own-tricks",  # "each": bert +30, carl -100+90; 4 together: no fall
        sheet(
            suit("D"),
            {"anna": 6, "bert": 1, "carl": 3},
            defence=INV,
            rules={**RULES, "invitation_tricks": "each"},
        ),
        (180, 30, -10),
        0,
        [],
    ),
    row(
        "invitation-each-inviter-still-falls-alone",  # "each": bert 60-300, carl -100+30
        sheet(
            suit("D"),
            {"anna": 7, "bert": 2, "carl": 1},
            defence=INV,
            rules={**RULES, "invitation_tricks": "each"},
        ),
        (210, -240, -70),
        300,
        ["bert"],
    ),
    row(
        "invitation-declarer-falls",  # anna -300-4*30 to bert (inviter); carl only G
        sheet(suit("H"), {"anna": 5, "bert": 2, "carl": 3}, defence=INV),
        (-450, 150, -100),
        600,
        ["anna"],
        made=False,
    ),
    row(
        "both-home-declarer-takes-stake",  # anna +300 from the pot; nothing else
        sheet(suit("S"), {}, defence=HH),
        (300, 0, -100),
        0,
        [],
    ),
    row(
        "forced-play-stake-is-G",  # pot 0: S = 100, t = 10; anna 100-20-20; carl -100+20
        sheet(suit("D"), {"anna": 6, "bert": 2, "carl": 2}, defence=PP, pot=0),
        (60, 20, -80),
        0,
        [],
        stake=100,
    ),
    row(
        "geschaeft-has-no-premium",  # C hand game: like any suit game, anna 300-120
        sheet(suit("C", talon=False), {"anna": 6, "bert": 4}, defence=PH),
        (180, 120, -100),
        0,
        [],
    ),
    # herz premium: each of the other two pays G to the declarer, or receives G from him.
    row(
        "herz-made-both-play",  # anna 300-60-60+100+100; bert 60-100; carl -100+60-100
        sheet(suit("H", talon=False), {"anna": 6, "bert": 2, "carl": 2}, defence=PP),
        (380, -40, -140),
        0,
        [],
    ),
    row(
        "herz-lost-premium-also-to-the-one-at-home",  # anna -300-150-100-100; carl -100+100
        sheet(suit("H", talon=False), {"anna": 5, "bert": 5}, defence=PH),
        (-650, 250, 0),
        600,
        ["anna"],
        made=False,
    ),
    row(
        "herz-both-home",  # anna +300+100+100; bert -100; carl -100-100
        sheet(suit("H", talon=False), {}, defence=HH),
        (500, -100, -200),
        0,
        [],
    ),
    row(
        "number-game-in-hearts-has-no-herz-premium",  # talon game in H: anna +300 only
        sheet(suit("H"), {}, defence=HH),
        (300, 0, -100),
        0,
        [],
    ),
    row(
        "number-game-in-hearts-lost-no-herz-premium",  # anna -300-150; bert +150
        sheet(suit("H"), {"anna": 5, "bert": 5}, defence=PH),
        (-450, 150, -100),
        600,
        ["anna"],
        made=False,
    ),
    row(
        "no-cap",  # L null, pot 900: S = 1000, t = 100; anna 1000-400; bert +400
        sheet(
            suit("D"), {"anna": 6, "bert": 4}, defence=PH, pot=900, rules={**RULES, "pot_cap": None}
        ),
        (600, 400, -100),
        0,
        [],
        stake=1000,
    ),
    row(
        "no-cap-fall",  # L null, pot 900: S = 1000; bert 100-1000; pot 1000-1000+1000
        sheet(
            suit("D"), {"anna": 9, "bert": 1}, defence=PH, pot=900, rules={**RULES, "pot_cap": None}
        ),
        (900, -900, -100),
        1000,
        ["bert"],
        stake=1000,
    ),
    row(
        "negotiated-split",  # agreed 7:3 settles like played tricks: anna 300-90; bert +90
        sheet(suit("D"), {"anna": 7, "bert": 3}, defence=PH, negotiated=True),
        (210, 90, -100),
        0,
        [],
    ),
    row(
        "negotiated-split-declarer-short",  # agreed 6:4 (lowest d that makes): anna 300-120
        sheet(suit("S"), {"anna": 6, "bert": 4, "carl": 0}, defence=PH, negotiated=True),
        (180, 120, -100),
        0,
        [],
    ),
]

PREMIUM_ROWS = [
    # made: declarer takes S and k*G from each of the other two; failed: pays S and k*G to each.
    row(
        "5-made-k1",  # anna 300+100+100; bert -100; carl -100-100
        sheet(premium(5), {"anna": 0, "bert": 6, "carl": 4}),
        (500, -100, -200),
        0,
        [],
    ),
    row(
        "5h-made-k2",  # von der Hand adds 1: k = 2; anna 300+200+200
        sheet(premium(5, hand=True), {"anna": 0, "bert": 6, "carl": 4}),
        (700, -200, -300),
        0,
        [],
    ),
    row(
        "misere-stopped-at-one-trick",  # 5 failed at trick 4: anna -300-100-100; pot 300+300
        sheet(premium(5), {"anna": 1, "bert": 2, "carl": 1}),
        (-500, 100, 0),
        600,
        ["anna"],
        made=False,
    ),
    row(
        "misere-stopped-at-the-first-trick",  # 7 failed at trick 1 (k = 3): anna -300-300-300
        sheet(premium(7), {"anna": 1, "bert": 0, "carl": 0}),
        (-900, 300, 200),
        600,
        ["anna"],
        made=False,
    ),
    row(
        "6h-failed-k3",  # k = 2 + 1: anna -300-300-300; carl -100+300
        sheet(premium(6, hand=True), {"anna": 9, "bert": 1, "carl": 0}),
        (-900, 300, 200),
        600,
        ["anna"],
        made=False,
    ),
    row(
        "slam-made-8-k4",  # anna 300+400+400; bert -400; carl -100-400
        sheet(premium(8), {"anna": 10, "bert": 0, "carl": 0}),
        (1100, -400, -500),
        0,
        [],
    ),
    row(
        "slam-stopped-at-the-first-trick",  # 6 lost at trick 1 (k = 2): anna -300-200-200
        sheet(premium(6), {"anna": 0, "bert": 0, "carl": 1}),
        (-700, 200, 100),
        600,
        ["anna"],
        made=False,
    ),
    row(
        "7-made-k3",  # anna 300+300+300; bert -300; carl -100-300
        sheet(premium(7), {"anna": 0, "bert": 5, "carl": 5}),
        (900, -300, -400),
        0,
        [],
    ),
    row(
        "premium-forced-pot",  # pot 0: S = 100; 5 made: anna 100+100+100; carl -100-100
        sheet(premium(5), {"anna": 0, "bert": 3, "carl": 7}, pot=0),
        (300, -100, -200),
        0,
        [],
        stake=100,
    ),
    row(
        "premium-by-the-dealer",  # carl declares 5 and wins: carl -100+300+100+100
        sheet(premium(5), {"anna": 5, "bert": 5, "carl": 0}, declarer="carl"),
        (-100, -100, 400),
        0,
        [],
    ),
]

AUSFECHTEN_ROWS = [
    # no pot withdrawal, no trick payments; the most tricks pay G into the pot, ties all pay.
    row(
        "ausfechten-5-5-0",  # anna, bert pay 100; carl 100 as dealer; pot 200+100+200
        sheet(AUSFECHTEN, {"anna": 5, "bert": 5, "carl": 0}, declarer=None),
        (-100, -100, -100),
        500,
        ["anna", "bert"],
        made=None,
    ),
    row(
        "ausfechten-4-3-3",  # bert pays 100; pot 200+100+100
        sheet(AUSFECHTEN, {"anna": 3, "bert": 4, "carl": 3}, declarer=None),
        (0, -100, -100),
        400,
        ["bert"],
        made=None,
    ),
    row(
        "ausfechten-dealer-has-most",  # carl pays G as dealer and G for the most tricks
        sheet(AUSFECHTEN, {"anna": 2, "bert": 3, "carl": 5}, declarer=None),
        (0, 0, -200),
        400,
        ["carl"],
        made=None,
    ),
    row(
        "ausfechten-10-0-0",
        sheet(AUSFECHTEN, {"anna": 0, "bert": 10, "carl": 0}, declarer=None),
        (0, -100, -100),
        400,
        ["bert"],
        made=None,
    ),
]


@pytest.mark.parametrize(
    ("record", "delta", "pot", "fallen", "made", "stake"),
    SUIT_ROWS + PREMIUM_ROWS + AUSFECHTEN_ROWS,
)
def test_settlement(
    record: dict[str, Any],
    delta: tuple[int, ...],
    pot: int,
    fallen: list[str],
    made: bool | None,
    stake: int,
) -> None:
    result = engine.settle(record)
    assert result["stake"] == stake
    assert result["delta"] == dict(zip(record["seats"], delta, strict=True))
    assert result["pot"] == pot
    assert result["fallen"] == fallen
    assert result["made"] is made
    check_balance(result, record["pot"])


def test_four_seats_the_sitting_out_dealer_only_pays_the_contribution() -> None:
    # seats anna bert carl dora, bert deals: carl forehand, dora middlehand, anna rearhand.
    # carl makes a 5: +300 from the pot, +100 from dora and from anna; bert pays G = 100.
    result = engine.settle(
        sheet(
            premium(5),
            {"carl": 0, "dora": 4, "anna": 6},
            declarer="carl",
            seats=["anna", "bert", "carl", "dora"],
            dealer="bert",
        )
    )
    assert result["delta"] == {"anna": -100, "bert": -100, "carl": 500, "dora": -100}
    assert result["pot"] == 0


def test_four_seats_ausfechten_fallen_in_playing_order_from_forehand() -> None:
    # bert deals: carl is forehand, so the tied players are listed carl before anna
    result = engine.settle(
        sheet(
            AUSFECHTEN,
            {"anna": 5, "carl": 5, "dora": 0},
            declarer=None,
            seats=["anna", "bert", "carl", "dora"],
            dealer="bert",
        )
    )
    assert result["fallen"] == ["carl", "anna"]
    assert result["delta"] == {"anna": -100, "bert": -100, "carl": -100, "dora": 0}
    assert result["pot"] == 500


def test_the_result_lists_every_transfer_with_its_reason() -> None:
    result = engine.settle(sheet(suit("H", talon=False), {"anna": 9, "bert": 1}, defence=PH))
    assert sorted(
        (t["from"], t["to"], t["amount"], t["why"]) for t in result["transfers"]
    ) == sorted(
        [
            ("carl", "pot", 100, "dealer"),
            ("pot", "anna", 300, "game"),
            ("anna", "bert", 30, "tricks"),
            ("bert", "pot", 300, "fall"),
            ("bert", "anna", 100, "premium"),
            ("carl", "anna", 100, "premium"),
        ]
    )
    assert result["declarer"] == "anna"
    assert result["game"] == {"type": "suit", "level": "H", "talon": False}
    assert result["tricks"] == {"anna": 9, "bert": 1}


def test_an_ausfechten_result_has_no_declarer() -> None:
    result = engine.settle(sheet(AUSFECHTEN, {"anna": 4, "bert": 3, "carl": 3}, declarer=None))
    assert result["declarer"] is None and result["made"] is None
    assert result["game"] == {"type": "ausfechten"}


# --- score-sheet validation ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("record", "at"),
    [
        pytest.param(
            sheet(suit("D"), {"anna": 6, "bert": 3}, defence=PH), "tricks", id="suit-tricks-not-10"
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 6, "bert": 4, "carl": 1}, defence=PH),
            "tricks.carl",
            id="home-player-with-tricks",
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 6}, defence=PH),
            "tricks.bert",
            id="playing-defender-without-count",
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 6, "bert": 4}, defence={"bert": "play"}),
            "defence",
            id="defence-missing-a-defender",
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 6, "bert": 4}, defence={"anna": "play", "bert": "play"}),
            "defence",
            id="defence-names-the-declarer",
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 6, "bert": 4}, defence={"bert": "play", "carl": "maybe"}),
            "defence.carl",
            id="defence-unknown-choice",
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 6, "bert": 4}, defence={"bert": "play", "carl": None}),
            "defence.carl",
            id="defence-choice-not-a-word",
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 6, "bert": 4}, defence={"bert": "invite", "carl": "home"}),
            "defence",
            id="invite-without-invited",
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 6, "bert": 4}, defence=PH, pot=0),
            "defence",
            id="forced-pot-with-home",
        ),
        pytest.param(sheet(suit("D"), {}, defence=HH, pot=0), "defence", id="forced-pot-both-home"),
        pytest.param(
            sheet(suit("D"), {"anna": 6, "bert": 4}), "defence", id="suit-without-defence"
        ),
        pytest.param(
            sheet(premium(5), {"anna": 0, "bert": 5, "carl": 5}, defence=PP),
            "defence",
            id="premium-with-defence",
        ),
        pytest.param(
            sheet(premium(5), {"anna": 2, "bert": 4, "carl": 4}),
            "tricks",
            id="misere-declarer-2-tricks",
        ),
        pytest.param(
            sheet(premium(5), {"anna": 0, "bert": 4, "carl": 4}), "tricks", id="misere-made-not-10"
        ),
        pytest.param(
            sheet(premium(7), {"anna": 1, "bert": 10, "carl": 10}),
            "tricks",
            id="misere-more-than-10",
        ),
        pytest.param(
            sheet(premium(6), {"anna": 8, "bert": 1, "carl": 1}),
            "tricks",
            id="slam-defenders-2-tricks",
        ),
        pytest.param(
            sheet(premium(8), {"anna": 10, "bert": 1, "carl": 0}), "tricks", id="slam-more-than-10"
        ),
        pytest.param(
            sheet(premium(6), {"anna": 9, "bert": 0, "carl": 0}), "tricks", id="slam-made-not-10"
        ),
        pytest.param(
            sheet(premium(5), {"anna": 0, "bert": 10}), "tricks.carl", id="premium-missing-a-player"
        ),
        pytest.param(
            sheet(premium(4), {"anna": 0, "bert": 5, "carl": 5}), "game.level", id="premium-level-4"
        ),
        pytest.param(sheet(suit("X"), {}, defence=HH), "game.level", id="suit-level-x"),
        pytest.param(sheet({"type": "grand"}, {}, defence=HH), "game.type", id="unknown-game"),
        pytest.param(
            sheet(AUSFECHTEN, {"anna": 4, "bert": 3, "carl": 2}, declarer=None),
            "tricks",
            id="ausfechten-not-10",
        ),
        pytest.param(
            sheet(AUSFECHTEN, {"anna": 4, "bert": 3, "carl": 3}),
            "declarer",
            id="ausfechten-with-declarer",
        ),
        pytest.param(
            sheet(AUSFECHTEN, {"anna": 5, "bert": 5}, declarer=None),
            "tricks.carl",
            id="ausfechten-missing-a-player",
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 6, "bert": 4}, defence=PH, colour="red"),
            "colour",
            id="unknown-key",
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 11, "bert": -1}, defence=PH),
            "tricks.anna",
            id="trick-count-out-of-range",
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 6, "bert": 4}, declarer="zoe", defence=PH),
            "declarer",
            id="declarer-not-a-player",
        ),
        pytest.param(
            sheet(
                suit("D"),
                {"anna": 6, "bert": 4, "dora": 0},
                defence=PH,
                seats=["anna", "bert", "carl", "dora"],
                dealer="dora",
            ),
            "tricks.dora",
            id="sitting-out-dealer-with-tricks",
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 6, "bert": 2, "carl": 2}, defence=PP, negotiated=True),
            "negotiated",
            id="negotiated-with-two-defenders",
        ),
        pytest.param(
            sheet(suit("D"), {"anna": 5, "bert": 5}, defence=PH, negotiated=True),
            "negotiated",
            id="negotiated-defender-5",
        ),
        pytest.param(
            sheet(premium(5), {"anna": 0, "bert": 5, "carl": 5}, negotiated=True),
            "negotiated",
            id="negotiated-premium",
        ),
    ],
)
def test_it_rejects_an_invalid_score_sheet(record: dict[str, Any], at: str) -> None:
    with pytest.raises(EngineError) as e:
        engine.settle(record)
    assert e.value.at == at
    assert e.value.message  # a sentence, not just a field name


def test_it_does_not_settle_an_unfinished_full_record() -> None:
    from tests.engine.helpers import DEAL, TALON, record

    with pytest.raises(EngineError) as e:
        engine.settle(record(DEAL, TALON, actions=[{"seat": "anna", "call": "1"}]))
    assert e.value.at == "actions"
    assert "not finished" in e.value.message


def test_a_home_defender_may_be_given_zero_tricks() -> None:
    result = engine.settle(sheet(suit("D"), {"anna": 6, "bert": 4, "carl": 0}, defence=PH))
    assert result["delta"] == {"anna": 180, "bert": 120, "carl": -100}
