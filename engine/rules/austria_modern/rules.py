"""``austria-modern`` as data and a few rules (``spec/next/austria-variants.md``,
"austria-modern"): its options, its ladder ``1`` < ``2`` < ``3`` < ``4`` < ``1h`` < … < ``4h``,
its steps (defence, invitation, give-up, no-aces) and its settlement."""

from __future__ import annotations

from typing import Any

from engine.errors import Message
from engine.options import BOOLEAN, CHOICE, INTEGER, Option
from engine.rules.family import messages as msg
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
from engine.rules.family.hand import ACES, Hand
from engine.rules.family.outcome import Outcome
from engine.rules.family.settle import POT
from engine.rules.family.spec import Ladder
from engine.transfers import Book

CALLS = ("1", "2", "3", "4", "1h", "2h", "3h", "4h")

DEFENDER_OPTIONS: tuple[Option, ...] = (
    Option(
        "defender_unit_from",
        CHOICE,
        "who pays the unit to each defender with 2 or more tricks: the declarer, or the "
        "dealer (the seed's literal text)",
        default="declarer",
        choices=("declarer", "dealer"),
    ),
    Option(
        "defender_unit_per_trick",
        BOOLEAN,
        "a defender's unit is paid per trick instead of once",
        default=False,
    ),
    Option("invitation", BOOLEAN, "a lone defender may invite the other", default=False),
    Option(
        "invitation_fall",
        INTEGER,
        "units an inviter short of 4 tricks (both defenders') pays into the pot",
        default=1,
        minimum=0,
        unit="units",
    ),
)
BONUS_OPTIONS: tuple[Option, ...] = (
    Option(
        "preference_bonus",
        INTEGER,
        "the hand game 4h won or lost: from or to each of the other two",
        default=0,
        minimum=0,
        unit="units",
    ),
    Option(
        "four_aces_bonus",
        INTEGER,
        "made holding all four aces in the ten cards kept: from each of the other two",
        default=0,
        minimum=0,
        unit="units",
    ),
    Option(
        "no_ace_bonus",
        INTEGER,
        "after announcing no ace, won or lost: from or to each of the other two",
        default=0,
        minimum=0,
        unit="units",
    ),
)
OPTIONS: tuple[Option, ...] = (
    UNIT,
    ANTE,
    MUST_TRUMP,
    MUST_HEAD,
    JUMP_BIDS,
    FORCED_PLAYER,
    *DEFENDER_OPTIONS,
    Option(
        "multiply_by_bid",
        BOOLEAN,
        "every payment is multiplied by the trump suit's number",
        default=False,
    ),
    *BONUS_OPTIONS,
)


BONUS_KEYS = ("four_aces", "no_aces")

BONUSES_OBJECT = Message(
    "austria_modern_bonuses_object", 'bonuses is an object such as {{"four_aces": true}}'
)
BONUSES_KEY = Message(
    "austria_modern_bonuses_key", "bonuses names four_aces and no_aces only, not {key}"
)
BONUSES_BOTH = Message(
    "austria_modern_bonuses_both",
    "four_aces and no_aces cannot both be true: a declarer without an ace kept no aces",
)
NO_ACE_BONUS = Message(
    "austria_modern_no_ace_bonus",
    "no_aces is announced only at a table with a no_ace_bonus; this one has none",
)
GAVE_UP_NO_BONUS = Message(
    "austria_modern_gave_up_no_bonus", "a declarer who gave up earns no bonus"
)
BONUSES_SUIT_ONLY = Message("austria_modern_bonuses_suit_only", "bonuses belong to suit games only")
EVERY_DEAL_HAS_GAME = Message(
    "austria_modern_every_deal_has_game",
    "with forced_player rearhand every deal has a game: {rearhand} must call when the others "
    "pass (a thrown-in deal needs forced_player throw_in)",
)


