"""An evening's rounds: seating them, their tables, and closing and settling the evening.

- :func:`round_plan`: plan the next round for the players checked in now (and the rounds
  after it, to balance the evening), with the seating service (:mod:`clubs.seating`): tables
  of the rule set's shapes (e.g. 3 seats, with 4s only where the count needs them), fewest
  repeated opponents this evening and in the season so far, forbidden pairs kept apart. The
  played rounds are fixed; a late arrival or an early leaver simply changes who is planned.
- :func:`round_swap`: directors swap two players by hand before the round starts.
- :func:`round_start`: one transaction creates every table of the round (games app) and
  links them to the evening, or none. A table where the director asked a bot to fill a seat
  is hosted (dealt and played through the API); the others are recorded.
- :func:`round_discard`: drop a planned round.
- :func:`evening_close`: close every table of the evening (its rules' close of the pot applied) and
  settle each player's net over the whole evening in as few payments as the games app's
  settlement service makes (exact to the cent; the carried pot is a party when it holds
  money).
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs import live
from clubs.errors import ClubConflict, InvalidInput, NotAllowed
from clubs.models import (
    Attendance,
    Club,
    Evening,
    EveningRound,
    EveningTable,
    Guest,
    Season,
    User,
)
from clubs.permissions import is_manager
from clubs.players import seat_player
from clubs.privacy import seat_key
from clubs.seating.planner import PlanRequest
from clubs.seating.planner import plan as seating_plan
from clubs.seating.tables import SeatingError, TableShape, shapes_of
from clubs.seating_text import seating_text
from clubs.services.seasons import evening_closed, season_evenings
from config.i18n import language_for
from games import services as games
from games.models import POT, LedgerEntry, Seat, Table
from games.rulesets import rule_set_for, rule_set_of, shares_pot_at_close
from games.selectors import sitting_scores
from games.settlement import Payment, describe, pot_keeper, settle

DEFAULT_ROUNDS = 3
MAX_ROUNDS = 30
MAX_BOTS = 8
BOTS = "bots"
"""The settlement's party for what the evening's bots won or lost: the club's money."""
BOTS_NAME = gettext_lazy("the club (for its bots)")
POT_NAME = gettext_lazy("the pot")
#: Why an evening seats no more rounds (409 ``evening_not_open``), by its status.
NOT_OPEN = {
    Evening.Status.CANCELLED: gettext_lazy("This evening is cancelled; it seats no more rounds."),
    Evening.Status.CLOSED: gettext_lazy(
        "This evening is closed and settled; it seats no more rounds."
    ),
}


def bot_key(number: int) -> str:
    """A bot's player key in a round's groups: ``b:1``, ``b:2`` … (never a player: bots are
    not ranked, rated or settled as members)."""
    return f"b:{number}"


def is_bot_key(key: str) -> bool:
    return key.startswith("b:")


def bot_name(key: str, level: str) -> str:
    """``Bot 1 (heuristic)``, in the active language (the level is the rule set's code)."""
    return _("Bot {number} ({level})").format(number=key[2:], level=level)


def evening_rules(evening: Evening) -> dict[str, Any]:
    """The rules the evening's tables play by: its own, else the club's default."""
    return dict(evening.rules or evening.club.default_rules)


def shapes_for(rules: Mapping[str, Any]) -> tuple[tuple[TableShape, ...], int]:
    """The table shapes (and the preferred size) the rule set of ``rules`` seats: its allowed
    seat counts and active players (``rule_set.table``: e.g. tables of 3, a table of 4 with
    the dealer sitting out where the count needs it)."""
    table = rule_set_for(rules).table
    return shapes_of(table.seats, table.players)


# ---------------------------------------------------------------------------------------------
# who is playing


def player_key(attendance: Attendance) -> str:
    return f"u:{attendance.user_id}" if attendance.user_id else f"g:{attendance.guest_id}"


