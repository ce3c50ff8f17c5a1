"""Tournaments: entries, rounds and their tables, results, stored standings, webhooks.

Terms: a *tournament* (Turnier) is run by its *directors* (Turnierleitung); a player's
*entry* (Nennung) registers, may wait on the waitlist, checks in, plays rounds and may
withdraw; a *round* (Runde) seats every active entry at tables of 3 or 4 (games tables,
linked by :class:`RoundTable`, with each seat's entry in :class:`RoundSeat`); a table's
*totals* (:class:`TableTotals`) are its result when the table plays fully offline; a *board*
(:class:`Board`) is one deal every table of a duplicate round plays. Standings are computed by
the worker and stored (:class:`StandingRow`); every command leaves a :class:`LogEntry`.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy

from clubs.models.people import default_rules


class Tournament(models.Model):
    """A tournament: its format, fixed rules, lifecycle state and standings version."""

    class Status(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("tournament status", "Draft")
        REGISTRATION = "registration", pgettext_lazy("tournament status", "Registration open")
        CHECK_IN = "check_in", pgettext_lazy("tournament status", "Check-in")
        RUNNING = "running", pgettext_lazy("tournament status", "Running")
        FINISHED = "finished", pgettext_lazy("tournament status", "Finished")

    class Seating(models.TextChoices):
        RANDOM = "random", pgettext_lazy("seating method", "Random")
        FEWEST_REPEATS = (
            "fewest_repeats",
            pgettext_lazy("seating method", "Fewest repeated opponents"),
        )
        SWISS = "swiss", pgettext_lazy("seating method", "Swiss (by standings)")

    class Scoring(models.TextChoices):
        BALANCE = "balance", pgettext_lazy("scoring", "Balance")
        TABLE_RANK = "table_rank", pgettext_lazy("scoring", "Table-rank points")
        DUPLICATE = "duplicate", pgettext_lazy("scoring", "Duplicate matchpoints")

    class Results(models.TextChoices):
        HOSTED = "hosted", pgettext_lazy("how results come in", "Hosted hands")
        RECORDED = "recorded", pgettext_lazy("how results come in", "Recorded score sheets")
        TOTALS = (
            "totals",
            pgettext_lazy("how results come in", "Table totals, confirmed by the players"),
        )

    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        related_name="tournaments",
        null=True,
        blank=True,
    )
    name = models.CharField(max_length=150)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    venue = models.CharField(max_length=200, blank=True)
    timezone = models.CharField(max_length=64, default="Europe/Vienna")
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    is_public = models.BooleanField(default=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_tournaments", blank=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    rules = models.JSONField(
        default=default_rules,
        help_text="The engine's rules object, fixed; it always names its rule set (variant).",
    )
    real_money = models.BooleanField(
        default=False, help_text="Whether the stakes are paid: the money settlement applies."
    )
    rounds_planned = models.PositiveSmallIntegerField(default=1)
    deals_per_round = models.PositiveSmallIntegerField(default=12)
    seating = models.CharField(max_length=16, choices=Seating.choices, default=Seating.RANDOM)
    scoring = models.CharField(max_length=16, choices=Scoring.choices, default=Scoring.BALANCE)
    results = models.CharField(max_length=16, choices=Results.choices, default=Results.RECORDED)
    tiebreaks = models.JSONField(default=list, blank=True)
    time_control = models.JSONField(
        null=True,
        blank=True,
        help_text="The clock of the hosted tables of rounds seated from now on "
        "(games.clock.TimeControl's fields); null: none.",
    )
    round_minutes = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Hosted rounds: minutes a round lasts from its start (its clock); null: none.",
    )
    round_clock_tricks = models.PositiveSmallIntegerField(
        default=3,
        help_text="When a round's clock runs out, a hand in card play with at most this many "
        "tricks to play ends by double dummy; the others wait for an adjusted score.",
    )
    lots_seed = models.BigIntegerField(default=0, help_text="The recorded seed of the lots.")
    capacity = models.PositiveIntegerField(null=True, blank=True)
    entry_deadline = models.DateTimeField(null=True, blank=True)
    prizes = models.JSONField(
        default=list, blank=True, help_text="Prize by final rank (minor units), first first."
    )
    requested_version = models.PositiveIntegerField(default=0)
    computed_version = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)
    computations = models.PositiveIntegerField(default=0)
    changed_at = models.DateTimeField(
        auto_now=True, help_text="Last change of anything the public pages show."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player's entry: a user, or a person known by name (a substitute)."""

    class Status(models.TextChoices):
        REGISTERED = "registered", pgettext_lazy("entry status", "Registered")
        WAITLISTED = "waitlisted", pgettext_lazy("entry status", "On the waitlist")
        CHECKED_IN = "checked_in", pgettext_lazy("entry status", "Checked in")
        WITHDRAWN = "withdrawn", pgettext_lazy("entry status", "Withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_entries",
    )
    name = models.CharField(max_length=150)
    status = models.CharField(max_length=16, choices=Status.choices)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    first_round = models.PositiveSmallIntegerField(
        default=1, help_text="The first round the entry plays (late entries: later)."
    )
    last_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The last round played before withdrawing."
    )

    class Meta:
        ordering = ("tournament", "registered_at", "id")
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=("tournament", "user"),
                condition=models.Q(user__isnull=False),
                name="entry_unique_user",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.tournament})"


