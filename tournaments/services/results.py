"""Results: table totals for offline play, what follows a table's hands, duplicate boards.

Hosted and recorded tables produce their results in the games app (hands, corrections by
the table's players, and by directors, who manage every table of their tournament; games
audits each one). When a table's hands change, games tells us (:func:`on_hands_changed`,
registered in ``TournamentsConfig.ready``) and the worker (:func:`table_hands_changed`) asks
for new standings, reveals the duplicate boards every table has finished, and tells the
webhooks once per change of the table's result (its counted hands, or its confirmed totals):
a hand entered that waits for confirmation, a table closed, a confirmation repeated or a task
run twice changes nothing and sends nothing.

Offline tables enter their totals: any player at the table (or a director) enters every
seat's total; each player confirms the version they saw; when all have, the totals count.
A director's entry or correction counts at once and is audited with the values before.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import User
from config.tasks import send
from games.models import Hand
from tournaments import live
from tournaments.errors import InvalidInput, NotAllowed, TournamentConflict
from tournaments.models import (
    Board,
    HandAdjustment,
    Round,
    RoundSeat,
    RoundTable,
    TableTotals,
    Tournament,
)
from tournaments.permissions import is_director
from tournaments.selectors import in_round
from tournaments.services import common
from tournaments.services.common import lock, log, round_state
from tournaments.services.standings import request_standings


def _check_amounts(link: RoundTable, amounts: Mapping[str, Any], wins: Mapping[str, Any]) -> None:
    seats = set(link.seats.values_list("seat", flat=True))
    if set(amounts) != seats:
        raise InvalidInput(
            _("Give a total for exactly the seats {seats}.").format(seats=", ".join(sorted(seats))),
            fields={"amounts": [_("wrong seats")]},
        )
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in amounts.values()):
        raise InvalidInput(_("Totals are whole numbers."), fields={"amounts": [_("not integers")]})
    if sum(amounts.values()) != 0:
        raise InvalidInput(
            _("The totals must sum to zero; they sum to {sum}.").format(sum=sum(amounts.values())),
            fields={"amounts": [_("do not sum to zero")]},
        )
    if not set(wins) <= seats or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in wins.values()
    ):
        raise InvalidInput(
            _("declarer_wins counts games won as declarer by seat."),
            fields={"declarer_wins": [_("unknown seat or not a count")]},
        )


def totals_enter(
    *,
    user: User,
    round_table: RoundTable,
    amounts: Mapping[str, int],
    declarer_wins: Mapping[str, int] | None = None,
) -> TableTotals:
    """Enter (or replace) an offline table's totals. A player's entry waits for every
    player's confirmation (the one entering confirms by entering); a director's counts."""
    wins = dict(declarer_wins or {})
    with transaction.atomic():
        t = lock(round_table.round.tournament_id)
        link = RoundTable.objects.select_related("round").get(pk=round_table.pk)
        director = is_director(user, t)
        mine = RoundSeat.objects.filter(round_table=link, entry__user=user).first()
        if mine is None and not director:
            raise NotAllowed(_("Only the table's players and the directors enter its totals."))
        if t.results != Tournament.Results.TOTALS:
            raise TournamentConflict(
                _("This tournament's tables play hands; enter them at the table."),
                code="not_totals",
            )
        if link.round.status != Round.Status.PLAYING and not (
            director and link.round.status == Round.Status.CLOSED
        ):
            raise TournamentConflict(
                _(
                    "Round {number} is {state}: totals are entered while it is played "
                    "(directors correct them afterwards)."
                ).format(number=link.round.number, state=round_state(link.round)),
                code="wrong_state",
            )
        _check_amounts(link, amounts, wins)
        row = TableTotals.objects.select_for_update().filter(round_table=link).first()
        before = None if row is None else {"amounts": row.amounts, "confirmed": row.confirmed}
        if row is None:
            row = TableTotals(round_table=link, version=0)
        row.amounts = dict(amounts)
        row.declarer_wins = wins
        row.entered_by = user
        row.version += 1
        row.confirmed_by = [] if director or mine is None else [mine.entry_id]
        row.confirmed = director
        row.save()
        log(
            t,
            user,
            "totals_correct" if director and before else "totals_enter",
            round_number=link.round.number,
            table=link.number,
            before=before,
            after={"amounts": row.amounts, "confirmed": row.confirmed},
        )
        _confirmed_check(t, link, row)
    return row


def totals_confirm(*, user: User, round_table: RoundTable, version: int) -> TableTotals:
    """A player at the table confirms the totals they saw (``version``)."""
    with transaction.atomic():
        t = lock(round_table.round.tournament_id)
        link = RoundTable.objects.select_related("round").get(pk=round_table.pk)
        mine = RoundSeat.objects.filter(round_table=link, entry__user=user).first()
        if mine is None:
            raise NotAllowed(_("Only the table's players confirm its totals."))
        row = TableTotals.objects.select_for_update().filter(round_table=link).first()
        if row is None:
            raise TournamentConflict(_("No totals have been entered yet."), code="no_totals")
        if row.version != version:
            raise TournamentConflict(
                _(
                    "The totals changed (version {version}, you confirmed {confirmed}); look "
                    "again and confirm."
                ).format(version=row.version, confirmed=version),
                code="stale_version",
            )
        if mine.entry_id not in row.confirmed_by:
            row.confirmed_by = [*row.confirmed_by, mine.entry_id]
            row.save(update_fields=["confirmed_by", "updated_at"])
            log(t, user, "totals_confirm", round_number=link.round.number, table=link.number)
        _confirmed_check(t, link, row)
    return row


def _changed(link: RoundTable, result: Any) -> bool:
    """Whether ``result`` differs from the one last reported for the table (``result_entered``
    goes out once per change, not once per command or task that looked at it); if so, it is
    recorded as reported, with the next ``revision``. Call it with the table's row locked."""
    digest = hashlib.sha256(
        json.dumps(result, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    if digest == link.reported:
        return False
    link.reported = digest
    link.revision += 1
    link.save(update_fields=["reported", "revision"])
    return True


def _confirmed_check(t: Tournament, link: RoundTable, row: TableTotals) -> None:
    from tournaments import webhooks

    everyone = set(link.seats.values_list("entry_id", flat=True))
    if not row.confirmed and everyone <= set(row.confirmed_by):
        row.confirmed = True
        row.save(update_fields=["confirmed", "updated_at"])
    if row.confirmed:
        request_standings(t.pk)
        if _changed(link, {"amounts": row.amounts, "declarer_wins": row.declarer_wins}):
            webhooks.emit(
                tournament_id=t.pk,
                event="result_entered",
                data={
                    "round": link.round.number,
                    "table": link.number,
                    "revision": link.revision,
                    "totals": row.amounts,
                },
            )
    common.touch(t.pk)
    live.tournament_changed(t.pk, "result_entered", round=link.round.number, table=link.number)


# ---------------------------------------------------------------------------------------------
# hands of hosted and recorded tables


def on_hands_changed(table_id: int, club_id: int | None) -> None:
    """games.hooks listener (after commit, in the request): a tournament table's hands
    changed, so hand it to the worker. One indexed look-up for other tables."""
    from tournaments.tasks import table_changed

    if RoundTable.objects.filter(table_id=table_id).exists():
        send(table_changed, table_id)


def table_hands_changed(*, table_id: int) -> None:
    """The worker's part: new standings (coalesced), boards revealed, webhooks told."""
    from tournaments import webhooks

    with transaction.atomic():
        link = (
            RoundTable.objects.select_for_update(of=("self",))
            .select_related("round__tournament")
            .filter(table_id=table_id)
            .first()
        )
        if link is None:
            return
        t = link.round.tournament
        request_standings(t.pk)
        reveal_boards(link.round)
        hands: list[Any] = list(
            Hand.objects.filter(table_id=table_id, status=Hand.Status.DONE, **in_round(t))
            .order_by("number")
            .values_list("number", "result")
        )
        done = len(hands)
        adjusted = list(link.adjustments.order_by("number").values_list("number", "amounts"))
        if adjusted:  # an adjusted score changes the table's result too
            hands.append({"adjusted": adjusted})
        if _changed(link, hands):
            webhooks.emit(
                tournament_id=t.pk,
                event="result_entered",
                data={
                    "round": link.round.number,
                    "table": link.number,
                    "revision": link.revision,
                    "hands_done": done,
                },
            )
        common.touch(t.pk)
        live.tournament_changed(t.pk, "result_entered", round=link.round.number, table=link.number)


def reveal_boards(rnd: Round) -> list[int]:
    """Reveal the boards of a duplicate round that every table has finished; once the
    round's clock ran out, also those the tables that never dealt them will not play (a
    board a table is still playing stays secret)."""
    tables = RoundTable.objects.filter(round=rnd).count()
    if not tables:
        return []
    finished: dict[int, set[int]] = defaultdict(set)  # board → tables done with it
    for table_id, number in Hand.objects.filter(
        table__round_link__round=rnd, status=Hand.Status.DONE
    ).values_list("table_id", "number"):
        finished[number].add(table_id)
    for table_id, number in HandAdjustment.objects.filter(round_table__round=rnd).values_list(
        "round_table__table_id", "number"
    ):
        finished[number].add(table_id)  # an adjusted score ends the board at that table
    done: Any = [number for number, ids in finished.items() if len(ids) == tables]
    if rnd.ran_out_at is not None:
        playing = Hand.objects.filter(table__round_link__round=rnd).exclude(status=Hand.Status.DONE)
        done = list(
            Board.objects.filter(round=rnd)
            .exclude(number__in=playing.values("number"))
            .values_list("number", flat=True)
        )
    numbers = list(
        Board.objects.filter(
            round=rnd, revealed_at__isnull=True, number__in=list(done)
        ).values_list("number", flat=True)
    )
    if numbers:
        Board.objects.filter(round=rnd, number__in=numbers).update(revealed_at=timezone.now())
    return numbers


# ---------------------------------------------------------------------------------------------
# the games deal source (duplicate boards)


def board_deck(table_id: int, number: int) -> tuple[list[str], str] | None:
    """The deck and salt of board ``number`` for a duplicate tournament table."""
    found = (
        Board.objects.filter(round__tables__table_id=table_id, number=number)
        .values_list("deck", "salt")
        .first()
    )
    return None if found is None else (list(found[0]), found[1])


def board_withheld(table_id: int, number: int) -> bool:
    """Whether hand ``number`` of this table is a duplicate board not yet revealed."""
    return Board.objects.filter(
        round__tables__table_id=table_id, number=number, revealed_at__isnull=True
    ).exists()
