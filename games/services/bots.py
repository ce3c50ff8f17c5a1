"""Bots: the bot to act moves once per version (safe to run twice); stalled bots are found
for beat to restart.
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
)
from games.services.common import (
    _locked_hand,
    _seat,
)
from games.services.hosted import (
    _apply,
    hand_state,
)


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
        seat = state.to_act_seat
        if seat is None or _seat(table, seat).kind != Seat.Kind.BOT:
            return None
        move = random_bot.choose(state, rng or random.Random(secrets.randbits(64)))
        data = engine.action_to_json(move, engine.PIQUET, seat=False)
        return _apply(table, hand, seat, data, schedule=schedule)


def hands_waiting_for_bots(idle_seconds: float = 30.0) -> list[tuple[int, int]]:
    """(hand id, version) of hosted hands idle for ``idle_seconds`` whose player to act is a
    bot: their task was lost."""
    out = []
    idle_since = timezone.now() - timedelta(seconds=idle_seconds)
    hands = Hand.objects.filter(status=Hand.Status.PLAYING, updated_at__lt=idle_since)
    for hand in hands.select_related("table").prefetch_related("table__seats"):
        state = hand_state(hand.table, hand)
        seat = state.to_act_seat
        if seat is not None and _seat(hand.table, seat).kind == Seat.Kind.BOT:
            out.append((hand.pk, hand.version))
    return out
