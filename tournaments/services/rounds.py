"""Rounds: seat (in the worker), start, close; and the duplicate boards of a round.

Seating a round is two steps. :func:`round_seat` (the director's command) checks everything
that can be checked at once (state, the player count, the deals per table size, accounts for
hosted play), records the round as *being seated* and hands it to the worker;
:func:`round_seat_run` (the Celery task) chooses the seating and creates every table of the
round (games app), with each seat's entry, in one transaction, or none: a failure leaves the
round *failed* with the reason, and the director seats it again.

Bots: a director may fill a round's empty seats with bots (``bots``, ``bot_level``) where the
tournament hosts its hands and plays for points, so that a count that does not split plays
without byes. Bots are no entrants: they have no RoundSeat, so standings, exports and the
settlement never see them; each sits at its own table (one a table at most) and moves by
itself in the bots worker. The round's tables list them apart (``bots``).

Seating methods: ``random`` (shuffled by the round's seed), ``fewest_repeats`` (the club seat
planner with every earlier round of the tournament fixed, so pairs meet as rarely as possible)
and ``swiss`` (by the standings after the previous round, leaders together, then swaps between
neighbouring tables to avoid repeated opponents: :mod:`tournaments.swiss`).

A table of the round is *complete* when it has played ``deals_per_round`` hands (where the
rule set keeps rounds at a table, ``RuleSet.round_deals``: when that round is complete) (hosted
or recorded) with none pending, or, for offline tables, when its totals are confirmed by every
player; the round closes when every table is complete, closing each games table (its pot is
settled as the rules say).
"""

from __future__ import annotations

import datetime as dt
import math
import random
import secrets
from collections import Counter
from collections.abc import Sequence
from typing import Any, cast

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from clubs import outbox, seating
from clubs.models import User
from clubs.privacy import seat_key
from clubs.seating_text import seating_text
from config.i18n import engine_text, language_for
from config.tasks import send_after_commit
from games import services as games
from games.models import Hand, Seat, Table
from games.rulesets import rule_set_for
from tournaments import live, swiss
from tournaments.errors import InvalidInput, TournamentConflict
from tournaments.models import Board, Entry, Round, RoundSeat, RoundTable, TableTotals, Tournament
from tournaments.names import entry_display_name
from tournaments.selectors import round_deals
from tournaments.services import common
from tournaments.services.common import (
    listing,
    lock,
    log,
    require_director,
    require_status,
    round_state,
)
from tournaments.services.standings import request_standings


def _players(t: Tournament, number: int, byes: Sequence[int]) -> list[Entry]:
    return list(
        t.entries.filter(status=Entry.Status.CHECKED_IN, first_round__lte=number)
        .exclude(pk__in=list(byes))
        .select_related("user")
        .order_by("pk")
    )


def check_deals(t: Tournament, sizes: Sequence[int]) -> None:
    """Each seat deals equally often: the deals per round must be a multiple of every table's
    deal cycle in the round (``RuleSet.deal_cycle``: at a table of n seats, n deals). A 409
    ``deals_not_divisible`` names the least multiple that suits the round's tables and the
    rule set's preferred table (the one the deals were checked against when the tournament was
    made: tables of 3 and 4 give 12), and the table sizes the deals suit as they are."""
    if round_deals(t) is not None:
        return  # the rule set keeps rounds at a table (RuleSet.round_deals): they deal equally
    rule_set = rule_set_for(t.rules)
    deals = t.deals_per_round
    bad = sorted({s for s in sizes if deals % rule_set.deal_cycle(s)})
    if bad:
        _shapes, preferred = table_shapes(t)
        need = math.lcm(*(rule_set.deal_cycle(s) for s in {*sizes, preferred}))
        fits = sorted(s for s in set(rule_set.table.seats) if deals % rule_set.deal_cycle(s) == 0)
        if fits:
            message = _(
                "This round needs a table of {size}, and {deals} deals cannot be dealt equally "
                "there: use a multiple of {need} deals per round, or change the number of "
                "players so that only tables of {sizes} are needed."
            ).format(size=bad[0], deals=deals, need=need, sizes=listing(fits, "and"))
        else:
            message = _(
                "This round needs a table of {size}, and {deals} deals cannot be dealt equally "
                "there: use a multiple of {need} deals per round."
            ).format(size=bad[0], deals=deals, need=need)
        raise TournamentConflict(message, code="deals_not_divisible")


