"""Bots: the bot to act moves once per version (safe to run twice); stalled bots are found
for beat to restart. Who may act is the engine's answer (``engine.to_act``: a set of seats).
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

import engine
from engine.bots import random_bot
from engine.bots.levels import fresh_rng, policy_for
from engine.ruleset import HandState
from games.hands import hand_state
from games.models import (
    Hand,
    Seat,
    Table,
)
from games.rulesets import rule_set_of
from games.services import clocks
from games.services.common import (
    locked_hand,
    seat_at,
)
from games.services.hosted import apply_action


def bots_to_act(table: Table, state: HandState, hand: Hand) -> list[str]:
    """The seats a bot plays that may act now in ``hand``, in playing order
    (``engine.to_act``): the bots' seats and the persons' whose action the timeout policy
    plays (:func:`games.services.clocks.bot_plays`)."""
    acting = engine.to_act(state)
    return [s for s in state.seats if s in acting and clocks.bot_plays(table, hand, s)]


def level_of(table: Table, seat: str) -> str:
    """The level of the bot that plays ``seat``: a bot's own, else the timeout policy's."""
    at = seat_at(table, seat)
    if at.kind == Seat.Kind.BOT:
        return at.bot_level or "random"
    return clocks.timeout_level(table)


def hand_bot_move(
    *, hand_id: int, version: int, rng: random.Random | None = None, schedule: bool = True
) -> Hand | None:
    """The bot to act makes its move, once: nothing happens unless the hand is still at
    ``version`` and a bot is to act (a retried or duplicated task is harmless). The bot thinks
    on a snapshot, holding no lock (a ``pimc`` bot up to the table's ``bot_budget_ms``); its
    move is applied, through the service a person's move goes through, only if the hand is
    still at ``version`` then. With ``schedule`` false the caller moves the next bot itself
    (the task loops)."""
    hand = Hand.objects.select_related("table").filter(pk=hand_id).first()
    if hand is None or hand.version != version or hand.status != Hand.Status.PLAYING:
        return None
    move = bot_choice(hand.table, hand, rng)
    if move is None:
        return None
    with transaction.atomic():
        found = locked_hand("h.id = %s", [hand_id])
        if found is None:
            return None
        table, hand = found
        if hand.version != version or hand.status != Hand.Status.PLAYING:
            return None
        sender, data = move
        by_policy = seat_at(table, sender).kind != Seat.Kind.BOT
        if by_policy and not clocks.played_by_policy(table, hand, sender):
            return None  # the person came back while the bot thought
        return apply_action(table, hand, sender, data, schedule=schedule, by_policy=by_policy)


def bot_choice(
    table: Table, hand: Hand, rng: random.Random | None = None
) -> tuple[str, dict[str, Any]] | None:
    """The move a bot at ``table`` makes now: the seat that sends it and the action (JSON);
    ``None`` when no bot is to act (or every bot lets the moment pass). A bot of a rule set's
    own level decides from its seat's view alone; the random bot plays on the state."""
    rng = rng or fresh_rng()
    state = hand_state(table, hand)
    bots = bots_to_act(table, state, hand)
    if not bots:
        return None
    rules = rule_set_of(table)
    budget = table.bot_budget_ms / 1000
    for seat in bots:
        policy = policy_for(rules, level_of(table, seat), budget=budget)
        if policy is None:
            continue
        view = engine.view(state, seat)
        chosen = policy(view, view.get("legal", []), rng)
        if chosen is not None:
            return seat, chosen
    bots = [b for b in bots if policy_for(rules, level_of(table, b)) is None]
    if not bots:
        return None
    move = random_bot.choose(state, rng)
    sender = rules.sender(state, move.seat)  # a rule set may let one seat play another's cards
    if sender not in bots:
        # The policy chose for a person (where any seat may announce): each bot in turn
        # chooses for itself, or lets the moment pass.
        own = next(
            (m for b in bots if (m := random_bot.choose_for(state, b, rng)) is not None),
            None,
        )
        if own is None:
            return None
        move, sender = own, rules.sender(state, own.seat)
    return sender, rules.action_to_json(move, seat=move.seat != sender)


def hands_waiting_for_bots(idle_seconds: float = 30.0) -> list[tuple[int, int]]:
    """(hand id, version) of hosted hands idle for ``idle_seconds`` that wait for a bot
    (``engine.waiting_for``; not one that merely may announce) or for the timeout policy's
    bot: their task was lost. A hand whose clock runs waits for a person: it is left out."""
    out = []
    idle_since = timezone.now() - timedelta(seconds=idle_seconds)
    # A running clock means the hand waits for a person (its flag, not this kick, moves it on).
    # Only a hand at a table with a bot, or with a clock (whose timeout policy plays for a
    # person), can wait for a bot: the others (people only, no clock) are never replayed here.
    may_wait = Q(table__seats__kind=Seat.Kind.BOT) | Q(clock__isnull=False)
    hands = Hand.objects.filter(
        may_wait, status=Hand.Status.PLAYING, updated_at__lt=idle_since, flag_at__isnull=True
    ).distinct()
    for hand in hands.select_related("table").prefetch_related("table__seats"):
        waiting = engine.waiting_for(hand_state(hand.table, hand))
        if any(clocks.bot_plays(hand.table, hand, s) for s in waiting):
            out.append((hand.pk, hand.version))
    return out
