"""Writes for games. Each service owns its transaction, its row locks, its audit entry and its
``on_commit`` side effects; the rules come from ``engine`` and are never re-derived here.

Recorded tables: :func:`table_record_hand`, :func:`hand_edit`, :func:`hand_delete`,
:func:`hand_confirm`. Hosted tables: :func:`hand_start`, :func:`hand_apply_action`,
:func:`hand_bot_move`. Both: :func:`table_create`, :func:`table_close`.
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import socket
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

import engine
from clubs.models import Club, Event, Membership, User
from engine.bots import random_bot
from games import notify, rows
from games.errors import (
    InvalidInput,
    NotAllowed,
    NotYourTurn,
    RuleViolation,
    StaleVersion,
    TableConflict,
)
from games.models import (
    POT,
    SERIES,
    AuditEntry,
    Hand,
    LedgerEntry,
    Seat,
    Table,
    TableSeries,
    WorkerPing,
)
from games.permissions import can_write, seat_of
from games.settlement import payments_for, split_evenly
from tournaments.models import Round

COMMON_KEYS = ("rules", "seats", "dealer", "pot")
BOT_LEVELS = ("random",)


# ---------------------------------------------------------------------------------------------
# worker ping (issue 2)


def ping_create(*, user: User) -> WorkerPing:
    """Create a pending ping and enqueue ``run_ping`` once the row is committed."""
    from games.tasks import run_ping

    with transaction.atomic():
        ping = WorkerPing.objects.create(user=user, api_pid=os.getpid())
        transaction.on_commit(partial(run_ping.delay, ping.pk))
    return ping


def ping_complete(*, ping_id: int) -> WorkerPing | None:
    """Mark a ping done by this process; a no-op for a done or missing ping (idempotent)."""
    with transaction.atomic():
        ping = WorkerPing.objects.select_for_update().filter(pk=ping_id).first()
        if ping is None or ping.status == WorkerPing.Status.DONE:
            return ping
        ping.status = WorkerPing.Status.DONE
        ping.worker_pid = os.getpid()
        ping.worker_host = socket.gethostname()
        ping.completed_at = timezone.now()
        ping.save(update_fields=["status", "worker_pid", "worker_host", "completed_at"])
    return ping


# ---------------------------------------------------------------------------------------------
# shared helpers


def _engine_error(e: engine.EngineError, prefix: str = "") -> RuleViolation:
    """The engine's refusal as an API error: its sentence, and ``at`` as the field."""
    at = f"{prefix}.{e.at}" if prefix and e.at else (e.at or prefix or "record")
    return RuleViolation(e.message, fields={at: [e.message]})


def seat_keys(table: Table) -> list[str]:
    """The seat keys in playing order (the ``seats`` of hand records)."""
    return [s.key for s in sorted(table.seats.all(), key=lambda s: s.position)]


def dealer_for(table: Table, number: int) -> str:
    """The dealer of hand ``number``: the first dealer, then each next seat in turn."""
    keys = seat_keys(table)
    return keys[(table.first_dealer + number - 1) % len(keys)]


def common_part(table: Table, number: int, pot_before: int) -> dict[str, Any]:
    """What the server fills into every record of this table (hand-record.md, common part)."""
    return {
        "rules": table.rules,
        "seats": seat_keys(table),
        "dealer": dealer_for(table, number),
        "pot": pot_before,
    }


def _pot_before(table: Table, number: int) -> int:
    """The pot before hand ``number``: the previous hand's pot after, or the opening pot."""
    previous = table.hands.filter(number=number - 1).only("result").first()
    if previous is None or previous.result is None:
        return table.opening_pot
    return int(previous.result["pot"])


def _write_ledger(table: Table, hand: Hand, transfers: Sequence[Mapping[str, Any]]) -> None:
    rows.insert(
        [
            LedgerEntry(
                table=table,
                hand=hand,
                payer=t["from"],
                payee=t["to"],
                amount=t["amount"],
                reason=t["why"],
            )
            for t in transfers
        ]
    )


def _audit(
    table: Table,
    user: User | None,
    action: str,
    *,
    hand_number: int | None = None,
    before: Any = None,
    after: Any = None,
) -> None:
    rows.insert(
        [
            AuditEntry(
                table=table,
                user=user,
                action=action,
                hand_number=hand_number,
                before=before,
                after=after,
            )
        ]
    )


