"""Score-sheet entries of ``doppelkopf`` and ``doppelkopf-ddv`` (``spec/next/doppelkopf.md``,
"Records" and the DDV "Records"): what an entry gives, every check with its error at the
right key, and ``parse_entry(entry_json(o)) == o`` over random valid entries.

The table of the spec's examples: dealer dora, so anna is forehand and the playing order is
anna, bert, carl, dora. The helpers and strategies here are shared by the Kasse and DDV
tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.rules.doppelkopf.entries import entry_json, parse_entry
from engine.rules.doppelkopf.outcome import Outcome
from tests.draws import draws

ORDER = ("anna", "bert", "carl", "dora")
"""Playing order from forehand with dora dealing."""
CODES = tuple(s + r for s in "CSHD" for r in "9JQKTA")


@dataclass(frozen=True, slots=True)
class KasseTable:
    """The options of a ``doppelkopf`` table that its settlement reads (``base`` 20, ``ante``
    10 as in the spec's examples)."""

    variant: str = "doppelkopf"
    base: int = 20
    ante: int = 10
    ante_each_deal: bool = True
    schneider_below: int = 60
    schneider_re_below: int = 60
    kasse_at_close: str = "carry"


@dataclass(frozen=True, slots=True)
class DdvTable:
    """The options of a ``doppelkopf-ddv`` table (``point_value`` 10 as in D1–D4)."""

    variant: str = "doppelkopf-ddv"
    point_value: int = 10
    second_dulle: bool = False


def kasse_entry(kasse: int, rules: KasseTable | None = None, /, **entry: Any) -> Outcome:
    """A ``doppelkopf`` entry at the examples' table with ``kasse`` before the deal."""
    return parse_entry(entry, rules or KasseTable(), ORDER, kasse, ())


def ddv_entry(pflicht_owed: tuple[str, ...] = (), /, **entry: Any) -> Outcome:
    """A ``doppelkopf-ddv`` entry at the examples' table."""
    return parse_entry(entry, DdvTable(), ORDER, None, pflicht_owed)


def party(re: int, kontra: int) -> dict[str, int]:
    return {"re": re, "kontra": kontra}


NORMAL: dict[str, Any] = {
    "game": {"type": "normal"},
    "re": ["anna", "carl"],
    "points": party(151, 89),
    "tricks": party(8, 4),
    "queen_tricks": party(2, 0),
}
"""The spec's sample entry (Example 1)."""
DDV_NORMAL: dict[str, Any] = {
    "game": {"type": "normal"},
    "re": ["anna", "carl"],
    "points": party(130, 110),
    "tricks": party(7, 5),
    "announcements": {"re": "re", "kontra": None},
    "extras": {"re": ["doppelkopf"], "kontra": ["fox"]},
}
"""D1 as an entry."""
KARLCHEN: dict[str, Any] = {
    "game": {"type": "karlchen"},
    "re": ["dora"],
    "last_trick": {"winner": "dora", "card": "CJ"},
}


# --- what an entry gives ---------------------------------------------------------------------


def test_a_normal_entry_gives_its_parties_points_tricks_and_queen_tricks() -> None:
    """Records: the sample entry; the Kasse before the deal is kept, nothing of the DDV."""
    o = kasse_entry(100, **NORMAL)
    assert o.order == ORDER
    assert o.game == {"type": "normal"}
    assert o.re == ("anna", "carl")
    assert o.points == {"re": 151, "kontra": 89}
    assert o.tricks == {"re": 8, "kontra": 4}
    assert o.queen_tricks == {"re": 2, "kontra": 0}
    assert o.last_trick is None
    assert o.kasse == 100
    assert o.announcements == {"re": None, "kontra": None}
    assert o.extras == {"re": (), "kontra": ()}
    assert o.pflicht_owed == ()


def test_a_trick_of_four_aces_is_taken_though_the_page_says_42_a_trick() -> None:
    """A side suit's ace led, the other copy following, two players void there throwing
    aces: 44 Augen in one trick, as a played deal gave (the page's Records section says at
    most 42; the engine takes what play can give)."""
    four_aces = changed(NORMAL, points=party(196, 44), tricks=party(11, 1), queen_tricks=None)
    assert kasse_entry(100, **four_aces).points == {"re": 196, "kontra": 44}
    with pytest.raises(EngineError) as err:
        kasse_entry(100, **changed(four_aces, points=party(195, 45)))
    assert "at most 44 Augen" in err.value.message


def test_re_is_kept_in_playing_order_from_forehand() -> None:
    """Result: "``re`` in playing order from forehand", however the entry lists it."""
    assert kasse_entry(0, **{**NORMAL, "re": ["carl", "anna"]}).re == ("anna", "carl")


def test_queen_tricks_are_optional_and_default_to_zero() -> None:
    """Records: "``queen_tricks`` (optional, default 0)"."""
    entry = {k: v for k, v in NORMAL.items() if k != "queen_tricks"}
    assert kasse_entry(0, **entry).queen_tricks == {"re": 0, "kontra": 0}
    assert kasse_entry(0, **{**NORMAL, "queen_tricks": {"re": 1}}).queen_tricks == party(1, 0)


def test_karlchen_gives_its_last_trick_instead_of_points() -> None:
    """Records: "``karlchen`` has, instead of these three, ``last_trick``"."""
    o = kasse_entry(80, **KARLCHEN)
    assert o.points is None and o.tricks is None
    assert o.last_trick == {"winner": "dora", "card": "CJ"}
    assert o.re == ("dora",)


def test_a_ddv_entry_gives_announcements_and_sorted_extras() -> None:
    """DDV Records: ``announcements`` highest level per party, ``extras`` per party; no Kasse."""
    o = ddv_entry(**{**DDV_NORMAL, "extras": {"kontra": ["fox", "doppelkopf"]}})
    assert o.announcements == {"re": "re", "kontra": None}
    assert o.extras == {"re": (), "kontra": ("doppelkopf", "fox")}
    assert o.kasse is None
    assert o.queen_tricks == {"re": 0, "kontra": 0}


def test_ddv_announcements_and_extras_are_optional() -> None:
    entry = {k: v for k, v in DDV_NORMAL.items() if k not in ("announcements", "extras")}
    o = ddv_entry(**entry)
    assert o.announcements == {"re": None, "kontra": None}
    assert o.extras == {"re": (), "kontra": ()}


def test_a_pflichtsolo_is_one_whose_soloist_owes_it() -> None:
    """DDV Records: ``pflicht`` "true exactly when the soloist is in ``pflicht_owed``"."""
    game = {"type": "solo", "kind": "queens", "pflicht": True}
    o = ddv_entry(
        ("carl", "bert"), game=game, re=["carl"], points=party(185, 55), tricks=party(9, 3)
    )
    assert o.game == game
    assert o.pflicht_owed == ("carl", "bert")


def test_entry_json_writes_the_entry_keys_back() -> None:
    assert entry_json(kasse_entry(100, **NORMAL)) == NORMAL
    assert entry_json(kasse_entry(80, **KARLCHEN)) == KARLCHEN
    assert entry_json(ddv_entry(**DDV_NORMAL)) == {
        **DDV_NORMAL,
        "extras": {"re": ["doppelkopf"], "kontra": ["fox"]},
    }


# --- errors, each at its key -----------------------------------------------------------------


def changed(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``base`` with keys replaced; a value of None removes the key."""
    out = {**base, **changes}
    return {k: v for k, v in out.items() if v is not None}


SOLO = {"type": "solo", "trump": "H"}
DDV_SOLO = {"type": "solo", "kind": "H", "pflicht": False}

KASSE_ERRORS = [
    # (entry, at, words of the message)
    (changed(NORMAL, foo=1), "foo", "unknown key 'foo'"),
    (changed(NORMAL, announcements={"re": "re"}), "announcements", "no announcements"),
    (changed(NORMAL, extras={}), "extras", "no extra points"),
    (changed(NORMAL, pflicht_owed=[]), "pflicht_owed", "no Pflichtsolo"),
    (changed(NORMAL, game=None), "game", "names its game"),
    (changed(NORMAL, game="normal"), "game", "must be an object"),
    (changed(NORMAL, game={"type": "grand"}), "game.type", "not 'grand'"),
    (changed(NORMAL, game={"type": "silent_solo"}), "game.type", "not 'silent_solo'"),
    (changed(NORMAL, game={"type": "normal", "trump": "H"}), "game.trump", "has no 'trump'"),
    (changed(NORMAL, game={"type": "solo", "trump": "X"}), "game.trump", "C, S, H, D"),
    (changed(NORMAL, game={"type": "solo"}, re=["carl"]), "game.trump", "not None"),
    (changed(NORMAL, re="anna"), "re", "must be a list"),
    (changed(NORMAL, re=["anna", "eva"]), "re[1]", "'eva' is not a seat"),
    (changed(NORMAL, re=["anna", "anna"]), "re[1]", "named twice"),
    (changed(NORMAL, re=["anna"]), "re", "a normal game has 2 Re player(s), not 1"),
    (changed(NORMAL, game=SOLO), "re", "a solo game has 1 Re player(s), not 2"),
    (changed(NORMAL, game={"type": "hochzeit"}, re=[]), "re", "2 or 1"),
    (changed(NORMAL, points=None), "points", "required"),
    (changed(NORMAL, points=party(150, 89)), "points", "points must sum to 240, not 239"),
    (changed(NORMAL, points={"re": 151, "kontra": 89, "x": 0}), "points.x", "re and kontra"),
    (changed(NORMAL, points={"re": 240}), "points.kontra", "whole number"),
    (changed(NORMAL, points=party(True, 239)), "points.re", "whole number"),
    (changed(NORMAL, points=party(250, -10)), "points.kontra", "whole number ≥ 0"),
    (changed(NORMAL, tricks=party(8, 3)), "tricks", "tricks must sum to 12, not 11"),
    (changed(NORMAL, tricks=None), "tricks", "required"),
    (
        changed(NORMAL, tricks=party(12, 0), queen_tricks=None),
        "points.kontra",
        "kontra took no trick, so it has 0 Augen, not 89",
    ),
    (
        changed(NORMAL, tricks=party(10, 2), queen_tricks=None),
        "points.kontra",
        "at most 88 Augen (44 a trick), not 89",
    ),
    (changed(NORMAL, queen_tricks=party(-1, 0)), "queen_tricks.re", "whole number"),
    (
        changed(NORMAL, game=SOLO, re=["carl"], queen_tricks=party(0, 5)),
        "queen_tricks.kontra",
        "won 4 trick(s), so at most that many with a CQ",
    ),
    (
        changed(NORMAL, game=SOLO, re=["carl"], queen_tricks=party(2, 1)),
        "queen_tricks",
        "at most 2",
    ),
    (changed(NORMAL, queen_tricks=party(1, 1)), "queen_tricks.kontra", "holds both CQ"),
    (
        changed(NORMAL, game={"type": "hochzeit"}, queen_tricks=party(0, 1)),
        "queen_tricks.kontra",
        "holds both CQ",
    ),
    (changed(NORMAL, queen_tricks=party(2, 0), foo=None, last_trick={}), "last_trick", "only"),
    (changed(KARLCHEN, points=party(120, 120)), "points", "Augen do not count"),
    (changed(KARLCHEN, queen_tricks=party(0, 0)), "queen_tricks", "Augen do not count"),
    (changed(KARLCHEN, last_trick=None), "last_trick", "decided by its last trick"),
    (changed(KARLCHEN, last_trick=["dora", "CJ"]), "last_trick", "must be an object"),
    (changed(KARLCHEN, last_trick={"winner": "eva", "card": "CJ"}), "last_trick.winner", "seat"),
    (changed(KARLCHEN, last_trick={"winner": "dora", "card": "CB"}), "last_trick.card", "'CB'"),
    (
        changed(KARLCHEN, last_trick={"winner": "dora", "card": "CJ", "trick": 12}),
        "last_trick.trick",
        "no 'trick'",
    ),
    (changed(KARLCHEN, re=["dora", "anna"]), "re", "1 Re player(s), not 2"),
]


@pytest.mark.parametrize(("entry", "at", "words"), KASSE_ERRORS)
def test_an_invalid_doppelkopf_entry_is_refused_at_its_key(
    entry: dict[str, Any], at: str, words: str
) -> None:
    with pytest.raises(EngineError) as err:
        kasse_entry(100, **entry)
    assert err.value.at == at
    assert words in err.value.message


DDV_ERRORS = [
    (changed(DDV_NORMAL, queen_tricks=party(1, 0)), "queen_tricks", "its schwarz means no trick"),
    (changed(DDV_NORMAL, kasse=100), "kasse", "keeps no Kasse"),
    (changed(DDV_NORMAL, last_trick={}), "last_trick", "no Karlchen Müller"),
    (changed(DDV_NORMAL, game={"type": "karlchen"}), "game.type", "not 'karlchen'"),
    (changed(DDV_NORMAL, game={"type": "secret_solo"}), "game.type", "not 'secret_solo'"),
    (changed(DDV_NORMAL, game={"type": "solo", "trump": "H"}), "game.trump", "no 'trump'"),
    (
        changed(DDV_NORMAL, game={**DDV_SOLO, "kind": "grand"}, re=["bert"], extras=None),
        "game.kind",
        "queens, jacks, C, S, H, D, fleischlos",
    ),
    (
        changed(DDV_NORMAL, game={"type": "solo", "kind": "H"}, re=["bert"], extras=None),
        "game.pflicht",
        "true or false",
    ),
    (
        changed(DDV_NORMAL, game={**DDV_SOLO, "pflicht": True}, re=["bert"], extras=None),
        "game.pflicht",
        "bert owes no Pflichtsolo",
    ),
    (changed(DDV_NORMAL, game={"type": "silent_solo"}), "re", "1 Re player(s), not 2"),
    (changed(DDV_NORMAL, announcements={"re": "kontra"}), "announcements.re", "not 'kontra'"),
    (changed(DDV_NORMAL, announcements={"kontra": "no120"}), "announcements.kontra", "no120"),
    (changed(DDV_NORMAL, announcements={"bert": "re"}), "announcements.bert", "re and kontra"),
    (changed(DDV_NORMAL, announcements="re"), "announcements", "must be an object"),
    (
        changed(DDV_NORMAL, extras={"kontra": ["against_alten"]}),
        "extras.kontra[0]",
        "not entered",
    ),
    (changed(DDV_NORMAL, extras={"re": ["doppelkopf", "dulle"]}), "extras.re[1]", "'dulle'"),
    (changed(DDV_NORMAL, extras={"re": "fox"}), "extras.re", "must be a list"),
    (
        changed(DDV_NORMAL, game={"type": "silent_solo"}, re=["anna"]),
        "extras.re",
        "a solo (a lone bride and a stilles Solo too) has no extra points",
    ),
    (
        changed(DDV_NORMAL, game={"type": "hochzeit"}, re=["anna"]),
        "extras.re",
        "has no extra points",
    ),
    (
        changed(DDV_NORMAL, points=party(240, 0), tricks=party(12, 0), extras={"kontra": ["fox"]}),
        "extras.kontra",
        "kontra took no trick, so it earned no extra points",
    ),
    (
        changed(DDV_NORMAL, extras={"re": ["fox", "fox"], "kontra": ["fox"]}),
        "extras",
        "at most 2 fox in all, not 3",
    ),
    (
        changed(DDV_NORMAL, extras={"re": ["karlchen"], "kontra": ["karlchen"]}),
        "extras",
        "at most 1 karlchen in all, not 2",
    ),
    (
        changed(DDV_NORMAL, extras={"kontra": ["doppelkopf"] * 3}),
        "extras.kontra",
        "kontra has 110 Augen, so at most 2 doppelkopf (one per 40 Augen), not 3",
    ),
]


@pytest.mark.parametrize(("entry", "at", "words"), DDV_ERRORS)
def test_an_invalid_ddv_entry_is_refused_at_its_key(
    entry: dict[str, Any], at: str, words: str
) -> None:
    with pytest.raises(EngineError) as err:
        ddv_entry(**entry)
    assert err.value.at == at
    assert words in err.value.message


def test_a_lustsolo_by_a_seat_that_owes_its_pflichtsolo_is_refused() -> None:
    """DDV Records: a solo by a seat in ``pflicht_owed`` is the Pflichtsolo."""
    entry = changed(DDV_NORMAL, game=DDV_SOLO, re=["bert"], extras=None)
    with pytest.raises(EngineError) as err:
        ddv_entry(("bert",), **entry)
    assert err.value.at == "game.pflicht"
    assert "bert still owes a Pflichtsolo" in err.value.message


def test_the_common_part_is_the_callers() -> None:
    """The envelope keys (``rules``, ``seats``, ``dealer``, the carry) are not refused."""
    envelope = {"rules": {}, "seats": list(ORDER), "dealer": "dora"}
    assert kasse_entry(5, **{**NORMAL, **envelope, "kasse": 5}).kasse == 5
    assert ddv_entry(**{**DDV_NORMAL, **envelope, "pflicht_owed": []}).kasse is None


# --- random valid entries --------------------------------------------------------------------


@st.composite
def counted(draw: st.DrawFn) -> tuple[dict[str, int], dict[str, int]]:
    """``points`` and ``tricks`` as a played deal can give them: 240 and 12 in all, a party
    without a trick 0 Augen, at most 44 a trick (four aces)."""
    re_tricks = draw(st.integers(0, 12))
    kontra_tricks = 12 - re_tricks
    low = max(0, 240 - 44 * kontra_tricks)
    high = min(240, 44 * re_tricks)
    re_points = draw(st.integers(low, high))
    return party(re_points, 240 - re_points), party(re_tricks, kontra_tricks)


RE_SIZES = {
    "normal": (2,),
    "hochzeit": (1, 2),
    "solo": (1,),
    "secret_solo": (1,),
    "karlchen": (1,),
    "silent_solo": (1,),
}


@st.composite
def kasse_rules(draw: st.DrawFn) -> KasseTable:
    return KasseTable(
        base=draw(st.integers(1, 100)),
        ante=draw(st.integers(1, 100)),
        ante_each_deal=draw(st.booleans()),
        schneider_below=draw(st.integers(1, 120)),
        schneider_re_below=draw(st.integers(1, 121)),
        kasse_at_close=draw(st.sampled_from(["carry", "split"])),
    )


@st.composite
def kasse_entries(draw: st.DrawFn) -> dict[str, Any]:
    """A valid ``doppelkopf`` score-sheet entry."""
    kind = draw(st.sampled_from(["normal", "hochzeit", "solo", "secret_solo", "karlchen"]))
    game: dict[str, Any] = {"type": kind}
    if kind == "solo":
        game["trump"] = draw(st.sampled_from("CSHD"))
    size = draw(st.sampled_from(RE_SIZES[kind]))
    re = draw(st.permutations(ORDER))[:size]
    entry: dict[str, Any] = {"game": game, "re": list(re)}
    if kind == "karlchen":
        winner = draw(st.sampled_from(ORDER))
        card = draw(st.sampled_from(["CJ", "CJ", *CODES]))
        return {**entry, "last_trick": {"winner": winner, "card": card}}
    points, tricks = draw(counted())
    queen_re = draw(st.integers(0, min(2, tricks["re"])))
    queen_kontra = 0
    if kind not in ("normal", "hochzeit"):
        # a Heimliches Solo's soloist holds a CQ at least (secret_solo_queens 1)
        kontra_queens = 1 if kind == "secret_solo" else 2
        queen_kontra = draw(st.integers(0, min(2 - queen_re, kontra_queens, tricks["kontra"])))
    entry.update(points=points, tricks=tricks, queen_tricks=party(queen_re, queen_kontra))
    if draw(st.booleans()) and queen_re == queen_kontra == 0:
        del entry["queen_tricks"]
    return entry


RE_WORDS = [None, "re", "no90", "no60", "no30", "schwarz"]
KONTRA_WORDS = [None, "kontra", "no90", "no60", "no30", "schwarz"]


@st.composite
def ddv_entries(draw: st.DrawFn) -> tuple[dict[str, Any], tuple[str, ...]]:
    """A valid ``doppelkopf-ddv`` score-sheet entry and the ``pflicht_owed`` it is read with."""
    owed = tuple(s for s in ORDER if draw(st.booleans()))
    kind = draw(st.sampled_from(["normal", "hochzeit", "solo", "silent_solo"]))
    size = draw(st.sampled_from(RE_SIZES[kind]))
    re = draw(st.permutations(ORDER))[:size]
    game: dict[str, Any] = {"type": kind}
    if kind == "solo":
        game["kind"] = draw(st.sampled_from(["queens", "jacks", "C", "S", "H", "D", "fleischlos"]))
        game["pflicht"] = re[0] in owed
    points, tricks = draw(counted())
    announcements = {
        "re": draw(st.sampled_from(RE_WORDS)),
        "kontra": draw(st.sampled_from(KONTRA_WORDS)),
    }
    extras: dict[str, list[str]] = {"re": [], "kontra": []}
    if size == 2:
        winners = [p for p in ("re", "kontra") if tricks[p]]
        for name, most in (("fox", 2), ("karlchen", 1)):
            for _ in range(draw(st.integers(0, most))):
                extras[draw(st.sampled_from(winners))].append(name)
        for p in winners:
            extras[p] += ["doppelkopf"] * draw(st.integers(0, min(3, points[p] // 40)))
    entry = {
        "game": game,
        "re": list(re),
        "points": points,
        "tricks": tricks,
        "announcements": announcements,
        "extras": extras,
    }
    return entry, owed


@settings(max_examples=draws(200))
@given(kasse_entries(), kasse_rules(), st.integers(0, 1000))
def test_a_doppelkopf_entry_reads_back_from_its_json(
    entry: dict[str, Any], rules: KasseTable, kasse: int
) -> None:
    """``parse_entry(entry_json(o)) == o``."""
    o = kasse_entry(kasse, rules, **entry)
    assert kasse_entry(kasse, rules, **entry_json(o)) == o


@settings(max_examples=draws(200))
@given(ddv_entries())
def test_a_ddv_entry_reads_back_from_its_json(
    drawn: tuple[dict[str, Any], tuple[str, ...]],
) -> None:
    """``parse_entry(entry_json(o)) == o``."""
    entry, owed = drawn
    o = ddv_entry(owed, **entry)
    assert ddv_entry(owed, **entry_json(o)) == o
