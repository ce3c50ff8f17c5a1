"""Scoring one ``preferans`` deal (``spec/next/preferans.md`` §9), help and game end (§10), the
streak (§8.3) and the score-sheet entry (§13).

Every worked example of §14 (1–17) is a test as given, again with the seats renamed, and where
it is points-scaled again with the multipliers scaled. Seats A, B, C (C deals, A is first
hand) or A, B, C, D (D deals and sits out); A declares, B is the first defender."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import EngineError
from engine.rules.preferans.outcome import DealOutcome
from engine.rules.preferans.rules import PreferansRules, parse_rules
from engine.rules.preferans.scoring import entry_json, next_streak, parse_entry, score
from engine.rules.preferans.sheet import Sheet, parse_sheet

THREE = ("A", "B", "C")
FOUR = ("A", "B", "C", "D")
NAMES = {"A": "yuri", "B": "xena", "C": "walt", "D": "vera"}


def rules(convention: str = "sochi", **kw: Any) -> PreferansRules:
    return parse_rules({"variant": "preferans", "convention": convention, "pool_target": 20, **kw})


def outcome(
    r: PreferansRules,
    seats: tuple[str, ...] = THREE,
    *,
    streak: int = 0,
    sheet: dict[str, Any] | None = None,
    **record: Any,
) -> DealOutcome:
    """The outcome of a §13 score-sheet entry; the last seat deals."""
    parsed = parse_sheet(sheet, r, seats) if sheet is not None else None
    return parse_entry(record, r, seats, seats[-1], streak, parsed)


def run(r: PreferansRules, seats: tuple[str, ...] = THREE, **kw: Any) -> dict[str, Any]:
    return score(outcome(r, seats, **kw))


def contract(level: int, strain: str) -> dict[str, Any]:
    return {"type": "contract", "level": level, "strain": strain}


def expect(
    seats: tuple[str, ...],
    pool: dict[str, int] | None = None,
    mountain: dict[str, int] | None = None,
    whists: dict[str, dict[str, int]] | None = None,
) -> dict[str, Any]:
    """An ``entry``: pool and mountain with every seat, whists only non-zero."""
    return {
        "pool": {s: (pool or {}).get(s, 0) for s in seats},
        "mountain": {s: (mountain or {}).get(s, 0) for s in seats},
        "whists": whists or {},
    }


def rename(data: Any, names: dict[str, str] = NAMES) -> Any:
    """``data`` with every seat name (keys and values) renamed; ``game`` is left alone (its
    strains ``C``, ``D`` are not seats)."""
    if isinstance(data, dict):
        return {names.get(k, k): (v if k == "game" else rename(v, names)) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return type(data)(rename(v, names) for v in data)
    if isinstance(data, str):
        return names.get(data, data)
    return data


def both(
    r: PreferansRules, seats: tuple[str, ...], expected: dict[str, Any], **kw: Any
) -> dict[str, Any]:
    """Score the deal as given and with the seats renamed; both give ``expected`` (the entry)."""
    result = run(r, seats, **kw)
    assert result["entry"] == expected
    renamed = run(r, tuple(NAMES[s] for s in seats), **rename(kw))
    assert renamed["entry"] == rename(expected)
    assert renamed["streak"] == result["streak"]
    return result


def scaled(expected: dict[str, Any], pm: int, mm: int, wm: int) -> dict[str, Any]:
    return {
        "pool": {s: v * pm for s, v in expected["pool"].items()},
        "mountain": {s: v * mm for s, v in expected["mountain"].items()},
        "whists": {w: {t: v * wm for t, v in row.items()} for w, row in expected["whists"].items()},
    }


# --- §14 worked examples 1–17 ---------------------------------------------------------------

# (number, rules options, seats, entry record, expected entry); scaling: the whole entry is
# pool × pool_mult, mountain × mountain_mult and whists × whist_mult (trick whists, price
# consolation and half-whist all carry whist_mult).
SCALABLE: list[tuple[str, dict[str, Any], tuple[str, ...], dict[str, Any], dict[str, Any]]] = [
    (
        "1: Sochi 6C both whist A6 B2 C2",
        {},
        THREE,
        {
            "game": contract(6, "C"),
            "declarer": "A",
            "defence": {"B": "whist", "C": "whist"},
            "tricks": {"A": 6, "B": 2, "C": 2},
        },
        expect(THREE, pool={"A": 2}, whists={"B": {"A": 4}, "C": {"A": 4}}),
    ),
    (
        "2: Sochi 7H both whist A5 B3 C2 (consolation 4·2 each)",
        {},
        THREE,
        {
            "game": contract(7, "H"),
            "declarer": "A",
            "defence": {"B": "whist", "C": "whist"},
            "tricks": {"A": 5, "B": 3, "C": 2},
        },
        expect(THREE, mountain={"A": 8}, whists={"B": {"A": 20}, "C": {"A": 16}}),
    ),
    (
        "3: Sochi 6D B whists C passes A7 B1 C2 (greedy, missing 1)",
        {},
        THREE,
        {
            "game": contract(6, "D"),
            "declarer": "A",
            "defence": {"B": "whist", "C": "pass"},
            "tricks": {"A": 7, "B": 1, "C": 2},
        },
        expect(THREE, pool={"A": 2}, mountain={"B": 2}, whists={"B": {"A": 6}}),
    ),
    (
        "4: Sochi 8S both whist A10 (second defender liable)",
        {},
        THREE,
        {
            "game": contract(8, "S"),
            "declarer": "A",
            "defence": {"B": "whist", "C": "whist"},
            "tricks": {"A": 10, "B": 0, "C": 0},
        },
        expect(THREE, pool={"A": 6}, mountain={"C": 6}),
    ),
    (
        "6: Leningrad 6S B passes, C half, B passes (2·2·4/2 = 8)",
        {"convention": "leningrad"},
        THREE,
        {"game": contract(6, "S"), "declarer": "A", "defence": {"B": "pass", "C": "half"}},
        expect(THREE, pool={"A": 2}, whists={"C": {"A": 8}}),
    ),
    (
        "7: Sochi gentleman_remise, 4 players, 7S B whists C passes A5 B3 C2",
        {"whist_split": "gentleman_remise"},
        FOUR,
        {
            "game": contract(7, "S"),
            "declarer": "A",
            "defence": {"B": "whist", "C": "pass"},
            "tricks": {"A": 5, "B": 3, "C": 2},
        },
        expect(FOUR, mountain={"A": 8}, whists={"B": {"A": 18}, "C": {"A": 18}, "D": {"A": 8}}),
    ),
    (
        "8: Sochi misère, A takes 2",
        {},
        THREE,
        {"game": {"type": "misere"}, "declarer": "A", "tricks": {"A": 2, "B": 5, "C": 3}},
        expect(THREE, mountain={"A": 20}),
    ),
    (
        "8: Leningrad misère, A takes 2",
        {"convention": "leningrad"},
        THREE,
        {"game": {"type": "misere"}, "declarer": "A", "tricks": {"A": 2, "B": 5, "C": 3}},
        expect(THREE, mountain={"A": 40}),
    ),
    (
        "12: Sochi, 4 players, raspasy A3 B2 C4 D1 (the dealer plays the talon)",
        {},
        FOUR,
        {"game": {"type": "raspasy"}, "tricks": {"A": 3, "B": 2, "C": 4, "D": 1}},
        expect(FOUR, mountain={"A": 3, "B": 2, "C": 4, "D": 1}),
    ),
    (
        "15: Sochi ten_whisted false, 10H checked A9 B1 C0 (consolation only)",
        {"ten_whisted": False},
        THREE,
        {"game": contract(10, "H"), "declarer": "A", "tricks": {"A": 9, "B": 1, "C": 0}},
        expect(THREE, mountain={"A": 10}, whists={"B": {"A": 10}, "C": {"A": 10}}),
    ),
]


@pytest.mark.parametrize(
    ("options", "seats", "record", "expected"),
    [row[1:] for row in SCALABLE],
    ids=[row[0] for row in SCALABLE],
)
def test_worked_example(
    options: dict[str, Any],
    seats: tuple[str, ...],
    record: dict[str, Any],
    expected: dict[str, Any],
) -> None:
    both(rules(**options), seats, expected, **record)


@pytest.mark.parametrize(
    ("options", "seats", "record", "expected"),
    [row[1:] for row in SCALABLE],
    ids=[row[0] for row in SCALABLE],
)
@pytest.mark.parametrize(("pm", "mm", "wm"), [(2, 3, 5), (3, 1, 2)])
def test_worked_example_scales_with_the_multipliers(
    options: dict[str, Any],
    seats: tuple[str, ...],
    record: dict[str, Any],
    expected: dict[str, Any],
    pm: int,
    mm: int,
    wm: int,
) -> None:
    base = rules(**options)
    r = rules(
        **options,
        pool_mult=pm * base.pool_mult,
        mountain_mult=mm * base.mountain_mult,
        whist_mult=wm * base.whist_mult,
    )
    both(r, seats, scaled(expected, pm, mm, wm), **record)


def test_example_5_leningrad_lone_whist_halves_after_a_remise() -> None:
    """§14 #5: trick whists 5·2·2 = 20 halved because A lost; consolation 2·1·2 = 4 each."""
    expected = expect(THREE, mountain={"A": 4}, whists={"B": {"A": 14}, "C": {"A": 14}})
    both(
        rules("leningrad"),
        THREE,
        expected,
        game=contract(6, "C"),
        declarer="A",
        defence={"B": "whist", "C": "pass"},
        tricks={"A": 5, "B": 3, "C": 2},
    )


