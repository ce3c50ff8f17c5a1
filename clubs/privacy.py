"""A person's data across the apps (GDPR art. 15, 17, 20): export, erasure and public names.

The base layer cannot know what the apps above it keep, so each app that keeps data about a
person registers a :class:`Keeper` when Django starts (its ``AppConfig.ready``): the models it
answers for, what it writes into the person's export, and how it erases the person.
:func:`export` and :func:`erase` ask every keeper; ``tests/test_privacy_coverage.py`` walks
every model with a relation to the user (or a copy of a name) and fails when no keeper
answers for it, so a new model cannot be forgotten.

Erasure keeps the user's row as a *tombstone*: its name, e-mail, login and everything that
identifies the person are removed, and the stable pseudonym of :func:`pseudonym` ("Player
7f3a2c", "Spieler 7f3a2c" in German) stands where the name stood. Every row that points at the
user (seats, ledger rows, ratings, standings, entries) keeps pointing at the tombstone, so
other players' results, money and ratings stay exactly as they were.

Public lists (a club's public standings and sheets, iCal attendee names, a tournament's
public pages) show a person's name only where :func:`name_is_public` says so: the person
agreed (``User.public_name``), or their club publishes names and they did not object
(``Club.name_policy``). Elsewhere :func:`public_pseudonym` stands in.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, override

from clubs.errors import ClubConflict
from clubs.models.people import Club, Membership, User

FORMAT = "preference-personal-data/1"
"""The export document's ``format``: a client or a tool that reads exports checks it."""

PSEUDONYM = gettext_lazy("Player {code}")
"""How a pseudonym reads: "Player 7f3a2c" ("Spieler 7f3a2c")."""


@dataclass(frozen=True)
class Scope:
    """Whose request an export answers: the person's own (``club`` ``None``: everything
    kept about them) or a club's manager acting on the person's request (only what that club
    keeps: its memberships, evenings, tables, seasons and tournaments)."""

    club: Club | None = None

    def covers(self, club_id: int | None) -> bool:
        """Whether a row of the club ``club_id`` (``None``: of no club) is in the export."""
        return self.club is None or club_id == self.club.pk


@dataclass(frozen=True)
class Erasure:
    """One person's erasure as a keeper carries it out: the ``pseudonym`` that stands where
    the name stood, and the strings that named the person (login, display name, first and
    last name, e-mail), which :meth:`scrub` replaces wherever a JSON value is one of them."""

    user: User
    pseudonym: str
    names: frozenset[str] = field(default_factory=frozenset)

    def scrub(self, value: Any) -> Any:
        """``value`` (JSON: dicts, lists, strings, numbers) with every string value that is
        one of :attr:`names` (in any case) replaced by the pseudonym. Object keys stay as they
        are: they are field names and seat keys, which records use everywhere."""
        if isinstance(value, str):
            return self.pseudonym if value.casefold() in self.names else value
        if isinstance(value, list):
            return [self.scrub(item) for item in value]
        if isinstance(value, dict):
            return {key: self.scrub(item) for key, item in value.items()}
        return value


@dataclass(frozen=True)
class Keeper:
    """What one app keeps about a person.

    ``section``: the export's key for the app's part; ``models``: the ``app_label.Model``
    labels of every model the keeper answers for (each model with a relation to the user or a
    copy of a person's name is answered for by exactly one keeper); ``export``: the app's part
    of the person's export for a :class:`Scope`, plain JSON; ``erase``: removes or
    pseudonymises the app's rows about the person (:class:`Erasure`), keeping what other
    players' results need, inside :func:`erase`'s transaction."""

    section: str
    models: frozenset[str]
    export: Callable[[User, Scope], Any]
    erase: Callable[[Erasure], None]
    order: int = 100
    """Keepers run in this order (then by section) on export and erasure: higher layers
    first, so a tournament's rows are pseudonymised before the tables they point at."""
    obstacles: Callable[[User], list[Obstacle]] | None = None
    """What keeps the person from being erased now in this app, each with the way out (a
    tournament of no club that they alone direct and that has not finished); ``None``:
    nothing ever does. :func:`erase` refuses while any keeper names one."""


