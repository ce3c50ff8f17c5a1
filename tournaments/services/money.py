"""The money settlement of a tournament played for real stakes: each player's net over all
their tables (from each closed games table's settlement, or an offline table's confirmed
totals, and the directors' adjusted scores) and the fewest payments that settle them, with
the pots as one more party when money stayed in them. Players are named as the reader reads
them (:mod:`tournaments.names`), and an entrant also reads the names of those they pay or are
paid by: they must find each other."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.models import Table
from games.settlement import settle
from tournaments.errors import TournamentConflict
from tournaments.models import Entry, HandAdjustment, RoundSeat, TableTotals, Tournament
from tournaments.names import Names, every_name
from tournaments.selectors import score_price

POT = "pot"


def tournament_settlement(t: Tournament, *, names: Names | None = None) -> dict[str, Any]:
    """Nets by entry over the closed tables and the payments; 409 when not played for money.
    Players named as ``names``' reader reads them (every name without one), and the other
    party of each of the reader's own payments by name."""
    if not t.real_money:
        raise TournamentConflict(
            _("This tournament plays for points, not money: there is nothing to settle."),
            code="not_money",
        )
    seats: dict[int, dict[str, int]] = defaultdict(dict)
    for table_id, seat, entry in RoundSeat.objects.filter(round__tournament=t).values_list(
        "round_table__table_id", "seat", "entry_id"
    ):
        seats[table_id][seat] = entry
    nets: dict[int, int] = defaultdict(int)
    pot = 0
    # Offline totals are in the tournament's unit (its rule set's score_unit), each worth the
    # price its rules give it (the rule set's point_price option).
    price = score_price(t)
    for _link, table_id, amounts in TableTotals.objects.filter(
        round_table__round__tournament=t, confirmed=True
    ).values_list("round_table_id", "round_table__table_id", "amounts"):
        for seat, amount in amounts.items():
            if seat in seats[table_id]:
                nets[seats[table_id][seat]] += int(amount) * price
    # A director's adjusted score of a hand a round's clock cut off is in the same unit.
    for table_id, amounts in HandAdjustment.objects.filter(
        round_table__round__tournament=t
    ).values_list("round_table__table_id", "amounts"):
        for seat, amount in amounts.items():
            if seat in seats[table_id]:
                nets[seats[table_id][seat]] += int(amount) * price
    closing = Table.objects.filter(
        round_link__round__tournament=t, status=Table.Status.CLOSED
    ).values_list("pk", "closing")
    for table_id, settled in closing:
        for seat, net in (settled or {}).get("nets", {}).items():
            if seat in seats[table_id]:
                nets[seats[table_id][seat]] += int(net)
        pot += int((settled or {}).get("pot_net", 0))
    entered = dict(Entry.objects.filter(tournament=t).values_list("pk", "name"))
    parties: dict[str, int] = {f"e{entry}": net for entry, net in nets.items() if net}
    if pot:
        parties[POT] = pot
    answer = settle(parties)

    mine = {f"e{entry}" for entry in (names.own_entries if names is not None else ())}
    others = {
        int(other[1:])
        for p in answer.payments
        for party, other in ((p.payer, p.payee), (p.payee, p.payer))
        if party in mine and other != POT
    }
    shown = (names or every_name(t)).with_named(others)
    pot_name = pgettext("the settlement's party", "pot")

    def player(entry: int) -> dict[str, Any]:
        return shown.player({"entry": entry, "name": entered.get(entry, "")})

    def who(party: str) -> dict[str, Any]:
        if party == POT:
            # the name stays the machine's word; the display name is the reader's
            return {"entry": None, "name": POT, "display_name": pot_name}
        return player(int(party[1:]))

    return {
        "tournament": t.pk,
        "final": t.status == Tournament.Status.FINISHED,
        "nets": [
            {**player(entry), "net": net}
            for entry, net in sorted(nets.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
        "pot": pot,
        "payments": [
            {"from": who(p.payer), "to": who(p.payee), "amount": p.amount} for p in answer.payments
        ],
        "payments_proven": answer.proven,
    }
