"""Serializers for games resources.

Input serializers parse requests; output serializers shape answers. Score-sheet entries,
rules and actions are passed to the services as the client sent them, because the engine
checks them and names the offending field in its own words (``spec/hand-record.md``); their
serializers here describe them for the schema.

Answers that name a table's people name them as their reader reads them
(:func:`games.selectors.table_names`): the views put the reader (``reader``, a
:class:`games.selectors.Reader`) or the table's names (``names``) in the context; without
either, an answer is the public version, as an anonymous reader reads it.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

import engine
from clubs.models import User
from config.api.rule_sets import TABLE_REASONS, hand_reasons, or_null, ref
from engine.solver import GOAL_MEANINGS, GOALS
from games import clock, selectors, services
from games.api.rules import ActionField, RulesSerializer
from games.api.sheet import seats_in_order, with_sentences
from games.models import AuditEntry, Hand, LedgerEntry, Seat, Table, TableSeries, WorkerPing
from games.rulesets import rule_set_of

Fields = dict[str, serializers.Field[Any, Any, Any, Any]]
#: How an account that created a table, or entered, confirmed or changed a hand, reads.
ACCOUNT_HELP = (
    "The account's login, or its pseudonym ('Player 7f3a2c') where you may not read its name "
    '(docs/games.md, "Names in public lists"); null for nobody.'
)


def names_in(context: dict[str, Any], table: Table) -> selectors.TableNames:
    """The names the context's reader reads at ``table``: the context's ``names`` when it
    gives them, else :func:`games.selectors.table_names` for its ``reader`` (anonymous when
    none), once per table."""
    given = context.get("names")
    if isinstance(given, selectors.TableNames):
        return given
    cache: dict[int, selectors.TableNames] = context.setdefault("_names", {})
    if table.pk not in cache:
        reader = context.get("reader") or selectors.Reader(AnonymousUser())
        cache[table.pk] = selectors.table_names(table, reader)
    return cache[table.pk]


#: What a ledger entry is for (``ReasonEnum``): every registered rule set's ``why`` words
#: (``Shapes.reasons``), then the table's own; ``games.models.ledger_reasons`` as a list.
LEDGER_REASONS = [*hand_reasons(), *TABLE_REASONS]
#: ``Hand.Status`` with plain labels: ``HandStatusEnum`` in the schema (``EventsStatusEnum`` is
#: the same set with the model's labels, named so since API 1.0).
HAND_STATUSES = tuple(Hand.Status.values)
HAND_STATUS_TEXT = "The hand's status."
#: The phases of a hand, every rule set's (``RuleSet.phases``): ``PhaseEnum`` in the schema.
PHASES = tuple(dict.fromkeys(phase for rs in engine.rule_sets() for phase in rs.phases))


class WorkerPingSerializer(serializers.ModelSerializer[WorkerPing]):
    """A ping and the process that answered it."""

    class Meta:
        model = WorkerPing
        fields = (
            "id",
            "status",
            "api_pid",
            "worker_pid",
            "worker_host",
            "created_at",
            "completed_at",
        )
        read_only_fields = fields


# ---------------------------------------------------------------------------------------------
# shapes described for the schema (the engine checks the content)


@extend_schema_field(RulesSerializer)
class RulesField(serializers.JSONField):
    """Rules as sent; the engine checks them (``fields["rules.<option>"]`` on refusal). Only
    a JSON object gets that far: anything else is a field error here."""

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            raise serializers.ValidationError(_("Send the rules as a JSON object."))
        return value


@extend_schema_field({**or_null("Game"), "description": "null: a deal without a game."})
class GameField(serializers.JSONField):
    """A deal's game: one of the forms of the table's rule set (``Game`` in the schema, from
    the rule sets' shapes); the engine checks it."""


def _only(value: str, help_text: str) -> serializers.ChoiceField:
    """The discriminator of one form of a body: the single value that names the form."""
    return serializers.ChoiceField(choices=[value], help_text=help_text)


class ScoreSheetEntrySerializer(serializers.Serializer[dict[str, Any]]):
    """A score-sheet entry (``spec/hand-record.md`` form 1) without the common part: the
    server fills in rules, seats, dealer and pot. A client that sends one of those must send
    the server's value (``409 record_mismatch`` otherwise). Or a full record (form 2) without
    the common part: ``deal`` and ``actions`` instead of the entry's keys; the engine plays
    it through, settles it, and the hand can be analysed (``…/analysis/``)."""

    game = GameField(
        allow_null=True,
        required=False,
        help_text="null: a deal without a game (all passed, thrown in). Required in an entry; "
        "absent in a full record.",
    )
    deal = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="A full record's deal: each active seat's cards, and each other pile the "
        "rule set deals by its name (`spec/hand-record.md`), in the codes of the rule set's "
        "deck.",
    )
    actions = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text='A full record\'s actions in order ({"seat": "anna", "call": "pass"}, …).',
    )
    declarer = serializers.CharField(
        required=False,
        help_text="Seat key of the deal's declarer, where the table's rule set has one; omitted "
        "where the deal has none.",
    )
    tricks = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        required=False,
        help_text="Tricks each player (or each party, where the rule set plays in parties) took, "
        "in the words of the table's rule set; omitted (or {}) where nobody played.",
    )
    # The rule sets' own keys (``RuleSet.sheet_keys``: a defence, a negotiated split, bids, …)
    # are documented from the registry (``config.api.rule_sets.add_sheet_entry_keys``).
    rules = RulesField(required=False, help_text="Optional; must equal the table's.")
    seats = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Optional; must match."
    )
    dealer = serializers.CharField(required=False, help_text="Optional; must match.")
    pot = serializers.IntegerField(required=False, help_text="Optional; must match.")


