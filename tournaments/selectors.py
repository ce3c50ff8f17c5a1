"""Reads for tournaments, scoped to the caller. A tournament the caller may not see does not
exist for them (:class:`~tournaments.errors.TournamentNotFound`, 404); one they may see but
not run answers 403 on directors' operations."""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from clubs.models import Membership, User
from clubs.permissions import AnyUser
from games import rows
from games.models import SPLIT, Hand, LedgerEntry, Table
from games.rulesets import rule_set_for
from games.selectors import sitting_scores
from tournaments import permissions
from tournaments.errors import NotAllowed, TournamentNotFound
from tournaments.models import (
    Board,
    Entry,
    Invitation,
    LogEntry,
    Round,
    RoundSeat,
    RoundTable,
    StandingRow,
    TableTotals,
    Tournament,
)
from tournaments.names import entry_display_name, shown


def tournaments_for_user(*, user: AnyUser) -> QuerySet[Tournament]:
    """Tournaments the caller may see: listed ones, and those they run or entered."""
    qs = Tournament.objects.select_related("club")
    listed = Q(is_public=True) & ~Q(status=Tournament.Status.DRAFT)
    if not user.is_authenticated:
        return qs.filter(listed)
    if user.is_staff:
        return qs
    clubs = Membership.objects.filter(user_id=user.pk, role__in=Membership.MANAGERS).values(
        "club_id"
    )
    entered = Entry.objects.filter(user_id=user.pk).values("tournament_id")
    return qs.filter(
        listed | Q(directors=user.pk) | Q(club_id__in=clubs) | Q(pk__in=entered)
    ).distinct()