def table_shapes(t: Tournament) -> tuple[tuple[seating.TableShape, ...], int]:
    """The table shapes (and the preferred size) of the tournament's rule set
    (``rule_set.table``: e.g. tables of 3, of 4 with the dealer sitting out)."""
    table = rule_set_for(t.rules).table
    return seating.shapes_of(table.seats, table.players)


def round_sizes(count: int, t: Tournament) -> list[int]:
    """The table sizes for ``count`` players at ``t``'s tables (e.g. tables of 3, of 4 where
    needed), or a 409 that lists the options: a bye, a substitute, one more or one fewer (or
    bots, where the tournament hosts its hands for points)."""
    shapes, preferred = table_shapes(t)
    try:
        return seating.table_sizes(count, shapes=shapes, preferred=preferred)
    except seating.SeatingError as e:
        message = _(
            "{reason} For a bye, list who sits out in byes; for one more, add a substitute or a "
            "late entry; for one fewer, withdraw a player."
        ).format(reason=seating_text(e))
        if e.options and e.options[0].players > count and _takes_bots(t) is None:
            more = e.options[0].players - count
            message += " " + _(
                'Or let bots fill the empty seats: seat the round with "bots": {more}.'
            ).format(more=more)
        raise TournamentConflict(message, code="unsplittable") from None


MAX_BOTS = 8
BOT_ID = -1
"""Bots in a round's plan are the ids -1, -2, …; entries are positive."""


def _takes_bots(t: Tournament) -> str | None:
    """Why ``t`` seats no bots, or ``None`` where it does."""
    if t.results != Tournament.Results.HOSTED:
        return _("Bots play only at hosted tables, and this tournament records its hands.")
    if t.scoring == Tournament.Scoring.DUPLICATE:
        return _(
            "A duplicate tournament compares each seat with the same seat at the other "
            "tables: it seats no bots."
        )
    if t.real_money:
        return _(
            "A tournament for real money seats no bots: nobody would pay or collect what a "
            "bot wins or loses."
        )
    return None


def _check_bots(t: Tournament, bots: int, level: str | None, players: int) -> str:
    """The bots' level (given, or the rule set's strongest), after checking the request."""
    if not bots:
        if level is not None:
            raise InvalidInput(
                _("bot_level goes with bots."), fields={"bot_level": [_("no bots asked for")]}
            )
        return ""
    why = _takes_bots(t)
    if why is not None:
        raise TournamentConflict(why, code="no_bots")
    if bots > min(MAX_BOTS, players):
        raise InvalidInput(
            _("A round takes 0 to {most} bots, and no more bots than players.").format(
                most=MAX_BOTS
            ),
            fields={"bots": [_("out of range")]},
        )
    return games.filler_level(rule_set_for(t.rules), level)


