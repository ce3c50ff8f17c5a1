"""Cups and ranking lists (issue 42, ``docs/cups.md``): their commands and the computation of
their standings.

Terms: a *cup* (Cup, Turnierserie) counts *events*: tournaments of this server (a cup's
directors propose one, one of the tournament's directors accepts or declines it; a director of
both adds it accepted) and tournaments run elsewhere, *imported* with their results (CSV or
JSON, :mod:`tournaments.cups_import`). Its *players* are accounts or guests known by name;
a director merges a duplicate into the player it stands for. The aggregation is the pure
:mod:`tournaments.cups`; who may do what, :mod:`tournaments.cup_permissions`.

Lifecycle (each step a command, checked, audited in :class:`~tournaments.models.CupLogEntry`
and refused with a sentence when out of order)::

    draft → running → finished (the winner published) → (reopened) running

Every command holds the cup's row lock for its transaction and writes one log entry; every
change to what the standings read (an event accepted, imported, corrected or removed, a
player merged or edited, the policy or the final changed) asks the worker for new standings
(:func:`request_cup_standings`, coalesced by version as a tournament's). The worker
(:func:`cup_recompute`) copies the stored standings of each accepted tournament of this server
that has finished (placing = rank, score = points, rounds), drops those of one that was
reopened, runs the core and replaces the stored rows: the overall ranking, each side ranking
(``"<attribute>:<value>"``) and, where the cup has a final, the final's table (``"final"``).
A tournament's new standings ask each cup counting it (:func:`tournament_standings_changed`).

What a phone hears (``clubs.outbox``, ``docs/notifications.md``): a proposal tells the
tournament's directors (``cup_proposal``, withdrawn once decided or removed); once the final is on
the calendar (an accepted final event without results), a computation of a running cup tells
each player with an account who qualifies for it, once per cup (``cup_qualified``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.core.validators import validate_slug
from django.db import connection, models, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

import engine
from clubs import outbox
from clubs.models import Club, User
from clubs.services.seasons import should_compute
from config.slugs import slug_of
from config.tasks import send_after_commit
from tournaments import cup_permissions, cups, cups_import
from tournaments.errors import CupConflict, CupNotFound, InvalidInput, NotAllowed
from tournaments.models import (
    Cup,
    CupEvent,
    CupLogEntry,
    CupPlayer,
    CupResult,
    CupStanding,
    StandingRow,
    Tournament,
)
from tournaments.permissions import can_see
from tournaments.services.common import listing

INFO_FIELDS = (
    "name",
    "slug",
    "description",
    "season_starts_on",
    "season_ends_on",
    "rule_sets",
    "is_public",
)
COMPUTED_FIELDS = ("policy", "final")
"""Fields whose change changes the standings."""
FORMATS = ("csv", "json")
FINAL = "final"
"""The ranking of the final's table."""
MAX_NAME = 150
MAX_ATTRIBUTES = 20
MAX_ATTRIBUTE = 100

#: What a cup is in each state, as the end of "the cup is ..." (a refusal).
STATUS_WORDS = {
    Cup.Status.DRAFT: pgettext_lazy("the cup is ...", "a draft"),
    Cup.Status.RUNNING: pgettext_lazy("the cup is ...", "running"),
    Cup.Status.FINISHED: pgettext_lazy("the cup is ...", "finished"),
}

#: The steps a cup's state may refuse, as the "..." of "Cannot ...: the cup is ..."
#: (msgctxt "refused cup step").
STEPS = {
    "delete": pgettext_lazy("refused cup step", "delete the cup"),
    "open": pgettext_lazy("refused cup step", "open the cup"),
    "finish": pgettext_lazy("refused cup step", "finish the cup"),
    "reopen": pgettext_lazy("refused cup step", "reopen the cup"),
    "change": pgettext_lazy("refused cup step", "change how the cup counts"),
    "add_event": pgettext_lazy("refused cup step", "add an event"),
    "decide": pgettext_lazy("refused cup step", "decide on the event"),
    "import": pgettext_lazy("refused cup step", "import a tournament"),
    "correct": pgettext_lazy("refused cup step", "correct an event's results"),
    "remove_event": pgettext_lazy("refused cup step", "remove an event"),
    "change_player": pgettext_lazy("refused cup step", "change a player"),
    "merge": pgettext_lazy("refused cup step", "merge players"),
}
OPEN = (Cup.Status.DRAFT, Cup.Status.RUNNING)
"""The states in which a cup's events and players change."""


# ---------------------------------------------------------------------------------------------
# locks, permissions, the log


def _lock(cup_id: int) -> Cup:
    """The cup, locked for the rest of the transaction (its commands run one at a time)."""
    cup = Cup.objects.select_for_update().filter(pk=cup_id).first()
    if cup is None:
        raise CupNotFound()
    return cup


def _require_director(user: User, cup: Cup) -> None:
    """Only the cup's directors (its club's owners and admins, staff) run it; a cup the
    caller may not see does not exist for them."""
    if cup_permissions.is_cup_director(user, cup):
        return
    if not cup_permissions.can_see_cup(user, cup):
        raise CupNotFound()
    raise NotAllowed(_("Only the cup's directors may do that."))


def _require_status(cup: Cup, allowed: Iterable[str], doing: str) -> None:
    """Refuse the step ``doing`` (a key of :data:`STEPS`) unless the cup is in one of
    ``allowed``."""
    allowed = list(allowed)
    if cup.status not in allowed:
        wanted = listing((STATUS_WORDS[Cup.Status(s)] for s in allowed), "or")
        now = STATUS_WORDS[Cup.Status(cup.status)]
        sentence = _("Cannot {doing}: the cup is {now}, not {wanted}.")
        raise CupConflict(
            sentence.format(doing=STEPS[doing], now=now, wanted=wanted), code="wrong_state"
        )


def _log(cup: Cup, user: User | None, action: str, **detail: Any) -> CupLogEntry:
    """Audit a command and mark the cup changed (its public pages' ETags move)."""
    Cup.objects.filter(pk=cup.pk).update(changed_at=timezone.now())
    return CupLogEntry.objects.create(cup=cup, user=user, action=action, detail=_plain(detail))


def _plain(value: Any) -> Any:
    """``value`` as JSON: dates as ISO 8601, fractions as text."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if isinstance(value, Fraction):
        return cups.points_text(value)
    return value


def _snapshot(cup: Cup) -> dict[str, Any]:
    """The cup's settings for the log."""
    return _plain(
        {name: getattr(cup, name) for name in (*INFO_FIELDS, *COMPUTED_FIELDS, "status")}
        | {"club": cup.club_id}
    )


