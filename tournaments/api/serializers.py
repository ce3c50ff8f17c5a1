"""Serializers for the tournament API: resources out, commands in (JSON only)."""

from __future__ import annotations

import hashlib
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api.fields import MAX_ID, JSONObjectField
from games.api.serializers import RulesField, TimeControlSerializer
from games.services import BOT_LEVELS
from tournaments import names as naming
from tournaments import scoring
from tournaments.models import (
    Board,
    Entry,
    HandAdjustment,
    LogEntry,
    Round,
    StandingRow,
    Tournament,
)
from tournaments.scoring import POINTS_PATTERN
from tournaments.services.rounds import MAX_BOTS
from tournaments.services.tournaments import (
    MAX_CLOCK_TRICKS,
    MAX_DEALS,
    MAX_ROUND_MINUTES,
    MAX_ROUNDS,
)


def lots_commitment(seed: int) -> str:
    """The published commitment to the lots seed."""
    return hashlib.sha256(f"lots:{seed}".encode()).hexdigest()


#: Bounds of a tournament's format, as the service enforces them (tournaments.services).
MAX_CAPACITY = 10_000


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_DEALS})
class DealsPerRoundField(serializers.IntegerField):
    """Deals per round: each seat deals equally often, so a multiple of the rule set's deal
    cycle at a table it seats (``RuleSet.deal_cycle``: e.g. tables of 3 and 4 take multiples of
    3 and 4, 12 for both), which the service checks with the rules and, when a round is
    seated, with the tables it needs."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=1, max_value=MAX_DEALS, **kwargs)


RULES_HELP = "The engine's rules object (stakes included), fixed for the whole tournament."
ROUND_MINUTES_HELP = (
    "Hosted tournaments: the minutes each round lasts from its start (its `ends_at`); when "
    "they run out no table deals a further hand, the hands being played end (by their "
    "double-dummy result, `round_clock_tricks`, or a director's adjusted score) and the round "
    'closes (docs/tournaments.md, "Round clocks"). Null: no round clock. Taken when a round '
    "starts."
)
CLOCK_TRICKS_HELP = (
    "When a round's clock runs out, a hand in card play with at most this many tricks to play "
    "(the one in progress included) ends by its double-dummy result (every hand open, each "
    "side playing perfectly); any other unfinished hand waits for a director's adjusted "
    "score. 0: every one waits. Default 3."
)
TIME_CONTROL_HELP = (
    "Hosted tournaments: the clock every hosted table of a round runs (docs/clocks.md), taken "
    "when the round is seated: a change applies to the rounds seated after it."
)


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "enum": list(scoring.TIEBREAK_NAMES)},
        "uniqueItems": True,
    }
)
class TiebreakNamesField(serializers.ListField):
    """Tiebreak names (``tournaments.scoring.TIEBREAKS``), in order, each at most once (the
    service refuses a repeated one)."""

    child = serializers.ChoiceField(choices=scoring.TIEBREAK_NAMES)


@extend_schema_field(TimeControlSerializer)
class TimeControlField(serializers.Field[dict[str, Any], Any, Any, Any]):
    """A time control (``games.api.serializers.TimeControlSerializer``), checked whole even
    in a partial change (``PATCH`` sends the whole time control, not some of its fields)."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        checked = TimeControlSerializer(data=data)
        if not checked.is_valid():
            raise serializers.ValidationError(checked.errors)
        return dict(checked.validated_data)

    def to_representation(self, value: Any) -> Any:
        return value


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    """A tournament: info, format, lifecycle state and standings version."""

    directors: serializers.PrimaryKeyRelatedField[Any] = serializers.PrimaryKeyRelatedField(
        many=True, read_only=True
    )
    rules = RulesField(help_text=RULES_HELP)
    tiebreaks = TiebreakNamesField()
    prizes = serializers.ListField(child=serializers.IntegerField(min_value=0))
    entries_count = serializers.SerializerMethodField()
    rounds_played = serializers.SerializerMethodField()
    lots_seed = serializers.SerializerMethodField(
        help_text="The seed of the lots tiebreak, published once the tournament is finished."
    )
    round_minutes = serializers.IntegerField(
        read_only=True, allow_null=True, help_text=ROUND_MINUTES_HELP
    )
    round_clock_tricks = serializers.IntegerField(read_only=True, help_text=CLOCK_TRICKS_HELP)
    lots_commitment = serializers.SerializerMethodField(
        help_text='SHA-256 of "lots:<seed>", published from the start: the seed cannot be '
        "changed afterwards, and nobody can know the draw before the end."
    )
    time_control = TimeControlField(
        read_only=True, allow_null=True, help_text=f"{TIME_CONTROL_HELP} Null: none."
    )

    class Meta:
        model = Tournament
        fields = (
            "id",
            "club",
            "name",
            "slug",
            "description",
            "venue",
            "timezone",
            "starts_on",
            "ends_on",
            "is_public",
            "status",
            "directors",
            "rules",
            "real_money",
            "rounds_planned",
            "deals_per_round",
            "seating",
            "scoring",
            "results",
            "tiebreaks",
            "time_control",
            "round_minutes",
            "round_clock_tricks",
            "lots_seed",
            "lots_commitment",
            "capacity",
            "entry_deadline",
            "prizes",
            "entries_count",
            "rounds_played",
            "requested_version",
            "computed_version",
            "computed_at",
            "changed_at",
            "created_at",
        )
        read_only_fields = fields

    def get_lots_seed(self, t: Tournament) -> int | None:
        return t.lots_seed if t.status == Tournament.Status.FINISHED else None

    def get_lots_commitment(self, t: Tournament) -> str:
        return lots_commitment(t.lots_seed)

    def get_entries_count(self, t: Tournament) -> int:
        found = getattr(t, "entries_count", None)
        if found is not None:
            return int(found)
        return t.entries.exclude(status=Entry.Status.WITHDRAWN).count()

    def get_rounds_played(self, t: Tournament) -> int:
        found = getattr(t, "rounds_played", None)
        if found is not None:
            return int(found)
        return t.rounds.filter(status=Round.Status.CLOSED).count()


