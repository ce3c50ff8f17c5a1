"""Serializers of the cups API (docs/cups.md): resources out, commands in (JSON only).

Players are named as the caller reads them (:class:`tournaments.cup_selectors.CupNames`,
given in the context as ``names``); points are exact text ("7", "7/2")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api.fields import MAX_ID, JSONObjectField
from tournaments import cup_selectors
from tournaments.api.serializers import EXACT, EXACT_HELP, ExactField
from tournaments.models import Cup, CupEvent, CupLogEntry, CupPlayer

POLICY_HELP = (
    'How results become standings (docs/cups.md, "The policy"): `points` (`table`, `stages`, '
    "`field` or `score`), `participation`, `best_of`, `min_events`, `window` (a rolling list: "
    "`months`, `min_rounds`), `side_rankings` (attribute names) and `tiebreaks` "
    "(`better_placings`, `best_result`, `latest`). A change recomputes the standings."
)
FINAL_HELP = (
    'The final (docs/cups.md, "The final policy"): `qualify` (`top`, `min_events`), `carry` '
    "(points carried in by cup rank) and `points` (the final's placing points); null: no "
    "final."
)
NAME_HELP = (
    'The player as the caller reads them: the name, or a pseudonym ("Player 7f3a2c") where '
    "the caller may not read it: the cup's directors and members of its club read every name, "
    "others only those of players who agreed (or whose club publishes names and who did not "
    "object; a guest's only then), everyone their own. `player` and `user` are the ids."
)
NAMES_HELP = (
    "Whose names the rows show the caller: `consent`: only of players who agreed (and the "
    "caller's own), the others under a pseudonym; `publish`: the cup's club publishes names, "
    "so every name but of those who objected; `insider`: every name, as the caller runs the "
    "cup or is a member of its club."
)
RANKING_HELP = (
    "`overall` (the cup's ranking), `final` (the final's table) or a side ranking "
    "`<attribute>:<value>` (`region:Tirol`)."
)
DETAIL_STATUSES = ("counted", "dropped")
#: Why a result is dropped ("" where it counts).
DETAIL_REASONS = ("", "not_best", "outside_window", "final")
"""Whether a result counts in a player's cup points (a history's ``status``)."""
ATTRIBUTES = {"type": "object", "additionalProperties": {"type": "string", "maxLength": 120}}


def ranking_name(stored: str) -> str:
    """A stored ranking key as the API names it (``overall`` for the cup's own)."""
    return stored or "overall"


@extend_schema_field(ATTRIBUTES)
class AttributesField(serializers.DictField):
    """A player's attributes: names to text (``region``, ``category``, ``club``)."""

    child = serializers.CharField(max_length=120, allow_blank=True)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "description": "A CSV text (`format` `csv`)."},
            {
                "type": "object",
                "additionalProperties": {},
                "description": 'The JSON document (`format` `json`): `{"results": [...]}`.',
            },
        ]
    }
)
class ImportDataField(serializers.JSONField):
    """An import's document: a CSV text or the JSON object with ``results``."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, (str, dict)):
            raise serializers.ValidationError(_("Send a CSV text or a JSON object."))
        return data


# ---------------------------------------------------------------------------------------------
# cups


class CupSerializer(serializers.ModelSerializer[Cup]):
    """A cup: info, policy, lifecycle state and standings version."""

    directors: serializers.PrimaryKeyRelatedField[Any] = serializers.PrimaryKeyRelatedField(
        many=True, read_only=True
    )
    rule_sets = serializers.ListField(child=serializers.CharField(), read_only=True)
    policy = JSONObjectField(read_only=True, help_text=POLICY_HELP)
    final = JSONObjectField(read_only=True, allow_null=True, help_text=FINAL_HELP)
    winner = serializers.IntegerField(
        source="winner_id",
        read_only=True,
        allow_null=True,
        help_text="The overall winner's cup player id, published when the cup finishes.",
    )
    up_to_date = serializers.SerializerMethodField(
        help_text="False while a recomputation of the standings is pending."
    )

    class Meta:
        model = Cup
        fields = (
            "id",
            "club",
            "name",
            "slug",
            "description",
            "season_starts_on",
            "season_ends_on",
            "rule_sets",
            "is_public",
            "directors",
            "status",
            "policy",
            "final",
            "winner",
            "requested_version",
            "computed_version",
            "computed_at",
            "up_to_date",
            "changed_at",
            "created_at",
        )
        read_only_fields = fields

    def get_up_to_date(self, cup: Cup) -> bool:
        return cup.computed_version >= cup.requested_version


class CupInputSerializer(serializers.Serializer[dict[str, Any]]):
    club = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        help_text="The organising club (its owners and admins create and run the cup); "
        "omitted or null: a cup of its directors.",
    )
    name = serializers.CharField(max_length=150)
    slug = serializers.SlugField(
        max_length=80, required=False, allow_blank=True, help_text="Omitted: made from the name."
    )
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    season_starts_on = serializers.DateField(required=False, allow_null=True)
    season_ends_on = serializers.DateField(required=False, allow_null=True)
    rule_sets = serializers.ListField(
        child=serializers.CharField(max_length=40),
        min_length=1,
        max_length=20,
        help_text="The rule sets (`GET /api/v1/rules/` variants) whose tournaments it counts.",
    )
    is_public = serializers.BooleanField(required=False)
    policy = JSONObjectField(help_text=POLICY_HELP)
    final = JSONObjectField(required=False, allow_null=True, help_text=FINAL_HELP)


class CupPatchSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=150, required=False)
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    season_starts_on = serializers.DateField(required=False, allow_null=True)
    season_ends_on = serializers.DateField(required=False, allow_null=True)
    rule_sets = serializers.ListField(
        child=serializers.CharField(max_length=40), min_length=1, max_length=20, required=False
    )
    is_public = serializers.BooleanField(required=False)
    policy = JSONObjectField(required=False, help_text=POLICY_HELP)
    final = JSONObjectField(required=False, allow_null=True, help_text=FINAL_HELP)


class CupReasonSerializer(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=500, default="", help_text="For the log."
    )


class CupDirectorInputSerializer(serializers.Serializer[dict[str, Any]]):
    user = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The user to make a director of the cup."
    )


class CupLogEntrySerializer(serializers.ModelSerializer[CupLogEntry]):
    detail = JSONObjectField(read_only=True, help_text="What the action changed, by name.")

    class Meta:
        model = CupLogEntry
        fields = ("id", "at", "user", "action", "detail")
        read_only_fields = fields


# ---------------------------------------------------------------------------------------------
# events and results


class CupEventSerializer(serializers.ModelSerializer[CupEvent]):
    """A tournament the cup counts: on this server, or imported."""

    source = JSONObjectField(  # type: ignore[assignment]  # a field, not Field.source
        read_only=True, help_text="An import's `format` and the `digest` of its document."
    )
    results_count = serializers.SerializerMethodField(help_text="Results stored for it.")

    class Meta:
        model = CupEvent
        fields: tuple[str, ...] = (
            "id",
            "cup",
            "tournament",
            "name",
            "held_on",
            "kind",
            "status",
            "is_final",
            "field_size",
            "source",
            "results_count",
            "added_by",
            "decided_by",
            "created_at",
            "decided_at",
        )
        read_only_fields: tuple[str, ...] = fields

    def get_results_count(self, event: CupEvent) -> int:
        found = getattr(event, "results_count", None)
        return int(found) if found is not None else event.results.count()


class TournamentCupEventSerializer(CupEventSerializer):
    """A cup's event of one tournament: the event (its `id` and `cup` are what accept and
    decline name) with its cup's name and state."""

    cup_name = serializers.CharField(source="cup.name", read_only=True, help_text="The cup's name.")
    cup_status = serializers.ChoiceField(
        source="cup.status",
        choices=Cup.Status.choices,
        read_only=True,
        help_text="The cup's state: `draft`, `running` or `finished`.",
    )

    class Meta(CupEventSerializer.Meta):
        fields = (
            *CupEventSerializer.Meta.fields[:2],
            "cup_name",
            "cup_status",
            *CupEventSerializer.Meta.fields[2:],
        )
        read_only_fields = fields


