"""What the tournaments keep about a person, for their export and their erasure (issue 39,
:mod:`clubs.privacy`; ``docs/privacy.md``, "Tournaments").

A person appears in a tournament as its creator or a director, as an entrant (their
:class:`~tournaments.models.Entry`, its seats, results and standings row), as someone invited
or inviting, as the one who entered or confirmed a table's totals, in the tournament's log,
and as the one who registered a webhook. Their name is copied into ``Entry.name`` (what they
entered under), ``StandingRow.name``, the log's details and the webhook deliveries' bodies (a
round's tables name their players).

Erasure keeps every row other players' results need: the entries, seats, standings rows,
totals and log entries keep pointing at the tombstone account; only the copies of the
person's name become their pseudonym. Seat keys (``anna``, made from a display name when the
round was seated) stay, as the tables' hand records use them everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from clubs.models import User
from clubs.privacy import Erasure, Keeper, Obstacle, Scope, as_json, register
from tournaments.models import (
    Cup,
    CupEvent,
    CupLogEntry,
    CupPlayer,
    CupResult,
    CupStanding,
    Delivery,
    Entry,
    HandAdjustment,
    Invitation,
    LogEntry,
    RoundSeat,
    StandingRow,
    TableTotals,
    Tournament,
    Webhook,
)
from tournaments.selectors import player_rounds
from tournaments.services.money import tournament_settlement

SECTION = "tournaments"
MODELS = frozenset(
    {
        "tournaments.Tournament",
        "tournaments.Entry",
        "tournaments.Invitation",
        "tournaments.TableTotals",
        "tournaments.HandAdjustment",
        "tournaments.StandingRow",
        "tournaments.LogEntry",
        "tournaments.Webhook",
        "tournaments.Delivery",
    }
)
ORDER = 300

#: Fields whose text is never a person's name, left alone when a log entry's details or a
#: delivery's body are scrubbed: seat keys (which stay, see the module's docstring) and the
#: machine words of the log and the deliveries (a login ``running`` must not rename a
#: tournament's status).
MACHINE_FIELDS = frozenset(
    {
        "action",
        "after",
        "before",
        "created_at",
        "computed_at",
        "dealer",
        "declarer",
        "event",
        "events",
        "first_dealer",
        "id",
        "method",
        "previous_valid_until",
        "role",
        "seat",
        "status",
        "was",
    }
)
#: Objects keyed by seat (a table's totals, its amounts): their keys are seat keys.
SEAT_MAPS = frozenset({"amounts", "declarer_wins", "delta", "totals"})

STANDING_FIELDS = (
    "position",
    "rank",
    "name",
    "points",
    "rounds",
    "by_round",
    "tiebreaks",
    "movement",
    "prize",
    "pending",
)


def register_keeper() -> None:
    """Register the tournaments' keeper and the cups' (``TournamentsConfig.ready``)."""
    register(
        Keeper(
            section=SECTION,
            models=MODELS,
            export=export,
            erase=erase,
            order=ORDER,
            obstacles=obstacles,
        )
    )
    register(
        Keeper(
            section=CUP_SECTION,
            models=CUP_MODELS,
            export=export_cups,
            erase=erase_cups,
            order=ORDER,
            obstacles=cup_obstacles,
        )
    )


LAST_DIRECTOR = gettext_lazy(
    "You alone direct {tournaments}, which belong to no club and have not finished. Add "
    "another director first (POST /api/v1/tournaments/{{tournament_id}}/directors/), or "
    "finish or delete them; then your account can be erased."
)


def obstacles(user: User) -> list[Obstacle]:
    """A tournament of no club that ``user`` alone directs and that has not finished would
    be left without anyone to run it but the site's staff (a club's tournament passes to the
    club's owners and admins): ``last_director`` until another director is added."""
    alone = [
        t
        for t in Tournament.objects.filter(directors=user, club__isnull=True)
        .exclude(status=Tournament.Status.FINISHED)
        .order_by("name", "id")
        if not t.directors.exclude(pk=user.pk).exists()
    ]
    if not alone:
        return []
    names = ", ".join(t.name for t in alone)
    return [Obstacle("last_director", str(LAST_DIRECTOR).format(tournaments=names))]


# --- export ----------------------------------------------------------------------------------


