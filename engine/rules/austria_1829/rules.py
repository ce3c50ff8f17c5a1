"""``austria-1829`` as data and a few rules (``spec/next/austria-variants.md``,
"austria-1829")."""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.errors import Message
from engine.options import CHOICE, Option
from engine.rules.family.actions import Forced, Second, TakeTalon
from engine.rules.family.austria import (
    ANTE,
    FORCED_PLAYER,
    JUMP_BIDS,
    MUST_HEAD,
    MUST_TRUMP,
    UNIT,
    AustrianFamily,
)
from engine.rules.family.game import SUITS, Game, Rules, make_game
from engine.rules.family.hand import Hand
from engine.rules.family.outcome import Outcome
from engine.rules.family.phases import DISCARD, FORCED, SECOND, TALON
from engine.rules.family.settle import POT
from engine.rules.family.spec import Ladder
from engine.transfers import Book

CALLS = ("C", "S", "D", "H")

OPTIONS: tuple[Option, ...] = (
    UNIT,
    ANTE,
    MUST_TRUMP,
    MUST_HEAD,
    Option(
        "jump_bids",
        JUMP_BIDS.kind,
        "a bid may skip suits; false: each bid is the next suit (H as the very first bid, "
        "Préférence, stays allowed)",
        default=True,
    ),
    Option(
        "hand_value",
        CHOICE,
        "a game without the talon: the same value, or double (the seed's footnote c)",
        default="same",
        choices=("same", "double"),
    ),
    Option(
        "walkover_value",
        CHOICE,
        "both defenders home: the value of the declared suit, or of the winning bid (footnote a)",
        default="declared",
        choices=("declared", "bid"),
    ),
    Option(
        "forced_player",
        FORCED_PLAYER.kind,
        "after forehand's second pass: rearhand must pick up the talon, or the deal is thrown "
        "in without payment",
        default="rearhand",
        choices=("rearhand", "throw_in"),
    ),
    Option(
        "forced_bete",
        CHOICE,
        "the forced player pays the bête only when he passes, or always",
        default="on_pass",
        choices=("on_pass", "always"),
    ),
)

LADDERS = {
    jumps: Ladder(CALLS, jumps=jumps, hold=True, ends_first=("H",)) for jumps in (True, False)
}
"""austria-variants.md, "austria-1829": a bid must beat the highest bid; ``hold`` (*selbst*) by
an earlier bidder; ``H`` as the very first bid (*Préférence*) ends the auction at once."""


THROWN_IN_NOBODY_FORCED = Message(
    "austria_1829_nobody_forced",
    "with forced_player throw_in nobody is forced: a deal all passed is thrown in "
    '("game": null alone), so there is no forced game or pass',
)
FORCED_PLAYS = Message(
    "austria_1829_forced_plays",
    'a forced player\'s game has forced: "play" (his pass is '
    '{{"game": null, "forced": "pass", "declarer": rearhand}})',
)
FORCED_WITH_TALON = Message(
    "austria_1829_forced_with_talon", "the forced player is rearhand and plays with the talon"
)
BID_WHEN = Message(
    "austria_1829_bid_when",
    "bid is given exactly when walkover_value is bid and both defenders stayed home",
)
BID_SUIT = Message("austria_1829_bid_suit", "the winning bid is C, S, D or H, not {bid}")
BID_AFTER_FORCED = Message(
    "austria_1829_bid_after_forced", "after a forced game the winning bid is C, not {bid}"
)
BID_ABOVE_GAME = Message(
    "austria_1829_bid_above_game",
    "the declared game {game} is below the winning bid {bid}: a declarer declares a suit at "
    "least his bid",
)
FORCED_PASS_NEEDED = Message(
    "austria_1829_forced_pass_needed",
    "with forced_player rearhand a deal nobody played is {rearhand}'s forced pass: "
    '{{"game": null, "forced": "pass", "declarer": "{rearhand}"}} (a thrown-in deal needs '
    "forced_player throw_in)",
)
FORCED_PASSES = Message(
    "austria_1829_forced_passes",
    'a deal without a game has forced: "pass" (his game has forced: "play")',
)
FORCED_DECLARER = Message(
    "austria_1829_forced_declarer", "the forced player is rearhand, {rearhand}, not {declarer}"
)
FORCED_PASS_HAS_NO = Message("austria_1829_forced_pass_has_no", "a forced pass has no {key}")


