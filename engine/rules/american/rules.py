"""``american`` as data and a few rules (``spec/next/austria-variants.md``, "american")."""

from __future__ import annotations

import itertools
from typing import Any

from engine.actions import Action
from engine.errors import EngineError, IllegalAction, Message
from engine.options import BOOLEAN, CHOICE, INTEGER, OBJECT, Option
from engine.rules.family.actions import Offer, TakeTalon
from engine.rules.family.austria import ANTE, UNIT, AustrianFamily
from engine.rules.family.game import SUITS, Game, Rules, make_game
from engine.rules.family.hand import Hand
from engine.rules.family.outcome import Outcome
from engine.rules.family.phases import DISCARD, OFFER, TALON
from engine.rules.family.settle import POT
from engine.rules.family.spec import Ladder
from engine.transfers import Book
from engine.tricks import FOLLOW, Obligations

CALLS = ("S", "C", "D", "H")
LADDER = Ladder(CALLS, jumps=True, once=True)
"""Round 1: each player once, from forehand, a suit higher than any earlier bid, or pass."""
REWARD = {"S": 1, "C": 2, "D": 3, "H": 4}

TRICK_REWARD = Message(
    "american_trick_reward",
    "trick_reward maps S, C, D and H to whole numbers of units above 0, not {value}",
)
OFFERS_NEEDED = Message(
    "american_offers_needed", "a game with the widow is a round-2 game: give offers"
)
OFFERS_OBJECT = Message(
    "american_offers_object", "offers maps active players to whole numbers of units ≥ 1"
)
DECLARER_OFFER_HIGHEST = Message(
    "american_declarer_offer_highest", "the declarer's offer is the highest"
)
OFFERS_RISING = Message(
    "american_offers_rising",
    "{seat} offered {high} after {before}'s {low}: from forehand on, each offer is more than "
    "every earlier one",
)
OFFER_TOO_LOW = Message(
    "american_offer_too_low",
    "an offer must be more than the highest so far ({top}): {least} units or more, or pass",
    IllegalAction,
)


def check_reward(value: Any, at: str) -> dict[str, int]:
    """``trick_reward``: units per trick for each of the four suits, each a whole number > 0."""
    if (
        not isinstance(value, dict)
        or set(value) != set(CALLS)
        or not all(type(v) is int and v > 0 for v in value.values())
    ):
        raise TRICK_REWARD.error(at, value=repr(value))
    return {s: value[s] for s in CALLS}


OPTIONS: tuple[Option, ...] = (
    UNIT,
    ANTE,
    Option(
        "trick_reward",
        OBJECT,
        "r: units per trick by trump suit",
        default=dict(REWARD),
        check=check_reward,
        schema={
            "type": "object",
            "properties": {s: {"type": "integer", "minimum": 1} for s in CALLS},
            "required": list(CALLS),
            "additionalProperties": False,
        },
        unit="units",
    ),
    Option(
        "reward_mode",
        CHOICE,
        "made: r per trick from the pool (Foster), or r once (USPCC)",
        default="per_trick",
        choices=("per_trick", "contract"),
    ),
    Option(
        "fail_factor",
        INTEGER,
        "a failed declarer pays this × r into the pool",
        default=6,
        minimum=0,
    ),
    Option(
        "offer_paid",
        CHOICE,
        "round-2 offers: only the winner pays his, or every offer is paid when made (USPCC)",
        default="winner",
        choices=("winner", "all"),
    ),
    Option(
        "discard_first",
        BOOLEAN,
        "discard two cards before taking the widow (USPCC)",
        default=False,
    ),
    Option(
        "leader",
        CHOICE,
        "the first lead: the player after the declarer (USPCC), or forehand (whist)",
        default="after_declarer",
        choices=("after_declarer", "forehand"),
    ),
)