def _event_of(event: CupEvent | int) -> tuple[Cup, CupEvent]:
    """The event's cup (locked) and the event read again under the lock."""
    event_id = event if isinstance(event, int) else event.pk
    cup_id = CupEvent.objects.filter(pk=event_id).values_list("cup_id", flat=True).first()
    if cup_id is None:
        raise CupNotFound(_("There is no such event."))
    cup = _lock(cup_id)
    found = CupEvent.objects.select_related("tournament").filter(pk=event_id).first()
    if found is None:
        raise CupNotFound(_("There is no such event."))
    return cup, found


def _player_of(player: CupPlayer | int) -> tuple[Cup, CupPlayer]:
    player_id = player if isinstance(player, int) else player.pk
    cup_id = CupPlayer.objects.filter(pk=player_id).values_list("cup_id", flat=True).first()
    if cup_id is None:
        raise CupNotFound(_("There is no such player."))
    cup = _lock(cup_id)
    return cup, CupPlayer.objects.get(pk=player_id)


# ---------------------------------------------------------------------------------------------
# validation


def policy_text(error: cups.PolicyError) -> str:
    """The core's refusal of a policy in the active language (its template by code)."""
    template = cups.MESSAGES.get(error.code)
    if template is None:
        return error.message
    try:
        return gettext(template).format(**error.params)
    except (KeyError, IndexError, ValueError):
        return error.message


def import_text(error: cups_import.ImportRefused) -> str:
    """An import's refusal in the active language: the line or item, and the sentence."""
    try:
        problem = gettext(cups_import.MESSAGES[error.code]).format(**error.params)
    except (KeyError, IndexError, ValueError):
        problem = cups_import.MESSAGES[error.code].format(**error.params)
    return _at(problem, line=error.line, item=error.item)


def _at(problem: str, *, line: int | None = None, item: int | None = None) -> str:
    """``problem`` at a CSV document's ``line`` or a JSON document's ``item``."""
    if line is not None:
        return _("line {line}: {problem}").format(line=line, problem=problem)
    if item is not None:
        return _("results[{item}]: {problem}").format(item=item, problem=problem)
    return problem


def _row_at(row: cups_import.Row, format: str, problem: str) -> str:
    """``problem`` at the import's row ``row``."""
    if format == "csv":
        return _at(problem, line=row.line)
    return _at(problem, item=row.line - 1)


def _row_field(row: cups_import.Row, format: str, field: str) -> str:
    """The input field of a row's ``field``: ``data`` (CSV: the line says where) or
    ``data.results[3].user`` (JSON)."""
    return "data" if format == "csv" else f"data.results[{row.line - 1}].{field}"


def _policy(data: Any) -> cups.Policy:
    try:
        return cups.parse_policy(data)
    except cups.PolicyError as e:
        raise InvalidInput.about(_join("policy", e.field), policy_text(e), code=e.code) from None


def _final(data: Any) -> cups.FinalPolicy | None:
    try:
        return cups.parse_final(data)
    except cups.PolicyError as e:
        raise InvalidInput.about(_join("final", e.field), policy_text(e), code=e.code) from None


def _join(root: str, path: str) -> str:
    if not path:
        return root
    return f"{root}{path}" if path.startswith("[") else f"{root}.{path}"


def _rule_sets(value: Any) -> list[str]:
    """The rule set names a cup counts: a non-empty list of offered rule sets, each once."""
    known = [rs.name for rs in engine.rule_sets()]
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(name, str) for name in value)
        or len(set(value)) != len(value)
    ):
        raise InvalidInput.about(
            "rule_sets",
            _("rule_sets lists the rule sets the cup counts, each once, from {names}.").format(
                names=", ".join(known)
            ),
        )
    unknown = [name for name in value if name not in known]
    if unknown:
        raise InvalidInput.about(
            "rule_sets",
            _("{names} is not a rule set; choose from {known}.").format(
                names=", ".join(unknown), known=", ".join(known)
            ),
        )
    return list(value)


def _name(value: Any, field: str = "name") -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput.about(field, _("Give a name."))
    name = " ".join(value.split())
    if len(name) > MAX_NAME:
        raise InvalidInput.about(
            field, _("A name has at most {most} characters.").format(most=MAX_NAME)
        )
    return name


def _attributes(value: Any) -> dict[str, str]:
    """A player's attributes: names to texts (empty texts left out)."""
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise InvalidInput.about("attributes", _("attributes maps names to texts."))
    out = {
        " ".join(k.split()).lower(): " ".join(v.split())
        for k, v in value.items()
        if k.strip() and v.strip()
    }
    if len(out) > MAX_ATTRIBUTES or any(
        len(k) > MAX_ATTRIBUTE or len(v) > MAX_ATTRIBUTE or ":" in k for k, v in out.items()
    ):
        raise InvalidInput.about(
            "attributes",
            _(
                "A player has at most {count} attributes, each name (without a colon) and text "
                "at most {most} characters."
            ).format(count=MAX_ATTRIBUTES, most=MAX_ATTRIBUTE),
        )
    return out


def _checked(values: dict[str, Any]) -> dict[str, Any]:
    """The cup's fields given, validated (sentences naming the field)."""
    out = dict(values)
    if "name" in out:
        out["name"] = _name(out["name"])
    if "rule_sets" in out:
        out["rule_sets"] = _rule_sets(out["rule_sets"])
    if "policy" in out:
        _policy(out["policy"])
    if "final" in out and out["final"] is not None:
        _final(out["final"])
    if "description" in out and not isinstance(out["description"], str):
        raise InvalidInput.about("description", _("description is a text."))
    if "is_public" in out:
        out["is_public"] = bool(out["is_public"])
    if out.get("slug"):
        try:
            validate_slug(out["slug"])
        except Exception:
            raise InvalidInput.about(
                "slug", _("A slug has letters, digits, hyphens and underscores only.")
            ) from None
    for name in ("season_starts_on", "season_ends_on"):
        if out.get(name) is not None and not isinstance(out[name], dt.date):
            raise InvalidInput.about(name, _("Give a date."))
    return out


def _check_season(cup: Cup) -> None:
    starts, ends = cup.season_starts_on, cup.season_ends_on
    if starts is not None and ends is not None and ends < starts:
        raise InvalidInput.about(
            "season_ends_on", _("A season ends on or after the day it starts.")
        )


