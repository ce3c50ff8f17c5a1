"""Tables and their ledger: open a sitting, its balances and settlement, close it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import engine
from clubs.models import Club, Guest, Membership, User
from games import clock, hooks, managers
from games.errors import (
    InvalidInput,
    NotAllowed,
    TableConflict,
)
from games.hands import carry_after, seat_keys
from games.models import (
    CARRY_IN,
    CARRY_OUT,
    POT,
    SERIES,
    Hand,
    LedgerEntry,
    Seat,
    Table,
    TableSeries,
)
from games.permissions import (
    CLOSE_REFUSED,
    REOPEN_REFUSED,
    can_close,
    can_reopen,
    may_open_in,
    may_seat,
    visible_club,
)
from games.rulesets import money_key, parse_offered_rules, rule_set_of
from games.selectors import series_for_user, sitting_scores
from games.services.common import (
    BOT_LEVELS,
    any_of,
    bot_levels,
    check_writable,
    ledger_entry,
    lock_table,
    rule_violation,
    transfer_entries,
    write_audit,
)
from games.settlement import settle

# Parties of hand records and the ledger that no seat may be called: the ledger's own and the
# names every registered rule set reserves (``rule_set.table.reserved``: its parties and piles).
RESERVED_SEAT_KEYS = frozenset(
    {POT, SERIES}.union(*(rs.table.reserved for rs in engine.rule_sets()))
)


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


NO_SUCH_CLUB = gettext_lazy("There is no such club.")
NO_SUCH_SERIES = gettext_lazy("There is no such table series.")


def _club_for(user: User, club_id: int | None) -> Club | None:
    """The club a new table or series names: one the caller may see, else the same 400 as an
    id nobody uses (a private club does not exist for non-members)."""
    if club_id is None:
        return None
    club = visible_club(user, club_id)
    if club is None:
        raise InvalidInput(str(NO_SUCH_CLUB), fields={"club": [str(NO_SUCH_CLUB)]})
    return club


def table_series_create(*, user: User, name: str, club_id: int | None = None) -> TableSeries:
    """Start a series of sittings that share a carried pot; a club's series is started by a
    member of that club."""
    club = _club_for(user, club_id)
    if club is not None and not Membership.objects.filter(club=club, user=user).exists():
        raise NotAllowed(
            _("Only the club's members start its series."), fields={"club": [_("not a member")]}
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
    bot_budget_ms: int = 1000,
    hints: bool = False,
    time_control: Mapping[str, Any] | None = None,
) -> Table:
    """Open a sitting: fixed rules, as many seats in playing order as the rule set's table takes
    (its ``table`` shape, e.g. 3 or 4 seats), the first dealer given or found by drawing cards from
    the rule set's deck (its ``first_dealer``, e.g. the highest card deals), and the pot carried in
    from the series when its rule set keeps a pot (:func:`games.rulesets.money_key`). A club's table
    is opened by its owners and admins, or by a member who sits at it
    (:func:`games.permissions.may_open_in`).

    The apps above games call this for the tables they seat (a club evening's members, a
    tournament's entrants, who agreed by entering); a person opening a table through the API
    goes through :func:`table_open`, which also checks whom they may seat. A bot seat without
    a level plays at the first of ``BOT_LEVELS``. A ``time_control`` (hosted tables only:
    :class:`games.clock.TimeControl`'s fields, checked by the API) gives every hand a clock."""
    seats = [
        replace(s, bot_level=BOT_LEVELS[0]) if s.kind == Seat.Kind.BOT and not s.bot_level else s
        for s in seats
    ]
    try:
        parsed = parse_offered_rules(rules)
    except engine.EngineError as e:
        raise rule_violation(e) from None
    if mode not in Table.Mode.values:
        raise InvalidInput(
            _("mode must be recorded or hosted, not {mode}.").format(mode=repr(mode)),
            fields={"mode": [_("unknown mode")]},
        )
    rule_set = engine.rule_set(parsed.variant)
    keys = [s.key for s in seats]
    if len(seats) not in rule_set.table.seats:
        counts = any_of([str(n) for n in rule_set.table.seats])
        raise InvalidInput(
            _("A table has {counts} seats.").format(counts=counts),
            fields={"seats": [_("give {counts} seats").format(counts=counts)]},
        )
    if len(set(keys)) != len(keys) or RESERVED_SEAT_KEYS & set(keys):
        reserved = any_of([repr(k) for k in sorted(RESERVED_SEAT_KEYS)])
        raise InvalidInput(
            _("Seat keys must be unique and not {reserved}.").format(reserved=reserved),
            fields={"seats": [_("duplicate or reserved key")]},
        )
    users_seated = [s.user for s in seats if s.user is not None]
    users = [u.pk for u in users_seated]
    if len(set(users)) != len(users):
        raise InvalidInput(
            _("A user can take only one seat."), fields={"seats": [_("user seated twice")]}
        )
    levels = bot_levels(rule_set)
    for s in seats:
        if s.kind == Seat.Kind.BOT and (mode != Table.Mode.HOSTED or s.bot_level not in levels):
            raise InvalidInput(
                _("Bots play only at hosted tables, and {rule_set} at level {levels}.").format(
                    rule_set=rule_set.name, levels=any_of(levels)
                ),
                fields={"seats": [_("{seat}: no bot here").format(seat=s.key)]},
            )
        if (s.kind == Seat.Kind.USER) != (s.user is not None):
            raise InvalidInput(
                _("Seat {seat}: a user seat needs a user.").format(seat=s.key),
                fields={"seats": [s.key]},
            )
    if time_control is not None:
        if mode != Table.Mode.HOSTED:
            raise InvalidInput(
                _("Only hosted tables run a clock."),
                fields={"time_control": [_("not at a recorded table")]},
            )
        level = time_control.get("bot_level")
        if level is not None and level not in levels:
            raise InvalidInput(
                _("{rule_set} has bots of level {levels}.").format(
                    rule_set=rule_set.name, levels=any_of(levels)
                ),
                fields={"time_control": [_("unknown bot level")]},
            )
        control = clock.TimeControl.from_json(time_control)
        time_control = None if control is None else control.to_json()
    if first_dealer is not None and first_dealer not in keys:
        raise InvalidInput(
            _("The first dealer {dealer} is not one of the seats.").format(
                dealer=repr(first_dealer)
            ),
            fields={"first_dealer": [_("not a seat key")]},
        )
    club = _club_for(user, club_id)
    if club is not None and not may_open_in(user, club, seated=user in users_seated):
        raise NotAllowed(
            _(
                "Only the club's members open tables there, at tables they sit at themselves "
                "(its owners and admins open any)."
            ),
            fields={"club": [_("not a member")]},
        )
    for s in seats:
        if s.guest is not None and (club is None or s.guest.club_id != club.pk):
            raise InvalidInput(
                _("Seat {seat}: a club's guest sits only at that club's tables.").format(
                    seat=s.key
                ),
                fields={"seats": [s.key]},
            )

    with transaction.atomic():
        if series_id is not None:
            series = TableSeries.objects.select_for_update().filter(pk=series_id).first()
            if series is None or not _sees_series(user, series):
                raise InvalidInput(str(NO_SUCH_SERIES), fields={"series": [str(NO_SUCH_SERIES)]})
            if not _may_continue(user, series):
                raise NotAllowed(
                    _(
                        "Only the series' creator, its players and its club's admins open its "
                        "tables."
                    ),
                    fields={"series": [_("not yours to continue")]},
                )
        else:
            series = TableSeries.objects.create(name=name, club=club, created_by=user)
        draw = None
        if first_dealer is None:
            draw = rule_set.draw_for_dealer(keys)
            first_dealer = rule_set.first_dealer(draw)
        table = Table(
            name=name,
            mode=mode,
            series=series,
            club=club,
            rules=parsed.to_json(),
            opening_carry=rule_set.opening_carry(parsed, keys),
            first_dealer=keys.index(first_dealer),
            dealer_draw=draw,
            is_public=is_public,
            requires_confirmation=requires_confirmation,
            bot_budget_ms=bot_budget_ms,
            hints=hints,
            time_control=time_control,
            created_by=user,
        )
        table.save()
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
        # Only a table whose rule set keeps a pot takes the series' pot; at any other the
        # series keeps it for its next table that does (docs/games.md, "The pot and the series").
        carried = series_pot(series) if money_key(rule_set) is not None else 0
        if carried:
            table.opening_pot = carried
            table.save(update_fields=["opening_pot"])
            ledger_entry(
                table, None, payer=SERIES, payee=POT, amount=carried, reason=CARRY_IN
            ).save()
        write_audit(
            table, user, "table_create", after={"name": name, "seats": keys, "rules": table.rules}
        )
    return table


def _sees_series(user: User, series: TableSeries) -> bool:
    """Whether the series exists for ``user`` (``GET /series/`` lists it)."""
    return series_for_user(user=user).filter(pk=series.pk).exists()


#: How a refusal shows a guest seat (JSON: never translated).
GUEST_SEAT_EXAMPLE = '{"kind": "guest", "guest_name": …}'


def table_open(*, user: User, seats: Sequence[SeatSpec], **options: Any) -> Table:
    """A person opens a table (``POST /api/v1/tables/``): besides :func:`table_create`'s
    checks, every account seated other than the caller must have a say in it: at a club's
    table a member of that club, at a table of no club someone who shares a club with the
    caller (:func:`games.permissions.may_seat`). Anyone else sits as a guest by name."""
    with transaction.atomic():
        table = table_create(user=user, seats=seats, **options)
        refused = [
            s for s in seats if s.user is not None and not may_seat(user, s.user, table.club_id)
        ]
        if refused:
            names = ", ".join(s.user.username for s in refused if s.user is not None)
            if table.club_id:
                sentence = _(
                    "You can seat {names} only if they are a member of this table's club; seat "
                    "them as a guest by name instead ({example})."
                )
            else:
                sentence = _(
                    "You can seat {names} only if they are in a club of yours; seat them as a "
                    "guest by name instead ({example})."
                )
            raise NotAllowed(
                sentence.format(names=names, example=GUEST_SEAT_EXAMPLE),
                fields={
                    "seats": [
                        _("{seat}: seat a guest by name instead").format(seat=s.key)
                        for s in refused
                    ]
                },
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
    more party when it carries money on (or out). ``payments_proven``: no settlement takes
    fewer payments (:func:`games.settlement.settle`). Where the rule set scores a sitting as a
    whole, also each seat's score in its unit (``scores``, ``score_unit``: its
    ``sitting_score``, as it stands while the table is open)."""
    balances = table_balances(table)
    nets = {k: v for k, v in balances.items() if k not in (POT, SERIES)}
    pot_net = -sum(nets.values())
    parties = dict(nets)
    if pot_net:
        parties[POT] = pot_net
    answer = settle(parties)
    return {
        "nets": nets,
        "pot": balances[POT],
        "pot_net": pot_net,
        "payments": [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in answer.payments],
        "payments_proven": answer.proven,
        "scores": sitting_scores([table]).get(table.pk),
        "score_unit": rule_set_of(table).score_unit,
    }


def close_pot(table: Table) -> None:
    """Write the ledger rows of a close (inside the caller's transaction), as the rule set
    closes a table (``RuleSet.close``) with what the table carries after its last hand: in the
    pot games the pot of the ledger, its transfers sharing it out (as the rule set's option for
    the pot at close says) and the pot it leaves, which goes to the series (``carry_out``);
    where the rule set scores a sitting, its score settled into money (at its
    ``point_price``). Used by :func:`table_close` and when a closed table's hands are
    corrected."""
    rule_set = rule_set_of(table)
    pot_key = money_key(rule_set)
    if pot_key is not None:
        pot = table_balances(table)[POT]
        if not pot:
            return
        carry = rule_set.read_carry({pot_key: pot})  # as a record's common part holds it
    else:
        carry = carry_after(table, table.hands.order_by("-number").first())
    try:
        closing = rule_set.close(engine.parse_rules(table.rules), seat_keys(table), carry)
    except engine.EngineError as e:
        raise rule_violation(e) from None
    LedgerEntry.objects.bulk_create(transfer_entries(table, None, closing.transfers))
    # What the ledger's pot still holds goes to the series: in the pot games what the close
    # leaves in it; where the rule set keeps no pot, any pot the table was given when tables
    # of such rule sets still took the series' pot in (its ``carry_in``), so none stays behind.
    left = closing.carry.get(pot_key, 0) if pot_key else table_balances(table)[POT]
    if left:
        ledger_entry(table, None, payer=POT, payee=SERIES, amount=left, reason=CARRY_OUT).save()


def table_close(*, table_id: int, user: User) -> Table:
    """Close the sitting as the rule set closes a table (``RuleSet.close``; e.g. a pot carried to
    the series, or split, shared equally, leftover cents to the first seats) and store the
    settlement."""
    with transaction.atomic():
        table = lock_table(table_id)
        if not can_close(user, table):
            raise NotAllowed(CLOSE_REFUSED)
        check_writable(table, user)
        if table.hands.exclude(status=Hand.Status.DONE).exists():
            raise TableConflict(
                _("A hand is still being played or awaits confirmation; finish it first.")
            )
        close_pot(table)
        table.status = Table.Status.CLOSED
        table.closed_at = timezone.now()
        table.closing = settlement_for(table)
        table.save(update_fields=["status", "closed_at", "closing"])
        write_audit(table, user, "table_close", after=table.closing)
        hooks.hands_changed(table.pk, table.club_id)
    return table


def closing_rows(table: Table) -> QuerySet[LedgerEntry]:
    """The ledger rows a close wrote (:func:`close_pot`): every row of no hand but the series'
    pot carried in when the table opened (``carry_in``), whatever the rule set's closing calls
    them. What a reopen, or a correction of a closed table's hands, takes back."""
    return table.ledger.filter(hand__isnull=True).exclude(reason=CARRY_IN)


def table_reopen(*, table_id: int, user: User) -> Table:
    """Reopen a table closed by mistake: the pot goes back to the table (the rows its close
    wrote are taken back) and hands may be recorded again. Refused (409) while the table is
    open, when a later table of its series has opened (it may have taken the carried pot
    over), and when an app above games keeps it closed (its tournament round or club evening
    is closed: see :func:`games.managers.frozen`). Audited as ``table_reopen`` with the
    settlement and ledger rows it took back."""
    with transaction.atomic():
        table = lock_table(table_id)
        if not can_reopen(user, table):
            raise NotAllowed(REOPEN_REFUSED)
        if table.status != Table.Status.CLOSED:
            raise TableConflict(_("This table is open; only a closed table reopens."))
        if Table.objects.filter(series_id=table.series_id, pk__gt=table.pk).exists():
            raise TableConflict(
                _(
                    "A later table of this table's series has opened since, and may have taken "
                    "its pot over; correct the later table instead."
                )
            )
        reason = managers.frozen(table.pk)
        if reason:
            raise TableConflict(reason)
        rows = closing_rows(table)
        taken_back = [
            {"from": r.payer, "to": r.payee, "amount": r.amount, "why": r.reason} for r in rows
        ]
        rows.delete()
        before: dict[str, Any] = {
            "closed_at": table.closed_at.isoformat() if table.closed_at else None,
            "closing": table.closing,
            "ledger": taken_back,
        }
        table.status = Table.Status.OPEN
        table.closed_at = None
        table.closing = None
        table.save(update_fields=["status", "closed_at", "closing"])
        write_audit(table, user, "table_reopen", before=before, after={"status": "open"})
        hooks.hands_changed(table.pk, table.club_id)
    return table
