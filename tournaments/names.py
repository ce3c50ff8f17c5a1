"""How a tournament names its players to people (docs/tournaments.md, "Names").

A player is named by display name, as the clubs name their members: an entry of an account by
the account's display name, and where the account has none by the name it was entered under
(``Entry.name``: what a director typed, else taken from the account when it entered). A
substitute, known only by name, is named by that name.

Who reads which names (issue 39, :mod:`clubs.privacy`):

- *Insiders* read every name: whoever runs the tournament (its directors, its club's owners
  and admins, staff: :func:`tournaments.permissions.is_director`) and every member of its club.
- Everyone else reads the *public* version: anonymous readers, and entrants of an open
  tournament who are not members of its club. There a player's name shows only where
  :func:`clubs.privacy.name_is_public` allows it for the tournament's club (the player agreed,
  or the club publishes names and the player did not object); elsewhere their pseudonym
  stands in ("Player 7f3a2c", :func:`clubs.privacy.public_pseudonym` of ``u:<user id>``). A
  substitute counts as a guest, who cannot agree: named only under a club's ``publish``
  policy, else the pseudonym of ``e:<entry id>``.
- A person always reads their own name.

The seat keys of a tournament's tables are made from the players' display names
(``juergen-oehlschlaeger``, :func:`tournaments.services.rounds.seat_keys`), so where a name is
hidden its seat key is too: the reader reads ``player-7f3a2c`` (the pseudonym's code) instead,
in every seat, dealer and declarer of the answer.

Every answer that names players to a person computes one :class:`Names` for its reader
(:func:`names_for`) and asks it for each player; the answer's ETag and cache keys take its
:attr:`Names.key`, which changes with the reader's class, the club's policy and each listed
person's choice. Machines keep the ids (``entry``, ``user``); ``name`` keeps what the entry was
entered under, or the pseudonym where the name is not shown.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.conf import settings

from clubs import privacy
from clubs.models import Club, Membership, User
from clubs.permissions import AnyUser
from tournaments import permissions
from tournaments.models import Entry, RoundSeat, Tournament

CONSENT = "consent"
"""The public version under the ``consent`` policy (and at a tournament of no club): names
only of players who agreed (``User.public_name``), pseudonyms for the others."""
PUBLISH = "publish"
"""The public version under a club's ``publish`` policy: every name unless its player
objected (``User.public_name`` false)."""
INSIDER = "insider"
"""Every name: the reader runs the tournament or is a member of its club."""
BASES = (CONSENT, PUBLISH, INSIDER)


def entry_display_name(entry: Entry) -> str:
    """What an insider reads as ``entry``'s player (load ``user`` with it)."""
    return shown(entry.name, entry.user.display_name if entry.user is not None else "")


def shown(name: str, display_name: str | None) -> str:
    """An entry's display name from its ``name`` and its account's ``display_name`` (None or
    empty without one): for reads that fetch the two columns."""
    return display_name or name


def reads_names(reader: AnyUser, tournament: Tournament) -> bool:
    """Whether ``reader`` reads every player's name: they run the tournament
    (:func:`~tournaments.permissions.is_director`) or are a member of its club."""
    if not reader.is_authenticated:
        return False
    if (
        tournament.club_id is not None
        and Membership.objects.filter(club_id=tournament.club_id, user_id=reader.pk).exists()
    ):
        return True
    return permissions.is_director(reader, tournament)


@dataclass(frozen=True)
class _Row:
    entry: int
    name: str
    user: int | None
    display_name: str | None
    public_name: bool | None
    erased_at: Any

    @property
    def player(self) -> str:
        """The key of the player's pseudonym: the account's, else the entry's."""
        return f"u:{self.user}" if self.user is not None else f"e:{self.entry}"

    def public(self, club: Club | None) -> bool:
        """Whether the public version shows this player's name."""
        user = None
        if self.user is not None:
            user = User(pk=self.user, public_name=self.public_name, erased_at=self.erased_at)
        return privacy.name_is_public(user, club)