def test_example_9_rostov_consolation_is_10_per_undertrick() -> None:
    """§14 #9: Rostov 6S both whist A5 B2 C3."""
    expected = expect(THREE, mountain={"A": 2}, whists={"B": {"A": 14}, "C": {"A": 16}})
    both(
        rules("rostov"),
        THREE,
        expected,
        game=contract(6, "S"),
        declarer="A",
        defence={"B": "whist", "C": "whist"},
        tricks={"A": 5, "B": 2, "C": 3},
    )


def test_example_10_sochi_raspasy_streak() -> None:
    """§14 #10: a raspasy at streak 0, then another at streak 1 (b = 2); streak 2 after."""
    raspasy = {"type": "raspasy"}
    first = both(
        rules(),
        THREE,
        expect(THREE, pool={"A": 1}, mountain={"B": 4, "C": 6}),
        game=raspasy,
        tricks={"A": 0, "B": 4, "C": 6},
    )
    assert first["streak"] == 1
    second = both(
        rules(),
        THREE,
        expect(THREE, mountain={"A": 6, "B": 6, "C": 8}),
        streak=1,
        game=raspasy,
        tricks={"A": 3, "B": 3, "C": 4},
    )
    assert second["streak"] == 2
    assert second["declarer"] is None and second["made"] is None and second["defence"] is None


