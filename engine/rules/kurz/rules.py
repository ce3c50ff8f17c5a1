"""``kurz`` as data and a few rules (``spec/next/kurz.md``): its options, its ladder ``1`` <
``1h`` < ``2`` < ``2h`` < ``3`` < ``3h``, its contracts and its settlement."""

from __future__ import annotations

from typing import Any

from engine.errors import Message
from engine.options import CHOICE, INTEGER, Option
from engine.rules.family.game import SUITS, Game, make_game
from engine.rules.family.hand import Hand
from engine.rules.family.outcome import Outcome
from engine.rules.family.settle import POT
from engine.rules.family.spec import Family, Ladder
from engine.transfers import Book
from engine.tricks import FOLLOW, Obligations

CALLS = ("1", "1h", "2", "2h", "3", "3h")

DEALER_CONTRIBUTION = Message(
    "kurz_dealer_contribution",
    "the dealer contribution must be at least 10 × trick_value ({least}), so that the pot can "
    "pay ten tricks, not {given}",
)
LADDER = Ladder(CALLS, jumps=True)
"""kurz.md, "Deal and auction": any strictly higher call (jumps allowed), no holding; ``h``
beats the plain bid of the same number."""

OPTIONS: tuple[Option, ...] = (
    Option(
        "dealer_contribution",
        INTEGER,
        "paid into the pot by the dealer before each deal; at least 10 × trick_value",
        default=10,
        minimum=1,
        unit="cents",
    ),
    Option(
        "trick_value",
        INTEGER,
        "paid from the pot per trick to each player who played",
        default=1,
        minimum=1,
        unit="cents",
    ),
    Option(
        "fail_multiple",
        INTEGER,
        "a declarer short of 6 tricks pays this many dealer contributions into the pot",
        default=2,
        minimum=1,
    ),
    Option(
        "hand_premium",
        INTEGER,
        "a hand game won: each payer pays this to the declarer; lost: the declarer pays each",
        default=5,
        minimum=0,
        unit="cents",
    ),
    Option(
        "hand_premium_from",
        CHOICE,
        "who pays and receives the hand premium: defenders who played along, or both opponents",
        default="players",
        choices=("players", "opponents"),
    ),
)


class KurzFamily(Family):
    """kurz's answers to the shared machinery."""

    name = "kurz"
    options = OPTIONS
    vocabulary_calls: tuple[str, ...] = ("pass", *CALLS)

    def check_rules(self, values: dict[str, Any]) -> None:
        """kurz.md: the dealer contribution must pay ten tricks."""
        if values["dealer_contribution"] < 10 * values["trick_value"]:
            raise DEALER_CONTRIBUTION.error(
                "rules.dealer_contribution",
                least=10 * values["trick_value"],
                given=values["dealer_contribution"],
            )

    def ladder(self, rules: Any) -> Ladder:
        return LADDER

    def won(self, h: Hand, p: int) -> None:
        """A plain bid takes the talon and discards; a hand game names trumps at once."""
        assert h.bid is not None
        if h.bid.endswith("h"):
            h.ask_declare()
        else:
            h.take_talon(p)

    def declarations(self, h: Hand) -> list[tuple[str, str | int]]:
        """kurz.md: a suit whose number is at least the bid."""
        assert h.bid is not None
        return [("suit", s) for s in SUITS[int(h.bid[0]) - 1 :]]

    def declared(self, h: Hand, kind: str, level: str | int) -> Game:
        assert h.bid is not None
        return make_game("suit", level, talon=not h.bid.endswith("h"))

    def obligations(self, rules: Any) -> Obligations:
        """kurz.md, "Card play": follow suit; only a player who cannot may trump, and need
        not."""
        return FOLLOW

    def describe_game(self, game: Any) -> str:
        """``D``, ``C Handspiel``."""
        if not game:
            return ""
        return f"{game['level']}{'' if game.get('talon', True) else ' Handspiel'}"

    def payments(self, o: Outcome, book: Book) -> tuple[bool | None, dict[str, Any]]:
        """kurz.md, "Settlement"."""
        r = o.rules
        g, t = r["dealer_contribution"], r["trick_value"]
        book.pay(o.dealer, POT, g, "dealer")
        if o.game is None:
            return None, {}
        d = o.declarer
        assert d is not None
        players = o.players
        tricks = o.tricks
        if not players:
            made = True
            book.pay(POT, d, o.carry["pot"] + g, "game")
        else:
            made = tricks[d] >= 6
            if made:
                book.pay(POT, d, t * tricks[d], "tricks")
            for p in players:
                book.pay(POT, p, t * tricks[p], "tricks")
            if not made:
                book.pay(d, POT, r["fail_multiple"] * g, "fall")
        if not o.game.talon:
            payers = players if r["hand_premium_from"] == "players" else o.others
            premium = r["hand_premium"]
            for q in payers:
                if made:
                    book.pay(q, d, premium, "premium")
                else:
                    book.pay(d, q, premium, "premium")
        return made, {}


KURZ = KurzFamily()
