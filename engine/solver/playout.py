"""Playing a hand's remaining cards out double dummy: what a hand ends with when it must end
before its players have played it (a tournament round's clock ran out, ``docs/tournaments.md``,
"Round clocks").

*Double dummy* (offene Karten, open cards) assumes that every player sees every hand and plays
perfectly from there: the declarer's side takes exactly the solver's value
(:func:`engine.solver.solve`), whatever the players knew or would have guessed at the table.
Each card is chosen by the solver's value of every legal card (:func:`engine.solver.card_values`)
for the player to move: the best for him, the lowest of equally good cards (it gives away the
least, as the ``pimc`` bot chooses). The rule set states the card play
(``RuleSet.card_play``: whose tricks count, what they want, each player's obligations), so the
play-out knows no rule set. Where each player plays for himself (``FEWEST`` seen from the
player to move: Ausfechten, Preferans's raspasy) each card is best for the player who plays it
against the other two; the others' tricks then follow from their own best cards.
"""

from __future__ import annotations

from engine.actions import PlayCard
from engine.messages import SOLVER_NOT_CARD_PLAY
from engine.play import apply
from engine.rules import rule_set
from engine.ruleset import HandState
from engine.solver.position import Position
from engine.solver.records import position_of
from engine.solver.search import card_values


def best_card(pos: Position) -> int:
    """The card the player to move plays in best play: of the legal cards the solver values
    best for him (more of the side's tricks if he is of the side and it wants more, or he is
    against it and it wants fewer; else fewer), the lowest."""
    values = card_values(pos)
    wants_more = (pos.side >> pos.to_act & 1) == pos.maximising
    best = max(values.values()) if wants_more else min(values.values())
    return min(c for c, v in values.items() if v == best)


def tricks_left(state: HandState) -> int:
    """The tricks still to be completed in ``state``'s card play, the one in progress
    included; an :class:`~engine.errors.EngineError` when ``state`` is not in card play (or
    its game is not one the solver plays, or the hand is over)."""
    return position_of(state).tricks_left


def playout(state: HandState) -> list[PlayCard]:
    """The cards of double-dummy best play from ``state`` to the end of the hand, each a
    :class:`~engine.actions.PlayCard` of the hand it is played from (its sender is the rule
    set's ``sender``: Preferans's whister plays the passer's open cards), in order; each card
    is checked by :func:`engine.apply`. An :class:`~engine.errors.EngineError` when ``state``
    is not in card play, or card play stops before the hand ends (a choice other than a card
    is needed)."""
    rs = rule_set(state.rules.variant)
    position_of(state)  # says why there is no card play, if there is none
    cards: list[PlayCard] = []
    while not state.is_over:
        pos = rs.card_play(state)
        if pos is None:
            raise SOLVER_NOT_CARD_PLAY.error("", rule_set=rs.name)
        card = PlayCard(pos.seats[pos.to_act], best_card(pos))
        state = apply(state, card)
        cards.append(card)
    return cards