@pytest.mark.parametrize(
    ("streak", "tricks", "expected"),
    [
        # §14 #11, Rostov raspasy, three deals in a row (b = 1 throughout)
        (0, {"A": 1, "B": 3, "C": 6}, expect(THREE, whists={"A": {"B": 15, "C": 30}})),
        (1, {"A": 2, "B": 2, "C": 6}, expect(THREE, whists={"A": {"C": 15}, "B": {"C": 15}})),
        (
            2,
            {"A": 0, "B": 4, "C": 6},
            expect(THREE, pool={"A": 1}, whists={"A": {"B": 20, "C": 30}}),
        ),
    ],
)
def test_example_11_rostov_raspasy_whists(
    streak: int, tricks: dict[str, int], expected: dict[str, Any]
) -> None:
    result = both(
        rules("rostov"), THREE, expected, streak=streak, game={"type": "raspasy"}, tricks=tricks
    )
    assert result["streak"] == streak + 1


def test_example_13_help_goes_to_the_highest_pool_first() -> None:
    """§14 #13: A 18 makes 8H (+6): excess 4; C (19) gets 1, then B (15) gets 3."""
    sheet = {"pool": {"A": 18, "B": 15, "C": 19}, "mountain": {"A": 0, "B": 0, "C": 0}}
    kw: dict[str, Any] = {
        "sheet": sheet,
        "game": contract(8, "H"),
        "declarer": "A",
        "defence": {"B": "pass", "C": "pass"},
    }
    result = both(rules(), THREE, expect(THREE, pool={"A": 6}), **kw)
    assert result["help"] == [
        {"from": "A", "to": "C", "points": 1, "whists": 10},
        {"from": "A", "to": "B", "points": 3, "whists": 30},
    ]
    assert result["sheet"] == {
        "pool": {"A": 20, "B": 18, "C": 20},
        "mountain": {"A": 0, "B": 0, "C": 0},
        "whists": {"A": {"B": 30, "C": 10}},
    }
    assert result["game_over"] is False
    renamed = run(rules(), tuple(NAMES[s] for s in THREE), **rename(kw))
    assert renamed["help"] == rename(result["help"])
    assert renamed["sheet"] == rename(result["sheet"])


def test_example_14_excess_nobody_can_take_is_written_off_the_mountain() -> None:
    """§14 #14: pools A 18 B 20 C 20; A makes 8H: P_A 20, M_A −4, game over."""
    sheet = {"pool": {"A": 18, "B": 20, "C": 20}, "mountain": {"A": 3, "B": 0, "C": 0}}
    kw: dict[str, Any] = {
        "sheet": sheet,
        "game": contract(8, "H"),
        "declarer": "A",
        "defence": {"B": "whist", "C": "pass"},
        "tricks": {"A": 8, "B": 1, "C": 1},
    }
    expected = expect(THREE, pool={"A": 6}, whists={"B": {"A": 12}})
    result = both(rules(), THREE, expected, **kw)
    assert result["help"] == [{"from": "A", "to": None, "points": 4, "mountain": -4}]
    assert result["sheet"] == {
        "pool": {"A": 20, "B": 20, "C": 20},
        "mountain": {"A": -1, "B": 0, "C": 0},
        "whists": {"B": {"A": 12}},
    }
    assert result["game_over"] is True
    renamed = run(rules(), tuple(NAMES[s] for s in THREE), **rename(kw))
    assert renamed["help"] == rename(result["help"])
    assert renamed["sheet"] == rename(result["sheet"])