def export(user: User, scope: Scope) -> dict[str, Any]:
    """The ``tournaments`` section of ``user``'s export: the tournaments they created or
    direct, their entries (seats, results, standings row, money), invitations to them and by
    them, the table totals they entered or confirmed, the adjusted scores they entered or of
    hands at their tables, the log entries made by them or about their entries, and the
    webhooks they registered (never a webhook's secret). Only tournaments of the scope's club
    when a club asks. Other people appear by their ids (an entry's, an account's), never by
    name, but in the log's details as stored (a substitute a director entered by name) and in
    seat keys."""
    entries = [
        entry
        for entry in Entry.objects.filter(user=user)
        .select_related("tournament__club")
        .order_by("registered_at", "id")
        if scope.covers(entry.tournament.club_id)
    ]
    return {
        "tournaments": _tournaments(user, scope),
        "entries": [_entry(entry) for entry in entries],
        "invitations": _invitations(user, scope),
        "table_totals": _totals(user, scope, [entry.pk for entry in entries]),
        "adjusted_scores": _adjustments(user, scope, [entry.pk for entry in entries]),
        "log": _log(user, scope, [entry.pk for entry in entries]),
        "webhooks": _webhooks(user, scope),
    }


def _about(t: Tournament) -> dict[str, Any]:
    """A tournament as the export names it."""
    return {
        "id": t.pk,
        "name": t.name,
        "club": None if t.club is None else {"id": t.club.pk, "name": t.club.name},
    }


def _tournaments(user: User, scope: Scope) -> list[dict[str, Any]]:
    found = (
        Tournament.objects.filter(Q(created_by=user) | Q(directors=user))
        .select_related("club")
        .distinct()
        .order_by("created_at", "id")
    )
    directed = set(user.directed_tournaments.values_list("pk", flat=True))
    return [
        {
            **_about(t),
            "status": t.status,
            **as_json({"starts_on": t.starts_on, "ends_on": t.ends_on}),
            "created_at": t.created_at.isoformat(),
            "created": t.created_by_id == user.pk,
            "directs": t.pk in directed,
        }
        for t in found
        if scope.covers(t.club_id)
    ]


def _entry(entry: Entry) -> dict[str, Any]:
    t = entry.tournament
    seats = (
        RoundSeat.objects.filter(entry=entry)
        .order_by("round__number")
        .values("round__number", "round_table__number", "round_table__table_id", "seat", "position")
    )
    standing = (
        StandingRow.objects.filter(tournament=t, entry=entry).values(*STANDING_FIELDS).first()
    )
    return {
        "id": entry.pk,
        "tournament": _about(t),
        "name": entry.name,
        "status": entry.status,
        **as_json(
            {
                "registered_at": entry.registered_at,
                "checked_in_at": entry.checked_in_at,
                "withdrawn_at": entry.withdrawn_at,
            }
        ),
        "first_round": entry.first_round,
        "last_round": entry.last_round,
        "seats": [
            {
                "round": s["round__number"],
                "table": s["round_table__number"],
                "games_table": s["round_table__table_id"],
                "seat": s["seat"],
                "position": s["position"],
            }
            for s in seats
        ],
        # the public results without the opponents' names
        "results": [
            {key: value for key, value in row.items() if key != "opponents"}
            for row in player_rounds(t, entry)
        ],
        "standing": standing,
        "money": _money(t, entry) if t.real_money else None,
    }


def _money(t: Tournament, entry: Entry) -> dict[str, Any]:
    """The entry's net and its payments in the tournament's money settlement (minor units),
    the other party by entry id (``None``: the pot)."""
    settled = tournament_settlement(t)
    net = next((row["net"] for row in settled["nets"] if row["entry"] == entry.pk), 0)
    payments = [
        {
            "direction": "pays" if p["from"]["entry"] == entry.pk else "receives",
            "other_entry": p["to"]["entry"]
            if p["from"]["entry"] == entry.pk
            else p["from"]["entry"],
            "amount": p["amount"],
        }
        for p in settled["payments"]
        if entry.pk in (p["from"]["entry"], p["to"]["entry"])
    ]
    return {"final": settled["final"], "net": net, "payments": payments}