@extend_schema_field(ref("Result"))
class ResultField(serializers.JSONField):
    """A hand's Result: the Result of the table's rule set (``Result`` in the schema, from the
    rule sets' shapes)."""


class ProofSerializer(serializers.Serializer[dict[str, Any]]):
    """The deal's proof, revealed after the hand (``spec/hand-record.md``, "Deal
    commitment")."""

    commitment = serializers.CharField()
    salt = serializers.CharField()
    deck = serializers.ListField(child=serializers.CharField())


# ---------------------------------------------------------------------------------------------
# tables

#: The largest id a body may name (a 64-bit key); larger is a 400, never a database error.
MAX_ID = 2**63 - 1
MAX_LIVE_SECONDS = 600
MIN_TURN_SECONDS = 600
MAX_TURN_SECONDS = 30 * 24 * 3600


class _SeatForm(serializers.Serializer[dict[str, Any]]):
    key = serializers.SlugField(max_length=40, help_text="The seat's name in hand records.")


class UserSeatSerializer(_SeatForm):
    """A seat for an account."""

    kind = _only("user", "user")
    user = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        help_text="The player's user id, as a seat reads it back (`Seat.user`): yourself, at a "
        "club's table a member of that club, at a table of no club someone who shares a club "
        "with you. The id of someone who shares no club with you answers exactly as one "
        "nobody uses.",
    )


class GuestSeatSerializer(_SeatForm):
    """A seat for a player without an account (recorded tables)."""

    kind = _only("guest", "guest")
    guest_name = serializers.CharField(max_length=150, required=False, allow_blank=True)


class BotSeatSerializer(_SeatForm):
    """A seat the server plays (hosted tables)."""

    kind = _only("bot", "bot")
    bot_level = serializers.ChoiceField(
        choices=services.BOT_LEVELS,
        required=False,
        help_text="How the server plays the seat: one of the levels the table's rule set "
        "offers (its `bot_levels` in GET /api/v1/rules/; random, a random legal move, every "
        "rule set has); a rule set refuses a level it has no bot for. Omitted: "
        f"{services.BOT_LEVELS[0]}.",
    )


@extend_schema_field(
    {
        "anyOf": [
            {"$ref": "#/components/schemas/BotLevelEnum"},
            {"type": "string", "maxLength": 0},
        ],
        "description": "A bot seat's level; empty for the other seats.",
    }
)
class SeatBotLevelField(serializers.CharField):
    """A seat's ``bot_level``: one of ``BOT_LEVELS`` for a bot, ``""`` for anyone else."""


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="SeatInput",
        serializers={
            "user": UserSeatSerializer,
            "guest": GuestSeatSerializer,
            "bot": BotSeatSerializer,
        },
        resource_type_field_name="kind",
        many=True,
    )
)
class SeatListSerializer(serializers.ListSerializer[Any]):
    """The seats of a new table; the schema documents each as one of three forms by
    ``kind``."""


NO_SUCH_USER = gettext_lazy("There is no such user.")


