"""``trickgame`` behind the seam (``engine/README.md``, "Rule sets: the seam")."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.bots.policy import BotPolicy
from engine.ruleset import Carry, Closing, Common, RuleSet
from engine.table import Dealing, TableShape
from tests.trickgame import hand, results
from tests.trickgame.bot import heuristic
from tests.trickgame.hand import DECK, PHASES, VOCABULARY, State
from tests.trickgame.results import REASONS, Outcome
from tests.trickgame.rules import EXAMPLES, OPTIONS, VARIANT, TrickRules, parse_rules
from tests.trickgame.schema import POSITIONS, SHAPES

FAST_SEATS = ("a", "b", "c", "d")
"""The seats of :meth:`TrickGame.play_random_hand` (``d`` deals)."""


class TrickGame(RuleSet[State, TrickRules, Outcome]):
    """The test-only trick game of four (the package docstring states its rules)."""

    def parse_rules(self, data: Any) -> TrickRules:
        return parse_rules(data)

    def read_carry(self, record: Mapping[str, Any]) -> Any:
        """Nothing carries between deals."""
        return {}

    def new_hand(
        self,
        rules: TrickRules,
        seats: Sequence[str],
        dealer: str,
        carry: Any,
        deal: Mapping[str, int],
    ) -> State:
        seat_tuple = self.table.check(list(seats), dealer)
        active = self.active_seats(seat_tuple, dealer)
        self.dealing.check(self.deck, active, deal)
        return hand.new_state(rules, seat_tuple, dealer, active, deal)

    def to_act(self, state: State) -> frozenset[str]:
        return frozenset() if state.is_over else frozenset({state.active[state.turn]})

    def legal_actions(self, state: State, seat: str | None) -> list[Action]:
        if seat is None:
            return [a for p in range(len(state.active)) for a in hand.legal(state, p)]
        p = state.player(seat)
        return [] if p is None else hand.legal(state, p)

    def apply(self, state: State, action: Action) -> State:
        return hand.apply(state, action)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return hand.view(state, seat)

    def known(self, state: State, seat: str | None) -> int:
        return hand.known(state, seat)

    def action_from_json(self, data: Any, at: str) -> Action:
        return hand.read(data, at)

    def carry_json(self, state: State) -> dict[str, Any]:
        return {}

    def dealt(self, state: State) -> dict[str, list[str]]:
        return {seat: DECK.codes_of(state.deal[i]) for i, seat in enumerate(state.active)}

    def outcome(self, state: State) -> Outcome:
        return results.outcome(state)

    def parse_sheet(self, record: Mapping[str, Any], common: Common) -> Outcome:
        active = self.active_seats(common.seats, common.dealer)
        return results.parse_entry(record, common.rules, common.seats, common.dealer, active)

    def sheet_json(self, outcome: Outcome) -> dict[str, Any]:
        return results.entry_json(outcome)

    def settle_outcome(self, outcome: Outcome) -> dict[str, Any]:
        return results.settle(outcome)

    def describe_game(self, game: Mapping[str, Any] | None) -> str:
        """``quiet``, ``contest 2``, ``sweep``."""
        if not game:
            return ""
        high = game.get("high_bid")
        return f"{game['type']} {high}" if high is not None else str(game["type"])

    def is_premium(self, game: Mapping[str, Any] | None) -> bool:
        """A sweep (a bid of all four tricks) is the premium game."""
        return bool(game) and isinstance(game, Mapping) and game.get("type") == "sweep"

    def sheet_row(self, result: Mapping[str, Any]) -> dict[str, Any] | None:
        """The bids and who was exact."""
        return {"bids": dict(result["bids"]), "exact": list(result["exact"])}

    def carry_after(self, result: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def close(self, rules: TrickRules, seats: Sequence[str], carry: Any) -> Closing:
        """Nothing is left to share: the players paid one another."""
        return Closing(transfers=(), carry={})

    def bot_policies(self) -> dict[str, BotPolicy]:
        return {"heuristic": heuristic}

    def play_random_hand(self, rules: TrickRules, carry: Any, rng: random.Random) -> Any:
        """One hand at a table of ``a b c d`` (``d`` deals), dealt from a shuffle and played
        by the random bot; its Result."""
        active = self.active_seats(FAST_SEATS, "d")
        order, _ = self.shuffled_deck(rng)
        deal = self.dealing.parse(self.deal_from_deck(order, active), DECK, active)
        state = self.new_hand(rules, FAST_SEATS, "d", {}, deal)
        while not state.is_over:
            state = self.apply(state, self.random_action(state, rng))
        return self.settle_outcome(self.outcome(state))


RULE_SET = TrickGame(
    name=VARIANT,
    description="A test-only trick game: 4 players, 16 cards, one round of bids, exact bids "
    "paid by those who missed (tests/trickgame)",
    deck=DECK,
    table=TableShape((4,), players=4),
    dealing=Dealing(((2, ""), (2, ""))),
    carry=Carry((), "cents", party=None),
    sheet_keys=frozenset({"bids", "taken"}),
    examples=EXAMPLES,
    carry_examples=({},),
    options=OPTIONS,
    phases=PHASES,
    vocabulary=VOCABULARY,
    shapes=SHAPES,
    positions=POSITIONS,
    labels={
        **{f"game:{kind}": kind.title() for kind in ("quiet", "contest", "sweep")},
        **{f"reason:{why}": why.title() for why in REASONS},
    },
)
"""The ``trickgame`` rule set (``tests/trickgame/registered.py`` registers it)."""
