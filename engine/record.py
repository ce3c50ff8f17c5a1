"""Hand records in and out (``spec/hand-record.md``), for any rule set: the envelope (``rules``,
``seats``, ``dealer`` and what the table carries, such as ``pot``), score-sheet entries
(form 1), full records (form 2), replay, settlement, and the deal commitment of hosted hands.

The envelope, the deal, the actions list, replay and the commitment are the same for every
rule set; what a score sheet holds, which actions exist and what a deal pays are the rule
set's (``engine.rules.rule_set(variant)``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import action_to_json
from engine.messages import (
    ANSWER_RECORD_NOT_OBJECT,
    DEAL_REQUIRED,
    HAND_NOT_REVEALED,
    KEY_REQUIRED,
    PROOF_CARDS,
    PROOF_COMMITMENT,
    PROOF_DECK,
    PROOF_DECK_COPIES,
    PROOF_PILE_ORDER,
    PROOF_SALT,
    PROOF_SHAPE,
    RECORD_NOT_OBJECT,
    RECORDED_HAND_NOT_DEALT,
    RULES_NOT_OBJECT,
    UNKNOWN_RECORD_KEY,
)
from engine.rules import AnyRuleSet, parse_rules, rule_set
from engine.ruleset import Common, HandState, HasRules
from engine.sealing import commitment

ENVELOPE = ("rules", "seats", "dealer")
FULL_KEYS = frozenset({"deal", "actions", "proof"})


#: The keys of the API's answer to ``GET …/hands/{n}/record/``, which holds a record.
ANSWER_KEYS = {"mode", "number", "status", "record", "result", "timeouts"}


def from_answer(data: Any, *, dealt: bool = False) -> Any:
    """The record in the API's answer to ``GET …/hands/{n}/record/`` (``{"mode", "number",
    "status", "record", "result", "timeouts"}``: the record sits in ``record``, its result and
    the actions a timeout policy played beside it), or
    ``data`` unchanged when it is a record itself. ``dealt``: the caller needs a hand the
    server dealt (:func:`verify`), so a recorded hand's answer (a score-sheet entry, played
    with real cards) is refused by name."""
    if not (isinstance(data, dict) and "record" in data and set(data) <= ANSWER_KEYS):
        return data
    if dealt and data.get("mode") == "recorded":
        raise RECORDED_HAND_NOT_DEALT.error("mode")
    record = data["record"]
    if not isinstance(record, dict):
        raise ANSWER_RECORD_NOT_OBJECT.error("record")
    return record


def _rule_set_named_by(record: dict[str, Any]) -> AnyRuleSet:
    """The rule set a record's ``rules.variant`` names (for knowing its keys before its
    rules are checked); a record without ``rules``, or whose rules name no variant or an
    unknown one, is an error."""
    if "rules" not in record:
        raise KEY_REQUIRED.error("rules", key="rules")
    rules = record["rules"]
    if not isinstance(rules, dict):
        raise RULES_NOT_OBJECT.error("rules")
    return rule_set(rules.get("variant"))


def _common(record: Any, form: str) -> tuple[AnyRuleSet, Common]:
    """The envelope of a record of ``form`` (``"sheet"`` or ``"full"``), checked: no unknown
    keys, the required ones present, the rules, seats, dealer and carry valid."""
    if not isinstance(record, dict):
        raise RECORD_NOT_OBJECT.error("")
    rs = _rule_set_named_by(record)
    required = (*ENVELOPE, *rs.carry.keys)
    allowed = {*required, *rs.carry.optional, *(rs.sheet_keys if form == "sheet" else FULL_KEYS)}
    for key in record:
        if key not in allowed:
            raise UNKNOWN_RECORD_KEY.error(key, key=repr(key))
    for key in required:
        if key not in record:
            raise KEY_REQUIRED.error(key, key=key)
    rules = parse_rules(record["rules"])
    rs = rule_set(rules.variant)
    seats = rs.table.check(record["seats"], record["dealer"])
    carry = rs.read_carry(record)
    return rs, Common(rules, seats, record["dealer"], carry)


def common_json(state: HandState) -> dict[str, Any]:
    """The envelope of a hand's records: rules, seats, dealer and the carry."""
    return {
        "rules": state.rules.to_json(),
        "seats": list(state.seats),
        "dealer": state.dealer,
        **_of(state).carry_json(state),
    }


def _of(state: HandState) -> AnyRuleSet:
    return rule_set(state.rules.variant)


# ---------------------------------------------------------------------------------------------
# form 1: score-sheet entry


def parse_sheet(record: Any) -> Any:
    """Check a score-sheet entry against its rules and return its outcome (the rule set's
    value of a deal as a score sheet records it)."""
    rs, common = _common(record, "sheet")
    return rs.parse_sheet(record, common)


def sheet_entry(state: HandState) -> dict[str, Any]:
    """A finished hand as a score-sheet entry (form 1)."""
    rs = _of(state)
    return {**common_json(state), **rs.sheet_json(rs.outcome(state))}


# ---------------------------------------------------------------------------------------------
# form 2: full record


def start(record: Any) -> HandState:
    """The state before the first action of a full record (deal checked)."""
    rs, common = _common(record, "full")
    if "deal" not in record:
        raise DEAL_REQUIRED.error("deal")
    state: HandState = rs.start_hand(
        common.rules, common.seats, common.dealer, common.carry, record["deal"]
    )
    return state


