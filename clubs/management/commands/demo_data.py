"""``manage.py demo_data``: idempotently create the demo accounts, a club and its tables.

What it makes (nothing, when it finds the club's tables already there):

- 13 accounts: the admin and the players anna, bert, carl, dave and the eight more members
  of :data:`clubs.management.demo_evenings.MORE_PLAYERS`;
- the club "Wiener Préférence-Runde" (anna owner, the others members);
- "Dienstagsrunde": a public recorded table of the club, anna, bert and carl (G 1 €, cap 3 €),
  with a dozen score-sheet entries covering every kind of result (:data:`DIENSTAG_HANDS`); a
  table of its own, in no evening;
- "Viererrunde": a recorded table with dave as a fourth seat (the dealer sits out);
- "Online-Tisch": a hosted table of anna and two random bots with one hand dealt;
- club life (:mod:`clubs.management.demo_evenings`): a season with league points, last week's
  evening with three rounds seated by the seating service, hands at every table, closed and
  settled, standings and ratings, and next week's evening with a waitlist.

Every hand goes through ``games.services`` (the engine checks and settles it), so the demo is
exactly what the API would have stored. Celery's line per task is held back while it loads;
it ends with a summary of the logins and ids (README, "Quick start").
"""

from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

import engine
from clubs.management import demo_evenings
from clubs.management.quiet import quiet_task_logs
from clubs.models import Club, Membership, User
from games import services
from games.models import Seat, Table
from games.random_entries import random_entry

DEMO_ADMIN = ("admin", "admin-demo-1")
DEMO_PLAYERS = ("anna", "bert", "carl", "dave")
DEMO_PLAYER_PASSWORD = "demo-pass-1"
#: Every player account, the club's twelve members.
ALL_PLAYERS = (*DEMO_PLAYERS, *demo_evenings.MORE_PLAYERS)

CLUB_NAME = "Wiener Préférence-Runde"
RECORDED_TABLE = "Dienstagsrunde"
FOUR_SEAT_TABLE = "Viererrunde"
HOSTED_TABLE = "Online-Tisch"
RULE_SET_TABLE = "Regeln: {variant}"
"""One recorded table per rule set beyond the club's (wien), named by its variant."""
RULE_SET_HANDS = 6
BOTS = ("bot-1", "bot-2")
RULES = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}


def _suit(level: str, talon: bool = True) -> dict[str, Any]:
    return {"type": "suit", "level": level, "talon": talon}


# Seats anna, bert, carl; carl deals first, so hand n is dealt by carl, anna, bert, carl, ...
# and the server fills in the pot. Each comment gives the dealer, the pot before the deal and
# the stake S (wien.md: S = min(pot + G, cap)). With pot 0 both defenders must play.
DIENSTAG_HANDS: tuple[dict[str, Any], ...] = (
    # 1 carl, pot 0, S 1 €: anna falls with 5 tricks (fallen declarer).
    {
        "game": _suit("S"),
        "declarer": "anna",
        "defence": {"bert": "play", "carl": "play"},
        "tricks": {"anna": 5, "bert": 3, "carl": 2},
    },
    # 2 anna, pot 2 €, S 3 €: bert makes diamonds; anna defends with 1 trick and falls.
    {
        "game": _suit("D"),
        "declarer": "bert",
        "defence": {"carl": "play", "anna": "play"},
        "tricks": {"bert": 7, "carl": 2, "anna": 1},
    },
    # 3 bert, pot 3 €, S 3 €: anna invites bert against carl's clubs; together 4 tricks.
    {
        "game": _suit("C"),
        "declarer": "carl",
        "defence": {"anna": "invite", "bert": "invited"},
        "tricks": {"carl": 6, "anna": 2, "bert": 2},
    },
    # 4 carl, pot 1 €, S 2 €: anna makes hearts after the talon; carl stays home.
    {
        "game": _suit("H"),
        "declarer": "anna",
        "defence": {"bert": "play", "carl": "home"},
        "tricks": {"anna": 7, "bert": 3},
    },
    # 5 anna, pot 0, S 1 €: bert's Geschäft in spades (no talon), both must play.
    {
        "game": _suit("S", talon=False),
        "declarer": "bert",
        "defence": {"carl": "play", "anna": "play"},
        "tricks": {"bert": 6, "carl": 2, "anna": 2},
    },
    # 6 bert, pot 0: everybody passed, Ausfechten 4-4-2; carl and anna pay 1 € each.
    {"game": {"type": "ausfechten"}, "tricks": {"carl": 4, "anna": 4, "bert": 2}},
    # 7 carl, pot 3 €, S 3 €: anna's diamonds, both defenders stay home.
    {
        "game": _suit("D"),
        "declarer": "anna",
        "defence": {"bert": "home", "carl": "home"},
        "tricks": {},
    },
    # 8 anna, pot 1 €, S 2 €: bert's herz, carl plays, anna home; the herz premium.
    {
        "game": _suit("H", talon=False),
        "declarer": "bert",
        "defence": {"carl": "play", "anna": "home"},
        "tricks": {"bert": 6, "carl": 4},
    },
    # 9 bert, pot 0, S 1 €: carl's Bettler (5) made: no trick in ten.
    {
        "game": {"type": "premium", "level": 5, "hand": False},
        "declarer": "carl",
        "tricks": {"carl": 0, "anna": 5, "bert": 5},
    },
    # 10 carl, pot 0, S 1 €: bert's 8 von der Hand lost at the fourth trick (k = 5).
    {
        "game": {"type": "premium", "level": 8, "hand": True},
        "declarer": "bert",
        "tricks": {"bert": 3, "anna": 1, "carl": 0},
    },
    # 11 anna, pot 2 €, S 3 €: bert's clubs, carl alone, anna home; split agreed at 7-3.
    {
        "game": _suit("C"),
        "declarer": "bert",
        "defence": {"carl": "play", "anna": "home"},
        "tricks": {"bert": 7, "carl": 3},
        "negotiated": True,
    },
    # 12 bert, pot 0, S 1 €: carl's spades; bert defends with 1 trick and falls.
    {
        "game": _suit("S"),
        "declarer": "carl",
        "defence": {"anna": "play", "bert": "play"},
        "tricks": {"carl": 6, "anna": 3, "bert": 1},
    },
)

