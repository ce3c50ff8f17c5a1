"""Tell games who manages a tournament's tables: its directors and the organising club's
owners and admins (tournaments.permissions.is_director); that a round's table plays
``deals_per_round`` hands, and none once its round's clock ran out; and that its directors
correct the hands of a closed table while the tournament runs (a finished one is reopened
first)."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from clubs.models import Membership, User
from games import managers
from games.errors import TableConflict
from games.hands import table_round
from games.models import Table
from games.rulesets import rule_set_for
from tournaments.models import Round, RoundTable, Tournament


def _directed(user: User) -> Q:
    clubs = Membership.objects.filter(user_id=user.pk, role__in=Membership.MANAGERS).values(
        "club_id"
    )
    return Q(directors=user.pk) | Q(club_id__in=clubs)


def _manages(user: User, table_id: int) -> bool:
    tournaments = Tournament.objects.filter(_directed(user)).values("pk")
    return RoundTable.objects.filter(table_id=table_id, round__tournament__in=tournaments).exists()


def _managed(user: User) -> Q:
    directed = Tournament.objects.filter(_directed(user)).values("pk")
    return Q(pk__in=RoundTable.objects.filter(round__tournament__in=directed).values("table_id"))


def _hand_limit(table_id: int) -> int | None:
    """A round's table plays ``deals_per_round`` hands; where the rule set keeps rounds
    (``RuleSet.round_deals`` counted deals, and any it plays besides) until its round is
    complete. Once the round's clock ran out it deals none (409 ``round_clock_out``: games
    asks only when a hand is to be added)."""
    out = (
        Round.objects.filter(tables__table_id=table_id, ran_out_at__isnull=False)
        .values_list("number", flat=True)
        .first()
    )
    if out is not None:
        raise TableConflict(
            _("Round {number}'s clock ran out: this table deals no further hand.").format(
                number=out
            ),
            code="round_clock_out",
        )
    found = (
        Tournament.objects.filter(rounds__tables__table_id=table_id)
        .values_list("deals_per_round", "rules")
        .first()
    )
    if found is None:
        return None
    deals, rules = found
    if rule_set_for(rules).round_deals is None:
        return int(deals)
    table = Table.objects.get(pk=table_id)
    done = table.hands.count()
    at = table_round(table, done + 1)
    return done if at is not None and at.completed >= 1 else None


def _corrects_closed(user: User, table_id: int) -> bool:
    status = (
        Tournament.objects.filter(rounds__tables__table_id=table_id)
        .values_list("status", flat=True)
        .first()
    )
    if status is None or not _manages(user, table_id):
        return False
    if status == Tournament.Status.FINISHED:
        raise TableConflict(
            _("The tournament is finished: reopen it (with a reason) to correct a result."),
            code="tournament_finished",
        )
    return True


def _groups(table_id: int) -> bool:
    return RoundTable.objects.filter(table_id=table_id).exists()


def _frozen(table_id: int) -> str | None:
    link = (
        RoundTable.objects.filter(table_id=table_id, round__status=Round.Status.CLOSED)
        .select_related("round")
        .first()
    )
    if link is None:
        return None
    return _(
        "Round {number} of this tournament is closed, so its tables stay closed; its directors "
        "correct a hand at the closed table instead."
    ).format(number=link.round.number)


def register() -> None:
    managers.register(
        managers.Manager(
            "tournaments",
            _manages,
            _managed,
            hand_limit=_hand_limit,
            corrects_closed=_corrects_closed,
            groups=_groups,
            frozen=_frozen,
        )
    )