def round_seat(
    *,
    user: User,
    tournament: Tournament,
    method: str | None = None,
    byes: Sequence[int] = (),
    seed: int | None = None,
    bots: int = 0,
    bot_level: str | None = None,
    starts_at: dt.datetime | None = None,
) -> Round:
    """Seat the next round (in the worker). Returns the round, *being seated*. ``bots``
    fill empty seats (hosted tournaments for points only), at ``bot_level`` (default: the
    rule set's strongest). ``starts_at``: when the director means to start it; the seated
    players are reminded before it."""
    from tournaments.tasks import seat_round

    with transaction.atomic():
        t = lock(tournament.pk)
        require_director(user, t)
        require_status(t, [Tournament.Status.CHECK_IN, Tournament.Status.RUNNING], "seat_round")
        current = common.open_round(t)
        if current is not None and current.status == Round.Status.SEATING:
            # Still waiting for the worker (a lost message, a broker that was down): asking
            # again sends the task again; it seats the round once.
            log(t, user, "round_seat_again", round_number=current.number)
            send_after_commit(seat_round, current.pk, user.pk)
            return current
        if current is not None:
            raise TournamentConflict(
                _("A round is still open; close it before seating the next."), code="round_open"
            )
        t.rounds.filter(status=Round.Status.FAILED).delete()
        number = common.last_closed(t) + 1
        if number > t.rounds_planned:
            raise TournamentConflict(
                ngettext(
                    "The round has been played; finish the tournament.",
                    "All {rounds} rounds have been played; finish the tournament.",
                    t.rounds_planned,
                ).format(rounds=t.rounds_planned),
                code="rounds_done",
            )
        method = method or t.seating
        if method not in Tournament.Seating.values:
            raise InvalidInput(
                _("Seating is one of {methods}.").format(
                    methods=", ".join(Tournament.Seating.values)
                ),
                fields={"seating": [_("unknown method")]},
            )
        known = set(t.entries.values_list("pk", flat=True))
        if not set(byes) <= known:
            raise InvalidInput(
                _("byes lists entries of this tournament."),
                fields={"byes": [_("not an entry of this tournament")]},
            )
        players = _players(t, number, byes)
        level = _check_bots(t, bots, bot_level, len(players))
        sizes = round_sizes(len(players) + bots, t)
        if bots > len(sizes):
            raise InvalidInput(
                _(
                    "{players} players and {bots} bots sit at {tables} tables, and each table "
                    "takes one bot at most: ask for fewer bots."
                ).format(players=len(players), bots=bots, tables=len(sizes)),
                fields={"bots": [_("more bots than tables")]},
            )
        check_deals(t, sizes)
        if t.results == Tournament.Results.HOSTED:
            nameless = [e.name for e in players if e.user_id is None]
            if nameless:
                raise TournamentConflict(
                    ngettext(
                        "Hosted tables need accounts; {names} has none.",
                        "Hosted tables need accounts; {names} have none.",
                        len(nameless),
                    ).format(names=listing(nameless, "and")),
                    code="needs_account",
                )
        rnd = Round.objects.create(
            tournament=t,
            number=number,
            status=Round.Status.SEATING,
            seating=method,
            seed=secrets.randbits(48) if seed is None else seed,
            byes=sorted(byes),
            bots=bots,
            bot_level=level,
            starts_at=starts_at,
        )
        if t.status == Tournament.Status.CHECK_IN:
            t.status = Tournament.Status.RUNNING
            t.save(update_fields=["status"])
        log(
            t,
            user,
            "round_seat",
            round_number=number,
            method=method,
            byes=sorted(byes),
            players=len(players),
            bots=bots,
        )
        send_after_commit(seat_round, rnd.pk, user.pk)
    return rnd


def _met(t: Tournament, before: int) -> tuple[list[list[list[int]]], Counter[frozenset[int]]]:
    """The earlier rounds' tables (entry ids in seat order) and how often each pair met."""
    rounds: dict[int, dict[int, list[int]]] = {}
    for number, table, entry in (
        RoundSeat.objects.filter(round__tournament=t, round__number__lt=before)
        .order_by("round__number", "round_table__number", "position")
        .values_list("round__number", "round_table__number", "entry_id")
    ):
        rounds.setdefault(number, {}).setdefault(table, []).append(entry)
    tables = [list(by_table.values()) for _number, by_table in sorted(rounds.items())]
    met: Counter[frozenset[int]] = Counter()
    for played in tables:
        for pair in _pairs(played):
            met[pair] += 1
    return tables, met


def plan_round(
    t: Tournament, rnd: Round, players: list[Entry]
) -> tuple[list[list[int]], dict[str, Any]]:
    """The tables of ``rnd`` as lists of entry ids in seat order (bots as -1, -2, …, one a
    table at most), and how they were chosen."""
    tables, how = _plan_round(t, rnd, players)
    return _one_bot_a_table(tables), how


def _one_bot_a_table(tables: list[list[int]]) -> list[list[int]]:
    """Move bots apart where a method put two at a table: each extra bot changes places with
    the last player of the last table without a bot (the seating keeps every other seat)."""
    for table in tables:
        while sum(p < 0 for p in table) > 1:
            other = next(x for x in reversed(tables) if all(p > 0 for p in x))
            bot = max(i for i, p in enumerate(table) if p < 0)
            table[bot], other[-1] = other[-1], table[bot]
    return tables