# Seats anna, bert, carl, dave; dave deals first and sits out, then anna, then bert.
VIERER_HANDS: tuple[dict[str, Any], ...] = (
    # 1 dave (out), pot 0: anna's clubs made, both defenders play.
    {
        "game": _suit("C"),
        "declarer": "anna",
        "defence": {"bert": "play", "carl": "play"},
        "tricks": {"anna": 6, "bert": 2, "carl": 2},
    },
    # 2 anna (out), pot 0: dave's diamonds fall with 4 tricks.
    {
        "game": _suit("D"),
        "declarer": "dave",
        "defence": {"bert": "play", "carl": "play"},
        "tricks": {"dave": 4, "bert": 3, "carl": 3},
    },
    # 3 bert (out), pot 2 €, S 3 €: dave's hearts; carl plays alone and falls, anna home.
    {
        "game": _suit("H"),
        "declarer": "dave",
        "defence": {"anna": "home", "carl": "play"},
        "tricks": {"dave": 8, "carl": 2},
    },
)


def _users() -> tuple[dict[str, User], int]:
    """The admin and every player (made when missing); how many were made."""
    username, password = DEMO_ADMIN
    admin, created = User.objects.get_or_create(
        username=username,
        defaults={"is_staff": True, "is_superuser": True, "display_name": "Demo Admin"},
    )
    if created:
        admin.set_password(password)
        admin.save(update_fields=["password"])
    made = int(created)
    players = {}
    for name in ALL_PLAYERS:
        player, created = User.objects.get_or_create(
            username=name, defaults={"display_name": name.capitalize()}
        )
        if created:
            player.set_password(DEMO_PLAYER_PASSWORD)
            player.save(update_fields=["password"])
            made += 1
        players[name] = player
    return players, made


def _club(players: dict[str, User]) -> Club:
    club = Club.objects.filter(name=CLUB_NAME).order_by("id").first()
    if club is None:
        club = Club.objects.create(
            name=CLUB_NAME,
            slug="wiener-preference-runde",
            city="Wien",
            is_public=True,
            default_rules=RULES,
        )
    for name in DEMO_PLAYERS:
        role = Membership.Role.OWNER if name == "anna" else Membership.Role.MEMBER
        Membership.objects.get_or_create(club=club, user=players[name], defaults={"role": role})
    return club


def _recorded_table(
    *,
    name: str,
    players: dict[str, User],
    keys: tuple[str, ...],
    first_dealer: str,
    hands: tuple[dict[str, Any], ...],
    club: Club,
) -> Table:
    table = Table.objects.filter(name=name, club=club).order_by("id").first()
    if table is not None:
        return table
    anna = players["anna"]
    table = services.table_create(
        user=anna,
        name=name,
        mode=Table.Mode.RECORDED,
        rules=RULES,
        seats=[services.SeatSpec(key=k, kind=Seat.Kind.USER, user=players[k]) for k in keys],
        first_dealer=first_dealer,
        club_id=club.pk,
        is_public=True,
    )
    for entry in hands:
        services.table_record_hand(table_id=table.pk, user=anna, entry=entry)
    return table