class SeatUserField(serializers.Field[User, Any, Any, Any]):
    """A seat's account: its user id (an integer, as ``Seat.user`` reads back), looked up among
    the accounts the caller may seat by id (:func:`games.selectors.users_to_seat`: an unused
    id and one of someone else answer the same :data:`NO_SUCH_USER`). A JSON string is a
    username, the form of API 1.1.0, still accepted and not documented (the JSON type
    decides, so a username made of digits is a string), looked up among the same accounts:
    a stranger's username answers as one nobody has."""

    default_error_messages = {
        "no_such_user": NO_SUCH_USER,
        "incorrect_type": gettext_lazy("Send the user's id (an integer)."),
    }

    def to_internal_value(self, data: Any) -> User:
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("incorrect_type")
        request = self.context.get("request")
        caller = getattr(request, "user", None)
        found = None
        if caller is not None and caller.is_authenticated:
            seatable = selectors.users_to_seat(user=caller)
            if isinstance(data, str):
                found = seatable.filter(username=data).first()
            elif 1 <= data <= MAX_ID:
                found = seatable.filter(pk=data).first()
        if found is None:
            self.fail("no_such_user")
        return found

    def to_representation(self, value: User) -> int:
        return int(value.pk)


class TimeControlSerializer(serializers.Serializer[dict[str, Any]]):
    """A hosted table's clock (docs/clocks.md): ``live`` (seconds per action, then a reserve
    topped up by an increment after each action) or ``turn_based`` (hours or days per action,
    with a reminder and a warning before they run out). When a person's time runs out a bot
    plays the action for them; after ``timeouts_before_away`` timeouts in a row the seat is
    away and the bot plays on until the person acts or comes back."""

    kind = serializers.ChoiceField(choices=[(k, k) for k in clock.KINDS])
    action_seconds = serializers.IntegerField(
        min_value=1,
        max_value=MAX_TURN_SECONDS,
        help_text="Seconds for each action before the reserve runs: live 1 to 600, "
        "turn-based 600 (ten minutes) to 2,592,000 (30 days).",
    )
    reserve_seconds = serializers.IntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=7200,
        help_text="Live: each person's reserve for the whole hand, after an action's own "
        "seconds are used up.",
    )
    increment_seconds = serializers.IntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=600,
        help_text="Live: seconds added to the reserve after each of your actions.",
    )
    reminder_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=60,
        help_text="Turn-based: remind the person this many seconds before their time runs out "
        "(null: no reminder).",
    )
    warning_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=60,
        help_text="Turn-based: warn the person this many seconds before their time runs out "
        "(null: no warning).",
    )
    timeouts_before_away = serializers.IntegerField(
        required=False,
        default=2,
        min_value=1,
        max_value=10,
        help_text="Timeouts in a row after which the seat is away: the bot then plays at once "
        "until the person acts or comes back (POST …/back/).",
    )
    bot_level = serializers.CharField(
        required=False,
        allow_null=True,
        default=None,
        max_length=16,
        help_text="The level of the bot that plays for a person whose time ran out; null: the "
        "table's bots' level, else the rule set's strongest.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["kind"] == clock.LIVE:
            if attrs["action_seconds"] > MAX_LIVE_SECONDS:
                raise serializers.ValidationError(
                    {"action_seconds": [_("A live clock gives at most 600 seconds an action.")]}
                )
            for key in ("reminder_seconds", "warning_seconds"):
                if attrs.get(key) is not None:
                    raise serializers.ValidationError(
                        {key: [_("Only a turn-based clock reminds and warns.")]}
                    )
        else:
            if attrs["action_seconds"] < MIN_TURN_SECONDS:
                raise serializers.ValidationError(
                    {"action_seconds": [_("A turn-based clock gives at least 600 seconds.")]}
                )
            for key in ("reserve_seconds", "increment_seconds"):
                if attrs.get(key):
                    raise serializers.ValidationError(
                        {key: [_("Only a live clock has a reserve and an increment.")]}
                    )
            for key in ("reminder_seconds", "warning_seconds"):
                if attrs.get(key) is not None and attrs[key] >= attrs["action_seconds"]:
                    raise serializers.ValidationError(
                        {key: [_("It must be shorter than the time for an action.")]}
                    )
        return attrs


class ActionTimeoutSerializer(serializers.Serializer[dict[str, Any]]):
    """An action the timeout policy played for a person whose time ran out."""

    action = serializers.IntegerField(help_text="Its index in the hand's actions (from 0).")
    seat = serializers.CharField(help_text="The seat it was played for.")
    at = serializers.DateTimeField()


class SeatBackSerializer(serializers.Serializer[dict[str, Any]]):
    """The answer to ``POST /api/v1/tables/{table_id}/back/``."""

    seat = serializers.CharField(help_text="Your seat's key.")
    was_away = serializers.BooleanField(
        help_text="Whether the bot was playing for your seat (it no longer is)."
    )


class SeatInputSerializer(serializers.Serializer[dict[str, Any]]):
    """A seat to create: a user (by id), a named guest, or a bot (hosted tables): the fields
    a seat reads back (:class:`SeatSerializer`), so a seat read can be sent again."""

    class Meta:
        list_serializer_class = SeatListSerializer

    key = serializers.SlugField(max_length=40, help_text="The seat's name in hand records.")
    kind = serializers.ChoiceField(choices=Seat.Kind.choices)
    user = SeatUserField(required=False, allow_null=True, help_text="User id, for kind user.")
    guest_name = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")
    bot_level = serializers.CharField(
        max_length=16, required=False, allow_blank=True, default="", help_text="random"
    )


class TableCreateSerializer(serializers.Serializer[dict[str, Any]]):
    """Input for ``POST /api/v1/tables/``."""

    name = serializers.CharField(max_length=150)
    mode = serializers.ChoiceField(choices=Table.Mode.choices)
    rules = RulesField()
    seats = SeatInputSerializer(many=True, help_text="3 or 4 seats in playing order.")
    first_dealer = serializers.SlugField(
        required=False, allow_null=True, default=None, help_text="A seat key; absent: drawn."
    )
    series = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        default=None,
        help_text="Continue this series (its carried pot); one you cannot see is 400, as an "
        "unused id.",
    )
    club = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        default=None,
        help_text="The club's table: you need a role there; a private club you are not a member "
        "of is 400, as an unused id.",
    )
    is_public = serializers.BooleanField(required=False, default=False)
    requires_confirmation = serializers.BooleanField(required=False, default=False)
    bot_budget_ms = serializers.IntegerField(
        required=False,
        default=1000,
        min_value=100,
        max_value=10_000,
        help_text="How long a bot may think about one move, in milliseconds (the pimc level "
        "samples deals until then; the other levels answer at once).",
    )
    hints = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Whether seated players may ask for a hint: the move a bot would make for "
        "their seat, from their view alone (GET …/hands/{number}/hint/).",
    )
    time_control = TimeControlSerializer(
        required=False,
        allow_null=True,
        default=None,
        help_text="Hosted tables: the clock each hand runs; absent or null: none (a hand waits "
        "for its players as long as it takes).",
    )

    def to_service_kwargs(self) -> dict[str, Any]:
        """The validated input as ``services.table_create`` keywords."""
        data = self.validated_data
        return {
            "name": data["name"],
            "mode": data["mode"],
            "rules": data["rules"],
            "seats": [
                services.SeatSpec(
                    key=s["key"],
                    kind=s["kind"],
                    user=s.get("user"),
                    guest_name=s.get("guest_name", ""),
                    bot_level=s.get("bot_level", ""),
                )
                for s in data["seats"]
            ],
            "first_dealer": data["first_dealer"],
            "series_id": data["series"],
            "club_id": data["club"],
            "is_public": data["is_public"],
            "requires_confirmation": data["requires_confirmation"],
            "bot_budget_ms": data["bot_budget_ms"],
            "hints": data["hints"],
            "time_control": data["time_control"],
        }


