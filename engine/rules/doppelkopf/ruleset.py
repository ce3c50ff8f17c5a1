"""``doppelkopf`` and ``doppelkopf-ddv`` behind the seam (``engine/README.md``, "Rule sets: the
seam"): the hand of :mod:`engine.rules.doppelkopf.hand`, the views of
:mod:`~engine.rules.doppelkopf.views`, the outcome and settlement of
:mod:`~engine.rules.doppelkopf.results`, :mod:`~engine.rules.doppelkopf.kasse` and
:mod:`~engine.rules.doppelkopf.ddv`, the score-sheet entries of
:mod:`~engine.rules.doppelkopf.entries`.

What is Doppelkopf's own at the seam (``spec/next/doppelkopf.md``):

- *duplicate cards*: a 48-card deck of 24 codes twice (``copies=2``); a deal names each code
  twice, ``card: "CQ"`` names the first copy and plays the copy the seat holds, ``legal_actions``
  lists a code once;
- *all four play*: ``TableShape((4,), players=4)``, the dealer plays last; four rounds of
  three cards, no talon;
- *the Kasse* (``doppelkopf``): ``Carry(("kasse",), "cents", "kasse")``, antes and refills
  into it, payouts from it, ``kasse_at_close`` when the table stops;
- *player to player* (``doppelkopf-ddv``): no carry but the optional ``pflicht_owed``;
- *any seat announcing* (``doppelkopf-ddv``): :meth:`to_act` is the player to reserve or play
  and every seat with an announcement in time; ``legal_actions`` of a seat not to play are
  its announcements.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action, action_to_json
from engine.bots.policy import BotPolicy
from engine.rules.doppelkopf import (
    actions,
    ddv,
    entries,
    fast,
    hand,
    heuristic,
    kasse,
    schema,
    series,
    views,
)
from engine.rules.doppelkopf import messages as m
from engine.rules.doppelkopf.cards import DECK, codes
from engine.rules.doppelkopf.hand import State
from engine.rules.doppelkopf.labels import DDV_LABELS, LABELS, UNLIKE_DEALS
from engine.rules.doppelkopf.rules import (
    DDV_EXAMPLES,
    DDV_OPTIONS,
    EXAMPLES,
    OPTIONS,
    AnyRules,
    DdvRules,
    DoppelkopfRules,
    parse_ddv_rules,
    parse_rules,
)
from engine.rules.doppelkopf.schema import DDV_SHAPES, POSITIONS, SHAPES
from engine.ruleset import Carry, Closing, Common, RuleSet, TableRound
from engine.table import Dealing, TableShape

KASSE = "kasse"
DEALING = Dealing(((3, ""),) * 4)
"""Four rounds of 3 cards, forehand first (DDV practice); no talon."""
SHEET_KEYS = frozenset({"game", "re", "points", "tricks", "queen_tricks", "last_trick"})
DDV_SHEET_KEYS = frozenset({"game", "re", "points", "tricks", "announcements", "extras"})
FAST_SEATS = ("a", "b", "c", "d")
"""The seats of the fast path's hands (``d`` deals, so ``a`` is forehand)."""


def read_kasse(value: object) -> int:
    """``kasse``: the common Kasse before the deal, a whole number of cents ≥ 0."""
    if type(value) is not int or value < 0:
        raise m.KASSE_VALUE.error(KASSE, value=repr(value))
    return value


def read_pflicht_owed(value: object) -> tuple[str, ...]:
    """``pflicht_owed``: the seats still owing this round's Pflichtsolo, a list of distinct
    names (default ``[]``)."""
    if not isinstance(value, list | tuple) or not all(isinstance(s, str) for s in value):
        raise m.PFLICHT_OWED_NOT_LIST.error("pflicht_owed")
    if len(set(value)) != len(value):
        raise m.PFLICHT_OWED_TWICE.error("pflicht_owed")
    return tuple(value)