def _invitations(user: User, scope: Scope) -> dict[str, list[dict[str, Any]]]:
    found = (
        Invitation.objects.filter(Q(user=user) | Q(invited_by=user))
        .select_related("tournament__club")
        .order_by("created_at", "id")
    )
    received, sent = [], []
    for invitation in found:
        if not scope.covers(invitation.tournament.club_id):
            continue
        row = {
            "id": invitation.pk,
            "tournament": _about(invitation.tournament),
            "role": invitation.role,
            "status": invitation.status,
            "checked_in": invitation.checked_in,
            "entry": invitation.entry_id,
            **as_json({"created_at": invitation.created_at, "decided_at": invitation.decided_at}),
        }
        if invitation.user_id == user.pk:
            received.append({**row, "invited_by": invitation.invited_by_id})
        if invitation.invited_by_id == user.pk:
            sent.append({**row, "user": invitation.user_id})
    return {"received": received, "sent": sent}


def _totals(user: User, scope: Scope, entry_ids: list[int]) -> list[dict[str, Any]]:
    found = (
        TableTotals.objects.filter(
            Q(entered_by=user) | Q(round_table__seats__entry_id__in=entry_ids)
        )
        .select_related("round_table__round__tournament__club")
        .distinct()
        .order_by("round_table__round__tournament_id", "round_table__round__number", "id")
    )
    out = []
    for row in found:
        link = row.round_table
        t = link.round.tournament
        confirmed = sorted(set(row.confirmed_by) & set(entry_ids))
        entered = row.entered_by_id == user.pk
        if not scope.covers(t.club_id) or not (entered or confirmed):
            continue
        out.append(
            {
                "tournament": _about(t),
                "round": link.round.number,
                "table": link.number,
                "amounts": row.amounts,
                "declarer_wins": row.declarer_wins,
                "version": row.version,
                "confirmed": row.confirmed,
                "entered_by_them": entered,
                "confirmed_by_them": bool(confirmed),
                "updated_at": row.updated_at.isoformat(),
            }
        )
    return out


def _adjustments(user: User, scope: Scope, entry_ids: list[int]) -> list[dict[str, Any]]:
    """The directors' adjusted scores the person entered, or of hands at their tables."""
    found = (
        HandAdjustment.objects.filter(
            Q(entered_by=user) | Q(round_table__seats__entry_id__in=entry_ids)
        )
        .select_related("round_table__round__tournament__club")
        .distinct()
        .order_by("round_table__round__tournament_id", "round_table__round__number", "id")
    )
    return [
        {
            "tournament": _about(row.round_table.round.tournament),
            "round": row.round_table.round.number,
            "table": row.round_table.number,
            "hand": row.number,
            "amounts": row.amounts,
            "reason": row.reason,
            "entered_by_them": row.entered_by_id == user.pk,
            "created_at": row.created_at.isoformat(),
        }
        for row in found
        if scope.covers(row.round_table.round.tournament.club_id)
    ]


def _log(user: User, scope: Scope, entry_ids: list[int]) -> list[dict[str, Any]]:
    """Log entries made by the person or about them (one of their entries, or them as a
    director). The details as stored: they hold nothing hidden (the lots seed appears as its
    commitment only; a webhook's secret never)."""
    about = Q(user=user) | Q(detail__director=user.pk)
    if entry_ids:
        about |= Q(detail__entry__in=entry_ids)
    found = LogEntry.objects.filter(about).select_related("tournament__club").order_by("at", "id")
    return [
        {
            "tournament": _about(row.tournament),
            "action": row.action,
            "round": row.round_number,
            "at": row.at.isoformat(),
            "by_them": row.user_id == user.pk,
            "detail": row.detail,
        }
        for row in found
        if scope.covers(row.tournament.club_id)
    ]


def _webhooks(user: User, scope: Scope) -> list[dict[str, Any]]:
    found = (
        Webhook.objects.filter(created_by=user, tournament__isnull=False)
        .select_related("tournament__club")
        .order_by("created_at", "id")
    )
    out = []
    for hook in found:
        t = hook.tournament  # a cup's webhooks are in the cups' section
        if t is None or not scope.covers(t.club_id):
            continue
        out.append(
            {
                "id": hook.pk,
                "tournament": _about(t),
                "url": hook.url,
                "events": hook.events,
                "is_active": hook.is_active,
                "created_at": hook.created_at.isoformat(),
            }
        )
    return out


