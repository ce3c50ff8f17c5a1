""":class:`FamilyRuleSet`: a talon-family rule set behind ``engine.ruleset.RuleSet``. Each rule
set package subclasses it, names its :class:`engine.rules.family.spec.Family` and builds its
value with :func:`family_rule_set`, giving only what differs from the family
(``engine/rules/kurz/ruleset.py``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from engine.actions import Action, PlayCard
from engine.bots.belief import Belief
from engine.bots.policy import Decide
from engine.cards import PIQUET
from engine.errors import EngineError
from engine.rules.family import actions as family_actions
from engine.rules.family import belief, heuristic, views
from engine.rules.family import messages as msg
from engine.rules.family import outcome as record
from engine.rules.family.game import MISERE, NORMAL, SLAM, Rules, read_rules
from engine.rules.family.hand import ORDERS, Hand
from engine.rules.family.labels import labels_of
from engine.rules.family.outcome import Outcome
from engine.rules.family.phases import AUCTION, DISCARD, DONE, PLAY
from engine.rules.family.schema import POSITIONS
from engine.rules.family.settle import POT
from engine.rules.family.spec import FLAG_STEPS, Family
from engine.rules.family.state import State
from engine.ruleset import Carry, Closing, Common, RuleSet, Shapes
from engine.solver.position import MISERE as MISERE_GOAL
from engine.solver.position import MOST, Position
from engine.solver.position import SLAM as SLAM_GOAL
from engine.table import Dealing, TableShape
from engine.tricks import obligation_refusal


class FamilyRuleSet(RuleSet[State, Rules, Outcome]):
    """A talon-family rule set: the shared machinery asking :attr:`family`."""

    family: ClassVar[Family]

    # --- options and the table ---------------------------------------------------------------

    def parse_rules(self, data: Any) -> Rules:
        return read_rules(self.name, self.options, data, self.family.check_rules)

    def read_carry(self, record: Mapping[str, Any]) -> dict[str, Any]:
        return self.family.read_carry(record)

    # --- a hand ------------------------------------------------------------------------------

    def new_hand(
        self,
        rules: Rules,
        seats: Sequence[str],
        dealer: str,
        carry: Any,
        deal: Mapping[str, int],
    ) -> State:
        seat_tuple = self.table.check(list(seats), dealer)
        if not isinstance(carry, dict):
            carry = self.read_carry({"pot": carry} if "pot" in self.carry.keys else {})
        active = self.active_seats(seat_tuple, dealer)
        self.dealing.check(self.deck, active, deal)
        masks = (deal[active[0]], deal[active[1]], deal[active[2]], deal["talon"])
        hand = Hand(self.family, rules, active, masks, carry)
        return State(rules, seat_tuple, dealer, _pairs(carry), active, (), hand)

    def to_act(self, state: State) -> frozenset[str]:
        seat = state.to_act_seat
        return frozenset() if seat is None else frozenset((seat,))

    def legal_actions(self, state: State, seat: str | None) -> list[Action]:
        if state.is_over or (seat is not None and seat != state.to_act_seat):
            return []
        return state.hand.legal()

    def apply(self, state: State, action: Action) -> State:
        h = state.hand
        legal = h.legal()
        if action not in legal and not (
            action.seat == state.to_act_seat and h.family.also_legal(h, action)
        ):
            raise _refusal(state, action, legal)
        new = h.copy()
        new.step(action)
        return State(
            state.rules,
            state.seats,
            state.dealer,
            state.carry,
            state.active,
            (*state.history, action),
            new,
        )

    def card_play(self, state: State) -> Position | None:
        """Suit and no-trump contracts (the declarer's most tricks), misère and slam (ending
        early as ``Hand.trick_done`` says); ``None`` outside card play and for the contracts
        whose aim is not a count of tricks (Balkan ``uno``, six tricks in a row)."""
        h = state.hand
        if h.phase != PLAY or h.to_act < 0 or h.declarer < 0:
            return None
        goal = {NORMAL: MOST, MISERE: MISERE_GOAL, SLAM: SLAM_GOAL}.get(h.target)
        if goal is None:
            return None
        game = h.game
        assert game is not None
        players, q = [], h.to_act
        for _ in h.trick:  # the trick's cards came from the players before the one to act
            q = (q - 1) % 3
            while not h.playing >> q & 1:
                q = (q - 1) % 3
            players.append(q)
        duty = h.family.duty(h)
        return Position(
            deck=PIQUET,
            seats=state.active,
            hands=tuple(h.hands),
            trick=tuple(zip(reversed(players), h.trick, strict=True)),
            to_act=h.to_act,
            playing=h.playing,
            order=ORDERS[game.trump],
            duty=(duty, duty, duty),
            side=1 << h.declarer,
            won=h.won[h.declarer],
            goal=goal,
        )

    def bot_decide(self) -> Decide:
        """:func:`engine.rules.family.heuristic.choose`: bidding, talon, defence by hand
        strength."""
        return heuristic.choose

    def card_play_view(self, view: dict[str, Any]) -> Belief | None:
        """:func:`engine.rules.family.belief.card_play_view`, the view's ``rules`` read."""
        return belief.card_play_view(self.family, self.parse_rules(view["rules"]), view)

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return views.view(state, seat)

    def known(self, state: State, seat: str | None) -> int:
        return views.known(state, seat)

    # --- records -----------------------------------------------------------------------------

    def action_from_json(self, data: Any, at: str) -> Action:
        fam = self.family
        return family_actions.read(
            data,
            PIQUET,
            at,
            keys=fam.keys,
            calls=fam.vocabulary_calls,
            declares=fam.vocabulary_declares,
            words=fam.words,
            defences=fam.vocabulary_defences,
        )

    def carry_json(self, state: State) -> dict[str, Any]:
        return state.carry_dict

    def dealt(self, state: State) -> dict[str, list[str]]:
        deal = state.hand.deal
        out = {seat: PIQUET.codes_of(deal[i]) for i, seat in enumerate(state.active)}
        out["talon"] = PIQUET.codes_of(deal[3])
        return out

    # --- results -----------------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome:
        if not state.is_over:
            raise msg.HAND_NOT_FINISHED.error("actions", seat=state.to_act_seat, phase=state.phase)
        return record.outcome_of(state.hand, state.seats, state.dealer)

    def parse_sheet(self, data: Mapping[str, Any], common: Common) -> Outcome:
        return record.parse_sheet(self.family, data, common)

    def sheet_json(self, outcome: Outcome) -> dict[str, Any]:
        return record.sheet_json(outcome)

    def settle_outcome(self, outcome: Outcome) -> dict[str, Any]:
        return self.family.settle(outcome)

    def describe_game(self, game: Mapping[str, Any] | None) -> str:
        return self.family.describe_game(game)

    def is_premium(self, game: Mapping[str, Any] | None) -> bool:
        return self.family.is_premium(game)

    def carry_after(self, result: Mapping[str, Any]) -> dict[str, Any]:
        return {"pot": result["pot"]} if "pot" in self.carry.keys else {}

    def close(self, rules: Rules, seats: Sequence[str], carry: Any) -> Closing:
        """The pot stays with the table for its next sitting (the pages say nothing else)."""
        if "pot" not in self.carry.keys:
            return Closing(transfers=(), carry={})
        pot = carry["pot"] if isinstance(carry, dict) else carry
        return Closing(transfers=(), carry={"pot": self.read_carry({"pot": pot})["pot"]})

    # --- bots and the fast path --------------------------------------------------------------

    def random_action(self, state: State, rng: random.Random) -> Action:
        """The family's ``random_move`` (the same policy as the fast path)."""
        if state.is_over:
            raise ValueError("the hand is over")
        return self.family.random_move(state.hand, rng)

    def play_random_hand(
        self, rules: Rules, carry: Any, rng: random.Random
    ) -> tuple[list[int], int | None]:
        """The fast path: deal, bid, play and settle one hand in place on the shared board;
        the changes of forehand, middlehand and rearhand (the dealer) and the pot after."""
        if not isinstance(carry, dict):
            carry = self.read_carry({"pot": carry} if "pot" in self.carry.keys else {})
        h = Hand(self.family, rules, _FAST_SEATS, fast_deal(self, rng), carry)
        play_out(h, rng)
        return self.family.fast_settle(record.outcome_of(h, _FAST_SEATS, _FAST_SEATS[2]))


