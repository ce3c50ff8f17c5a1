"""Invariants of rule sets ``doppelkopf`` and ``doppelkopf-ddv`` over random, legally played
deals (``spec/next/doppelkopf.md``): the Augen of the two parties sum to 240, the Re party is
who the cards and the reservations make it, and the settlement sums to zero with the Kasse.

Hypothesis draws the table (one of the rule set's example rules, a dealer, a Kasse or the seats
owing a Pflichtsolo, a Vorführung), a shuffled deck dealt the rule set's way (now and then with
both CQ moved into one hand, so that Hochzeiten and stille Soli occur), and how the seats
behave: which reservations they prefer and, under the DDV rules, how often someone announces.
The hand is played through the engine's public functions only (``engine.replay``,
``engine.to_act``, ``engine.legal_actions``, ``engine.apply``), as
``tests/engine/test_conformance.py`` plays, and read back as its record (``engine.to_record``),
its Result (``engine.settle``) and the spectator's view at the end (``engine.view``). What the
checks expect is worked out here from the spec, not asked of the engine: the card points, the
game the reservations make, the Hochzeit's partner from the tricks' leaders and winners.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import engine
from engine.actions import Action, action_to_json
from engine.rules import AnyRuleSet
from tests.draws import draws

RULE_SETS = [engine.rule_set("doppelkopf"), engine.rule_set("doppelkopf-ddv")]
SEATS = ("anna", "bert", "carl", "dora")
MAX_ACTIONS = 200
"""4 reservations, 48 cards and at most 2 x 5 announcements: a hand ends well within this."""

AUGEN = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
"""Card points by rank: "A 11, T 10, K 4, Q 3, J 2, 9 0; 240 in all"."""
TOTAL_AUGEN = 240
KASSEN = (0, 35, 100, 1000)
"""``doppelkopf``: an empty Kasse (refills), a small one, the usual, a large one."""
STYLES = {
    "healthy": ("none", "hochzeit"),
    "hochzeit": ("hochzeit", "none"),
    "any": (),
}
"""How the seats reserve: the first of these words each seat may send, 19 times in 20 (as the
random bot); else (and always under ``any``) any of its legal reservations, uniformly."""
ANNOUNCE_SHARES = (0.0, 0.05, 0.5)
"""DDV: how often, before each action, one of the announcements in time is made."""

by_rule_set = pytest.mark.parametrize("rs", RULE_SETS, ids=[rs.name for rs in RULE_SETS])


@dataclass(frozen=True)
class Deal:
    """A deal about to be played: its record (no actions yet) and how the seats behave."""

    record: dict[str, Any]
    style: str
    announce_share: float
    seed: int


@dataclass(frozen=True)
class Finished:
    """A deal played to the end: its record, its Result and the spectator's view."""

    record: dict[str, Any]
    result: dict[str, Any]
    view: dict[str, Any]


def with_both_queens(deal: dict[str, list[str]], seat: str) -> dict[str, list[str]]:
    """``deal`` with both CQ in ``seat``'s hand: a CQ held elsewhere changes places with one of
    ``seat``'s other cards (every hand keeps 12 cards)."""
    out = {s: list(cards) for s, cards in deal.items()}
    for other in out:
        if other != seat and "CQ" in out[other]:
            mine = next(i for i, c in enumerate(out[seat]) if c != "CQ")
            theirs = out[other].index("CQ")
            out[seat][mine], out[other][theirs] = out[other][theirs], out[seat][mine]
    return out


@st.composite
def deals(draw: st.DrawFn, rs: AnyRuleSet) -> Deal:
    rules = draw(st.sampled_from(rs.examples))
    dealer = draw(st.sampled_from(SEATS))
    order = rs.active_seats(SEATS, dealer)
    carry: dict[str, Any]
    if rs.name == "doppelkopf":
        carry = {"kasse": draw(st.sampled_from(KASSEN))}
    else:
        owed = draw(st.lists(st.sampled_from(SEATS), unique=True, max_size=4))
        carry = {"pflicht_owed": owed}
        if order[0] in owed and draw(st.booleans()):  # forehand is vorgeführt: he must solo
            carry["vorfuehrung"] = order[0]
    seed = draw(st.integers(0, 2**32 - 1))
    deck, _ = rs.shuffled_deck(random.Random(seed))
    deal = rs.deal_from_deck(deck, order)
    if draw(st.booleans()):
        deal = with_both_queens(deal, draw(st.sampled_from(SEATS)))
    record = {"rules": rules, "seats": list(SEATS), "dealer": dealer, **carry, "deal": deal}
    share = draw(st.sampled_from(ANNOUNCE_SHARES)) if rs.name == "doppelkopf-ddv" else 0.0
    style = draw(st.sampled_from(list(STYLES)))
    return Deal({**record, "actions": []}, style, share, seed)