class _Listed:
    """A tournament's entries with their accounts' choices, and what its public names
    depend on (:func:`clubs.privacy.names_tag`): loaded at most once each."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    @cached_property
    def club(self) -> Club | None:
        return self.tournament.club if self.tournament.club_id is not None else None

    @cached_property
    def rows(self) -> dict[int, _Row]:
        found = Entry.objects.filter(tournament_id=self.tournament.pk).values_list(
            "pk", "name", "user_id", "user__display_name", "user__public_name", "user__erased_at"
        )
        return {
            pk: _Row(pk, name, user, display_name, public, erased_at)
            for pk, name, user, display_name, public, erased_at in found
        }

    @cached_property
    def tag(self) -> str:
        return privacy.names_tag(self.club, (row.user for row in self.rows.values()))


_RECENT: dict[tuple[int, Any], tuple[float, _Listed]] = {}
_RECENT_LOCK = threading.Lock()
RECENT_SIZE = 1024


def _recent(tournament: Tournament) -> _Listed:
    """The tournament's :class:`_Listed` as this process read it at most
    ``PUBLIC_POLL_CACHE_SECONDS`` ago (as the anonymous standings poll reads the tournament,
    :func:`tournaments.selectors.tournament_listed`)."""
    keep = settings.PUBLIC_POLL_CACHE_SECONDS
    if keep <= 0:
        return _Listed(tournament)
    key = (tournament.pk, tournament.changed_at)
    now = time.monotonic()
    with _RECENT_LOCK:
        cached = _RECENT.get(key)
    if cached is not None and cached[0] > now:
        return cached[1]
    listed = _Listed(tournament)
    with _RECENT_LOCK:
        if len(_RECENT) >= RECENT_SIZE:
            _RECENT.clear()
        _RECENT[key] = (now + keep, listed)
    return listed


class Names:
    """What one reader reads as each player of one tournament (:func:`names_for`)."""

    def __init__(
        self,
        listed: _Listed,
        basis: str,
        reader_id: int | None,
        named: frozenset[int] = frozenset(),
    ) -> None:
        self._listed = listed
        self.basis = basis
        """``consent``, ``publish`` (the public version under that policy) or ``insider``."""
        self.reader_id = reader_id
        self._named = named

    @property
    def own_entries(self) -> set[int]:
        """The reader's entries (one at most) in the tournament."""
        if self.reader_id is None:
            return set()
        return {pk for pk, row in self._listed.rows.items() if row.user == self.reader_id}

    def with_named(self, entries: set[int]) -> Names:
        """These names, and the names of ``entries`` too (those the reader must find: the
        other party of their own payments)."""
        return Names(self._listed, self.basis, self.reader_id, self._named | frozenset(entries))

    @cached_property
    def key(self) -> str:
        """What the names depend on, for ETags and cache keys: ``insider``, else the basis,
        the tag of the club's policy and the listed people's choices, and the reader where
        their own name shows only to them."""
        if self.basis == INSIDER:
            return INSIDER
        key = f"{self.basis}-{self._listed.tag}"
        own = [self._listed.rows[pk] for pk in self.own_entries]
        if any(not row.public(self._listed.club) for row in own):
            key += f"-u{self.reader_id}"
        return key

    @cached_property
    def _shown(self) -> dict[int, tuple[bool, str]]:
        """By entry: whether the reader reads the name, and what they read."""
        return {pk: self._show(pk) for pk in self._listed.rows}

    def _show(self, pk: int) -> tuple[bool, str]:
        """Whether the reader reads entry ``pk``'s name, and what they read."""
        row = self._listed.rows[pk]
        named = (
            self.basis == INSIDER
            or (row.user is not None and row.user == self.reader_id)
            or pk in self._named
            or row.public(self._listed.club)
        )
        text = shown(row.name, row.display_name) if named else None
        return named, text or privacy.public_pseudonym(row.player)

    def display(self, entry_id: int | None, default: str = "") -> str:
        """What the reader reads as the player of entry ``entry_id``."""
        found = self._shown.get(entry_id) if entry_id is not None else None
        return default if found is None else found[1]

    def display_one(self, entry_id: int) -> str:
        """:meth:`display` of one entry, working out only that entry's name (a notification
        names two or three players of a field of hundreds)."""
        if entry_id not in self._listed.rows:
            return ""
        return self._show(entry_id)[1]

    def seat(self, entry_id: int | None, key: str) -> str:
        """The seat key ``key`` of entry ``entry_id`` as the reader reads it: where the name is
        hidden, the player's own seat key (:func:`clubs.privacy.seat_key`: ``p-`` and the
        pseudonym's code), which a round seated since API 2.4 gave it anyway; an older round's
        key was made from the name."""
        if not self.hidden(entry_id):
            return key
        assert entry_id is not None
        return privacy.seat_key(self._listed.rows[entry_id].player)

    def hidden(self, entry_id: int | None) -> bool:
        """Whether the reader reads a pseudonym for entry ``entry_id``."""
        found = self._shown.get(entry_id) if entry_id is not None else None
        return found is not None and not found[0]

    def player(self, row: Mapping[str, Any], *, key: str = "entry") -> dict[str, Any]:
        """``row`` (an object that names the entry ``row[key]``) as the reader reads it:
        ``display_name`` theirs, and where the name is hidden ``name`` the pseudonym and
        ``seat`` (if any) the hidden seat key (:meth:`seat`)."""
        entry = row.get(key)
        out = {**row, "display_name": self.display(entry, row.get("display_name", ""))}
        if self.hidden(entry):
            out["name"] = out["display_name"]
            if "seat" in out:
                out["seat"] = self.seat(entry, out["seat"])
        return out

    def players(self, rows: list[Mapping[str, Any]], *, key: str = "entry") -> list[dict[str, Any]]:
        """:meth:`player` of each row."""
        return [self.player(row, key=key) for row in rows]