def _free_slug(wanted: str, *, given: bool = False, exclude: int | None = None) -> str:
    """A slug no other cup has: the one ``given`` (else made from the name ``wanted``), or,
    when another cup has it, the next with a suffix (``tarockcup-2``), as tournaments'."""
    others = Cup.objects.exclude(pk=exclude) if exclude is not None else Cup.objects.all()
    if given and not others.filter(slug=wanted).exists():
        return wanted
    base = (wanted if given else slug_of(wanted))[:70].strip("-") or "cup"
    slug, n = base, 1
    while others.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _counted(cup: Cup, t: Tournament) -> None:
    """Refuse a tournament of a rule set the cup does not count."""
    variant = (t.rules or {}).get("variant")
    if variant not in cup.rule_sets:
        raise InvalidInput.about(
            "tournament_id",
            _("{tournament} plays {variant}, and the cup counts only {rule_sets}.").format(
                tournament=t.name,
                variant=variant,
                rule_sets=listing(cup.rule_sets, "and"),
            ),
            code="rule_set",
        )


def _check_final_event(cup: Cup, *, exclude: int | None = None) -> None:
    """A final event needs a cup with a final's policy, and at most one final."""
    if cup.final is None:
        raise InvalidInput.about(
            "is_final",
            _("The cup has no final: give the final's policy (final) first."),
        )
    others = CupEvent.objects.filter(cup=cup, is_final=True)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    if others.exists():
        raise CupConflict(_("The cup has a final already."), code="final_exists")


# ---------------------------------------------------------------------------------------------
# the cup


def cup_create(
    *,
    user: User,
    club: Club | None,
    name: str,
    slug: str = "",
    description: str = "",
    season_starts_on: dt.date | None = None,
    season_ends_on: dt.date | None = None,
    rule_sets: list[str],
    is_public: bool = True,
    policy: dict[str, Any],
    final: dict[str, Any] | None = None,
) -> Cup:
    """Create a draft cup; its creator directs it. A club's cup is created by that club's
    owners and admins."""
    if club is not None and not cup_permissions.may_see_club(user, club):
        # a private club does not exist for outsiders: 400, as an id nobody uses
        raise InvalidInput.about("club", _("There is no such club."))
    if not cup_permissions.may_create_for(user, club):
        raise NotAllowed(_("Only the club's owners and admins create its cups."))
    values = _checked(
        {
            "name": name,
            "slug": slug,
            "description": description,
            "season_starts_on": season_starts_on,
            "season_ends_on": season_ends_on,
            "rule_sets": rule_sets,
            "is_public": is_public,
            "policy": policy,
            "final": final,
        }
    )
    with transaction.atomic():
        cup = Cup(
            club=club,
            created_by=user,
            **{key: value for key, value in values.items() if key != "slug"},
        )
        cup.slug = _free_slug(slug, given=True) if slug else _free_slug(values["name"])
        _check_season(cup)
        cup.save()
        cup.directors.add(user)
        _log(cup, user, "cup_create", after=_snapshot(cup))
    return cup


def cup_update(*, user: User, cup: Cup, **changes: Any) -> Cup:
    """Change the cup's details; how it counts (``policy``, ``final``, ``rule_sets``) until it
    is finished. A new policy or final asks for new standings."""
    unknown = set(changes) - set(INFO_FIELDS) - set(COMPUTED_FIELDS)
    if unknown:
        raise InvalidInput(_("Cannot change {names}.").format(names=", ".join(sorted(unknown))))
    changes = _checked(changes)
    with transaction.atomic():
        c = _lock(cup.pk)
        _require_director(user, c)
        counting = {"policy", "final", "rule_sets"} & set(changes)
        if counting:
            _require_status(c, OPEN, "change")
        if "rule_sets" in changes:
            for event in (
                CupEvent.objects.filter(cup=c, tournament__isnull=False)
                .exclude(status=CupEvent.Status.DECLINED)
                .select_related("tournament")
            ):
                assert event.tournament is not None
                variant = (event.tournament.rules or {}).get("variant")
                if variant not in changes["rule_sets"]:
                    raise InvalidInput.about(
                        "rule_sets",
                        _("The cup counts {tournament}, which plays {variant}.").format(
                            tournament=event.tournament.name, variant=variant
                        ),
                        code="rule_set",
                    )
        if (
            "final" in changes
            and changes["final"] is None
            and CupEvent.objects.filter(cup=c, is_final=True).exists()
        ):
            raise CupConflict(
                _("The cup has a final event: remove it before removing the final."),
                code="final_exists",
            )
        if changes.get("slug"):
            changes["slug"] = _free_slug(changes["slug"], given=True, exclude=c.pk)
        elif "slug" in changes:
            del changes["slug"]
        before = _snapshot(c)
        for name, value in changes.items():
            setattr(c, name, value)
        _check_season(c)
        c.save()
        _log(c, user, "cup_update", before=before, after=_snapshot(c))
        if {"policy", "final"} & set(changes):
            request_cup_standings(c.pk)
    return c


def cup_delete(*, user: User, cup: Cup) -> None:
    """Delete a draft cup with everything in it."""
    with transaction.atomic():
        c = _lock(cup.pk)
        _require_director(user, c)
        _require_status(c, [Cup.Status.DRAFT], "delete")
        c.delete()


def cup_open(*, user: User, cup: Cup) -> Cup:
    """draft → running: the cup is listed (when public) with its standings."""
    return _move(user, cup, [Cup.Status.DRAFT], Cup.Status.RUNNING, "open")


def cup_reopen(*, user: User, cup: Cup, reason: str = "") -> Cup:
    """finished → running (a correction after the end): the winner is withdrawn until the cup
    finishes again; audited with the reason."""
    return _move(user, cup, [Cup.Status.FINISHED], Cup.Status.RUNNING, "reopen", reason=reason)


def _move(user: User, cup: Cup, allowed: list[str], to: str, doing: str, **detail: Any) -> Cup:
    with transaction.atomic():
        c = _lock(cup.pk)
        _require_director(user, c)
        _require_status(c, allowed, doing)
        before = c.status
        c.status = to
        c.winner = None
        c.save(update_fields=["status", "winner", "changed_at"])
        _log(c, user, f"cup_{doing}", before=before, after=to, **detail)
        request_cup_standings(c.pk)
    return c


