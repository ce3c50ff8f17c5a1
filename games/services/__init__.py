"""Writes for games. Each service owns its transaction, its row locks, its audit entry and its
``on_commit`` side effects; the rules come from ``engine`` and are never re-derived here.

By responsibility: :mod:`.tables` (open, balances, settlement, close, reopen), :mod:`.recorded`
(score-sheet entries: :func:`table_record_hand`, :func:`hand_edit`, :func:`hand_delete`,
:func:`hand_confirm`), :mod:`.hosted` (:func:`hand_start`, :func:`hand_apply_action`),
:mod:`.bots` (:func:`hand_bot_move`), :mod:`.analysis` (:func:`hand_analysis`,
:func:`compute_analysis`), :mod:`.hints` (:func:`hand_hint`), :mod:`.pings`; :mod:`.common`
holds the helpers they share. The public names are re-exported here.

What a hand shows its readers (the common part of its record, a hosted hand's state, views and
proof) is :mod:`games.hands`, which services and selectors both read; its names are
re-exported here too, for the callers that still ask the services package for them.
"""

from games.hands import (
    BOARD_NOT_REVEALED,
    COMMON_KEYS,
    carry_for,
    common_part,
    dealer_for,
    hand_carry,
    hand_common,
    hand_full_record,
    hand_proof,
    hand_record_json,
    hand_state,
    hand_view,
    hand_withheld,
    seat_keys,
    table_round,
)
from games.services import clocks
from games.services.analysis import compute_analysis, hand_analysis
from games.services.bots import bot_choice, hand_bot_move, hands_waiting_for_bots
from games.services.common import BOT_LEVELS, bot_levels, filler_level
from games.services.hints import hand_hint
from games.services.hosted import (
    end_hand_by_solver,
    hand_abandon,
    hand_apply_action,
    hand_start,
    seat_back,
)
from games.services.pings import ping_complete, ping_create
from games.services.recorded import hand_confirm, hand_delete, hand_edit, table_record_hand
from games.services.tables import (
    RESERVED_SEAT_KEYS,
    SeatSpec,
    series_pot,
    settlement_for,
    table_balances,
    table_close,
    table_create,
    table_open,
    table_reopen,
    table_series_create,
)
from games.services.timeouts import flag_fall, flags_due_on_read

__all__ = [
    "clocks",
    "end_hand_by_solver",
    "flag_fall",
    "hand_abandon",
    "flags_due_on_read",
    "seat_back",
    "BOARD_NOT_REVEALED",
    "bot_choice",
    "compute_analysis",
    "hand_hint",
    "hand_analysis",
    "BOT_LEVELS",
    "bot_levels",
    "filler_level",
    "COMMON_KEYS",
    "RESERVED_SEAT_KEYS",
    "SeatSpec",
    "carry_for",
    "common_part",
    "dealer_for",
    "hand_carry",
    "hand_common",
    "hand_apply_action",
    "hand_bot_move",
    "hand_confirm",
    "hand_delete",
    "hand_edit",
    "hand_full_record",
    "hand_proof",
    "hand_record_json",
    "hand_start",
    "hand_state",
    "hand_view",
    "hand_withheld",
    "hands_waiting_for_bots",
    "ping_complete",
    "ping_create",
    "seat_keys",
    "table_series_create",
    "series_pot",
    "settlement_for",
    "table_balances",
    "table_close",
    "table_create",
    "table_open",
    "table_reopen",
    "table_record_hand",
    "table_round",
]
