"""``illustrated`` as data and a few rules: modern's (``engine.rules.austria_modern.rules``) with
the premium contracts ``5``–``8`` on a longer ladder, their early end, open hands and their
settlement (``spec/next/austria-variants.md``, "illustrated")."""

from __future__ import annotations

from typing import Any

from engine.errors import Message
from engine.options import CHOICE, Option
from engine.rules.austria_modern.rules import BONUS_OPTIONS, DEFENDER_OPTIONS, ModernFamily
from engine.rules.family.austria import (
    ANTE,
    FORCED_PLAYER,
    JUMP_BIDS,
    MUST_HEAD,
    MUST_TRUMP,
    UNIT,
)
from engine.rules.family.game import MISERE, NORMAL, ROW, SLAM, SUITS, Game, Rules, make_game
from engine.rules.family.hand import Hand
from engine.rules.family.outcome import Outcome
from engine.rules.family.spec import Ladder
from engine.transfers import Book

OPEN_CALLS = (
    "1", "2", "3", "4", "5", "6", "1h", "2h", "3h", "4h", "5h", "6h", "7", "8", "7h", "8h",
)  # fmt: skip
ROW_CALLS = ("1", "2", "3", "4", "5", "6", "1h", "2h", "3h", "4h", "5h", "6h")
NAMES = {5: "misère", 6: "slam", 7: "open misère", 8: "open slam"}

MADE_ONLY_IN_ROW = Message(
    "illustrated_made_only_in_row", "made is given only for a slam of six in a row"
)
MADE_NEEDED = Message("illustrated_made_needed", "a slam of six in a row needs made: true or false")
PREMIUM_NO_GIVE_UP = Message(
    "illustrated_premium_no_give_up", "a premium contract cannot be given up"
)
ROW_TRICKS = Message(
    "illustrated_row_tricks",
    "a slam of six in a row stops once made (the declarer 6 or more) or once it can no "
    "longer be made (at the earliest after 5 tricks)",
)

OPTIONS: tuple[Option, ...] = (
    UNIT,
    ANTE,
    MUST_TRUMP,
    MUST_HEAD,
    JUMP_BIDS,
    FORCED_PLAYER,
    *DEFENDER_OPTIONS,
    *BONUS_OPTIONS,
    Option(
        "illustrated_form",
        CHOICE,
        "open: premium contracts 5 to 8 with open 7 and 8; six_in_row: no 7 and 8, a slam is "
        "made by six tricks in a row",
        default="open",
        choices=("open", "six_in_row"),
    ),
)


def premium_value(game: Game) -> int:
    """W in units: 10 / 20 / 30 / 40 for 5 / 6 / 7 / 8, doubled for a hand contract."""
    assert isinstance(game.level, int)
    return 10 * (game.level - 4) * (1 if game.talon else 2)


