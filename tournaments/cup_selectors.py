"""Reads of cups and ranking lists (issue 42, docs/cups.md), scoped to the caller.

A cup the caller may not see (:func:`tournaments.cup_permissions.can_see_cup`) does not exist
for them (:class:`~tournaments.errors.CupNotFound`, 404), nor does anything in it; one they
may see but not run answers 403 on directors' operations. Every queryset comes with its
relations loaded (``select_related``/``prefetch_related``).

Names (:class:`CupNames`): insiders (the cup's directors, its club's owners and admins, staff,
and every member of its club) read every player's name; everyone else reads a name only where
:func:`clubs.privacy.name_is_public` allows it for the cup's club (a guest's only under the
club's ``publish`` policy), else the pseudonym of ``cp:<player id>``; a person always reads
their own.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.conf import settings
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

from clubs import privacy
from clubs.models import Club, Membership, User
from clubs.permissions import AnyUser
from tournaments import cup_permissions
from tournaments.errors import CupNotFound, NotAllowed
from tournaments.models import (
    Cup,
    CupEvent,
    CupLogEntry,
    CupPlayer,
    CupResult,
    CupStanding,
    Tournament,
)
from tournaments.permissions import is_director

OVERALL = ""
"""The cup's own ranking (``CupStanding.ranking``); ``"final"`` is the final's table and
``"<attribute>:<value>"`` a side ranking."""
FINAL = "final"

INSIDER = "insider"
PUBLISH = "publish"
CONSENT = "consent"
BASES = (CONSENT, PUBLISH, INSIDER)


# ---------------------------------------------------------------------------------------------
# what phones poll: kept by this process for a moment

_POLLED: dict[tuple[Any, ...], tuple[float, Any]] = {}
_POLLED_LOCK = threading.Lock()
POLLED_CACHE_SIZE = 1024


def polled(key: tuple[Any, ...], load: Callable[[], Any]) -> Any:
    """``load()``, as this process read it up to ``PUBLIC_POLL_CACHE_SECONDS`` ago under
    ``key``: however many phones poll a cup's public standings, each process reads the cup
    and whose names it may show at most once a second (as the tournaments' standings do,
    :func:`tournaments.selectors.tournament_listed`)."""
    keep = settings.PUBLIC_POLL_CACHE_SECONDS
    now = time.monotonic()
    if keep > 0:
        with _POLLED_LOCK:
            cached = _POLLED.get(key)
        if cached is not None and cached[0] > now:
            return cached[1]
    value = load()
    if keep > 0:
        with _POLLED_LOCK:
            if len(_POLLED) >= POLLED_CACHE_SIZE:
                _POLLED.clear()
            _POLLED[key] = (now + keep, value)
    return value


def cup_listed(*, cup_id: int) -> Cup | None:
    """The cup with its club if anyone may see it (public, out of the draft state), as this
    process read it up to ``PUBLIC_POLL_CACHE_SECONDS`` ago (:func:`polled`); None otherwise
    (the caller then answers the ordinary way)."""

    def load() -> Cup | None:
        cup = Cup.objects.select_related("club").filter(pk=cup_id).first()
        return cup if cup is not None and cup_permissions.is_listed(cup) else None

    found: Cup | None = polled(("cup", cup_id), load)
    return found


# ---------------------------------------------------------------------------------------------
# cups


def _listed() -> Q:
    return Q(is_public=True) & ~Q(status=Cup.Status.DRAFT)


def _run_by(user: AnyUser) -> Q:
    """The cups ``user`` (signed in, not staff) runs: as a director, or as an owner or admin
    of the cup's club."""
    pk = user.pk
    assert pk is not None, "a signed-in user"
    managed = Membership.objects.filter(user_id=pk, role__in=Membership.MANAGERS).values("club_id")
    directed = Cup.directors.through.objects.filter(user_id=pk).values("cup_id")
    return Q(pk__in=directed) | Q(club_id__in=managed)


def cups_for_user(*, user: AnyUser) -> QuerySet[Cup]:
    """The cups the caller may see: public ones out of the draft state, and those they run
    (as a director, or an owner or admin of the cup's club); staff every cup."""
    qs = Cup.objects.select_related("club", "winner").prefetch_related("directors")
    if not user.is_authenticated:
        return qs.filter(_listed())
    if user.is_staff:
        return qs
    return qs.filter(_listed() | _run_by(user))


def cup_for_user(*, user: AnyUser, cup_id: int) -> Cup:
    """The cup if the caller may see it; 404 otherwise, as for an id nobody uses."""
    cup = (
        Cup.objects.select_related("club", "winner")
        .prefetch_related("directors")
        .filter(pk=cup_id)
        .first()
    )
    if cup is None or not cup_permissions.can_see_cup(user, cup):
        raise CupNotFound()
    return cup