def test_example_16_whisted_game_reset() -> None:
    """§14 #16: with whisted_game a half-whisted 6 ends the streak, a passed one does not."""
    r = rules(raspasy_reset="whisted_game")
    half = both(
        r,
        THREE,
        expect(THREE, pool={"A": 2}, whists={"C": {"A": 4}}),
        streak=1,
        game=contract(6, "S"),
        declarer="A",
        defence={"B": "pass", "C": "half"},
    )
    assert half["streak"] == 0
    passed = both(
        r,
        THREE,
        expect(THREE, pool={"A": 2}),
        streak=1,
        game=contract(6, "S"),
        declarer="A",
        defence={"B": "pass", "C": "pass"},
    )
    assert passed["streak"] == 1
    assert passed["tricks"] == {} and passed["made"] is True


def test_example_17_rostov_talon_lead_four_players_split() -> None:
    """§14 #17: 5·3·3 = 45 whists split by A and B, the odd whist to A (participant order)."""
    r = rules("rostov", raspasy_talon="lead", raspasy_progression=[1, 3])
    both(
        r,
        FOUR,
        expect(FOUR, whists={"A": {"C": 23, "D": 23}, "B": {"C": 22, "D": 22}}),
        streak=1,
        game={"type": "raspasy"},
        tricks={"A": 2, "B": 2, "C": 3, "D": 3},
    )


def test_the_section_13_result_example() -> None:
    """§13 Result: 7H down 2 under Sochi, greedy lone whist; bert writes 5·4 + 2·4."""
    seats = ("anna", "bert", "carl")
    result = score(
        parse_entry(
            {
                "game": contract(7, "H"),
                "declarer": "anna",
                "defence": {"bert": "whist", "carl": "pass"},
                "mode": "closed",
                "tricks": {"anna": 5, "bert": 3, "carl": 2},
            },
            rules(),
            seats,
            "carl",
            0,
            None,
        )
    )
    assert result == {
        "declarer": "anna",
        "game": {"type": "contract", "level": 7, "strain": "H"},
        "made": False,
        "tricks": {"anna": 5, "bert": 3, "carl": 2},
        "defence": {"bert": "whist", "carl": "pass"},
        "entry": {
            "pool": {"anna": 0, "bert": 0, "carl": 0},
            "mountain": {"anna": 8, "bert": 0, "carl": 0},
            "whists": {"bert": {"anna": 28}, "carl": {"anna": 8}},
        },
        "help": [],
        "streak": 0,
    }


# --- one test per rule ----------------------------------------------------------------------


def played(level: int, calls: tuple[str, str], tricks: tuple[int, int, int], **kw: Any) -> Any:
    return run(
        rules(**kw),
        game=contract(level, "S"),
        declarer="A",
        defence={"B": calls[0], "C": calls[1]},
        tricks=dict(zip(THREE, tricks, strict=True)),
    )["entry"]


def test_both_passed_counts_the_contract_made_and_writes_nothing_else() -> None:
    e = run(rules(), game=contract(9, "NT"), declarer="A", defence={"B": "pass", "C": "pass"})
    assert e["entry"] == expect(THREE, pool={"A": 8})
    assert e["made"] is True


def test_overtricks_earn_nothing() -> None:
    assert played(6, ("whist", "whist"), (8, 1, 1))["pool"]["A"] == 2


@pytest.mark.parametrize(
    ("option", "tricks", "mountain"),
    [
        # §5: two whisters on a 6, share 2 each; 10/0/0 makes each liable for 2
        ("capped", (10, 0, 0), {"B": 4, "C": 4}),
        ("share", (10, 0, 0), {"B": 4, "C": 4}),
        # 7/0/3: missing 1; B took 0 < 2: capped min(2, 1) = 1, share 2
        ("capped", (7, 0, 3), {"B": 2}),
        ("share", (7, 0, 3), {"B": 4}),
        # 7/1/2: missing 1; B short 1
        ("capped", (7, 1, 2), {"B": 2}),
    ],
)
def test_liability_on_a_6_with_two_whisters(
    option: str, tricks: tuple[int, int, int], mountain: dict[str, int]
) -> None:
    e = played(6, ("whist", "whist"), tricks, liability_6_7=option)
    assert {s: v for s, v in e["mountain"].items() if v} == mountain


def test_liability_8_10_both_makes_each_whister_liable() -> None:
    e = played(8, ("whist", "whist"), (10, 0, 0), liability_8_10="both")
    assert e["mountain"] == {"A": 0, "B": 6, "C": 6}


def test_half_liability_costs_half_the_price() -> None:
    """§9.1: ``(p/2)·mm·missing`` with ``whist_liability = "half"``."""
    e = played(6, ("whist", "pass"), (7, 1, 2), whist_liability="half")
    assert e["mountain"] == {"A": 0, "B": 1, "C": 0}


