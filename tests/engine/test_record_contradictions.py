"""Score-sheet entries that contradict their table's options or their own auction are refused,
for every record field of every registered rule set: a field the options forbid, a value the
auction could not have produced. Each refusal is an ``EngineError`` whose ``at`` names the
field (the API's ``{"error": {"at", "message"}}`` and ``400 rule_violation`` ``fields``) and
whose message is a sentence.

Each row cites the page's rule it checks (``spec/hand-record.md``, ``spec/wien.md``,
``spec/next/*.md``); ``test_every_rule_set_has_rows`` keeps a newly registered rule set from
going unchecked."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.errors import EngineError

SEATS = ["anna", "bert", "carl"]


def entry(rules: dict[str, Any], game: Any, **keys: Any) -> dict[str, Any]:
    """A score-sheet entry at anna, bert, carl (carl deals); ``keys`` the carry and the
    entry's keys."""
    return {"rules": rules, "seats": SEATS, "dealer": "carl", "game": game, **keys}


def suit(level: str, talon: bool = True) -> dict[str, Any]:
    return {"type": "suit", "level": level, "talon": talon}


PLAYED = {
    "declarer": "anna",
    "defence": {"bert": "play", "carl": "play"},
    "tricks": {"anna": 6, "bert": 2, "carl": 2},
}
HOME = {"declarer": "anna", "defence": {"bert": "home", "carl": "home"}}
ALL_PLAY = {"declarer": "anna", "tricks": {"anna": 6, "bert": 2, "carl": 2}}

WIEN = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}
KURZ = {"variant": "kurz"}
OLD = {"variant": "austria-1829", "unit": 1, "ante": 240}
MODERN = {"variant": "austria-modern", "unit": 10, "ante": 100}
ILL = {"variant": "illustrated", "unit": 10, "ante": 100}
BALKAN = {"variant": "balkan", "unit": 1, "ante": 100}
DANUBE = {"variant": "danube-swabian", "unit": 10}
AMERICAN = {"variant": "american", "unit": 1, "ante": 100}
DOKO = {"variant": "doppelkopf", "base": 20, "ante": 10}
PREF = {"variant": "preferans", "convention": "sochi", "pool_target": 20}