def cup_loaded(*, cup_id: int) -> Cup:
    """The cup as a command left it, with its relations (for the command's answer)."""
    return Cup.objects.select_related("club", "winner").prefetch_related("directors").get(pk=cup_id)


def cup_for_director(*, user: AnyUser, cup_id: int) -> Cup:
    """The cup if the caller runs it (:func:`~tournaments.cup_permissions.is_cup_director`);
    404 where they may not see it, 403 where they see but do not run it."""
    cup = cup_for_user(user=user, cup_id=cup_id)
    if not cup_permissions.is_cup_director(user, cup):
        raise NotAllowed(_("Only the cup's directors may do that."))
    return cup


def club_by_id(*, club_id: int) -> Club | None:
    """The club ``club_id`` for a new cup, if any (the service decides whether the caller
    may see it and organise for it)."""
    return Club.objects.filter(pk=club_id).first()


def log_of(*, cup: Cup) -> QuerySet[CupLogEntry]:
    """The cup's audit log, newest first."""
    return CupLogEntry.objects.filter(cup=cup).select_related("user").order_by("-at", "-id")


# ---------------------------------------------------------------------------------------------
# events


def _events(cup: Cup) -> QuerySet[CupEvent]:
    return (
        CupEvent.objects.filter(cup=cup)
        .select_related("tournament", "added_by", "decided_by")
        .annotate(results_count=Count("results"))
        .order_by("held_on", "id")
    )


def _deciding(user: AnyUser) -> Q:
    """Events whose tournament ``user`` runs (its directors, its club's owners and admins):
    they see a proposal to their tournament and answer it."""
    if not user.is_authenticated:
        return Q(pk__in=[])
    managed = Membership.objects.filter(user_id=user.pk, role__in=Membership.MANAGERS).values(
        "club_id"
    )
    return Q(tournament__directors=user.pk) | Q(tournament__club_id__in=managed)


def events_of(*, cup: Cup, user: AnyUser) -> QuerySet[CupEvent]:
    """The cup's events in date order, with their counts of results: every one to those who
    run the cup; to everyone else the accepted ones, and those of tournaments they run."""
    qs = _events(cup)
    if cup_permissions.is_cup_director(user, cup):
        return qs
    if user.is_authenticated and user.is_staff:
        return qs
    ids = CupEvent.objects.filter(cup=cup).filter(
        Q(status=CupEvent.Status.ACCEPTED) | _deciding(user)
    )
    return qs.filter(pk__in=ids.values("pk"))


def _seen_cups(user: AnyUser) -> Q:
    """Rows whose ``cup`` the caller may see (:func:`~tournaments.cup_permissions.can_see_cup`):
    listed, run by them, or played in."""
    seen = Q(cup__in=cups_for_user(user=user).values("pk"))
    if user.is_authenticated:
        seen |= Q(cup__in=CupPlayer.objects.filter(user_id=user.pk).values("cup_id"))
    return seen


def tournament_cup_events(*, user: AnyUser, tournament: Tournament) -> QuerySet[CupEvent]:
    """The cups' events of ``tournament`` (one the caller may see), newest first, with their
    cups: every one (proposed, accepted, declined) to its directors
    (:func:`tournaments.permissions.is_director`), who decide the proposals also of cups they
    could not see otherwise; to everyone else the accepted ones of cups they may see, and
    every one of the cups they run (as :func:`events_of` shows them)."""
    qs = (
        CupEvent.objects.filter(tournament=tournament)
        .select_related("cup", "tournament", "added_by", "decided_by")
        .annotate(results_count=Count("results"))
        .order_by("-created_at", "-id")
    )
    if is_director(user, tournament):
        return qs
    shown = Q(status=CupEvent.Status.ACCEPTED) & _seen_cups(user)
    if user.is_authenticated:
        shown |= Q(cup__in=Cup.objects.filter(_run_by(user)).values("pk"))
    visible = CupEvent.objects.filter(tournament=tournament).filter(shown)
    return qs.filter(pk__in=visible.values("pk"))


def _event_in(cup: Cup, event_id: int) -> CupEvent:
    event = _events(cup).filter(pk=event_id).first()
    if event is None:
        raise CupNotFound(_("There is no such event in this cup."))
    return event