class Invitation(models.Model):
    """A director's invitation to someone who shares no club with them (``permissions
    .may_add_directly``): to direct the tournament or to play in it. Nothing happens until the
    person accepts (then they are a director, or an entry as if a director had added them
    then); they may decline. Only they see it (``GET /api/v1/me/tournament-invitations/``)."""

    class Role(models.TextChoices):
        DIRECTOR = "director", pgettext_lazy("invitation role", "Director")
        ENTRANT = "entrant", pgettext_lazy("invitation role", "Entrant")

    class Status(models.TextChoices):
        INVITED = "invited", pgettext_lazy("invitation status", "Invited")
        ACCEPTED = "accepted", pgettext_lazy("invitation status", "Accepted")
        DECLINED = "declined", pgettext_lazy("invitation status", "Declined")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_invitations"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    checked_in = models.BooleanField(
        default=True, help_text="Entrants: checked in on accepting (as the director asked)."
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.INVITED)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        verbose_name = "tournament invitation"
        constraints = [
            models.UniqueConstraint(
                fields=("tournament", "user", "role"),
                condition=models.Q(status="invited"),
                name="tournament_invitation_one_open",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.tournament} as {self.role} ({self.status})"


class Round(models.Model):
    """One round of a tournament."""

    class Status(models.TextChoices):
        SEATING = "seating", pgettext_lazy("round status", "Being seated")
        SEATED = "seated", pgettext_lazy("round status", "Seated")
        PLAYING = "playing", pgettext_lazy("round status", "Playing")
        CLOSED = "closed", pgettext_lazy("round status", "Closed")
        FAILED = "failed", pgettext_lazy("round status", "Seating failed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SEATING)
    seating = models.CharField(max_length=16, choices=Tournament.Seating.choices, default="random")
    seed = models.BigIntegerField(default=0)
    byes = models.JSONField(default=list, blank=True, help_text="Entry ids sitting out.")
    bots = models.PositiveSmallIntegerField(
        default=0, help_text="Bots filling seats this round (hosted tables), never entrants."
    )
    bot_level = models.CharField(max_length=16, blank=True, help_text="The bots' level.")
    plan = models.JSONField(null=True, blank=True, help_text="How the seating was chosen.")
    error = models.TextField(blank=True, help_text="Why seating failed.")
    seated_at = models.DateTimeField(null=True, blank=True)
    starts_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the director means to start it (the players' reminders); null: none.",
    )
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the round's clock runs out (from round_minutes at its start, or set by "
        "a director); null: no clock.",
    )
    ran_out_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the server found the round's clock run out and ended its hands.",
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("tournament", "number")
        constraints = [
            models.UniqueConstraint(fields=("tournament", "number"), name="round_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class RoundTable(models.Model):
    """A games table played in a tournament round, as table ``number``."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField("games.Table", on_delete=models.CASCADE, related_name="round_link")
    reported = models.CharField(
        max_length=64, blank=True, help_text="Digest of the result last sent as result_entered."
    )
    revision = models.PositiveIntegerField(
        default=0, help_text="How many times the table's result changed (result_entered)."
    )

    class Meta:
        ordering = ("round", "number")
        constraints = [
            models.UniqueConstraint(fields=("round", "number"), name="round_table_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class RoundSeat(models.Model):
    """Who sits where: an entry at a round's table, at seat ``position`` (key ``seat``)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    round_table = models.ForeignKey(RoundTable, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    seat = models.SlugField(max_length=40)

    class Meta:
        ordering = ("round", "round_table", "position")
        constraints = [
            models.UniqueConstraint(fields=("round", "entry"), name="round_seat_unique_entry")
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} at {self.round_table_id}, seat {self.seat}"


class TableTotals(models.Model):
    """An offline table's result: each seat's total, confirmed by every player at it."""

    round_table = models.OneToOneField(RoundTable, on_delete=models.CASCADE, related_name="totals")
    amounts = models.JSONField(help_text="Total by seat key; they sum to zero.")
    declarer_wins = models.JSONField(default=dict, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    confirmed_by = models.JSONField(default=list, blank=True, help_text="Entry ids confirmed.")
    confirmed = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "table totals"
        verbose_name_plural = "table totals"

    def __str__(self) -> str:
        return f"totals of {self.round_table_id} (v{self.version})"


class HandAdjustment(models.Model):
    """A director's adjusted score for a hosted hand that a round's clock cut off: the hand was
    taken back at its games table (``games.services.hand_abandon``) and these amounts, which
    sum to zero over the table's seats, count instead, in the table's unit (docs/tournaments.md,
    "Round clocks")."""

    round_table = models.ForeignKey(
        RoundTable, on_delete=models.CASCADE, related_name="adjustments"
    )
    number = models.PositiveSmallIntegerField(help_text="The hand's number at its table.")
    dealer = models.SlugField(max_length=40, help_text="The hand's dealer (a seat key).")
    amounts = models.JSONField(help_text="By seat key; they sum to zero.")
    reason = models.CharField(max_length=500, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("round_table", "number")
        constraints = [
            models.UniqueConstraint(
                fields=("round_table", "number"), name="hand_adjustment_unique_number"
            )
        ]

    def __str__(self) -> str:
        return f"adjusted hand {self.number} of {self.round_table_id}"


class Board(models.Model):
    """A duplicate board: one deal every table of the round plays as hand ``number``. The
    deck order and salt are secret until every table has finished the board."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    deck = models.JSONField(help_text="The deck order (secret until revealed).")
    salt = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("round", "number")
        constraints = [
            models.UniqueConstraint(fields=("round", "number"), name="board_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} board {self.number}"


class StandingRow(models.Model):
    """One entry's line of the stored standings (replaced by each computation)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=150)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    position = models.PositiveIntegerField()
    rank = models.PositiveIntegerField()
    points = models.CharField(
        max_length=60, help_text='Exact points: an integer or a fraction in lowest terms ("7/2").'
    )
    rounds = models.PositiveSmallIntegerField()
    by_round = models.JSONField(default=dict)
    tiebreaks = models.JSONField(default=dict)
    movement = models.IntegerField(null=True, blank=True)
    prize = models.PositiveIntegerField(default=0)
    pending = models.PositiveSmallIntegerField(
        default=0, help_text="Duplicate boards finished at the player's table that wait for others."
    )

    class Meta:
        ordering = ("tournament", "position")

    def __str__(self) -> str:
        return f"{self.rank}. {self.name}"


class LogEntry(models.Model):
    """The audit trail: who did what to the tournament, when, before and after."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="log")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(max_length=40)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("tournament", "at", "id")
        verbose_name = "log entry"
        verbose_name_plural = "log entries"

    def __str__(self) -> str:
        return f"{self.action} at {self.at:%Y-%m-%d %H:%M}"


class Webhook(models.Model):
    """A URL a director registered for some of the events of a tournament, or of a cup."""

    EVENTS = ("round_seated", "result_entered", "standings_changed", "tournament_finished")
    CUP_EVENTS = ("cup_standings_changed", "cup_finished")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="webhooks", null=True, blank=True
    )
    cup = models.ForeignKey(
        "Cup", on_delete=models.CASCADE, related_name="webhooks", null=True, blank=True
    )
    url = models.URLField(max_length=500)
    events = models.JSONField(help_text="Which events it receives.")
    secret = models.CharField(max_length=64, help_text="The HMAC-SHA256 key (shown once).")
    previous_secret = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="The key a rotation replaced; deliveries are signed with it too until "
        "previous_secret_expires_at.",
    )
    previous_secret_expires_at = models.DateTimeField(null=True, blank=True)
    is_active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("tournament", "cup", "id")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(tournament__isnull=False, cup__isnull=True)
                | models.Q(tournament__isnull=True, cup__isnull=False),
                name="webhook_of_tournament_or_cup",
            )
        ]

    def __str__(self) -> str:
        return self.url


class Delivery(models.Model):
    """One event sent to one webhook; retried with back-off, each try an :class:`Attempt`."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("webhook delivery status", "Pending")
        DELIVERED = "delivered", pgettext_lazy("webhook delivery status", "Delivered")
        FAILED = "failed", pgettext_lazy("webhook delivery status", "Failed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=40)
    payload = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("webhook", "created_at")
        verbose_name_plural = "deliveries"

    def __str__(self) -> str:
        return f"{self.event} → {self.webhook_id} ({self.status})"


class Attempt(models.Model):
    """One try to deliver: the answer's status, or the error."""

    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="tries")
    number = models.PositiveSmallIntegerField()
    at = models.DateTimeField(auto_now_add=True)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=500, blank=True)
    duration_ms = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ("delivery", "number")

    def __str__(self) -> str:
        return f"{self.delivery_id} try {self.number}"


# Cups and ranking lists (issue 42, docs/cups.md): the aggregation is the pure
# :mod:`tournaments.cups`; these rows hold what it reads and what it computed.


class Cup(models.Model):
    """A cup or ranking list over many tournaments: run by its directors (and its club's owners
    and admins), counting the rule sets it names, aggregated by its ``policy`` and, where it has
    one, ending in a final (``final``)."""

    class Status(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("cup status", "Draft")
        RUNNING = "running", pgettext_lazy("cup status", "Running")
        FINISHED = "finished", pgettext_lazy("cup status", "Finished")

    club = models.ForeignKey(
        "clubs.Club", on_delete=models.PROTECT, related_name="cups", null=True, blank=True
    )
    name = models.CharField(max_length=150)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    season_starts_on = models.DateField(null=True, blank=True)
    season_ends_on = models.DateField(null=True, blank=True)
    rule_sets = models.JSONField(
        default=list, help_text="The rule sets (variants) whose tournaments it counts."
    )
    is_public = models.BooleanField(default=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_cups", blank=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    policy = models.JSONField(help_text="How results become standings (tournaments.cups).")
    final = models.JSONField(
        null=True, blank=True, help_text="The final's qualification, carried points and points."
    )
    winner = models.ForeignKey(
        "CupPlayer", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    requested_version = models.PositiveIntegerField(default=0)
    computed_version = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)
    computations = models.PositiveIntegerField(default=0)
    changed_at = models.DateTimeField(
        auto_now=True, help_text="Last change of anything the public pages show."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return self.name


class CupEvent(models.Model):
    """A tournament the cup counts: one on this server (proposed by the cup's directors until
    one of the tournament's directors accepts) or one run elsewhere, imported with its
    results."""

    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", pgettext_lazy("cup event kind", "Tournament on this server")
        IMPORTED = "imported", pgettext_lazy("cup event kind", "Imported tournament")

    class Status(models.TextChoices):
        PROPOSED = "proposed", pgettext_lazy("cup event status", "Proposed")
        ACCEPTED = "accepted", pgettext_lazy("cup event status", "Accepted")
        DECLINED = "declined", pgettext_lazy("cup event status", "Declined")

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="events")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="cup_events", null=True, blank=True
    )
    name = models.CharField(max_length=150)
    held_on = models.DateField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices)
    is_final = models.BooleanField(default=False)
    field_size = models.PositiveIntegerField(
        null=True, blank=True, help_text="Players in the field, where an import gives it."
    )
    source = models.JSONField(
        default=dict, blank=True, help_text="An import's format and the digest of its document."
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("cup", "held_on", "id")
        constraints = [
            models.UniqueConstraint(
                fields=("cup", "tournament"),
                condition=models.Q(tournament__isnull=False),
                name="cup_event_unique_tournament",
            ),
            models.UniqueConstraint(
                fields=("cup",), condition=models.Q(is_final=True), name="cup_one_final"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.held_on})"


class CupPlayer(models.Model):
    """A player of the cup: an account, or a guest known by name (an imported result's), with
    the attributes its side rankings read (region, category, club)."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="cup_players",
    )
    name = models.CharField(max_length=150)
    attributes = models.JSONField(default=dict, blank=True)
    merged_into = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("cup", "name", "id")
        constraints = [
            models.UniqueConstraint(
                fields=("cup", "user"),
                condition=models.Q(user__isnull=False),
                name="cup_player_unique_user",
            )
        ]

    def __str__(self) -> str:
        return self.name


class CupResult(models.Model):
    """A player's result at an event: placing, the tournament's own score and rounds played
    (copied from a finished tournament's standings, or imported)."""

    event = models.ForeignKey(CupEvent, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(CupPlayer, on_delete=models.CASCADE, related_name="results")
    placing = models.PositiveIntegerField()
    score = models.CharField(
        max_length=60, blank=True, help_text='Exact: an integer or a fraction ("7/2"); "": none.'
    )
    rounds = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ("event", "placing", "id")
        constraints = [
            models.UniqueConstraint(fields=("event", "player"), name="cup_result_unique_player")
        ]

    def __str__(self) -> str:
        return f"{self.placing}. {self.player_id} at {self.event_id}"


class CupStanding(models.Model):
    """One player's line of a stored ranking (replaced by each computation): ``ranking`` ""
    is the cup's, ``"<attribute>:<value>"`` a side ranking, ``"final"`` the final's table."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(CupPlayer, on_delete=models.CASCADE, related_name="standings")
    ranking = models.CharField(max_length=120, blank=True)
    position = models.PositiveIntegerField()
    rank = models.PositiveIntegerField(null=True, blank=True)
    points = models.CharField(max_length=60)
    counted = models.PositiveSmallIntegerField(default=0)
    played = models.PositiveSmallIntegerField(default=0)
    rounds = models.PositiveIntegerField(default=0)
    average = models.CharField(max_length=60, blank=True)
    ranked = models.BooleanField(default=True)
    qualified = models.BooleanField(default=False)
    details = models.JSONField(default=list, blank=True)
    history = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ("cup", "ranking", "position")
        constraints = [
            models.UniqueConstraint(
                fields=("cup", "ranking", "player"), name="cup_standing_unique_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player_id}"


class CupLogEntry(models.Model):
    """The cup's audit trail: who did what, when, with what."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="log")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(max_length=40)
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("cup", "at", "id")
        verbose_name = "cup log entry"
        verbose_name_plural = "cup log entries"

    def __str__(self) -> str:
        return f"{self.action} at {self.at:%Y-%m-%d %H:%M}"