def cup_finish(*, user: User, cup: Cup) -> Cup:
    """running → finished: the standings are computed now and the winner published: the
    first of the final's table where the cup has a final (once the final's results are in),
    else the first of the cup's ranked players."""
    with transaction.atomic():
        c = _lock(cup.pk)
        _require_director(user, c)
        _require_status(c, [Cup.Status.RUNNING], "finish")
        _compute(c, c.requested_version)
        ranking = ""
        if c.final is not None:
            final = CupEvent.objects.filter(
                cup=c, is_final=True, status=CupEvent.Status.ACCEPTED
            ).first()
            if final is None or not final.results.exists():
                raise CupConflict(
                    _(
                        "The cup ends in a final: its results decide the winner, and they are "
                        "not in yet."
                    ),
                    code="final_missing",
                )
            ranking = FINAL
        first = (
            CupStanding.objects.filter(cup=c, ranking=ranking, rank__isnull=False)
            .order_by("position")
            .select_related("player")
            .first()
        )
        if first is None:
            raise CupConflict(
                _("No player is ranked yet: the cup has no winner."), code="no_winner"
            )
        _refuse_tie(c, ranking, first)
        c.status = Cup.Status.FINISHED
        c.winner = first.player
        c.save(update_fields=["status", "winner", "changed_at"])
        _log(c, user, "cup_finish", winner=first.player_id, points=first.points)
        _emit(c.pk, "cup_finished", {"winner": first.player_id, "points": first.points})
    return c


def _refuse_tie(cup: Cup, ranking: str, first: CupStanding) -> None:
    """Refuse to publish a winner while several players share rank 1 of ``ranking`` (the
    cup's own table, or the final's): the position between them is only their names' order.
    409 ``tied_for_first``, naming them and how to settle it."""
    tied = list(
        CupStanding.objects.filter(cup=cup, ranking=ranking, rank=first.rank)
        .select_related("player")
        .order_by("position")
    )
    if len(tied) < 2:
        return
    names = listing((row.player.name for row in tied), "and")
    if ranking == FINAL:
        sentence = _(
            "{names} share rank 1 of the final's table (equal totals, final placings and cup "
            "ranks): correct the final's results so that one of them places ahead."
        )
    else:
        sentence = _(
            "{names} share rank 1 on points and every tiebreak of the policy: add to the policy "
            "a tiebreak that separates them, or give the cup a final, which then decides."
        )
    raise CupConflict(sentence.format(names=names), code="tied_for_first")


NO_ACCOUNT = gettext_lazy("There is no such account among the people you play with.")
"""The one answer for an account id a director may not name (``cup_permissions.may_name``)
and for one nobody uses."""


def cup_director_add(*, user: User, cup: Cup, director_id: int) -> None:
    """Make the account ``director_id`` a director of the cup."""
    with transaction.atomic():
        c = _lock(cup.pk)
        _require_director(user, c)
        if director_id not in cup_permissions.may_name(user, c, [director_id]):
            raise InvalidInput.about("director_id", str(NO_ACCOUNT))
        person = User.objects.get(pk=director_id)
        if c.directors.filter(pk=person.pk).exists():
            return
        c.directors.add(person)
        _log(c, user, "director_add", director=person.pk)


def cup_director_remove(*, user: User, cup: Cup, director_id: int) -> None:
    """Remove a director; a cup of no club keeps at least one."""
    with transaction.atomic():
        c = _lock(cup.pk)
        _require_director(user, c)
        if not c.directors.filter(pk=director_id).exists():
            raise CupNotFound(_("There is no such director."))
        if c.club_id is None and c.directors.count() == 1:
            raise CupConflict(
                _("A cup of no club keeps at least one director: add another one first."),
                code="last_director",
            )
        c.directors.remove(director_id)
        _log(c, user, "director_remove", director=director_id)


# ---------------------------------------------------------------------------------------------
# events


def _held_on(t: Tournament) -> dt.date:
    return t.ends_on or t.starts_on or timezone.localdate(t.created_at)


def event_add_tournament(
    *, user: User, cup: Cup, tournament_id: int, is_final: bool = False
) -> CupEvent:
    """Propose a tournament of this server to the cup: it counts once one of its directors
    accepts (:func:`event_accept`); at once when the cup's director directs it too. It must
    play one of the rule sets the cup counts."""
    with transaction.atomic():
        c = _lock(cup.pk)
        _require_director(user, c)
        _require_status(c, OPEN, "add_event")
        t = Tournament.objects.filter(pk=tournament_id).first()
        if t is None or not can_see(user, t):
            raise InvalidInput.about("tournament_id", _("There is no such tournament."))
        _counted(c, t)
        if CupEvent.objects.filter(cup=c, tournament=t).exists():
            raise CupConflict(
                _("{tournament} is in the cup already.").format(tournament=t.name),
                code="event_exists",
            )
        if is_final:
            _check_final_event(c)
        event = CupEvent(
            cup=c,
            tournament=t,
            name=t.name,
            held_on=_held_on(t),
            kind=CupEvent.Kind.TOURNAMENT,
            status=CupEvent.Status.PROPOSED,
            is_final=is_final,
            added_by=user,
        )
        if cup_permissions.may_accept(user, event):
            event.status = CupEvent.Status.ACCEPTED
            event.decided_by = user
            event.decided_at = timezone.now()
        event.save()
        _log(
            c,
            user,
            "event_add",
            event=event.pk,
            tournament=t.pk,
            status=event.status,
            is_final=is_final,
        )
        if event.status == CupEvent.Status.ACCEPTED:
            request_cup_standings(c.pk)
        else:
            _tell_proposal(c, t, event, user)
    return event


def _proposal_key(event: CupEvent) -> str:
    return f"cup-event:{event.pk}"


def _tell_proposal(cup: Cup, t: Tournament, event: CupEvent, proposer: User) -> None:
    """Tell the tournament's directors (``Tournament.directors``, not the proposer) that the
    cup proposes it: one of them decides (``clubs.outbox``, once per proposal). Its club's
    owners and admins may decide too, but are not told of every tournament of their club."""
    directors = t.directors.filter(is_active=True).exclude(pk=proposer.pk)
    outbox.notify(
        directors.values_list("pk", flat=True),
        "cup_proposal",
        _proposal_key(event),
        payload={
            "path": f"/api/v1/cups/{cup.pk}/events/{event.pk}/",
            "cup_id": cup.pk,
            "event_id": event.pk,
            "tournament_id": t.pk,
        },
        context={"cup": cup.name, "tournament": t.name},
    )