_FAST_SEATS = ("a", "b", "c")
_DECK = list(range(32))


def fast_deal(rs: RuleSet[Any, Any, Any], rng: random.Random) -> tuple[int, int, int, int]:
    """A random deal by the rule set's packets (Fisher–Yates on ``random()``)."""
    deck = _DECK[:]
    rand = rng.random
    for i, m in _FISHER_YATES:
        j = int(rand() * m)
        deck[i], deck[j] = deck[j], deck[i]
    deal = _DEALERS.get(id(rs.dealing))
    return (deal or _dealer(rs.dealing))(deck)


_FISHER_YATES = tuple((i, i + 1) for i in range(31, 0, -1))


_DEALERS: dict[int, Callable[[list[int]], tuple[int, int, int, int]]] = {}
"""Generated dealers by the ``id`` of their (module-level, never freed) ``Dealing``."""


def _dealer(dealing: Dealing) -> Callable[[list[int]], tuple[int, int, int, int]]:
    """A function dealing a shuffled deck by ``dealing``, generated once as straight-line code
    (the generic loop cost as much as a whole auction)."""
    found = _DEALERS.get(id(dealing))
    if found is not None:
        return found
    places: list[list[int]] = [[], [], [], []]
    k = 0
    for count, to in dealing.packets:
        for p in (3,) if to else (0, 1, 2):
            places[p] += range(k, k + count)
            k += count
    parts = [" | ".join(f"(1 << deck[{i}])" for i in pos) for pos in places]
    source = "def deal(deck):\n    return (" + ", ".join(parts) + ")\n"
    scope: dict[str, Any] = {}
    exec(source, scope)  # noqa: S102 - generated from the dealing's own packet sizes
    _DEALERS[id(dealing)] = scope["deal"]
    return _DEALERS[id(dealing)]