def present(evening: Evening) -> list[Attendance]:
    """The players checked in and not gone, in check-in order."""
    return list(
        evening.attendances.filter(checked_in_at__isnull=False, left_at__isnull=True)
        .select_related("user", "guest")
        .order_by("checked_in_at", "id")
    )


def _played_rounds(evening: Evening) -> list[list[tuple[str, ...]]]:
    """The groups of every started round, in order (fixed for planning)."""
    out = []
    for rnd in evening.rounds.exclude(status=EveningRound.Status.PLANNED).order_by("number"):
        out.append([tuple(group) for group in rnd.groups])
    return out


def _season_history(
    evening: Evening, shapes: Sequence[TableShape], preferred: int
) -> tuple[dict[frozenset[Hashable], float], dict[Hashable, int]]:
    """The season's earlier evenings: the share of deals each pair played together, and how
    often each player sat at a table not of the preferred size."""
    season = (
        Season.objects.filter(club_id=evening.club_id, is_active=True).first()
        if evening.season_id is None
        else evening.season
    )
    if season is None:
        return {}, {}
    share = {shape.size: shape.share for shape in shapes}
    earlier = season_evenings(season).filter(starts_at__lt=evening.starts_at)
    history: dict[frozenset[Hashable], Fraction] = defaultdict(Fraction)
    other: dict[Hashable, int] = defaultdict(int)
    rounds = EveningRound.objects.filter(evening__in=earlier).exclude(
        status=EveningRound.Status.PLANNED
    )
    for groups in rounds.values_list("groups", flat=True):
        for group in groups:
            weight = share.get(len(group), Fraction(1))
            people = [p for p in group if not is_bot_key(p)]  # a bot has no history
            for i, a in enumerate(people):
                if len(group) != preferred:
                    other[a] += 1
                for b in people[i + 1 :]:
                    history[frozenset((a, b))] += weight
    return {pair: float(w) for pair, w in history.items()}, dict(other)


# ---------------------------------------------------------------------------------------------
# planning


def _lock_evening(evening_id: int) -> Evening:
    evening = (
        Evening.objects.select_for_update(of=("self",))
        .select_related("club", "season")
        .filter(pk=evening_id)
        .first()
    )
    if evening is None:
        raise InvalidInput(_("There is no such evening."), code="not_found")
    if evening.status != Evening.Status.SCHEDULED:
        raise ClubConflict(str(NOT_OPEN[Evening.Status(evening.status)]), code="evening_not_open")
    return evening


def _manager(user: User, club: Club) -> None:
    if not is_manager(user, club):
        raise NotAllowed(_("Only the club's owners and admins seat an evening."))