def _decide(user: User, event: CupEvent, to: str, allowed: tuple[str, ...]) -> CupEvent:
    with transaction.atomic():
        c, e = _event_of(event)
        if not cup_permissions.may_accept(user, e):
            if not cup_permissions.can_see_cup(user, c) and not (
                e.tournament is not None and can_see(user, e.tournament)
            ):
                raise CupNotFound(_("There is no such event."))
            raise NotAllowed(
                _("Only the tournament's directors decide whether it counts in a cup.")
            )
        _require_status(c, OPEN, "decide")
        if e.status not in allowed:
            raise CupConflict(
                _("The event is {status} already.").format(status=CupEvent.Status(e.status).label),
                code="wrong_state",
            )
        if to == CupEvent.Status.ACCEPTED:
            assert e.tournament is not None
            _counted(c, e.tournament)
        before = e.status
        e.status = to
        e.decided_by = user
        e.decided_at = timezone.now()
        e.save(update_fields=["status", "decided_by", "decided_at"])
        _log(c, user, f"event_{'accept' if to == 'accepted' else 'decline'}", event=e.pk)
        outbox.withdraw("cup_proposal", _proposal_key(e))  # decided: the others need not hear
        if CupEvent.Status.ACCEPTED in (before, to):
            request_cup_standings(c.pk)
    return e


def event_accept(*, user: User, event: CupEvent) -> CupEvent:
    """A director of the proposed tournament agrees that it counts in the cup (also after
    declining)."""
    return _decide(
        user, event, CupEvent.Status.ACCEPTED, (CupEvent.Status.PROPOSED, CupEvent.Status.DECLINED)
    )


def event_decline(*, user: User, event: CupEvent) -> CupEvent:
    """A director of the tournament declines (or withdraws) it: it does not count."""
    return _decide(
        user, event, CupEvent.Status.DECLINED, (CupEvent.Status.PROPOSED, CupEvent.Status.ACCEPTED)
    )


def _rows(data: dict[str, Any] | str | bytes, format: str) -> tuple[cups_import.Row, ...]:
    if format not in FORMATS:
        raise InvalidInput.about(
            "format", _("format is one of {formats}.").format(formats=", ".join(FORMATS))
        )
    try:
        return cups_import.parse(data, format)
    except cups_import.ImportRefused as e:
        field = _join("data", e.path) if format == "json" else "data"
        raise InvalidInput.about(field, import_text(e), code=e.code) from None


def _digest(data: dict[str, Any] | str | bytes) -> str:
    if isinstance(data, bytes):
        raw = data
    elif isinstance(data, str):
        raw = data.encode("utf-8")
    else:
        raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()


def _check_accounts(user: User, cup: Cup, rows: Iterable[cups_import.Row], format: str) -> None:
    """Every account id of the rows names an account the director may name
    (:func:`tournaments.cup_permissions.may_name`; any other id answers as one nobody uses)."""
    rows = list(rows)
    found = cup_permissions.may_name(user, cup, {row.user for row in rows if row.user})
    for row in rows:
        if row.user is not None and row.user not in found:
            problem = _("there is no account {user} among the people you play with").format(
                user=row.user
            )
            raise InvalidInput.about(
                _row_field(row, format, "user"),
                _row_at(row, format, problem),
                code="unknown_account",
            )


def _field_size(value: Any, rows: int) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < rows:
        raise InvalidInput.about(
            "field_size",
            _(
                "field_size is the number of players in the field: at least the {rows} results "
                "given."
            ).format(rows=rows),
        )
    return value


def event_import(
    *,
    user: User,
    cup: Cup,
    name: str,
    held_on: dt.date,
    data: dict[str, Any] | str,
    format: str,
    field_size: int | None = None,
    is_final: bool = False,
) -> CupEvent:
    """Import a tournament run elsewhere with its results (``format`` ``"csv"`` or
    ``"json"``, :mod:`tournaments.cups_import`): each result's player is the account's cup
    player where it names an account (created if new), else the guest of that name (trimmed,
    case-insensitive), else a new guest. It counts at once."""
    name = _name(name)
    if not isinstance(held_on, dt.date):
        raise InvalidInput.about("held_on", _("Give a date."))
    rows = _rows(data, format)
    size = _field_size(field_size, len(rows))
    with transaction.atomic():
        c = _lock(cup.pk)
        _require_director(user, c)
        _require_status(c, OPEN, "import")
        _check_accounts(user, c, rows, format)
        if is_final:
            _check_final_event(c)
        digest = _digest(data)
        event = CupEvent.objects.create(
            cup=c,
            name=name,
            held_on=held_on,
            kind=CupEvent.Kind.IMPORTED,
            status=CupEvent.Status.ACCEPTED,
            is_final=is_final,
            field_size=size,
            source={"format": format, "digest": digest, "results": len(rows)},
            added_by=user,
            decided_by=user,
            decided_at=timezone.now(),
        )
        created = _store_imported(c, event, rows, format)
        _log(
            c,
            user,
            "event_import",
            event=event.pk,
            name=name,
            held_on=held_on,
            format=format,
            digest=digest,
            results=len(rows),
            new_players=created,
            is_final=is_final,
        )
        request_cup_standings(c.pk)
    return event


def event_replace_results(
    *, user: User, event: CupEvent, data: dict[str, Any] | str, format: str
) -> CupEvent:
    """Correct an imported event: its results are replaced by those of the document."""
    rows = _rows(data, format)
    with transaction.atomic():
        c, e = _event_of(event)
        _require_director(user, c)
        _require_status(c, OPEN, "correct")
        _check_accounts(user, c, rows, format)
        if e.kind != CupEvent.Kind.IMPORTED:
            raise CupConflict(
                _(
                    "{event} is a tournament of this server: its results come from its "
                    "standings, corrected there."
                ).format(event=e.name),
                code="not_imported",
            )
        if e.field_size is not None and e.field_size < len(rows):
            e.field_size = len(rows)
        before = dict(e.source)
        digest = _digest(data)
        e.source = {"format": format, "digest": digest, "results": len(rows)}
        e.save(update_fields=["source", "field_size"])
        CupResult.objects.filter(event=e).delete()
        created = _store_imported(c, e, rows, format)
        _log(
            c,
            user,
            "event_replace_results",
            event=e.pk,
            before=before,
            format=format,
            digest=digest,
            results=len(rows),
            new_players=created,
        )
        request_cup_standings(c.pk)
    return e


def event_remove(*, user: User, event: CupEvent) -> None:
    """Take an event out of the cup with its results (its players stay)."""
    with transaction.atomic():
        c, e = _event_of(event)
        _require_director(user, c)
        _require_status(c, OPEN, "remove_event")
        counted = e.status == CupEvent.Status.ACCEPTED
        _log(
            c,
            user,
            "event_remove",
            event=e.pk,
            name=e.name,
            tournament=e.tournament_id,
            results=e.results.count(),
        )
        outbox.withdraw("cup_proposal", _proposal_key(e))
        e.delete()
        if counted:
            request_cup_standings(c.pk)


