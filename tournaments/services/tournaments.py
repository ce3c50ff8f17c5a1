"""Tournaments, their format and lifecycle, directors and entries.

Lifecycle (every step a command, checked, audited in :class:`~tournaments.models.LogEntry`
and refused with a sentence when out of order)::

    draft → registration → check_in → running (rounds: seating → seated → playing → closed)
          → finished → (reopened) running

Entries: a signed-in user registers while registration is open and before the entry deadline;
past the capacity they wait on the waitlist (first come, first served) and move up when a
place frees. Entrants (or directors for them) check in during check-in or between rounds.
Directors add entries at any time before the end, by user or by name (a substitute), and
between rounds as late entries (they play from the next round); players withdraw, or are
withdrawn, before the first round or between rounds.
"""

from __future__ import annotations

import datetime as dt
import math
import secrets
from collections.abc import Sequence
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from clubs import outbox
from clubs.models import Club, User
from clubs.models.people import default_rules
from config.i18n import engine_text, label
from config.slugs import slug_of
from games import clock
from games import services as games
from games.rulesets import parse_offered_rules, rule_set_for
from tournaments import live, permissions, scoring
from tournaments.errors import InvalidInput, NotAllowed, TournamentConflict, TournamentNotFound
from tournaments.models import Entry, Invitation, LogEntry, Tournament
from tournaments.permissions import is_director
from tournaments.services import common
from tournaments.services.common import (
    listing,
    local_time,
    lock,
    log,
    require_director,
    require_status,
)
from tournaments.services.standings import request_standings

FORMAT_FIELDS = (
    "rules",
    "real_money",
    "rounds_planned",
    "deals_per_round",
    "seating",
    "scoring",
    "results",
    "tiebreaks",
    "lots_seed",
)
"""Fields fixed once the first round is seated."""
ROUND_FIELDS = ("time_control", "round_minutes", "round_clock_tricks")
"""Fields a round takes when it is seated: they change at any time, and each round keeps what
it was seated with (its games tables hold it)."""
INFO_FIELDS = (
    "name",
    "description",
    "venue",
    "timezone",
    "starts_on",
    "ends_on",
    "is_public",
    "capacity",
    "entry_deadline",
    "prizes",
)
MAX_ROUNDS = 50
MAX_DEALS = 96
MAX_ROUND_MINUTES = 30 * 24 * 60
"""A round's clock runs at most 30 days (a club's turn-based tournament through the month)."""
MAX_CLOCK_TRICKS = 10
"""The most tricks a director may let a round's clock end by double dummy. Only a bound on the
setting: each hand's own tricks left are its rule set's (``engine.solver.playout.tricks_left``),
and a hand with more left than the setting waits for an adjusted score."""
BEFORE_ROUNDS = (
    Tournament.Status.DRAFT,
    Tournament.Status.REGISTRATION,
    Tournament.Status.CHECK_IN,
)