def round_plan(
    *,
    user: User,
    evening_id: int,
    rounds_total: int | None = None,
    seed: int | None = None,
    forbidden: Sequence[Sequence[str]] = (),
    bots: int = 0,
    bot_level: str | None = None,
) -> EveningRound:
    """Plan the evening's next round for the players checked in now.

    ``rounds_total``: how many rounds the evening has in all (default: as planned before,
    else 3); the rounds not yet played are planned together so the evening as a whole repeats as
    few opponents as it can, and the first of them becomes this round. A re-plan (the round
    before has started) starts from the rounds the previous plan had left: when the same players
    are present they are kept unless the search finds a better seating, so re-planning never
    makes the evening worse. ``seed`` makes the plan reproducible (default: the evening's seed
    plus the round number). ``forbidden``: pairs of player keys that never share a table.
    ``bots``: seats for bots of ``bot_level`` (default: the strongest level the rule set offers),
    at most one a table, so that a count that does not split can play this round; their tables
    are hosted when the round starts. A bot is planned for this round only.
    """
    with transaction.atomic():
        evening = _lock_evening(evening_id)
        _manager(user, evening.club)
        if evening.rounds.filter(status=EveningRound.Status.PLANNED).exists():
            raise ClubConflict(
                _("A planned round has not started yet; start or discard it first."),
                code="round_pending",
            )
        last = evening.rounds.order_by("-number").first()
        number = 1 if last is None else last.number + 1
        if rounds_total is None:
            rounds_total = int(last.plan.get("rounds_total", DEFAULT_ROUNDS)) if last else 3
        if not 1 <= rounds_total <= MAX_ROUNDS:
            raise InvalidInput(
                _("An evening has 1 to {most} rounds.").format(most=MAX_ROUNDS),
                fields={"rounds_total": [_("Between 1 and {most}.").format(most=MAX_ROUNDS)]},
            )
        players = [player_key(a) for a in present(evening)]
        rules = evening_rules(evening)
        level = games.filler_level(rule_set_for(rules), bot_level) if bots else None
        if not 0 <= bots <= min(MAX_BOTS, len(players)):
            raise InvalidInput(
                _("A round takes 0 to {most} bots, and no more bots than players.").format(
                    most=MAX_BOTS
                ),
                fields={"bots": [_("Between 0 and {most}.").format(most=MAX_BOTS)]},
            )
        bot_keys = [bot_key(n) for n in range(1, bots + 1)]
        if not evening.seating_seed:
            evening.seating_seed = secrets.randbits(31)
            evening.save(update_fields=["seating_seed"])
        shapes, preferred = shapes_for(rules)
        played = _played_rounds(evening)
        present_set = set(players)
        bad = [p for pair in forbidden for p in pair if p not in present_set]
        if bad or any(len(pair) != 2 for pair in forbidden):
            raise InvalidInput(
                _("Forbidden pairs name two players checked in tonight."),
                fields={
                    "forbidden": [
                        _("Not checked in: {players}").format(players=", ".join(sorted(set(bad))))
                    ]
                },
            )
        history, other_tables = _season_history(evening, shapes, preferred)
        apart = [frozenset(pair) for pair in forbidden]
        apart += [frozenset((a, b)) for i, a in enumerate(bot_keys) for b in bot_keys[i + 1 :]]
        request = PlanRequest(
            players=tuple(players + bot_keys),
            rounds=max(rounds_total, number),
            shapes=shapes,
            preferred=preferred,
            fixed_rounds=tuple(tuple(g) for g in played),
            history=history,
            other_table_counts=other_tables,
            forbidden=frozenset(apart),
            current_plan=_remaining_rounds(last),
            seed=seed if seed is not None else evening.seating_seed + number,
        )
        try:
            plan = seating_plan(request)
        except SeatingError as e:
            message = seating_text(e)
            if e.code == "unsplittable" and e.options and e.options[0].players > len(players):
                more = e.options[0].players - len(players)
                message += " " + ngettext(
                    'Or let one bot fill the empty seats: plan the round with "bots": {count} '
                    "(their tables are hosted).",
                    'Or let {count} bots fill the empty seats: plan the round with "bots": '
                    "{count} (their tables are hosted).",
                    more,
                ).format(count=more)
            elif e.code == "forbidden_unsatisfiable" and bots:
                message += " " + _("Each table takes one bot at most: ask for fewer bots.")
            raise InvalidInput(message, fields={"players": [message]}, code=e.code) from None
        groups = [list(table) for table in plan.rounds[plan.fixed]]
        explanation = plan.to_json()
        explanation["rounds_total"] = rounds_total
        explanation["seed"] = request.seed
        if bots:
            explanation["bots"] = {"count": bots, "level": level}
        live.evening_changed(evening.pk, "round_planned")
        return EveningRound.objects.create(
            evening=evening, number=number, groups=groups, plan=_jsonable(explanation)
        )


def bot_levels_of(rnd: EveningRound) -> dict[str, str]:
    """The level of each bot of a round, by its key (none: no bots)."""
    bots = rnd.plan.get("bots") or {}
    return {key: str(bots.get("level")) for group in rnd.groups for key in group if is_bot_key(key)}


def _remaining_rounds(last: EveningRound | None) -> list[list[list[str]]]:
    """The rounds the latest started round's plan had planned after it (empty when there are
    none): the re-plan's candidate, which the seating service keeps unless the players
    changed or it finds a better seating."""
    if last is None or last.status == EveningRound.Status.PLANNED:
        return []
    rounds = last.plan.get("rounds")
    fixed = last.plan.get("fixed_rounds")
    if not isinstance(rounds, list) or not isinstance(fixed, int):
        return []
    return [[list(table) for table in round_] for round_ in rounds[fixed + 1 :]]


