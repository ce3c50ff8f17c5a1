"""Analysis of a finished hand: the double-dummy result of the deal as dealt, and for every
card played whether it cost a trick against best play ("where did it go wrong").

Each card is judged in the position it was played in, every hand open: the value of every
legal card there (``engine.solver.card_values``), the best of them for the player's party,
and how many tricks the card played gave away against it (``lost``; 0 for an optimal card).
A trick given away is counted where it was given away: a later card is judged from the
position the earlier ones left.
"""

from __future__ import annotations

from typing import Any

from engine.actions import PlayCard
from engine.messages import ANALYSIS_HAND_NOT_OVER
from engine.play import apply
from engine.record import replay
from engine.rules import rule_set
from engine.solver.position import FEWEST
from engine.solver.search import card_values


def analyse(record: dict[str, Any]) -> dict[str, Any]:
    """The analysis of the finished full record ``record`` (hand-record.md form 2):
    ``{"declarer", "goal", "dealt", "taken", "cards": [{"trick", "seat", "card", "lost",
    "optimal"}]}``. ``dealt``: the declarer's tricks under best play from the first card
    (``None`` in a game where each player is on his own: Ausfechten, raspasy); ``taken``:
    those he took; each card's ``optimal``: the cards that would have kept the best result.
    The hand must be over (an :class:`EngineError` otherwise)."""
    finished = replay(record)
    if not finished.is_over:
        raise ANALYSIS_HAND_NOT_OVER.error("")
    rs = rule_set(finished.rules.variant)
    state = replay({**record, "actions": []})
    cards: list[dict[str, Any]] = []
    first: Any = None
    for i, data in enumerate(record["actions"]):
        action = rs.action_from_json(data, f"actions[{i}]")
        pos = rs.card_play(state)
        if isinstance(action, PlayCard) and pos is not None:
            values = card_values(pos)
            if first is None:
                first = (pos, values)
            p = pos.to_act
            wants_more = (pos.side >> p & 1) == pos.maximising
            best = max(values.values()) if wants_more else min(values.values())
            played = values[action.card]
            cards.append(
                {
                    "trick": first[0].tricks_left - pos.tricks_left + 1,
                    "seat": pos.seats[p],
                    "card": pos.deck.code(action.card),
                    "lost": best - played if wants_more else played - best,
                    "optimal": pos.deck.codes_of(
                        sum(1 << c for c, v in values.items() if v == best)
                    ),
                }
            )
        state = apply(state, action)
    out: dict[str, Any] = {
        "declarer": None,
        "goal": None,
        "dealt": None,
        "taken": None,
        "cards": cards,
    }
    if first is not None:
        pos, values = first
        side = next(q for q in range(len(pos.seats)) if pos.side >> q & 1)
        wants_more = (pos.side >> pos.to_act & 1) == pos.maximising
        best = max(values.values()) if wants_more else min(values.values())
        tricks = rs.view(finished, None).get("tricks") or {}
        out.update(
            declarer=None if pos.goal == FEWEST else pos.seats[side],
            goal=pos.goal,
            dealt=None if pos.goal == FEWEST else pos.won + best,
            taken=None if pos.goal == FEWEST else tricks.get(pos.seats[side]),
        )
    return out