def _plan_round(
    t: Tournament, rnd: Round, players: list[Entry]
) -> tuple[list[list[int]], dict[str, Any]]:
    bots = [BOT_ID - n for n in range(rnd.bots)]
    ids = [e.pk for e in players] + bots
    sizes = round_sizes(len(ids), t)
    rng = random.Random(rnd.seed)
    if rnd.seating == Tournament.Seating.RANDOM:
        order = list(ids)
        rng.shuffle(order)
        tables, at = [], 0
        for size in sizes:
            tables.append(order[at : at + size])
            at += size
        return tables, {"method": Tournament.Seating.RANDOM.value, "seed": rnd.seed}
    earlier, met = _met(t, rnd.number)
    if rnd.seating == Tournament.Seating.SWISS:
        from tournaments.services.standings import compute

        table = compute(t, rounds_up_to=rnd.number - 1)
        rank = {row.player: row.rank for row in table.rows}
        # bots after every player: the last tables, where the seating moves them apart
        ranking = sorted(ids, key=lambda p: (p < 0, rank.get(p, len(rank) + 1), abs(p)))
        seated = swiss.swiss_round(ranking, sizes, dict(met), seed=rnd.seed)
        return [list(x) for x in seated], {
            "method": Tournament.Seating.SWISS.value,
            "seed": rnd.seed,
            "repeats": swiss.repeats(seated, dict(met)),
        }
    # The rounds still to come are planned together (designs without any repeat exist for
    # whole tournaments, not round by round); only the next one is used, the rest is planned
    # again next round, when players may have come or gone.
    shapes, preferred = table_shapes(t)
    plan = seating.plan(
        seating.PlanRequest(
            players=ids,
            shapes=shapes,
            preferred=preferred,
            rounds=len(earlier) + max(1, t.rounds_planned - rnd.number + 1),
            fixed_rounds=earlier,
            forbidden=frozenset(
                frozenset((a, b)) for i, a in enumerate(bots) for b in bots[i + 1 :]
            ),
            seed=rnd.seed,
        )
    )
    chosen = [[cast(int, p) for p in x] for x in plan.rounds[len(earlier)]]
    return chosen, {
        "method": Tournament.Seating.FEWEST_REPEATS.value,
        "seed": rnd.seed,
        "objective": round(plan.objective, 6),
        "lower_bound": round(plan.lower_bound, 6),
        "random_objective": round(plan.random_objective, 6),
        "repeats": sum(met[pair] for pair in _pairs(chosen)),
    }


def _pairs(tables: Sequence[Sequence[int]]) -> list[frozenset[int]]:
    return [
        frozenset((a, b)) for table in tables for i, a in enumerate(table) for b in table[i + 1 :]
    ]


def seat_keys(entries: Sequence[Entry]) -> list[str]:
    """Unique seat keys without names (``p-7f3a2c``: :func:`clubs.privacy.seat_key`), as a
    club evening's seats are keyed: an account's entry by its account's code (the same at
    the player's club tables), a substitute's by its entry."""
    keys: list[str] = []
    for entry in entries:
        player = f"u:{entry.user_id}" if entry.user_id is not None else f"e:{entry.pk}"
        keys.append(seat_key(player, {*keys, *games.RESERVED_SEAT_KEYS}))
    return keys