# --- erasure ---------------------------------------------------------------------------------


def erase(erasure: Erasure) -> None:
    """Erase the person from the tournaments (inside ``clubs.privacy.erase``'s transaction):
    their entries and standings rows carry the pseudonym as their name (the rows stay, for
    everyone else's standings); they direct no tournament any more; the names in the log's
    details and the webhook deliveries' bodies become the pseudonym; invitations to them
    that nobody answered are deleted. The tournaments' public pages change their ETags."""
    user = erasure.user
    stand_in = erasure.pseudonym
    entries = list(Entry.objects.filter(user=user).values_list("pk", "tournament_id", "name"))
    # a director may have entered them under a name of their own choosing
    erasure = replace(
        erasure,
        names=erasure.names | {name.casefold() for _, _, name in entries if name.strip()},
    )
    entered = {tournament_id for _, tournament_id, _ in entries}
    Entry.objects.filter(user=user).update(name=stand_in)
    StandingRow.objects.filter(Q(entry__user=user) | Q(user=user)).update(name=stand_in)
    directed = list(Tournament.objects.filter(directors=user).values_list("pk", flat=True))
    for t in Tournament.objects.filter(pk__in=directed):
        t.directors.remove(user)
        LogEntry.objects.create(
            tournament=t, action="director_erased", detail={"director": user.pk}
        )
    Invitation.objects.filter(user=user, status=Invitation.Status.INVITED).delete()
    _scrub_log(erasure, entered | set(directed))
    _scrub_adjustments(erasure, entered | set(directed))
    _scrub_deliveries(erasure, entered)
    Tournament.objects.filter(pk__in=entered | set(directed)).update(changed_at=timezone.now())


def _scrub_log(erasure: Erasure, tournament_ids: Iterable[int]) -> None:
    rows = LogEntry.objects.filter(Q(tournament_id__in=list(tournament_ids)) | Q(user=erasure.user))
    changed = []
    for row in rows.only("pk", "detail").iterator():
        scrubbed = scrub(erasure, row.detail)
        if scrubbed != row.detail:
            row.detail = scrubbed
            changed.append(row)
    LogEntry.objects.bulk_update(changed, ["detail"], batch_size=500)


def _scrub_adjustments(erasure: Erasure, tournament_ids: Iterable[int]) -> None:
    """A director's reason for an adjusted score may name the person."""
    rows = HandAdjustment.objects.filter(
        Q(round_table__round__tournament_id__in=list(tournament_ids)) | Q(entered_by=erasure.user)
    )
    changed = []
    for row in rows.only("pk", "reason").iterator():
        scrubbed = erasure.scrub(row.reason)
        if scrubbed != row.reason:
            row.reason = scrubbed
            changed.append(row)
    HandAdjustment.objects.bulk_update(changed, ["reason"], batch_size=500)


def _scrub_deliveries(erasure: Erasure, tournament_ids: Iterable[int]) -> None:
    rows = Delivery.objects.filter(webhook__tournament_id__in=list(tournament_ids))
    changed = []
    for row in rows.only("pk", "payload").iterator():
        scrubbed = scrub(erasure, row.payload)
        if scrubbed != row.payload:
            row.payload = scrubbed
            changed.append(row)
    Delivery.objects.bulk_update(changed, ["payload"], batch_size=500)


def scrub(erasure: Erasure, value: Any, field: str | None = None) -> Any:
    """``value`` (a log entry's details, a delivery's body) with every string that names the
    person replaced by the pseudonym (:meth:`Erasure.scrub`), except the strings of
    :data:`MACHINE_FIELDS`. Keys stay: they are field names, round numbers and seat keys."""
    if isinstance(value, dict):
        if field in SEAT_MAPS:
            return {key: scrub(erasure, item) for key, item in value.items()}
        return {key: scrub(erasure, item, key) for key, item in value.items()}
    if isinstance(value, list):
        return [scrub(erasure, item, field) for item in value]
    if isinstance(value, str) and field in MACHINE_FIELDS:
        return value
    return erasure.scrub(value)


