"""Tournament services (writes), by responsibility; the public names are re-exported here.

- :mod:`.tournaments`: format, lifecycle, directors, entries, the waitlist.
- :mod:`.rounds`: seating (in the worker), starting and closing rounds, duplicate boards.
- :mod:`.results`: offline table totals, what follows a table's hands, board reveals.
- :mod:`.standings`: asking for, computing and storing the standings.
- :mod:`.money`: the money settlement.
- :mod:`.clocks`: timeouts at round tables in the log, and round clocks.
- :mod:`.cups`: cups and ranking lists: their lifecycle, events, imports, players and
  standings.
"""

from tournaments.services.clocks import (
    hand_adjust,
    on_timeout,
    round_clock_run,
    round_clock_set,
    round_clocks_sweep,
    rounds_out_of_time,
)
from tournaments.services.cups import (
    cup_create,
    cup_delete,
    cup_director_add,
    cup_director_remove,
    cup_finish,
    cup_open,
    cup_recompute,
    cup_reopen,
    cup_update,
    event_accept,
    event_add_tournament,
    event_decline,
    event_import,
    event_remove,
    event_replace_results,
    player_merge,
    player_update,
    request_cup_standings,
    tournament_standings_changed,
)
from tournaments.services.money import tournament_settlement
from tournaments.services.results import (
    board_deck,
    board_withheld,
    on_hands_changed,
    reveal_boards,
    table_hands_changed,
    totals_confirm,
    totals_enter,
)
from tournaments.services.rounds import (
    round_assignments,
    round_close,
    round_seat,
    round_seat_run,
    round_start,
    table_progress,
)
from tournaments.services.standings import compute, request_standings, tournament_recompute
from tournaments.services.tournaments import (
    director_add,
    director_remove,
    entry_add,
    entry_check_in,
    entry_register,
    entry_warn,
    entry_withdraw,
    invitation_accept,
    invitation_decline,
    tournament_create,
    tournament_delete,
    tournament_finish,
    tournament_open_check_in,
    tournament_open_registration,
    tournament_reopen,
    tournament_update,
)

__all__ = [
    "board_deck",
    "board_withheld",
    "compute",
    "cup_create",
    "cup_delete",
    "cup_director_add",
    "cup_director_remove",
    "cup_finish",
    "cup_open",
    "cup_recompute",
    "cup_reopen",
    "cup_update",
    "director_add",
    "director_remove",
    "entry_add",
    "entry_check_in",
    "entry_register",
    "entry_warn",
    "entry_withdraw",
    "event_accept",
    "event_add_tournament",
    "event_decline",
    "event_import",
    "event_remove",
    "event_replace_results",
    "hand_adjust",
    "invitation_accept",
    "invitation_decline",
    "on_hands_changed",
    "on_timeout",
    "player_merge",
    "player_update",
    "request_cup_standings",
    "request_standings",
    "reveal_boards",
    "round_assignments",
    "round_clock_run",
    "round_clock_set",
    "round_clocks_sweep",
    "round_close",
    "round_seat",
    "round_seat_run",
    "round_start",
    "rounds_out_of_time",
    "table_hands_changed",
    "table_progress",
    "totals_confirm",
    "totals_enter",
    "tournament_create",
    "tournament_delete",
    "tournament_finish",
    "tournament_open_check_in",
    "tournament_open_registration",
    "tournament_recompute",
    "tournament_reopen",
    "tournament_settlement",
    "tournament_standings_changed",
    "tournament_update",
]