# (id, record, the field named by the refusal, why: the page's rule)
CASES: list[tuple[str, dict[str, Any], str, str]] = [
    # --- wien (spec/hand-record.md, form 1) ------------------------------------------------
    (
        "wien-negotiated-with-two-players",
        entry(WIEN, suit("D"), pot=200, negotiated=True, **PLAYED),
        "negotiated",
        "negotiated only with one defender playing and one at home",
    ),
    (
        "wien-premium-with-defence",
        entry(WIEN, {"type": "premium", "level": 6, "hand": False}, pot=200, **PLAYED),
        "defence",
        "defence omitted for premium games",
    ),
    (
        "wien-ausfechten-with-declarer",
        entry(WIEN, {"type": "ausfechten"}, pot=200, **PLAYED),
        "declarer",
        "ausfechten: no declarer/defence",
    ),
    (
        "wien-missing-declarer",
        entry(WIEN, suit("D"), pot=200, defence={"bert": "play", "carl": "home"}, tricks={}),
        "declarer",
        "declarer: an active player",
    ),
    (
        "wien-negotiated-beyond-four",
        entry(
            WIEN,
            suit("D"),
            pot=200,
            negotiated=True,
            declarer="anna",
            defence={"bert": "play", "carl": "home"},
            tricks={"anna": 5, "bert": 5},
        ),
        "negotiated",
        "negotiated: defender 2..4",
    ),
    (
        "wien-the-sitting-out-dealer-declares",
        {
            **entry(WIEN, suit("D"), pot=200, tricks={}, **HOME),
            "seats": [*SEATS, "dora"],
            "dealer": "anna",
        },
        "declarer",
        "with 4 seats the dealer sits out",
    ),
    (
        "wien-misere-played-on",
        entry(
            WIEN,
            {"type": "premium", "level": 5, "hand": False},
            pot=200,
            declarer="anna",
            tricks={"anna": 2, "bert": 4, "carl": 4},
        ),
        "tricks",
        "a misère stops at the declarer's first trick",
    ),
    (
        "wien-premium-level-nine",
        entry(WIEN, {"type": "premium", "level": 9, "hand": False}, pot=200, **ALL_PLAY),
        "game.level",
        "premium games: level 5..8",
    ),
    # --- kurz (kurz.md, Records) ---------------------------------------------------------
    (
        "kurz-invitation",
        entry(
            KURZ,
            suit("D"),
            pot=0,
            declarer="anna",
            defence={"bert": "invite", "carl": "invited"},
            tricks={"anna": 6, "bert": 2, "carl": 2},
        ),
        "defence.bert",
        "no invite, invited",
    ),
    (
        "kurz-negotiated",
        entry(KURZ, suit("D"), pot=0, negotiated=True, **PLAYED),
        "negotiated",
        "no negotiated",
    ),
    (
        "kurz-thrown-in-with-declarer",
        entry(KURZ, None, pot=0, declarer="anna"),
        "declarer",
        '"game": null alone for a thrown-in deal',
    ),
    (
        "kurz-tricks-when-both-stayed-home",
        entry(KURZ, suit("D"), pot=0, tricks={"anna": 10}, **HOME),
        "tricks",
        "tricks omitted or {} when both stayed home",
    ),
    (
        "kurz-premium-game",
        entry(KURZ, {"type": "premium", "level": 6, "hand": False}, pot=0, **ALL_PLAY),
        "game",
        "kurz plays suit games only",
    ),
    # --- austria-1829 ----------------------------------------------------------------------
    (
        "1829-bare-null-with-a-forced-rearhand",
        entry(OLD, None, pot=720),
        "forced",
        "forced_player rearhand: the forced player plays or passes",
    ),
    (
        "1829-forced-pass-under-throw-in",
        entry({**OLD, "forced_player": "throw_in"}, None, pot=720, forced="pass", declarer="carl"),
        "forced",
        "throw_in: nobody is forced",
    ),
    (
        "1829-forced-game-under-throw-in",
        entry(
            {**OLD, "forced_player": "throw_in"},
            suit("H"),
            pot=720,
            forced="play",
            declarer="carl",
            defence={"anna": "home", "bert": "home"},
        ),
        "forced",
        "throw_in: nobody is forced",
    ),
    (
        "1829-forced-pass-by-another-than-rearhand",
        entry(OLD, None, pot=720, forced="pass", declarer="anna"),
        "declarer",
        "his pass: declarer rearhand",
    ),
    (
        "1829-forced-game-from-the-hand",
        entry(
            OLD,
            suit("H", talon=False),
            pot=720,
            forced="play",
            declarer="carl",
            defence={"anna": "home", "bert": "home"},
        ),
        "forced",
        "forced play: talon true",
    ),
    (
        "1829-forced-pass-by-the-sitting-out-dealer",
        {
            **entry(OLD, None, pot=720, forced="pass", declarer="dora"),
            "seats": [*SEATS, "dora"],
            "dealer": "dora",
        },
        "declarer",
        "the forced player is rearhand, not the dealer sitting out",
    ),
    (
        "1829-premium-game",
        entry(OLD, {"type": "premium", "level": 6, "hand": False}, pot=720, **ALL_PLAY),
        "game",
        "1829: suit games only",
    ),
    (
        "1829-tricks-short-of-ten",
        entry(OLD, suit("D"), pot=720, **{**PLAYED, "tricks": {"anna": 6, "bert": 2, "carl": 1}}),
        "tricks",
        "tricks sum to 10",
    ),
    (
        "1829-bid-without-walkover-value-bid",
        entry(OLD, suit("H"), pot=720, bid="D", **HOME),
        "bid",
        "bid only with walkover_value bid",
    ),
    (
        "1829-walkover-below-the-bid",
        entry({**OLD, "walkover_value": "bid"}, suit("S"), pot=720, bid="D", **HOME),
        "bid",
        "a declarer declares at least his bid",
    ),
    (
        "1829-forced-walkover-above-clubs",
        entry(
            {**OLD, "walkover_value": "bid"},
            suit("H"),
            pot=720,
            bid="S",
            forced="play",
            declarer="carl",
            defence={"anna": "home", "bert": "home"},
        ),
        "bid",
        "after forced the bid is C",
    ),
    (
        "1829-invitation",
        entry(
            OLD,
            suit("D"),
            pot=720,
            declarer="anna",
            defence={"bert": "invite", "carl": "invited"},
            tricks={"anna": 6, "bert": 2, "carl": 2},
        ),
        "defence.bert",
        "no invitation",
    ),
    (
        "1829-gave-up",
        entry(OLD, suit("D"), pot=720, gave_up=True, **PLAYED),
        "gave_up",
        "gave_up: modern, illustrated, balkan",
    ),
    # --- austria-modern --------------------------------------------------------------------
    (
        "modern-null-with-a-forced-rearhand",
        entry(MODERN, None, pot=300),
        "game",
        "rearhand must call: no thrown-in deal",
    ),
    (
        "modern-invitation-without-the-option",
        entry(
            MODERN,
            suit("D"),
            pot=300,
            declarer="anna",
            defence={"bert": "invite", "carl": "invited"},
            tricks={"anna": 6, "bert": 2, "carl": 2},
        ),
        "defence.bert",
        "invite only with invitation",
    ),
    (
        "modern-no-aces-without-the-bonus",
        entry(MODERN, suit("D"), pot=300, bonuses={"no_aces": True}, **PLAYED),
        "bonuses.no_aces",
        "no_aces asked only with no_ace_bonus > 0",
    ),
    (
        "modern-aces-and-no-aces",
        entry(
            {**MODERN, "no_ace_bonus": 10},
            suit("D"),
            pot=300,
            bonuses={"four_aces": True, "no_aces": True},
            **PLAYED,
        ),
        "bonuses",
        "no ace among twelve cards, yet four kept",
    ),
    (
        "modern-bonus-after-giving-up",
        entry(
            {**MODERN, "four_aces_bonus": 10},
            suit("D"),
            pot=300,
            gave_up=True,
            bonuses={"four_aces": True},
            declarer="anna",
            defence={"bert": "play", "carl": "play"},
        ),
        "bonuses",
        "gave up: no bonus",
    ),
    (
        "modern-gave-up-against-nobody",
        entry(MODERN, suit("D"), pot=300, gave_up=True, **HOME),
        "gave_up",
        "both home: won without play",
    ),
    (
        "modern-gave-up-with-tricks",
        entry(MODERN, suit("D"), pot=300, gave_up=True, **PLAYED),
        "tricks",
        "gave_up: no tricks",
    ),
    (
        "modern-tricks-of-a-defender-at-home",
        entry(
            MODERN,
            suit("D"),
            pot=300,
            declarer="anna",
            defence={"bert": "play", "carl": "home"},
            tricks={"anna": 6, "bert": 2, "carl": 2},
        ),
        "tricks.carl",
        "a player at home omitted or 0",
    ),
    (
        "modern-the-sitting-out-dealer-declares",
        {
            **entry(MODERN, suit("D"), pot=300, tricks={}, **HOME),
            "seats": [*SEATS, "dora"],
            "dealer": "anna",
        },
        "declarer",
        "with 4 seats the dealer sits out",
    ),
    (
        "modern-forced",
        entry(MODERN, suit("D"), pot=300, forced="play", **PLAYED),
        "forced",
        "forced: 1829 only",
    ),
    # --- illustrated -----------------------------------------------------------------------
    (
        "illustrated-null-with-a-forced-rearhand",
        entry(ILL, None, pot=300),
        "game",
        "the forced call as in modern",
    ),
    (
        "illustrated-missing-declarer",
        entry(
            ILL,
            {"type": "premium", "level": 6, "hand": False},
            pot=300,
            tricks={"anna": 10, "bert": 0, "carl": 0},
        ),
        "declarer",
        "declarer: an active player",
    ),
    (
        "illustrated-six-in-row-made-with-five",
        entry(
            {**ILL, "illustrated_form": "six_in_row"},
            {"type": "premium", "level": 6, "hand": False},
            pot=300,
            made=True,
            declarer="anna",
            tricks={"anna": 5, "bert": 1, "carl": 0},
        ),
        "tricks",
        "six in a row: made with six declarer tricks",
    ),
    (
        "illustrated-open-contract-under-six-in-row",
        entry(
            {**ILL, "illustrated_form": "six_in_row"},
            {"type": "premium", "level": 7, "hand": False},
            pot=300,
            declarer="anna",
            tricks={"anna": 0, "bert": 5, "carl": 5},
        ),
        "game.level",
        "six_in_row: no 7/8",
    ),
    (
        "illustrated-made-without-six-in-row",
        entry(
            ILL,
            {"type": "premium", "level": 6, "hand": False},
            pot=300,
            made=True,
            declarer="anna",
            tricks={"anna": 10, "bert": 0, "carl": 0},
        ),
        "made",
        "made: six_in_row only",
    ),
    (
        "illustrated-premium-with-defence",
        entry(
            ILL,
            {"type": "premium", "level": 6, "hand": False},
            pot=300,
            declarer="anna",
            defence={"bert": "play", "carl": "play"},
            tricks={"anna": 10, "bert": 0, "carl": 0},
        ),
        "defence",
        "premium contracts: no defence step",
    ),
    (
        "illustrated-premium-given-up",
        entry(
            ILL,
            {"type": "premium", "level": 5, "hand": False},
            pot=300,
            gave_up=True,
            declarer="anna",
            tricks={"anna": 0, "bert": 5, "carl": 5},
        ),
        "gave_up",
        "premium contracts: no give_up",
    ),
    (
        "illustrated-premium-bonuses",
        entry(
            {**ILL, "four_aces_bonus": 10},
            {"type": "premium", "level": 6, "hand": False},
            pot=300,
            bonuses={"four_aces": True},
            declarer="anna",
            tricks={"anna": 10, "bert": 0, "carl": 0},
        ),
        "bonuses",
        "bonuses: suit games only",
    ),
    # --- balkan ----------------------------------------------------------------------------
    (
        "balkan-contra-without-the-option",
        entry(
            {**BALKAN, "contra": False},
            suit("H"),
            pot=1000,
            contra={"by": "bert", "recontra": False},
            **PLAYED,
        ),
        "contra",
        "contra only with contra",
    ),
    (
        "balkan-contra-by-a-defender-at-home",
        entry(
            BALKAN,
            suit("H"),
            pot=1000,
            contra={"by": "carl", "recontra": False},
            declarer="anna",
            defence={"bert": "play", "carl": "home"},
            tricks={"anna": 6, "bert": 2, "carl": 2},
        ),
        "contra.by",
        "contra.by: a defender who played",
    ),
    (
        "balkan-contract-the-options-do-not-have",
        entry(
            BALKAN,
            {"type": "notrump", "level": "uno", "talon": True},
            pot=1000,
            **ALL_PLAY,
        ),
        "game.level",
        "only the levels contracts has",
    ),
    (
        "balkan-premium-defence-under-play",
        entry(
            BALKAN,
            {"type": "notrump", "level": "misere", "talon": True},
            pot=1000,
            declarer="anna",
            defence={"bert": "play", "carl": "home"},
            tricks={"anna": 0, "bert": 10},
        ),
        "defence",
        "premium with play: no defence step",
    ),
    (
        "balkan-the-sitting-out-dealer-declares",
        {
            **entry(BALKAN, suit("H"), pot=1000, tricks={}, **HOME),
            "seats": [*SEATS, "dora"],
            "dealer": "anna",
        },
        "declarer",
        "with 4 seats the dealer sits out",
    ),
    (
        "balkan-uno-played-on",
        entry(
            {**BALKAN, "contracts": "sans_uno_slam"},
            {"type": "notrump", "level": "uno", "talon": True},
            pot=1000,
            declarer="anna",
            tricks={"anna": 3, "bert": 4, "carl": 3},
        ),
        "tricks",
        "uno stops at the declarer's second trick",
    ),
    (
        "balkan-refe-without-refe-limit",
        entry(BALKAN, suit("H"), pot=1000, refe={"anna": 1}, **PLAYED),
        "refe",
        "refe: an error with refe_limit 0",
    ),
    (
        "balkan-refe-written-above-the-limit",
        entry({**BALKAN, "refe_limit": 2}, suit("H"), pot=1000, refe_written=3, **PLAYED),
        "refe_written",
        "refe_written 0..refe_limit",
    ),
    (
        "balkan-gave-up-against-nobody",
        entry(BALKAN, suit("H"), pot=1000, gave_up=True, **HOME),
        "gave_up",
        "gave_up: only if anyone plays",
    ),
    # --- danube-swabian --------------------------------------------------------------------
    (
        "danube-pot",
        entry(DANUBE, suit("H"), pot=100, talon=["HK", "CK"], **ALL_PLAY),
        "pot",
        "no pot (an error if given)",
    ),
    (
        "danube-contra-without-the-option",
        entry(
            {**DANUBE, "contra": False},
            suit("H"),
            talon=["HK", "CK"],
            contra={"bert": "contra"},
            **ALL_PLAY,
        ),
        "contra",
        "contra only with contra",
    ),
    (
        "danube-defence",
        entry(
            DANUBE,
            suit("H"),
            talon=["HK", "CK"],
            declarer="anna",
            defence={"bert": "play", "carl": "play"},
            tricks={"anna": 6, "bert": 2, "carl": 2},
        ),
        "defence",
        "no defence step: everyone plays",
    ),
    (
        "danube-missing-declarer",
        entry(DANUBE, suit("H"), talon=["HK", "CK"], tricks={"anna": 6, "bert": 2, "carl": 2}),
        "declarer",
        "declarer: an active player",
    ),
    (
        "danube-uno-without-the-contract",
        entry(
            DANUBE,
            {"type": "notrump", "level": "uno", "talon": True},
            talon=["HK", "CK"],
            **ALL_PLAY,
        ),
        "game.level",
        "only the levels contracts has",
    ),
    (
        "danube-slam-lost-twice",
        entry(
            DANUBE,
            {"type": "notrump", "level": "slam", "talon": True},
            talon=["HK", "CK"],
            declarer="anna",
            tricks={"anna": 8, "bert": 1, "carl": 1},
        ),
        "tricks",
        "a slam stops at the defenders' first trick",
    ),
    (
        "danube-without-talon",
        entry(DANUBE, suit("H"), **ALL_PLAY),
        "talon",
        "talon required for every game",
    ),
    (
        "danube-gave-up",
        entry(DANUBE, suit("H"), talon=["HK", "CK"], gave_up=True, **ALL_PLAY),
        "gave_up",
        "no give-up",
    ),
    # --- american --------------------------------------------------------------------------
    (
        "american-widow-without-offers",
        entry(AMERICAN, suit("H", talon=True), pot=100, **ALL_PLAY),
        "offers",
        "game.talon true only in round 2, which carries offers",
    ),
    (
        "american-offers-out-of-order",
        entry(
            AMERICAN,
            suit("H", talon=True),
            pot=100,
            offers={"anna": 5, "bert": 3},
            **ALL_PLAY,
        ),
        "offers",
        "each offer more than any earlier offer, from forehand",
    ),
    (
        "american-missing-declarer",
        entry(AMERICAN, suit("H", talon=False), pot=100, tricks={"anna": 6, "bert": 2, "carl": 2}),
        "declarer",
        "declarer: an active player",
    ),
    (
        "american-no-trump-game",
        entry(AMERICAN, {"type": "notrump", "level": "sans", "talon": False}, pot=100, **ALL_PLAY),
        "game",
        "american: suit games only",
    ),
    (
        "american-a-defender-without-tricks",
        entry(
            AMERICAN,
            suit("H", talon=False),
            pot=100,
            declarer="anna",
            tricks={"anna": 6, "bert": 4},
        ),
        "tricks.carl",
        "tricks of all three",
    ),
    (
        "american-defence",
        entry(AMERICAN, suit("H", talon=False), pot=100, **PLAYED),
        "defence",
        "no defence: both defenders play",
    ),
    (
        "american-declarer-not-the-highest-offer",
        entry(
            AMERICAN,
            suit("H", talon=True),
            pot=100,
            offers={"anna": 3, "bert": 5},
            **ALL_PLAY,
        ),
        "offers",
        "the declarer's offer the highest",
    ),
    # --- doppelkopf (doppelkopf.md, Records; the rest in test_doppelkopf_entries.py) -------
    (
        "doppelkopf-secret-solo-without-its-queens",
        {
            "rules": {**DOKO, "secret_solo_queens": 2},
            "seats": [*SEATS, "dora"],
            "dealer": "dora",
            "kasse": 100,
            "game": {"type": "secret_solo"},
            "re": ["anna"],
            "points": {"re": 100, "kontra": 140},
            "tricks": {"re": 4, "kontra": 8},
            "queen_tricks": {"re": 0, "kontra": 1},
        },
        "queen_tricks.kontra",
        "a Heimliches Solo needs secret_solo_queens CQ",
    ),
    (
        "doppelkopf-secret-solo-kontra-with-both-queens",
        {
            "rules": DOKO,
            "seats": [*SEATS, "dora"],
            "dealer": "dora",
            "kasse": 100,
            "game": {"type": "secret_solo"},
            "re": ["anna"],
            "points": {"re": 100, "kontra": 140},
            "tricks": {"re": 4, "kontra": 8},
            "queen_tricks": {"re": 0, "kontra": 2},
        },
        "queen_tricks.kontra",
        "the soloist holds at least one CQ",
    ),
    # --- preferans (preferans.md §13) ------------------------------------------------------
    (
        "preferans-half-whist-without-the-option",
        entry(
            {**PREF, "half_whist": False},
            {"type": "contract", "level": 6, "strain": "S"},
            declarer="anna",
            defence={"bert": "pass", "carl": "half"},
        ),
        "defence.carl",
        "half only with half_whist",
    ),
    (
        "preferans-half-whist-on-an-eight",
        entry(
            PREF,
            {"type": "contract", "level": 8, "strain": "S"},
            declarer="anna",
            defence={"bert": "pass", "carl": "half"},
        ),
        "defence.carl",
        "half only on a 6 or 7",
    ),
    (
        "preferans-mode-with-two-whisters",
        entry(
            PREF,
            {"type": "contract", "level": 6, "strain": "S"},
            declarer="anna",
            defence={"bert": "whist", "carl": "whist"},
            mode="open",
            tricks={"anna": 6, "bert": 2, "carl": 2},
        ),
        "mode",
        "mode only with exactly one whister",
    ),
    (
        "preferans-contract-below-the-exit-minimum",
        entry(
            {**PREF, "raspasy_exit": [7]},
            {"type": "contract", "level": 6, "strain": "S"},
            streak=1,
            declarer="anna",
            defence={"bert": "whist", "carl": "pass"},
            tricks={"anna": 6, "bert": 2, "carl": 2},
        ),
        "game.level",
        "§8.4: after raspasy the lowest level is the exit minimum",
    ),
    (
        "preferans-defence-on-a-checked-ten",
        entry(
            {**PREF, "ten_whisted": False},
            {"type": "contract", "level": 10, "strain": "S"},
            declarer="anna",
            defence={"bert": "whist", "carl": "pass"},
            tricks={"anna": 10, "bert": 0, "carl": 0},
        ),
        "defence",
        "absent for a checked ten",
    ),
    (
        "preferans-misere-with-defence",
        entry(
            PREF,
            {"type": "misere"},
            declarer="anna",
            defence={"bert": "whist", "carl": "pass"},
            tricks={"anna": 0, "bert": 5, "carl": 5},
        ),
        "defence",
        "defence absent for misère",
    ),
    (
        "preferans-tricks-after-two-passes",
        entry(
            PREF,
            {"type": "contract", "level": 6, "strain": "S"},
            declarer="anna",
            defence={"bert": "pass", "carl": "pass"},
            tricks={"anna": 6, "bert": 2, "carl": 2},
        ),
        "tricks",
        "tricks absent when nothing was played",
    ),
    (
        "preferans-raspasy-with-declarer",
        entry(
            PREF,
            {"type": "raspasy"},
            declarer="anna",
            tricks={"anna": 4, "bert": 3, "carl": 3},
        ),
        "declarer",
        "raspasy: no declarer",
    ),
]