def reserve(rs: AnyRuleSet, options: list[Action], style: str, rng: random.Random) -> Action:
    """A reservation among ``options`` (:data:`STYLES`)."""
    if rng.random() < 0.95:
        for word in STYLES[style]:
            for action in options:
                if action_to_json(action, rs.deck)["reservation"] == word:
                    return action
    return rng.choice(options)


def play(rs: AnyRuleSet, deal: Deal) -> Finished:
    """``deal`` played to the end through ``to_act`` and ``legal_actions``: before each action,
    with ``announce_share``, one of the announcements in time (any seat's, uniformly); else
    the reservation (:func:`reserve`) or a card (uniformly) of the seat whose turn it is."""
    rng = random.Random(deal.seed)
    state = engine.replay(deal.record)
    for _ in range(MAX_ACTIONS):
        who = sorted(engine.to_act(state))
        if not who:
            record = engine.to_record(state)
            return Finished(record, engine.settle(record), engine.view(state, None))
        legal = [a for seat in who for a in engine.legal_actions(state, seat)]
        said = [a for a in legal if a.KEY == "announce"]
        own = [a for a in legal if a.KEY != "announce"]
        if said and (not own or rng.random() < deal.announce_share):
            action = rng.choice(said)
        elif own[0].KEY == "reservation":
            action = reserve(rs, own, deal.style, rng)
        else:
            action = rng.choice(own)
        state = engine.apply(state, action)
    raise AssertionError(f"the hand did not end within {MAX_ACTIONS} actions")


# --- what the spec says the deal comes to ----------------------------------------------------


def augen(trick: dict[str, Any]) -> int:
    """A trick's Augen, from its cards."""
    return sum(AUGEN[c["card"][1]] for c in trick["cards"])


def hochzeit_partner(
    bride: str, tricks: list[dict[str, Any]], ddv: bool, deadline: int | None
) -> str | None:
    """The Hochzeit's partner (None: the bride plays alone). ``doppelkopf``: the leader of the
    first trick another player led and the bride won, within ``hochzeit_deadline`` tricks when
    set; DDV: the winner of the first of tricks 1-3 the bride does not win."""
    if ddv:
        return next((t["winner"] for t in tricks[:3] if t["winner"] != bride), None)
    for n, trick in enumerate(tricks, start=1):
        if deadline is not None and n > deadline:
            return None
        if trick["leader"] != bride and trick["winner"] == bride:
            return str(trick["leader"])
    return None


def expected_game(done: Finished) -> tuple[dict[str, Any], list[str]]:
    """The game (its score-sheet form) and the Re party, in playing order from forehand, that
    the deal and the reservations make ("Reservations and game types", "Parties").

    ``doppelkopf``: the first ``solo`` or ``karlchen`` in playing order; else a Hochzeit; else
    exactly one ``secret_solo``; else a normal game, Re the two CQ holders. DDV: the first
    Pflichtsolo (its soloist owes one), else the first Lustsolo; else a Hochzeit; else a stilles
    Solo of a player holding both CQ; else a normal game."""
    record = done.record
    ddv = record["rules"]["variant"] == "doppelkopf-ddv"
    rs = engine.rule_set(record["rules"]["variant"])
    order = list(rs.active_seats(record["seats"], record["dealer"]))
    said = {a["seat"]: a["reservation"] for a in record["actions"] if "reservation" in a}
    assert list(said) == order, "each player reserves once, in playing order from forehand"
    queens = {seat: record["deal"][seat].count("CQ") for seat in order}
    solos = [s for s in order if isinstance(said[s], dict) or said[s] == "karlchen"]
    if ddv:
        owed = [s for s in solos if s in record.get("pflicht_owed", [])]
        if solos:
            soloist = (owed or solos)[0]
            kind = {"type": "solo", "kind": said[soloist]["solo"], "pflicht": bool(owed)}
            return kind, [soloist]
    elif solos:
        soloist = solos[0]
        if said[soloist] == "karlchen":
            return {"type": "karlchen"}, [soloist]
        return {"type": "solo", "trump": said[soloist]["solo"]}, [soloist]
    brides = [s for s in order if said[s] == "hochzeit"]
    if brides:
        bride = brides[0]
        assert queens[bride] == 2, "only a player holding both CQ announces a Hochzeit"
        deadline = None if ddv else record["rules"].get("hochzeit_deadline")
        partner = hochzeit_partner(bride, done.view["tricks"], ddv, deadline)
        return {"type": "hochzeit"}, [s for s in order if s in (bride, partner)]
    if ddv:
        both = [s for s in order if queens[s] == 2]
        if both:
            return {"type": "silent_solo"}, both
    else:
        secret = [s for s in order if said[s] == "secret_solo"]
        if len(secret) == 1:
            return {"type": "secret_solo"}, secret
    return {"type": "normal"}, [s for s in order if queens[s]]