class TournamentInputSerializer(serializers.Serializer[dict[str, Any]]):
    """Create a tournament (a draft; you direct it). Every format field has a default."""

    name = serializers.CharField(max_length=150)
    slug = serializers.SlugField(max_length=80, required=False)
    club = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    description = serializers.CharField(required=False, allow_blank=True)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    timezone = serializers.CharField(max_length=64, required=False)
    starts_on = serializers.DateField(required=False, allow_null=True)
    ends_on = serializers.DateField(required=False, allow_null=True)
    is_public = serializers.BooleanField(required=False)
    rules = RulesField(required=False, help_text=RULES_HELP)
    real_money = serializers.BooleanField(required=False)
    rounds_planned = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, required=False)
    deals_per_round = DealsPerRoundField(required=False)
    seating = serializers.ChoiceField(Tournament.Seating.choices, required=False)
    scoring = serializers.ChoiceField(Tournament.Scoring.choices, required=False)
    results = serializers.ChoiceField(Tournament.Results.choices, required=False)
    tiebreaks = TiebreakNamesField(required=False)
    time_control = TimeControlField(
        required=False,
        allow_null=True,
        help_text=f"{TIME_CONTROL_HELP} Only with hosted results (400 otherwise). Omitted or "
        "null: none, a hand waits for its players as long as it takes.",
    )
    round_minutes = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROUND_MINUTES,
        required=False,
        allow_null=True,
        help_text=f"{ROUND_MINUTES_HELP} Only with hosted results (400 otherwise).",
    )
    round_clock_tricks = serializers.IntegerField(
        min_value=0, max_value=MAX_CLOCK_TRICKS, required=False, help_text=CLOCK_TRICKS_HELP
    )
    lots_seed = serializers.IntegerField(min_value=0, max_value=2**62, required=False)
    capacity = serializers.IntegerField(
        min_value=3, max_value=MAX_CAPACITY, required=False, allow_null=True
    )
    entry_deadline = serializers.DateTimeField(required=False, allow_null=True)
    prizes = serializers.ListField(child=serializers.IntegerField(min_value=0), required=False)