@pytest.mark.parametrize(
    ("record", "at"), [pytest.param(r, at, id=name) for name, r, at, _ in CASES]
)
def test_a_record_contradicting_its_options_or_auction_is_refused_naming_the_field(
    record: dict[str, Any], at: str
) -> None:
    with pytest.raises(EngineError) as e:
        engine.settle(record)
    assert e.value.at == at, e.value.message
    answer = e.value.to_json()
    assert (answer["at"], answer["message"]) == (at, e.value.message)
    assert len(e.value.message.split()) >= 4  # a sentence, not a code


def test_every_rule_set_has_rows() -> None:
    """Every score-sheet field of every rule set is named by at least one row (Doppelkopf's
    entries are checked field by field in ``test_doppelkopf_entries.py``; a rule set the test
    suite registers from its own package, ``tests/trickgame``, checks its entries there)."""
    named: dict[str, set[str]] = {}
    for _, record, at, _ in CASES:
        named.setdefault(record["rules"]["variant"], set()).add(at.split(".")[0])
    for rs in engine.rule_sets(include_engine_only=True):
        if rs.name in ("doppelkopf", "doppelkopf-ddv"):
            continue
        if not type(rs).__module__.startswith("engine.rules."):
            continue
        missing = set(rs.sheet_keys) - named.get(rs.name, set())
        assert not missing, f"{rs.name}: no row names {sorted(missing)}"