def number(suit: str) -> int:
    return SUITS.index(suit) + 1


class Family1829(AustrianFamily):
    """austria-1829's answers to the shared machinery."""

    name = "austria-1829"
    phases: tuple[str, ...] = (
        "auction",
        "talon",
        "second",
        "forced",
        "discard",
        "declare",
        "defence",
        "play",
        "done",
    )
    keys: tuple[str, ...] = (
        "call",
        "talon",
        "second",
        "forced",
        "discard",
        "declare",
        "defence",
        "card",
    )
    words = {"second": ("play", "pass"), "forced": ("play", "pass")}
    options = OPTIONS
    vocabulary_calls: tuple[str, ...] = ("pass", *CALLS, "hold")
    sheet_extra_keys: tuple[str, ...] = ("bid", "forced")

    def ladder(self, rules: Rules) -> Ladder:
        return LADDERS[rules["jump_bids"]]

    def won(self, h: Hand, p: int) -> None:
        """The winner chooses to take the talon or to play from the hand."""
        h.phase = TALON
        h.to_act = p

    def all_passed(self, h: Hand) -> None:
        """Forehand's second chance."""
        h.phase = SECOND
        h.to_act = 0

    def legal_special(self, h: Hand) -> list[Action]:
        seat = h.active[h.to_act]
        if h.phase == TALON:
            return [TakeTalon(seat, True), TakeTalon(seat, False)]
        if h.phase == SECOND:
            return [Second(seat, "play"), Second(seat, "pass")]
        return [Forced(seat, "play"), Forced(seat, "pass")]

    def act_special(self, h: Hand, action: Action) -> None:
        p = h.to_act
        if isinstance(action, TakeTalon):
            if action.value:
                h.take_talon(p)
            else:
                h.ask_declare()
        elif isinstance(action, Second):
            if action.word == "play":
                h.declarer, h.bid, h.forced = 0, "C", None
                h.take_talon(0)
            elif h.rules["forced_player"] == "throw_in":
                h.finish("thrown_in")
            else:
                h.declarer, h.bid = 2, "C"
                h.take_talon(2)
                h.phase = FORCED
        else:
            assert isinstance(action, Forced)
            h.forced = action.word
            if action.word == "play":
                h.phase = DISCARD
            else:
                h.finish("forced_pass")

    def declarations(self, h: Hand) -> list[tuple[str, str | int]]:
        """A suit at least the winning bid (after Préférence: H; after a second chance or a
        forced game: any suit)."""
        assert h.bid is not None
        return [("suit", s) for s in SUITS[SUITS.index(h.bid) :]]

    def declared(self, h: Hand, kind: str, level: str | int) -> Game:
        """A game from the hand when the winner did not take the talon."""
        return make_game("suit", level, talon=bool(h.twelve))

    # --- score-sheet entries ------------------------------------------------------------------

    def extra_of(self, h: Hand) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if h.forced:
            out["forced"] = h.forced
        both_home = h.end == "both_home"
        if both_home and h.rules["walkover_value"] == "bid":
            out["bid"] = h.bid
        return out

    def parse_extra(self, record: Any, o: Outcome) -> dict[str, Any]:
        """``bid`` (exactly with ``walkover_value = "bid"`` and both defenders home; never above
        the declared suit, and ``C`` after a forced game) and ``forced: "play"`` (only with
        ``forced_player = "rearhand"``: rearhand's game with the talon)."""
        out: dict[str, Any] = {}
        assert o.game is not None
        if "forced" in record:
            if o.rules["forced_player"] == "throw_in":
                raise THROWN_IN_NOBODY_FORCED.error("forced")
            if record["forced"] != "play":
                raise FORCED_PLAYS.error("forced")
            if o.declarer != o.active[2] or not o.game.talon:
                raise FORCED_WITH_TALON.error("forced")
            out["forced"] = "play"
        need_bid = o.rules["walkover_value"] == "bid" and not o.players
        if need_bid != ("bid" in record):
            raise BID_WHEN.error("bid")
        if need_bid:
            bid = record["bid"]
            if bid not in CALLS:
                raise BID_SUIT.error("bid", bid=repr(bid))
            if "forced" in out and bid != "C":
                raise BID_AFTER_FORCED.error("bid", bid=bid)
            if number(bid) > number(str(o.game.level)):
                raise BID_ABOVE_GAME.error("bid", game=o.game.level, bid=bid)
            out["bid"] = bid
        return out

    def parse_no_game(self, record: Any, base: Outcome) -> Outcome:
        """A deal without a game: with ``forced_player = "throw_in"`` the thrown-in deal
        (``"game": null`` alone); with ``"rearhand"`` the forced player's pass
        (``{"game": null, "forced": "pass", "declarer": rearhand}``), since he must pick up the
        talon and either play or pay the bête."""
        if base.rules["forced_player"] == "throw_in":
            if "forced" in record:
                raise THROWN_IN_NOBODY_FORCED.error("forced")
            return super().parse_no_game(record, base)
        rearhand = base.active[2]
        if "forced" not in record:
            raise FORCED_PASS_NEEDED.error("forced", rearhand=rearhand)
        if record["forced"] != "pass":
            raise FORCED_PASSES.error("forced")
        if record.get("declarer") != rearhand:
            raise FORCED_DECLARER.error(
                "declarer", rearhand=rearhand, declarer=repr(record.get("declarer"))
            )
        for key in ("defence", "tricks", "bid"):
            if key in record and not (key == "tricks" and record[key] == {}):
                raise FORCED_PASS_HAS_NO.error(key, key=key)
        return Outcome(
            base.rules,
            base.seats,
            base.dealer,
            base.carry,
            base.active,
            None,
            rearhand,
            extra={"forced": "pass"},
        )

    def describe_game(self, game: Any) -> str:
        if not game:
            return ""
        text = "Préférence" if game["level"] == "H" else str(game["level"])
        return f"{text}{'' if game.get('talon', True) else ' von der Hand'}"

    # --- settlement ---------------------------------------------------------------------------

    def payments(self, o: Outcome, book: Book) -> tuple[bool | None, dict[str, Any]]:
        """austria-variants.md, "austria-1829", "Settlement" 1–6."""
        r = o.rules
        u = r["unit"]
        forced = o.extra.get("forced")
        if forced == "pass" or (forced == "play" and r["forced_bete"] == "always"):
            assert o.declarer is not None
            book.pay(o.declarer, POT, 10 * u, "bete")
        if o.game is None:
            return None, {}
        d = o.declarer
        assert d is not None
        double = 2 if r["hand_value"] == "double" and not o.game.talon else 1
        t = number(str(o.game.level)) * double * u
        players = o.players
        tricks = o.tricks
        if not players:
            bid = o.extra.get("bid")
            walk = number(bid) * double * u if bid else t
            book.pay(POT, d, 10 * walk, "game")
            return True, {}
        made = tricks[d] >= 6
        failing = [p for p in players if tricks[p] < 2]
        if made and not failing:
            book.pay(POT, d, 10 * t, "game")
            for p in players:
                book.pay(d, p, t * tricks[p], "tricks")
        elif made:
            for f in failing:
                for q in [d, *players]:
                    if q != f:
                        book.pay(f, q, t * tricks[q], "fall")
        else:
            book.pay(d, POT, 10 * t, "fall")
            for f in failing:
                book.pay(f, POT, 10 * t, "fall")
            for p in players:
                book.pay(d, p, t * tricks[p], "tricks")
        return made, {}


AUSTRIA_1829 = Family1829()