class TournamentPatchSerializer(TournamentInputSerializer):
    name = serializers.CharField(max_length=150, required=False)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        fields.pop("club", None)
        return fields


class ReasonSerializer(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class WarnSerializer(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(
        max_length=500, help_text="Why: the log keeps it for the directors."
    )


class DirectorInputSerializer(serializers.Serializer[dict[str, Any]]):
    user = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        help_text="The user to make a director: at once (200) when it is you or someone who "
        "plays with you (at a club's tournament a member of that club, at one of no club "
        "someone who shares a club with you); anyone else is asked (202 `invited`), as is an "
        "id nobody uses.",
    )


class LogEntrySerializer(serializers.ModelSerializer[LogEntry]):
    detail = JSONObjectField(read_only=True, help_text="What the action changed, by name.")

    class Meta:
        model = LogEntry
        fields = ("id", "at", "user", "action", "round_number", "detail")
        read_only_fields = fields


DISPLAY_NAME_HELP = (
    "The player as the caller reads them: the account's display name, else the name the entry "
    'was entered under (a substitute\'s name); or their pseudonym ("Player 7f3a2c") where '
    "the caller may not read the name: those who run the tournament and members of its club "
    "read every name, others only those of players who agreed (or whose club publishes names "
    "and who did not object), everyone their own. Show this; `entry` and `user` are the ids."
)
ENTERED_HELP = (
    "The name the entry was entered under; the pseudonym where the caller reads one "
    "(`display_name`)."
)


def names_of(context: dict[str, Any], tournament_id: int) -> naming.Names | None:
    """The names the answer shows: the context's ``names``, else those of the context's
    ``request``'s caller (computed once per answer), else None (every name)."""
    found = context.get("names")
    if found is None and "request" in context:
        reader = context["request"].user
        found = context["names"] = naming.names_in(tournament_id=tournament_id, reader=reader)
    return found


class EntrySerializer(serializers.ModelSerializer[Entry]):
    """An entry: the player (user, or only a name for a substitute) and their state.
    ``name`` is what the entry was entered under; ``display_name`` is what people read.
    Named as the context's ``names`` (or its ``request``'s caller) read them; every name
    without either."""

    display_name = serializers.SerializerMethodField(help_text=DISPLAY_NAME_HELP)

    class Meta:
        model = Entry
        fields = (
            "id",
            "tournament",
            "user",
            "name",
            "display_name",
            "status",
            "registered_at",
            "checked_in_at",
            "withdrawn_at",
            "first_round",
            "last_round",
        )
        read_only_fields = fields
        extra_kwargs = {"name": {"help_text": ENTERED_HELP}}

    def get_display_name(self, entry: Entry) -> str:
        return naming.entry_display_name(entry)

    def to_representation(self, entry: Entry) -> dict[str, Any]:
        data = super().to_representation(entry)
        names = names_of(self.context, entry.tournament_id)
        return data if names is None else names.player(data, key="id")


class EntryInputSerializer(serializers.Serializer[dict[str, Any]]):
    """Empty to enter yourself. Directors add a player by ``user`` or by ``name`` (a
    substitute), checked in unless ``checked_in`` is false; while the tournament runs this is
    a late entry, playing from the next round."""

    user = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="An account to enter: at once (201) when it is yours or plays with you (at "
        "a club's tournament a member of that club, at one of no club someone who shares a "
        "club with you); anyone else is asked (202 `invited`), as is an id nobody uses.",
    )
    name = serializers.CharField(max_length=150, required=False, allow_blank=True)
    checked_in = serializers.BooleanField(required=False, default=True)


class TournamentPlayerSerializer(serializers.Serializer[dict[str, Any]]):
    entry = serializers.IntegerField()
    name = serializers.CharField(help_text=ENTERED_HELP)
    display_name = serializers.CharField(help_text=DISPLAY_NAME_HELP)
    seat = serializers.CharField(help_text="The seat key at the games table.")
    position = serializers.IntegerField()


class TournamentBotSerializer(serializers.Serializer[dict[str, Any]]):
    """A bot the director seated to fill a seat (never an entrant)."""

    seat = serializers.CharField(help_text="The seat key at the games table (bot-1, …).")
    position = serializers.IntegerField()
    level = serializers.ChoiceField(choices=list(BOT_LEVELS))


class TournamentTableSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField(help_text="Table number in the round.")
    table = serializers.IntegerField(help_text="The games table (…/tables/{table_id}/).")
    players = TournamentPlayerSerializer(many=True)
    bots = TournamentBotSerializer(
        many=True,
        required=False,
        help_text="Bots filling seats at this table (at most one); empty without bots.",
    )
    hands_done = serializers.IntegerField(required=False)
    complete = serializers.BooleanField(required=False)


class TournamentRoundPlanSerializer(serializers.Serializer[dict[str, Any]]):
    """How a round's seating was chosen (``tournaments.services.rounds.plan_round``)."""

    method = serializers.ChoiceField(
        choices=Tournament.Seating.choices, help_text="The seating method used."
    )
    seed = serializers.IntegerField(
        min_value=0, max_value=2**62, help_text="The round's seed: the seating again from it."
    )
    repeats = serializers.IntegerField(
        required=False,
        min_value=0,
        help_text="swiss and fewest_repeats: meetings at the round's tables of players who "
        "met before in the tournament.",
    )
    objective = serializers.FloatField(
        required=False, help_text="fewest_repeats: the planner's objective (lower is better)."
    )
    lower_bound = serializers.FloatField(
        required=False, help_text="fewest_repeats: no seating's objective can be lower."
    )
    random_objective = serializers.FloatField(
        required=False,
        help_text="fewest_repeats: the mean objective of random seatings, for comparison.",
    )


@extend_schema_field(TournamentRoundPlanSerializer)
class TournamentRoundPlanField(serializers.JSONField):
    """A round's plan as stored (the schema names its fields); null until seated."""


class TournamentRoundSerializer(serializers.ModelSerializer[Round]):
    """A round: its state, how it was seated, and (in the detail) its tables."""

    byes = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        read_only=True,
        help_text="Entry ids sitting out.",
    )
    plan = TournamentRoundPlanField(
        read_only=True, allow_null=True, help_text="How the seating was chosen; null until seated."
    )
    bots = serializers.IntegerField(
        read_only=True, help_text="Bots the director asked for to fill seats this round."
    )
    bot_level = serializers.CharField(
        read_only=True, help_text="The bots' level; empty without bots."
    )

    class Meta:
        model = Round
        fields = (
            "id",
            "number",
            "status",
            "seating",
            "seed",
            "byes",
            "bots",
            "bot_level",
            "plan",
            "error",
            "seated_at",
            "starts_at",
            "started_at",
            "ends_at",
            "ran_out_at",
            "closed_at",
        )
        read_only_fields = fields
        extra_kwargs = {
            "ends_at": {
                "help_text": "When the round's clock runs out: its start and the tournament's "
                "`round_minutes`, or as a director set it (`…/clock/`); null: no clock."
            },
            "ran_out_at": {
                "help_text": "When the server found the clock run out: from then on no table "
                "deals a further hand, its hands end by double dummy or a director's adjusted "
                "score, and the round closes once every table's hands have ended "
                '(docs/tournaments.md, "Round clocks"); null until then.'
            },
        }


class TournamentRoundDetailSerializer(TournamentRoundSerializer):
    tables = serializers.SerializerMethodField()

    class Meta(TournamentRoundSerializer.Meta):
        fields = (*TournamentRoundSerializer.Meta.fields, "tables")  # type: ignore[assignment]
        read_only_fields = fields  # type: ignore[assignment]

    @extend_schema_field(TournamentTableSerializer(many=True))
    def get_tables(self, rnd: Round) -> list[dict[str, Any]]:
        """The context's ``tables``, their players named as the context's ``names`` read
        them (as given without)."""
        names = self.context.get("names")
        tables = list(self.context.get("tables", []))
        if names is None:
            return tables
        return [{**table, "players": names.players(table["players"])} for table in tables]