class CupEventInputSerializer(serializers.Serializer[dict[str, Any]]):
    tournament = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        help_text="A tournament on this server, of a rule set the cup counts: proposed until "
        "one of its directors accepts (accepted at once where you direct it too).",
    )
    is_final = serializers.BooleanField(
        required=False, default=False, help_text="The cup's final (at most one)."
    )


class CupImportInputSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=150)
    held_on = serializers.DateField()
    format = serializers.ChoiceField(choices=("json", "csv"))
    data = ImportDataField(  # type: ignore[assignment]  # a field, not Serializer.data
        help_text='The results (docs/cups.md, "Importing a tournament run elsewhere"): a CSV '
        "text with a header row (`placing,name,score,rounds,user,` then attributes), or the "
        'JSON object `{"results": [{"placing", "name", "score", "rounds", "user", '
        '"attributes"}]}`.'
    )
    field_size = serializers.IntegerField(
        min_value=1,
        max_value=100_000,
        required=False,
        allow_null=True,
        help_text="Players in the field; omitted: the number of results.",
    )
    is_final = serializers.BooleanField(required=False, default=False)


class CupResultsInputSerializer(serializers.Serializer[dict[str, Any]]):
    format = serializers.ChoiceField(choices=("json", "csv"))
    data = ImportDataField(  # type: ignore[assignment]  # a field, not Serializer.data
        help_text="The corrected results, as an import's."
    )