def read_bonuses(data: Any, rules: Rules) -> dict[str, bool]:
    """An entry's ``bonuses`` (austria-variants.md, "Records"): ``four_aces`` and ``no_aces``,
    each true or false, a key left out being false (a score sheet writes what happened). Both
    true cannot happen (no ace among his twelve cards, yet four kept), and ``no_aces`` is
    announced only when the table pays ``no_ace_bonus``."""
    if not isinstance(data, dict):
        raise BONUSES_OBJECT.error("bonuses")
    for key, value in data.items():
        if key not in BONUS_KEYS:
            raise BONUSES_KEY.error(f"bonuses.{key}", key=repr(key))
        if type(value) is not bool:
            raise msg.TRUE_OR_FALSE.error(f"bonuses.{key}", key=key)
    bonuses = {key: bool(data.get(key, False)) for key in BONUS_KEYS}
    if bonuses["four_aces"] and bonuses["no_aces"]:
        raise BONUSES_BOTH.error("bonuses")
    if bonuses["no_aces"] and not rules["no_ace_bonus"]:
        raise NO_ACE_BONUS.error("bonuses.no_aces")
    return bonuses


def suit_number(game: Game) -> int:
    """C 1, S 2, D 3, H 4."""
    return SUITS.index(str(game.level)) + 1


