"""``preferans`` behind the seam (``engine/README.md``, "Rule sets: the seam"): the deal of
:mod:`engine.rules.preferans.hand`, the views of :mod:`~engine.rules.preferans.views`, and the
scoring, settlement and pulya of :mod:`~engine.rules.preferans.scoring`,
:mod:`~engine.rules.preferans.settlement` and :mod:`~engine.rules.preferans.pulya`.

What is Preferans's own at the seam (``spec/next/preferans.md`` §13):

- *the ordered talon*: :meth:`PreferansRuleSet.start_hand` keeps the order of the record's
  ``talon`` list (its first card is turned first on raspasy); :meth:`dealt` writes it back;
- *the whister sends the passer's cards* in open play: :meth:`to_act` and
  :meth:`legal_actions` speak of the seat that sends, the actions' ``seat`` of the hand they
  are about (:meth:`sender`);
- *points, not money*: the table carries an optional ``streak`` and ``sheet``; a deal's result
  is score-sheet entries, and :meth:`close` turns the sheet into money;
- *four forms of record for* ``settle``: ``deals`` → pulya, ``game`` → score-sheet entry,
  ``deal``/``actions`` → full record, none of these → settlement of a ``sheet``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.actions import Action, PlayCard
from engine.bots.belief import Belief
from engine.bots.policy import Decide
from engine.cards import PIQUET
from engine.messages import DEAL_REQUIRED
from engine.rules.preferans import (
    actions,
    belief,
    fast,
    hand,
    heuristic,
    pulya,
    schema,
    scoring,
    settlement,
    simulate,
    views,
)
from engine.rules.preferans import messages as m
from engine.rules.preferans.hand import State
from engine.rules.preferans.labels import LABELS
from engine.rules.preferans.outcome import DealOutcome
from engine.rules.preferans.rules import EXAMPLES, OPTIONS, PreferansRules, parse_rules
from engine.rules.preferans.schema import SHAPES
from engine.rules.preferans.sheet import Sheet, parse_sheet
from engine.ruleset import Carry, Closing, Common, RuleSet
from engine.solver.position import FEWEST, MOST, Position
from engine.table import Dealing, TableShape
from engine.tricks import FOLLOW_TRUMP

DEALING = Dealing(((2, ""), (2, "talon"), (2, ""), (2, ""), (2, ""), (2, "")))
"""§2: pairs to first, second and third hand, the talon fourth, then four more rounds."""
DEAL_KEYS = frozenset({"deal", "actions", "proof", "dealer"})
"""The keys of a full record inside a pulya's ``deals`` (§13 Pulya)."""


def read_streak(record: Mapping[str, Any]) -> int:
    """§13: ``streak``, a whole number ≥ 0, default 0."""
    streak = record.get("streak", 0)
    if type(streak) is not int or streak < 0:
        raise m.STREAK.error("streak", streak=repr(streak))
    return streak