def test_a_passer_is_never_liable() -> None:
    e = played(6, ("pass", "whist"), (8, 2, 0))
    assert e["mountain"] == {"A": 0, "B": 0, "C": 4}
    assert e["whists"] == {"C": {"A": 4}}


@pytest.mark.parametrize(
    ("split", "tricks", "whists"),
    [
        ("greedy", (5, 3, 2), {"B": {"A": 20 + 8}, "C": {"A": 8}}),
        ("gentleman_remise", (5, 3, 2), {"B": {"A": 10 + 8}, "C": {"A": 10 + 8}}),
        ("gentleman_remise", (7, 1, 2), {"B": {"A": 12}}),  # made: as greedy
        ("gentleman", (7, 1, 2), {"B": {"A": 6}, "C": {"A": 6}}),  # halves always
    ],
)
def test_whist_split_with_one_whister(
    split: str, tricks: tuple[int, int, int], whists: dict[str, dict[str, int]]
) -> None:
    e = played(7, ("whist", "pass"), tricks, whist_split=split)
    assert e["whists"] == whists


def test_fixed10_consolation_is_ten_whatever_the_contract() -> None:
    e = played(9, ("whist", "whist"), (7, 2, 1), consolation="fixed10")
    assert e["mountain"]["A"] == 16
    assert e["whists"] == {"B": {"A": 16 + 20}, "C": {"A": 8 + 20}}


def test_fixed10_only_writes_no_mountain_for_the_declarer() -> None:
    e = played(9, ("whist", "whist"), (7, 2, 1), consolation="fixed10_only")
    assert e["mountain"]["A"] == 0
    assert e["whists"] == {"B": {"A": 36}, "C": {"A": 28}}


def test_misere_made_writes_ten_pool() -> None:
    r = run(rules(), game={"type": "misere"}, declarer="A", tricks={"A": 0, "B": 4, "C": 6})
    assert r["entry"] == expect(THREE, pool={"A": 10})
    assert r["made"] is True and r["defence"] is None


@pytest.mark.parametrize(
    ("options", "whists", "mountain"),
    [
        ({"misere_consolation": True}, {"B": {"A": 20}, "C": {"A": 20}}, 20),
        (
            {"misere_consolation": True, "consolation": "fixed10"},
            {"B": {"A": 20}, "C": {"A": 20}},
            20,
        ),
        ({"consolation": "fixed10_only"}, {"B": {"A": 20}, "C": {"A": 20}}, 0),
        ({"misere_consolation": True, "whist_mult": 3}, {"B": {"A": 60}, "C": {"A": 60}}, 20),
    ],
)
def test_misere_consolation(
    options: dict[str, Any], whists: dict[str, dict[str, int]], mountain: int
) -> None:
    r = run(
        rules(**options), game={"type": "misere"}, declarer="A", tricks={"A": 2, "B": 4, "C": 4}
    )
    assert r["entry"]["whists"] == whists
    assert r["entry"]["mountain"]["A"] == mountain


def test_without_dealer_consolation_the_fourth_player_writes_nothing() -> None:
    r = run(
        rules(dealer_consolation=False),
        FOUR,
        game=contract(6, "S"),
        declarer="A",
        defence={"B": "whist", "C": "whist"},
        tricks={"A": 5, "B": 3, "C": 2},
    )
    assert r["entry"]["whists"] == {"B": {"A": 8}, "C": {"A": 6}}


def test_the_declarer_may_be_any_active_player() -> None:
    """B declares: C is the first defender, A the second (C deals)."""
    r = run(
        rules(),
        game=contract(8, "S"),
        declarer="B",
        defence={"C": "whist", "A": "whist"},
        tricks={"A": 0, "B": 10, "C": 0},
    )
    assert r["entry"]["mountain"] == {"A": 6, "B": 0, "C": 0}


def test_raspasy_amnesty() -> None:
    """§9.3, published: with amnesty tricks 2/5/3 at b = 1 give 0/3/1."""
    r = run(rules(raspasy_amnesty=True), game={"type": "raspasy"}, tricks={"A": 2, "B": 5, "C": 3})
    assert r["entry"]["mountain"] == {"A": 0, "B": 3, "C": 1}


def test_raspasy_without_zero_pool_writes_no_bonus() -> None:
    r = run(
        rules(raspasy_zero_pool=False), game={"type": "raspasy"}, tricks={"A": 0, "B": 4, "C": 6}
    )
    assert r["entry"]["pool"] == {"A": 0, "B": 0, "C": 0}


def test_raspasy_closed_talon_four_players_the_dealer_gets_the_zero_bonus() -> None:
    r = run(
        rules("rostov"),
        FOUR,
        streak=0,
        game={"type": "raspasy"},
        tricks={"A": 0, "B": 4, "C": 6},
    )
    assert r["entry"]["pool"] == {"A": 1, "B": 0, "C": 0, "D": 1}