# --- cups (issue 42) -------------------------------------------------------------------------
#
# A person appears in a cup as its creator or a director, as a cup player (with their account:
# its name, attributes, results and standings rows; guests merged into it carry a name of
# theirs too), as the one who added or decided on an event, in the cup's log, and as the one
# who registered a cup's webhook. Erasure keeps the rows (other players' standings need
# them): the cup players' names become the pseudonym, they direct no cup any more, and the
# names in the log's details are scrubbed.

CUP_SECTION = "cups"
CUP_MODELS = frozenset(
    {"tournaments.Cup", "tournaments.CupEvent", "tournaments.CupPlayer", "tournaments.CupLogEntry"}
)
CUP_STANDING_FIELDS = (
    "ranking",
    "position",
    "rank",
    "points",
    "counted",
    "played",
    "rounds",
    "average",
    "ranked",
    "qualified",
    "details",
    "history",
)

LAST_CUP_DIRECTOR = gettext_lazy(
    "You alone direct {cups}, which belong to no club and have not finished. Add another "
    "director first (POST /api/v1/cups/{{cup_id}}/directors/), or finish or delete them; then "
    "your account can be erased."
)


def cup_obstacles(user: User) -> list[Obstacle]:
    """A cup of no club that ``user`` alone directs and that has not finished would be left
    to the site's staff: ``last_cup_director`` until another director is added."""
    alone = [
        cup
        for cup in Cup.objects.filter(directors=user, club__isnull=True)
        .exclude(status=Cup.Status.FINISHED)
        .order_by("name", "id")
        if not cup.directors.exclude(pk=user.pk).exists()
    ]
    if not alone:
        return []
    names = ", ".join(cup.name for cup in alone)
    return [Obstacle("last_cup_director", str(LAST_CUP_DIRECTOR).format(cups=names))]


def _cup(cup: Cup) -> dict[str, Any]:
    """A cup as the export names it."""
    return {
        "id": cup.pk,
        "name": cup.name,
        "club": None if cup.club is None else {"id": cup.club.pk, "name": cup.club.name},
    }


def export_cups(user: User, scope: Scope) -> dict[str, Any]:
    """The ``cups`` section of ``user``'s export: the cups they created or direct, their cup
    players (name, attributes, every result and standings row, with their rank over time),
    the events they added or decided on, the log entries made by them or about them, and the
    cups' webhooks they registered (never a secret). Only cups of the scope's club when a
    club asks. Other players appear by their ids, never by name."""
    players = [
        p
        for p in CupPlayer.objects.filter(user=user).select_related("cup__club").order_by("id")
        if scope.covers(p.cup.club_id)
    ]
    return {
        "cups": _cups(user, scope),
        "players": [_cup_player(p) for p in players],
        "events": _cup_events(user, scope),
        "log": _cup_log(user, scope, [p.pk for p in players]),
        "webhooks": _cup_webhooks(user, scope),
    }


def _cups(user: User, scope: Scope) -> list[dict[str, Any]]:
    found = (
        Cup.objects.filter(Q(created_by=user) | Q(directors=user))
        .select_related("club")
        .distinct()
        .order_by("created_at", "id")
    )
    directed = set(user.directed_cups.values_list("pk", flat=True))
    return [
        {
            **_cup(cup),
            "status": cup.status,
            "created_at": cup.created_at.isoformat(),
            "created": cup.created_by_id == user.pk,
            "directs": cup.pk in directed,
        }
        for cup in found
        if scope.covers(cup.club_id)
    ]


def _cup_player(player: CupPlayer) -> dict[str, Any]:
    merged = list(
        CupPlayer.objects.filter(merged_into=player).order_by("id").values_list("pk", "name")
    )
    results = (
        CupResult.objects.filter(player=player)
        .select_related("event")
        .order_by("event__held_on", "event_id")
    )
    standings = CupStanding.objects.filter(player=player).order_by("ranking")
    return {
        "id": player.pk,
        "cup": _cup(player.cup),
        "name": player.name,
        "attributes": player.attributes,
        "merged_from": [{"id": pk, "name": name} for pk, name in merged],
        "created_at": player.created_at.isoformat(),
        "results": [
            {
                "event": {
                    "id": r.event_id,
                    "name": r.event.name,
                    "held_on": r.event.held_on.isoformat(),
                    "tournament": r.event.tournament_id,
                },
                "placing": r.placing,
                "score": r.score,
                "rounds": r.rounds,
            }
            for r in results
        ],
        "standings": list(standings.values(*CUP_STANDING_FIELDS)),
    }