# ---------------------------------------------------------------------------------------------


@by_rule_set
@settings(max_examples=draws(80))
@given(data=st.data())
def test_the_augen_of_the_two_parties_sum_to_240(rs: AnyRuleSet, data: st.DataObject) -> None:
    """Every trick's Augen are its cards' points, all twelve come to 240, and each party's Augen
    in the Result are those of the tricks its members won (Karlchen Müller: no Augen count,
    ``points`` is null)."""
    done = play(rs, data.draw(deals(rs)))
    tricks = done.view["tricks"]
    assert len(tricks) == 12
    assert [t["augen"] for t in tricks] == [augen(t) for t in tricks]
    assert sum(augen(t) for t in tricks) == TOTAL_AUGEN
    points = done.result["points"]
    if points is None:
        assert done.result["game"] == {"type": "karlchen"}
        return
    re = sum(augen(t) for t in tricks if t["winner"] in done.result["re"])
    assert points == {"re": re, "kontra": TOTAL_AUGEN - re}
    assert points["re"] + points["kontra"] == TOTAL_AUGEN


@by_rule_set
@settings(max_examples=draws(80))
@given(data=st.data())
def test_the_parties_are_who_the_cards_and_the_reservations_make_them(
    rs: AnyRuleSet, data: st.DataObject
) -> None:
    """Each seat played exactly the cards it was dealt; the game and the Re party are what the
    reservations and the cards make them (:func:`expected_game`): in a normal game the two CQ
    holders, in any solo the soloist alone, in a Hochzeit the bride and the partner the tricks
    name; the spectator's view at the end shows the same parties."""
    done = play(rs, data.draw(deals(rs)))
    played: dict[str, Counter[str]] = {seat: Counter() for seat in SEATS}
    for trick in done.view["tricks"]:
        for card in trick["cards"]:
            played[card["seat"]][card["card"]] += 1
    assert played == {seat: Counter(cards) for seat, cards in done.record["deal"].items()}
    game, re = expected_game(done)
    event(f"{game['type']}{' pflicht' if game.get('pflicht') else ''}, Re of {len(re)}")
    assert done.result["game"] == game
    assert done.result["re"] == re
    order = rs.active_seats(SEATS, done.record["dealer"])
    kontra = [s for s in order if s not in re]
    assert done.view["parties"] == {"re": re, "kontra": kontra}


@by_rule_set
@settings(max_examples=draws(80))
@given(data=st.data())
def test_the_settlement_sums_to_zero_with_the_kasse(rs: AnyRuleSet, data: st.DataObject) -> None:
    """The transfers make each seat's ``delta`` (and the Kasse after the deal); the deltas and
    the change of the Kasse sum to zero (``sum(delta) + kasse − kasse_before == 0``), the Kasse
    never goes negative. DDV, paid player to player: the deltas sum to zero, and so do the game
    points, each seat's delta its points times ``point_value``."""
    done = play(rs, data.draw(deals(rs)))
    result = done.result
    delta = result["delta"]
    assert list(delta) == list(rs.active_seats(SEATS, done.record["dealer"]))
    net = dict.fromkeys(delta, 0)
    kasse = done.record.get("kasse", 0)
    for t in result["transfers"]:
        assert type(t["amount"]) is int and t["amount"] > 0 and t["from"] != t["to"]
        for who, sign in ((t["from"], -1), (t["to"], 1)):
            if who == "kasse":
                kasse += sign * t["amount"]
            else:
                net[who] += sign * t["amount"]
    assert net == delta
    if rs.name == "doppelkopf":
        assert kasse == result["kasse"] >= 0
        assert sum(delta.values()) + result["kasse"] - done.record["kasse"] == 0
    else:
        assert kasse == 0 and "kasse" not in result
        assert sum(delta.values()) == 0
        assert sum(result["score"].values()) == 0
        point_value = rs.parse_rules(done.record["rules"]).point_value
        assert delta == {seat: score * point_value for seat, score in result["score"].items()}