def test_raspasy_whists_three_tied_writers_among_four() -> None:
    """§9.3: tied writers split each amount; leftover whists one each in participant order."""
    r = run(
        rules("rostov", raspasy_talon="lead"),
        FOUR,
        game={"type": "raspasy"},
        tricks={"A": 2, "B": 2, "C": 2, "D": 4},
    )
    assert r["entry"]["whists"] == {"A": {"D": 7}, "B": {"D": 7}, "C": {"D": 6}}


def test_raspasy_whists_ignore_whist_mult() -> None:
    r = run(
        rules("rostov", whist_mult=4), game={"type": "raspasy"}, tricks={"A": 1, "B": 3, "C": 6}
    )
    assert r["entry"]["whists"] == {"A": {"B": 15, "C": 30}}


@pytest.mark.parametrize(
    ("reset", "record", "streak"),
    [
        ("any_game", {"defence": {"B": "pass", "C": "pass"}}, 0),
        ("made_game", {"defence": {"B": "pass", "C": "pass"}}, 0),
        (
            "made_game",
            {"defence": {"B": "whist", "C": "pass"}, "tricks": {"A": 5, "B": 3, "C": 2}},
            2,
        ),
        (
            "whisted_game",
            {"defence": {"B": "whist", "C": "pass"}, "tricks": {"A": 5, "B": 3, "C": 2}},
            0,
        ),
        ("whisted_game", {"defence": {"B": "pass", "C": "pass"}}, 2),
    ],
)
def test_next_streak_after_a_contract(reset: str, record: dict[str, Any], streak: int) -> None:
    o = outcome(rules(raspasy_reset=reset), streak=2, game=contract(7, "S"), declarer="A", **record)
    assert next_streak(o) == streak


@pytest.mark.parametrize(
    ("options", "level", "streak"),
    [
        ({"raspasy_reset": "whisted_game", "ten_whisted": False}, 10, 0),  # a checked ten
        ({"raspasy_reset": "made_game", "ten_whisted": False}, 10, 3),  # lost
    ],
)
def test_next_streak_after_a_checked_ten(options: dict[str, Any], level: int, streak: int) -> None:
    o = outcome(
        rules(**options),
        streak=3,
        game=contract(level, "NT"),
        declarer="A",
        tricks={"A": 9, "B": 1, "C": 0},
    )
    assert next_streak(o) == streak


def test_misere_resets_a_whisted_game_streak_even_when_lost() -> None:
    o = outcome(
        rules(raspasy_reset="whisted_game"),
        streak=3,
        game={"type": "misere"},
        declarer="A",
        tricks={"A": 1, "B": 4, "C": 5},
    )
    assert next_streak(o) == 0


def test_help_to_next_takes_the_first_seat_after_the_declarer() -> None:
    sheet = {"pool": {"A": 18, "B": 15, "C": 19}, "mountain": {"A": 0, "B": 0, "C": 0}}
    result = run(
        rules(help_to="next"),
        sheet=sheet,
        game=contract(8, "H"),
        declarer="A",
        defence={"B": "pass", "C": "pass"},
    )
    assert result["help"] == [{"from": "A", "to": "B", "points": 4, "whists": 40}]


def test_help_ties_go_to_the_first_seat_after_the_giver() -> None:
    """B overflows; A and C are tied at 10: C, the first after B, is helped first."""
    sheet = {"pool": {"A": 10, "B": 19, "C": 10}, "mountain": {"A": 0, "B": 0, "C": 0}}
    result = run(
        rules(),
        sheet=sheet,
        game=contract(6, "S"),
        declarer="B",
        defence={"C": "pass", "A": "pass"},
    )
    assert result["help"] == [{"from": "B", "to": "C", "points": 1, "whists": 10}]


def test_help_write_off_uses_both_point_values() -> None:
    """``M_i −= E·K_P/K_M``: Leningrad-like 20/10 doubles the write-off."""
    sheet = {"pool": {"A": 18, "B": 20, "C": 20}, "mountain": {"A": 0, "B": 0, "C": 0}}
    result = run(
        rules(pool_point_whists=20),
        sheet=sheet,
        game=contract(7, "H"),
        declarer="A",
        defence={"B": "pass", "C": "pass"},
    )
    assert result["help"] == [{"from": "A", "to": None, "points": 2, "mountain": -4}]


