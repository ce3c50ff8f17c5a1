"""Writes for clubs, by responsibility: :mod:`.users` (accounts), :mod:`.people` (clubs,
memberships, invitations, join requests, guests), :mod:`.evenings` (evenings, series,
attendance, check-in, reminders), :mod:`.rounds` (seating rounds, the evening's tables,
closing and settling an evening), :mod:`.seasons` (seasons, standings, ratings).

Each service owns its transaction, its row locks and its ``on_commit`` side effects. Import
the module you need (``from clubs.services import people``); the account services keep their
old names here.
"""

from clubs.services.users import user_register, user_update

__all__ = ["user_register", "user_update"]