# ---------------------------------------------------------------------------------------------
# players


class _Players:
    """The cup's players as the matching needs them: by account, and the guests by name
    (a merged guest's name leads to the player it was merged into, so a merge holds when the
    same name comes again). Creates what is missing."""

    def __init__(self, cup: Cup) -> None:
        self.cup = cup
        self.by_id: dict[int, CupPlayer] = {p.pk: p for p in CupPlayer.objects.filter(cup=cup)}
        self.by_user: dict[int, CupPlayer] = {
            p.user_id: p for p in self.by_id.values() if p.user_id is not None
        }
        self.guests: dict[str, list[CupPlayer]] = defaultdict(list)
        self.merged: dict[str, list[CupPlayer]] = defaultdict(list)
        for p in sorted(self.by_id.values(), key=lambda p: p.pk):
            if p.user_id is None:
                key = cups_import.normal_name(p.name)
                (self.guests if p.merged_into_id is None else self.merged)[key].append(p)
        self.created = 0

    def target(self, player: CupPlayer) -> CupPlayer:
        """The player a merged one stands for now."""
        seen = set()
        while player.merged_into_id is not None and player.pk not in seen:
            seen.add(player.pk)
            player = self.by_id[player.merged_into_id]
        return player

    def new(self, name: str, user_id: int | None, attributes: Mapping[str, str]) -> CupPlayer:
        player = CupPlayer.objects.create(
            cup=self.cup, user_id=user_id, name=name, attributes=dict(attributes)
        )
        self.by_id[player.pk] = player
        if user_id is not None:
            self.by_user[user_id] = player
        else:
            self.guests[cups_import.normal_name(name)].append(player)
        self.created += 1
        return player

    def for_account(self, user_id: int, name: str, attributes: Mapping[str, str]) -> CupPlayer:
        found = self.by_user.get(user_id)
        if found is None:
            return self.new(name, user_id, attributes)
        return self.target(found)

    def for_name(self, name: str, attributes: Mapping[str, str], taken: set[int]) -> CupPlayer:
        """The guest of that name not yet placed at this event (``taken``), else the player a
        guest of that name was merged into, else a new guest."""
        key = cups_import.normal_name(name)
        for p in self.guests.get(key, ()):
            if p.pk not in taken:
                return p
        for p in self.merged.get(key, ()):
            found = self.target(p)
            if found.pk not in taken:
                return found
        return self.new(name, None, attributes)

    def fill(self, player: CupPlayer, attributes: Mapping[str, str]) -> None:
        """Give the player the attributes it has no value for yet (a director's edit, or an
        earlier import, stays)."""
        missing = {k: v for k, v in attributes.items() if k not in player.attributes}
        if missing:
            player.attributes = {**player.attributes, **missing}
            player.save(update_fields=["attributes"])


def _store_imported(cup: Cup, event: CupEvent, rows: Iterable[cups_import.Row], format: str) -> int:
    """The event's results from the import's rows, each matched to a player (accounts
    first); answers how many players are new."""
    players = _Players(cup)
    taken: set[int] = set()
    results = []
    ordered = sorted(rows, key=lambda r: (r.user is None, r.line))
    for row in ordered:
        attributes = row.attribute_map
        if row.user is not None:
            player = players.for_account(row.user, row.name, attributes)
        else:
            player = players.for_name(row.name, attributes, taken)
        if player.pk in taken:
            problem = _(
                "{name} is the same player as another result of the event (merged into it)"
            ).format(name=row.name)
            raise CupConflict(_row_at(row, format, problem), code="duplicate_result")
        taken.add(player.pk)
        players.fill(player, attributes)
        results.append(
            CupResult(
                event=event,
                player=player,
                placing=row.placing,
                score=cups_import.score_text(row.score),
                rounds=row.rounds,
            )
        )
    CupResult.objects.bulk_create(results)
    return players.created


def player_update(
    *,
    user: User,
    player: CupPlayer,
    name: str | None = None,
    attributes: dict[str, str] | None = None,
    user_id: int | None = None,
) -> CupPlayer:
    """Rename a player, set its attributes (all of them: the side rankings read them) or
    link a guest to its person's account (``user_id``; another player of the cup with that
    account: merge them instead)."""
    new_name = _name(name) if name is not None else None
    new_attributes = _attributes(attributes) if attributes is not None else None
    with transaction.atomic():
        c, p = _player_of(player)
        _require_director(user, c)
        _require_status(c, OPEN, "change_player")
        if p.merged_into_id is not None:
            raise CupConflict(
                _("The player was merged into another one: change that one."),
                code="merged",
            )
        before = {"name": p.name, "attributes": p.attributes, "user": p.user_id}
        if new_name is not None:
            p.name = new_name
        if new_attributes is not None:
            p.attributes = new_attributes
        if user_id is not None and user_id != p.user_id:
            if p.user_id is not None:
                raise CupConflict(_("The player is an account already."), code="account_taken")
            if user_id not in cup_permissions.may_name(user, c, [user_id]):
                raise InvalidInput.about("user_id", str(NO_ACCOUNT))
            if CupPlayer.objects.filter(cup=c, user_id=user_id).exists():
                raise CupConflict(
                    _("Another player of the cup has that account: merge the two."),
                    code="account_taken",
                )
            p.user_id = user_id
        p.save(update_fields=["name", "attributes", "user"])
        after = {"name": p.name, "attributes": p.attributes, "user": p.user_id}
        _log(c, user, "player_update", player=p.pk, before=before, after=after)
        if before != after:
            request_cup_standings(c.pk)
    return p