def test_raspasy_zero_bonuses_help_in_order_from_first_hand() -> None:
    """Two zero bonuses in a 4-player closed-talon raspasy: A's first, the dealer's last."""
    sheet = {
        "pool": {"A": 20, "B": 19, "C": 20, "D": 20},
        "mountain": {"A": 0, "B": 0, "C": 0, "D": 0},
    }
    result = run(
        rules("rostov"),
        FOUR,
        sheet=sheet,
        game={"type": "raspasy"},
        tricks={"A": 0, "B": 4, "C": 6},
    )
    assert result["help"] == [
        {"from": "A", "to": "B", "points": 1, "whists": 10},
        {"from": "D", "to": None, "points": 1, "mountain": -1},
    ]
    assert result["game_over"] is True


def test_sum_game_end_has_no_cap_and_no_help() -> None:
    r = rules("leningrad")
    sheet = {"pool": {"A": 25, "B": 20, "C": 12}, "mountain": {"A": 0, "B": 0, "C": 0}}
    result = run(
        r,
        sheet=sheet,
        game=contract(7, "H"),
        declarer="A",
        defence={"B": "pass", "C": "pass"},
    )
    assert result["help"] == []
    assert result["sheet"]["pool"] == {"A": 29, "B": 20, "C": 12}
    assert result["game_over"] is True  # 61 ≥ 3·20


def test_a_sheet_that_is_already_over_is_refused() -> None:
    sheet = {"pool": {"A": 20, "B": 20, "C": 20}, "mountain": {"A": 0, "B": 0, "C": 0}}
    with pytest.raises(EngineError) as e:
        run(rules(), sheet=sheet, game={"type": "raspasy"}, tricks={"A": 0, "B": 4, "C": 6})
    assert e.value.at == "sheet"


def test_the_sheet_after_adds_the_entry_to_the_sheet_before() -> None:
    sheet = {
        "pool": {"A": 4, "B": 2, "C": 0},
        "mountain": {"A": 10, "B": 0, "C": 3},
        "whists": {"B": {"A": 5}, "A": {"C": 7}},
    }
    result = run(
        rules(),
        sheet=sheet,
        game=contract(7, "H"),
        declarer="A",
        defence={"B": "whist", "C": "pass"},
        tricks={"A": 5, "B": 3, "C": 2},
    )
    assert result["sheet"] == {
        "pool": {"A": 4, "B": 2, "C": 0},
        "mountain": {"A": 18, "B": 0, "C": 3},
        "whists": {"A": {"C": 7}, "B": {"A": 33}, "C": {"A": 8}},
    }
    assert result["game_over"] is False


# --- the score-sheet entry (§13) ------------------------------------------------------------


@pytest.mark.parametrize(
    "record",
    [
        {
            "game": contract(7, "H"),
            "declarer": "A",
            "defence": {"B": "whist", "C": "pass"},
            "mode": "open",
            "tricks": {"A": 7, "B": 2, "C": 1},
        },
        {"game": contract(6, "S"), "declarer": "B", "defence": {"C": "pass", "A": "half"}},
        {"game": {"type": "misere"}, "declarer": "C", "tricks": {"A": 4, "B": 6, "C": 0}},
        {"game": {"type": "raspasy"}, "tricks": {"A": 4, "B": 6, "C": 0}},
    ],
)
def test_entry_json_gives_the_entry_back(record: dict[str, Any]) -> None:
    assert entry_json(outcome(rules(), **record)) == record