@dataclass(frozen=True)
class Obstacle:
    """Why a person cannot be erased now (``code``, machine-readable) and what to do first
    (``message``, a sentence in the reader's language)."""

    code: str
    message: str


_KEEPERS: dict[str, Keeper] = {}


def register(keeper: Keeper) -> None:
    """Add ``keeper`` (each section once; a second registration of the same section, as a
    test reloading an app does, replaces the first)."""
    _KEEPERS[keeper.section] = keeper


def keepers() -> tuple[Keeper, ...]:
    """Every registered keeper, in :attr:`Keeper.order`, then by section."""
    return tuple(sorted(_KEEPERS.values(), key=lambda k: (k.order, k.section)))


# --- pseudonyms ------------------------------------------------------------------------------


def pseudonym_code(player: str) -> str:
    """Six hex digits that stand for ``player`` (``"u:3"``, ``"g:1"``: a user's or a guest's
    player key), the same every time and on every page, and not to be turned back into the
    player without the server's secret key."""
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, f"pseudonym:{player}".encode(), hashlib.sha256).hexdigest()[:6]


def seat_key(player: str, taken: Iterable[str] = ()) -> str:
    """The seat key a table the server seats (a club evening's, a tournament round's) gives
    ``player``: ``p-`` and its :func:`pseudonym_code`, so that the hand records, sheets and
    ledgers that everyone who may read the table reads carry no name. The same at every
    table, and the code of the player's public pseudonym ("Player 7f3a2c" sits at
    ``p-7f3a2c``); ``-2``, ``-3``, … where two codes of one table meet in ``taken``."""
    base = f"p-{pseudonym_code(player)}"
    taken = set(taken)
    key, n = base, 1
    while key in taken:
        n += 1
        key = f"{base}-{n}"
    return key


def public_pseudonym(player: str) -> str:
    """The pseudonym of ``player`` in the reader's language ("Player 7f3a2c")."""
    return gettext(str(PSEUDONYM)).format(code=pseudonym_code(player))


def pseudonym(user: User) -> str:
    """The pseudonym an erased user's name becomes, stored where the name stood (standings,
    ratings, entries), in the server's language (``LANGUAGE_CODE``)."""
    with override(settings.LANGUAGE_CODE):
        return public_pseudonym(f"u:{user.pk}")


def name_is_public(user: User | None, club: Club | None) -> bool:
    """Whether a public list of ``club`` (``None``: of no club, such as an open tournament's
    public pages) may show the name of ``user`` (``None``: a guest, who cannot agree; the
    club publishes guests' names only under the ``publish`` policy). An erased user's name is
    a pseudonym already."""
    publishes = club is not None and club.name_policy == Club.NamePolicy.PUBLISH
    if user is None:
        return publishes
    if user.erased_at is not None:
        return True
    if user.public_name is not None:
        return user.public_name
    return publishes


def public_name(name: str, *, player: str, user: User | None, club: Club | None) -> str:
    """``name`` where :func:`name_is_public` allows it, else ``player``'s pseudonym."""
    return name if name_is_public(user, club) else public_pseudonym(player)


def names_tag(club: Club | None, user_ids: Iterable[int | None]) -> str:
    """A short digest of whose names a public list of ``club`` shows, for its ``ETag``: it
    changes when the club's policy or one of the listed users' choices changes (or one is
    erased), so that no cached page keeps a name it may no longer show."""
    ids = sorted({pk for pk in user_ids if pk is not None})
    choices = User.objects.filter(pk__in=ids).order_by("pk")
    state = [
        club.name_policy if club is not None else "",
        *(
            f"{pk}:{public}:{erased is not None}"
            for pk, public, erased in choices.values_list("pk", "public_name", "erased_at")
        ),
    ]
    return hashlib.sha256("|".join(state).encode()).hexdigest()[:12]


# --- export and erasure ----------------------------------------------------------------------