class SeatSerializer(serializers.ModelSerializer[Seat]):
    """A seat at a table: ``key``, ``kind``, ``user`` (an id), ``guest_name`` and
    ``bot_level`` as a seat to create takes them (``SeatInput``), so a seat read can be sent
    again; ``name`` and ``username`` to show. Where the reader may not read the player's
    name (context ``names``, :class:`games.selectors.TableNames`), ``name`` is the player's
    pseudonym, ``username`` null and a guest's ``guest_name`` the pseudonym too."""

    name = serializers.CharField(
        source="display_name",
        read_only=True,
        help_text="The player's name, or their pseudonym ('Player 7f3a2c') where you may not "
        'read it (docs/games.md, "Names in public lists").',
    )
    username = serializers.CharField(
        source="user.username",
        read_only=True,
        allow_null=True,
        help_text="The account's login; null for a guest or a bot, and where you may not read "
        "the player's name.",
    )
    bot_level = SeatBotLevelField(read_only=True)

    def to_representation(self, instance: Seat) -> dict[str, Any]:
        out: dict[str, Any] = super().to_representation(instance)
        names = self.context.get("names")
        if isinstance(names, selectors.TableNames) and names.hides(instance):
            out["name"] = names.seat(instance)
            out["username"] = None
            if out.get("guest_name"):
                out["guest_name"] = out["name"]
        return out

    class Meta:
        model = Seat
        fields = (
            "key",
            "position",
            "kind",
            "name",
            "user",
            "username",
            "guest_name",
            "bot_level",
        )
        read_only_fields = fields