def _lock_table(table_id: int) -> Table:
    """The table, row-locked, with its seats (from memory: they never change)."""
    row = rows.fetch(
        f"SELECT {_TABLE.sql} FROM {Table._meta.db_table} t WHERE t.id = %s" + rows.for_update("t"),
        [table_id],
    )
    if row is None:
        raise InvalidInput("There is no such table.", code="not_found")
    return _with_seats(_TABLE.instance(row))


def _last_hand(table: Table) -> Hand | None:
    """The table's last hand (number, status and result only)."""
    row = rows.fetch(
        f"SELECT {_LAST.sql} FROM {Hand._meta.db_table} h WHERE h.table_id = %s "
        "ORDER BY h.number DESC LIMIT 1",
        [table.pk],
    )
    return None if row is None else _LAST.instance(row)


_HAND = rows.Columns(Hand, "h")
_LAST = rows.Columns(Hand, "h", only=("number", "status", "result"))
_TABLE = rows.Columns(Table, "t")


def _writable(table: Table, user: User, *, mode: str | None = None) -> None:
    if not can_write(user, table):
        raise NotAllowed()
    if table.status != Table.Status.OPEN:
        raise TableConflict("This table is closed; reopen a new sitting to go on.")
    if mode is not None and table.mode != mode:
        if mode == Table.Mode.RECORDED:
            raise TableConflict("This table hosts its hands; they are played, not recorded.")
        raise TableConflict("This table records hands played with real cards; it deals none.")


# ---------------------------------------------------------------------------------------------
# tables


@dataclass(frozen=True)
class SeatSpec:
    """A seat to create: a user, a named guest, or a bot."""

    key: str
    kind: str
    user: User | None = None
    guest_name: str = ""
    bot_level: str = ""


def series_pot(series: TableSeries) -> int:
    """Money the series holds between sittings: carried out minus carried in."""
    rows = LedgerEntry.objects.filter(table__series=series)
    out = sum(rows.filter(payee=SERIES).values_list("amount", flat=True))
    back = sum(rows.filter(payer=SERIES).values_list("amount", flat=True))
    return out - back


def _may_continue(user: User, series: TableSeries) -> bool:
    """Whether ``user`` may open a table in ``series`` (and so take over its carried pot):
    its creator, a player seated at one of its tables, or an admin of its club."""
    if series.created_by_id == user.pk:
        return True
    if Seat.objects.filter(table__series=series, user=user).exists():
        return True
    return (
        series.club_id is not None
        and Membership.objects.filter(
            club_id=series.club_id, user=user, role=Membership.Role.ADMIN
        ).exists()
    )


def series_create(*, user: User, name: str, club_id: int | None = None) -> TableSeries:
    """Start a series of sittings that share a carried pot; a club's series is started by a
    member of that club."""
    if club_id is not None and not Membership.objects.filter(club_id=club_id, user=user).exists():
        raise NotAllowed(
            "Only the club's members start its series.", fields={"club": ["not a member"]}
        )
    series = TableSeries.objects.create(name=name, club_id=club_id, created_by=user)
    return series