def tournament_for_user(*, user: AnyUser, tournament_id: int) -> Tournament:
    """The tournament if the caller may see it; 404 otherwise."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None or not permissions.can_see(user, tournament):
        raise TournamentNotFound()
    return tournament


_POLLED = rows.Columns(
    Tournament,
    "t",
    only=(
        "club",
        "slug",
        "is_public",
        "status",
        "scoring",
        "tiebreaks",
        "requested_version",
        "computed_version",
        "computed_at",
        "changed_at",
    ),
)
_POLLED_SQL = f"SELECT {_POLLED.sql} FROM {Tournament._meta.db_table} t WHERE t.id = %s"


def _polled_row(tournament_id: int) -> Tournament | None:
    found = rows.fetch(_POLLED_SQL, [tournament_id])
    return None if found is None else _POLLED.instance(found)


def tournament_polled(*, user: AnyUser, tournament_id: int) -> Tournament:
    """The tournament for the answers phones poll (standings, results, rounds): one plain
    query for the few columns their ETag and visibility need (the ORM's compilation cost more
    than running it: ``bench/tournaments_bench.py``); the other fields are deferred. Who may
    see an unlisted one is checked as in :func:`tournament_for_user`."""
    tournament = _polled_row(tournament_id)
    if tournament is None:
        raise TournamentNotFound()
    if not permissions.is_listed(tournament) and not permissions.can_see(user, tournament):
        raise TournamentNotFound()
    return tournament


_LISTED: dict[int, tuple[float, Tournament | None]] = {}
_LISTED_LOCK = threading.Lock()
LISTED_CACHE_SIZE = 1024


def tournament_listed(*, tournament_id: int) -> Tournament | None:
    """The tournament as :func:`tournament_polled` loads it, if anyone may see it (public and
    out of the draft state); None otherwise (the caller then answers the ordinary way).

    Hundreds of phones poll a tournament's standings during a round, so a process keeps what
    it read for ``PUBLIC_POLL_CACHE_SECONDS`` (1 s by default): each process then reads the
    tournament at most once a second however many spectators ask, and their answers (and
    ETags) are at most that much behind the database."""
    keep = settings.PUBLIC_POLL_CACHE_SECONDS
    now = time.monotonic()
    if keep > 0:
        with _LISTED_LOCK:
            cached = _LISTED.get(tournament_id)
        if cached is not None and cached[0] > now:
            return cached[1]
    tournament = _polled_row(tournament_id)
    if tournament is not None and not permissions.is_listed(tournament):
        tournament = None
    if keep > 0:
        with _LISTED_LOCK:
            if len(_LISTED) >= LISTED_CACHE_SIZE:
                _LISTED.clear()
            _LISTED[tournament_id] = (now + keep, tournament)
    return tournament


def tournament_for_director(*, user: AnyUser, tournament_id: int) -> Tournament:
    """The tournament if the caller runs it; 404 when they cannot see it, 403 when they can."""
    tournament = tournament_for_user(user=user, tournament_id=tournament_id)
    if not permissions.is_director(user, tournament):
        raise NotAllowed()
    return tournament


# ---------------------------------------------------------------------------------------------
# results and exports (never a deal; duplicate boards only once every table finished them)


def _counted_hands(
    t: Tournament, table_ids: list[int], withheld: dict[int, int] | None = None
) -> dict[int, list[dict[str, Any]]]:
    """Settled hands (numbered up to the round's deals) of the given tables; in duplicate,
    only the boards every table of their round has finished (``withheld``, when given, is
    filled with how many finished boards of each table wait for the others)."""
    from tournaments.models import Board

    hands: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = Hand.objects.filter(
        table_id__in=table_ids, status=Hand.Status.DONE, **in_round(t)
    ).order_by("table_id", "number")
    revealed: set[tuple[int, int]] | None = None
    if t.scoring == Tournament.Scoring.DUPLICATE:
        revealed = set(
            Board.objects.filter(
                round__tables__table_id__in=table_ids, revealed_at__isnull=False
            ).values_list("round__tables__table_id", "number")
        )
    for table_id, number, dealer, result in rows.values_list(
        "table_id", "number", "dealer", "result"
    ):
        if revealed is not None and (table_id, number) not in revealed:
            if withheld is not None:
                withheld[table_id] = withheld.get(table_id, 0) + 1
            continue
        hands[table_id].append({"number": number, "dealer": dealer, "result": result or {}})
    return hands


def _adjusted(t: Tournament, table_ids: list[int]) -> dict[int, list[dict[str, int]]]:
    """The directors' adjusted scores (amounts by seat) of the given tables' hands that a
    round's clock cut off; in duplicate, only of the boards revealed (as :func:`_counted_hands`
    counts hands)."""
    from tournaments.models import Board, HandAdjustment

    out: dict[int, list[dict[str, int]]] = defaultdict(list)
    rows = HandAdjustment.objects.filter(round_table__table_id__in=table_ids).values_list(
        "round_table__table_id", "round_table__round_id", "number", "amounts"
    )
    revealed: set[tuple[int, int]] | None = None
    if t.scoring == Tournament.Scoring.DUPLICATE:
        revealed = set(
            Board.objects.filter(
                round__tables__table_id__in=table_ids, revealed_at__isnull=False
            ).values_list("round_id", "number")
        )
    for table_id, round_id, number, amounts in rows:
        if revealed is None or (round_id, number) in revealed:
            out[table_id].append(amounts)
    return out


def hands_export(t: Tournament) -> list[dict[str, Any]]:
    """Every counted hand of the tournament, by round, table and number, with each seat's
    player and amount."""
    links = list(
        RoundTable.objects.filter(round__tournament=t)
        .select_related("round")
        .order_by("round__number", "number")
    )
    seats: dict[int, list[RoundSeat]] = defaultdict(list)
    for seat in RoundSeat.objects.filter(round__tournament=t).select_related("entry__user"):
        seats[seat.round_table_id].append(seat)
    hands = _counted_hands(t, [link.table_id for link in links])
    rule_set = rule_set_for(t.rules)
    out = []
    for link in links:
        at_table = sorted(seats[link.pk], key=lambda s: s.position)
        for hand in hands[link.table_id]:
            result = hand["result"]
            delta = result.get("delta") or {}
            game = result.get("game")
            statistics = rule_set.statistics(result)
            out.append(
                {
                    "round": link.round.number,
                    "table": link.number,
                    "games_table": link.table_id,
                    "hand": hand["number"],
                    "dealer": hand["dealer"],
                    "declarer": statistics["declarer"],
                    # every rule set's game forms name themselves by ``type`` (Shapes.games)
                    "game": game.get("type") if isinstance(game, dict) else game,
                    "made": statistics["made"],
                    "players": [
                        {
                            "seat": s.seat,
                            "entry": s.entry_id,
                            "name": s.entry.name,
                            "display_name": entry_display_name(s.entry),
                            "amount": int(delta.get(s.seat, 0)),
                        }
                        for s in at_table
                    ],
                }
            )
    return out


def round_deals(tournament: Tournament) -> int | None:
    """The deals that count towards a round where the tournament's rule set keeps rounds at a
    table (``RuleSet.round_deals``, not counting any deals it plays besides), ``None`` where a
    round's table plays ``deals_per_round`` hands."""
    return rule_set_for(tournament.rules).round_deals


