"""Bots: the bot to act moves once per version (safe to run twice); stalled bots are found
for beat to restart. Who may act is the engine's answer (``engine.to_act``: a set of seats).
"""

from __future__ import annotations

import random
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

import engine
from engine.bots import random_bot
from games.models import (
    Hand,
    Seat,
    Table,
)
from games.rulesets import rule_set_of
from games.services.common import (
    _locked_hand,
    _seat,
)
from games.services.hosted import (
    _apply,
    hand_state,
)


def bots_to_act(table: Table, state: engine.State) -> list[str]:
    """The bot seats that may act now, in playing order (``engine.to_act``)."""
    acting = engine.to_act(state)
    return [s for s in state.seats if s in acting and _seat(table, s).kind == Seat.Kind.BOT]


def hand_bot_move(
    *, hand_id: int, version: int, rng: random.Random | None = None, schedule: bool = True
) -> Hand | None:
    """The bot to act makes its move, once: nothing happens unless the hand is still at
    ``version`` and a bot is to act (a retried or duplicated task is harmless). With
    ``schedule`` false the caller moves the next bot itself (the task loops)."""
    with transaction.atomic():
        found = _locked_hand("h.id = %s", [hand_id])
        if found is None:
            return None
        table, hand = found
        if hand.version != version or hand.status != Hand.Status.PLAYING:
            return None
        state = hand_state(table, hand)
        bots = bots_to_act(table, state)
        if not bots:
            return None
        rng = rng or random.Random(secrets.randbits(64))
        rules = rule_set_of(table)
        policies = rules.bot_policies()
        for seat in bots:  # a bot of a rule set's own level decides from its view alone
            policy = policies.get(_seat(table, seat).bot_level)
            if policy is not None:
                view = engine.view(state, seat)
                chosen = policy(view, view["legal"], rng)
                if chosen is not None:
                    return _apply(table, hand, seat, chosen, schedule=schedule)
        bots = [b for b in bots if _seat(table, b).bot_level not in policies]
        if not bots:
            return None
        move = random_bot.choose(state, rng)
        sender = rules.sender(state, move.seat)  # Preferans: a whister plays the passer's cards
        if sender not in bots:
            # The policy chose for a person (Doppelkopf: any seat may announce): each bot in
            # turn chooses for itself, or lets the moment pass.
            own = next(
                (m for b in bots if (m := random_bot.choose_for(state, b, rng)) is not None),
                None,
            )
            if own is None:
                return None
            move, sender = own, rules.sender(state, own.seat)
        data = engine.action_to_json(move, rules.deck, seat=move.seat != sender)
        return _apply(table, hand, sender, data, schedule=schedule)


def hands_waiting_for_bots(idle_seconds: float = 30.0) -> list[tuple[int, int]]:
    """(hand id, version) of hosted hands idle for ``idle_seconds`` that wait for a bot
    (``engine.waiting_for``; not one that merely may announce): their task was lost."""
    out = []
    idle_since = timezone.now() - timedelta(seconds=idle_seconds)
    hands = Hand.objects.filter(status=Hand.Status.PLAYING, updated_at__lt=idle_since)
    for hand in hands.select_related("table").prefetch_related("table__seats"):
        waiting = engine.waiting_for(hand_state(hand.table, hand))
        if any(_seat(hand.table, s).kind == Seat.Kind.BOT for s in waiting):
            out.append((hand.pk, hand.version))
    return out
