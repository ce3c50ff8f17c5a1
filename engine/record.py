"""Hand records in and out (``spec/hand-record.md``): score-sheet entries (form 1), full
records (form 2), replay, settlement, and the deal commitment of hosted hands."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.actions import action_from_json, action_to_json
from engine.cards import PIQUET, Deck
from engine.errors import EngineError
from engine.play import active_seats, apply, check_table, new_hand
from engine.rules import Rules, parse_rules
from engine.settle import PLAYING, Outcome, premium_made, settle_outcome
from engine.state import Game, Phase, State

COMMON = ("rules", "seats", "dealer", "pot")
SHEET_KEYS = {*COMMON, "game", "declarer", "defence", "tricks", "negotiated"}
FULL_KEYS = {*COMMON, "deal", "actions", "proof"}


#: The keys of the API's answer to ``GET …/hands/{n}/record/``, which holds a record.
ANSWER_KEYS = {"mode", "number", "status", "record", "result"}


def from_answer(data: Any, *, dealt: bool = False) -> Any:
    """The record in the API's answer to ``GET …/hands/{n}/record/`` (``{"mode", "number",
    "status", "record", "result"}``: the record sits in ``record``, its result beside it), or
    ``data`` unchanged when it is a record itself. ``dealt``: the caller needs a hand the
    server dealt (:func:`verify`), so a recorded hand's answer (a score-sheet entry, played
    with real cards) is refused by name."""
    if not (isinstance(data, dict) and "record" in data and set(data) <= ANSWER_KEYS):
        return data
    if dealt and data.get("mode") == "recorded":
        raise EngineError(
            "mode", "a recorded hand was played with real cards: it has no deal to verify"
        )
    record = data["record"]
    if not isinstance(record, dict):
        raise EngineError("record", "record must be a JSON object")
    return record


def is_full_record(record: dict[str, Any]) -> bool:
    """Form 2 (a deal played move by move) rather than form 1 (a score-sheet entry)."""
    return "deal" in record or "actions" in record


def _common(record: Any, allowed: set[str]) -> tuple[Rules, tuple[str, ...], str, int]:
    if not isinstance(record, dict):
        raise EngineError("", "a record must be a JSON object")
    for key in record:
        if key not in allowed:
            raise EngineError(key, f"unknown key {key!r} in this record")
    for key in COMMON:
        if key not in record:
            raise EngineError(key, f"{key} is required")
    rules = parse_rules(record["rules"])
    seats = check_table(record["seats"], record["dealer"], record["pot"])
    return rules, seats, record["dealer"], record["pot"]


# ---------------------------------------------------------------------------------------------
# form 1: score-sheet entry


def parse_sheet(record: Any) -> Outcome:
    """Check a score-sheet entry against the rules and return its :class:`Outcome`."""
    rules, seats, dealer, pot = _common(record, SHEET_KEYS)
    active = active_seats(seats, dealer)
    if "game" not in record:
        raise EngineError("game", "game is required")
    game = _parse_game(record["game"])
    if "tricks" not in record:
        raise EngineError("tricks", "tricks is required")
    tricks = record["tricks"]
    if not isinstance(tricks, dict):
        raise EngineError("tricks", "tricks must map player names to trick counts")
    for seat, n in tricks.items():
        if seat not in active:
            where = "sits out this deal" if seat in seats else "is not a seat"
            raise EngineError(f"tricks.{seat}", f"{seat} {where}")
        if type(n) is not int or not 0 <= n <= 10:
            raise EngineError(f"tricks.{seat}", f"a trick count is a whole number 0..10, not {n!r}")
    negotiated = record.get("negotiated", False)
    if type(negotiated) is not bool:
        raise EngineError("negotiated", "negotiated must be true or false")
    base = Outcome(rules, seats, dealer, pot, active, game=Game("ausfechten"), declarer=None)

    if game.kind == "ausfechten":
        for key in ("declarer", "defence"):
            if key in record:
                raise EngineError(key, f"an Ausfechten has no {key}")
        if negotiated:
            raise EngineError("negotiated", "only a suit game with one defender can be negotiated")
        _need_all(tricks, active, "in an Ausfechten all three players play")
        _sum(tricks, 10, "the tricks of an Ausfechten")
        return replace(base, game=game, declarer=None, tricks=dict(tricks))

    declarer = record.get("declarer")
    if declarer not in active:
        where = "sits out this deal" if declarer in seats else "must be one of the active players"
        raise EngineError("declarer", f"the declarer {declarer!r} {where}")
    others = [p for p in active if p != declarer]

    if game.kind == "premium":
        if "defence" in record:
            raise EngineError("defence", "in a premium game everybody plays; omit defence")
        if negotiated:
            raise EngineError("negotiated", "only a suit game with one defender can be negotiated")
        _need_all(tricks, active, "in a premium game all three players play")
        dec = tricks[declarer]
        opp = sum(tricks[p] for p in others)
        total = dec + opp
        if total > 10:
            raise EngineError("tricks", f"a hand has 10 tricks, not {total}")
        if game.level in (5, 7):
            if dec > 1 or (dec == 0 and total != 10) or total == 0:
                raise EngineError(
                    "tricks",
                    "a misère ends with the declarer's first trick: the declarer has 0 "
                    "tricks of 10, or 1 trick when play stopped there",
                )
        elif opp > 1 or (opp == 0 and dec != 10) or total == 0:
            raise EngineError(
                "tricks",
                "a slam ends with the defenders' first trick: the defenders have 0 "
                "tricks (declarer 10), or 1 when play stopped there",
            )
        return replace(base, game=game, declarer=declarer, tricks=dict(tricks))

    defence = record.get("defence")
    if not isinstance(defence, dict) or set(defence) != set(others):
        raise EngineError("defence", f"defence must give the choice of {others[0]} and {others[1]}")
    for seat, choice in defence.items():
        if choice not in ("play", "home", "invite", "invited"):
            raise EngineError(f"defence.{seat}", f"{choice!r} is not play, home, invite or invited")
    choices = sorted(defence.values())
    if choices not in (["play", "play"], ["home", "play"], ["home", "home"], ["invite", "invited"]):
        raise EngineError(
            "defence", "an invitation needs one defender with invite and the other with invited"
        )
    if pot == 0 and choices != ["play", "play"]:
        raise EngineError(
            "defence", "the pot held only the dealer's contribution, so both defenders had to play"
        )
    players = [declarer, *(p for p in others if defence[p] in PLAYING)]
    for seat, n in tricks.items():
        if seat not in players and n:
            raise EngineError(f"tricks.{seat}", f"{seat} stayed home and took no tricks")
    if len(players) == 1:
        if negotiated:
            raise EngineError("negotiated", "both defenders stayed home: nothing to negotiate")
        return replace(base, game=game, declarer=declarer, defence=dict(defence), tricks={})
    _need_all(tricks, players, "every player who played needs a trick count")
    _sum({p: tricks[p] for p in players}, 10, "the tricks of a suit game")
    if negotiated:
        if len(players) != 2:
            raise EngineError(
                "negotiated", "a split is agreed only with one defender playing and one at home"
            )
        if not 2 <= tricks[players[1]] <= 4:
            raise EngineError("negotiated", "an agreed split gives the defender 2 to 4 tricks")
    return replace(
        base,
        game=game,
        declarer=declarer,
        defence=dict(defence),
        tricks={p: tricks[p] for p in players},
        negotiated=negotiated,
    )


def _parse_game(data: Any) -> Game:
    if not isinstance(data, dict) or "type" not in data:
        raise EngineError("game", 'game must be an object with a "type"')
    kind = data["type"]
    if kind == "ausfechten":
        if set(data) != {"type"}:
            raise EngineError("game", "an Ausfechten game has only a type")
        return Game("ausfechten")
    if kind == "suit":
        if set(data) != {"type", "level", "talon"}:
            raise EngineError(
                "game", 'a suit game is {"type": "suit", "level": "C|S|D|H", "talon": true|false}'
            )
        if data["level"] not in ("C", "S", "D", "H"):
            raise EngineError(
                "game.level", f"a suit game's level is C, S, D or H, not {data['level']!r}"
            )
        if type(data["talon"]) is not bool:
            raise EngineError("game.talon", "talon must be true or false")
        return Game("suit", data["level"], talon=data["talon"])
    if kind == "premium":
        if set(data) != {"type", "level", "hand"}:
            raise EngineError(
                "game", 'a premium game is {"type": "premium", "level": 5..8, "hand": true|false}'
            )
        level = data["level"]
        if type(level) is not int or not 5 <= level <= 8:
            raise EngineError(
                "game.level", f"a premium game's level is 5, 6, 7 or 8, not {level!r}"
            )
        if type(data["hand"]) is not bool:
            raise EngineError("game.hand", "hand must be true or false")
        return Game("premium", level, talon=not data["hand"], hand=data["hand"])
    raise EngineError("game.type", f"game type must be suit, premium or ausfechten, not {kind!r}")


def _need_all(tricks: dict[str, int], players: Sequence[str], why: str) -> None:
    for p in players:
        if p not in tricks:
            raise EngineError(f"tricks.{p}", f"{why}: give {p}'s tricks")


def _sum(tricks: dict[str, int], total: int, what: str) -> None:
    if sum(tricks.values()) != total:
        raise EngineError("tricks", f"{what} must add up to {total}, not {sum(tricks.values())}")


# ---------------------------------------------------------------------------------------------
# form 2: full record


def parse_deal(data: Any, deck: Deck, active: Sequence[str]) -> dict[str, int]:
    """The ``deal`` object as masks, checked: the three active players and the talon."""
    if not isinstance(data, dict):
        raise EngineError("deal", "deal must map each active player and talon to cards")
    expected = {*active, "talon"}
    for key in data:
        if key not in expected:
            raise EngineError(f"deal.{key}", f"{key} does not receive cards in this deal")
    out = {}
    for key in (*active, "talon"):
        if key not in data:
            raise EngineError(f"deal.{key}", f"the deal has no cards for {key}")
        out[key] = deck.parse_hand(data[key], f"deal.{key}")
    return out


def start(record: Any) -> State:
    """The state before the first action of a full record (deal checked)."""
    rules, seats, dealer, pot = _common(record, FULL_KEYS)
    if "deal" not in record:
        raise EngineError("deal", "deal is required in a full record")
    active = active_seats(seats, dealer)
    return new_hand(rules, seats, dealer, pot, parse_deal(record["deal"], PIQUET, active))


def replay(record: Any) -> State:
    """Apply every action of a full record in order; an error names ``actions[i]``."""
    state = start(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise EngineError("actions", "actions must be a list")
    for i, data in enumerate(actions):
        at = f"actions[{i}]"
        action = action_from_json(data, state.deck, at)
        try:
            state = apply(state, action)
        except EngineError as e:
            raise type(e)(at, e.message) from None
    return state


def outcome(state: State) -> Outcome:
    """The score-sheet view of a finished hand."""
    if state.phase is not Phase.DONE:
        who = state.to_act_seat
        raise EngineError(
            "actions", f"the hand is not finished: {who} is to act ({state.phase.value})"
        )
    assert state.game is not None
    base = Outcome(
        state.rules, state.seats, state.dealer, state.pot_before, state.active, state.game, None
    )
    won = dict(zip(state.active, state.won, strict=True))
    if state.declarer is None:
        return replace(base, declarer=None, tricks=won)
    decl = state.active[state.declarer]
    if state.game.kind == "premium":
        return replace(base, declarer=decl, tricks=won)
    defence = {
        state.active[q]: (state.defence[q] or "play") for q in range(3) if q != state.declarer
    }
    if state.end == "both_home":
        return replace(base, declarer=decl, defence=defence, tricks={})
    tricks = {state.active[q]: state.won[q] for q in range(3) if state.playing >> q & 1}
    return replace(
        base, declarer=decl, defence=defence, tricks=tricks, negotiated=state.end == "negotiated"
    )


def settle(record: Any) -> dict[str, Any]:
    """The Result of a score-sheet entry or of a finished full record."""
    if isinstance(record, dict) and is_full_record(record):
        return settle_outcome(outcome(replay(record)))
    return settle_outcome(parse_sheet(record))


def sheet_entry(state: State) -> dict[str, Any]:
    """A finished hand as a score-sheet entry (form 1)."""
    o = outcome(state)
    out: dict[str, Any] = {**common_json(state), "game": o.game.to_json()}
    if o.declarer is not None:
        out["declarer"] = o.declarer
    if o.defence:
        out["defence"] = o.defence
    out["tricks"] = o.tricks
    if o.negotiated:
        out["negotiated"] = True
    return out


def common_json(state: State) -> dict[str, Any]:
    return {
        "rules": state.rules.to_json(),
        "seats": list(state.seats),
        "dealer": state.dealer,
        "pot": state.pot_before,
    }


def to_record(state: State, proof: dict[str, Any] | None = None) -> dict[str, Any]:
    """The full record (form 2) of a hand so far."""
    deck = state.deck
    deal = {seat: deck.codes_of(state.deal[i]) for i, seat in enumerate(state.active)}
    deal["talon"] = deck.codes_of(state.deal[3])
    out = {
        **common_json(state),
        "deal": deal,
        "actions": [action_to_json(a, deck) for a in state.history],
    }
    if proof is not None:
        out["proof"] = proof
    return out


# ---------------------------------------------------------------------------------------------
# deal commitment (hand-record.md, "Deal commitment")


def deal_from_deck(deck_order: Sequence[str], active: Sequence[str]) -> dict[str, list[str]]:
    """Deal a deck order: 3 each from forehand, 2 to the talon, 4 each, 3 each (wien.md)."""
    it = iter(deck_order)
    deal: dict[str, list[str]] = {seat: [] for seat in active}
    deal["talon"] = []
    for count, who in ((3, active), (2, ["talon"]), (4, active), (3, active)):
        for seat in who:
            deal[seat] += [next(it) for _ in range(count)]
    return deal


def commitment(salt: str, deck_order: Sequence[str]) -> str:
    """SHA-256 hex of ``salt + "|" + " ".join(deck)``."""
    return hashlib.sha256(f"{salt}|{' '.join(deck_order)}".encode()).hexdigest()


def verify(record: Any) -> dict[str, Any]:
    """Check a finished hosted hand's deal against its commitment; raises on any mismatch."""
    state = replay(record)
    if state.phase is not Phase.DONE:
        raise EngineError("actions", "the hand is not finished, so its deal is not revealed yet")
    proof = record.get("proof")
    if not isinstance(proof, dict) or set(proof) != {"commitment", "salt", "deck"}:
        raise EngineError("proof", 'proof must be {"commitment", "salt", "deck"}')
    salt, deck_order, digest = proof["salt"], proof["deck"], proof["commitment"]
    if (
        not isinstance(salt, str)
        or len(salt) != 64
        or any(c not in "0123456789abcdef" for c in salt)
    ):
        raise EngineError("proof.salt", "salt must be 64 lowercase hex digits")
    mask = PIQUET.parse_hand(deck_order, "proof.deck")
    if mask != PIQUET.full:
        raise EngineError("proof.deck", "the deck must list all 32 cards once")
    if commitment(salt, deck_order) != digest:
        raise EngineError("proof.commitment", "the commitment does not match salt and deck")
    dealt = deal_from_deck(deck_order, state.active)
    for key, cards in dealt.items():
        if sorted(cards) != sorted(record["deal"][key]):
            raise EngineError(f"deal.{key}", f"{key}'s cards do not follow from the committed deck")
    return {"verified": True, "commitment": digest}


def draw_first_dealer(draws: dict[str, str]) -> str:
    """The seat with the highest drawn card deals first: suits first (C < S < D < H), then
    ranks, so H8 beats CA (wien.md, "Table")."""
    return max(draws, key=lambda seat: PIQUET.parse(draws[seat], f"draws.{seat}"))


__all__ = [
    "PLAYING",
    "commitment",
    "deal_from_deck",
    "draw_first_dealer",
    "outcome",
    "parse_sheet",
    "premium_made",
    "replay",
    "settle",
    "sheet_entry",
    "to_record",
    "verify",
]


def shuffled_deck(rng: Any) -> tuple[list[str], str]:
    """A shuffled deck order and a fresh 64-hex-digit salt drawn from ``rng`` (a
    ``random.Random``; the server passes ``secrets.SystemRandom()``)."""
    order = list(PIQUET.codes)
    rng.shuffle(order)
    salt = f"{rng.getrandbits(256):064x}"
    return order, salt


def deal_masks(deal: dict[str, list[str]]) -> dict[str, int]:
    """A dealt hand (codes) as masks for :func:`engine.play.new_hand`."""
    return {k: PIQUET.parse_hand(v, f"deal.{k}") for k, v in deal.items()}