class RoundSeatingInputSerializer(serializers.Serializer[dict[str, Any]]):
    """Seat the next round. Defaults: the tournament's seating method, no byes, a fresh
    random seed (recorded)."""

    seating = serializers.ChoiceField(Tournament.Seating.choices, required=False)
    byes = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        required=False,
        default=list,
        help_text="Entries (ids) that sit this round out.",
    )
    seed = serializers.IntegerField(min_value=0, max_value=2**62, required=False)
    bots = serializers.IntegerField(
        min_value=0,
        max_value=MAX_BOTS,
        required=False,
        default=0,
        help_text="Bots to fill empty seats, one a table at most (hosted tournaments for "
        "points only; not with duplicate scoring): a count that does not split plays without "
        "byes. Bots are no entrants: never ranked, exported or settled. Omitted: none.",
    )
    bot_level = serializers.ChoiceField(
        choices=list(BOT_LEVELS),
        required=False,
        help_text="The bots' level (one the tournament's rule set offers). Omitted: its strongest.",
    )
    starts_at = serializers.DateTimeField(
        required=False,
        help_text="When you mean to start the round: each seated player with an account is "
        "reminded before it (their `round_starts` notification, docs/notifications.md). "
        "Omitted: no reminder.",
    )


class RoundClockInputSerializer(serializers.Serializer[dict[str, Any]]):
    ends_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When the round's clock runs out (a moment past ends its play at once); "
        "null: the round has no clock.",
    )


class HandAdjustInputSerializer(serializers.Serializer[dict[str, Any]]):
    amounts = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="By seat key, every seat of the table (a bot's too); they sum to zero. In "
        "the table's unit: minor units of money, or the rule set's score unit where its table "
        "scores its deals together (the standings' `unit`).",
    )
    reason = serializers.CharField(
        max_length=500, required=False, allow_blank=True, default="", help_text="For the log."
    )


class HandAdjustmentSerializer(serializers.ModelSerializer[HandAdjustment]):
    """A director's adjusted score for a hand a round's clock cut off."""

    round = serializers.IntegerField(source="round_table.round.number")
    table = serializers.IntegerField(source="round_table.number")
    hand = serializers.IntegerField(source="number", help_text="The hand's number at its table.")
    amounts = serializers.DictField(
        child=serializers.IntegerField(), help_text="By seat key; they sum to zero."
    )

    class Meta:
        model = HandAdjustment
        fields = (
            "round",
            "table",
            "hand",
            "dealer",
            "amounts",
            "reason",
            "entered_by",
            "created_at",
        )
        read_only_fields = fields


class TotalsSerializer(serializers.Serializer[dict[str, Any]]):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    amounts = serializers.DictField(child=serializers.IntegerField())
    declarer_wins = serializers.DictField(child=serializers.IntegerField())
    confirmed_by = serializers.ListField(child=serializers.IntegerField())
    confirmed = serializers.BooleanField()
    version = serializers.IntegerField()


class TotalsInputSerializer(serializers.Serializer[dict[str, Any]]):
    amounts = serializers.DictField(
        child=serializers.IntegerField(), help_text="Total by seat key; they sum to zero."
    )
    declarer_wins = serializers.DictField(
        child=serializers.IntegerField(min_value=0), required=False, default=dict
    )


class ConfirmInputSerializer(serializers.Serializer[dict[str, Any]]):
    version = serializers.IntegerField(help_text="The totals version you checked.")


class BoardSerializer(serializers.ModelSerializer[Board]):
    """A duplicate board: its commitment always; deck and salt once every table finished it."""

    deck = serializers.SerializerMethodField()
    salt = serializers.SerializerMethodField()

    class Meta:
        model = Board
        fields = ("number", "commitment", "revealed_at", "deck", "salt")
        read_only_fields = fields

    @extend_schema_field(serializers.ListField(child=serializers.CharField(), allow_null=True))
    def get_deck(self, board: Board) -> list[str] | None:
        return list(board.deck) if board.revealed_at else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_salt(self, board: Board) -> str | None:
        return board.salt if board.revealed_at else None


EXACT_HELP = (
    'exact, as text: an integer ("3", "-120") or a fraction in lowest terms ("7/2", "175/3")'
)
EXACT = {"type": "string", "pattern": POINTS_PATTERN, "example": "175/3"}


@extend_schema_field(EXACT)
class ExactField(serializers.CharField):
    """An exact value as text (``tournaments.scoring.points_text``)."""