class PaymentSerializer(serializers.Serializer[dict[str, Any]]):
    """One payment that settles the nets, with its sentence."""

    def get_fields(self) -> Fields:
        return {
            "from": serializers.CharField(),
            "to": serializers.CharField(),
            "amount": serializers.IntegerField(help_text="Cents."),
            "sentence": serializers.CharField(help_text='e.g. "carl pays anna 3.40 €".'),
        }


class SettlementSerializer(serializers.Serializer[dict[str, Any]]):
    """Each player's net at the sitting and the payments that settle them; the pot is one
    more party when money stays in it."""

    nets = serializers.DictField(child=serializers.IntegerField(), help_text="Seat → cents.")
    pot = serializers.IntegerField(help_text="The pot now (0 once closed).")
    pot_net = serializers.IntegerField(
        help_text="What the pot (the series) is owed by the players; negative: it owes them."
    )
    payments = PaymentSerializer(many=True)
    payments_proven = serializers.BooleanField(
        allow_null=True,
        help_text="True: no settlement takes fewer payments (proven by the search); false: "
        "these settle every net exactly but fewer might be possible; null: a settlement "
        "stored before this was recorded.",
    )
    scores = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        required=False,
        help_text="Where the table's rule set scores a sitting as a whole (its `score_unit` "
        "in GET /api/v1/rules/): seat → score in `score_unit`, as it stands while the table "
        "is open; null for the other rule sets. The money such a sitting moves (its price per "
        "unit, a rules option) moves at the close, into `nets`.",
    )
    score_unit = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="The unit of `scores` (the rule set's `score_unit`); null for the other rule "
        "sets.",
    )


class BalancesSerializer(serializers.Serializer[dict[str, Any]]):
    """Every ledger party's balance at the table: seats, ``pot`` and ``series``."""

    balances = serializers.DictField(child=serializers.IntegerField())


class TableSerializer(serializers.ModelSerializer[Table]):
    """A table (from ``selectors.tables_with_totals``: seats, pot and hand count loaded)."""

    seats = serializers.SerializerMethodField()
    first_dealer = serializers.SerializerMethodField()
    next_dealer = serializers.SerializerMethodField()
    round = serializers.SerializerMethodField(
        help_text="Where the table stands in its rule set's round of deals before its next "
        "hand (`TableRound`: the rule set's own); null for rule sets that keep no rounds."
    )
    pot = serializers.SerializerMethodField()
    hands_count = serializers.SerializerMethodField()
    closing = serializers.SerializerMethodField()
    rules = RulesField(read_only=True)
    created_by = serializers.SerializerMethodField(help_text=ACCOUNT_HELP)
    dealer_draw = serializers.DictField(
        child=serializers.CharField(),
        read_only=True,
        allow_null=True,
        help_text="The card each seat drew for the first dealer (seat key → a card code of the "
        "rule set's deck); null when the first dealer was given.",
    )
    time_control = TimeControlSerializer(
        read_only=True, allow_null=True, help_text="The clock each hand runs; null: none."
    )

    class Meta:
        model = Table
        fields = (
            "id",
            "name",
            "mode",
            "status",
            "rules",
            "seats",
            "first_dealer",
            "dealer_draw",
            "next_dealer",
            "round",
            "pot",
            "opening_pot",
            "hands_count",
            "series",
            "club",
            "is_public",
            "requires_confirmation",
            "bot_budget_ms",
            "hints",
            "time_control",
            "created_by",
            "created_at",
            "closed_at",
            "closing",
        )
        read_only_fields = fields

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, table: Table) -> Any:
        names = names_in(self.context, table)
        return SeatSerializer(seats_in_order(table), many=True, context={"names": names}).data

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_created_by(self, table: Table) -> str | None:
        return names_in(self.context, table).account(table.created_by)

    def get_first_dealer(self, table: Table) -> str:
        return str(seats_in_order(table)[table.first_dealer].key)

    def get_next_dealer(self, table: Table) -> str | None:
        if table.status != Table.Status.OPEN:
            return None
        at = self._round(table)
        if at is not None:
            return at.dealer
        return services.dealer_for(table, self.get_hands_count(table) + 1)

    def _round(self, table: Table) -> Any:
        """Where the table stands in its rule set's rounds before its next hand (once per
        table; ``None`` where it keeps none)."""
        cache: dict[int, Any] = self.context.setdefault("table_rounds", {})
        if table.pk not in cache:
            cache[table.pk] = services.table_round(table, self.get_hands_count(table) + 1)
        return cache[table.pk]

    @extend_schema_field(or_null("TableRound"))
    def get_round(self, table: Table) -> dict[str, Any] | None:
        at = self._round(table)
        return None if at is None else at.status

    def get_pot(self, table: Table) -> int:
        """The pot now, from the ledger."""
        return int(getattr(table, "pot_in", 0)) - int(getattr(table, "pot_out", 0))

    def get_hands_count(self, table: Table) -> int:
        return int(getattr(table, "hands_count", 0))

    @extend_schema_field(SettlementSerializer(allow_null=True))
    def get_closing(self, table: Table) -> dict[str, Any] | None:
        if table.closing is None:
            return None
        # closings stored before payments_proven was recorded do not say: null
        names = names_in(self.context, table).party_names(table)
        return {"payments_proven": None, **with_sentences(table, table.closing, names)}