def round_seat_run(*, round_id: int, user_id: int) -> bool:
    """The worker's part of :func:`round_seat`: choose the seating and create every table of
    the round in one transaction. Safe to run twice (a seated round is left alone)."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None or rnd.status != Round.Status.SEATING:
        return False
    t = rnd.tournament
    user = User.objects.get(pk=user_id)
    # the worker speaks the language of the director who seated the round: the reason a
    # seating failed is theirs to read, and the tables' names are written in it
    with translation.override(language_for(user, t.club)):
        return _seat_round(rnd, t, user)


def _seat_round(rnd: Round, t: Tournament, user: User) -> bool:
    from tournaments import webhooks

    round_id = rnd.pk
    try:
        players = _players(t, rnd.number, rnd.byes)
        tables, how = plan_round(t, rnd, players)
        with transaction.atomic():
            t = lock(t.pk)
            rnd = Round.objects.select_for_update().get(pk=round_id)
            if rnd.status != Round.Status.SEATING:
                return False
            _create_tables(t, rnd, user, tables, {e.pk: e for e in players})
            rnd.status = Round.Status.SEATED
            rnd.plan = how
            rnd.seated_at = timezone.now()
            rnd.save(update_fields=["status", "plan", "seated_at"])
            log(t, user, "round_seated", round_number=rnd.number, tables=len(tables), **how)
            webhooks.emit(
                tournament_id=t.pk,
                event="round_seated",
                data={"round": rnd.number, "tables": round_assignments(rnd)},
            )
            live.round_seated(rnd)  # websockets: the tournament, and "you are seated"
    except Exception as e:  # noqa: BLE001 - any failure leaves a readable reason for the director
        if isinstance(e, engine.EngineError):
            message = engine_text(e)
        else:
            message = getattr(e, "message", None) or str(e) or type(e).__name__
        Round.objects.filter(pk=round_id, status=Round.Status.SEATING).update(
            status=Round.Status.FAILED, error=message[:2000]
        )
        common.touch(t.pk)
        return False
    return True


def _create_tables(
    t: Tournament, rnd: Round, user: User, tables: list[list[int]], entries: dict[int, Entry]
) -> None:
    mode = Table.Mode.HOSTED if t.results == Tournament.Results.HOSTED else Table.Mode.RECORDED
    duplicate = t.scoring == Tournament.Scoring.DUPLICATE
    links: list[RoundSeat] = []
    for number, ids in enumerate(tables, 1):
        seated = [entries[i] for i in ids if i > 0]
        people = iter(zip(seat_keys(seated), seated, strict=True))
        specs, sitters = [], []
        for i in ids:
            if i < 0:
                key = f"bot-{BOT_ID - i + 1}"
                specs.append(games.SeatSpec(key=key, kind="bot", bot_level=rnd.bot_level))
                continue
            key, e = next(people)
            specs.append(
                games.SeatSpec(
                    key=key,
                    kind="user" if e.user_id else "guest",
                    user=e.user,
                    guest_name="" if e.user_id else e.name,
                )
            )
            sitters.append((len(specs) - 1, key, e))
        table = games.table_create(
            user=user,
            name=_("{tournament}: round {round}, table {table}").format(
                tournament=t.name, round=rnd.number, table=number
            ),
            mode=mode,
            rules=t.rules,
            seats=specs,
            first_dealer=specs[0].key if duplicate else None,
            time_control=t.time_control if mode == Table.Mode.HOSTED else None,
        )
        link = RoundTable.objects.create(round=rnd, number=number, table=table)
        links.extend(
            RoundSeat(round=rnd, round_table=link, entry=e, position=i, seat=key)
            for i, key, e in sitters
        )
    RoundSeat.objects.bulk_create(links)
    if duplicate:
        rule_set = rule_set_for(t.rules)
        boards = []
        for number in range(1, t.deals_per_round + 1):
            sealed = rule_set.seal()  # the rule set draws from the secret source
            boards.append(
                Board(
                    round=rnd,
                    number=number,
                    deck=list(sealed.order),
                    salt=sealed.salt,
                    commitment=sealed.commitment,
                )
            )
        Board.objects.bulk_create(boards)


def round_assignments(rnd: Round) -> list[dict[str, Any]]:
    """The round's tables with their games table and players in seat order."""
    out: dict[int, dict[str, Any]] = {}
    for seat in (
        RoundSeat.objects.filter(round=rnd)
        .select_related("round_table", "entry__user")
        .order_by("round_table__number", "position")
    ):
        link = seat.round_table
        row = out.setdefault(
            link.number, {"number": link.number, "table": link.table_id, "players": []}
        )
        row["players"].append(
            {
                "entry": seat.entry_id,
                "name": seat.entry.name,
                "display_name": entry_display_name(seat.entry),
                "seat": seat.seat,
                "position": seat.position,
            }
        )
    if rnd.bots:
        for table_number, seat_key, position, level in (
            Seat.objects.filter(table__round_link__round=rnd, kind=Seat.Kind.BOT)
            .order_by("table__round_link__number", "position")
            .values_list("table__round_link__number", "key", "position", "bot_level")
        ):
            if table_number in out:
                out[table_number].setdefault("bots", []).append(
                    {"seat": seat_key, "position": position, "level": level}
                )
    for row in out.values():
        row.setdefault("bots", [])
    return list(out.values())


def round_start(*, user: User, round: Round) -> Round:
    """seated → playing; the round's clock (``ends_at``) runs from now for the tournament's
    ``round_minutes``, unless a director set it already."""
    with transaction.atomic():
        t = lock(round.tournament_id)
        require_director(user, t)
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        if rnd.status != Round.Status.SEATED:
            raise TournamentConflict(
                _("Round {number} is {state}; only a seated round starts.").format(
                    number=rnd.number, state=round_state(rnd)
                ),
                code="wrong_state",
            )
        rnd.status = Round.Status.PLAYING
        rnd.started_at = timezone.now()
        if rnd.ends_at is None and t.round_minutes is not None:
            rnd.ends_at = rnd.started_at + dt.timedelta(minutes=t.round_minutes)
        rnd.save(update_fields=["status", "started_at", "ends_at"])
        log(
            t,
            user,
            "round_start",
            round_number=rnd.number,
            ends_at=None if rnd.ends_at is None else rnd.ends_at.isoformat(),
        )
        live.tournament_changed(t.pk, "round_started", round=rnd.number)
        outbox.withdraw("round_starts", f"tournament-round:{rnd.pk}")  # it started: no reminder
    return rnd