@extend_schema_field({"type": "object", "additionalProperties": EXACT})
class ExactByName(serializers.JSONField):
    """A JSON object of exact values as text (points by round)."""


LOTS_HELP = (
    "The lots draw: an unsigned 64-bit integer as text (up to 20 digits, more than a JSON "
    "number keeps: parse it as a big integer), `tournaments.scoring.lots_draw`. Absent until "
    "the tournament is finished, then present only on the rows where the draw decided a "
    "placing (docs/tournaments.md)."
)


@extend_schema_field(
    {"type": "string", "pattern": scoring.LOTS_PATTERN, "example": "12157665459056928801"}
)
class LotsField(serializers.CharField):
    """A ``lots`` draw as text (``tournaments.scoring.points_text`` of ``lots_draw``)."""


class TiebreakValuesSerializer(serializers.Serializer[dict[str, Any]]):
    """Each tiebreak's value by name (``tournaments.scoring.TIEBREAKS``), where it was
    needed: a name is absent when no tie needed it."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {
            name: LotsField(required=False, help_text=LOTS_HELP)
            if name == "lots"
            else ExactField(required=False, help_text=f"`{name}`, {EXACT_HELP}.")
            for name in scoring.TIEBREAK_NAMES
        }


@extend_schema_field(TiebreakValuesSerializer)
class TiebreakValuesField(serializers.JSONField):
    """A standings row's tiebreak values as stored (the schema names each tiebreak)."""


class TournamentStandingRowSerializer(serializers.ModelSerializer[StandingRow]):
    entry = serializers.IntegerField(source="entry_id")
    user = serializers.IntegerField(source="user_id", allow_null=True)
    points = ExactField(read_only=True, help_text=f"Points, {EXACT_HELP}.")
    by_round = ExactByName(read_only=True, help_text=f"Points by round number, {EXACT_HELP}.")
    tiebreaks = TiebreakValuesField(
        read_only=True,
        help_text=f"Each tiebreak's value by name, {EXACT_HELP}. `lots` is an unsigned 64-bit "
        "integer (the verifiable draw of docs/tournaments.md): parse it as a big integer; it "
        "is absent until the tournament is finished, and then present only on the rows where "
        "the draw decided a placing.",
    )
    pending = serializers.IntegerField(
        read_only=True,
        help_text="Duplicate boards finished at the player's table that wait for the other "
        "tables: they count (in points, rounds and by_round) once every table finished them.",
    )

    display_name = serializers.CharField(read_only=True, help_text=DISPLAY_NAME_HELP)

    class Meta:
        model = StandingRow
        fields = (
            "position",
            "rank",
            "entry",
            "user",
            "name",
            "display_name",
            "points",
            "rounds",
            "by_round",
            "tiebreaks",
            "movement",
            "prize",
            "pending",
        )
        read_only_fields = fields
        extra_kwargs = {"name": {"help_text": ENTERED_HELP}}


class TournamentStandingsSerializer(serializers.Serializer[dict[str, Any]]):
    """The stored standings, in order (ties share a rank), as of ``as_of``."""

    tournament = serializers.IntegerField()
    scoring = serializers.ChoiceField(choices=Tournament.Scoring.choices)
    unit = serializers.CharField(
        required=False,
        help_text="What a table's amounts, and so `balance` points, are counted in: `cents` "
        "(money), or the rule set's `score_unit` where its table scores its deals together "
        "(GET /api/v1/rules/).",
    )
    tiebreaks = TiebreakNamesField(help_text="The tiebreaks chosen, in order.")
    final = serializers.BooleanField(help_text="True once the tournament is finished.")
    as_of = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField()
    requested_version = serializers.IntegerField()
    up_to_date = serializers.BooleanField()
    names = serializers.ChoiceField(
        choices=list(naming.BASES),
        help_text="Whose names the rows show the caller: `consent`: only of players who agreed "
        "to show their name in public (and the caller's own), the others under a pseudonym; "
        "`publish`: the tournament's club publishes its players' names, so every name but of "
        "those who objected (and a substitute's); `insider`: every name, as the caller runs "
        "the tournament or is a member of its club.",
    )
    rows = TournamentStandingRowSerializer(many=True)