def player_merge(*, user: User, player: CupPlayer, into: CupPlayer) -> CupPlayer:
    """Merge the duplicate ``player`` into ``into``: its results move there, and it keeps a
    pointer to it (its name then leads there when it comes again). Refused when both played
    one event, or both are accounts (two people). ``into`` takes the account, and the
    attributes it has no value for."""
    with transaction.atomic():
        c, p = _player_of(player)
        _require_director(user, c)
        _require_status(c, OPEN, "merge")
        target = CupPlayer.objects.filter(pk=into.pk, cup=c).first()
        if target is None:
            raise InvalidInput.about("into", _("There is no such player in the cup."))
        if target.pk == p.pk:
            raise InvalidInput.about("into", _("A player cannot be merged into itself."))
        if p.merged_into_id is not None or target.merged_into_id is not None:
            raise CupConflict(
                _("A merged player cannot be merged again: merge the one it stands for."),
                code="merged",
            )
        if p.user_id is not None and target.user_id is not None:
            raise CupConflict(
                _("Both players are accounts: they are two people."), code="account_taken"
            )
        both = (
            CupEvent.objects.filter(results__player=p)
            .filter(pk__in=CupResult.objects.filter(player=target).values("event_id"))
            .order_by("held_on", "pk")
            .first()
        )
        if both is not None:
            raise CupConflict(
                _("Both players have a result at {event}: they are two people.").format(
                    event=both.name
                ),
                code="duplicate_result",
            )
        moved = CupResult.objects.filter(player=p).update(player=target)
        CupStanding.objects.filter(player=p).delete()
        if p.user_id is not None:
            account = p.user_id
            p.user = None
            p.save(update_fields=["user"])
            target.user_id = account
        target.attributes = {**p.attributes, **target.attributes}
        target.save(update_fields=["user", "attributes"])
        p.merged_into = target
        p.save(update_fields=["merged_into"])
        _log(c, user, "player_merge", player=p.pk, into=target.pk, results=moved)
        request_cup_standings(c.pk)
    return target


# ---------------------------------------------------------------------------------------------
# standings


def request_cup_standings(cup_id: int) -> None:
    """Ask the worker for new standings (coalesced like a tournament's:
    :func:`cup_recompute`)."""
    from tournaments.tasks import recompute_cup

    Cup.objects.filter(pk=cup_id).update(requested_version=F("requested_version") + 1)
    version = int(Cup.objects.filter(pk=cup_id).values_list("requested_version", flat=True)[0])
    send_after_commit(recompute_cup, cup_id, version, countdown=settings.STANDINGS_COALESCE_SECONDS)


def tournament_standings_changed(tournament_id: int) -> None:
    """A tournament's standings were stored: every cup that counts it (accepted, not
    finished) asks for new standings where they matter, that is when the tournament has
    finished, or the cup holds its results still (it was reopened)."""
    events = CupEvent.objects.filter(
        tournament_id=tournament_id, status=CupEvent.Status.ACCEPTED
    ).exclude(cup__status=Cup.Status.FINISHED)
    if not events.exists():  # most tournaments count in no cup: one query
        return
    finished = Tournament.objects.filter(
        pk=tournament_id, status=Tournament.Status.FINISHED
    ).exists()
    if not finished:
        events = events.filter(results__isnull=False)
    for cup_id in sorted(set(events.values_list("cup_id", flat=True))):
        request_cup_standings(cup_id)


def cup_recompute(*, cup_id: int, version: int | None = None) -> bool:
    """Refresh the copied results and store new standings if the task for ``version`` should
    (``clubs.services.seasons.should_compute``; None: always). Answers whether it computed;
    safe to run twice."""
    with transaction.atomic():
        cup = Cup.objects.select_for_update().filter(pk=cup_id).first()
        if cup is None:
            return False
        if version is not None and not should_compute(
            version, cup.requested_version, cup.computed_version
        ):
            return False
        _compute(cup, cup.requested_version)
    return True


def _compute(cup: Cup, target: int) -> None:
    """Under the cup's lock: copy, compute, store, and tell the webhooks."""
    refresh_tournament_results(cup)
    store_standings(cup)
    cup.computed_version = target
    cup.computed_at = timezone.now()
    cup.computations += 1
    cup.save(update_fields=["computed_version", "computed_at", "computations", "changed_at"])
    _emit(
        cup.pk,
        "cup_standings_changed",
        {"version": target, "computed_at": cup.computed_at.isoformat()},
    )


def _emit(cup_id: int, event: str, data: dict[str, Any]) -> None:
    """Tell the cup's webhooks (sent after the commit)."""
    from tournaments import webhooks

    webhooks.emit_cup(cup_id=cup_id, event=event, data=data)


def refresh_tournament_results(cup: Cup) -> None:
    """The results of the cup's accepted tournaments of this server: a finished one's are its
    stored standings (rank → placing, points → score, rounds), each row matched to the cup
    player of its account (created where new, named as in the standings) or, for an entry
    known by name only, the guest of that name; an unfinished one (reopened) has none. Rows
    are written only where something changed."""
    events = list(
        CupEvent.objects.filter(
            cup=cup, kind=CupEvent.Kind.TOURNAMENT, status=CupEvent.Status.ACCEPTED
        ).select_related("tournament")
    )
    if not events:
        return
    stored: dict[int, dict[int, tuple[int, str, int]]] = defaultdict(dict)
    for event_id, player_id, placing, score, rounds in CupResult.objects.filter(
        event__in=events
    ).values_list("event_id", "player_id", "placing", "score", "rounds"):
        stored[event_id][player_id] = (placing, score, rounds)
    finished = [
        e for e in events if e.tournament and e.tournament.status == Tournament.Status.FINISHED
    ]
    gone = [e.pk for e in events if e not in finished and stored.get(e.pk)]
    if gone:
        CupResult.objects.filter(event_id__in=gone).delete()
    if not finished:
        return
    by_tournament: dict[int, list[tuple[int | None, str, int, str, int]]] = defaultdict(list)
    for row in (
        StandingRow.objects.filter(tournament_id__in=[e.tournament_id for e in finished])
        .order_by("tournament_id", "position")
        .values_list("tournament_id", "user_id", "name", "rank", "points", "rounds")
    ):
        by_tournament[row[0]].append(row[1:])
    players = _Players(cup)
    for event in finished:
        assert event.tournament is not None
        rows = by_tournament.get(event.tournament.pk, [])
        wanted: dict[int, tuple[int, str, int]] = {}
        # accounts first: a guest's name never takes an account's place
        for user_id, name, rank, points, rounds in sorted(rows, key=lambda r: r[0] is None):
            if user_id is not None:
                player = players.for_account(user_id, name, {})
            else:
                player = players.for_name(name, {}, set(wanted))
            if player.pk in wanted:  # never two results of one player at an event
                player = players.new(name, None, {})
            wanted[player.pk] = (rank, points, rounds)
        held_on = _held_on(event.tournament)
        if held_on != event.held_on:
            event.held_on = held_on
            event.save(update_fields=["held_on"])
        if wanted == stored.get(event.pk, {}):
            continue
        CupResult.objects.filter(event=event).delete()
        CupResult.objects.bulk_create(
            CupResult(event=event, player_id=pk, placing=p, score=s, rounds=r)
            for pk, (p, s, r) in wanted.items()
        )


@dataclass(frozen=True)
class Inputs:
    """What the core reads of a cup."""

    events: list[cups.Event]
    results: list[cups.Result]
    players: list[cups.Player]