class Doppelkopf(RuleSet[State, AnyRules, Any]):
    """Doppelkopf after the seed's rules with a Kasse (``spec/next/doppelkopf.md``)."""

    # --- options and the table -------------------------------------------------------------

    def parse_rules(self, data: Any) -> AnyRules:
        return parse_rules(data)

    def read_carry(self, record: Mapping[str, Any]) -> Any:
        """The Kasse before the deal (``kasse``, required)."""
        return read_kasse(record.get(KASSE))

    def carry_of(self, seats: tuple[str, ...], carry: Any) -> tuple[int | None, tuple[str, ...]]:
        """The ``kasse`` and ``pflicht_owed`` of a carry (:meth:`read_carry`'s value, a record's
        keys, or a bare number of cents as the CLI's ``--pot``)."""
        if type(carry) is int and carry >= 0:  # read_carry's value, as the fast path meets it
            return carry, ()
        if isinstance(carry, Mapping):
            carry = carry.get(KASSE, 0)
        return read_kasse(carry if carry is not None else 0), ()

    # --- a hand ----------------------------------------------------------------------------

    def new_hand(
        self,
        rules: AnyRules,
        seats: Sequence[str],
        dealer: str,
        carry: Any,
        deal: Mapping[str, int],
    ) -> State:
        """The hand after the deal (four hands of 12, each code at most twice)."""
        seat_tuple = self.table.check(list(seats), dealer)
        active = self.active_seats(seat_tuple, dealer)
        self.dealing.check(self.deck, active, deal)
        kasse, owed = self.carry_of(seat_tuple, carry)
        hands = tuple(deal[a] for a in active)
        return hand.new_state(rules, seat_tuple, dealer, active, kasse, owed, hands)

    def to_act(self, state: State) -> frozenset[str]:
        return hand.to_act(state)

    def waiting_for(self, state: State) -> frozenset[str]:
        """The player to reserve or play; announcements are optional, the hand does not wait
        for them."""
        return frozenset() if state.is_over else frozenset({state.active[state.turn]})

    def legal_actions(self, state: State, seat: str | None) -> list[Action]:
        """``seat``'s reservation or cards when it is his turn (a code once, in deck order),
        then (DDV) his announcements; ``None``: every seat's, in playing order."""
        if seat is None:
            return [a for p in range(4) for a in hand.legal(state, p)]
        p = state.player(seat)
        return [] if p is None else hand.legal(state, p)

    def apply(self, state: State, action: Action) -> State:
        return hand.apply(state, action)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return views.view(state, seat)

    def known(self, state: State, seat: str | None) -> int:
        return views.known(state, seat)

    def legal_answer(self, state: State) -> dict[str, Any]:
        """``python -m engine legal`` (spec "What each player sees"): ``to_act`` the seat to
        reserve or play, ``legal`` its reservation or card actions (a code once), ``announce``
        every seat's announcements (DDV; else ``[]``); a finished hand ``{"to_act": null,
        "legal": [], "announce": []}``."""
        if state.is_over:
            return {"to_act": None, "legal": [], "announce": []}
        p = state.turn
        own = [a for a in hand.legal(state, p) if not isinstance(a, actions.Announce)]
        announce = [
            action_to_json(a, DECK)
            for q in range(4)
            for a in hand.legal(state, q)
            if isinstance(a, actions.Announce)
        ]
        return {
            "to_act": state.active[p],
            "legal": [action_to_json(a, DECK, seat=False) for a in own],
            "announce": announce,
        }

    # --- records ---------------------------------------------------------------------------

    def action_from_json(self, data: Any, at: str) -> Action:
        return actions.read(data, at, ddv=False)

    def carry_json(self, state: State) -> dict[str, Any]:
        return {KASSE: state.kasse}

    def dealt(self, state: State) -> dict[str, list[str]]:
        """The four hands as dealt, in playing order from forehand (deck order within)."""
        return {seat: codes(state.deal[i]) for i, seat in enumerate(state.active)}

    # --- results ---------------------------------------------------------------------------

    def outcome(self, state: State) -> Any:
        return hand.outcome(state)

    def parse_sheet(self, record: Mapping[str, Any], common: Common) -> Any:
        order = self.active_seats(common.seats, common.dealer)
        kasse, owed = self.carry_of(common.seats, common.carry)
        return entries.parse_entry(record, common.rules, order, kasse, owed)

    def sheet_json(self, outcome: Any) -> dict[str, Any]:
        out: dict[str, Any] = entries.entry_json(outcome)
        return out

    def settle_outcome(self, outcome: Any) -> dict[str, Any]:
        out: dict[str, Any] = kasse.settle(outcome)
        return out

    def describe_game(self, game: Mapping[str, Any] | None) -> str:
        """``normal``, ``hochzeit``, ``solo H``, ``karlchen``, ``secret_solo`` (DDV: ``solo
        queens``, ``solo C pflicht``, ``silent_solo``)."""
        if not game:
            return ""
        kind = game.get("trump", game.get("kind"))
        text = str(game.get("type", ""))
        if kind is not None:
            text = f"{text} {kind}"
        return f"{text} pflicht" if game.get("pflicht") else text

    def sheet_row(self, result: Mapping[str, Any]) -> dict[str, Any] | None:
        """The sheet a Doppelkopf table keeps: the Re party, the winner (``re``, ``kontra`` or
        null), the Augen of each party, the announcements and extra points of each party (DDV;
        none under ``doppelkopf``), the ``category`` (``doppelkopf``: simple, schneider,
        schwarz) and each player's game points (``score``: DDV; ``doppelkopf`` scores in
        money only, null)."""
        none: dict[str, Any] = {"re": None, "kontra": None}
        return {
            "re": list(result["re"]),
            "winner": result.get("winner"),
            "augen": result.get("points"),
            "announcements": result.get("announcements") or none,
            "extras": result.get("extras") or {"re": [], "kontra": []},
            "category": result.get("category"),
            "score": result.get("score"),
        }

    def sheet_rows(self, results: Sequence[Mapping[str, Any]]) -> list[dict[str, Any] | None]:
        """:meth:`sheet_row` of each deal with ``totals``: each seat's running game points
        after it (DDV), null under ``doppelkopf``, which scores in money only."""
        return schema.sheet_rows([self.sheet_row(result) for result in results])

    def sheet_columns(self, seats: Sequence[str]) -> list[str]:
        """The Re party, the winner, each party's Augen, announcement and extras, then each
        seat's game points for the deal and running."""
        return schema.sheet_columns(seats)

    def sheet_cells(self, row: Mapping[str, Any], seats: Sequence[str]) -> list[Any]:
        return schema.sheet_cells(row, seats)

    def is_premium(self, game: Mapping[str, Any] | None) -> bool:
        """Doppelkopf has no premium games."""
        return False

    def carry_after(self, result: Mapping[str, Any]) -> dict[str, Any]:
        """The next deal's Kasse: the Result's ``kasse``."""
        return {KASSE: result[KASSE]}

    def close(self, rules: AnyRules, seats: Sequence[str], carry: Any) -> Closing:
        """``kasse_at_close`` (as ``pot_at_close`` in ``wien.md``): ``carry`` keeps the Kasse
        for the table's next sitting; ``split`` shares it equally among the seats, leftover
        cents one each to the seats in order, first seat first."""
        kasse, _ = self.carry_of(tuple(seats), carry)
        assert kasse is not None
        if getattr(rules, "kasse_at_close", "carry") == "carry" or not kasse:
            return Closing(transfers=(), carry={KASSE: kasse})
        if not seats:
            raise m.SPLIT_NO_SEATS.error("seats")
        base, left = divmod(kasse, len(seats))
        transfers = tuple(
            {"from": KASSE, "to": s, "amount": base + (1 if i < left else 0), "why": "split"}
            for i, s in enumerate(seats)
            if base + (1 if i < left else 0)
        )
        return Closing(transfers=transfers, carry={KASSE: 0})

    # --- bots and the fast path ------------------------------------------------------------

    def random_action(self, state: State, rng: random.Random) -> Action:
        """The ``random`` bot (:func:`fast.choose`): mostly healthy reservations, rare
        announcements, a card as the shared board's playout picks it."""
        return fast.choose(state, rng)

    def random_action_for(self, state: State, seat: str, rng: random.Random) -> Action | None:
        """The ``random`` bot for ``seat`` alone (:func:`fast.choose_for`)."""
        p = state.player(seat)
        return None if p is None else fast.choose_for(state, p, rng)

    def bot_policies(self) -> dict[str, BotPolicy]:
        """``heuristic`` (:mod:`engine.rules.doppelkopf.heuristic`): reservations by hand
        strength, announcements by a simple estimate, card play that knows its party."""
        return {"heuristic": heuristic.choose}

    def play_random_hand(self, rules: AnyRules, carry: Any, rng: random.Random) -> Any:
        """The fast path: one random hand at a table of ``a b c d`` (``d`` deals) dealt,
        reserved, played and settled; its Result."""
        kasse, owed = self.carry_of(FAST_SEATS, carry)
        return fast.random_result(rules, FAST_SEATS, kasse, owed, rng)