class PreferansRuleSet(RuleSet[State, PreferansRules, DealOutcome]):
    """Russian Preferans (``spec/next/preferans.md``)."""

    # --- options and the table ---------------------------------------------------------------

    def parse_rules(self, data: Any) -> PreferansRules:
        return parse_rules(data)

    def read_carry(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """``streak`` (checked) and ``sheet`` (as given; checked against the rules and seats
        by :meth:`start_hand` and the score-sheet entry, which know them)."""
        return {"streak": read_streak(record), "sheet": record.get("sheet")}

    def opening_carry(self, rules: PreferansRules, seats: Sequence[str]) -> dict[str, Any]:
        """A new pulya: streak 0 and an empty sheet for every seat (§13 Pulya's default)."""
        return {"streak": 0, "sheet": Sheet.empty(tuple(seats)).to_json()}

    # --- a hand ------------------------------------------------------------------------------

    def carry_of(
        self, rules: PreferansRules, seats: tuple[str, ...], carry: Any
    ) -> tuple[int, Sheet | None]:
        """The ``streak`` and the checked ``sheet`` of a carry (:meth:`read_carry`'s, or
        anything else, such as the CLI's ``--pot``, as none); a sheet that already meets the
        game-end condition is refused (§10)."""
        if not isinstance(carry, Mapping):
            carry = {}
        streak = read_streak(carry)
        raw = carry.get("sheet")
        if raw is None:
            return streak, None
        sheet = raw if isinstance(raw, Sheet) else parse_sheet(raw, rules, seats)
        scoring.check_open(rules, sheet)
        return streak, sheet

    def new_hand(
        self,
        rules: PreferansRules,
        seats: Sequence[str],
        dealer: str,
        carry: Any,
        deal: Mapping[str, int],
        talon: tuple[int, int] | None = None,
    ) -> State:
        """The deal before the first call. Given as masks the talon's order is lost: its
        cards lie in card order unless ``talon`` names it (:meth:`start_hand`)."""
        seat_tuple = self.table.check(list(seats), dealer)
        active = self.active_seats(seat_tuple, dealer)
        self.dealing.check(self.deck, active, deal)
        streak, sheet = self.carry_of(rules, seat_tuple, carry)
        if talon is None:
            low = deal["talon"] & -deal["talon"]
            talon = (low.bit_length() - 1, (deal["talon"] ^ low).bit_length() - 1)
        hands = (deal[active[0]], deal[active[1]], deal[active[2]])
        return hand.new_state(rules, seat_tuple, dealer, active, streak, sheet, hands, talon)

    def start_hand(
        self, rules: PreferansRules, seats: Sequence[str], dealer: str, carry: Any, deal: Any
    ) -> State:
        """§2: the record's deal, the talon in its order (``talon[0]`` is turned first)."""
        active = self.active_seats(seats, dealer)
        masks = self.dealing.parse(deal, self.deck, active)
        talon = tuple(PIQUET.parse(c) for c in deal["talon"])
        return self.new_hand(rules, seats, dealer, carry, masks, (talon[0], talon[1]))

    def to_act(self, state: State) -> frozenset[str]:
        """The seat that may send the next action (§6.3: in open play the lone whister sends
        the passer's cards)."""
        seat = state.to_act
        return frozenset() if seat is None else frozenset((seat,))

    def sender(self, state: State, seat: str) -> str:
        p = state.player(seat)
        return seat if p is None else state.sender(p)

    def legal_actions(self, state: State, seat: str | None) -> list[Action]:
        if state.is_over or (seat is not None and seat != state.to_act):
            return []
        return hand.legal(state)

    def apply(self, state: State, action: Action) -> State:
        return hand.apply(state, action)

    def card_play(self, state: State) -> Position | None:
        """A contract (the declarer's most tricks, the whisters together against him), a
        misère (his fewest, all ten tricks played) and raspasy seen from the player to move
        (his fewest, the others against him); ``None`` outside card play and while the talon
        leads a raspasy trick."""
        if state.phase != hand.PLAY or any(q == hand.TALON for q, _ in state.trick):
            return None
        if state.talon_lead and state.played < 2:
            return None
        p = state.turn
        if state.game == "contract":
            side, goal = state.declarer, MOST
        elif state.game == "misere":
            side, goal = state.declarer, FEWEST
        else:
            side, goal = p, FEWEST
        return Position(
            deck=PIQUET,
            seats=state.active,
            hands=state.hands,
            trick=state.trick,
            to_act=p,
            playing=0b111,
            order=state.order,
            duty=(FOLLOW_TRUMP, FOLLOW_TRUMP, FOLLOW_TRUMP),
            side=1 << side,
            won=state.won[side],
            goal=goal,
        )

    def bot_decide(self) -> Decide:
        """:func:`engine.rules.preferans.heuristic.choose`: the auction, discard, contract,
        whist and mode by hand strength."""
        return heuristic.choose

    def bot_deal(self, view: dict[str, Any], rng: random.Random) -> State | None:
        """:func:`engine.rules.preferans.simulate.deal_view`: before the first card."""
        return simulate.deal_view(view, rng)

    def bot_candidates(
        self, view: dict[str, Any], legal: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """:func:`engine.rules.preferans.heuristic.candidates`."""
        return heuristic.candidates(view, legal)

    def card_play_view(self, view: dict[str, Any]) -> Belief | None:
        """:func:`engine.rules.preferans.belief.card_play_view`."""
        return belief.card_play_view(view)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return views.view(state, seat)

    def known(self, state: State, seat: str | None) -> int:
        return views.known(state, seat)

    # --- records -----------------------------------------------------------------------------

    def action_from_json(self, data: Any, at: str) -> Action:
        return actions.read(data, at)

    def carry_json(self, state: State) -> dict[str, Any]:
        out: dict[str, Any] = {"streak": state.streak}
        if state.sheet is not None:
            out["sheet"] = state.sheet.to_json()
        return out

    def dealt(self, state: State) -> dict[str, list[str]]:
        """The three hands as dealt (Preferans card order) and the talon in its order."""
        out = {seat: actions.codes(state.deal[i]) for i, seat in enumerate(state.active)}
        out["talon"] = [PIQUET.code(c) for c in state.talon]
        return out

    def replay_deal(
        self,
        record: Mapping[str, Any],
        rules: PreferansRules,
        seats: tuple[str, ...],
        dealer: str,
        streak: int,
        sheet: Sheet | None,
    ) -> State:
        """A full record's ``deal`` and ``actions`` played under an envelope given apart (a
        pulya's deal); errors name ``deal…`` and ``actions[i]``."""
        if "deal" not in record:
            raise DEAL_REQUIRED.error("deal")
        carry = {"streak": streak, "sheet": sheet}
        state = self.start_hand(rules, seats, dealer, carry, record["deal"])
        return self.play_record_actions(state, record.get("actions", []))

    def full_deal(
        self,
        record: Mapping[str, Any],
        rules: PreferansRules,
        seats: tuple[str, ...],
        dealer: str,
        streak: int,
        sheet: Sheet | None,
    ) -> DealOutcome:
        """A pulya's full-record deal replayed to its outcome (``pulya.settle_pulya``)."""
        for key in record:
            if key not in DEAL_KEYS:
                raise m.DEAL_UNKNOWN_KEY.error(key, key=repr(key))
        return self.outcome(self.replay_deal(record, rules, seats, dealer, streak, sheet))

    # --- results -----------------------------------------------------------------------------

    def outcome(self, state: State) -> DealOutcome:
        return hand.outcome(state)

    def parse_sheet(self, record: Mapping[str, Any], common: Common) -> DealOutcome:
        rules: PreferansRules = common.rules
        streak, sheet = self.carry_of(rules, common.seats, common.carry)
        return scoring.parse_entry(record, rules, common.seats, common.dealer, streak, sheet)

    def sheet_json(self, outcome: DealOutcome) -> dict[str, Any]:
        return scoring.entry_json(outcome)

    def settle_outcome(self, outcome: DealOutcome) -> dict[str, Any]:
        return scoring.score(outcome)

    def settle_record(
        self,
        record: Mapping[str, Any],
        full: Callable[[Any], dict[str, Any]],
        entry: Callable[[Any], dict[str, Any]],
    ) -> dict[str, Any]:
        """§13: ``deals`` → a pulya; ``game`` → a score-sheet entry; ``deal`` or ``actions``
        → a full record; none of these → the settlement of a ``sheet``. A ``pot`` is an
        error in every form."""
        if "pot" in record:
            raise m.NO_POT.error("pot")
        if "deals" in record:
            return pulya.settle_pulya(record, self.full_deal)
        if "game" in record:
            return entry(record)
        if "deal" in record or "actions" in record:
            return full(record)
        return pulya.settle_bare(record)

    def describe_game(self, game: Mapping[str, Any] | None) -> str:
        """``7H``, ``6NT``, ``misere``, ``raspasy``."""
        if not game:
            return ""
        if game.get("type") == "contract":
            return f"{game.get('level')}{game.get('strain')}"
        return str(game.get("type", ""))

    def sheet_row(self, result: Mapping[str, Any]) -> dict[str, Any] | None:
        """The pulya after the deal (pool, mountain and whists per seat, §9–§10); ``None``
        for a deal scored without a sheet."""
        sheet = result.get("sheet")
        return None if sheet is None else dict(sheet)

    def sheet_columns(self, seats: Sequence[str]) -> list[str]:
        """Each seat's pool and mountain, then each pair's whists (``anna>bert``)."""
        return schema.sheet_columns(seats)

    def sheet_cells(self, row: Mapping[str, Any], seats: Sequence[str]) -> list[Any]:
        return schema.sheet_cells(row, seats)

    def carry_after(self, result: Mapping[str, Any]) -> dict[str, Any]:
        """The next deal's ``streak``, and its ``sheet`` when the deal had one."""
        out: dict[str, Any] = {"streak": result["streak"]}
        if "sheet" in result:
            out["sheet"] = result["sheet"]
        return out

    def close(self, rules: PreferansRules, seats: Sequence[str], carry: Any) -> Closing:
        """The pulya settled (§11): with ``whist_value`` each losing seat pays the winners in
        seat order, in cents (``why`` ``score``); the next sitting starts a fresh sheet."""
        seat_tuple = tuple(seats)
        raw = carry.get("sheet") if isinstance(carry, Mapping) else None
        if raw is None:
            return Closing(transfers=(), carry={})
        sheet = raw if isinstance(raw, Sheet) else parse_sheet(raw, rules, seat_tuple)
        money = settlement.settle_sheet(rules, seat_tuple, sheet).get("money")
        if not money:
            return Closing(transfers=(), carry={})
        owe = {s: -v for s, v in money.items() if v < 0}
        due = {s: v for s, v in money.items() if v > 0}
        transfers: list[dict[str, Any]] = []
        for payer in seat_tuple:
            for payee in seat_tuple:
                amount = min(owe.get(payer, 0), due.get(payee, 0))
                if amount > 0:
                    transfers.append({"from": payer, "to": payee, "amount": amount, "why": "score"})
                    owe[payer] -= amount
                    due[payee] -= amount
        return Closing(transfers=tuple(transfers), carry={})

    def sitting_score(
        self, rules: PreferansRules, seats: Sequence[str], carry: Any
    ) -> dict[str, int]:
        """The pulya settled into whists (§11, ``result``): what standings count."""
        seat_tuple = tuple(seats)
        raw = carry.get("sheet") if isinstance(carry, Mapping) else None
        if raw is None:
            return dict.fromkeys(seat_tuple, 0)
        sheet = raw if isinstance(raw, Sheet) else parse_sheet(raw, rules, seat_tuple)
        result: dict[str, int] = settlement.settle_sheet(rules, seat_tuple, sheet)["result"]
        return result

    # --- bots and the fast path --------------------------------------------------------------

    def random_action(self, state: State, rng: random.Random) -> Action:
        """The ``random`` bot: uniform over the legal calls, contracts, whist calls and modes
        in their listed order (:func:`fast.pick`), a discard of two of the twelve cards
        (:func:`fast.pick_discard`), a card as the shared board's playout picks it (the k-th
        lowest legal card, ``k = int(rng.random() * count)``, no draw when there is one), so
        that the fast path plays the same deal the same way."""
        if state.is_over:
            raise ValueError("the hand is over")
        rand = rng.random
        if state.phase == hand.DISCARD:
            p = state.declarer
            return actions.Discard(state.active[p], fast.pick_discard(rand, state.hands[p]))
        if state.phase != hand.PLAY:
            legal = hand.legal(state)
            return legal[fast.pick(rand, len(legal))]
        mask = hand.card_mask(state)
        for _ in range(fast.pick(rand, mask.bit_count())):
            mask &= mask - 1
        return PlayCard(state.active[state.turn], (mask & -mask).bit_length() - 1)

    def play_random_hand(
        self, rules: PreferansRules, carry: Any, rng: random.Random
    ) -> dict[str, Any]:
        """The fast path: one random deal (3 seats, ``c`` deals) dealt, bid, whisted and played
        with :meth:`random_action`'s policy on one mutable :class:`fast.FastDeal` (the cards
        on the shared board); the deal's Result."""
        streak, sheet = self.carry_of(rules, FAST_SEATS, carry)
        return fast.random_result(rules, FAST_SEATS, streak, sheet, rng)


FAST_SEATS = ("a", "b", "c")


def random_deal(
    rs: PreferansRuleSet,
    rules: PreferansRules,
    carry: Any,
    rng: random.Random,
    seats: Sequence[str] = FAST_SEATS,
) -> State:
    """A random deal on the validating states as the fast path deals it
    (:func:`fast.deal_cards`): at a table of ``seats`` (default ``a b c``), the last deals."""
    hands, talon = fast.deal_cards(rng)
    seat_tuple = tuple(seats)
    streak, sheet = rs.carry_of(rules, seat_tuple, carry)
    active = (seat_tuple[0], seat_tuple[1], seat_tuple[2])
    return hand.new_state(rules, seat_tuple, seat_tuple[-1], active, streak, sheet, hands, talon)


RULE_SET = PreferansRuleSet(
    name="preferans",
    description="Russian Preferans: 3 players (4 with the dealer sitting out), bids 6S to 10NT "
    "and misère, whist, raspasy, a score sheet of pool, mountain and whists "
    "(spec/next/preferans.md)",
    deck=PIQUET,
    table=TableShape((3, 4), players=3, reserved=("talon",)),
    dealing=DEALING,
    carry=Carry((), "points", party=None, optional=("streak", "sheet")),
    sheet_keys=frozenset({"game", "declarer", "defence", "mode", "tricks"}),
    examples=EXAMPLES,
    carry_examples=({}, {"streak": 0}, {"streak": 1}, {"streak": 3}),
    options=OPTIONS,
    phases=hand.PHASES,
    vocabulary=actions.VOCABULARY,
    ordered_piles=("talon",),
    legal_with_seat=True,
    score_unit="whists",
    shapes=SHAPES,
    point_price="whist_value",
    positions=("forehand", "middlehand", "rearhand"),
    labels=LABELS,
)
"""The ``preferans`` rule set, registered in ``engine.rules`` and offered to the Django apps."""