def _rule_set_tables(players: dict[str, User], club: Club) -> list[Table]:
    """A recorded table of anna, bert and carl (and dave where four play, Doppelkopf) for every
    registered rule set but the club's,
    with a few hands the engine's random bot played (the same ones on every run)."""
    tables = []
    for rule_set in engine.rule_sets():
        if rule_set.name == RULES["variant"]:
            continue
        name = RULE_SET_TABLE.format(variant=rule_set.name)
        table = Table.objects.filter(name=name, club=club).order_by("id").first()
        if table is None:
            anna = players["anna"]
            keys = ("anna", "bert", "carl", "dave")[: min(rule_set.table.seats)]
            table = services.table_create(
                user=anna,
                name=name,
                mode=Table.Mode.RECORDED,
                rules=rule_set.examples[0],
                seats=[
                    services.SeatSpec(key=k, kind=Seat.Kind.USER, user=players[k]) for k in keys
                ],
                first_dealer=keys[-1],
                club_id=club.pk,
                is_public=True,
            )
            rng = random.Random(rule_set.name)
            for number in range(1, RULE_SET_HANDS + 1):
                entry = random_entry(table, rng, number)
                services.table_record_hand(table_id=table.pk, user=anna, entry=entry)
        tables.append(table)
    return tables


def _hosted_table(players: dict[str, User]) -> Table:
    anna = players["anna"]
    table = Table.objects.filter(name=HOSTED_TABLE, created_by=anna).order_by("id").first()
    if table is not None:
        return table
    bots = [services.SeatSpec(key=k, kind=Seat.Kind.BOT, bot_level="random") for k in BOTS]
    table = services.table_create(
        user=anna,
        name=HOSTED_TABLE,
        mode=Table.Mode.HOSTED,
        rules=RULES,
        seats=[services.SeatSpec(key="anna", kind=Seat.Kind.USER, user=anna), *bots],
        # anna deals and is rearhand: the bots call first (their tasks run once this
        # command commits), then it is anna's turn.
        first_dealer="anna",
    )
    services.hand_start(table_id=table.pk, user=anna)
    return table


class Command(BaseCommand):
    help = (
        "Create the demo accounts (admin/admin-demo-1; anna, bert, carl, dave and eight more "
        "members/demo-pass-1), the club, its tables, last and next week's evenings and a "
        "season (idempotent); prints the logins and ids."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        # The hosted hand's bots move on commit (at once without a broker), inside the quiet.
        with quiet_task_logs(), transaction.atomic():
            players, made = _users()
            club = _club(players)
            recorded = _recorded_table(
                name=RECORDED_TABLE,
                players=players,
                keys=("anna", "bert", "carl"),
                first_dealer="carl",
                hands=DIENSTAG_HANDS,
                club=club,
            )
            four = _recorded_table(
                name=FOUR_SEAT_TABLE,
                players=players,
                keys=("anna", "bert", "carl", "dave"),
                first_dealer="dave",
                hands=VIERER_HANDS,
                club=club,
            )
            hosted = _hosted_table(players)
            rule_set_tables = _rule_set_tables(players, club)
            latest = hosted.hands.order_by("-number").values_list("number", flat=True).first()
            club_life = demo_evenings.build(club, players)
        accounts = len(players) + 1
        admin, password = DEMO_ADMIN
        self.stdout.write(
            "\n".join(
                [
                    "",
                    f"Demo data ready: {accounts} accounts ({made} created, "
                    f"{accounts - made} already there).",
                    f"  Logins:     {admin} / {password} (staff: the admin site); "
                    f"anna (club owner), {', '.join(ALL_PLAYERS[1:7])},",
                    f"              {', '.join(ALL_PLAYERS[7:])} / {DEMO_PLAYER_PASSWORD}",
                    f"  Club:       {CLUB_NAME} (id {club.pk}; anna owns it, "
                    f"{club.memberships.count()} members): GET /api/v1/clubs/{club.pk}/",
                    f"  Tables:     recorded table {recorded.pk} '{RECORDED_TABLE}', "
                    f"{recorded.hands.count()} hands: GET /api/v1/tables/{recorded.pk}/sheet/",
                    f"              4-seat table {four.pk} '{FOUR_SEAT_TABLE}' (dealer sits out):"
                    f" GET /api/v1/tables/{four.pk}/sheet/",
                    f"              hosted table {hosted.pk} '{HOSTED_TABLE}' (anna + 2 bots), "
                    f"log in as anna: GET /api/v1/tables/{hosted.pk}/hands/{latest}/view/",
                    f"              one table per other rule set (python -m engine rules), "
                    f"{RULE_SET_HANDS} hands each:",
                    *(
                        f"              table {t.pk} '{t.name}': GET /api/v1/tables/{t.pk}/sheet/"
                        for t in rule_set_tables
                    ),
                    *club_life,
                ]
            )
        )