def table_create(
    *,
    user: User,
    name: str,
    mode: str,
    rules: Mapping[str, Any],
    seats: Sequence[SeatSpec],
    first_dealer: str | None = None,
    series_id: int | None = None,
    club_id: int | None = None,
    event_id: int | None = None,
    round_id: int | None = None,
    is_public: bool = False,
    requires_confirmation: bool = False,
) -> Table:
    """Open a sitting: fixed rules, 3 or 4 seats in playing order, the first dealer given or
    found by drawing cards (wien.md: highest card deals; suits first), and the pot carried in
    from the series."""
    try:
        parsed = engine.parse_rules(dict(rules))
    except engine.EngineError as e:
        raise _engine_error(e) from None
    if mode not in Table.Mode.values:
        raise InvalidInput(
            f"mode must be recorded or hosted, not {mode!r}.", fields={"mode": ["unknown mode"]}
        )
    keys = [s.key for s in seats]
    if len(seats) not in (3, 4):
        raise InvalidInput("A table has 3 or 4 seats.", fields={"seats": ["give 3 or 4 seats"]})
    if len(set(keys)) != len(keys) or {"pot", "series", "talon"} & set(keys):
        raise InvalidInput(
            "Seat keys must be unique and not 'pot', 'series' or 'talon'.",
            fields={"seats": ["duplicate or reserved key"]},
        )
    users = [s.user.pk for s in seats if s.user is not None]
    if len(set(users)) != len(users):
        raise InvalidInput(
            "A user can take only one seat.", fields={"seats": ["user seated twice"]}
        )
    for s in seats:
        if s.kind == Seat.Kind.BOT and (mode != Table.Mode.HOSTED or s.bot_level not in BOT_LEVELS):
            raise InvalidInput(
                f"Bots play only at hosted tables, at level {', '.join(BOT_LEVELS)}.",
                fields={"seats": [f"{s.key}: no bot here"]},
            )
        if (s.kind == Seat.Kind.USER) != (s.user is not None):
            raise InvalidInput(
                f"Seat {s.key}: a user seat needs a user.", fields={"seats": [s.key]}
            )
    if first_dealer is not None and first_dealer not in keys:
        raise InvalidInput(
            f"The first dealer {first_dealer!r} is not one of the seats.",
            fields={"first_dealer": ["not a seat key"]},
        )
    club = Club.objects.filter(pk=club_id).first() if club_id else None
    event = Event.objects.select_related("club").filter(pk=event_id).first() if event_id else None
    rnd = (
        Round.objects.select_related("tournament").filter(pk=round_id).first() if round_id else None
    )
    if (club_id and club is None) or (event_id and event is None) or (round_id and rnd is None):
        raise InvalidInput("The club, event or round given does not exist.", code="not_found")
    if event is not None and club is None:
        club = event.club

    with transaction.atomic():
        if series_id is not None:
            series = TableSeries.objects.select_for_update().filter(pk=series_id).first()
            if series is None:
                raise InvalidInput("There is no such table series.", fields={"series": ["unknown"]})
            if not _may_continue(user, series):
                raise NotAllowed(
                    "Only the series' creator, its players and its club's admins open its tables.",
                    fields={"series": ["not yours to continue"]},
                )
        else:
            series = TableSeries.objects.create(name=name, club=club, created_by=user)
        draw = None
        if first_dealer is None:
            cards = secrets.SystemRandom().sample(list(engine.PIQUET.codes), len(keys))
            draw = dict(zip(keys, cards, strict=True))
            first_dealer = engine.draw_first_dealer(draw)
        table = Table(
            name=name,
            mode=mode,
            series=series,
            club=club,
            event=event,
            round=rnd,
            rules=parsed.to_json(),
            first_dealer=keys.index(first_dealer),
            dealer_draw=draw,
            is_public=is_public,
            requires_confirmation=requires_confirmation,
            created_by=user,
        )
        table.save()
        if club is not None or rnd is not None:
            from games.permissions import is_organiser

            if not is_organiser(user, table) and not any(s.user == user for s in seats):
                raise NotAllowed(
                    "Only the club's admins or the tournament's directors open its tables."
                )
        Seat.objects.bulk_create(
            Seat(
                table=table,
                position=i,
                key=s.key,
                kind=s.kind,
                user=s.user,
                guest_name=s.guest_name,
                bot_level=s.bot_level,
            )
            for i, s in enumerate(seats)
        )
        carried = series_pot(series)
        if carried:
            table.opening_pot = carried
            table.save(update_fields=["opening_pot"])
            LedgerEntry.objects.create(
                table=table, payer=SERIES, payee=POT, amount=carried, reason="carry_in"
            )
        _audit(
            table, user, "table_create", after={"name": name, "seats": keys, "rules": table.rules}
        )
    return table


def table_balances(table: Table) -> dict[str, int]:
    """Every party's balance at this table from the ledger: seats, ``pot``, ``series``."""
    balances = {key: 0 for key in seat_keys(table)}
    balances[POT] = 0
    for payer, payee, amount in table.ledger.values_list("payer", "payee", "amount"):
        balances[payer] = balances.get(payer, 0) - amount
        balances[payee] = balances.get(payee, 0) + amount
    return balances


def settlement_for(table: Table) -> dict[str, Any]:
    """Each player's net at this sitting and the payments that settle them; the pot is one
    more party when it carries money on (or out)."""
    balances = table_balances(table)
    nets = {k: v for k, v in balances.items() if k not in (POT, SERIES)}
    pot_net = -sum(nets.values())
    parties = dict(nets)
    if pot_net:
        parties[POT] = pot_net
    payments = payments_for(parties)
    return {
        "nets": nets,
        "pot": balances[POT],
        "pot_net": pot_net,
        "payments": [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in payments],
    }


