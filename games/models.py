"""Games: tables, their seats and hands, the money ledger and the audit log.

A *table* is one sitting. It either *records* hands played with real cards (score-sheet
entries settled by the engine) or *hosts* hands dealt and played move by move through the API.
Money is integer minor units (cents). Every movement is a :class:`LedgerEntry`; balances are
sums over the ledger, never a cached total. The pot is a party of its own (``"pot"``); with
rules that carry the pot at close it belongs to the table's :class:`TableSeries`, so the next
sitting starts with what this one left.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext as _

import engine
from config.api.rule_sets import TABLE_REASONS

POT = "pot"
SERIES = "series"
CARRY_IN, CARRY_OUT, SPLIT = TABLE_REASONS
"""The table's own ledger reasons: the series' pot carried in, the pot carried on to the
series, the pot shared at the close (which rule sets' closings write too)."""


def ledger_reasons() -> frozenset[str]:
    """Every reason a ledger row may give: the ``why`` words of every registered rule set's
    transfers (``Shapes.reasons``, a rule set registered later included) and the table's own
    (:data:`TABLE_REASONS`). Asked when called, never a closed list: a new rule set's words
    need no model change."""
    return frozenset(
        (
            *TABLE_REASONS,
            *(r for rs in engine.rule_sets(include_engine_only=True) for r in rs.shapes.reasons),
        )
    )


def validate_reason(value: str) -> None:
    """A ledger row's reason is one of :func:`ledger_reasons`."""
    if value not in ledger_reasons():
        raise ValidationError(
            _("{reason} is no registered rule set's transfer reason nor the table's own.").format(
                reason=repr(value)
            ),
            code="unknown_reason",
        )


class WorkerPing(models.Model):
    """A job a user asks a Celery worker to complete; records which process did it."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="worker_pings"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    api_pid = models.PositiveIntegerField(help_text="Process id of the API process that asked.")
    worker_pid = models.PositiveIntegerField(null=True, blank=True)
    worker_host = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return f"WorkerPing #{self.pk} ({self.status})"


class TableSeries(models.Model):
    """Sittings that share a carried pot: the same club's tables or the same group's evenings."""

    name = models.CharField(max_length=150)
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="series"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "table series"

    def __str__(self) -> str:
        return self.name


class Table(models.Model):
    """One sitting at one table, with rules fixed for its lifetime.

    A table may belong to a club (whose admins manage it and whose scorers record at it).
    The apps that group tables (club evenings, tournament rounds) keep their own link to it
    and answer "who else manages this table" through :mod:`games.managers`.
    """

    class Mode(models.TextChoices):
        RECORDED = "recorded", "Recorded (real cards, score sheet)"
        HOSTED = "hosted", "Hosted (dealt and played through the API)"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    name = models.CharField(max_length=150)
    mode = models.CharField(max_length=16, choices=Mode.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    series = models.ForeignKey(TableSeries, on_delete=models.PROTECT, related_name="tables")
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="tables"
    )
    rules = models.JSONField(help_text="The engine's rules object, every option spelled out.")
    first_dealer = models.PositiveSmallIntegerField(help_text="Seat position of the first dealer.")
    dealer_draw = models.JSONField(
        null=True, blank=True, help_text="Cards drawn for the first dealer, when drawn."
    )
    opening_pot = models.PositiveIntegerField(default=0, help_text="Pot carried in, cents.")
    opening_carry = models.JSONField(
        default=dict,
        blank=True,
        help_text="What else the rule set carries into the first hand (its carry keys beyond "
        "the pot, e.g. a score sheet in points); {} for pot games.",
    )
    is_public = models.BooleanField(default=False)
    requires_confirmation = models.BooleanField(default=False)
    bot_budget_ms = models.PositiveIntegerField(
        default=1000,
        validators=[MinValueValidator(100), MaxValueValidator(10_000)],
        help_text="How long a bot may think about one move (the pimc level), milliseconds.",
    )
    hints = models.BooleanField(
        default=False, help_text="Whether a seated player may ask for a hint (the bot's move)."
    )
    time_control = models.JSONField(
        null=True,
        blank=True,
        help_text="Hosted: the clock every hand runs (games.clock.TimeControl); null: none.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closing = models.JSONField(null=True, blank=True, help_text="The settlement at close.")

    class Meta:
        ordering = ("-created_at", "-id")

    def __str__(self) -> str:
        return self.name


class Seat(models.Model):
    """A place at a table: a user, a named guest or a bot; ``key`` names it in hand records."""

    class Kind(models.TextChoices):
        USER = "user", "User"
        GUEST = "guest", "Guest"
        BOT = "bot", "Bot"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    key = models.SlugField(max_length=40)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    guest_name = models.CharField(max_length=150, blank=True)
    guest = models.ForeignKey(
        "clubs.Guest",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
        help_text="The club guest who sat here, when the guest is known to a club.",
    )
    bot_level = models.CharField(max_length=16, blank=True)

    class Meta:
        ordering = ("table", "position")
        constraints = [
            models.UniqueConstraint(fields=("table", "position"), name="seat_unique_position"),
            models.UniqueConstraint(fields=("table", "key"), name="seat_unique_key"),
            models.UniqueConstraint(
                fields=("table", "user"),
                condition=models.Q(user__isnull=False),
                name="seat_unique_user",
            ),
        ]

    def __str__(self) -> str:
        return self.key

    @property
    def display_name(self) -> str:
        if self.kind == self.Kind.USER and self.user is not None:
            return self.user.display_name or self.user.username
        if self.kind == self.Kind.BOT:
            return f"{self.key} (bot)"
        return self.guest_name or self.key


class Hand(models.Model):
    """One deal at a table: a score-sheet entry (recorded) or a deal played through the API
    (hosted). ``number`` orders the hands; the dealer, stake and pot follow from that order.

    Hosted hands keep the deck, salt and deal secret until the hand ends; only ``commitment``
    is public before.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting confirmation"
        PLAYING = "playing", "Being played"
        DONE = "done", "Done"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices)
    dealer = models.SlugField(max_length=40)
    pot_before = models.PositiveIntegerField(
        help_text="The pot before the deal, cents (0 when the rule set has no pot)."
    )
    carry_before = models.JSONField(
        default=dict,
        blank=True,
        help_text="What else carried into the deal: the rule set's carry keys beyond the pot.",
    )
    entry = models.JSONField(
        null=True, blank=True, help_text="Recorded: the score-sheet entry without the common part."
    )
    deal = models.JSONField(null=True, blank=True, help_text="Hosted: the deal (secret).")
    actions = models.JSONField(default=list, blank=True, help_text="Hosted: the actions so far.")
    deck = models.JSONField(null=True, blank=True, help_text="Hosted: the deck order (secret).")
    salt = models.CharField(max_length=64, blank=True, help_text="Hosted: the salt (secret).")
    commitment = models.CharField(max_length=64, blank=True)
    result = models.JSONField(null=True, blank=True)
    analysis = models.JSONField(
        null=True,
        blank=True,
        help_text="The double-dummy analysis of the finished hand, once computed "
        "(engine.solver.analysis; games.services.analysis).",
    )
    version = models.PositiveIntegerField(default=0)
    clock = models.JSONField(
        null=True,
        blank=True,
        help_text="Hosted with a time control: the seats' clocks, timeouts (games.clock).",
    )
    flag_at = models.DateTimeField(
        null=True,
        blank=True,
        db_index=True,
        help_text="When the next flag falls (the sweep's index); null when no clock runs.",
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("table", "number")
        constraints = [
            models.UniqueConstraint(fields=("table", "number"), name="hand_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.table} hand {self.number}"


class LedgerEntry(models.Model):
    """One money movement: ``payer`` pays ``payee`` ``amount`` cents for ``reason``.

    Parties are seat keys, ``"pot"`` (this table's pot) and ``"series"`` (the pot carried
    between sittings). ``reason`` is a word of :func:`ledger_reasons`; the services that write
    rows check it (``games.services.common.ledger_entry``).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="ledger")
    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.CASCADE, related_name="ledger"
    )
    payer = models.CharField(max_length=40)
    payee = models.CharField(max_length=40)
    amount = models.PositiveIntegerField()
    reason = models.CharField(max_length=16, validators=[validate_reason])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        verbose_name_plural = "ledger entries"

    def __str__(self) -> str:
        return f"{self.payer} → {self.payee} {self.amount} ({self.reason})"


class AuditEntry(models.Model):
    """Who changed what at a table, when, with the state before and after."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="audit")
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=32)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-at", "-id")
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} by {self.user} at {self.at:%Y-%m-%d %H:%M}"


class IdempotencyRecord(models.Model):
    """The first answer to a request sent with an ``Idempotency-Key`` (kept 24 hours)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of method, path and body.")
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("user", "key"), name="idempotency_unique_key")
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.status_code})"