class DoppelkopfDdv(Doppelkopf):
    """Doppelkopf after the DDV tournament rules (``spec/next/doppelkopf.md``, last section):
    the Dulle, DDV solos, announcements, player-to-player money."""

    def parse_rules(self, data: Any) -> AnyRules:
        return parse_ddv_rules(data)

    def read_carry(self, record: Mapping[str, Any]) -> Any:
        """``pflicht_owed`` (optional, default ``[]``) and ``vorfuehrung`` (optional: the seat
        vorgeführt in this deal, ``engine.rules.doppelkopf.series``; he must be forehand and
        owe his Pflichtsolo)."""
        owed = read_pflicht_owed(record.get("pflicht_owed", []))
        who = record.get("vorfuehrung")
        if who is not None and (not isinstance(who, str) or who not in owed):
            raise m.VORFUEHRUNG_NOT_OWED.error("vorfuehrung", value=repr(who))
        return {"pflicht_owed": owed, "vorfuehrung": who}

    def new_hand(
        self,
        rules: AnyRules,
        seats: Sequence[str],
        dealer: str,
        carry: Any,
        deal: Mapping[str, int],
    ) -> State:
        """The hand after the deal; in a Vorführung (``carry``'s ``vorfuehrung``) its player
        sits forehand and may reserve only a solo."""
        state = super().new_hand(rules, seats, dealer, carry, deal)
        who = carry.get("vorfuehrung") if isinstance(carry, Mapping) else None
        if who is None:
            return state
        if state.active[0] != who:
            raise m.VORFUEHRUNG_FOREHAND.error("vorfuehrung", seat=who, dealer=dealer)
        return hand.with_vorfuehrung(state, who)

    def carry_of(self, seats: tuple[str, ...], carry: Any) -> tuple[int | None, tuple[str, ...]]:
        """The ``pflicht_owed`` of a carry (:meth:`read_carry`'s value or a record's keys; any
        other value, as the CLI's ``--pot``, owes none), each a seat of the table."""
        if type(carry) is dict or isinstance(carry, Mapping):
            carry = carry.get("pflicht_owed", ())
        if type(carry) in (tuple, list) and not carry:  # owes none, as the fast path meets it
            return None, ()
        owed = read_pflicht_owed(list(carry)) if isinstance(carry, list | tuple) else ()
        for seat in owed:
            if seat not in seats:
                raise m.PFLICHT_OWED_NOT_SEAT.error("pflicht_owed", seat=repr(seat))
        return None, owed

    def action_from_json(self, data: Any, at: str) -> Action:
        return actions.read(data, at, ddv=True)

    def parse_sheet(self, record: Mapping[str, Any], common: Common) -> Any:
        """A score-sheet entry; in a Vorführung it must be its player's solo (as forehand)."""
        outcome = super().parse_sheet(record, common)
        who = common.carry.get("vorfuehrung") if isinstance(common.carry, Mapping) else None
        if who is not None:
            if self.active_seats(common.seats, common.dealer)[0] != who:
                raise m.VORFUEHRUNG_FOREHAND.error("vorfuehrung", seat=who, dealer=common.dealer)
            if outcome.game.get("type") != "solo" or tuple(outcome.re) != (who,):
                raise m.ENTRY_VORGEFUEHRT.error("game", seat=who)
        return outcome

    def carry_json(self, state: State) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if state.pflicht_owed:
            out["pflicht_owed"] = list(state.pflicht_owed)
        if state.vorfuehrung is not None:
            out["vorfuehrung"] = state.vorfuehrung
        return out

    def settle_outcome(self, outcome: Any) -> dict[str, Any]:
        out: dict[str, Any] = ddv.settle(outcome)
        return out

    def carry_after(self, result: Mapping[str, Any]) -> dict[str, Any]:
        """The next deal's ``pflicht_owed`` where the Result names it (a Pflichtsolo's soloist
        no longer owes one); the Result of ``ddv.settle`` does not, so nothing carries and the
        table keeps the round's ``pflicht_owed`` (the quota per round is the table's)."""
        owed = result.get("pflicht_owed")
        if owed is None:
            return {}
        game = result.get("game") or {}
        soloist = result["re"][0] if game.get("pflicht") else None
        return {"pflicht_owed": [s for s in owed if s != soloist]}

    def close(self, rules: AnyRules, seats: Sequence[str], carry: Any) -> Closing:
        """Nothing is left to share: the players paid one another."""
        return Closing(transfers=(), carry={})

    def table_round(
        self,
        rules: AnyRules,
        seats: Sequence[str],
        first_dealer: str,
        results: Sequence[Mapping[str, Any]],
    ) -> TableRound | None:
        """The DDV round (:mod:`engine.rules.doppelkopf.series`): 24 counted deals, a
        Pflichtsolo owed by each player (dealt again by the same dealer), the Vorführung."""
        at = series.series_after(seats, first_dealer, results)
        return TableRound(
            dealer=at.dealer, carry=at.carry(), status=at.to_json(), completed=at.round - 1
        )