class AmericanFamily(AustrianFamily):
    """american's answers to the shared machinery."""

    name = "american"
    phases: tuple[str, ...] = ("auction", "offer", "talon", "discard", "declare", "play", "done")
    keys: tuple[str, ...] = ("call", "offer", "talon", "discard", "declare", "card")
    options = OPTIONS
    vocabulary_calls: tuple[str, ...] = ("pass", *CALLS)
    vocabulary_defences: tuple[str, ...] = ()
    sheet_extra_keys: tuple[str, ...] = ("offers",)

    def ladder(self, rules: Rules) -> Ladder:
        return LADDER

    def won(self, h: Hand, p: int) -> None:
        """Round 1: the bid suit is trumps; the widow is unused."""
        assert h.bid is not None
        h.fix(make_game("suit", h.bid, talon=False))

    def all_passed(self, h: Hand) -> None:
        """Round 2: offers from forehand."""
        h.phase = OFFER
        h.to_act = 0
        h.turns = 0
        h.top = 0

    def legal_special(self, h: Hand) -> list[Action]:
        seat = h.active[h.to_act]
        if h.phase == OFFER:
            return [Offer(seat, None), Offer(seat, h.top + 1)]
        return [TakeTalon(seat, True), TakeTalon(seat, False)]

    def also_legal(self, h: Hand, action: Action) -> bool:
        """Every offer above the lowest legal one."""
        return (
            h.phase == OFFER
            and isinstance(action, Offer)
            and action.units is not None
            and action.units > h.top
        )

    def why(self, h: Hand, action: Action) -> EngineError | None:
        if isinstance(action, Offer) and h.phase == OFFER:
            return OFFER_TOO_LOW.error("", top=h.top, least=h.top + 1)
        return super().why(h, action)

    def act_special(self, h: Hand, action: Action) -> None:
        p = h.to_act
        if isinstance(action, Offer):
            if action.units is not None:
                h.offers[p] = action.units
                h.top = action.units
                h.top_by = p
            h.turns += 1
            if h.turns < 3:
                h.to_act = p + 1
            elif h.top_by < 0:
                h.finish("thrown_in")
            else:
                h.declarer = h.top_by
                h.phase = TALON
                h.to_act = h.top_by
            return
        assert isinstance(action, TakeTalon)
        if not action.value:
            h.ask_declare()
        elif h.rules["discard_first"]:
            h.phase = DISCARD
        else:
            h.take_talon(p)

    def after_discard(self, h: Hand) -> None:
        """With ``discard_first`` the widow comes in after the discard."""
        d = h.declarer
        widow = h.deal[3]
        if not h.twelve:  # the widow was not taken yet
            h.twelve = h.hands[d] | h.talon | widow
            h.hands[d] |= widow
            h.kept = h.hands[d]
            h.talon_seen |= 1 << d
        h.ask_declare()

    def declarations(self, h: Hand) -> list[tuple[str, str | int]]:
        return [("suit", s) for s in SUITS]

    def declared(self, h: Hand, kind: str, level: str | int) -> Game:
        """Talon true when the winner of round 2 took the widow."""
        return make_game("suit", level, talon=bool(h.talon_seen >> h.declarer & 1))

    def has_defence(self, h: Hand) -> bool:
        return False

    def leader(self, h: Hand) -> int:
        return (h.declarer + 1) % 3 if h.rules["leader"] == "after_declarer" else 0

    def obligations(self, rules: Rules) -> Obligations:
        """Whist: follow suit if able, else any card."""
        return FOLLOW

    # --- score-sheet entries ------------------------------------------------------------------

    def sheet_defence(self, rules: Rules, game: Game) -> tuple[str, ...]:
        return ()

    def extra_of(self, h: Hand) -> dict[str, Any]:
        offers = {h.active[q]: h.offers[q] for q in (0, 1, 2) if h.offers[q]}
        return {"offers": offers} if offers and h.game is not None else {}

    def parse_extra(self, record: Any, o: Outcome) -> dict[str, Any]:
        assert o.game is not None
        if "offers" not in record:
            if o.game.talon:
                raise OFFERS_NEEDED.error("offers")
            return {}
        offers = record["offers"]
        if (
            not isinstance(offers, dict)
            or not offers
            or not all(s in o.active and type(v) is int and v >= 1 for s, v in offers.items())
        ):
            raise OFFERS_OBJECT.error("offers")
        if (
            o.declarer not in offers
            or max(offers.values()) != offers[o.declarer]
            or list(offers.values()).count(offers[o.declarer]) != 1
        ):
            raise DECLARER_OFFER_HIGHEST.error("offers")
        ordered = [(s, offers[s]) for s in o.active if s in offers]
        for (before, low), (seat, high) in itertools.pairwise(ordered):
            if high <= low:
                raise OFFERS_RISING.error("offers", seat=seat, high=high, before=before, low=low)
        return {"offers": {s: offers[s] for s in o.active if s in offers}}

    def describe_game(self, game: Any) -> str:
        if not game:
            return ""
        return f"{game['level']}{' with the widow' if game.get('talon') else ''}"

    # --- settlement ---------------------------------------------------------------------------

    def payments(self, o: Outcome, book: Book) -> tuple[bool | None, dict[str, Any]]:
        """austria-variants.md, "american", "Settlement"."""
        r = o.rules
        u = r["unit"]
        offers = o.extra.get("offers", {})
        for seat, units in offers.items():
            if r["offer_paid"] == "all" or seat == o.declarer:
                book.pay(seat, POT, units * u, "offer")
        if o.game is None:
            return None, {}
        d = o.declarer
        assert d is not None
        reward = r["trick_reward"][str(o.game.level)]
        tricks = o.tricks[d]
        made = tricks >= 6
        if made:
            book.pay(
                POT, d, (reward * tricks if r["reward_mode"] == "per_trick" else reward) * u, "game"
            )
        else:
            book.pay(d, POT, r["fail_factor"] * reward * u, "fall")
        return made, {}


AMERICAN = AmericanFamily()
