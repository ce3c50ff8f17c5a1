"""``wien`` as a :class:`engine.ruleset.RuleSet`: the answers of this package behind the seam."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.bots.belief import Belief
from engine.bots.policy import Decide
from engine.cards import PIQUET
from engine.rules.family.schema import (
    AUSFECHTEN_GAME,
    INVITING,
    POSITIONS,
    PREMIUM_GAME,
    SUIT_GAME,
    family_shapes,
)
from engine.rules.wien import (
    belief,
    bot,
    fast,
    heuristic,
    play,
    record,
    settle,
    simulate,
    views,
)
from engine.rules.wien.actions import VOCABULARY, action_from_json
from engine.rules.wien.labels import LABELS
from engine.rules.wien.messages import SPLIT_NO_SEATS
from engine.rules.wien.rules import OPTIONS, WienRules
from engine.rules.wien.settle import POT, Outcome
from engine.rules.wien.state import Phase, State
from engine.ruleset import Carry, Closing, Common, RuleSet
from engine.solver.position import Position


class Wien(RuleSet[State, WienRules, Outcome]):
    """Viennese Préférence (``spec/wien.md``)."""

    def parse_rules(self, data: Any) -> WienRules:
        return WienRules.from_json(data)

    def read_carry(self, record: Mapping[str, Any]) -> int:
        return play.check_pot(record["pot"])

    def stake(self, rules: WienRules, carry: Mapping[str, Any]) -> int:
        """S (wien.md, "Stakes"): the pot after the dealer's contribution, at most the cap."""
        return rules.stake(play.check_pot(carry["pot"]))

    def new_hand(
        self,
        rules: WienRules,
        seats: Sequence[str],
        dealer: str,
        carry: Any,
        deal: Mapping[str, int],
    ) -> State:
        return play.new_hand(rules, seats, dealer, carry, deal)

    def to_act(self, state: State) -> frozenset[str]:
        """One player at a time: the one whose turn it is (wien.md, "Turns")."""
        seat = state.to_act_seat
        return frozenset() if seat is None or state.is_over else frozenset((seat,))

    def legal_actions(self, state: State, seat: str | None) -> list[Action]:
        if seat is not None and seat != state.to_act_seat:
            return []
        return play.legal_actions(state)

    def apply(self, state: State, action: Action) -> State:
        return play.apply(state, action)

    def card_play(self, state: State) -> Position | None:
        return play.card_play(state)

    def bot_deal(self, view: dict[str, Any], rng: random.Random) -> State | None:
        return simulate.deal_view(view, rng)

    def bot_candidates(
        self, view: dict[str, Any], legal: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        return heuristic.candidates(view, legal)

    def card_play_view(self, view: dict[str, Any]) -> Belief | None:
        return belief.card_play_view(view)

    def bot_decide(self) -> Decide:
        return heuristic.choose

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return views.view(state, seat)

    def known(self, state: State, seat: str | None) -> int:
        return views.known(state, seat)

    def action_from_json(self, data: Any, at: str) -> Action:
        return action_from_json(data, PIQUET, at)

    def carry_json(self, state: State) -> dict[str, Any]:
        return {"pot": state.pot_before}

    def dealt(self, state: State) -> dict[str, list[str]]:
        """The three hands and the talon as dealt, each in card order."""
        out = {seat: PIQUET.codes_of(m) for seat, m in zip(state.active, state.deal, strict=False)}
        out["talon"] = PIQUET.codes_of(state.deal[3])
        return out

    def outcome(self, state: State) -> Outcome:
        return record.outcome(state)

    def parse_sheet(self, data: Mapping[str, Any], common: Common) -> Outcome:
        return record.parse_sheet(data, common)

    def sheet_json(self, outcome: Outcome) -> dict[str, Any]:
        return record.sheet_json(outcome)

    def settle_outcome(self, outcome: Outcome) -> dict[str, Any]:
        return settle.settle_outcome(outcome)

    def describe_game(self, game: Mapping[str, Any] | None) -> str:
        """``D``, ``Geschäft S``, ``herz``, ``5h Bettler von der Hand``, ``Ausfechten``."""
        return record.game_text(game)

    def carry_after(self, result: Mapping[str, Any]) -> dict[str, Any]:
        """The pot after the deal is the next deal's pot."""
        return {"pot": result["pot"]}

    def close(self, rules: WienRules, seats: Sequence[str], carry: Any) -> Closing:
        """wien.md, "End of a sitting": ``pot_at_close = "carry"`` keeps the pot for the
        table's next sitting; ``"split"`` shares it equally among the seats, leftover cents one
        each to the seats in order, first seat first."""
        pot = play.check_pot(carry)
        if rules.pot_at_close == "carry" or not pot:
            return Closing(transfers=(), carry={"pot": pot})
        if not seats:
            raise SPLIT_NO_SEATS.error("seats")
        base, left = divmod(pot, len(seats))
        shares = [(s, base + (1 if i < left else 0)) for i, s in enumerate(seats)]
        transfers = tuple(
            {"from": POT, "to": s, "amount": amount, "why": "split"}
            for s, amount in shares
            if amount
        )
        return Closing(transfers=transfers, carry={"pot": 0})

    def random_action(self, state: State, rng: random.Random) -> Action:
        """Most players pass, few look into the talon (``engine.rules.wien.bot``)."""
        return bot.choose(state, rng)

    def play_random_hand(
        self, rules: WienRules, carry: Any, rng: random.Random
    ) -> tuple[list[int], int]:
        """The fast path: the active players' changes from the play (the dealer's contribution
        not included) and the pot after the deal."""
        return fast.play_random_hand(rules, carry, rng)


RULE_SET = Wien(
    name="wien",
    description="Viennese Préférence: 3 players (4 with the dealer sitting out), a pot, "
    "number bids, Geschäft, premium games and Nachschauen (spec/wien.md)",
    deck=PIQUET,
    table=play.TABLE,
    dealing=play.DEALING,
    carry=Carry(keys=("pot",), unit="cents", party=POT),
    sheet_keys=record.SHEET_KEYS,
    examples=(
        {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300},
        {
            "variant": "wien",
            "dealer_contribution": 10,
            "pot_cap": None,
            "holding_after_forehand": "middlehand",
            "invitation_tricks": "each",
            "pot_at_close": "split",
        },
        {"variant": "wien", "dealer_contribution": 50, "pot_cap": 50},
    ),
    house={
        "variant": "wien",
        "dealer_contribution": 10,
        "pot_cap": None,
        "holding_after_forehand": "rearhand",
        "invitation_tricks": "inviter",
        "pot_at_close": "carry",
    },
    carry_examples=({"pot": 0}, {"pot": 200}, {"pot": 1000}),
    options=OPTIONS,
    vocabulary=VOCABULARY,
    shapes=family_shapes(
        (SUIT_GAME, PREMIUM_GAME, AUSFECHTEN_GAME),
        INVITING,
        ("dealer", "game", "tricks", "fall", "premium", "ausfechten", "split"),
        wien=True,
    ),
    positions=POSITIONS,
    phases=tuple(phase.value for phase in Phase),
    labels=LABELS,
)
"""The ``wien`` rule set, registered in ``engine.rules``."""
