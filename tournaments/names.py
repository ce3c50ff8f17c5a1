"""How a tournament names its players to people: by display name (docs/tournaments.md,
"Names"), as the clubs name their members and the printable standings always did.

An entry of an account is named by the account's display name; where the account has none, by
the name it was entered under (``Entry.name``: what a director typed, else taken from the
account when it entered). A substitute, known only by name, is named by that name. Every
answer that names a player to a person (a ``display_name`` field, a CSV's ``name`` column, a
results' ``opponents``) asks here; machines keep the ids (``entry``, ``user``), and ``name``
keeps what the entry was entered under.
"""

from __future__ import annotations

from tournaments.models import Entry


def entry_display_name(entry: Entry) -> str:
    """What a person reads as ``entry``'s player (load ``user`` with it)."""
    return shown(entry.name, entry.user.display_name if entry.user is not None else "")


def shown(name: str, display_name: str | None) -> str:
    """An entry's display name from its ``name`` and its account's ``display_name`` (None or
    empty without one): for reads that fetch the two columns."""
    return display_name or name


def display_names(*, tournament_id: int) -> dict[int, str]:
    """Every entry's display name in the tournament, by entry id, in one query."""
    rows = Entry.objects.filter(tournament_id=tournament_id).values_list(
        "pk", "name", "user__display_name"
    )
    return {pk: shown(name, display_name) for pk, name, display_name in rows}