def event_for_user(*, user: AnyUser, cup_id: int, event_id: int) -> CupEvent:
    """An event of a cup the caller may see, where they may see it (:func:`events_of`); a
    tournament's directors also reach a proposal to their tournament in a cup they could not
    see otherwise. 404 for anything else."""
    cup = Cup.objects.select_related("club").filter(pk=cup_id).first()
    if cup is None:
        raise CupNotFound()
    event = CupEvent.objects.select_related("tournament").filter(cup=cup, pk=event_id).first()
    may_accept = event is not None and cup_permissions.may_accept(user, event)
    if not cup_permissions.can_see_cup(user, cup) and not may_accept:
        raise CupNotFound()
    if event is None or not events_of(cup=cup, user=user).filter(pk=event_id).exists():
        raise CupNotFound(_("There is no such event in this cup."))
    return _event_in(cup, event_id)


def event_for_director(*, user: AnyUser, cup_id: int, event_id: int) -> CupEvent:
    """An event of a cup the caller runs (404 / 403 as :func:`cup_for_director`)."""
    cup = cup_for_director(user=user, cup_id=cup_id)
    return _event_in(cup, event_id)


def event_for_decision(*, user: AnyUser, cup_id: int, event_id: int) -> CupEvent:
    """A proposed tournament's event for its tournament's directors to accept or decline:
    404 where the caller may see neither, 403 where they see it but do not run the
    tournament."""
    event = event_for_user(user=user, cup_id=cup_id, event_id=event_id)
    if not cup_permissions.may_accept(user, event):
        raise NotAllowed(_("Only the tournament's directors may accept or decline it."))
    return event


def final_event_of(*, cup: Cup) -> CupEvent | None:
    """The cup's final event, once added."""
    return CupEvent.objects.filter(cup=cup, is_final=True).first()


def results_of(*, event: CupEvent) -> QuerySet[CupResult]:
    """An event's results in placing order, with their players."""
    return (
        CupResult.objects.filter(event=event)
        .select_related("player", "player__user")
        .order_by("placing", "player__name", "id")
    )


# ---------------------------------------------------------------------------------------------
# players


def players_of(*, cup: Cup) -> QuerySet[CupPlayer]:
    """The cup's players (not those merged into another), by name, with their accounts."""
    return (
        CupPlayer.objects.filter(cup=cup, merged_into__isnull=True)
        .select_related("user")
        .annotate(results_count=Count("results"))
        .order_by("name", "id")
    )


def player_in(*, cup: Cup, player_id: int) -> CupPlayer:
    """A player of the cup (not merged away); 404 otherwise."""
    player = players_of(cup=cup).filter(pk=player_id).first()
    if player is None:
        raise CupNotFound(_("There is no such player in this cup."))
    return player


def publicly_named(names: CupNames) -> Q:
    """The players whose names ``names``' reader reads (a name search must not find the
    others by the names it hides)."""
    if names.basis == INSIDER:
        return Q()
    publishes = names.basis == PUBLISH
    shown = Q(user__erased_at__isnull=False) | Q(user__public_name=True)
    if publishes:
        shown |= Q(user__isnull=True) | Q(user__public_name__isnull=True)
    if names.reader_id is not None:
        shown |= Q(user_id=names.reader_id)
    return shown


def standing_of(*, cup: Cup, player: CupPlayer, ranking: str = OVERALL) -> CupStanding | None:
    """The player's stored row of a ranking, if any."""
    return CupStanding.objects.filter(cup=cup, player=player, ranking=ranking).first()


def my_cup_players(*, user: User) -> QuerySet[CupPlayer]:
    """The caller's players, newest cup first, each with its overall rank, points, counted
    and played events (None before a first computation). Every cup they play in, also a
    draft or a private one: a cup's players may see it (:func:`~tournaments.cup_permissions.
    can_see_cup`)."""
    row = CupStanding.objects.filter(
        cup_id=OuterRef("cup_id"), player_id=OuterRef("pk"), ranking=OVERALL
    )
    return (
        CupPlayer.objects.filter(user_id=user.pk, merged_into__isnull=True)
        .select_related("cup", "cup__club")
        .annotate(
            rank=Subquery(row.values("rank")[:1], output_field=IntegerField()),
            points=Subquery(row.values("points")[:1]),
            counted=Subquery(row.values("counted")[:1], output_field=IntegerField()),
            played=Subquery(row.values("played")[:1], output_field=IntegerField()),
            ranked=Subquery(row.values("ranked")[:1]),
        )
        .order_by("-cup__created_at", "-cup_id")
    )


# ---------------------------------------------------------------------------------------------
# standings


_RANKINGS: dict[tuple[int, int], frozenset[str]] = {}