def table_close(*, table_id: int, user: User) -> Table:
    """Close the sitting: apply ``pot_at_close`` (carry: the pot goes to the series; split:
    shared equally, leftover cents to the first seats) and store the settlement."""
    with transaction.atomic():
        table = _lock_table(table_id)
        _writable(table, user)
        if table.hands.exclude(status=Hand.Status.DONE).exists():
            raise TableConflict(
                "A hand is still being played or awaits confirmation; finish it first."
            )
        pot = table_balances(table)[POT]
        if pot:
            if table.rules.get("pot_at_close", "carry") == "split":
                shares = split_evenly(pot, seat_keys(table))
                LedgerEntry.objects.bulk_create(
                    LedgerEntry(table=table, payer=POT, payee=k, amount=v, reason="split")
                    for k, v in shares.items()
                    if v
                )
            else:
                LedgerEntry.objects.create(
                    table=table, payer=POT, payee=SERIES, amount=pot, reason="carry_out"
                )
        table.status = Table.Status.CLOSED
        table.closed_at = timezone.now()
        table.closing = settlement_for(table)
        table.save(update_fields=["status", "closed_at", "closing"])
        _audit(table, user, "table_close", after=table.closing)
    return table


# ---------------------------------------------------------------------------------------------
# recorded hands


def _split_entry(entry: Mapping[str, Any], common: Mapping[str, Any]) -> dict[str, Any]:
    """The entry without the common part; a common key the client sent must match the
    server's (409 otherwise)."""
    if not isinstance(entry, Mapping):
        raise InvalidInput("A score-sheet entry is a JSON object.")
    mismatched = {}
    for key in COMMON_KEYS:
        if key in entry:
            mine, theirs = common[key], entry[key]
            if key == "rules":
                with contextlib.suppress(engine.EngineError):
                    theirs = engine.parse_rules(theirs).to_json()
            if theirs != mine:
                mismatched[key] = [f"the table's {key} is {mine!r}"]
    if mismatched:
        raise TableConflict(
            "The entry does not match the table: "
            + "; ".join(f"{k}: {v[0]}" for k, v in mismatched.items())
            + ". Leave these out and the server fills them in.",
            fields=mismatched,
            code="record_mismatch",
        )
    return {k: v for k, v in entry.items() if k not in COMMON_KEYS}


def _settle_entry(table: Table, hand: Hand) -> dict[str, Any]:
    record = {**common_part(table, hand.number, hand.pot_before), **(hand.entry or {})}
    return engine.settle(record)


def _recompute_from(table: Table, number: int, *, changed: bool = True) -> None:
    """Re-derive dealer, pot, settlement and ledger of hand ``number`` and every later hand,
    in order; a later hand that no longer settles aborts the whole change. ``changed``: hand
    ``number`` is the one the user changed (its refusal is a plain rule violation); after a
    delete it is a later hand that moved up."""
    pot = _pot_before(table, number)
    for hand in table.hands.filter(number__gte=number).order_by("number"):
        hand.dealer = dealer_for(table, hand.number)
        hand.pot_before = pot
        try:
            hand.result = _settle_entry(table, hand)
        except engine.EngineError as e:
            if changed and hand.number == number:
                raise _engine_error(e) from None
            raise TableConflict(
                f"After this change hand {hand.number} no longer settles: {e.message}. "
                "Correct or delete that hand first.",
                fields={f"hands[{hand.number}]": [e.message]},
                code="later_hand_invalid",
            ) from None
        hand.save(update_fields=["dealer", "pot_before", "result", "updated_at"])
        hand.ledger.all().delete()
        _write_ledger(table, hand, hand.result["transfers"])
        pot = int(hand.result["pot"])


def table_record_hand(*, table_id: int, user: User, entry: Mapping[str, Any]) -> Hand:
    """Record a score-sheet entry (hand-record.md form 1): the server fills in rules, seats,
    dealer and pot, the engine checks and settles it, the transfers go to the ledger."""
    with transaction.atomic():
        table = _lock_table(table_id)
        _writable(table, user, mode=Table.Mode.RECORDED)
        last = _last_hand(table)
        if last is not None and last.status == Hand.Status.PENDING:
            raise TableConflict(
                f"Hand {last.number} awaits confirmation by another seated player.",
                code="previous_hand_unconfirmed",
            )
        number = 1 if last is None else last.number + 1
        pot = table.opening_pot if last is None or last.result is None else last.result["pot"]
        common = common_part(table, number, pot)
        hand = Hand(
            table=table,
            number=number,
            dealer=common["dealer"],
            pot_before=pot,
            entry=_split_entry(entry, common),
            status=Hand.Status.PENDING if table.requires_confirmation else Hand.Status.DONE,
            entered_by=user,
            finished_at=timezone.now(),
        )
        try:
            hand.result = _settle_entry(table, hand)
        except engine.EngineError as e:
            raise _engine_error(e) from None
        rows.insert([hand])
        _write_ledger(table, hand, hand.result["transfers"])
        _audit(table, user, "hand_record", hand_number=number, after=_snapshot(hand))
    return hand