def names_for(tournament: Tournament, reader: AnyUser, *, recent: bool = False) -> Names:
    """The names ``reader`` reads in ``tournament``'s answers: every name for an insider
    (:func:`reads_names`); else the public version under the club's policy, with the reader's
    own name. ``recent``: an anonymous poll, which may read the players' choices as this
    process read them up to ``PUBLIC_POLL_CACHE_SECONDS`` ago."""
    if reads_names(reader, tournament):
        return Names(_Listed(tournament), INSIDER, reader.pk)
    listed = _recent(tournament) if recent and not reader.is_authenticated else _Listed(tournament)
    policy = listed.club.name_policy if listed.club is not None else None
    basis = PUBLISH if policy == Club.NamePolicy.PUBLISH else CONSENT
    return Names(listed, basis, reader.pk if reader.is_authenticated else None)


def names_in(*, tournament_id: int, reader: AnyUser) -> Names:
    """:func:`names_for` of the tournament ``tournament_id`` (a serializer's, which has only
    the id)."""
    return names_for(Tournament.objects.select_related("club").get(pk=tournament_id), reader)


def every_name(tournament: Tournament) -> Names:
    """Every player's name (an insider's names) for reads that answer no reader: the person's
    own export, the services' records."""
    return Names(_Listed(tournament), INSIDER, None)


def opponents(names: Names, entry_id: int) -> dict[int, list[str]]:
    """The other players at each table entry ``entry_id`` sat at, by games table id, in seat
    order, as ``names``' reader reads them (a player's results' ``opponents``)."""
    mine = RoundSeat.objects.filter(entry_id=entry_id).values("round_table_id")
    found: dict[int, list[str]] = defaultdict(list)
    for table_id, other in (
        RoundSeat.objects.filter(round_table__in=mine)
        .exclude(entry_id=entry_id)
        .order_by("position")
        .values_list("round_table__table_id", "entry_id")
    ):
        found[table_id].append(names.display(other))
    return found


#: How a notification names a tournament's entry (``clubs.outbox``): ``entry:<tournament>:<entry>``.
ENTRY_KEY = "entry:"


def entry_key(tournament_id: int, entry_id: int) -> str:
    """The key a notification names entry ``entry_id`` of ``tournament_id`` by."""
    return f"{ENTRY_KEY}{tournament_id}:{entry_id}"


def notification_names(keys: list[str], reader: User) -> dict[str, str]:
    """The entries ``keys`` (:func:`entry_key`) as ``reader`` may read them when a
    notification is written (``clubs.outbox.register_namer``): a pseudonym where the
    tournament's names keep the name from them."""
    wanted: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for key in keys:
        tournament, _, entry = key[len(ENTRY_KEY) :].partition(":")
        if tournament.isdigit() and entry.isdigit():
            wanted[int(tournament)].append((key, int(entry)))
    out: dict[str, str] = {}
    for t in Tournament.objects.select_related("club").filter(pk__in=list(wanted)):
        shown = names_for(t, reader)
        for key, entry_id in wanted[t.pk]:
            out[key] = shown.display_one(entry_id)
    return out