def _jsonable(value: Any) -> Any:
    """Fractions and tuples as JSON numbers and lists."""
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    return value


def _planned(evening: Evening, number: int) -> EveningRound:
    rnd = evening.rounds.select_for_update().filter(number=number).first()
    if rnd is None:
        raise InvalidInput(
            _("This evening has no round {number}.").format(number=number), code="not_found"
        )
    if rnd.status != EveningRound.Status.PLANNED:
        raise ClubConflict(
            _("Round {number} has started; its seats are fixed.").format(number=number),
            code="round_started",
        )
    return rnd


def round_swap(*, user: User, evening_id: int, number: int, a: str, b: str) -> EveningRound:
    """Swap two players of a planned round by hand (their seats change, nothing else)."""
    with transaction.atomic():
        evening = _lock_evening(evening_id)
        _manager(user, evening.club)
        rnd = _planned(evening, number)
        where = {p: (t, s) for t, group in enumerate(rnd.groups) for s, p in enumerate(group)}
        missing = [p for p in (a, b) if p not in where]
        if missing or a == b:
            raise InvalidInput(
                _("Name two different players of this round."),
                fields={
                    "players": [
                        _("Not in round {number}: {players}").format(
                            number=number, players=", ".join(missing) or a
                        )
                    ]
                },
            )
        (ta, sa), (tb, sb) = where[a], where[b]
        rnd.groups[ta][sa], rnd.groups[tb][sb] = b, a
        rnd.plan = {**rnd.plan, "swapped": [*rnd.plan.get("swapped", []), [a, b]]}
        rnd.save(update_fields=["groups", "plan"])
        live.evening_changed(evening.pk, "round_changed")
    return rnd


def round_discard(*, user: User, evening_id: int, number: int) -> None:
    """Drop a planned round (to plan it again, e.g. after a late arrival)."""
    with transaction.atomic():
        evening = _lock_evening(evening_id)
        _manager(user, evening.club)
        _planned(evening, number).delete()
        live.evening_changed(evening.pk, "round_discarded")


def _seat_specs(
    group: Sequence[str],
    users: Mapping[int, User],
    guests: Mapping[int, Guest],
    bot_levels: Mapping[str, str],
) -> list[games.SeatSpec]:
    """Seats for a group of player keys, keyed by their pseudonym codes (``p-7f3a2c``:
    :func:`clubs.privacy.seat_key`, no name in the table's records); a bot's seat is
    ``bot-1``, … at its level."""
    specs, taken = [], set()
    for player in group:
        if is_bot_key(player):
            key = f"bot-{player[2:]}"
            taken.add(key)
            specs.append(games.SeatSpec(key=key, kind=Seat.Kind.BOT, bot_level=bot_levels[player]))
            continue
        ident = int(player[2:])
        user = users.get(ident) if player.startswith("u:") else None
        guest = guests.get(ident) if player.startswith("g:") else None
        key = seat_key(player, taken | games.RESERVED_SEAT_KEYS)
        taken.add(key)
        if user is not None:
            specs.append(games.SeatSpec(key=key, kind=Seat.Kind.USER, user=user))
        elif guest is not None:
            specs.append(
                games.SeatSpec(key=key, kind=Seat.Kind.GUEST, guest=guest, guest_name=guest.name)
            )
        else:
            raise InvalidInput(
                _("{player} is no longer a player of this club.").format(player=player)
            )
    return specs