class ResultRoundSerializer(serializers.Serializer[dict[str, Any]]):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    games_table = serializers.IntegerField()
    seat = serializers.CharField()
    opponents = serializers.ListField(
        child=serializers.CharField(),
        help_text="The other players at the table, in seat order, by display name (or "
        "pseudonym, as the standings name them).",
    )
    amount = serializers.IntegerField(
        allow_null=True,
        help_text="Won at the table (minor units, or points); null while nothing of it counts "
        "yet (offline totals unconfirmed, duplicate boards all pending).",
    )
    points = ExactField(
        allow_null=True, help_text=f"The round's points, {EXACT_HELP}; null until it counts."
    )
    pending = serializers.IntegerField(
        help_text="Duplicate boards finished at this table that wait for the other tables."
    )


class PlayerResultsSerializer(serializers.Serializer[dict[str, Any]]):
    entry = EntrySerializer()
    rank = serializers.IntegerField(allow_null=True)
    points = ExactField(allow_null=True, help_text=f"Points now, {EXACT_HELP}.")
    rounds = ResultRoundSerializer(many=True)


class MyTournamentSerializer(PlayerResultsSerializer):
    next_table = TournamentTableSerializer(allow_null=True)
    next_seat = serializers.CharField(allow_null=True)
    round_status = serializers.ChoiceField(
        choices=Round.Status.choices,
        allow_null=True,
        help_text="The status of the round in progress (seating, seated or playing); null "
        "when no round is in progress.",
    )


class TournamentPartySerializer(serializers.Serializer[dict[str, Any]]):
    entry = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(help_text=ENTERED_HELP + ' The pot: "pot".')
    display_name = serializers.CharField(help_text=DISPLAY_NAME_HELP + ' The pot: "pot".')


class TournamentPaymentSerializer(serializers.Serializer[dict[str, Any]]):
    payer = TournamentPartySerializer(source="from")
    payee = TournamentPartySerializer(source="to")
    amount = serializers.IntegerField()


class TournamentNetSerializer(serializers.Serializer[dict[str, Any]]):
    entry = serializers.IntegerField()
    name = serializers.CharField(help_text=ENTERED_HELP)
    display_name = serializers.CharField(help_text=DISPLAY_NAME_HELP)
    net = serializers.IntegerField()


class TournamentSettlementSerializer(serializers.Serializer[dict[str, Any]]):
    tournament = serializers.IntegerField()
    final = serializers.BooleanField()
    nets = TournamentNetSerializer(many=True)
    pot = serializers.IntegerField()
    payments = TournamentPaymentSerializer(many=True)
    payments_proven = serializers.BooleanField(
        help_text="True: no settlement takes fewer payments (proven by the search); false: "
        "these settle every net exactly but fewer might be possible."
    )


class ExportedSeatSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.CharField(help_text="The seat's key at the table.")
    entry = serializers.IntegerField(help_text="The entry's id.")
    name = serializers.CharField(help_text=ENTERED_HELP)
    display_name = serializers.CharField(help_text=DISPLAY_NAME_HELP)
    amount = serializers.IntegerField(help_text="The seat's result of the hand, minor units.")


class ExportedHandSerializer(serializers.Serializer[dict[str, Any]]):
    """One counted hand (the result fields of ``hand-record.md``); never a deal."""

    round = serializers.IntegerField()
    table = serializers.IntegerField(help_text="The table's number in its round.")
    games_table = serializers.IntegerField(help_text="The table's id (`…/tables/{table_id}/`).")
    hand = serializers.IntegerField(help_text="The hand's number at its table.")
    dealer = serializers.CharField(help_text="The dealer's seat key.")
    declarer = serializers.CharField(allow_null=True, help_text="Null when all passed.")
    game = serializers.CharField(allow_null=True)
    made = serializers.BooleanField(allow_null=True)
    players = ExportedSeatSerializer(many=True)


class HandsExportSerializer(serializers.Serializer[dict[str, Any]]):
    tournament = serializers.IntegerField()
    hands = ExportedHandSerializer(many=True)