def _snapshot(hand: Hand) -> dict[str, Any]:
    return {
        "entry": hand.entry,
        "dealer": hand.dealer,
        "pot": hand.pot_before,
        "result": hand.result,
    }


def _recorded_hand(table: Table, number: int) -> Hand:
    hand = table.hands.filter(number=number).first()
    if hand is None:
        raise InvalidInput(f"Table {table.pk} has no hand {number}.", code="not_found")
    return hand


def hand_edit(*, table_id: int, number: int, user: User, entry: Mapping[str, Any]) -> Hand:
    """Correct any recorded hand; it and every later hand are recomputed in this transaction."""
    with transaction.atomic():
        table = _lock_table(table_id)
        _writable(table, user, mode=Table.Mode.RECORDED)
        hand = _recorded_hand(table, number)
        before = _snapshot(hand)
        hand.entry = _split_entry(entry, common_part(table, number, hand.pot_before))
        hand.save(update_fields=["entry"])
        _recompute_from(table, number)
        hand.refresh_from_db()
        _audit(table, user, "hand_edit", hand_number=number, before=before, after=_snapshot(hand))
    return hand


def hand_delete(*, table_id: int, number: int, user: User) -> None:
    """Delete any recorded hand; later hands move up one place and are recomputed (their
    dealers follow from the new order)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        _writable(table, user, mode=Table.Mode.RECORDED)
        hand = _recorded_hand(table, number)
        before = _snapshot(hand)
        hand.delete()
        for later in table.hands.filter(number__gt=number).order_by("number"):
            later.number -= 1
            later.save(update_fields=["number"])
        _recompute_from(table, number, changed=False)
        _audit(table, user, "hand_delete", hand_number=number, before=before)


def hand_confirm(*, table_id: int, number: int, user: User) -> Hand:
    """A second seated player confirms a recorded entry."""
    with transaction.atomic():
        table = _lock_table(table_id)
        _writable(table, user, mode=Table.Mode.RECORDED)
        hand = _recorded_hand(table, number)
        if hand.status != Hand.Status.PENDING:
            raise TableConflict(f"Hand {number} needs no confirmation.", code="already_confirmed")
        if seat_of(user, table) is None or hand.entered_by_id == user.pk:
            raise NotAllowed("A seated player other than the one who entered it confirms a hand.")
        hand.status = Hand.Status.DONE
        hand.confirmed_by = user
        hand.save(update_fields=["status", "confirmed_by", "updated_at"])
        _audit(table, user, "hand_confirm", hand_number=number)
    return hand


# ---------------------------------------------------------------------------------------------
# hosted hands


def hand_record_json(table: Table, hand: Hand) -> dict[str, Any]:
    """The full record (form 2) of a hosted hand so far — secret until the hand is over."""
    return {
        **common_part(table, hand.number, hand.pot_before),
        "deal": hand.deal,
        "actions": hand.actions,
    }


_STATES: dict[tuple[int, str, int], engine.State] = {}
_STATES_LOCK = threading.Lock()
STATE_CACHE_SIZE = 2048


def hand_state(table: Table, hand: Hand) -> engine.State:
    """The engine state of a hosted hand, replayed from its record.

    Replays are kept in this process by (hand id, commitment, version): a hand's actions only
    grow and each new one bumps the version, so the key names one state for good (the
    commitment tells a new deal from an old one should ids be reused). States are immutable,
    so sharing them is safe. A state read inside a transaction is kept only once it commits.
    """
    key = (hand.pk, hand.commitment, hand.version)
    state = _STATES.get(key)
    if state is not None:
        return state
    state = engine.replay(hand_record_json(table, hand))
    if hand.pk is not None:
        transaction.on_commit(partial(_keep_state, key, state))
    return state


def _keep_state(key: tuple[int, str, int], state: engine.State) -> None:
    with _STATES_LOCK:
        if len(_STATES) >= STATE_CACHE_SIZE:
            for old in list(_STATES)[: STATE_CACHE_SIZE // 4]:  # oldest first
                del _STATES[old]
        _STATES[key] = state


def hand_start(*, table_id: int, user: User | None) -> Hand:
    """Deal the next hand of a hosted table from a secret shuffle whose commitment is
    published before the first call (hand-record.md, "Deal commitment")."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if user is not None:
            _writable(table, user, mode=Table.Mode.HOSTED)
        last = table.hands.order_by("-number").first()
        if last is not None and last.status != Hand.Status.DONE:
            raise TableConflict(
                f"Hand {last.number} is still being played.", code="hand_in_progress"
            )
        number = 1 if last is None else last.number + 1
        pot = _pot_before(table, number)
        common = common_part(table, number, pot)
        order, salt = engine.record.shuffled_deck(secrets.SystemRandom())
        deal = engine.deal_from_deck(order, engine.active_seats(common["seats"], common["dealer"]))
        hand = Hand.objects.create(
            table=table,
            number=number,
            status=Hand.Status.PLAYING,
            dealer=common["dealer"],
            pot_before=pot,
            deal=deal,
            deck=order,
            salt=salt,
            commitment=engine.commitment(salt, order),
            entered_by=user,
        )
        _audit(
            table,
            user,
            "hand_start",
            hand_number=number,
            after={"dealer": hand.dealer, "commitment": hand.commitment},
        )
        _after_move(table, hand, hand_state(table, hand))
    return hand