def round_start(*, user: User, evening_id: int, number: int) -> EveningRound:
    """Open the round's tables: one games table per group, in one transaction (all or none),
    linked to the evening as tables 1, 2, … of the round. A table is recorded (its players
    write down the hands they play with real cards), or hosted where a bot fills a seat."""
    with transaction.atomic():
        evening = _lock_evening(evening_id)
        _manager(user, evening.club)
        rnd = _planned(evening, number)
        keys = [p for group in rnd.groups for p in group]
        users = User.objects.in_bulk([int(k[2:]) for k in keys if k.startswith("u:")])
        guests = Guest.objects.in_bulk([int(k[2:]) for k in keys if k.startswith("g:")])
        rules = evening_rules(evening)
        local = evening.starts_at.astimezone(ZoneInfo(evening.club.timezone)).strftime("%Y-%m-%d")
        levels = bot_levels_of(rnd)
        for index, group in enumerate(rnd.groups, 1):
            hosted = any(is_bot_key(p) for p in group)
            with translation.override(language_for(None, evening.club)):  # every member's name
                name = _("{title} {date} · round {round} · table {table}").format(
                    title=evening.title, date=local, round=number, table=index
                )
            table = games.table_create(
                user=user,
                name=name,
                mode=Table.Mode.HOSTED if hosted else Table.Mode.RECORDED,
                rules=rules,
                seats=_seat_specs(group, users, guests, levels),
                club_id=evening.club_id,
            )
            EveningTable.objects.create(evening=evening, round=rnd, number=index, table=table)
        rnd.status = EveningRound.Status.STARTED
        rnd.started_at = timezone.now()
        rnd.save(update_fields=["status", "started_at"])
        live.round_started(rnd.pk)  # websockets: the evening, and "you are seated"
    return rnd


# ---------------------------------------------------------------------------------------------
# closing and settling


@dataclass(frozen=True, slots=True)
class EveningNets:
    """Each player's net over all the evening's tables (from their ledgers; the pot's net is
    the negative of their sum), the party names, and where some table scores its sitting as a
    whole (``RuleSet.sitting_score``) each player's score over those tables and its unit."""

    nets: dict[str, int]
    names: dict[str, str]
    scores: dict[str, int] | None
    score_unit: str | None
    bots: int = 0
    """What the evening's bots won (+) or lost (−) over all their seats."""


def evening_nets(evening: Evening) -> EveningNets:
    """The evening's nets and scores (:class:`EveningNets`); a sitting scored as a whole counts
    as it stands while its table is open, its money (with a point price) once the table closes."""
    nets: dict[str, int] = defaultdict(int)
    names: dict[str, str] = {}
    links = list(
        evening.tables.select_related("table").prefetch_related(
            "table__seats__user", "table__seats__guest__merged_into"
        )
    )
    balances: dict[tuple[int, str], int] = defaultdict(int)
    for table_id, payer, payee, amount in LedgerEntry.objects.filter(
        table_id__in=[link.table_id for link in links]
    ).values_list("table_id", "payer", "payee", "amount"):
        balances[table_id, payer] -= amount
        balances[table_id, payee] += amount
    scored = sitting_scores(link.table for link in links)
    scores: dict[str, int] = defaultdict(int)
    bots = 0
    for link in links:
        for seat in link.table.seats.all():
            info = seat_player(seat)
            if info is None:
                bots += balances[link.table_id, seat.key]
            else:
                names[info.key] = info.name
                nets[info.key] += balances[link.table_id, seat.key]
                scores[info.key] += scored.get(link.table_id, {}).get(seat.key, 0)
    if not scored:
        return EveningNets(dict(nets), names, None, None, bots)
    units = {rule_set_of(link.table).score_unit for link in links if link.table_id in scored}
    unit = " ".join(sorted(u or "" for u in units))
    return EveningNets(dict(nets), names, dict(scores), unit, bots)


def evening_settlement(evening: Evening, currency: str = "€") -> dict[str, Any]:
    """The payments that settle the evening (final once closed, provisional before), their
    sentences and the names of the pot and the bots in the active language."""
    if evening.status == Evening.Status.CLOSED and evening.settlement is not None:
        # one stored before payments_proven was recorded does not say: null
        stored = {"payments_proven": None, "bots_net": 0, **evening.settlement}
        return in_reader_language(stored, currency, keeper=evening_pot_keeper(evening))
    return _settle(evening_nets(evening), currency, final=False, keeper=evening_pot_keeper(evening))