def _checked(values: dict[str, Any]) -> dict[str, Any]:
    """Validate the fields given (sentences naming the field); rules come back normalised."""
    out = dict(values)
    if "rules" in out:
        try:
            out["rules"] = parse_offered_rules(out["rules"] or {}).to_json()
        except engine.EngineError as e:
            reason = engine_text(e)
            raise InvalidInput.about(
                "rules", _("The rules are not valid: {reason}").format(reason=reason)
            ) from None
        except (TypeError, ValueError) as e:
            reason = str(e)
            raise InvalidInput.about(
                "rules", _("The rules are not valid: {reason}").format(reason=reason)
            ) from None
    if "rounds_planned" in out and not 1 <= out["rounds_planned"] <= MAX_ROUNDS:
        raise InvalidInput.about(
            "rounds_planned",
            _("A tournament has 1 to {most} rounds.").format(most=MAX_ROUNDS),
        )
    if "deals_per_round" in out and not 1 <= out["deals_per_round"] <= MAX_DEALS:
        raise InvalidInput.about(
            "deals_per_round",
            _("A round has 1 to {most} deals at each table.").format(most=MAX_DEALS),
        )
    if "tiebreaks" in out:
        names = out["tiebreaks"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise InvalidInput.about("tiebreaks", _("tiebreaks is a list of names."))
        unknown = [n for n in names if n not in scoring.TIEBREAKS]
        if unknown or len(set(names)) != len(names):
            raise InvalidInput.about(
                "tiebreaks",
                _("Choose each tiebreak at most once from {names}.").format(
                    names=", ".join(scoring.TIEBREAKS)
                ),
            )
    if "prizes" in out:
        prizes = out["prizes"]
        if not isinstance(prizes, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in prizes
        ):
            raise InvalidInput.about(
                "prizes", _("prizes lists whole non-negative amounts in minor units.")
            )
    if "timezone" in out:
        try:
            ZoneInfo(out["timezone"])
        except (ZoneInfoNotFoundError, ValueError):
            zone = repr(out["timezone"])
            raise InvalidInput.about(
                "timezone", _("Unknown time zone {zone}.").format(zone=zone)
            ) from None
    if out.get("capacity") is not None and out["capacity"] < 3:
        raise InvalidInput.about("capacity", _("A tournament seats at least 3 players."))
    if out.get("time_control") is not None:
        out["time_control"] = _time_control(out["time_control"])
    minutes = out.get("round_minutes")
    if minutes is not None and not (isinstance(minutes, int) and 1 <= minutes <= MAX_ROUND_MINUTES):
        raise InvalidInput.about(
            "round_minutes",
            _("A round's clock runs 1 to {most} minutes (30 days).").format(most=MAX_ROUND_MINUTES),
        )
    tricks = out.get("round_clock_tricks", 0)
    if not (isinstance(tricks, int) and 0 <= tricks <= MAX_CLOCK_TRICKS):
        raise InvalidInput.about(
            "round_clock_tricks",
            _("round_clock_tricks is 0 to {most} tricks.").format(most=MAX_CLOCK_TRICKS),
        )
    return out


def _time_control(value: Any) -> dict[str, Any]:
    """A time control as the games tables store it (:class:`games.clock.TimeControl`; the API
    checked its fields with ``games.api.serializers.TimeControlSerializer``)."""
    try:
        control = clock.TimeControl.from_json(value)
    except (KeyError, TypeError, ValueError, AttributeError):
        control = None
    if control is None or control.kind not in clock.KINDS:
        raise InvalidInput.about(
            "time_control",
            _("A time control is live or turn-based, with its seconds for each action."),
        )
    return control.to_json()


def _check_deal_cycle(rule_set: engine.RuleSet[Any, Any, Any], deals: int) -> None:
    """Each seat deals equally often: ``deals`` must be a multiple of the deal cycle
    (``RuleSet.deal_cycle``) of at least one size of table the rule set seats. Which tables a
    round needs is known only when it is seated (``rounds.check_deals`` names them then)."""
    cycles = {size: rule_set.deal_cycle(size) for size in rule_set.table.seats}
    if any(deals % cycle == 0 for cycle in cycles.values()):
        return
    each = listing(
        (_("{cycle} (for a table of {seats})").format(cycle=c, seats=s) for s, c in cycles.items()),
        "or",
    )
    if len(cycles) > 1:
        message = _(
            "Each seat deals equally often: give a multiple of {each} deals per round, a "
            "multiple of {common} where any of them may be needed; {deals} suits no table of "
            "{rule_set}."
        ).format(each=each, common=math.lcm(*cycles.values()), deals=deals, rule_set=rule_set.name)
    else:
        message = _(
            "Each seat deals equally often: give a multiple of {each} deals per round; "
            "{deals} suits no table of {rule_set}."
        ).format(each=each, deals=deals, rule_set=rule_set.name)
    raise InvalidInput.about("deals_per_round", message)


def _unit(rule_set: engine.RuleSet[Any, Any, Any]) -> str:
    """The rule set's score unit as a reader's word (its label ``unit:<unit>`` where it has
    one)."""
    unit = rule_set.score_unit or ""
    return label(rule_set, f"unit:{unit}", unit)


def _check_time_control(t: Tournament, rule_set: engine.RuleSet[Any, Any, Any]) -> None:
    """Only hosted tables run a clock, and only hosted rounds a round clock; the bot that
    plays for a person whose time ran out is one of the rule set's levels."""
    if t.round_minutes is not None and t.results != Tournament.Results.HOSTED:
        raise InvalidInput.about(
            "round_minutes",
            _(
                "A round's clock ends the hands still being played at hosted tables, and this "
                "tournament's results are {results}: set results to hosted, or give no "
                "round_minutes."
            ).format(results=t.results),
        )
    if t.time_control is None:
        return
    if t.results != Tournament.Results.HOSTED:
        raise InvalidInput.about(
            "time_control",
            _(
                "Only hosted tables run a clock, and this tournament's results are {results}: "
                "set results to hosted, or give no time control."
            ).format(results=t.results),
        )
    level = t.time_control.get("bot_level")
    levels = games.bot_levels(rule_set)
    if level is not None and level not in levels:
        raise InvalidInput.about(
            "time_control",
            _("{rule_set} has bots of level {levels}.").format(
                rule_set=rule_set.name, levels=listing(levels, "or")
            ),
        )


def _check_combination(t: Tournament) -> None:
    if t.scoring == Tournament.Scoring.DUPLICATE and t.results == Tournament.Results.TOTALS:
        raise InvalidInput.about(
            "results",
            _(
                "Duplicate scoring compares every board, so tables play hosted hands or record "
                "them; table totals are not enough."
            ),
        )
    rule_set = rule_set_for(t.rules)
    if rule_set.round_deals is not None and t.deals_per_round != rule_set.round_deals:
        raise InvalidInput.about(
            "deals_per_round",
            _(
                "A round of {rule_set} counts {deals} deals at each table: set deals_per_round "
                "to {deals}."
            ).format(rule_set=rule_set.name, deals=rule_set.round_deals),
        )
    if rule_set.round_deals is None:
        _check_deal_cycle(rule_set, t.deals_per_round)
    if rule_set.score_unit is not None and t.scoring == Tournament.Scoring.DUPLICATE:
        raise InvalidInput.about(
            "scoring",
            _(
                "Duplicate scoring compares each deal's result, but {rule_set} scores a "
                "table's deals together ({unit}, once its sheet is settled): choose balance or "
                "table_rank."
            ).format(rule_set=rule_set.name, unit=_unit(rule_set)),
        )
    if rule_set.unlike_deals is not None and t.scoring == Tournament.Scoring.DUPLICATE:
        why = label(rule_set, "clause:unlike_deals", rule_set.unlike_deals)
        raise InvalidInput.about(
            "scoring",
            _(
                "Duplicate scoring compares each deal's result with the same seat's at the "
                "other tables, but {why}: choose balance or table_rank."
            ).format(why=why),
        )
    price = rule_set.point_price
    if (
        rule_set.score_unit is not None
        and not rule_set.deal_scores
        and t.real_money
        and (price is None or t.rules.get(price) is None)
    ):
        if price:
            message = _(
                "Playing {rule_set} for money needs a price for its {unit} in the rules "
                "(rules.{price}, in minor units per one of its {unit})."
            ).format(rule_set=rule_set.name, unit=_unit(rule_set), price=price)
        else:
            message = _(
                "Playing {rule_set} for money needs a price for its {unit} in the rules (its "
                "rules have none: play for points)."
            ).format(rule_set=rule_set.name, unit=_unit(rule_set))
        raise InvalidInput.about("real_money", message)
    if t.starts_on and t.ends_on and t.ends_on < t.starts_on:
        raise InvalidInput.about("ends_on", _("A tournament ends on or after the day it starts."))
    _check_time_control(t, rule_set)


def _free_slug(wanted: str, *, given: bool = False, exclude: int | None = None) -> str:
    """A slug no other tournament has: the one ``given`` (else made from the name ``wanted``),
    or, when another tournament has it, the next with a suffix (``herbstturnier-2``). A
    draft's or a private tournament's slug answers as a listed one's, naming none of them
    (``docs/security.md``)."""
    others = (
        Tournament.objects.exclude(pk=exclude) if exclude is not None else Tournament.objects.all()
    )
    if given and not others.filter(slug=wanted).exists():
        return wanted
    base = (wanted if given else slug_of(wanted))[:70].strip("-") or "tournament"
    slug, n = base, 1
    while others.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def tournament_create(
    *, user: User, name: str, club_id: int | None = None, slug: str = "", **values: Any
) -> Tournament:
    """Create a draft tournament; its creator directs it. A club's tournament is created by
    that club's owners and admins."""
    unknown = set(values) - set(FORMAT_FIELDS) - set(ROUND_FIELDS) - set(INFO_FIELDS)
    if unknown:
        raise InvalidInput(_("Unknown fields: {names}.").format(names=", ".join(sorted(unknown))))
    values = _checked({"rules": values.pop("rules", None) or default_rules(), **values})
    if club_id is not None:
        club = Club.objects.filter(pk=club_id).first()
        # a private club does not exist for outsiders: 400, as an id nobody uses
        if club is None or not permissions.may_see_club(user, club):
            raise InvalidInput.about("club", _("There is no such club."))
        if not permissions.may_organise_for(user, club):
            raise NotAllowed(_("Only the club's owners and admins organise its tournaments."))
    if "lots_seed" not in values:
        values["lots_seed"] = secrets.randbits(62)
    with transaction.atomic():
        tournament = Tournament(
            name=name,
            club_id=club_id,
            slug=_free_slug(slug, given=True) if slug else _free_slug(name),
            created_by=user,
            **values,
        )
        _check_combination(tournament)
        tournament.save()
        tournament.directors.add(user)
        log(tournament, user, "tournament_create", after=_snapshot(tournament))
    return tournament


def _snapshot(t: Tournament) -> dict[str, Any]:
    """The tournament's settings for the log; the lots seed as its commitment only (the log
    is read while the tournament runs, and nobody may know the draw in advance)."""
    out: dict[str, Any] = {}
    for name in (*FORMAT_FIELDS, *ROUND_FIELDS, *INFO_FIELDS, "status"):
        value = getattr(t, name)
        out[name] = value.isoformat() if isinstance(value, dt.date | dt.datetime) else value
    out["lots_commitment"] = scoring.lots_commitment(out.pop("lots_seed"))
    return out


def tournament_update(*, user: User, tournament: Tournament, **changes: Any) -> Tournament:
    """Change the tournament's details; its format only before the first round; what a round
    takes when it is seated (:data:`ROUND_FIELDS`) at any time, for the rounds seated after."""
    unknown = set(changes) - set(FORMAT_FIELDS) - set(ROUND_FIELDS) - set(INFO_FIELDS) - {"slug"}
    if unknown:
        raise InvalidInput(_("Cannot change {names}.").format(names=", ".join(sorted(unknown))))
    changes = _checked(changes)
    with transaction.atomic():
        t = lock(tournament.pk)
        require_director(user, t)
        fixed = sorted(set(changes) & set(FORMAT_FIELDS))
        if fixed and (t.status not in BEFORE_ROUNDS or t.rounds.exists()):
            raise TournamentConflict(
                _("The format ({names}) is fixed once the first round is seated.").format(
                    names=", ".join(fixed)
                ),
                code="format_fixed",
            )
        if changes.get("slug"):
            changes["slug"] = _free_slug(changes["slug"], given=True, exclude=t.pk)
        before = _snapshot(t)
        for name, value in changes.items():
            setattr(t, name, value)
        _check_combination(t)
        t.save()
        log(t, user, "tournament_update", before=before, after=_snapshot(t))
        if "capacity" in changes:
            _fill_from_waitlist(t, user)
        if "prizes" in changes or "tiebreaks" in changes:
            request_standings(t.pk)
    return t


def tournament_delete(*, user: User, tournament: Tournament) -> None:
    """Delete a draft (anything later keeps its record: finish it instead)."""
    with transaction.atomic():
        t = lock(tournament.pk)
        require_director(user, t)
        require_status(t, [Tournament.Status.DRAFT], "delete")
        t.delete()


# ---------------------------------------------------------------------------------------------
# lifecycle


def tournament_open_registration(*, user: User, tournament: Tournament) -> Tournament:
    """draft → registration: players may enter."""
    return _move(
        user,
        tournament,
        [Tournament.Status.DRAFT],
        Tournament.Status.REGISTRATION,
        "open_registration",
    )


def tournament_open_check_in(*, user: User, tournament: Tournament) -> Tournament:
    """registration → check_in: entries close (directors still add), players check in."""
    return _move(
        user,
        tournament,
        [Tournament.Status.REGISTRATION],
        Tournament.Status.CHECK_IN,
        "open_check_in",
    )


def tournament_finish(*, user: User, tournament: Tournament) -> Tournament:
    """running → finished, when every round played is closed: final standings and prizes."""
    from tournaments import webhooks

    with transaction.atomic():
        t = lock(tournament.pk)
        require_director(user, t)
        require_status(t, [Tournament.Status.RUNNING], "finish")
        if common.open_round(t) is not None:
            raise TournamentConflict(
                _("Close the round being played before finishing the tournament."),
                code="round_open",
            )
        t.status = Tournament.Status.FINISHED
        t.save(update_fields=["status", "changed_at"])
        log(t, user, "tournament_finish", rounds=common.last_closed(t))
        request_standings(t.pk)
        webhooks.emit(
            tournament_id=t.pk,
            event="tournament_finished",
            data={"rounds": common.last_closed(t)},
        )
        live.tournament_changed(t.pk, "tournament_finished")
    return t


def tournament_reopen(*, user: User, tournament: Tournament, reason: str = "") -> Tournament:
    """finished → running (a correction after the end): audited with the reason."""
    return _move(
        user,
        tournament,
        [Tournament.Status.FINISHED],
        Tournament.Status.RUNNING,
        "reopen",
        reason=reason,
    )


def _move(
    user: User, tournament: Tournament, allowed: Sequence[str], to: str, doing: str, **detail: Any
) -> Tournament:
    with transaction.atomic():
        t = lock(tournament.pk)
        require_director(user, t)
        require_status(t, allowed, doing)
        before = t.status
        t.status = to
        t.save(update_fields=["status", "changed_at"])
        log(t, user, f"status_{to}", before=before, after=to, **detail)
        if before == Tournament.Status.FINISHED:
            request_standings(t.pk)
    return t


def director_add(*, user: User, tournament: Tournament, director_id: int) -> bool:
    """Make the account ``director_id`` a director: at once when the director may add them
    directly (``permissions.may_add_directly``), else they are invited and decide
    (:func:`invitation_accept`). True when added; False when invited, or when no active
    account has that id, which the caller is not told apart (``docs/security.md``)."""
    with transaction.atomic():
        t = lock(tournament.pk)
        require_director(user, t)
        person = _person(director_id)
        if person is not None and (
            t.directors.filter(pk=person.pk).exists()
            or permissions.may_add_directly(user, person, t)
        ):
            t.directors.add(person)
            log(t, user, "director_add", director=person.pk)
            return True
        if person is not None:
            _invite(t, user, person, Invitation.Role.DIRECTOR)
    return False


def _person(user_id: int) -> User | None:
    return User.objects.filter(pk=user_id, is_active=True).first()


def _invite(
    t: Tournament, user: User, person: User, role: str, *, checked_in: bool = True
) -> Invitation:
    """The open invitation of ``person`` to ``t`` as ``role`` (made once: asking again
    changes nothing). Not in the log, which directors read: it would tell them that the
    account exists before its owner said anything."""
    invitation, created = Invitation.objects.get_or_create(
        tournament=t,
        user=person,
        role=role,
        status=Invitation.Status.INVITED,
        defaults={"invited_by": user, "checked_in": checked_in},
    )
    if created:
        outbox.notify(
            [person.pk],
            "invited",
            f"tournament-invitation:{invitation.pk}",
            payload={"path": "/api/v1/me/tournament-invitations/", "tournament_id": t.pk},
            context={"inviter": user.display_name or user.username, "where": t.name},
        )
    return invitation


def director_remove(*, user: User, tournament: Tournament, director_id: int) -> None:
    """Remove the director ``director_id``; 404 for anyone who does not direct the tournament
    (as for an id nobody uses). The last director stays (409 ``last_director``)."""
    with transaction.atomic():
        t = lock(tournament.pk)
        require_director(user, t)
        director = t.directors.filter(pk=director_id).first()
        if director is None:
            raise TournamentNotFound(_("That user does not direct this tournament."))
        if t.directors.count() == 1:
            raise TournamentConflict(
                _("A tournament keeps at least one director; add another first."),
                code="last_director",
            )
        t.directors.remove(director)
        log(t, user, "director_remove", director=director.pk)


# ---------------------------------------------------------------------------------------------
# entries


def _seated_count(t: Tournament) -> int:
    return t.entries.exclude(status__in=(Entry.Status.WAITLISTED, Entry.Status.WITHDRAWN)).count()


def _fill_from_waitlist(t: Tournament, user: User | None) -> None:
    """Move waiting entries up while places are free (the tournament row is locked)."""
    if t.status not in (Tournament.Status.REGISTRATION, Tournament.Status.CHECK_IN):
        return
    free = None if t.capacity is None else t.capacity - _seated_count(t)
    waiting = t.entries.filter(status=Entry.Status.WAITLISTED).order_by("registered_at", "id")
    for entry in waiting if free is None else waiting[: max(free, 0)]:
        entry.status = Entry.Status.REGISTERED
        entry.save(update_fields=["status"])
        log(t, user, "entry_promote", entry=entry.pk, name=entry.name)
        if entry.user_id is not None:
            outbox.notify(
                [entry.user_id],
                "moved_up",
                f"tournament:{t.pk}",
                payload={"path": f"/api/v1/tournaments/{t.pk}/", "tournament_id": t.pk},
                context={"where": t.name},
            )


def entry_register(*, user: User, tournament: Tournament) -> Entry:
    """Enter yourself: registered, or waitlisted past the capacity."""
    with transaction.atomic():
        t = lock(tournament.pk)
        require_status(t, [Tournament.Status.REGISTRATION], "enter")
        if t.entry_deadline is not None and timezone.now() > t.entry_deadline:
            raise TournamentConflict(
                _("Entries closed at {deadline}; ask a director.").format(
                    deadline=local_time(t.entry_deadline, t.timezone)
                ),
                code="entries_closed",
            )
        if Entry.objects.filter(tournament=t, user=user).exists():
            raise TournamentConflict(_("You have entered this tournament already."), code="entered")
        full = t.capacity is not None and _seated_count(t) >= t.capacity
        entry = Entry.objects.create(
            tournament=t,
            user=user,
            name=user.get_full_name() or user.get_username(),
            status=Entry.Status.WAITLISTED if full else Entry.Status.REGISTERED,
        )
        log(t, user, "entry_register", entry=entry.pk, status=entry.status)
    return entry


def entry_add(
    *,
    user: User,
    tournament: Tournament,
    player_id: int | None = None,
    name: str = "",
    checked_in: bool = True,
) -> Entry | None:
    """A director enters a player: by account (``player_id``) or by name (a substitute).
    Before the rounds they are registered (checked in when asked); while running they are a
    late entry: checked in, playing from the next round (only between rounds).

    An account joins at once only when the director may add it directly
    (``permissions.may_add_directly``); anyone else is invited and enters by accepting
    (:func:`invitation_accept`). None when invited, or when no active account has that id:
    the caller is not told which (``docs/security.md``)."""
    if player_id is None and not name.strip():
        raise InvalidInput.about("name", _("Give a user or a name."))
    with transaction.atomic():
        t = lock(tournament.pk)
        require_director(user, t)
        require_status(t, [*BEFORE_ROUNDS, Tournament.Status.RUNNING], "add_entry")
        if player_id is None and t.results == Tournament.Results.HOSTED:
            raise InvalidInput.about(
                "user", _("Hosted tables are played through accounts: give a user.")
            )
        _require_between_rounds(t)
        player = None if player_id is None else _person(player_id)
        if player is not None and Entry.objects.filter(tournament=t, user=player).exists():
            raise TournamentConflict(_("That player has entered already."), code="entered")
        if player_id is not None and (
            player is None or not permissions.may_add_directly(user, player, t)
        ):
            if player is not None:
                _invite(t, user, player, Invitation.Role.ENTRANT, checked_in=checked_in)
            return None
        entry = _enter(t, player, name.strip(), checked_in=checked_in)
        log(t, user, "entry_add", entry=entry.pk, name=entry.name, first_round=entry.first_round)
    return entry


def _require_between_rounds(t: Tournament) -> None:
    """Late entries join between rounds only."""
    if t.status == Tournament.Status.RUNNING and common.open_round(t) is not None:
        raise TournamentConflict(
            _("Late entries join between rounds; close the round being played first."),
            code="round_open",
        )


def _enter(t: Tournament, player: User | None, name: str, *, checked_in: bool) -> Entry:
    """A new entry of ``t`` (locked, in a state that takes entries, between rounds): before
    the rounds registered or checked in; while running a late entry, checked in and playing
    from the next round."""
    first_round = 1
    status = Entry.Status.CHECKED_IN if checked_in else Entry.Status.REGISTERED
    if t.status == Tournament.Status.RUNNING:
        first_round = common.last_closed(t) + 1
        status = Entry.Status.CHECKED_IN
    return Entry.objects.create(
        tournament=t,
        user=player,
        name=name or (player.get_full_name() or player.get_username() if player else ""),
        status=status,
        first_round=first_round,
        checked_in_at=timezone.now() if status == Entry.Status.CHECKED_IN else None,
    )


# ---------------------------------------------------------------------------------------------
# invitations (answered by the invited person only)


def _open_invitation(user: User, invitation_id: int) -> tuple[Tournament, Invitation]:
    """The caller's open invitation, its tournament locked; 404 for anyone else's, one
    answered already, or an id nobody uses."""
    found = Invitation.objects.filter(pk=invitation_id).first()
    if found is None or not permissions.may_answer(user, found):
        raise TournamentNotFound(_("There is no such invitation."))
    t = lock(found.tournament_id)
    invitation = Invitation.objects.select_for_update().get(pk=found.pk)
    if invitation.status != Invitation.Status.INVITED:
        raise TournamentNotFound(_("There is no such invitation."))
    return t, invitation


def invitation_accept(*, user: User, invitation_id: int) -> Invitation:
    """Accept an invitation: become a director, or enter (as the director who invited asked:
    checked in or registered; while the tournament runs, between rounds only, a late entry
    playing from the next round). Audited as the invited person's own step."""
    with transaction.atomic():
        t, invitation = _open_invitation(user, invitation_id)
        if invitation.role == Invitation.Role.DIRECTOR:
            t.directors.add(user)
            log(t, user, "director_add", director=user.pk, invited_by=invitation.invited_by_id)
        else:
            require_status(t, [*BEFORE_ROUNDS, Tournament.Status.RUNNING], "enter")
            _require_between_rounds(t)
            if Entry.objects.filter(tournament=t, user=user).exists():
                raise TournamentConflict(
                    _("You have entered this tournament already."), code="entered"
                )
            entry = _enter(t, user, "", checked_in=invitation.checked_in)
            invitation.entry = entry
            log(
                t,
                user,
                "entry_add",
                entry=entry.pk,
                name=entry.name,
                first_round=entry.first_round,
                invited_by=invitation.invited_by_id,
            )
        invitation.status = Invitation.Status.ACCEPTED
        invitation.decided_at = timezone.now()
        invitation.save(update_fields=["status", "decided_at", "entry"])
    return invitation


def invitation_decline(*, user: User, invitation_id: int) -> Invitation:
    """Decline an invitation: nothing changes in the tournament, and its directors are not
    told (they may invite again)."""
    with transaction.atomic():
        _tournament, invitation = _open_invitation(user, invitation_id)
        invitation.status = Invitation.Status.DECLINED
        invitation.decided_at = timezone.now()
        invitation.save(update_fields=["status", "decided_at"])
    return invitation


def _may_act_for(user: User, t: Tournament, entry: Entry) -> None:
    if entry.user_id != user.pk and not is_director(user, t):
        raise NotAllowed(_("Only the player or a director may do that."))


def entry_check_in(*, user: User, entry: Entry) -> Entry:
    """Check in (the player, or a director for them): during check-in, or between rounds."""
    with transaction.atomic():
        t = lock(entry.tournament_id)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        _may_act_for(user, t, entry)
        require_status(t, [Tournament.Status.CHECK_IN, Tournament.Status.RUNNING], "check_in")
        if entry.status == Entry.Status.CHECKED_IN:
            return entry
        if entry.status != Entry.Status.REGISTERED:
            raise TournamentConflict(
                _("Only a registered entry checks in; this one is {status}.").format(
                    status=entry.get_status_display()
                ),
                code="not_registered",
            )
        if t.status == Tournament.Status.RUNNING:
            if common.open_round(t) is not None:
                raise TournamentConflict(
                    _("Check in between rounds; close the round being played first."),
                    code="round_open",
                )
            entry.first_round = common.last_closed(t) + 1
        entry.status = Entry.Status.CHECKED_IN
        entry.checked_in_at = timezone.now()
        entry.save(update_fields=["status", "checked_in_at", "first_round"])
        log(t, user, "entry_check_in", entry=entry.pk)
    return entry


def entry_withdraw(*, user: User, entry: Entry, reason: str = "") -> Entry:
    """Withdraw (the player, or a director): before the rounds, or between rounds; played
    rounds keep counting. A freed place goes to the first on the waitlist."""
    with transaction.atomic():
        t = lock(entry.tournament_id)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        _may_act_for(user, t, entry)
        if entry.status == Entry.Status.WITHDRAWN:
            return entry
        require_status(t, [*BEFORE_ROUNDS, Tournament.Status.RUNNING], "withdraw")
        if t.status == Tournament.Status.RUNNING and common.open_round(t) is not None:
            raise TournamentConflict(
                _("Players withdraw between rounds; close the round being played first."),
                code="round_open",
            )
        before = entry.status
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_at = timezone.now()
        entry.last_round = common.last_closed(t) or None
        entry.save(update_fields=["status", "withdrawn_at", "last_round"])
        log(t, user, "entry_withdraw", entry=entry.pk, before=before, reason=reason)
        if before != Entry.Status.WAITLISTED:
            _fill_from_waitlist(t, user)
    return entry


def entry_warn(*, user: User, entry: Entry, reason: str) -> LogEntry:
    """A director warns a player (after timeouts at their table, say) while the tournament
    runs: audited in the log as ``entry_warn`` with the reason, the open round and how many
    warnings the entry has had. The player is not notified (no notification type says it)."""
    with transaction.atomic():
        t = lock(entry.tournament_id)
        require_director(user, t)
        require_status(t, [Tournament.Status.RUNNING], "warn")
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        before = LogEntry.objects.filter(
            tournament=t, action="entry_warn", detail__entry=entry.pk
        ).count()
        current = common.open_round(t)
        return log(
            t,
            user,
            "entry_warn",
            round_number=current.number if current is not None else None,
            entry=entry.pk,
            reason=reason,
            warnings=before + 1,
        )