class ModernFamily(AustrianFamily):
    """austria-modern's answers to the shared machinery."""

    name = "austria-modern"
    phases: tuple[str, ...] = (
        "auction",
        "discard",
        "declare",
        "defence",
        "invite",
        "give_up",
        "no_aces",
        "play",
        "done",
    )
    calls: tuple[str, ...] = CALLS
    keys: tuple[str, ...] = ("call", "discard", "declare", "defence", "give_up", "no_aces", "card")
    options = OPTIONS
    vocabulary_calls: tuple[str, ...] = ("pass", *CALLS, "hold")
    vocabulary_defences: tuple[str, ...] = ("play", "home", "invite", "alone")
    sheet_extra_keys: tuple[str, ...] = ("gave_up", "bonuses")

    def __init__(self) -> None:
        self._ladders: dict[tuple[bool, bool], Ladder] = {}

    def ladder(self, rules: Rules) -> Ladder:
        """The ladder as data: any higher call (``jump_bids``), positional holding, rearhand
        forced when the others passed without a call (``forced_player``)."""
        key = (rules["jump_bids"], rules["forced_player"] == "rearhand")
        found = self._ladders.get(key)
        if found is None:
            found = Ladder(self.calls, jumps=key[0], hold=True, forced_last=key[1])
            self._ladders[key] = found
        return found

    def won(self, h: Hand, p: int) -> None:
        """A talon call takes the talon; a hand call's suit is trumps at once."""
        bid = h.bid
        assert bid is not None
        if bid.endswith("h"):
            h.fix(self.hand_game(bid))
        else:
            h.take_talon(p)

    def hand_game(self, bid: str) -> Game:
        return make_game("suit", SUITS[int(bid[0]) - 1], talon=False)

    def declarations(self, h: Hand) -> list[tuple[str, str | int]]:
        """A suit whose number is at least the call."""
        assert h.bid is not None
        return [("suit", s) for s in SUITS[int(h.bid[0]) - 1 :]]

    def invitation(self, h: Hand) -> bool:
        return bool(h.rules["invitation"])

    def asks_give_up(self, h: Hand) -> bool:
        return True

    def asks_no_aces(self, h: Hand) -> bool:
        return bool(h.rules["no_ace_bonus"] > 0)

    # --- score-sheet entries ------------------------------------------------------------------

    def sheet_defence(self, rules: Rules, game: Game) -> tuple[str, ...]:
        if rules["invitation"]:
            return ("play", "home", "invite", "invited")
        return ("play", "home")

    def extra_of(self, h: Hand) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if h.gave_up:
            out["gave_up"] = True
        elif h.game is not None and h.game.kind == "suit":
            bonuses = {"four_aces": h.kept & ACES == ACES, "no_aces": bool(h.no_aces)}
            if any(bonuses.values()):
                out["bonuses"] = bonuses
        return out

    def parse_extra(self, record: Any, o: Outcome) -> dict[str, Any]:
        out: dict[str, Any] = {}
        gave_up = record.get("gave_up", False)
        if type(gave_up) is not bool:
            raise msg.TRUE_OR_FALSE.error("gave_up", key="gave_up")
        if gave_up:
            if not o.players:
                raise msg.NOBODY_TO_GIVE_UP_TO.error("gave_up")
            out["gave_up"] = True
        if "bonuses" in record:
            bonuses = read_bonuses(record["bonuses"], o.rules)
            if gave_up and any(bonuses.values()):
                raise GAVE_UP_NO_BONUS.error("bonuses")
            if o.game is None or o.game.kind != "suit":
                raise BONUSES_SUIT_ONLY.error("bonuses")
            if any(bonuses.values()):
                out["bonuses"] = bonuses
        return out

    def parse_no_game(self, record: Any, base: Outcome) -> Outcome:
        """A deal without a game is a thrown-in deal, which only ``forced_player = "throw_in"``
        has: with ``"rearhand"`` rearhand must call when the others passed without one."""
        if base.rules["forced_player"] == "rearhand":
            raise EVERY_DEAL_HAS_GAME.error("game", rearhand=base.active[2])
        return super().parse_no_game(record, base)

    def describe_game(self, game: Any) -> str:
        """``D``, ``C von der Hand``, ``6 Mord von der Hand``."""
        if not game:
            return ""
        hand = game.get("talon") is False or game.get("hand") is True
        return f"{game['level']}{' von der Hand' if hand else ''}"

    # --- settlement ---------------------------------------------------------------------------

    def multiplier(self, o: Outcome) -> int:
        """``multiply_by_bid``: the trump's suit number, else 1."""
        assert o.game is not None
        return suit_number(o.game) if o.rules.get("multiply_by_bid") else 1

    def payments(self, o: Outcome, book: Book) -> tuple[bool | None, dict[str, Any]]:
        """austria-variants.md, "austria-modern", "Settlement"."""
        if o.game is None:
            return None, {}
        made = self.settle_game(o, book)
        return made, {}

    def settle_game(self, o: Outcome, book: Book) -> bool:
        """A suit game's payments; whether it was made."""
        r = o.rules
        d = o.declarer
        assert d is not None
        u = r["unit"] * self.multiplier(o)
        players = o.players
        inviter = next((p for p in players if o.defence.get(p) == "invite"), None)
        if o.extra.get("gave_up"):
            if inviter is not None:
                book.pay(d, inviter, 5 * u, "giveup")
            elif len(players) == 1:
                book.pay(d, players[0], 5 * u, "giveup")
            else:
                for p in players:
                    book.pay(d, p, 3 * u, "giveup")
            return False
        tricks = o.tricks
        if not players:
            made = True
            book.pay(POT, d, 10 * u, "game")
        else:
            made = tricks[d] >= 6
            if made:
                book.pay(POT, d, 10 * u, "game")
            else:
                book.pay(d, POT, 20 * u, "fall")
            payer = d if r["defender_unit_from"] == "declarer" else o.dealer
            per_trick = r["defender_unit_per_trick"]
            if inviter is not None:
                both = sum(tricks[p] for p in players)
                if both < 4:
                    book.pay(inviter, POT, r["invitation_fall"] * u, "fall")
                elif payer != inviter:
                    book.pay(payer, inviter, (both if per_trick else 1) * u, "tricks")
            else:
                for p in players:
                    if tricks[p] < 2:
                        book.pay(p, POT, 10 * u, "fall")
                    elif payer != p:
                        book.pay(payer, p, (tricks[p] if per_trick else 1) * u, "tricks")
        self.bonuses(o, book, made, u)
        return made

    def bonuses(self, o: Outcome, book: Book, made: bool, u: int) -> None:
        """``preference_bonus`` (the hand game 4h), ``four_aces_bonus`` (made), ``no_ace_bonus``,
        from or to each of the other two active players (``why: "bonus"``)."""
        r = o.rules
        d = o.declarer
        assert d is not None and o.game is not None
        bonuses = o.extra.get("bonuses", {})
        if not bonuses and not r["preference_bonus"]:
            return
        won_lost = []
        if o.game.level == "H" and not o.game.talon:
            won_lost.append(r["preference_bonus"])
        if bonuses.get("no_aces"):
            won_lost.append(r["no_ace_bonus"])
        amount = sum(won_lost)
        if made and bonuses.get("four_aces"):
            amount += r["four_aces_bonus"]
        for q in o.others:
            if made:
                book.pay(q, d, amount * u, "bonus")
            else:
                book.pay(d, q, amount * u, "bonus")


MODERN = ModernFamily()