def _cup_events(user: User, scope: Scope) -> list[dict[str, Any]]:
    found = (
        CupEvent.objects.filter(Q(added_by=user) | Q(decided_by=user))
        .select_related("cup__club")
        .order_by("created_at", "id")
    )
    return [
        {
            "id": e.pk,
            "cup": _cup(e.cup),
            "name": e.name,
            "kind": e.kind,
            "status": e.status,
            "tournament": e.tournament_id,
            "added_by_them": e.added_by_id == user.pk,
            "decided_by_them": e.decided_by_id == user.pk,
            **as_json({"created_at": e.created_at, "decided_at": e.decided_at}),
        }
        for e in found
        if scope.covers(e.cup.club_id)
    ]


def _cup_log(user: User, scope: Scope, player_ids: list[int]) -> list[dict[str, Any]]:
    """Log entries made by the person or about them (one of their cup players, or them as a
    director), with the details as stored."""
    about = Q(user=user) | Q(detail__director=user.pk)
    if player_ids:
        about |= Q(detail__player__in=player_ids) | Q(detail__into__in=player_ids)
    found = CupLogEntry.objects.filter(about).select_related("cup__club").order_by("at", "id")
    return [
        {
            "cup": _cup(row.cup),
            "action": row.action,
            "at": row.at.isoformat(),
            "by_them": row.user_id == user.pk,
            "detail": row.detail,
        }
        for row in found
        if scope.covers(row.cup.club_id)
    ]


def _cup_webhooks(user: User, scope: Scope) -> list[dict[str, Any]]:
    found = (
        Webhook.objects.filter(created_by=user, cup__isnull=False)
        .select_related("cup__club")
        .order_by("created_at", "id")
    )
    out = []
    for hook in found:
        cup = hook.cup
        if cup is None or not scope.covers(cup.club_id):
            continue
        out.append(
            {
                "id": hook.pk,
                "cup": _cup(cup),
                "url": hook.url,
                "events": hook.events,
                "is_active": hook.is_active,
                "created_at": hook.created_at.isoformat(),
            }
        )
    return out


def erase_cups(erasure: Erasure) -> None:
    """Erase the person from the cups (inside ``clubs.privacy.erase``'s transaction): their
    cup players, and the guests merged into them, carry the pseudonym as their name (the
    rows stay, with their results and standings, for everyone else's ranks); they direct no
    cup any more; the names in the cups' log details become the pseudonym. The cups' public
    pages change their ETags."""
    user = erasure.user
    stand_in = erasure.pseudonym
    mine = list(CupPlayer.objects.filter(user=user).values_list("pk", "cup_id", "name"))
    ids = [pk for pk, _, _ in mine]
    merged = list(CupPlayer.objects.filter(merged_into_id__in=ids).values_list("pk", "name"))
    # an import or a director may have named them in their own way
    erasure = replace(
        erasure,
        names=erasure.names
        | {name.casefold() for name in (n for *_, n in mine) if name.strip()}
        | {name.casefold() for _, name in merged if name.strip()},
    )
    played = {cup_id for _, cup_id, _ in mine}
    CupPlayer.objects.filter(pk__in=ids + [pk for pk, _ in merged]).update(name=stand_in)
    directed = list(Cup.objects.filter(directors=user).values_list("pk", flat=True))
    for cup in Cup.objects.filter(pk__in=directed):
        cup.directors.remove(user)
        CupLogEntry.objects.create(cup=cup, action="director_erased", detail={"director": user.pk})
    touched = played | set(directed)
    rows = CupLogEntry.objects.filter(Q(cup_id__in=touched) | Q(user=user))
    changed = []
    for row in rows.only("pk", "detail").iterator():
        scrubbed = scrub(erasure, row.detail)
        if scrubbed != row.detail:
            row.detail = scrubbed
            changed.append(row)
    CupLogEntry.objects.bulk_update(changed, ["detail"], batch_size=500)
    Cup.objects.filter(pk__in=touched).update(changed_at=timezone.now())