def _after_move(table: Table, hand: Hand, state: engine.State, schedule: bool = True) -> None:
    """On commit: wake long-polling clients; if a bot is to act, ask a worker to move."""
    from games.tasks import bot_act

    transaction.on_commit(partial(notify.publish, hand.pk, hand.version))
    seat = state.to_act_seat
    if schedule and seat is not None and _seat(table, seat).kind == Seat.Kind.BOT:
        transaction.on_commit(partial(bot_act.delay, hand.pk, hand.version))


def _seat(table: Table, key: str) -> Seat:
    return next(s for s in table.seats.all() if s.key == key)


_SEATS: dict[tuple[int, Any], list[Seat]] = {}
_SEATS_LOCK = threading.Lock()


def _with_seats(table: Table) -> Table:
    """Give ``table`` its seats from this process's memory: seats never change once a table
    is open, so a move need not load them again (keyed by id and creation time, so an id
    reused after a rollback is another table)."""
    key = (table.pk, table.created_at)
    with _SEATS_LOCK:
        seats = _SEATS.get(key)
    if seats is None:
        seats = list(Seat.objects.filter(table_id=table.pk).order_by("position"))
        with _SEATS_LOCK:
            if len(_SEATS) > 4096:
                _SEATS.clear()
            _SEATS[key] = seats
    prefetch_related_objects_from(table, "seats", seats)
    return table


def prefetch_related_objects_from(obj: Any, name: str, items: list[Any]) -> None:
    """Set ``obj``'s prefetched ``name`` to ``rows``, as ``prefetch_related`` would."""
    queryset = getattr(obj, name).all()
    queryset._result_cache = items
    queryset._prefetch_done = True
    obj._prefetched_objects_cache = {
        **getattr(obj, "_prefetched_objects_cache", {}),
        name: queryset,
    }


def _locked_hand(where: str, params: Sequence[Any]) -> tuple[Table, Hand] | None:
    """The hand ``where`` selects, row-locked, with its table and seats (one plain query:
    the ORM's compilation of this join cost more than running it)."""
    row = rows.fetch(
        f"SELECT {_HAND.sql}, {_TABLE.sql} FROM {Hand._meta.db_table} h "
        f"JOIN {Table._meta.db_table} t ON t.id = h.table_id WHERE {where}{rows.for_update('h')}",
        params,
    )
    if row is None:
        return None
    hand = _HAND.instance(row)
    table = _with_seats(_TABLE.instance(row, len(_HAND)))
    hand.table = table
    return table, hand


def _lock_hand(table_id: int, number: int) -> tuple[Table, Hand]:
    found = _locked_hand("h.table_id = %s AND h.number = %s", [table_id, number])
    if found is None:
        raise InvalidInput(f"Table {table_id} has no hand {number}.", code="not_found")
    return found


