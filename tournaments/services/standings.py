"""Tournament standings: from the games tables of its rounds to the scoring core, stored.

:func:`compute` reads every round's tables (hands, pot shares, confirmed offline totals,
duplicate boards) into :mod:`tournaments.scoring` values and ranks the entries;
:func:`tournament_recompute` (the worker, coalesced by version like club seasons) stores the
result as :class:`~tournaments.models.StandingRow` rows, with each tiebreak's value (a
``lots`` draw only once the tournament is finished and only where it decided a placing:
:func:`applied_tiebreaks`, :func:`shown_tiebreaks`), the movement since the previous round and,
once the tournament is finished, the prizes. Until a first result is stored, the standings
are the entrants (:func:`entrant_rows`).

What counts: rounds seated, played or closed; at a table, the settled hands numbered up to
``deals_per_round`` (hand deltas), the directors' adjusted scores of hands a round's clock cut
off (:class:`~tournaments.models.HandAdjustment`) and, once the table is closed, the pot shared
out at close;
offline tables count once their totals are confirmed. In duplicate scoring a board counts only
when every table of its round has finished it (the same moment its deal is revealed), so a
standings page never tells a table how a board it has yet to play went elsewhere; until one
of its boards counts, a table's round is not played (its players' rows say how many boards
are ``pending`` instead of showing the round with no points).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max
from django.db.models.expressions import RawSQL
from django.utils import timezone

from clubs import outbox
from clubs.services.seasons import should_compute
from config.tasks import send_after_commit
from games.models import SPLIT, Hand, LedgerEntry, Table
from games.rulesets import rule_set_for
from games.selectors import sitting_scores
from tournaments import live, scoring
from tournaments import prizes as prize_core
from tournaments.models import (
    Entry,
    HandAdjustment,
    Round,
    RoundSeat,
    RoundTable,
    StandingRow,
    TableTotals,
    Tournament,
)
from tournaments.selectors import hand_cap, in_round, score_unit
from tournaments.services import common

COUNTED = (Round.Status.SEATED, Round.Status.PLAYING, Round.Status.CLOSED)


def _json_text(key: str) -> RawSQL:
    """A hand's result key as JSON text (``true`` stays ``true``: SQLite's ``JSON_EXTRACT``,
    behind Django's key lookups, reads it as 1)."""
    column = Hand._meta.get_field("result").column
    if connection.vendor == "postgresql":
        return RawSQL(f"CAST({column} -> CAST(%s AS TEXT) AS TEXT)", (key,))
    return RawSQL(f"({column} -> %s)", (f'$."{key}"',))