def profile(user: User) -> dict[str, Any]:
    """The account itself, as its export's ``profile``."""
    return {
        "id": user.pk,
        "username": user.username,
        "display_name": user.display_name,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "email_verified_at": when(user.email_verified_at),
        "language": user.language or None,
        "public_name": user.public_name,
        "date_joined": when(user.date_joined),
        "last_login": when(user.last_login),
        "erased_at": when(user.erased_at),
    }


def export(user: User, scope: Scope | None = None) -> dict[str, Any]:
    """Everything kept about ``user`` (within ``scope``), as one JSON document:
    ``format``, ``generated_at``, ``scope`` (``null`` or the club's id), ``profile`` and one
    key per keeper's section. Nothing of another seat's hidden cards: each keeper writes a
    hand as the person's seat saw it, and what became public."""
    scope = scope or Scope()
    document: dict[str, Any] = {
        "format": FORMAT,
        "generated_at": when(timezone.now()),
        "scope": None if scope.club is None else {"club": scope.club.pk},
        "profile": profile(user),
    }
    for keeper in keepers():
        document[keeper.section] = keeper.export(user, scope)
    return document


LAST_OWNER = gettext_lazy(
    "You are the last owner of {clubs}. Hand the club over to another member first "
    "(POST /api/v1/clubs/{{club_id}}/transfer-ownership/), or ask its members to leave and "
    "delete it; then your account can be erased."
)


def last_owned(user: User) -> list[Club]:
    """The clubs of which ``user`` is the only owner."""
    owned = Club.objects.filter(memberships__user=user, memberships__role=Membership.Role.OWNER)
    return [
        club
        for club in owned.order_by("name", "id")
        if not club.memberships.filter(role=Membership.Role.OWNER).exclude(user=user).exists()
    ]


def obstacles(user: User) -> list[Obstacle]:
    """Everything that keeps ``user`` from being erased now: the clubs they alone own
    (``last_owner``), then each keeper's (:attr:`Keeper.obstacles`). Empty: erasable."""
    found = []
    clubs = last_owned(user)
    if clubs:
        names = ", ".join(club.name for club in clubs)
        found.append(Obstacle("last_owner", str(LAST_OWNER).format(clubs=names)))
    for keeper in keepers():
        if keeper.obstacles is not None:
            found.extend(keeper.obstacles(user))
    return found


def names_of(user: User) -> frozenset[str]:
    """The strings that name ``user`` (case-folded): login, display name, first, last and
    full name, e-mail. Empty ones are left out."""
    candidates = (
        user.username,
        user.display_name,
        user.first_name,
        user.last_name,
        f"{user.first_name} {user.last_name}".strip(),
        user.email,
    )
    return frozenset(name.casefold() for name in candidates if name and name.strip())


@transaction.atomic
def erase(user: User) -> Erasure:
    """Erase ``user`` (GDPR art. 17) in one transaction: every keeper pseudonymises or
    removes its rows, then the account's own: login, names and e-mail gone, password unusable,
    inactive, every refresh token blacklisted. Refused (409, the first :class:`Obstacle`'s
    code, ``last_owner`` while the person is the last owner of a club) while
    :func:`obstacles` names any. Erasing an erased account again changes nothing."""
    user = User.objects.select_for_update().get(pk=user.pk)
    stand_in = pseudonym(user)
    if user.erased_at is not None:
        return Erasure(user=user, pseudonym=stand_in)
    found = obstacles(user)
    if found:
        raise ClubConflict(" ".join(o.message for o in found), code=found[0].code)
    erasure = Erasure(user=user, pseudonym=stand_in, names=names_of(user))
    for keeper in keepers():
        keeper.erase(erasure)
    user.username = f"erased-{user.pk}"
    user.display_name = stand_in
    user.first_name = user.last_name = user.email = ""
    user.email_verified_at = None
    user.public_name = None
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.erased_at = timezone.now()
    user.save()
    return erasure


def when(value: Any) -> str | None:
    """A date or time of an export as ISO 8601; ``None`` stays ``None``."""
    return None if value is None else value.isoformat()


def as_json(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row's values (``QuerySet.values()``) as JSON: dates and times as ISO 8601, other
    values as they are."""
    return {
        key: value.isoformat() if hasattr(value, "isoformat") else value
        for key, value in row.items()
    }