class IllustratedFamily(ModernFamily):
    """illustrated's answers: modern's, with the premium contracts."""

    name = "illustrated"
    # phases: modern's
    options = OPTIONS
    vocabulary_calls: tuple[str, ...] = ("pass", *OPEN_CALLS, "hold")
    vocabulary_declares = (
        *(("suit", s) for s in SUITS),
        *(("premium", k) for k in (5, 6, 7, 8)),
    )
    sheet_extra_keys: tuple[str, ...] = ("gave_up", "bonuses", "made")

    def ladder(self, rules: Rules) -> Ladder:
        """austria-variants.md, "illustrated": hand above non-hand, but 7 and 8 above every
        non-open hand call; ``six_in_row``: 1 … 6, 1h … 6h."""
        form = rules["illustrated_form"]
        key = (rules["jump_bids"], rules["forced_player"] == "rearhand")
        found = self._ladders.get((form == "open", *key))  # type: ignore[arg-type]
        if found is None:
            calls = OPEN_CALLS if form == "open" else ROW_CALLS
            found = Ladder(calls, jumps=key[0], hold=True, forced_last=key[1])
            self._ladders[(form == "open", *key)] = found  # type: ignore[index]
        return found

    def hand_game(self, bid: str) -> Game:
        n = int(bid[0])
        if n >= 5:
            return make_game("premium", n, talon=False)
        return make_game("suit", SUITS[n - 1], talon=False)

    def declarations(self, h: Hand) -> list[tuple[str, str | int]]:
        """Any talon contract at least the call: after ``3`` D, H, 5–8; after ``5`` 5–8."""
        assert h.bid is not None
        c = int(h.bid[0])
        top = 8 if h.rules["illustrated_form"] == "open" else 6
        suits = [("suit", s) for s in SUITS[c - 1 :]] if c <= 4 else []
        return [*suits, *(("premium", k) for k in range(max(c, 5), top + 1))]

    def declared(self, h: Hand, kind: str, level: str | int) -> Game:
        return make_game(kind, level, talon=True)

    def has_defence(self, h: Hand) -> bool:
        return h.game is not None and h.game.kind == "suit"

    def invitation(self, h: Hand) -> bool:
        return self.has_defence(h) and bool(h.rules["invitation"])

    def asks_give_up(self, h: Hand) -> bool:
        return self.has_defence(h)

    def asks_no_aces(self, h: Hand) -> bool:
        return self.has_defence(h) and bool(h.rules["no_ace_bonus"] > 0)

    def is_open(self, game: Game) -> bool:
        """7 and 8: the declarer's hand lies open from the contract on."""
        return game.kind == "premium" and game.level in (7, 8)

    def target(self, game: Game, rules: Rules) -> int:
        if game.kind != "premium":
            return NORMAL
        if game.level in (5, 7):
            return MISERE
        return ROW if rules["illustrated_form"] == "six_in_row" else SLAM

    # --- score-sheet entries ------------------------------------------------------------------

    def game_kinds(self, rules: Rules) -> dict[str, Any]:
        top = 8 if rules["illustrated_form"] == "open" else 6
        return {"suit": SUITS, "premium": tuple(range(5, top + 1))}

    def sheet_defence(self, rules: Rules, game: Game) -> tuple[str, ...]:
        return super().sheet_defence(rules, game) if game.kind == "suit" else ()

    def extra_of(self, h: Hand) -> dict[str, Any]:
        out = super().extra_of(h)
        if h.target == ROW:
            out["made"] = bool(h.made)
        return out

    def parse_extra(self, record: Any, o: Outcome) -> dict[str, Any]:
        out = super().parse_extra(record, o)
        assert o.game is not None
        row = self.target(o.game, o.rules) == ROW
        if "made" in record or row:
            if not row:
                raise MADE_ONLY_IN_ROW.error("made")
            made = record.get("made")
            if type(made) is not bool:
                raise MADE_NEEDED.error("made")
            out["made"] = made
        if o.game.kind == "premium" and "gave_up" in record:
            raise PREMIUM_NO_GIVE_UP.error("gave_up")
        return out

    def check_tricks(self, o: Outcome, tricks: dict[str, int]) -> None:
        """A slam of six in a row: made with six declarer tricks at least, failed once the
        declarer could no longer win six in a row (at the earliest after a lost fifth trick)."""
        d = o.declarer
        assert d is not None and o.game is not None
        if self.target(o.game, o.rules) != ROW:
            return
        total = sum(tricks.values())
        dec = tricks[d]
        if o.extra.get("made"):
            ok = 6 <= dec <= total <= 10
        else:
            ok = 5 <= total <= 10 and total - dec >= 1 and dec <= total - 1
        if not ok:
            raise ROW_TRICKS.error("tricks")

    def describe_game(self, game: Any) -> str:
        """``D``, ``C von der Hand``, ``6 slam``, ``7 open misère von der Hand``."""
        if not game:
            return ""
        if game.get("type") == "premium":
            hand = " von der Hand" if game.get("hand") else ""
            return f"{game['level']} {NAMES.get(game['level'], '')}{hand}"
        return super().describe_game(game)

    # --- settlement ---------------------------------------------------------------------------

    def multiplier(self, o: Outcome) -> int:
        return 1

    def payments(self, o: Outcome, book: Book) -> tuple[bool | None, dict[str, Any]]:
        """Suit games as modern; premium contracts: W from each defender, or to each; the pot
        untouched, no trick payments, no bonuses, nobody falls."""
        if o.game is None or o.game.kind != "premium":
            return super().payments(o, book)
        d = o.declarer
        assert d is not None
        u = o.rules["unit"]
        others = o.others
        tricks = o.tricks
        if self.target(o.game, o.rules) == ROW:
            made = bool(o.extra.get("made"))
        elif o.game.level in (5, 7):
            made = tricks.get(d, 0) == 0
        else:
            made = sum(tricks.get(p, 0) for p in others) == 0
        w = premium_value(o.game) * u
        for q in others:
            if made:
                book.pay(q, d, w, "premium")
            else:
                book.pay(d, q, w, "premium")
        return made, {}


ILLUSTRATED = IllustratedFamily()