class SeriesSerializer(serializers.ModelSerializer[TableSeries]):
    """A series of sittings sharing a carried pot."""

    pot = serializers.SerializerMethodField(help_text="Cents the series holds between sittings.")
    created_by = serializers.CharField(
        source="created_by.username", read_only=True, allow_null=True
    )

    class Meta:
        model = TableSeries
        fields = ("id", "name", "club", "created_by", "created_at", "pot")
        read_only_fields = fields

    def get_pot(self, series: TableSeries) -> int:
        return int(getattr(series, "carried_out", 0)) - int(getattr(series, "carried_in", 0))


class SeriesCreateSerializer(serializers.Serializer[dict[str, Any]]):
    """Input for ``POST /api/v1/series/``."""

    name = serializers.CharField(max_length=150)
    club = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        default=None,
        help_text="A club of yours; a private club you are not a member of is 400, as an "
        "unused id.",
    )


class LedgerEntrySerializer(serializers.ModelSerializer[LedgerEntry]):
    """One money movement at a table."""

    hand = serializers.IntegerField(source="hand.number", read_only=True, allow_null=True)
    reason = serializers.ChoiceField(
        choices=LEDGER_REASONS,
        read_only=True,
        help_text="What the money moved for: a word of a transfer of the table's rule set "
        "(a Result's `why`), or the table's own: carry_in, carry_out, split.",
    )

    class Meta:
        model = LedgerEntry
        fields = ("id", "hand", "payer", "payee", "amount", "reason", "created_at")
        read_only_fields = fields


class AuditEntrySerializer(serializers.ModelSerializer[AuditEntry]):
    """Who changed what at a table, and the state before and after. Context: ``table`` (and
    the reader, as for every answer that names people)."""

    user = serializers.SerializerMethodField(help_text=ACCOUNT_HELP)
    before = serializers.JSONField(read_only=True, allow_null=True)
    after = serializers.JSONField(read_only=True, allow_null=True)

    class Meta:
        model = AuditEntry
        fields = ("id", "at", "user", "action", "hand_number", "before", "after")
        read_only_fields = fields

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_user(self, entry: AuditEntry) -> str | None:
        return names_in(self.context, self.context["table"]).account(entry.user)


# ---------------------------------------------------------------------------------------------
# hands


_DATETIME_FIELD = serializers.DateTimeField()


def _datetime(value: Any) -> str | None:
    """A date and time as DRF renders it (ISO 8601, ``Z`` for UTC)."""
    return None if value is None else str(_DATETIME_FIELD.to_representation(value))


