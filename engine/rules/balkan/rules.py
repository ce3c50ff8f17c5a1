"""``balkan`` as data and a few rules (``spec/next/austria-variants.md``, "balkan")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import Action, Call
from engine.errors import EngineError, IllegalAction, Message
from engine.options import BOOLEAN, CHOICE, INTEGER, Option
from engine.rules.family import messages as msg
from engine.rules.family.actions import HandContract
from engine.rules.family.austria import ANTE, MUST_HEAD, MUST_TRUMP, UNIT, AustrianFamily
from engine.rules.family.game import MISERE, NORMAL, SLAM, UNO, Game, Rules, make_game
from engine.rules.family.hand import Hand
from engine.rules.family.outcome import Outcome
from engine.rules.family.phases import AUCTION, CONTRA, HAND_CONTRACT, RECONTRA
from engine.rules.family.settle import POT
from engine.transfers import Book

SUIT_CODES = {"S": 2, "D": 3, "H": 4, "C": 5}
CONTRACT_SETS: dict[str, dict[str, int]] = {
    "slam": {"misere": 6, "slam": 7},
    "sans": {"misere": 6, "sans": 7},
    "sans_slam": {"misere": 6, "sans": 7, "slam": 8},
    "sans_uno_slam": {"misere": 6, "sans": 7, "uno": 8, "slam": 9},
}
PREMIUM = ("misere", "uno", "slam")
ALL_NAMES = ("S", "D", "H", "C", "misere", "sans", "uno", "slam")

REFE_NEEDS_LIMIT = Message("balkan_refe_needs_limit", "{key} is kept only with refe_limit above 0")
REFE_OBJECT = Message("balkan_refe_object", "refe maps seats to whole numbers of open refe ≥ 0")
REFE_WRITTEN = Message("balkan_refe_written", "refe_written is a whole number from 0 to {limit}")
CONTRA_OBJECT = Message("balkan_contra_object", 'contra is {{"by": seat, "recontra": true|false}}')
NO_CONTRA_ROUND = Message("balkan_no_contra_round", "there was no contra round in this deal")
CONTRA_BY = Message("balkan_contra_by", "contra is said by a defender who played (the inviter)")
HAND_FIRST_CALL = Message(
    "balkan_hand_first_call",
    "hand is a player's first call only, and {seat} has called ({legal})",
    IllegalAction,
)
AFTER_HAND = Message(
    "balkan_after_hand",
    "after a hand call only hand (as a first call) or pass ({legal})",
    IllegalAction,
)
HOLD_MOJE = Message(
    "balkan_hold",
    "hold (moje) needs the option and an earlier seat than the holder ({legal})",
    IllegalAction,
)
NUMBER_BID = Message(
    "balkan_number_bid",
    "each number bid is one above the highest, up to the top code ({legal})",
    IllegalAction,
)

CONTRACTS = Option(
    "contracts",
    CHOICE,
    "the no-trump codes above misère (6): slam 7; sans 7; sans 7 and slam 8; sans 7, uno 8 and "
    "slam 9",
    default="slam",
    choices=tuple(CONTRACT_SETS),
)
HOLD = Option(
    "hold",
    BOOLEAN,
    "moje: an earlier seat may hold the highest number bid",
    default=False,
)
CONTRA_OPTION = Option("contra", BOOLEAN, "contra and recontra are allowed", default=True)
SANS_SLAM_LEAD = Option(
    "sans_slam_lead",
    CHOICE,
    "who leads to a sans or a slam: the declarer, or the defender who plays just before him "
    "(the other if he is at home)",
    default="declarer",
    choices=("declarer", "second_defender"),
)
OPTIONS: tuple[Option, ...] = (
    UNIT,
    ANTE,
    MUST_TRUMP,
    MUST_HEAD,
    CONTRACTS,
    HOLD,
    Option(
        "premium_defence",
        CHOICE,
        "misère, uno and slam: both defenders play, or they choose as in suit contracts",
        default="play",
        choices=("play", "free"),
    ),
    Option(
        "defender_fall",
        INTEGER,
        "a defender short of his target pays this × b into the pot",
        default=10,
        minimum=0,
    ),
    Option(
        "refe_limit",
        INTEGER,
        "refe rounds written per sitting when all pass; 0: no refe",
        default=0,
        minimum=0,
    ),
    CONTRA_OPTION,
    SANS_SLAM_LEAD,
)


CODES = {name: {**SUIT_CODES, **extra} for name, extra in CONTRACT_SETS.items()}
TOPS = {name: max(table.values()) for name, table in CODES.items()}
ORDERED = {name: sorted(table, key=table.__getitem__) for name, table in CODES.items()}


def codes(rules: Rules) -> dict[str, int]:
    """Every contract of the table and its code (``S`` 2 … ``C`` 5, then ``contracts``)."""
    return CODES[rules["contracts"]]


def game_of(name: str, talon: bool) -> Game:
    return make_game("suit" if name in SUIT_CODES else "notrump", name, talon)


class BalkanFamily(AustrianFamily):
    """balkan's answers to the shared machinery (``danube-swabian`` builds on them)."""

    name = "balkan"
    phases: tuple[str, ...] = (
        "auction",
        "hand_contract",
        "discard",
        "declare",
        "defence",
        "invite",
        "give_up",
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
        "defence",
        "give_up",
        "contra",
        "recontra",
        "card",
    )
    words = {"hand_contract": (*ALL_NAMES, "pass")}
    options = OPTIONS
    vocabulary_calls: tuple[str, ...] = (
        "pass",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "hand",
        "hold",
    )
    vocabulary_declares = (
        *(("suit", s) for s in SUIT_CODES),
        *(("notrump", n) for n in ("misere", "sans", "uno", "slam")),
    )
    vocabulary_defences: tuple[str, ...] = ("play", "home", "invite", "alone")
    sheet_extra_keys: tuple[str, ...] = ("gave_up", "contra")
    #: Whether a talon contract shows the talon to all (balkan) or to the declarer only.
    public_talon = True

    # --- the auction (the family's own: number bids, hand, hold) -------------------------------

    def legal_special(self, h: Hand) -> list[Action]:
        seat = h.active[h.to_act]
        return [HandContract(seat, c) for c in self.hand_contracts(h)]

    def auction_calls(self, h: Hand) -> list[str]:
        """pass; the next number bid (the first ``2``, up to the top code) while nobody called
        hand; hold for an earlier seat (with ``hold``, before any hand); hand as a first call."""
        p = h.to_act
        top = TOPS[h.rules["contracts"]]
        first = not h.called >> p & 1
        out = ["pass"]
        if not h.queue:
            nxt = max(h.high + 1, 2)
            if nxt <= top:
                out.append(str(nxt))
            if h.rules["hold"] and h.high >= 2 and p < h.high_by:
                out.append("hold")
        if first:
            out.append("hand")
        return out

    def hand_contracts(self, h: Hand) -> list[str]:
        """The first hand caller names any contract; each later one a higher one or pass."""
        table = codes(h.rules)
        names = ORDERED[h.rules["contracts"]]
        if h.top_by < 0:
            return list(names)
        return [n for n in names if table[n] > h.top] + ["pass"]

    def act_special(self, h: Hand, action: Action) -> None:
        p = h.to_act
        if isinstance(action, HandContract):
            if action.word != "pass":
                h.top = codes(h.rules)[action.word]
                h.top_by = p
                h.bid = action.word
            h.turns += 1
            if h.turns < len(h.queue):
                h.to_act = h.queue[h.turns]
            else:
                h.declarer = h.top_by
                h.bid = next(n for n, c in codes(h.rules).items() if c == h.top)
                h.fix(game_of(h.bid, talon=False))

    def why(self, h: Hand, action: Action) -> EngineError | None:
        """The refusal of a call in the number-bid auction."""
        if not isinstance(action, Call) or h.phase != AUCTION:
            return None
        seat = h.active[h.to_act]
        legal = ", ".join(self.auction_calls(h))
        call = action.call
        if call == "hand":
            return HAND_FIRST_CALL.error("", seat=seat, legal=legal)
        if h.queue:
            return AFTER_HAND.error("", legal=legal)
        if call == "hold":
            return HOLD_MOJE.error("", legal=legal)
        return NUMBER_BID.error("", legal=legal)

    def auction_call(self, h: Hand, p: int, call: str) -> None:
        bit = 1 << p
        if call == "pass":
            h.passed |= bit
        elif call == "hand":
            h.called |= bit
            h.queue.append(p)
        elif call == "hold":
            h.called |= bit
            h.high_by = p
        else:
            h.called |= bit
            h.high = int(call)
            h.high_by = p
        left = [q for q in (0, 1, 2) if not h.passed >> q & 1]
        if not left:
            return self.all_passed(h)
        if h.queue and all(q in h.queue for q in left):
            h.queue[:] = [q for q in h.queue if q in left]
            h.phase = HAND_CONTRACT
            h.turns = 0
            h.top = 0
            h.top_by = -1
            h.to_act = h.queue[0]
            return None
        if len(left) == 1 and h.called >> left[0] & 1 and left[0] not in h.queue:
            return self.number_won(h, left[0])
        for k in (1, 2, 3):
            q = (p + k) % 3
            if not h.passed >> q & 1 and q not in h.queue:
                h.to_act = q
                return None
        raise AssertionError("no caller left")  # pragma: no cover

    def number_won(self, h: Hand, p: int) -> None:
        """The winner of a number bid takes the talon (shown to all) and discards."""
        h.declarer = p
        h.bid = str(h.high)
        h.take_talon(p, public=self.public_talon)

    def all_passed(self, h: Hand) -> None:
        h.finish("thrown_in")

    def declarations(self, h: Hand) -> list[tuple[str, str | int]]:
        """Any contract with a code at least the winning bid."""
        assert h.bid is not None
        least = int(h.bid)
        table = codes(h.rules)
        return [
            ("suit" if n in SUIT_CODES else "notrump", n)
            for n in sorted(table, key=table.__getitem__)
            if table[n] >= least
        ]

    def declared(self, h: Hand, kind: str, level: str | int) -> Game:
        return game_of(str(level), talon=True)

    # --- defence, give-up, contra ------------------------------------------------------------

    def premium(self, game: Game | None) -> bool:
        return game is not None and game.level in PREMIUM

    def has_defence(self, h: Hand) -> bool:
        return not self.premium(h.game) or h.rules["premium_defence"] == "free"

    def invitation(self, h: Hand) -> bool:
        return True

    def asks_give_up(self, h: Hand) -> bool:
        return True

    def contra(self, h: Hand) -> str:
        return "balkan" if h.rules["contra"] else ""

    def start_contra(self, h: Hand) -> None:
        """Each playing defender in order from the declarer (only the inviter if one stands)."""
        d = h.declarer
        order = [(d + 1) % 3, (d + 2) % 3]
        inviter = [q for q in order if h.defence[q] == "invite"]
        h.queue[:] = inviter or [q for q in order if h.defence[q] in ("play", "")]
        h.turns = 0
        h.phase = CONTRA
        h.to_act = h.queue[0]

    def contra_answer(self, h: Hand, p: int, yes: bool) -> None:
        if yes:
            h.contra[p] = "contra"
            h.phase = RECONTRA
            h.to_act = h.declarer
            return
        h.turns += 1
        if h.turns < len(h.queue):
            h.to_act = h.queue[h.turns]
        else:
            h.start_play()

    def recontra_answer(self, h: Hand, p: int, yes: bool) -> None:
        q = next(q for q in (0, 1, 2) if h.contra[q])
        if yes:
            h.contra[q] = "recontra"
        h.start_play()

    def playing_mask(self, h: Hand) -> int:
        """After a contra in a suit or sans everybody plays: the contra-ing defender invites
        the other, home or not."""
        if any(h.contra) and not self.premium(h.game):
            return 0b111
        return super().playing_mask(h)

    def sheet_players(self, o: Outcome) -> list[str]:
        if o.extra.get("contra") and not self.premium(o.game):
            return list(o.active)
        return super().sheet_players(o)

    def leader(self, h: Hand) -> int:
        """The declarer; with ``sans_slam_lead = "second_defender"`` a sans or slam is led by
        the defender just before the declarer (the other when he is at home)."""
        d = h.declarer
        game = h.game
        assert game is not None
        if h.rules["sans_slam_lead"] == "second_defender" and game.level in ("sans", "slam"):
            before = (d + 2) % 3
            return before if h.playing >> before & 1 else (d + 1) % 3
        return d

    def target(self, game: Game, rules: Rules) -> int:
        return {"misere": MISERE, "uno": UNO, "slam": SLAM}.get(str(game.level), NORMAL)

    # --- records -------------------------------------------------------------------------------

    def read_carry(self, record: Any) -> dict[str, Any]:
        """The pot, and with ``refe_limit`` > 0 the open ``refe`` of each seat (missing: 0) and
        ``refe_written`` this sitting (0 … ``refe_limit``)."""
        carry = super().read_carry(record)
        rules = record.get("rules")
        limit = rules.get("refe_limit", 0) if isinstance(rules, Mapping) else None
        for key in ("refe", "refe_written"):
            if key in record and limit == 0:
                raise REFE_NEEDS_LIMIT.error(key, key=key)
        if "refe" in record:
            refe = record["refe"]
            seats = record.get("seats", ())
            if not isinstance(refe, dict) or not all(
                s in seats and type(n) is int and n >= 0 for s, n in refe.items()
            ):
                raise REFE_OBJECT.error("refe")
            carry["refe"] = {s: refe[s] for s in seats if s in refe}
        if "refe_written" in record:
            written = record["refe_written"]
            if type(written) is not int or not 0 <= written <= (
                limit if limit is not None else written
            ):
                raise REFE_WRITTEN.error("refe_written", limit=limit)
            carry["refe_written"] = written
        return carry

    def game_kinds(self, rules: Rules) -> dict[str, Any]:
        table = codes(rules)
        return {
            "suit": tuple(SUIT_CODES),
            "notrump": tuple(n for n in table if n not in SUIT_CODES),
        }

    def sheet_defence(self, rules: Rules, game: Game) -> tuple[str, ...]:
        if game.level in PREMIUM and rules["premium_defence"] == "play":
            return ()
        return ("play", "home", "invite", "invited")

    def extra_of(self, h: Hand) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if h.gave_up:
            out["gave_up"] = True
        by = next((q for q in (0, 1, 2) if h.contra[q]), -1)
        if by >= 0:
            out["contra"] = {"by": h.active[by], "recontra": h.contra[by] == "recontra"}
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
        if "contra" in record:
            data = record["contra"]
            if not isinstance(data, dict) or set(data) != {"by", "recontra"}:
                raise CONTRA_OBJECT.error("contra")
            if not o.rules["contra"] or gave_up:
                raise NO_CONTRA_ROUND.error("contra")
            inviter = [p for p in o.players if o.defence.get(p) == "invite"]
            allowed = inviter or o.players
            if data["by"] not in allowed:
                raise CONTRA_BY.error("contra.by")
            if type(data["recontra"]) is not bool:
                raise msg.TRUE_OR_FALSE.error("contra.recontra", key="recontra")
            out["contra"] = {"by": data["by"], "recontra": data["recontra"]}
        return out

    def sheet_played(self, o: Outcome) -> bool:
        return not o.extra.get("gave_up") and bool(o.players)

    # --- settlement ------------------------------------------------------------------------

    def base(self, o: Outcome) -> int:
        """b: the contract's code, +1 for a hand contract, ×2 contra, ×2 recontra."""
        assert o.game is not None
        b = codes(o.rules)[str(o.game.level)] + (0 if o.game.talon else 1)
        contra = o.extra.get("contra")
        if contra:
            b *= 4 if contra["recontra"] else 2
        return b

    def payments(self, o: Outcome, book: Book) -> tuple[bool | None, dict[str, Any]]:
        """austria-variants.md, "balkan", "Settlement" and "Refe"."""
        r = o.rules
        u = r["unit"]
        refe = {s: o.carry.get("refe", {}).get(s, 0) for s in o.seats}
        written = o.carry.get("refe_written", 0)
        if o.game is None:
            if r["refe_limit"] > written:
                written += 1
                for s in o.active:
                    refe[s] += 1
            return None, {"refe": refe, "refe_written": written}
        d = o.declarer
        assert d is not None
        b = self.base(o)
        if refe[d] > 0:
            b *= 2
            refe[d] -= 1
        players = o.players
        tricks = o.tricks
        level = str(o.game.level)
        if o.extra.get("gave_up"):
            book.pay(d, POT, 20 * b * u, "giveup")
            return False, {"refe": refe, "refe_written": written}
        if not players:
            book.pay(POT, d, 20 * b * u, "game")
            return True, {"refe": refe, "refe_written": written}
        dec = tricks[d]
        opp = sum(tricks[p] for p in o.others if p in tricks)
        made = {"misere": dec == 0, "uno": dec == 1, "slam": opp == 0}.get(level, dec >= 6)
        if made:
            book.pay(POT, d, 20 * b * u, "game")
        else:
            book.pay(d, POT, 20 * b * u, "fall")
        if level not in PREMIUM:
            contra = o.extra.get("contra")
            fall = r["defender_fall"] * b * u
            inviter = (
                contra["by"]
                if contra
                else next((p for p in players if o.defence.get(p) == "invite"), None)
            )
            if inviter is not None:
                both = sum(tricks.get(p, 0) for p in o.others)
                if both < (5 if contra else 4):
                    book.pay(inviter, POT, fall, "fall")
                book.pay(d, inviter, 2 * b * both * u, "tricks")
            else:
                for p in players:
                    if tricks[p] < 2:
                        book.pay(p, POT, fall, "fall")
                    book.pay(d, p, 2 * b * tricks[p] * u, "tricks")
        return made, {"refe": refe, "refe_written": written}

    def is_premium(self, game: Any) -> bool:
        """Misère, uno and slam are the premium contracts."""
        return bool(game) and isinstance(game, dict) and game.get("level") in PREMIUM

    def describe_game(self, game: Any) -> str:
        if not game:
            return ""
        return f"{game['level']}{'' if game.get('talon', True) else ' hand'}"


BALKAN = BalkanFamily()