def hand_cap(tournament: Tournament) -> int | None:
    """The highest hand number of a round's table that counts: ``deals_per_round``; none
    (``None``) where the rule set keeps rounds, whose table plays until its round is complete
    (the hand limit stops it there, ``tournaments.managers``)."""
    return None if round_deals(tournament) is not None else tournament.deals_per_round


def in_round(tournament: Tournament) -> dict[str, int]:
    """The filter of a round's counted hands (:func:`hand_cap`) for ``Hand`` querysets."""
    cap = hand_cap(tournament)
    return {} if cap is None else {"number__lte": cap}


def score_price(tournament: Tournament) -> int:
    """Cents per unit of the tournament's offline totals: the value of the rules' option that
    prices its rule set's ``score_unit`` (``RuleSet.point_price``); 1 where totals are money
    or the rules name no price."""
    if score_unit(tournament) is None:
        return 1
    option = rule_set_for(tournament.rules).point_price
    return int((tournament.rules.get(option) if option else None) or 1)


def score_unit(tournament: Tournament) -> str | None:
    """The unit a table of the tournament scores its deals together in (``RuleSet.score_unit``),
    ``None`` where a table's amount is its money."""
    return rule_set_for(tournament.rules).score_unit


def player_rounds(t: Tournament, entry: Entry) -> list[dict[str, Any]]:
    """The entry's rounds: table, seat, opponents, amount there (None while nothing of it
    counts: duplicate boards all waiting for other tables), the round's points (exact text,
    as stored) and the duplicate boards of the table still ``pending``."""
    from tournaments.models import StandingRow, TableTotals

    mine = list(
        RoundSeat.objects.filter(entry=entry)
        .select_related("round", "round_table")
        .order_by("round__number")
    )
    by_round = (
        StandingRow.objects.filter(tournament=t, entry=entry)
        .values_list("by_round", flat=True)
        .first()
        or {}
    )
    withheld: dict[int, int] = {}
    others: dict[int, list[str]] = defaultdict(list)  # by display name (tournaments.names)
    for table_id, name, display_name in (
        RoundSeat.objects.filter(round_table__in=[s.round_table_id for s in mine])
        .exclude(entry=entry)
        .order_by("position")
        .values_list("round_table_id", "entry__name", "entry__user__display_name")
    ):
        others[table_id].append(shown(name, display_name))
    if t.results == Tournament.Results.TOTALS:
        totals = {
            row.round_table_id: row.amounts
            for row in TableTotals.objects.filter(
                round_table__in=[s.round_table_id for s in mine], confirmed=True
            )
        }
        amounts = {
            s.round_table_id: totals[s.round_table_id].get(s.seat)
            if s.round_table_id in totals
            else None
            for s in mine
        }
    else:
        table_ids = [s.round_table.table_id for s in mine]
        hands = _counted_hands(t, table_ids, withheld)
        shares: dict[tuple[int, str], int] = defaultdict(int)
        if t.scoring != Tournament.Scoring.DUPLICATE:
            for table_id, payee, amount in LedgerEntry.objects.filter(
                table_id__in=table_ids, reason=SPLIT
            ).values_list("table_id", "payee", "amount"):
                shares[(table_id, payee)] += amount
        scores: dict[int, dict[str, int]] = {}
        scored = score_unit(t) is not None  # a score over the sitting or summed over its deals
        if scored:
            scores = sitting_scores(
                Table.objects.filter(pk__in=table_ids).prefetch_related("seats"),
                up_to=hand_cap(t),
            )
        adjusted = _adjusted(t, table_ids)
        amounts = {
            s.round_table_id: sum(
                int((h["result"].get("delta") or {}).get(s.seat, 0))
                for h in hands[s.round_table.table_id]
                if not scored
            )
            + shares[(s.round_table.table_id, s.seat)]
            + scores.get(s.round_table.table_id, {}).get(s.seat, 0)
            + sum(int(a.get(s.seat, 0)) for a in adjusted[s.round_table.table_id])
            if hands[s.round_table.table_id]
            or adjusted[s.round_table.table_id]
            or not withheld.get(s.round_table.table_id)
            else None
            for s in mine
        }
    return [
        {
            "round": s.round.number,
            "table": s.round_table.number,
            "games_table": s.round_table.table_id,
            "seat": s.seat,
            "opponents": others[s.round_table_id],
            "amount": amounts.get(s.round_table_id),
            "points": by_round.get(str(s.round.number)),
            "pending": withheld.get(s.round_table.table_id, 0),
        }
        for s in mine
    ]