RULE_SET = Doppelkopf(
    name="doppelkopf",
    description="Doppelkopf: 4 players, 48 cards (24 twice), Re against Kontra, Hochzeit, "
    "solos, Heimliches Solo and Karlchen Müller, paid from a common Kasse "
    "(spec/next/doppelkopf.md)",
    deck=DECK,
    table=TableShape((4,), players=4, reserved=(KASSE,)),
    dealing=DEALING,
    carry=Carry((KASSE,), "cents", party=KASSE),
    sheet_keys=SHEET_KEYS,
    examples=EXAMPLES,
    carry_examples=({KASSE: 0}, {KASSE: 100}, {KASSE: 1000}),
    options=OPTIONS,
    phases=hand.PHASES,
    vocabulary=actions.VOCABULARY,
    shapes=SHAPES,
    positions=POSITIONS,
    labels=LABELS,
    unlike_deals=UNLIKE_DEALS,
)
"""The ``doppelkopf`` rule set (registered and offered in ``engine.rules``)."""

DDV_RULE_SET = DoppelkopfDdv(
    name="doppelkopf-ddv",
    description="Doppelkopf after the DDV tournament rules: the Dulle, Damen-, Buben-, Farb- and "
    "Fleischlos-Solo, Pflichtsolo, announcements (Re, Kontra, keine 90 …), extra points, "
    "paid player to player (spec/next/doppelkopf.md)",
    deck=DECK,
    table=TableShape((4,), players=4),
    dealing=DEALING,
    carry=Carry((), "cents", party=None, optional=("pflicht_owed", "vorfuehrung")),
    round_deals=series.ROUND_DEALS,
    score_unit="points",
    deal_scores=True,
    sheet_keys=DDV_SHEET_KEYS,
    examples=DDV_EXAMPLES,
    carry_examples=({}, {"pflicht_owed": []}),
    options=DDV_OPTIONS,
    phases=hand.PHASES,
    vocabulary=actions.DDV_VOCABULARY,
    shapes=DDV_SHAPES,
    point_price="point_value",
    positions=POSITIONS,
    labels=DDV_LABELS,
)
"""The ``doppelkopf-ddv`` rule set (registered and offered in ``engine.rules``)."""

__all__ = [
    "DDV_RULE_SET",
    "RULE_SET",
    "DdvRules",
    "Doppelkopf",
    "DoppelkopfDdv",
    "DoppelkopfRules",
]