def _unfinished(t: Tournament, rnd: Round, progress: dict[str, Any]) -> str:
    """A table that keeps its round from closing, and what it lacks (``table_progress``)."""
    table, done = progress["number"], progress["hands_done"]
    if rnd.ran_out_at is not None:
        return ngettext(
            "{table} ({pending} hand still being played or waiting for its adjusted score)",
            "{table} ({pending} hands still being played or waiting for their adjusted scores)",
            progress["hands_pending"],
        ).format(table=table, pending=progress["hands_pending"])
    if t.results == Tournament.Results.TOTALS:
        return _("{table} (totals not confirmed)").format(table=table)
    if round_deals(t) is not None:
        return ngettext(
            "{table} ({hands} hand, its round of {deals} deals and the deals its rules add not "
            "complete)",
            "{table} ({hands} hands, its round of {deals} deals and the deals its rules add not "
            "complete)",
            done,
        ).format(table=table, hands=done, deals=t.deals_per_round)
    return _("{table} ({done} of {deals} deals)").format(
        table=table, done=done, deals=t.deals_per_round
    )


def table_progress(rnd: Round) -> list[dict[str, Any]]:
    """Per table of the round: hands done, hands pending, whether it is complete (once the
    round's clock ran out, when none of its hands is pending, however many it played)."""
    t = rnd.tournament
    links = (
        RoundTable.objects.filter(round=rnd)
        .annotate(
            done=Count("table__hands", filter=Q(table__hands__status=Hand.Status.DONE)),
            pending=Count("table__hands", filter=~Q(table__hands__status=Hand.Status.DONE)),
        )
        .order_by("number")
    )
    confirmed = set(
        TableTotals.objects.filter(round_table__round=rnd, confirmed=True).values_list(
            "round_table_id", flat=True
        )
    )
    rounds = (
        round_deals(t) is not None
    )  # a table that keeps rounds plays its round out, obligations and all
    if rounds:
        links = links.select_related("table")
    out = []
    for link in links:
        if t.results == Tournament.Results.TOTALS:
            complete = link.pk in confirmed
        elif rnd.ran_out_at is not None:
            complete = link.pending == 0  # the clock ran out: no further hand is dealt
        elif rounds:
            at = games.table_round(link.table, link.done + 1)
            complete = at is not None and at.completed >= 1 and link.pending == 0
        else:
            complete = link.done >= t.deals_per_round and link.pending == 0
        out.append(
            {
                "number": link.number,
                "table": link.table_id,
                "hands_done": link.done,
                "hands_pending": link.pending,
                "complete": complete,
            }
        )
    return out


def round_close(*, user: User, round: Round) -> Round:
    """playing → closed, when every table is complete: closes each games table."""
    with transaction.atomic():
        t = lock(round.tournament_id)
        require_director(user, t)
        rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
        if rnd.status != Round.Status.PLAYING:
            raise TournamentConflict(
                _("Round {number} is {state}; only a round being played closes.").format(
                    number=rnd.number, state=round_state(rnd)
                ),
                code="wrong_state",
            )
        missing = [p for p in table_progress(rnd) if not p["complete"]]
        if missing:
            what = ", ".join(_unfinished(t, rnd, p) for p in missing[:10])
            raise TournamentConflict(
                _("Round {number} cannot close: tables {tables} have not finished.").format(
                    number=rnd.number, tables=what
                ),
                code="tables_unfinished",
            )
        close_tables(t, rnd, user)
        log(t, user, "round_close", round_number=rnd.number)
    return rnd


def close_tables(t: Tournament, rnd: Round, closer: User) -> None:
    """Close every games table of ``rnd`` (``closer`` manages them), then the round, and ask
    for new standings; ``t`` and ``rnd`` are locked and every table is complete."""
    for link in RoundTable.objects.filter(round=rnd).select_related("table"):
        if link.table.status != Table.Status.CLOSED:
            games.table_close(table_id=link.table_id, user=closer)
    rnd.status = Round.Status.CLOSED
    rnd.closed_at = timezone.now()
    rnd.save(update_fields=["status", "closed_at"])
    request_standings(t.pk)
    live.tournament_changed(t.pk, "round_closed", round=rnd.number)