def inputs(
    t: Tournament, *, pending: dict[int, int] | None = None
) -> tuple[list[scoring.Sitting], list[scoring.BoardResult], list[int]]:
    """Every counted table as a sitting (entry ids as players), the duplicate board results,
    and every entry that plays or played. In duplicate, a table counts once one of its boards
    does (until then its players have not played that round, they wait for it); ``pending``,
    when given, is filled with each entry's boards finished at their table that wait for
    other tables."""
    links = list(
        RoundTable.objects.filter(round__tournament=t, round__status__in=COUNTED)
        .select_related("round")
        .only("number", "table_id", "round_id", "round__number", "round__ran_out_at")
    )
    table_ids = [link.table_id for link in links]
    seats: dict[int, dict[str, int]] = defaultdict(dict)
    for table_id, seat, entry in RoundSeat.objects.filter(round__tournament=t).values_list(
        "round_table__table_id", "seat", "entry_id"
    ):
        seats[table_id][seat] = entry
    players = sorted(
        Entry.objects.filter(tournament=t)
        .exclude(status=Entry.Status.WAITLISTED)
        .filter(seats__isnull=False)
        .values_list("pk", flat=True)
        .distinct()
    )
    sittings: list[scoring.Sitting] = []
    boards: list[scoring.BoardResult] = []
    if t.results == Tournament.Results.TOTALS:
        totals = {
            row.round_table_id: row
            for row in TableTotals.objects.filter(round_table__in=links, confirmed=True)
        }
        for link in links:
            row = totals.get(link.pk)
            if row is None:
                continue
            by_seat = seats[link.table_id]
            sittings.append(
                scoring.Sitting(
                    round=link.round.number,
                    table=link.number,
                    players=tuple(by_seat.values()),
                    amounts={by_seat[k]: int(v) for k, v in row.amounts.items()},
                    declarer_wins={
                        by_seat[k]: int(v) for k, v in row.declarer_wins.items() if k in by_seat
                    },
                )
            )
        return sittings, boards, players

    # Declarer games won: what the rule set answers of each result (RuleSet.statistics), from
    # the result keys it reads.
    rule_set = rule_set_for(t.rules)
    read = rule_set.statistics_keys
    answers: dict[tuple[Any, ...], dict[str, Any]] = {}
    hands: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for table_id, number, dealer, delta, *values in (
        Hand.objects.filter(table_id__in=table_ids, status=Hand.Status.DONE, **in_round(t))
        .order_by("table_id", "number")
        .annotate(**{f"statistics_{i}": _json_text(k) for i, k in enumerate(read)})
        .values_list(
            "table_id",
            "number",
            "dealer",
            "result__delta",
            *(f"statistics_{i}" for i in range(len(read))),
        )
    ):
        key = tuple(values)
        answer = answers.get(key)
        if answer is None:  # few combinations of values: the rule set is asked once for each
            answer = answers[key] = rule_set.statistics(
                {k: json.loads(v) for k, v in zip(read, values, strict=True) if v is not None}
            )
        hands[table_id].append((number, dealer, delta, answer["declarer"], answer["made"], False))
    # A director's adjusted score stands for a hand a round's clock cut off (taken back at the
    # table): its amounts count as a hand's, in the table's unit, also beside a sheet's score.
    for table_id, number, dealer, adjusted in HandAdjustment.objects.filter(
        round_table__in=links
    ).values_list("round_table__table_id", "number", "dealer", "amounts"):
        hands[table_id].append((number, dealer, adjusted, None, None, True))
        hands[table_id].sort(key=lambda h: h[0])
    splits: dict[int, dict[str, int]] = defaultdict(dict)
    for table_id, payee, amount in LedgerEntry.objects.filter(
        table_id__in=table_ids, reason=SPLIT
    ).values_list("table_id", "payee", "amount"):
        splits[table_id][payee] = splits[table_id].get(payee, 0) + amount

    # Where the rule set scores a sitting as a whole, its players' amounts are its score after
    # the round's deals, not the sum of its deals' deltas (which move no money). Where it scores
    # deal by deal, the scores are summed; the money the deals moved is not counted beside them.
    scores: dict[int, dict[str, int]] = {}
    if score_unit(t) is not None:
        scores = sitting_scores(
            Table.objects.filter(pk__in=table_ids).prefetch_related("seats"),
            up_to=hand_cap(t),
        )
    duplicate = t.scoring == Tournament.Scoring.DUPLICATE
    finished: dict[int, set[int]] = {}
    if duplicate:
        finished = finished_boards(t, links, hands)
    for link in links:
        by_seat = seats[link.table_id]
        if not by_seat:
            continue
        keys = list(by_seat)
        amounts = dict.fromkeys(by_seat.values(), 0)
        wins = dict.fromkeys(by_seat.values(), 0)
        counted = 0
        for number, dealer, delta, declarer, made, adjusted in hands[link.table_id]:
            if duplicate and number not in finished.get(link.round_id, set()):
                if pending is not None:
                    for entry in by_seat.values():
                        pending[entry] = pending.get(entry, 0) + 1
                continue
            counted += 1
            for seat, amount in (delta or {}).items() if adjusted or not scores else ():
                if seat in by_seat:
                    amounts[by_seat[seat]] += int(amount)
            if declarer in by_seat and made is True:
                wins[by_seat[declarer]] += 1
            if duplicate:
                active = rule_set.active_seats(keys, dealer)
                for direction, seat in zip(rule_set.positions, active, strict=True):
                    boards.append(
                        scoring.BoardResult(
                            round=link.round.number,
                            board=number,
                            table=link.number,
                            direction=direction,
                            player=by_seat[seat],
                            amount=int((delta or {}).get(seat, 0)),
                        )
                    )
        if duplicate and not counted:
            continue
        for seat, amount in splits[link.table_id].items():
            if seat in by_seat:
                amounts[by_seat[seat]] += amount
        for seat, score in scores.get(link.table_id, {}).items():
            if seat in by_seat:
                amounts[by_seat[seat]] += score
        sittings.append(
            scoring.Sitting(
                round=link.round.number,
                table=link.number,
                players=tuple(by_seat.values()),
                amounts=amounts,
                declarer_wins=wins,
            )
        )
    return sittings, boards, players