class HandSerializer(serializers.ModelSerializer[Hand]):
    """A hand's public information. Hosted hands show their commitment, phase and player to
    act while played, and their result and proof only after the end (the proof not while a
    deal source withholds the board: ``games.deals``); never the deal, deck, salt or actions
    before. Context: ``table`` (seats loaded), and the reader (``reader`` or ``names``:
    ``entered_by`` and ``confirmed_by`` name accounts as the reader reads them)."""

    stake = serializers.SerializerMethodField()
    entered_by = serializers.SerializerMethodField(help_text=ACCOUNT_HELP)
    confirmed_by = serializers.SerializerMethodField(help_text=ACCOUNT_HELP)
    entry = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()
    commitment = serializers.SerializerMethodField()
    phase = serializers.SerializerMethodField()
    to_act = serializers.SerializerMethodField()
    proof = serializers.SerializerMethodField()

    # Plain labels: a choice set of its own in the schema ("HandStatusEnum").
    status = serializers.ChoiceField(choices=HAND_STATUSES)

    class Meta:
        model = Hand
        fields = (
            "number",
            "status",
            "dealer",
            "pot_before",
            "stake",
            "version",
            "created_at",
            "finished_at",
            "entered_by",
            "confirmed_by",
            "entry",
            "result",
            "commitment",
            "phase",
            "to_act",
            "proof",
        )
        read_only_fields = fields

    def to_representation(self, instance: Hand) -> dict[str, Any]:
        """What DRF's field-by-field rendering gives (a test compares the two on every kind
        of hand), without building the field objects: DRF builds them for each serializer, and
        that cost more than everything else in answering a score-sheet entry."""
        hand = instance
        return {
            "number": int(hand.number),
            "status": str(hand.status),
            "dealer": str(hand.dealer),
            "pot_before": int(hand.pot_before),
            "stake": self.get_stake(hand),
            "version": int(hand.version),
            "created_at": _datetime(hand.created_at),
            "finished_at": _datetime(hand.finished_at),
            "entered_by": self.get_entered_by(hand),
            "confirmed_by": self.get_confirmed_by(hand),
            "entry": self.get_entry(hand),
            "result": self.get_result(hand),
            "commitment": self.get_commitment(hand),
            "phase": self.get_phase(hand),
            "to_act": self.get_to_act(hand),
            "proof": self.get_proof(hand),
        }

    @property
    def table(self) -> Table:
        table = self.context["table"]
        assert isinstance(table, Table)
        return table

    @cached_property
    def _rules(self) -> Any:
        return engine.parse_rules(self.table.rules)

    def _hosted(self) -> bool:
        return bool(self.table.mode == Table.Mode.HOSTED)

    def _public_view(self, hand: Hand) -> dict[str, Any]:
        cache: dict[int, dict[str, Any]] = self.context.setdefault("_views", {})
        if hand.pk not in cache:
            cache[hand.pk] = engine.view(services.hand_state(self.table, hand), None)
        return cache[hand.pk]

    @cached_property
    def _names(self) -> selectors.TableNames:
        return names_in(self.context, self.table)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_entered_by(self, hand: Hand) -> str | None:
        return self._names.account(hand.entered_by)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_confirmed_by(self, hand: Hand) -> str | None:
        return self._names.account(hand.confirmed_by)

    def get_stake(self, hand: Hand) -> int | None:
        """S for this hand, as the rule set reckons it (``RuleSet.stake``, e.g. the pot after
        the dealer's contribution, capped); null where the rule set has no single stake."""
        rule_set = rule_set_of(self.table)
        return rule_set.stake(self._rules, services.hand_carry(self.table, hand))

    @extend_schema_field(ScoreSheetEntrySerializer(allow_null=True))
    def get_entry(self, hand: Hand) -> dict[str, Any] | None:
        return None if self._hosted() else hand.entry

    @extend_schema_field(or_null("Result"))
    def get_result(self, hand: Hand) -> dict[str, Any] | None:
        if self._hosted() and hand.status != Hand.Status.DONE:
            return None
        return hand.result

    def get_commitment(self, hand: Hand) -> str | None:
        return hand.commitment if self._hosted() else None

    @extend_schema_field(
        serializers.ChoiceField(
            choices=PHASES,
            allow_null=True,
            help_text="The engine's phase of a hosted hand; null at a recorded table.",
        )
    )
    def get_phase(self, hand: Hand) -> str | None:
        """The engine's phase of a hosted hand (``auction`` … ``done``)."""
        if not self._hosted():
            return None
        if hand.status == Hand.Status.DONE:
            return "done"
        return str(self._public_view(hand)["phase"])

    def get_to_act(self, hand: Hand) -> str | None:
        """The seat to act in a hosted hand being played."""
        if not self._hosted() or hand.status == Hand.Status.DONE:
            return None
        to_act = self._public_view(hand)["to_act"]
        return None if to_act is None else str(to_act)

    @extend_schema_field(ProofSerializer(allow_null=True))
    def get_proof(self, hand: Hand) -> dict[str, Any] | None:
        """After the end; null while a deal source withholds the board (``games.deals``)."""
        return services.hand_proof(self.table, hand)