def inputs(cup: Cup) -> Inputs:
    """The cup's accepted events, their results and the players with a result, as the
    core's values (an event's field size: the one given, else its number of results)."""
    events = list(
        CupEvent.objects.filter(cup=cup, status=CupEvent.Status.ACCEPTED).values_list(
            "pk", "held_on", "field_size", "is_final"
        )
    )
    results = list(
        CupResult.objects.filter(event__cup=cup, event__status=CupEvent.Status.ACCEPTED)
        .order_by("event_id", "placing", "player_id")
        .values_list("event_id", "player_id", "placing", "score", "rounds")
    )
    counts: dict[int, int] = defaultdict(int)
    for event_id, *_rest in results:
        counts[event_id] += 1
    played = {player_id for _e, player_id, *_rest in results}
    players = [
        cups.Player(id=pk, name=name, attributes=dict(attributes or {}))
        for pk, name, attributes in CupPlayer.objects.filter(pk__in=played).values_list(
            "pk", "name", "attributes"
        )
    ]
    return Inputs(
        events=[
            cups.Event(
                id=pk,
                held_on=held_on,
                field_size=size if size is not None else counts[pk],
                is_final=is_final,
            )
            for pk, held_on, size, is_final in events
        ],
        results=[
            cups.Result(
                event=event_id,
                player=player_id,
                placing=placing,
                score=Fraction(score) if score else None,
                rounds=rounds,
            )
            for event_id, player_id, placing, score, rounds in results
        ],
        players=players,
    )


def _standing(
    cup: Cup,
    ranking: str,
    row: cups.Row,
    *,
    qualified: bool,
    history: list[tuple[int, int | None]] | None = None,
    details: bool = True,
) -> CupStanding:
    return CupStanding(
        cup=cup,
        player_id=row.player,
        ranking=ranking,
        position=row.position,
        rank=row.rank,
        points=cups.points_text(row.points),
        counted=row.counted,
        played=row.played,
        rounds=row.rounds,
        average="" if row.average is None else cups.points_text(row.average),
        ranked=row.ranked,
        qualified=qualified,
        details=[detail.to_json() for detail in row.details] if details else [],
        history=[[event, rank] for event, rank in history or ()],
    )


def store_standings(cup: Cup) -> None:
    """Run the core over the cup's results and replace its stored rows: the overall
    ranking with each player's rank over time, the side rankings and the final's table."""
    policy = cups.parse_policy(cup.policy)
    final = cups.parse_final(cup.final) if cup.final is not None else None
    given = inputs(cup)
    table = cups.standings(policy, given.events, given.results, given.players)
    history = cups.rank_history(policy, given.events, given.results, given.players)
    qualified = set(cups.qualified(final, table)) if final is not None else set()
    rows = [
        _standing(cup, "", row, qualified=row.player in qualified, history=history.get(row.player))
        for row in table.overall
    ]
    for ranking, side in table.side.items():  # a player's details are their overall row's
        rows.extend(
            _standing(cup, ranking, row, qualified=row.player in qualified, details=False)
            for row in side
        )
    if final is not None:
        final_rows = cups.final_standings(final, table, given.events, given.results)
        rows.extend(
            _standing(cup, FINAL, row, qualified=row.player in qualified) for row in final_rows
        )
        finals = {e.id for e in given.events if e.is_final}
        played = any(r.event in finals for r in given.results)
        # told once the final is on the calendar (an accepted final event) and not yet played:
        # before that, "qualified" is only how the standings stand after some events
        if cup.status == Cup.Status.RUNNING and finals and not played:
            _tell_qualified(cup, table, final_rows, qualified)
    CupStanding.objects.filter(cup=cup).delete()
    _insert(rows)


def _insert(rows: list[CupStanding]) -> None:
    """Write the new rows: on PostgreSQL by ``COPY`` (3,000 rows with their details and
    histories in 40 ms where ``bulk_create`` took 320 ms, ``bench/cups_bench.py``: psycopg
    quotes each JSON value into an array for Django's ``UNNEST`` insert), elsewhere (the
    embedded SQLite) by ``bulk_create``."""
    if connection.vendor != "postgresql":
        CupStanding.objects.bulk_create(rows, batch_size=1000)
        return
    fields = [f for f in CupStanding._meta.concrete_fields if not f.primary_key]
    json_fields = {f.attname for f in fields if isinstance(f, models.JSONField)}
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    table = connection.ops.quote_name(CupStanding._meta.db_table)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(
                [
                    json.dumps(getattr(row, f.attname))
                    if f.attname in json_fields
                    else getattr(row, f.attname)
                    for f in fields
                ]
            )


def _tell_qualified(
    cup: Cup, table: cups.Standings, final_rows: Iterable[cups.Row], qualified: set[int]
) -> None:
    """Tell each player with an account who qualifies for the final now their cup rank and
    the points they carry in: once per cup (``clubs.outbox``, about ``cup:<id>``; a player
    told before is not told again). Only while the cup runs and its final event is accepted
    and still to be played; an unsent notice of a player no longer qualified is withdrawn."""
    key = f"cup:{cup.pk}"
    accounts = dict(
        CupPlayer.objects.filter(cup=cup, user__isnull=False).values_list("pk", "user_id")
    )
    now = {accounts[p]: p for p in qualified if p in accounts}
    told = outbox.told("cup_qualified", key)
    gone = told - set(now)
    if gone:
        outbox.withdraw("cup_qualified", key, users=gone)
    new = sorted(set(now) - told)
    if not new:
        return
    ranks = {row.player: row.rank for row in table.overall}
    carried = {
        row.player: row.details[0].points
        for row in final_rows
        if row.details and row.details[0].status == "carried"
    }
    outbox.notify(
        new,
        "cup_qualified",
        key,
        payload={"path": f"/api/v1/cups/{cup.pk}/final/", "cup_id": cup.pk},
        context={"cup": cup.name},
        contexts={
            user_id: {
                "rank": ranks[now[user_id]],
                "carried": int(carried.get(now[user_id], Fraction(0))),
            }
            for user_id in new
        },
    )


__all__ = [
    "cup_create",
    "cup_delete",
    "cup_director_add",
    "cup_director_remove",
    "cup_finish",
    "cup_open",
    "cup_recompute",
    "cup_reopen",
    "cup_update",
    "event_accept",
    "event_add_tournament",
    "event_decline",
    "event_import",
    "event_remove",
    "event_replace_results",
    "player_merge",
    "player_update",
    "request_cup_standings",
    "tournament_standings_changed",
]