def finished_boards(
    t: Tournament, links: list[RoundTable], hands: dict[int, list[tuple[Any, ...]]]
) -> dict[int, set[int]]:
    """Per round id: the board numbers every table of the round has finished. Once a round's
    clock ran out, a table that never dealt a board will not play it: the board counts when
    every other table has finished it (and one did), compared among those that played it."""
    tables: dict[int, list[int]] = defaultdict(list)
    for link in links:
        tables[link.round_id].append(link.table_id)
    ran_out = {link.round_id for link in links if link.round.ran_out_at is not None}
    dealt = dealt_boards(ran_out)
    out: dict[int, set[int]] = {}
    for round_id, ids in tables.items():
        sets = [{h[0] for h in hands[i]} for i in ids]
        if round_id in ran_out:
            played = set().union(*sets)
            out[round_id] = {
                n
                for n in played
                if all(n in done or n > dealt.get(i, 0) for i, done in zip(ids, sets, strict=True))
            }
        else:
            out[round_id] = set.intersection(*sets) if sets else set()
    return out


def dealt_boards(round_ids: Iterable[int]) -> dict[int, int]:
    """Per games table of the rounds ``round_ids``: the number of its last hand dealt."""
    ids = list(round_ids)
    if not ids:
        return {}
    return {
        table_id: int(last)
        for table_id, last in Hand.objects.filter(table__round_link__round_id__in=ids)
        .values("table_id")
        .annotate(last=Max("number"))
        .values_list("table_id", "last")
    }


def compute(t: Tournament, *, rounds_up_to: int | None = None) -> scoring.Standings:
    """The standings from scratch (nothing stored)."""
    return rank(t, *inputs(t), rounds_up_to=rounds_up_to)


def rank(
    t: Tournament,
    sittings: list[scoring.Sitting],
    boards: list[scoring.BoardResult],
    players: list[int],
    *,
    rounds_up_to: int | None = None,
) -> scoring.Standings:
    """The standings of ``inputs(t)`` by the tournament's scoring and tiebreaks; ``lots``
    only once the tournament is finished (``applied_tiebreaks``)."""
    return scoring.standings(
        sittings,
        scoring=t.scoring,
        tiebreaks=applied_tiebreaks(t),
        seed=t.lots_seed,
        duplicate=boards,
        players=players,
        rounds_up_to=rounds_up_to,
    )


def applied_tiebreaks(t: Tournament) -> list[str]:
    """The tiebreaks that order the standings now: the chosen ones, without ``lots`` until
    the tournament is finished. The draw is hidden while it runs (nobody knows it before it
    decides), and an order by lots among tied players would tell it; so tied players share
    the rank until the end, and swiss seating sees them in entry order."""
    finished = t.status == Tournament.Status.FINISHED
    return [name for name in t.tiebreaks if name != "lots" or finished]


def shown_tiebreaks(table: scoring.Standings) -> dict[Any, dict[str, str]]:
    """Each player's tiebreak values as stored and published: every applied tiebreak's value,
    but a ``lots`` draw only where it decided the player's placing."""
    decided = table.decided_by()
    return {
        row.player: {
            name: value
            for name, value in row.to_json()["tiebreaks"].items()
            if name != "lots" or name in decided[row.player]
        }
        for row in table.rows
    }


