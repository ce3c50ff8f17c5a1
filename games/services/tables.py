"""Tables and their ledger: open a sitting, its balances and settlement, close it."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

import engine
from clubs.models import Club, Guest, Membership, User
from games import hooks
from games.errors import (
    InvalidInput,
    NotAllowed,
    TableConflict,
)
from games.models import (
    POT,
    SERIES,
    Hand,
    LedgerEntry,
    Seat,
    Table,
    TableSeries,
)
from games.permissions import is_organiser
from games.services.common import (
    BOT_LEVELS,
    _audit,
    _engine_error,
    _lock_table,
    _writable,
    seat_keys,
)
from games.settlement import payments_for, split_evenly

# Parties of hand records and the ledger that no seat may be called.
RESERVED_SEAT_KEYS = frozenset({POT, SERIES, "talon"})


@dataclass(frozen=True)
class SeatSpec:
    """A seat to create: a user, a named guest, or a bot."""

    key: str
    kind: str
    user: User | None = None
    guest_name: str = ""
    bot_level: str = ""
    guest: Guest | None = None


def series_pot(series: TableSeries) -> int:
    """Money the series holds between sittings: carried out minus carried in."""
    rows = LedgerEntry.objects.filter(table__series=series)
    out = sum(rows.filter(payee=SERIES).values_list("amount", flat=True))
    back = sum(rows.filter(payer=SERIES).values_list("amount", flat=True))
    return out - back


def _may_continue(user: User, series: TableSeries) -> bool:
    """Whether ``user`` may open a table in ``series`` (and so take over its carried pot):
    its creator, a player seated at one of its tables, or an owner or admin of its club."""
    if series.created_by_id == user.pk:
        return True
    if Seat.objects.filter(table__series=series, user=user).exists():
        return True
    return (
        series.club_id is not None
        and Membership.objects.filter(
            club_id=series.club_id, user=user, role__in=Membership.MANAGERS
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
    if len(set(keys)) != len(keys) or RESERVED_SEAT_KEYS & set(keys):
        raise InvalidInput(
            "Seat keys must be unique and not 'pot', 'series' or 'talon'.",
            fields={"seats": ["duplicate or reserved key"]},
        )
    users_seated = [s.user for s in seats if s.user is not None]
    users = [u.pk for u in users_seated]
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
    if club_id and club is None:
        raise InvalidInput("The club given does not exist.", code="not_found")
    for s in seats:
        if s.guest is not None and (club is None or s.guest.club_id != club.pk):
            raise InvalidInput(
                f"Seat {s.key}: a club's guest sits only at that club's tables.",
                fields={"seats": [s.key]},
            )

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
            rules=parsed.to_json(),
            first_dealer=keys.index(first_dealer),
            dealer_draw=draw,
            is_public=is_public,
            requires_confirmation=requires_confirmation,
            created_by=user,
        )
        table.save()
        if club is not None and not is_organiser(user, table) and user not in users_seated:
            raise NotAllowed("Only the club's owners and admins open its tables.")
        Seat.objects.bulk_create(
            Seat(
                table=table,
                position=i,
                key=s.key,
                kind=s.kind,
                user=s.user,
                guest_name=s.guest_name or (s.guest.name if s.guest is not None else ""),
                guest=s.guest,
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
        hooks.hands_changed(table.pk, table.club_id)
    return table