def replay(record: Any) -> HandState:
    """Apply every action of a full record in order; an error names ``actions[i]``."""
    state = start(record)
    replayed: HandState = _of(state).play_record_actions(state, record.get("actions", []))
    return replayed


def to_record(state: HandState, proof: dict[str, Any] | None = None) -> dict[str, Any]:
    """The full record (form 2) of a hand so far."""
    rs = _of(state)
    deck = rs.deck
    out = {
        **common_json(state),
        "deal": rs.dealt(state),
        "actions": [action_to_json(a, deck) for a in state.history],
    }
    if proof is not None:
        out["proof"] = proof
    return out


# ---------------------------------------------------------------------------------------------
# results


def outcome(state: HandState) -> Any:
    """The score-sheet view of a finished hand (an error before the end)."""
    return _of(state).outcome(state)


def settle_outcome(outcome: HasRules) -> dict[str, Any]:
    """The Result (``hand-record.md``) of an outcome, by its rule set."""
    result: dict[str, Any] = rule_set(outcome.rules.variant).settle_outcome(outcome)
    return result


def _settle_full(record: Any) -> dict[str, Any]:
    return settle_outcome(outcome(replay(record)))


def _settle_entry(record: Any) -> dict[str, Any]:
    return settle_outcome(parse_sheet(record))


def settle(record: Any) -> dict[str, Any]:
    """The Result of a score-sheet entry or of a finished full record; the record's rule set
    routes its forms (``RuleSet.settle_record``: Preferans adds a pulya and a bare
    settlement)."""
    if not isinstance(record, dict):
        return _settle_entry(record)
    return _rule_set_named_by(record).settle_record(record, _settle_full, _settle_entry)


# ---------------------------------------------------------------------------------------------
# dealing and the deal commitment (hand-record.md, "Deal commitment")


def shuffled_deck(rng: random.Random, *, variant: str) -> tuple[list[str], str]:
    """A shuffled order of the rule set's deck and a fresh 64-hex-digit salt drawn from ``rng``
    (a ``random.Random``; the server's rule set passes the system's secret source)."""
    return rule_set(variant).shuffled_deck(rng)


def deal_from_deck(
    deck_order: Sequence[str], active: Sequence[str], *, variant: str
) -> dict[str, list[str]]:
    """Deal a deck order as the rule set deals: for wien 3 each from forehand, 2 to the talon,
    4 each, 3 each (wien.md, "Deal")."""
    return rule_set(variant).deal_from_deck(deck_order, active)


def deal_masks(deal: Mapping[str, list[str]], *, variant: str) -> dict[str, int]:
    """A dealt hand (codes) as masks for :func:`engine.play.new_hand`."""
    deck = rule_set(variant).deck
    out: dict[str, int] = {}
    taken = 0
    for k, v in deal.items():
        out[k] = deck.parse_hand(v, f"deal.{k}", taken)
        taken |= out[k]
    return out


def verify(record: Any) -> dict[str, Any]:
    """Check a finished hosted hand's deal against its commitment; raises on any mismatch.
    Answers ``{"verified": true, "commitment", "result"}`` (``austria-variants.md``,
    "Records"), the result being the hand's settlement."""
    state = replay(record)
    if not state.is_over:
        raise HAND_NOT_REVEALED.error("actions")
    rs = _of(state)
    proof = record.get("proof")
    if not isinstance(proof, dict) or set(proof) != {"commitment", "salt", "deck"}:
        raise PROOF_SHAPE.error("proof")
    salt, deck_order, digest = proof["salt"], proof["deck"], proof["commitment"]
    if (
        not isinstance(salt, str)
        or len(salt) != 64
        or any(c not in "0123456789abcdef" for c in salt)
    ):
        raise PROOF_SALT.error("proof.salt")
    deck = rs.deck
    if deck.parse_hand(deck_order, "proof.deck") != deck.full:
        if deck.copies == 1:
            raise PROOF_DECK.error("proof.deck", size=deck.size)
        raise PROOF_DECK_COPIES.error("proof.deck", size=deck.size, copies=deck.copies)
    if commitment(salt, deck_order) != digest:
        raise PROOF_COMMITMENT.error("proof.commitment")
    dealt = rs.deal_from_deck(deck_order, state.active)
    for key, cards in dealt.items():
        if key in rs.ordered_piles and cards != record["deal"][key]:
            raise PROOF_PILE_ORDER.error(f"deal.{key}", pile=key)
        if sorted(cards) != sorted(record["deal"][key]):
            raise PROOF_CARDS.error(f"deal.{key}", key=key)
    return {"verified": True, "commitment": digest, "result": rs.settle_outcome(rs.outcome(state))}


def draw_first_dealer(draws: dict[str, str], *, variant: str) -> str:
    """The seat with the highest drawn card deals first; for Préférence suits count first
    (C < S < D < H), then ranks, so H8 beats CA (wien.md, "Table")."""
    return rule_set(variant).first_dealer(draws)


__all__ = [
    "commitment",
    "deal_from_deck",
    "deal_masks",
    "draw_first_dealer",
    "from_answer",
    "outcome",
    "parse_sheet",
    "replay",
    "settle",
    "settle_outcome",
    "sheet_entry",
    "shuffled_deck",
    "start",
    "to_record",
    "verify",
]