def fast_choice(h: Hand, rng: random.Random) -> Action:
    """The random bot's move as the fast path chooses it (the family's ``random_move``)."""
    return h.family.random_move(h, rng)


def play_out(h: Hand, rng: random.Random) -> None:
    """Play a hand to the end with the random bot; the cards straight on the board, the
    obligations by ``engine.tricks.legal_mask`` (drawing from ``rng`` as ``random_move``)."""
    rand = rng.random
    random_move = h.family.random_move
    random_call = h.family.random_call
    random_answer = h.family.random_answer
    auction_calls = h.family.auction_calls
    auction_call = h.family.auction_call
    while True:
        ph = h.phase
        if ph == PLAY:
            h.play_random(rand)
        elif ph == DONE:
            return
        elif ph == AUCTION:  # as random_move, without making the action value
            auction_call(h, h.to_act, random_call(auction_calls(h), rng))
        elif ph in FLAG_STEPS:
            h.answer(random_answer(h, rng))
        else:
            h.step(random_move(h, rng))


def _pairs(carry: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(
        (k, tuple(sorted(v.items())) if isinstance(v, dict) else v) for k, v in carry.items()
    )


def _refusal(state: State, action: Action, legal: list[Action]) -> EngineError:
    """Why ``action`` is not allowed now, in words (an :class:`IllegalAction`)."""
    h = state.hand
    seat = action.seat
    if state.is_over:
        return msg.HAND_OVER.error("")
    if seat not in state.seats:
        return msg.NO_SUCH_SEAT.error("", seat=repr(seat))
    p = state.player(seat)
    if p is None:
        return msg.SITS_OUT.error("", seat=seat)
    if p != h.to_act:
        return msg.NOT_YOUR_TURN.error("", to_act=state.to_act_seat, seat=seat)
    if not any(type(a) is type(action) for a in legal):
        return msg.NOT_NOW[h.phase].error("", seat=seat)
    if isinstance(action, PlayCard):
        code = PIQUET.code(action.card)
        if not h.hands[p] >> action.card & 1:
            return msg.NOT_HELD.error("", seat=seat, card=code)
        mask = h.legal_card_mask()
        assert h.game is not None
        duty = h.family.duty(h)
        return obligation_refusal(
            PIQUET, ORDERS[h.game.trump], h.hands[p], h.trick, mask, seat, duty
        )
    if h.phase == DISCARD:
        cards = " ".join(PIQUET.codes_of(h.hands[p]))
        return msg.DISCARD_FROM_HAND.error("", seat=seat, cards=cards)
    reason = h.family.why(h, action)
    if reason is not None:
        return reason
    words = ", ".join(str(v) for v in (action_value(a) for a in legal if type(a) is type(action)))
    return msg.MUST[h.phase].error("", seat=seat, legal=words)


def action_value(action: Action) -> Any:
    value = action.value_json(PIQUET)
    if isinstance(value, dict):
        return " ".join(str(v) for v in value.values())
    return "pass" if value is None else value


# --- building a rule set ---------------------------------------------------------------------

DEAL_3_2_4_3 = Dealing(((3, ""), (2, "talon"), (4, ""), (3, "")))
"""Wien's deal: 3 each from forehand, 2 to the talon, 4 each, 3 each."""
DEAL_5_2_5 = Dealing(((5, ""), (2, "talon"), (5, "")))
"""5 each, 2 to the talon, 5 each (balkan, danube-swabian)."""
POT_CARRY = Carry(("pot",), "cents", party="pot")
"""A pot in cents carried from deal to deal, a party to transfers."""
SHEET_KEYS = frozenset({"game", "declarer", "tricks"})
"""The keys of every talon-family score-sheet entry beyond the envelope."""

S = TypeVar("S", bound=FamilyRuleSet)


def family_rule_set(
    cls: type[S],
    *,
    name: str,
    description: str,
    sheet_keys: Sequence[str] = (),
    examples: tuple[dict[str, Any], ...],
    carry_examples: tuple[dict[str, Any], ...],
    dealing: Dealing = DEAL_3_2_4_3,
    carry: Carry = POT_CARRY,
    shapes: Shapes,
    labels: Mapping[str, str] | None = None,
) -> S:
    """The rule set value of ``cls`` (a :class:`FamilyRuleSet` naming its ``family``), with
    what every set of the family shares: the piquet deck, a table of 3 or 4 seats with 3
    players (the dealer sits out at 4) where no seat is called ``talon`` or a carried key,
    the score-sheet keys :data:`SHEET_KEYS` and ``sheet_keys`` beside them, the family's
    options, phases and vocabulary, and its positions (forehand, middlehand, rearhand);
    ``shapes``: the set's own (``family_shapes``). ``dealing`` and ``carry`` default to wien's
    deal and a pot in cents. ``labels``: the set's display labels beyond or instead of the
    family's (``engine.rules.family.labels``), for every word it uses."""
    family = cls.family
    return cls(
        name=name,
        description=description,
        deck=PIQUET,
        table=TableShape((3, 4), players=3, reserved=(*carry.keys, "talon")),
        dealing=dealing,
        carry=carry,
        sheet_keys=SHEET_KEYS | frozenset(sheet_keys),
        examples=examples,
        carry_examples=carry_examples,
        options=family.options,
        phases=family.phases,
        vocabulary=family.vocabulary(),
        shapes=shapes,
        positions=POSITIONS,
        labels=labels_of(family, shapes, labels or {}),
    )


__all__ = [
    "DEAL_3_2_4_3",
    "DEAL_5_2_5",
    "POT",
    "POT_CARRY",
    "SHEET_KEYS",
    "FamilyRuleSet",
    "family_rule_set",
    "fast_choice",
    "fast_deal",
    "play_out",
]