class CupResultSerializer(serializers.Serializer[dict[str, Any]]):
    placing = serializers.IntegerField()
    player = serializers.IntegerField()
    user = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(help_text=NAME_HELP)
    score = serializers.CharField(
        help_text="The tournament's own points, " + EXACT_HELP + '; "": none.'
    )
    rounds = serializers.IntegerField()


class CupEventResultsSerializer(CupEventSerializer):
    results = serializers.SerializerMethodField()

    class Meta(CupEventSerializer.Meta):
        fields: tuple[str, ...] = (*CupEventSerializer.Meta.fields, "results")
        read_only_fields: tuple[str, ...] = fields

    @extend_schema_field(CupResultSerializer(many=True))
    def get_results(self, event: CupEvent) -> list[dict[str, Any]]:
        names: cup_selectors.CupNames = self.context["names"]
        return [
            {
                "placing": r.placing,
                "player": r.player_id,
                "user": r.player.user_id,
                "name": names.name(r.player),
                "score": r.score,
                "rounds": r.rounds,
            }
            for r in cup_selectors.results_of(event=event)
        ]


# ---------------------------------------------------------------------------------------------
# players


class CupPlayerSerializer(serializers.ModelSerializer[CupPlayer]):
    name = serializers.SerializerMethodField(help_text=NAME_HELP)
    attributes = AttributesField(read_only=True)
    results_count = serializers.SerializerMethodField()

    class Meta:
        model = CupPlayer
        fields = ("id", "cup", "user", "name", "attributes", "results_count", "created_at")
        read_only_fields = fields

    def get_name(self, player: CupPlayer) -> str:
        names: cup_selectors.CupNames = self.context["names"]
        return names.name(player)

    def get_results_count(self, player: CupPlayer) -> int:
        found = getattr(player, "results_count", None)
        return int(found) if found is not None else player.results.count()


class CupPlayerPatchSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=150, required=False)
    attributes = AttributesField(required=False)
    user = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        help_text="Link the player to this account (a guest found to be a member).",
    )


class CupMergeInputSerializer(serializers.Serializer[dict[str, Any]]):
    into = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        help_text="The cup player who keeps the results; this one is merged away (refused "
        "where both have a result at one event).",
    )


class CupHistoryEventSerializer(serializers.Serializer[dict[str, Any]]):
    event = serializers.IntegerField()
    name = serializers.CharField()
    held_on = serializers.DateField()
    placing = serializers.IntegerField()
    points = ExactField()
    status = serializers.ChoiceField(choices=DETAIL_STATUSES)
    reason = serializers.ChoiceField(
        choices=DETAIL_REASONS,
        help_text="Why a result is dropped: `not_best` (not among the best counted), "
        "`outside_window` (before the rolling window), `final` (the final's own result).",
    )


class CupRankPointSerializer(serializers.Serializer[dict[str, Any]]):
    event = serializers.IntegerField()
    held_on = serializers.DateField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True, help_text="Null: listed but not ranked.")


class CupPlayerHistorySerializer(serializers.Serializer[dict[str, Any]]):
    player = CupPlayerSerializer()
    rank = serializers.IntegerField(allow_null=True)
    position = serializers.IntegerField(allow_null=True)
    points = ExactField(allow_null=True)
    ranked = serializers.BooleanField()
    events = CupHistoryEventSerializer(many=True)
    ranks = CupRankPointSerializer(many=True, help_text="Rank after each event it changed.")


