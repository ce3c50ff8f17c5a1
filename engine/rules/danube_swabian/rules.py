"""``danube-swabian`` as data and a few rules: balkan's (``engine.rules.balkan.rules``) with no
pot, no defence step, contra per defender and the settlement between declarer and each defender
(``spec/next/austria-variants.md``, "danube-swabian")."""

from __future__ import annotations

from typing import Any

from engine.cards import PIQUET
from engine.errors import Message
from engine.options import INTEGER, Option
from engine.rules.balkan.rules import (
    CONTRA_OPTION,
    CONTRACTS,
    HOLD,
    PREMIUM,
    SANS_SLAM_LEAD,
    BalkanFamily,
    codes,
)
from engine.rules.family.austria import MUST_HEAD, MUST_TRUMP, UNIT
from engine.rules.family.game import Game, Rules
from engine.rules.family.hand import Hand
from engine.rules.family.outcome import Outcome
from engine.rules.family.phases import CONTRA, RECONTRA
from engine.transfers import Book

OPTIONS: tuple[Option, ...] = (
    UNIT,
    MUST_TRUMP,
    MUST_HEAD,
    CONTRACTS,
    HOLD,
    CONTRA_OPTION,
    SANS_SLAM_LEAD,
    Option(
        "hand_adds",
        INTEGER,
        "added to the base of a hand contract",
        default=1,
        minimum=0,
        unit="units",
    ),
    Option(
        "artwork",
        INTEGER,
        "units the declarer pays the dealer when the two talon cards are a pair",
        default=2,
        minimum=0,
        unit="units",
    ),
)


CONTRA_OBJECT = Message(
    "danube_swabian_contra_object", 'contra maps defenders to "contra" or "recontra"'
)
NO_CONTRA = Message("danube_swabian_no_contra", "contra is not allowed at this table")
TALON_CARDS = Message(
    "danube_swabian_talon_cards", "talon must list the two cards dealt to the talon"
)


class DanubeFamily(BalkanFamily):
    """danube-swabian's answers: balkan's with its differences."""

    name = "danube-swabian"
    phases: tuple[str, ...] = (
        "auction",
        "hand_contract",
        "discard",
        "declare",
        "contra",
        "recontra",
        "play",
        "done",
    )
    keys: tuple[str, ...] = (
        "call",
        "hand_contract",
        "discard",
        "declare",
        "contra",
        "recontra",
        "card",
    )
    options = OPTIONS
    vocabulary_defences: tuple[str, ...] = ()
    sheet_extra_keys: tuple[str, ...] = ("contra", "talon")

    party = None

    def ante(self, rules: Rules) -> int | None:
        return None

    def read_carry(self, record: Any) -> dict[str, Any]:
        """No pot: nothing carries between deals."""
        return {}

    def has_defence(self, h: Hand) -> bool:
        return False

    def invitation(self, h: Hand) -> bool:
        return False

    def asks_give_up(self, h: Hand) -> bool:
        return False

    def contra(self, h: Hand) -> str:
        return "danube" if h.rules["contra"] else ""

    def start_contra(self, h: Hand) -> None:
        """Each defender in order from the declarer; the declarer answers each contra at
        once."""
        d = h.declarer
        h.queue[:] = [(d + 1) % 3, (d + 2) % 3]
        h.turns = 0
        h.phase = CONTRA
        h.to_act = h.queue[0]

    def contra_answer(self, h: Hand, p: int, yes: bool) -> None:
        if yes:
            h.contra[p] = "contra"
            h.phase = RECONTRA
            h.to_act = h.declarer
        else:
            self.next_contra(h)

    def recontra_answer(self, h: Hand, p: int, yes: bool) -> None:
        if yes:
            h.contra[h.queue[h.turns]] = "recontra"
        self.next_contra(h)

    def next_contra(self, h: Hand) -> None:
        h.turns += 1
        if h.turns < len(h.queue):
            h.phase = CONTRA
            h.to_act = h.queue[h.turns]
        else:
            h.start_play()

    def playing_mask(self, h: Hand) -> int:
        return 0b111

    # --- records -------------------------------------------------------------------------------

    def sheet_defence(self, rules: Rules, game: Game) -> tuple[str, ...]:
        return ()

    def sheet_players(self, o: Outcome) -> list[str]:
        return list(o.active)

    def sheet_played(self, o: Outcome) -> bool:
        return True

    def extra_of(self, h: Hand) -> dict[str, Any]:
        if h.game is None:
            return {}
        out: dict[str, Any] = {}
        contra = {h.active[q]: h.contra[q] for q in (0, 1, 2) if h.contra[q]}
        if contra:
            out["contra"] = contra
        out["talon"] = PIQUET.codes_of(h.deal[3])
        return out

    def parse_extra(self, record: Any, o: Outcome) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if "contra" in record:
            data = record["contra"]
            if not isinstance(data, dict) or not all(
                s in o.others and v in ("contra", "recontra") for s, v in data.items()
            ):
                raise CONTRA_OBJECT.error("contra")
            if data and not o.rules["contra"]:
                raise NO_CONTRA.error("contra")
            if data:
                out["contra"] = {s: data[s] for s in o.active if s in data}
        talon = record.get("talon")
        if not isinstance(talon, list) or len(talon) != 2:
            raise TALON_CARDS.error("talon")
        mask = PIQUET.parse_hand(talon, "talon")
        out["talon"] = PIQUET.codes_of(mask)
        return out

    def describe_game(self, game: Any) -> str:
        return super().describe_game(game)

    # --- settlement ---------------------------------------------------------------------------

    def target_tricks(self, game: Game) -> int:
        """Suits and sans: 6, +1 with spades trumps, +1 for a hand contract."""
        return 6 + (game.level == "S") + (not game.talon)

    def payments(self, o: Outcome, book: Book) -> tuple[bool | None, dict[str, Any]]:
        """austria-variants.md, "danube-swabian": declarer against each defender, × m."""
        r = o.rules
        u = r["unit"]
        if o.game is None:
            return None, {}
        d = o.declarer
        assert d is not None
        level = str(o.game.level)
        b = codes(r)[level] + (0 if o.game.talon else r["hand_adds"])
        tricks = o.tricks
        dec = tricks.get(d, 0)
        opp = sum(tricks.get(p, 0) for p in o.others)
        if level in PREMIUM:
            made = {"misere": dec == 0, "uno": dec == 1, "slam": opp == 0}[level]
            value = b
        else:
            target = self.target_tricks(o.game)
            made = dec >= target
            value = b + abs(dec - target)
        contra = o.extra.get("contra", {})
        for q in o.others:
            m = {"contra": 2, "recontra": 4}.get(contra.get(q, ""), 1)
            if made:
                book.pay(q, d, value * m * u, "game")
            else:
                book.pay(d, q, value * m * u, "game")
        first, second = o.extra["talon"]
        if first[1] == second[1] and o.dealer != d:  # a pair: two cards of one rank
            book.pay(d, o.dealer, r["artwork"] * u, "artwork")
        return made, {}


DANUBE = DanubeFamily()