def _apply(
    table: Table, hand: Hand, seat_key: str, data: Mapping[str, Any], *, schedule: bool = True
) -> Hand:
    """Apply one action for ``seat_key`` (turn checked first), store it, settle a finished
    hand into the ledger."""
    if hand.status != Hand.Status.PLAYING:
        raise TableConflict(f"Hand {hand.number} is over.", code="hand_over")
    state = hand_state(table, hand)
    if state.to_act_seat != seat_key:
        raise NotYourTurn(f"It is {state.to_act_seat}'s turn, not {seat_key}'s.")
    if not isinstance(data, Mapping):
        raise InvalidInput(
            'An action is an object like {"call": "pass"}.', fields={"action": ["not an object"]}
        )
    given = data.get("seat", seat_key)
    if given != seat_key:
        raise NotYourTurn(f"You sit at {seat_key} and cannot act for {given}.")
    try:
        action = engine.action_from_json({**data, "seat": seat_key}, engine.PIQUET, "action")
        state = engine.apply(state, action)
    except engine.EngineError as e:
        raise RuleViolation(e.message, fields={"action": [e.message]}) from None
    hand.actions = [*hand.actions, engine.action_to_json(action, engine.PIQUET)]
    hand.version += 1
    transaction.on_commit(partial(_keep_state, (hand.pk, hand.commitment, hand.version), state))
    fields = ["actions", "version", "updated_at"]
    if state.is_over:
        hand.result = engine.settle_outcome(engine.outcome(state))
        hand.status = Hand.Status.DONE
        hand.finished_at = timezone.now()
        fields += ["result", "status", "finished_at"]
        _write_ledger(table, hand, hand.result["transfers"])
    rows.update(hand, fields)
    _after_move(table, hand, state, schedule)
    return hand


def hand_apply_action(
    *,
    table_id: int,
    number: int,
    user: User,
    action: Mapping[str, Any],
    expected_version: int | None = None,
) -> Hand:
    """A seated player's move. Checks, in order: the hand exists and is being played, the
    version the client saw (409), the caller's seat and turn (403), then the engine (400)."""
    with transaction.atomic():
        table, hand = _lock_hand(table_id, number)
        if hand.status != Hand.Status.PLAYING:
            raise TableConflict(f"Hand {hand.number} is over.", code="hand_over")
        if expected_version is not None and expected_version != hand.version:
            raise StaleVersion(
                f"The hand is at version {hand.version}, not {expected_version}; reload it.",
                fields={"expected_version": [f"current version is {hand.version}"]},
            )
        seat = seat_of(user, table)
        if seat is None:
            raise NotYourTurn("You have no seat at this table.", code="not_seated")
        return _apply(table, hand, seat.key, action)


def hand_bot_move(
    *, hand_id: int, version: int, rng: random.Random | None = None, schedule: bool = True
) -> Hand | None:
    """The bot to act makes its move, once: nothing happens unless the hand is still at
    ``version`` and a bot is to act (a retried or duplicated task is harmless). With
    ``schedule`` false the caller moves the next bot itself (the task loops)."""
    with transaction.atomic():
        found = _locked_hand("h.id = %s", [hand_id])
        if found is None:
            return None
        table, hand = found
        if hand.version != version or hand.status != Hand.Status.PLAYING:
            return None
        state = hand_state(table, hand)
        seat = state.to_act_seat
        if seat is None or _seat(table, seat).kind != Seat.Kind.BOT:
            return None
        move = random_bot.choose(state, rng or random.Random(secrets.randbits(64)))
        data = engine.action_to_json(move, engine.PIQUET, seat=False)
        return _apply(table, hand, seat, data, schedule=schedule)


def hands_waiting_for_bots(idle_seconds: float = 30.0) -> list[tuple[int, int]]:
    """(hand id, version) of hosted hands idle for ``idle_seconds`` whose player to act is a
    bot: their task was lost."""
    out = []
    idle_since = timezone.now() - timedelta(seconds=idle_seconds)
    hands = Hand.objects.filter(status=Hand.Status.PLAYING, updated_at__lt=idle_since)
    for hand in hands.select_related("table").prefetch_related("table__seats"):
        state = hand_state(hand.table, hand)
        seat = state.to_act_seat
        if seat is not None and _seat(hand.table, seat).kind == Seat.Kind.BOT:
            out.append((hand.pk, hand.version))
    return out