def _party_names() -> dict[str, str]:
    """The names of the parties that are no players, in the active language."""
    return {POT: str(POT_NAME), BOTS: str(BOTS_NAME)}


def in_reader_language(settled: Mapping[str, Any], currency: str, *, keeper: str) -> dict[str, Any]:
    """A stored settlement (written in the language of whoever closed the evening) with its
    sentences, and the names of the pot and the bots, in the active language: the amounts,
    keys and players' names are as stored."""
    parties = _party_names()
    payments = []
    for p in settled.get("payments", []):
        names = {p["from"]: p["from_name"], p["to"]: p["to_name"], **parties}
        payment = Payment(payer=p["from"], payee=p["to"], amount=p["amount"])
        payments.append(
            {
                **p,
                "from_name": names[p["from"]],
                "to_name": names[p["to"]],
                "sentence": _sentence(payment, names, currency, keeper),
            }
        )
    return {**settled, "payments": payments}


def _sentence(payment: Payment, names: Mapping[str, str], currency: str, keeper: str) -> str:
    """The payment as a sentence (``games.settlement.describe``), the pot named by it."""
    without_pot = {k: v for k, v in names.items() if k != POT}
    return describe(payment, without_pot, currency, pot_keeper=keeper)


def evening_pot_keeper(evening: Evening) -> str:
    """Who holds the evening's pot: its tables are the club's (games.settlement.pot_keeper)."""
    return pot_keeper(shared=shares_pot_at_close(evening_rules(evening)), club=True)


def _settle(
    evening_nets: EveningNets, currency: str, *, final: bool, keeper: str
) -> dict[str, Any]:
    nets, scores, bots = evening_nets.nets, evening_nets.scores, evening_nets.bots
    pot_net = -sum(nets.values()) - bots
    parties = {k: v for k, v in nets.items()}
    if pot_net:
        parties[POT] = pot_net
    if bots:
        parties[BOTS] = bots
    names = {**evening_nets.names, **_party_names()}
    answer = settle(parties)
    return {
        "final": final,
        "score_unit": evening_nets.score_unit,
        "players": [
            {
                "player": k,
                "name": names[k],
                "net": v,
                "score": None if scores is None else scores.get(k, 0),
            }
            for k, v in sorted(
                nets.items(),
                key=lambda kv: (-kv[1], -(scores or {}).get(kv[0], 0), names[kv[0]]),
            )
        ],
        "pot_net": pot_net,
        "bots_net": bots,
        "payments": [
            {
                "from": p.payer,
                "from_name": names[p.payer],
                "to": p.payee,
                "to_name": names[p.payee],
                "amount": p.amount,
                "sentence": _sentence(p, names, currency, keeper),
            }
            for p in answer.payments
        ],
        "payments_proven": answer.proven,
    }


def evening_close(*, user: User, evening_id: int, currency: str = "€") -> Evening:
    """Close every open table of the evening and settle it; all in one transaction: a table
    with a hand still being played or awaiting confirmation refuses, and nothing closes."""
    with transaction.atomic():
        evening = _lock_evening(evening_id)
        _manager(user, evening.club)
        if evening.rounds.filter(status=EveningRound.Status.PLANNED).exists():
            evening.rounds.filter(status=EveningRound.Status.PLANNED).delete()
        for link in evening.tables.select_related("table").order_by("id"):
            if link.table.status == Table.Status.OPEN:
                games.table_close(table_id=link.table_id, user=user)
        evening.settlement = _settle(
            evening_nets(evening), currency, final=True, keeper=evening_pot_keeper(evening)
        )
        evening.status = Evening.Status.CLOSED
        evening.closed_at = timezone.now()
        evening.save(update_fields=["settlement", "status", "closed_at"])
        evening.rounds.update(status=EveningRound.Status.CLOSED)
        evening_closed(evening=evening)
        live.evening_changed(evening.pk, "closed")
    return evening