def rankings_of(*, cup: Cup) -> list[str]:
    """The stored rankings of the cup: the overall first (always), the side rankings by name,
    the final's table last (where the cup has a final). Read once per computation (a
    computation replaces every stored row: ``Cup.computations`` names it)."""
    key = (cup.pk, cup.computations)
    found = _RANKINGS.get(key)
    if found is None:
        found = frozenset(
            CupStanding.objects.filter(cup=cup).values_list("ranking", flat=True).distinct()
        )
        if len(_RANKINGS) >= POLLED_CACHE_SIZE:
            _RANKINGS.clear()
        _RANKINGS[key] = found
    side = sorted(r for r in found if r not in (OVERALL, FINAL))
    out = [OVERALL, *side]
    if cup.final is not None or FINAL in found:
        out.append(FINAL)
    return out


def standings_of(*, cup: Cup, ranking: str = OVERALL) -> QuerySet[CupStanding]:
    """A stored ranking's rows in order, with their players and accounts."""
    return (
        CupStanding.objects.filter(cup=cup, ranking=ranking)
        .select_related("player", "player__user")
        .order_by("position")
    )


# ---------------------------------------------------------------------------------------------
# names


def reads_names(reader: AnyUser, cup: Cup) -> bool:
    """Whether ``reader`` reads every player's name: they run the cup or are a member of its
    club."""
    if not reader.is_authenticated:
        return False
    if (
        cup.club_id is not None
        and Membership.objects.filter(club_id=cup.club_id, user_id=reader.pk).exists()
    ):
        return True
    return cup_permissions.is_cup_director(reader, cup)


@dataclass(frozen=True)
class CupNames:
    """What one reader reads as each player of one cup (:func:`names_for`)."""

    cup: Cup
    basis: str
    reader_id: int | None
    recent: bool = False
    """Whether the players' choices may be as this process read them up to a second ago
    (:func:`polled`: the anonymous poll's fast way); else read now."""

    @property
    def club(self) -> Club | None:
        return self.cup.club if self.cup.club_id is not None else None

    def shown(self, player: CupPlayer) -> bool:
        """Whether the reader reads ``player``'s name (load ``user`` with it)."""
        if self.basis == INSIDER:
            return True
        if player.user_id is not None and player.user_id == self.reader_id:
            return True
        return privacy.name_is_public(player.user, self.club)

    def name(self, player: CupPlayer) -> str:
        """``player`` as the reader reads them: the name, or the pseudonym of ``cp:<id>``."""
        if self.shown(player):
            return player.name
        return privacy.public_pseudonym(f"cp:{player.pk}")

    @cached_property
    def key(self) -> str:
        """What the names depend on, for ETags: ``insider``, else the basis, the tag of the
        club's policy and the players' choices (:func:`clubs.privacy.names_tag`), and the
        reader where they are a player of the cup (their own name shows to them)."""
        if self.basis == INSIDER:
            return INSIDER

        def load() -> tuple[frozenset[int], str]:
            users = list(
                CupPlayer.objects.filter(cup_id=self.cup.pk, user__isnull=False).values_list(
                    "user_id", flat=True
                )
            )
            return frozenset(u for u in users if u is not None), privacy.names_tag(self.club, users)

        if self.recent:
            users, tag = polled(("names", self.cup.pk, self.cup.club_id), load)
        else:
            users, tag = load()
        key = f"{self.basis}-{tag}"
        if self.reader_id is not None and self.reader_id in users:
            key += f"-u{self.reader_id}"
        return key


def names_for(cup: Cup, reader: AnyUser, *, recent: bool = False) -> CupNames:
    """The names ``reader`` reads in ``cup``'s answers: every name for an insider
    (:func:`reads_names`); else the public version under the cup's club's policy (a cup of
    no club: names only of players who agreed), with the reader's own name."""
    reader_id = reader.pk if reader.is_authenticated else None
    if reads_names(reader, cup):
        return CupNames(cup, INSIDER, reader_id, recent)
    club = cup.club if cup.club_id is not None else None
    publishes = club is not None and club.name_policy == Club.NamePolicy.PUBLISH
    return CupNames(cup, PUBLISH if publishes else CONSENT, reader_id, recent)


def event_names(*, cup: Cup) -> dict[int, dict[str, Any]]:
    """Each event of the cup by id: its name, date, kind and whether it is the final (a
    player's history names the events it lists)."""
    return {
        pk: {"name": name, "held_on": held_on, "kind": kind, "is_final": is_final}
        for pk, name, held_on, kind, is_final in CupEvent.objects.filter(cup=cup).values_list(
            "pk", "name", "held_on", "kind", "is_final"
        )
    }