# ---------------------------------------------------------------------------------------------
# standings and final


@extend_schema_field({**EXACT, "nullable": True})
class NullableExactField(serializers.CharField):
    """Exact text, or null."""


class CupStandingRowSerializer(serializers.Serializer[dict[str, Any]]):
    position = serializers.IntegerField(help_text="1, 2, 3, … always distinct.")
    rank = serializers.IntegerField(
        allow_null=True, help_text="Shared by ties (1, 2, 2, 4); null: not ranked (yet)."
    )
    player = serializers.IntegerField()
    user = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(help_text=NAME_HELP)
    points = ExactField(help_text=EXACT_HELP)
    counted = serializers.IntegerField(help_text="Events counted.")
    played = serializers.IntegerField(help_text="Events played.")
    rounds = serializers.IntegerField()
    average = NullableExactField(help_text="Points per round (a rolling list); else null.")
    ranked = serializers.BooleanField(help_text="Meets the minimums (events, rounds).")
    qualified = serializers.BooleanField(help_text="Qualified for the final.")


class CupStandingsSerializer(serializers.Serializer[dict[str, Any]]):
    cup = serializers.IntegerField()
    ranking = serializers.CharField(help_text=RANKING_HELP)
    rankings = serializers.ListField(
        child=serializers.CharField(), help_text="The rankings to ask for (`?ranking=`)."
    )
    final = serializers.BooleanField(help_text="True once the cup is finished.")
    version = serializers.IntegerField(help_text="The computation these rows are of.")
    requested_version = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    up_to_date = serializers.BooleanField(help_text="False while a recomputation is pending.")
    names = serializers.ChoiceField(choices=list(cup_selectors.BASES), help_text=NAMES_HELP)
    rows = CupStandingRowSerializer(many=True)


class CupNeedSerializer(serializers.Serializer[dict[str, Any]]):
    placing = serializers.IntegerField(help_text="A placing in the final.")
    total = ExactField(help_text="Carried points plus the placing's points.")
    best_rank = serializers.IntegerField(help_text="The best rank possible with it.")
    worst_rank = serializers.IntegerField(
        help_text="The rank sure to be reached with it, however the others place."
    )
    wins = serializers.ChoiceField(
        choices=("sure", "possible", "no"), help_text="Whether it wins the cup."
    )


class CupContenderSerializer(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    name = serializers.CharField(help_text=NAME_HELP)
    cup_rank = serializers.IntegerField(allow_null=True)
    carried = ExactField(help_text="Points carried into the final.")
    needs = CupNeedSerializer(many=True)


class CupWinnerSerializer(serializers.Serializer[dict[str, Any]]):
    player = serializers.IntegerField()
    name = serializers.CharField(help_text=NAME_HELP)


class CupFinalSerializer(serializers.Serializer[dict[str, Any]]):
    cup = serializers.IntegerField()
    has_final = serializers.BooleanField(help_text="False: the cup has no final.")
    event = serializers.IntegerField(allow_null=True, help_text="The final's event, once added.")
    field_size = serializers.IntegerField(
        help_text="Placings the needs consider: the final event's field size where it gives "
        "one, else the number of qualified players."
    )
    played = serializers.BooleanField(help_text="The final's results are in.")
    version = serializers.IntegerField()
    up_to_date = serializers.BooleanField()
    names = serializers.ChoiceField(choices=list(cup_selectors.BASES), help_text=NAMES_HELP)
    qualified = CupContenderSerializer(many=True, help_text="In cup order.")
    table = CupStandingRowSerializer(many=True, help_text="The final's table (`ranking=final`).")
    winner = CupWinnerSerializer(
        allow_null=True, help_text="The overall winner, once the cup is finished."
    )


class MyCupSerializer(serializers.Serializer[dict[str, Any]]):
    cup = serializers.IntegerField()
    name = serializers.CharField(help_text="The cup's name.")
    slug = serializers.CharField()
    status = serializers.ChoiceField(choices=Cup.Status.choices)
    player = serializers.IntegerField(help_text="Your cup player (…/players/{player_id}/).")
    rank = serializers.IntegerField(allow_null=True)
    points = NullableExactField()
    counted = serializers.IntegerField(allow_null=True)
    played = serializers.IntegerField(allow_null=True)
    ranked = serializers.BooleanField(allow_null=True)