# ---------------------------------------------------------------------------------------------
# what the API reads besides the tournament


def log_of(*, tournament: Tournament) -> QuerySet[LogEntry]:
    """The tournament's audit log, newest first."""
    return LogEntry.objects.filter(tournament=tournament).order_by("-at", "-id")


def entries_of(*, tournament: Tournament) -> QuerySet[Entry]:
    """The tournament's entries in order of entry, each with its account (its display name)."""
    return (
        Entry.objects.filter(tournament=tournament)
        .select_related("user")
        .order_by("registered_at", "id")
    )


def entry_in_tournament(*, tournament: Tournament, entry_id: int) -> Entry:
    """One entry of the tournament, with its tournament; 404 when it has no such entry."""
    entry = (
        Entry.objects.filter(pk=entry_id, tournament=tournament)
        .select_related("tournament")
        .first()
    )
    if entry is None:
        raise TournamentNotFound(_("There is no such entry."))
    return entry


def entry_of_user(*, tournament: Tournament, user: User) -> Entry | None:
    """The user's entry in the tournament, if they entered."""
    return Entry.objects.filter(tournament=tournament, user=user).first()


def entered_tournaments(*, user: User) -> QuerySet[Tournament]:
    """The tournaments the user entered, with their directors, newest first."""
    entered = Entry.objects.filter(user=user).values("tournament_id")
    return (
        Tournament.objects.filter(pk__in=entered)
        .prefetch_related("directors")
        .order_by("-starts_on", "-created_at", "-id")
    )


def standing_of(*, tournament: Tournament, entry: Entry) -> Mapping[str, Any] | None:
    """The entry's ``rank`` and ``points`` in the stored standings, if it has a row."""
    return (
        StandingRow.objects.filter(tournament=tournament, entry=entry)
        .values("rank", "points")
        .first()
    )


def unfinished_round_of(*, tournament: Tournament) -> Round | None:
    """The newest round that is neither closed nor failed (being seated, seated, playing)."""
    return (
        tournament.rounds.exclude(status__in=(Round.Status.CLOSED, Round.Status.FAILED))
        .order_by("-number")
        .first()
    )


def round_seat_of(*, round: Round, entry: Entry) -> RoundSeat | None:
    """The entry's seat in the round, with its table, if it plays there."""
    return RoundSeat.objects.filter(round=round, entry=entry).select_related("round_table").first()


def round_table_of(*, round: Round, number: int) -> RoundTable:
    """The round's table with this number, with its round; 404 when there is none."""
    link = RoundTable.objects.filter(round=round, number=number).select_related("round").first()
    if link is None:
        raise TournamentNotFound(_("There is no such table in this round."))
    return link


def table_totals_of(*, round_table: RoundTable) -> TableTotals | None:
    """The totals entered for an offline table, if any."""
    return TableTotals.objects.filter(round_table=round_table).first()


def boards_of(*, round: Round) -> QuerySet[Board]:
    """The round's boards (duplicate deals) by number."""
    return Board.objects.filter(round=round).order_by("number")


def invitations_for_user(*, user: User) -> QuerySet[Invitation]:
    """The user's tournament invitations not answered yet, with their tournaments (and
    clubs) and who asked, newest first."""
    return (
        Invitation.objects.filter(user=user, status=Invitation.Status.INVITED)
        .select_related("tournament__club", "invited_by")
        .order_by("-created_at", "-id")
    )