def store(
    t: Tournament, table: scoring.Standings, *, pending: dict[int, int] | None = None
) -> None:
    """Replace the stored rows with ``table`` (prizes once the tournament is finished;
    ``pending``: each entry's duplicate boards waiting for other tables; tiebreak values as
    ``shown_tiebreaks`` says)."""
    pending = pending or {}
    tiebreaks = shown_tiebreaks(table)
    entries = {e.pk: e for e in Entry.objects.filter(tournament=t)}
    won: dict[Any, int] = {}
    if t.status == Tournament.Status.FINISHED and t.prizes:
        won = prize_core.prize_list([(r.player, r.rank) for r in table.rows], list(t.prizes))
    StandingRow.objects.filter(tournament=t).delete()
    rows = []
    for position, row in enumerate(table.rows, 1):
        data = row.to_json()
        entry = entries[int(row.player)]
        rows.append(
            StandingRow(
                tournament=t,
                entry=entry,
                name=entry.name,
                user_id=entry.user_id,
                position=position,
                rank=row.rank,
                points=data["points"],
                rounds=row.rounds,
                by_round=data["by_round"],
                tiebreaks=tiebreaks[row.player],
                movement=row.movement,
                prize=won.get(row.player, 0),
                pending=pending.get(int(row.player), 0),
            )
        )
    StandingRow.objects.bulk_create(rows)


def entrant_rows(entries: Iterable[Entry]) -> list[dict[str, Any]]:
    """The standings before the first result counts: every entrant (not waitlisted, not
    withdrawn) by name, no points, all sharing rank 1; rows shaped like the stored ones, so
    players and spectators find the field from the moment entries open."""
    field = sorted(
        (e for e in entries if e.status not in (Entry.Status.WAITLISTED, Entry.Status.WITHDRAWN)),
        key=lambda e: (e.name.casefold(), e.pk),
    )
    return [
        {
            "position": position,
            "rank": 1,
            "entry": e.pk,
            "user": e.user_id,
            "name": e.name,
            "points": "0",
            "rounds": 0,
            "by_round": {},
            "tiebreaks": {},
            "movement": None,
            "prize": 0,
            "pending": 0,
        }
        for position, e in enumerate(field, 1)
    ]


def request_standings(tournament_id: int) -> None:
    """Ask the worker for new standings (coalesced: the newest request or the first since the
    last computation computes, :func:`tournament_recompute`)."""
    from tournaments.tasks import recompute_standings

    version = common.bump_version(tournament_id)
    send_after_commit(
        recompute_standings, tournament_id, version, countdown=settings.STANDINGS_COALESCE_SECONDS
    )


def tournament_recompute(*, tournament_id: int, version: int | None = None) -> bool:
    """Compute and store the standings if the task for ``version`` should: it is the newest
    request or the first since the stored computation (``clubs.services.seasons.should_compute``:
    only the newest would starve while results keep coming in; None: always). Answers whether
    it computed; safe to run twice."""
    from tournaments import webhooks
    from tournaments.services import cups

    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None:
            return False
        if version is not None and not should_compute(
            version, t.requested_version, t.computed_version
        ):
            return False
        target = t.requested_version
        waiting: dict[int, int] = {}
        store(t, rank(t, *inputs(t, pending=waiting)), pending=waiting)
        t.computed_version = target
        t.computed_at = timezone.now()
        t.computations += 1
        t.save(update_fields=["computed_version", "computed_at", "computations", "changed_at"])
        webhooks.emit(
            tournament_id=t.pk,
            event="standings_changed",
            data={"version": target, "computed_at": t.computed_at.isoformat()},
        )
        live.tournament_changed(t.pk, "standings_changed", standings_version=target)
        if t.status == Tournament.Status.FINISHED and target == t.requested_version:
            _tell_final(t)
        cups.tournament_standings_changed(t.pk)
    return True


def _tell_final(t: Tournament) -> None:
    """The standings of a finished tournament are final: tell each entrant with an account
    their rank (``clubs.outbox``; told again only where a correction moved it)."""
    ranks = dict(
        StandingRow.objects.filter(tournament=t, user__isnull=False).values_list("user_id", "rank")
    )
    outbox.notify(
        list(ranks),
        "standings_final",
        f"tournament:{t.pk}",
        payload={"path": f"/api/v1/tournaments/{t.pk}/standings/", "tournament_id": t.pk},
        context={"where": t.name},
        contexts={user_id: {"rank": place} for user_id, place in ranks.items()},
    )