class ActionInputSerializer(serializers.Serializer[dict[str, Any]]):
    """Input for ``POST …/hands/{n}/actions/``."""

    action = ActionField(
        help_text="One action in the record vocabulary of the table's rule set: one key and its "
        "value, as the rule set's `<Variant>Action` forms show (a card as a code of its deck); "
        '"seat" may be given and must be the caller\'s.'
    )
    expected_version = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0,
        help_text="The version the client saw; another one is 409 stale_version.",
    )
    lag_ms = serializers.IntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=60_000,
        help_text="At a table with a clock: the network lag in milliseconds that the client "
        "measured for this action; credited to your clock up to the server's cap "
        "(`CLOCK_LAG_CREDIT_MS`, 1000 by default).",
    )


class AnalysedCardSerializer(serializers.Serializer[dict[str, Any]]):
    """One card played, judged in the position it was played in with every hand open."""

    trick = serializers.IntegerField(min_value=1, help_text="The trick it was played to.")
    seat = serializers.CharField(help_text="The hand it came from.")
    card = serializers.CharField(help_text="The card, in the engine's card codes.")
    lost = serializers.IntegerField(
        min_value=0,
        help_text="Tricks it gave away against best play from that position (0: optimal).",
    )
    optimal = serializers.ListField(
        child=serializers.CharField(),
        help_text="The cards that would have kept the best result for the player's party.",
    )
    by_timeout = serializers.BooleanField(
        help_text="A timeout policy's bot played it: the person's time had run out (at a table "
        "with a clock)."
    )


class HandAnalysisBodySerializer(serializers.Serializer[dict[str, Any]]):
    """The double-dummy analysis of a finished hand (engine.solver.analysis)."""

    declarer = serializers.CharField(
        allow_null=True,
        help_text="Whose tricks count; null where each player is on his own (a game without "
        "a declarer) or no card was played.",
    )
    goal = serializers.ChoiceField(
        choices=list(GOALS),
        allow_null=True,
        help_text="What the declarer's side wants of its tricks: "
        + "; ".join(f"{goal}: {meaning}" for goal, meaning in GOAL_MEANINGS.items())
        + ".",
    )
    dealt = serializers.IntegerField(
        allow_null=True,
        help_text="The declarer's tricks under best play from the first card, as dealt.",
    )
    taken = serializers.IntegerField(allow_null=True, help_text="The tricks he took.")
    cards = AnalysedCardSerializer(many=True)


class HandAnalysisSerializer(serializers.Serializer[dict[str, Any]]):
    """``status`` ``done`` with the ``analysis``, or ``pending`` (202) while a worker computes
    it: ask again."""

    status = serializers.ChoiceField(choices=["done", "pending"])
    analysis = HandAnalysisBodySerializer(allow_null=True)


class HandHintSerializer(serializers.Serializer[dict[str, Any]]):
    """The move a bot would make for your seat now, from your view alone."""

    seat = serializers.CharField(help_text="Your seat.")
    level = serializers.CharField(help_text="The bot level that thought (pimc, else heuristic).")
    action = serializers.DictField(
        allow_null=True,
        help_text="An action body as the actions endpoint takes it (send it as it is, or "
        "not); null: the bot would let the moment pass (an announcement it need not make).",
    )


class HandRecordSerializer(serializers.Serializer[dict[str, Any]]):
    """The complete record of a hand and its result: a full record (form 2) with its
    ``proof`` for hosted hands (``python -m engine verify`` checks it), the complete
    score-sheet entry (form 1) for recorded hands."""

    mode = serializers.ChoiceField(choices=Table.Mode.choices)
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=HAND_STATUSES, help_text=HAND_STATUS_TEXT)
    record = serializers.DictField(help_text="spec/hand-record.md form 1 or form 2.")
    result = ResultField()
    timeouts = ActionTimeoutSerializer(
        many=True,
        help_text="The actions of the record the timeout policy played for a person whose "
        "time ran out (empty without a clock).",
    )