@pytest.mark.parametrize(
    ("record", "at"),
    [
        ({"declarer": "A"}, "game"),
        ({"game": {"type": "grand"}}, "game"),
        ({"game": {"type": "contract", "level": 5, "strain": "S"}}, "game.level"),
        ({"game": {"type": "contract", "level": True, "strain": "S"}}, "game.level"),
        ({"game": {"type": "contract", "level": 6, "strain": "X"}}, "game.strain"),
        ({"game": {"type": "misere", "level": 6}}, "game.level"),
        ({"game": contract(6, "S"), "declarer": "D"}, "declarer"),
        ({"game": contract(6, "S"), "declarer": "A"}, "defence"),
        ({"game": contract(6, "S"), "declarer": "A", "defence": {"B": "whist"}}, "defence.C"),
        (
            {"game": contract(6, "S"), "declarer": "A", "defence": {"A": "pass", "B": "pass"}},
            "defence.A",
        ),
        # half only by the second defender, after a pass, on a 6 or 7
        (
            {"game": contract(6, "S"), "declarer": "A", "defence": {"B": "half", "C": "pass"}},
            "defence.B",
        ),
        (
            {"game": contract(6, "S"), "declarer": "A", "defence": {"B": "whist", "C": "half"}},
            "defence.C",
        ),
        (
            {"game": contract(8, "S"), "declarer": "A", "defence": {"B": "pass", "C": "half"}},
            "defence.C",
        ),
        # mode only with one whister
        (
            {
                "game": contract(6, "S"),
                "declarer": "A",
                "defence": {"B": "whist", "C": "whist"},
                "mode": "open",
                "tricks": {"A": 6, "B": 2, "C": 2},
            },
            "mode",
        ),
        (
            {
                "game": contract(6, "S"),
                "declarer": "A",
                "defence": {"B": "whist", "C": "pass"},
                "mode": "dark",
                "tricks": {"A": 6, "B": 2, "C": 2},
            },
            "mode",
        ),
        # tricks: absent when nothing was played, present otherwise, summing to 10
        (
            {
                "game": contract(6, "S"),
                "declarer": "A",
                "defence": {"B": "pass", "C": "pass"},
                "tricks": {"A": 6, "B": 2, "C": 2},
            },
            "tricks",
        ),
        (
            {"game": contract(6, "S"), "declarer": "A", "defence": {"B": "whist", "C": "pass"}},
            "tricks",
        ),
        ({"game": {"type": "raspasy"}, "tricks": {"A": 3, "B": 3, "C": 3}}, "tricks"),
        ({"game": {"type": "raspasy"}, "tricks": {"A": 4, "B": 6}}, "tricks.C"),
        ({"game": {"type": "raspasy"}, "tricks": {"A": 4, "B": 6, "C": 0, "Z": 0}}, "tricks.Z"),
        ({"game": {"type": "raspasy"}, "tricks": {"A": 4, "B": 7, "C": -1}}, "tricks.C"),
        (
            {"game": {"type": "raspasy"}, "declarer": "A", "tricks": {"A": 4, "B": 6, "C": 0}},
            "declarer",
        ),
        ({"game": {"type": "raspasy"}}, "tricks"),
        (
            {"game": {"type": "misere"}, "declarer": "A", "defence": {"B": "pass", "C": "pass"}},
            "defence",
        ),
        ({"game": {"type": "raspasy"}, "tricks": {"A": 4, "B": 6, "C": 0}, "pot": 0}, "pot"),
        ({"game": {"type": "raspasy"}, "tricks": {"A": 4, "B": 6, "C": 0}, "extra": 1}, "extra"),
    ],
)
def test_a_bad_entry_is_refused_naming_the_key(record: dict[str, Any], at: str) -> None:
    with pytest.raises(EngineError) as e:
        outcome(rules(), **record)
    assert e.value.at == at
    assert e.value.message


def test_a_checked_ten_has_no_defence() -> None:
    with pytest.raises(EngineError) as e:
        outcome(
            rules(ten_whisted=False),
            game=contract(10, "S"),
            declarer="A",
            defence={"B": "whist", "C": "whist"},
            tricks={"A": 10, "B": 0, "C": 0},
        )
    assert e.value.at == "defence"


def test_the_dealer_is_in_the_tricks_only_in_a_talon_led_four_player_raspasy() -> None:
    with pytest.raises(EngineError) as e:
        outcome(rules(), FOUR, game={"type": "raspasy"}, tricks={"A": 4, "B": 6, "C": 0})
    assert e.value.at == "tricks.D"
    with pytest.raises(EngineError) as e:
        outcome(
            rules("rostov"), FOUR, game={"type": "raspasy"}, tricks={"A": 4, "B": 6, "C": 0, "D": 0}
        )
    assert e.value.at == "tricks.D"


@pytest.mark.parametrize(
    ("exit", "streak", "level", "ok"),
    [
        ([7], 0, 6, True),
        ([7], 1, 6, False),  # §8.4: a 6 cannot be bid after one raspasy under "7-7-7"
        ([7], 1, 7, True),
        ([6, 7, 8], 2, 7, True),
        ([6, 7, 8], 3, 7, False),
        ([6, 7, 8], 9, 8, True),
    ],
)
def test_an_entry_below_the_exit_minimum_is_refused(
    exit: list[int], streak: int, level: int, ok: bool
) -> None:
    record = {
        "game": contract(level, "S"),
        "declarer": "A",
        "defence": {"B": "pass", "C": "pass"},
    }
    if ok:
        outcome(rules(raspasy_exit=exit), streak=streak, **record)
    else:
        with pytest.raises(EngineError) as e:
            outcome(rules(raspasy_exit=exit), streak=streak, **record)
        assert e.value.at == "game.level"


def test_misere_is_exempt_from_the_exit_minimum() -> None:
    o = outcome(
        rules(raspasy_exit=[8]),
        streak=4,
        game={"type": "misere"},
        declarer="A",
        tricks={"A": 0, "B": 4, "C": 6},
    )
    assert o.game == "misere"


def test_the_envelope_keys_are_left_to_the_caller() -> None:
    o = parse_entry(
        {
            "rules": {},
            "seats": [],
            "dealer": "C",
            "streak": 0,
            "game": {"type": "raspasy"},
            "tricks": {"A": 4, "B": 6, "C": 0},
        },
        rules(),
        THREE,
        "C",
        0,
        Sheet.empty(THREE),
    )
    assert o.tricks == {"A": 4, "B": 6, "C": 0}
