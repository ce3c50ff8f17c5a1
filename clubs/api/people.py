"""Clubs and their people: clubs, members and roles, leaving, handing over, invitations,
join requests and guests, and the caller's own clubs and invitations (``docs/clubs-people.md``).

Each view parses its input with a serializer, finds the club through a selector scoped to
the caller (a private club does not exist for non-members: 404; a public one answers 403 to
those it does not let in), calls one service of :mod:`clubs.services.people` (which checks
the role again under the club's row lock) and serializes the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import F, Q, QuerySet
from django.urls import path
from django.utils.timezone import now
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import generics, permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import selectors
from clubs.api.scoped import ClubScopedView
from clubs.api.serializers import OptionalEmailField
from clubs.errors import ClubNotFound
from clubs.models import Club, Guest, Invitation, JoinRequest, Membership, User
from clubs.selectors.people import (
    clubs_with_my_role,
    guests_of,
    invitation_by_code,
    invitations_for_user,
    invitations_of,
    join_requests_of,
    memberships_of_user,
)
from clubs.services import people as services
from config.api.callers import caller, signed_in
from config.api.fields import MAX_ID, LanguageField
from config.api.filters import IdFilter
from config.api.parsers import StrictJSONParser
from config.api.schema import ErrorSerializer
from games.api import examples
from games.api.serializers import RulesField

Role = Membership.Role
AnyUser = User | AnonymousUser

# ---------------------------------------------------------------------------------------------
# serializers


class ClubSummarySerializer(serializers.ModelSerializer[Club]):
    """A club named inside another answer."""

    class Meta:
        model = Club
        fields = ("id", "name", "slug", "city", "is_public")
        read_only_fields = fields


CLUB_LANGUAGE = (
    "The language of the club's texts for a member who chose none (e-mails, reminders, the "
    "iCal feed, public pages asked for without Accept-Language); null: English. Omitted when "
    "a club is founded: the language the founder is spoken to in."
)


NAME_POLICY = (
    "Whose names the club's public lists show to readers who are not its members (its "
    "season standings and ratings, its tables' seats and score sheets, its tournaments' "
    "public pages; members read every name, everyone reads their own): consent (the default) "
    "only the names of players who agreed (their public_name), a pseudonym such as "
    "'Player 7f3a2c' for everyone else and for guests; publish every player's name, guests' "
    "too, unless the player objected (public_name false). A club that publishes must tell "
    "its members so, why (its legitimate interest in publishing results) and how to object "
    "(docs/privacy.md)."
)


class ClubSerializer(serializers.ModelSerializer[Club]):
    """A club: its settings, how many members it has and the caller's role in it."""

    default_rules = RulesField(
        read_only=True, help_text="The engine's rules object, every option spelled out."
    )
    members_count = serializers.IntegerField(read_only=True)
    language = LanguageField(read_only=True, help_text=CLUB_LANGUAGE)
    name_policy = serializers.ChoiceField(
        choices=Club.NamePolicy.choices, read_only=True, help_text=NAME_POLICY
    )
    my_role = serializers.ChoiceField(
        choices=Role.choices,
        read_only=True,
        allow_null=True,
        help_text="Your role in the club; null when you are not a member.",
    )

    class Meta:
        model = Club
        fields = (
            "id",
            "name",
            "slug",
            "description",
            "city",
            "timezone",
            "language",
            "is_public",
            "name_policy",
            "currency",
            "default_rules",
            "reminder_hours",
            "members_count",
            "my_role",
            "created_at",
        )
        read_only_fields = fields


class ClubInputSerializer(serializers.Serializer[dict[str, Any]]):
    """A club's settings to create (``name`` required) or change (any subset)."""

    name = serializers.CharField(max_length=150)
    slug = serializers.SlugField(
        max_length=80,
        required=False,
        help_text="The club's address; from the name when omitted (made unique with -2, -3…).",
    )
    description = serializers.CharField(required=False, allow_blank=True)
    city = serializers.CharField(required=False, allow_blank=True, max_length=100)
    timezone = serializers.CharField(
        required=False, max_length=64, help_text="IANA time zone name, e.g. Europe/Vienna."
    )
    language = LanguageField(required=False, allow_null=False, help_text=CLUB_LANGUAGE)
    is_public = serializers.BooleanField(
        required=False, help_text="Public clubs are seen by anyone and take join requests."
    )
    name_policy = serializers.ChoiceField(
        choices=Club.NamePolicy.choices,
        required=False,
        help_text=NAME_POLICY + " Omitted when a club is founded: consent.",
    )
    currency = serializers.RegexField(
        r"^[A-Z]{3}$",
        required=False,
        error_messages={"invalid": gettext_lazy("Three capital letters (ISO 4217), such as EUR.")},
        help_text="ISO 4217 code: three capital letters, such as EUR.",
    )
    default_rules = RulesField(
        required=False,
        help_text="The rules new tables start from (the engine checks them; on refusal its "
        "sentence is under fields['default_rules.<option>']). PATCH replaces the object.",
    )
    reminder_hours = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=services.MAX_REMINDER_HOURS,
        help_text="Hours before an evening its reminder e-mail goes out (0: none).",
    )


class MemberSerializer(serializers.ModelSerializer[Membership]):
    """A member of a club and their role."""

    user_id = serializers.IntegerField(source="user.id", read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)
    display_name = serializers.CharField(source="user.display_name", read_only=True)

    class Meta:
        model = Membership
        fields = ("user_id", "username", "display_name", "role", "joined_at")
        read_only_fields = fields


@extend_schema_serializer(component_name="PatchedMemberRole")  # the name clients know
class MemberRoleSerializer(serializers.Serializer[dict[str, Any]]):
    """A member's new role (required)."""

    role = serializers.ChoiceField(choices=Role.choices)

    # Never partial, although the method is PATCH: drf-spectacular makes a PATCH body's fields
    # optional by setting ``partial``, and the server requires ``role``.
    @property
    def partial(self) -> bool:
        return False

    @partial.setter
    def partial(self, value: bool) -> None:
        pass


class TransferSerializer(serializers.Serializer[dict[str, Any]]):
    """Whom to hand the club to, and what the current owner becomes."""

    user_id = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The member who becomes owner."
    )
    stay_as = serializers.ChoiceField(
        choices=services.STAY_AS,
        default="admin",
        help_text="What you become: admin (default), member, or leave the club.",
    )


class TransferResultSerializer(serializers.Serializer[dict[str, Any]]):
    """Both memberships after a hand-over."""

    owner = MemberSerializer(help_text="The new owner.")
    you = MemberSerializer(allow_null=True, help_text="You now; null when you left.")


@extend_schema_field(OpenApiTypes.URI)
class InvitationUrlField(serializers.CharField):
    """The invitation's link."""

    def to_representation(self, value: Any) -> str:
        return services.invitation_url(str(value))


class InvitationSerializer(serializers.ModelSerializer[Invitation]):
    """An invitation as the club's owners and admins see it, with its code and link."""

    url = InvitationUrlField(source="code", read_only=True)
    email = OptionalEmailField(read_only=True)
    state = serializers.SerializerMethodField(
        help_text="Where the invitation stands: active, or why it no longer admits anyone."
    )
    valid = serializers.SerializerMethodField(help_text="Whether the code admits someone now.")

    class Meta:
        model = Invitation
        fields = (
            "id",
            "code",
            "url",
            "role",
            "email",
            "state",
            "valid",
            "expires_at",
            "max_uses",
            "uses",
            "revoked_at",
            "created_by",
            "created_at",
        )
        read_only_fields = fields

    @extend_schema_field(serializers.ChoiceField(choices=Invitation.State.choices))
    def get_state(self, invitation: Invitation) -> str:
        return services.invitation_state(invitation)

    def get_valid(self, invitation: Invitation) -> bool:
        return services.invitation_state(invitation) == Invitation.State.ACTIVE


#: The roles an invitation can give (``InvitableRoleEnum`` in the schema).
INVITABLE_ROLE_CHOICES = [c for c in Role.choices if c[0] in services.INVITABLE_ROLES]


class InvitationCreateSerializer(serializers.Serializer[dict[str, Any]]):
    """A new invitation."""

    role = serializers.ChoiceField(
        choices=INVITABLE_ROLE_CHOICES,
        default=Role.MEMBER,
        help_text="The role the invitation gives: member (when omitted) or scorer; admin only "
        "when an owner invites (owners are made by handing the club over).",
    )
    email = OptionalEmailField(
        required=False,
        default="",
        help_text="When given, the invitation and its link are e-mailed there.",
    )
    expires_in_days = serializers.IntegerField(
        min_value=1, max_value=services.MAX_INVITATION_DAYS, default=14
    )
    max_uses = serializers.IntegerField(
        min_value=1,
        max_value=services.MAX_INVITATION_USES,
        default=1,
        help_text="How many people may join with it.",
    )


class InvitationPreviewSerializer(serializers.ModelSerializer[Invitation]):
    """What an invitation's link shows anyone who has it."""

    club = ClubSummarySerializer(read_only=True)
    state = serializers.SerializerMethodField(
        help_text="Where the invitation stands: active, or why it no longer admits anyone."
    )
    valid = serializers.SerializerMethodField(help_text="Whether the code admits someone now.")

    class Meta:
        model = Invitation
        fields = ("club", "role", "expires_at", "valid", "state")
        read_only_fields = fields

    @extend_schema_field(serializers.ChoiceField(choices=Invitation.State.choices))
    def get_state(self, invitation: Invitation) -> str:
        return services.invitation_state(invitation)

    def get_valid(self, invitation: Invitation) -> bool:
        return services.invitation_state(invitation) == Invitation.State.ACTIVE


class MyInvitationSerializer(serializers.ModelSerializer[Invitation]):
    """An invitation addressed to you, with the code to accept it."""

    club = ClubSummarySerializer(read_only=True)
    url = InvitationUrlField(source="code", read_only=True)

    class Meta:
        model = Invitation
        fields = ("id", "club", "role", "code", "url", "expires_at", "created_at")
        read_only_fields = fields


class MyClubSerializer(serializers.ModelSerializer[Membership]):
    """One of your memberships: the club and your role in it."""

    club = ClubSummarySerializer(read_only=True)

    class Meta:
        model = Membership
        fields = ("club", "role", "joined_at")
        read_only_fields = fields


class RequesterSerializer(serializers.ModelSerializer[User]):
    """Who asked to join."""

    class Meta:
        model = User
        fields = ("id", "username", "display_name")
        read_only_fields = fields


class JoinRequestSerializer(serializers.ModelSerializer[JoinRequest]):
    """A request to join a public club and its answer."""

    user = RequesterSerializer(read_only=True)

    class Meta:
        model = JoinRequest
        fields = ("id", "user", "message", "status", "created_at", "decided_at", "decided_by")
        read_only_fields = fields


class JoinRequestCreateSerializer(serializers.Serializer[dict[str, Any]]):
    """A request to join, with an optional message to the club's admins."""

    message = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class GuestSerializer(serializers.ModelSerializer[Guest]):
    """A guest of the club and, once merged, the member they turned out to be."""

    class Meta:
        model = Guest
        fields = ("id", "name", "merged_into", "merged_at", "created_at")
        read_only_fields = fields


class GuestCreateSerializer(serializers.Serializer[dict[str, Any]]):
    """A new guest."""

    name = serializers.CharField(max_length=150)


class GuestMergeSerializer(serializers.Serializer[dict[str, Any]]):
    """The member a guest is merged into."""

    user_id = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="A member of the club."
    )


# ---------------------------------------------------------------------------------------------
# filters


class ClubFilter(filters.FilterSet):
    """Filter clubs by city, visibility, name and your membership."""

    city = filters.CharFilter(lookup_expr="iexact", label="City (exact, any case)")
    is_public = filters.BooleanFilter()
    search = filters.CharFilter(field_name="name", lookup_expr="icontains", label="Name contains")
    mine = filters.BooleanFilter(method="filter_mine", label="true: only clubs you are in")

    class Meta:
        model = Club
        fields = ("city", "is_public", "search", "mine")

    def filter_mine(
        self, queryset: QuerySet[Club], name: str, value: bool | None
    ) -> QuerySet[Club]:
        if value is None:
            return queryset
        user = getattr(self.request, "user", None)
        if user is None or not user.is_authenticated:
            return queryset.none() if value else queryset
        mine = selectors.member_club_ids(user_id=user.pk)
        return queryset.filter(pk__in=mine) if value else queryset.exclude(pk__in=mine)


class MemberFilter(filters.FilterSet):
    """Filter members by role and name."""

    role = filters.ChoiceFilter(choices=Role.choices)
    search = filters.CharFilter(method="filter_search", label="Username or display name contains")

    class Meta:
        model = Membership
        fields = ("role", "search")

    def filter_search(
        self, queryset: QuerySet[Membership], name: str, value: str
    ) -> QuerySet[Membership]:
        return queryset.filter(
            Q(user__username__icontains=value) | Q(user__display_name__icontains=value)
        )


class InvitationFilter(filters.FilterSet):
    """Filter invitations by role and state."""

    role = filters.ChoiceFilter(choices=Role.choices)
    state = filters.ChoiceFilter(
        choices=Invitation.State.choices, method="filter_state", label="State"
    )

    class Meta:
        model = Invitation
        fields = ("role", "state")

    def filter_state(
        self, queryset: QuerySet[Invitation], name: str, value: str
    ) -> QuerySet[Invitation]:
        moment = now()
        live = Q(revoked_at__isnull=True)
        if value == Invitation.State.REVOKED:
            return queryset.filter(revoked_at__isnull=False)
        if value == Invitation.State.EXPIRED:
            return queryset.filter(live, expires_at__lte=moment)
        used_up = Q(uses__gte=F("max_uses"))
        if value == Invitation.State.USED_UP:
            return queryset.filter(live, used_up, expires_at__gt=moment)
        return queryset.filter(live, expires_at__gt=moment).exclude(used_up)


class JoinRequestFilter(filters.FilterSet):
    """Filter join requests by status."""

    status = filters.ChoiceFilter(choices=JoinRequest.Status.choices)

    class Meta:
        model = JoinRequest
        fields = ("status",)


class GuestFilter(filters.FilterSet):
    """Filter guests by name and whether they were merged into a member."""

    search = filters.CharFilter(field_name="name", lookup_expr="icontains", label="Name contains")
    merged = filters.BooleanFilter(
        field_name="merged_into", lookup_expr="isnull", exclude=True, label="Merged"
    )

    class Meta:
        model = Guest
        fields = ("search", "merged")


class MyClubFilter(filters.FilterSet):
    """Filter your memberships by role."""

    role = filters.ChoiceFilter(choices=Role.choices)

    class Meta:
        model = Membership
        fields = ("role",)


class MyInvitationFilter(filters.FilterSet):
    """Filter your invitations by club."""

    # an integer within bounds (a plain number filter took ``1e308`` to the database); a club
    # nobody uses matches nothing, as one whose invitations are not yours
    club = IdFilter(field_name="club_id", label="Club id")

    class Meta:
        model = Invitation
        fields = ("club",)


# ---------------------------------------------------------------------------------------------
# schema pieces

CLUB_ID = OpenApiParameter("club_id", OpenApiTypes.INT, OpenApiParameter.PATH)
USER_ID = OpenApiParameter(
    "user_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The member's user id."
)
INVITATION_ID = OpenApiParameter("invitation_id", OpenApiTypes.INT, OpenApiParameter.PATH)
REQUEST_ID = OpenApiParameter(
    "request_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The join request's id."
)
GUEST_ID = OpenApiParameter("guest_id", OpenApiTypes.INT, OpenApiParameter.PATH)
CODE = OpenApiParameter(
    "code", OpenApiTypes.STR, OpenApiParameter.PATH, description="The invitation's code."
)


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


NOT_VISIBLE = _error("not_found: no such club, or a private club you are not a member of.")
MEMBERS_ONLY = _error(
    "permission_denied: a public club shows this to its members only (a private one answers 404)."
)
MANAGERS_ONLY = _error("permission_denied: only the club's owners and admins may do this.")
ADDRESS_RACE = _error(
    "club_conflict: other clubs took every address tried for this name at the same moment; "
    "send the request again."
)
LAST_OWNER = _error(
    "last_owner: the club's last owner cannot leave, be removed or be demoted; hand the club "
    "over first."
)


def _club_answer(request: Request, club: Club, code: int = status.HTTP_200_OK) -> Response:
    annotated = clubs_with_my_role(user=caller(request)).get(pk=club.pk)
    return Response(ClubSerializer(annotated).data, status=code)


# ---------------------------------------------------------------------------------------------
# clubs


class ClubListView(generics.ListAPIView[Club]):
    """Clubs: public ones and your own; signed-in users found new ones."""

    serializer_class = ClubSerializer
    filterset_class = ClubFilter
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    parser_classes = [StrictJSONParser]
    queryset = Club.objects.none()

    def get_queryset(self) -> QuerySet[Club]:
        return clubs_with_my_role(user=caller(self.request))

    @extend_schema(summary="Clubs you may see")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Public clubs and the clubs you are in (anonymous callers: public ones), by name."""
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Found a club",
        request=ClubInputSerializer,
        responses={201: ClubSerializer, 409: ADDRESS_RACE},
        examples=[
            OpenApiExample(
                "A public club in Vienna",
                request_only=True,
                value={
                    "name": "Grazer Runde",
                    "description": "Tarock and Préférence every Thursday.",
                    "city": "Graz",
                    "timezone": "Europe/Vienna",
                    "is_public": True,
                    "name_policy": "consent",
                    "currency": "EUR",
                    "default_rules": examples.rules_example(),
                    "reminder_hours": 24,
                },
            )
        ],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """You become the club's owner. The slug comes from the name unless given; the time
        zone, currency and default rules are checked (400 with ``fields``)."""
        serializer = ClubInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        club = services.club_create(user=signed_in(request), **serializer.validated_data)
        return _club_answer(request, club, status.HTTP_201_CREATED)


class ClubDetailView(generics.GenericAPIView[Club]):
    """One club; its owners and admins change its settings."""

    serializer_class = ClubSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    parser_classes = [StrictJSONParser]
    queryset = Club.objects.none()

    @extend_schema(summary="A club", parameters=[CLUB_ID], responses={200: ClubSerializer})
    def get(self, request: Request, club_id: int) -> Response:
        """Anyone sees a public club; a private one exists for its members only (404)."""
        club = selectors.club_for_user(user=caller(request), club_id=club_id)
        return _club_answer(request, club)

    @extend_schema(
        summary="Change a club's settings",
        parameters=[CLUB_ID],
        request=ClubInputSerializer(partial=True),
        responses={200: ClubSerializer, 403: MANAGERS_ONLY, 404: NOT_VISIBLE, 409: ADDRESS_RACE},
        examples=[
            OpenApiExample(
                "Go public, remind two days ahead",
                request_only=True,
                value={"is_public": True, "reminder_hours": 48},
            )
        ],
    )
    def patch(self, request: Request, club_id: int) -> Response:
        """Owners and admins; any subset of the settings, checked as when founding the club."""
        user = signed_in(request)
        club = selectors.club_for_manager(user=user, club_id=club_id)
        serializer = ClubInputSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        club = services.club_update(club_id=club.pk, user=user, **serializer.validated_data)
        return _club_answer(request, club)


# ---------------------------------------------------------------------------------------------
# members


class MemberListView(ClubScopedView, generics.ListAPIView[Membership]):
    """A club's members, for its members."""

    serializer_class = MemberSerializer
    filterset_class = MemberFilter
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    queryset = Membership.objects.none()

    def get_queryset(self) -> QuerySet[Membership]:
        if self.schema_only():
            return Membership.objects.none()
        club = self.member_club()
        return selectors.memberships_of(club=club)

    @extend_schema(
        summary="A club's members",
        parameters=[CLUB_ID],
        responses={200: MemberSerializer(many=True), 403: MEMBERS_ONLY, 404: NOT_VISIBLE},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Members and their roles, longest-standing first."""
        return super().get(request, *args, **kwargs)


class MemberDetailView(generics.GenericAPIView[Membership]):
    """One member: change their role or remove them."""

    serializer_class = MemberSerializer
    parser_classes = [StrictJSONParser]
    queryset = Membership.objects.none()

    @extend_schema(
        summary="Change a member's role",
        parameters=[CLUB_ID, USER_ID],
        request=MemberRoleSerializer,
        responses={
            200: MemberSerializer,
            403: _error(
                "permission_denied: members and scorers change no roles; admins set member or "
                "scorer on members and scorers only; owners set any role."
            ),
            404: NOT_VISIBLE,
            409: LAST_OWNER,
        },
        examples=[OpenApiExample("Make a scorer", request_only=True, value={"role": "scorer"})],
    )
    def patch(self, request: Request, club_id: int, user_id: int) -> Response:
        """Owners set any role (owner and admin too) on anyone; admins set member or scorer
        on members and scorers. The last owner cannot be demoted (409 ``last_owner``)."""
        user = signed_in(request)
        club = selectors.club_for_member(user=user, club_id=club_id)
        serializer = MemberRoleSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        membership = services.membership_set_role(
            club_id=club.pk, user=user, member_id=user_id, role=serializer.validated_data["role"]
        )
        return Response(MemberSerializer(membership).data)

    @extend_schema(
        summary="Remove a member",
        parameters=[CLUB_ID, USER_ID],
        request=None,
        responses={
            204: None,
            403: _error(
                "permission_denied: admins remove members and scorers; owners anyone; "
                "everyone may remove themselves."
            ),
            404: NOT_VISIBLE,
            409: LAST_OWNER,
        },
    )
    def delete(self, request: Request, club_id: int, user_id: int) -> Response:
        """Only the membership goes: hands, ledger rows and standings stay with the user.
        Removing yourself is leaving."""
        user = signed_in(request)
        club = selectors.club_for_member(user=user, club_id=club_id)
        services.membership_remove(club_id=club.pk, user=user, member_id=user_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubLeaveView(generics.GenericAPIView[Membership]):
    """The caller leaves the club."""

    serializer_class = MemberSerializer
    queryset = Membership.objects.none()

    @extend_schema(
        summary="Leave a club",
        parameters=[CLUB_ID],
        request=None,
        responses={204: None, 403: MEMBERS_ONLY, 404: NOT_VISIBLE, 409: LAST_OWNER},
    )
    def post(self, request: Request, club_id: int) -> Response:
        """Your history stays. The last owner hands the club over first (409
        ``last_owner``)."""
        user = signed_in(request)
        club = selectors.club_for_member(user=user, club_id=club_id)
        services.club_leave(club_id=club.pk, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubTransferView(generics.GenericAPIView[Any]):
    """An owner hands the club over to another member."""

    serializer_class = TransferResultSerializer
    parser_classes = [StrictJSONParser]
    queryset = Membership.objects.none()

    @extend_schema(
        summary="Hand a club over",
        parameters=[CLUB_ID],
        request=TransferSerializer,
        responses={
            200: TransferResultSerializer,
            403: _error("permission_denied: only an owner hands the club over."),
            404: NOT_VISIBLE,
        },
        examples=[
            OpenApiExample(
                "Hand over and stay as admin",
                request_only=True,
                value={"user_id": 42, "stay_as": "admin"},
            )
        ],
    )
    def post(self, request: Request, club_id: int) -> Response:
        """The member ``user_id`` becomes an owner; you become ``stay_as`` (admin by
        default, member, or leave the club). A non-member target is a 400 on ``user_id``."""
        user = signed_in(request)
        club = selectors.club_for_member(user=user, club_id=club_id)
        serializer = TransferSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        owner, you = services.club_transfer_ownership(
            club_id=club.pk,
            user=user,
            to_user_id=serializer.validated_data["user_id"],
            stay_as=serializer.validated_data["stay_as"],
        )
        return Response(TransferResultSerializer({"owner": owner, "you": you}).data)


# ---------------------------------------------------------------------------------------------
# invitations


class InvitationListView(ClubScopedView, generics.ListAPIView[Invitation]):
    """A club's invitations, for its owners and admins."""

    serializer_class = InvitationSerializer
    filterset_class = InvitationFilter
    parser_classes = [StrictJSONParser]
    queryset = Invitation.objects.none()

    def get_queryset(self) -> QuerySet[Invitation]:
        if self.schema_only():
            return Invitation.objects.none()
        club = self.manager_club()
        return invitations_of(club=club)

    @extend_schema(
        summary="A club's invitations",
        parameters=[CLUB_ID],
        responses={
            200: InvitationSerializer(many=True),
            403: MANAGERS_ONLY,
            404: NOT_VISIBLE,
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Every invitation with its code, link, uses and state, newest first."""
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Invite people",
        parameters=[CLUB_ID],
        request=InvitationCreateSerializer,
        responses={
            201: InvitationSerializer,
            403: _error(
                "permission_denied: only owners and admins invite, and only owners invite admins."
            ),
            404: NOT_VISIBLE,
        },
        examples=[
            OpenApiExample(
                "E-mail an invitation",
                request_only=True,
                value={"role": "member", "email": "anna@example.org", "expires_in_days": 14},
            ),
            OpenApiExample(
                "A link for the whole group chat",
                request_only=True,
                value={"role": "member", "expires_in_days": 7, "max_uses": 20},
            ),
        ],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """A code (and link) valid for ``expires_in_days`` days and ``max_uses`` people; with
        ``email`` the invitation is e-mailed there. Only you (the club's owners and admins)
        see the code."""
        user = signed_in(request)
        club = self.manager_club()
        serializer = InvitationCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        invitation = services.invitation_create(
            club_id=club.pk, user=user, **serializer.validated_data
        )
        return Response(InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)


class InvitationDetailView(generics.GenericAPIView[Invitation]):
    """One of a club's invitations: revoke it."""

    serializer_class = InvitationSerializer
    queryset = Invitation.objects.none()

    @extend_schema(
        summary="Revoke an invitation",
        parameters=[CLUB_ID, INVITATION_ID],
        request=None,
        responses={204: None, 403: MANAGERS_ONLY, 404: NOT_VISIBLE},
    )
    def delete(self, request: Request, club_id: int, invitation_id: int) -> Response:
        """Its code admits nobody from now on (revoking twice changes nothing)."""
        user = signed_in(request)
        club = selectors.club_for_manager(user=user, club_id=club_id)
        services.invitation_revoke(club_id=club.pk, user=user, invitation_id=invitation_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationPreviewView(generics.GenericAPIView[Invitation]):
    """What an invitation link shows; no sign-in needed."""

    serializer_class = InvitationPreviewSerializer
    permission_classes = [permissions.AllowAny]
    queryset = Invitation.objects.none()

    @extend_schema(
        summary="An invitation",
        parameters=[CODE],
        responses={
            200: InvitationPreviewSerializer,
            404: _error("not_found: no invitation has this code."),
        },
    )
    def get(self, request: Request, code: str) -> Response:
        """The club, the role it gives, until when it runs and whether it is still valid."""
        invitation = invitation_by_code(code=code)
        if invitation is None:
            raise ClubNotFound(_("There is no such invitation; check the code or link."))
        return Response(InvitationPreviewSerializer(invitation).data)


class InvitationAcceptView(generics.GenericAPIView[Membership]):
    """Join a club with an invitation."""

    serializer_class = MyClubSerializer
    queryset = Membership.objects.none()

    @extend_schema(
        summary="Accept an invitation",
        parameters=[CODE],
        request=None,
        responses={
            201: MyClubSerializer,
            403: _error(
                "invitation_for_another_address: the invitation was sent to an e-mail address "
                "that is not your account's confirmed address."
            ),
            404: _error("not_found: no invitation has this code."),
            409: _error(
                "already_member, invitation_revoked, invitation_expired or "
                "invitation_used_up (checked in this order)."
            ),
        },
    )
    def post(self, request: Request, code: str) -> Response:
        """You join the club in the invitation's role; the invitation counts one use."""
        membership = services.invitation_accept(code=code, user=signed_in(request))
        return Response(MyClubSerializer(membership).data, status=status.HTTP_201_CREATED)


# ---------------------------------------------------------------------------------------------
# join requests


class JoinRequestListView(ClubScopedView, generics.ListAPIView[JoinRequest]):
    """Requests to join a public club: anyone signed in asks, owners and admins list them."""

    serializer_class = JoinRequestSerializer
    filterset_class = JoinRequestFilter
    parser_classes = [StrictJSONParser]
    queryset = JoinRequest.objects.none()

    def get_queryset(self) -> QuerySet[JoinRequest]:
        if self.schema_only():
            return JoinRequest.objects.none()
        club = self.manager_club()
        return join_requests_of(club=club)

    @extend_schema(
        summary="A club's join requests",
        parameters=[CLUB_ID],
        responses={200: JoinRequestSerializer(many=True), 403: MANAGERS_ONLY, 404: NOT_VISIBLE},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Owners and admins; newest first, ``?status=pending`` for the open ones."""
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Ask to join a club",
        parameters=[CLUB_ID],
        request=JoinRequestCreateSerializer,
        responses={
            201: JoinRequestSerializer,
            404: _error("not_found: no such club, or a private one (they take no requests)."),
            409: _error("already_member, or join_request_pending: you asked already."),
        },
        examples=[
            OpenApiExample(
                "Ask with a message",
                request_only=True,
                value={"message": "I play on Thursdays at Café Sperl, may I join?"},
            )
        ],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Public clubs only; the club's owners and admins are told by e-mail."""
        user = signed_in(request)
        club = self.read_club()
        serializer = JoinRequestCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        join_request = services.join_request_create(
            club_id=club.pk, user=user, message=serializer.validated_data["message"]
        )
        return Response(JoinRequestSerializer(join_request).data, status=status.HTTP_201_CREATED)


class JoinRequestDetailView(generics.GenericAPIView[JoinRequest]):
    """One join request: its sender withdraws it."""

    serializer_class = JoinRequestSerializer
    queryset = JoinRequest.objects.none()

    @extend_schema(
        summary="Withdraw your join request",
        parameters=[CLUB_ID, REQUEST_ID],
        request=None,
        responses={
            204: None,
            403: _error("permission_denied: only the person who asked withdraws a request."),
            404: NOT_VISIBLE,
            409: _error("join_request_decided: the request is not pending any more."),
        },
    )
    def delete(self, request: Request, club_id: int, request_id: int) -> Response:
        """Only a pending request, and only your own (owners and admins decline instead)."""
        user = signed_in(request)
        club = selectors.club_for_user(user=user, club_id=club_id)
        services.join_request_withdraw(club_id=club.pk, user=user, request_id=request_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


DECIDED = _error(
    "join_request_decided: the request is not pending any more; already_member: the user "
    "joined meanwhile."
)


class JoinRequestDecisionView(generics.GenericAPIView[JoinRequest]):
    """Owners and admins decide a pending request: one view for both decisions, each URL
    giving its service (``decide``), ``summary`` and ``description`` through ``as_view``."""

    serializer_class = JoinRequestSerializer
    queryset = JoinRequest.objects.none()
    #: ``services.join_request_accept`` or ``services.join_request_decline``.
    decide: Callable[..., JoinRequest] | None = None
    summary: str | None = None
    description: str | None = None

    @extend_schema(
        parameters=[CLUB_ID, REQUEST_ID],
        request=None,
        responses={200: JoinRequestSerializer, 403: MANAGERS_ONLY, 404: NOT_VISIBLE, 409: DECIDED},
    )
    def post(self, request: Request, club_id: int, request_id: int) -> Response:
        assert self.decide is not None, "as_view(decide=...) names the decision"
        user = signed_in(request)
        club = selectors.club_for_manager(user=user, club_id=club_id)
        join_request = self.decide(club_id=club.pk, user=user, request_id=request_id)
        return Response(JoinRequestSerializer(join_request).data)


# ---------------------------------------------------------------------------------------------
# guests


class GuestListView(ClubScopedView, generics.ListAPIView[Guest]):
    """A club's guests: members see them, scorers and above add them."""

    serializer_class = GuestSerializer
    filterset_class = GuestFilter
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    parser_classes = [StrictJSONParser]
    queryset = Guest.objects.none()

    def get_queryset(self) -> QuerySet[Guest]:
        if self.schema_only():
            return Guest.objects.none()
        club = self.member_club()
        return guests_of(club=club)

    @extend_schema(
        summary="A club's guests",
        parameters=[CLUB_ID],
        responses={200: GuestSerializer(many=True), 403: MEMBERS_ONLY, 404: NOT_VISIBLE},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """By name; ``?merged=false`` for those not yet merged into a member."""
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Add a guest",
        parameters=[CLUB_ID],
        request=GuestCreateSerializer,
        responses={
            201: GuestSerializer,
            403: _error("permission_denied: only scorers, admins and owners add guests."),
            404: NOT_VISIBLE,
        },
        examples=[OpenApiExample("A guest", request_only=True, value={"name": "Onkel Franz"})],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """A non-member the club can seat at its tables under this name."""
        user = signed_in(request)
        club = self.member_club()
        serializer = GuestCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        guest = services.guest_create(club_id=club.pk, user=user, **serializer.validated_data)
        return Response(GuestSerializer(guest).data, status=status.HTTP_201_CREATED)


class GuestMergeView(generics.GenericAPIView[Guest]):
    """Owners and admins merge a guest into a member's account."""

    serializer_class = GuestSerializer
    parser_classes = [StrictJSONParser]
    queryset = Guest.objects.none()

    @extend_schema(
        summary="Merge a guest into a member",
        parameters=[CLUB_ID, GUEST_ID],
        request=GuestMergeSerializer,
        responses={
            200: GuestSerializer,
            403: MANAGERS_ONLY,
            404: NOT_VISIBLE,
            409: _error(
                "already_merged: a guest merges once; seated_together: the guest and the "
                "member sat at the same table."
            ),
        },
        examples=[OpenApiExample("Merge", request_only=True, value={"user_id": 42})],
    )
    def post(self, request: Request, club_id: int, guest_id: int) -> Response:
        """The guest's hands become the member's history: their tables, and the season
        standings. A guest merges once; the member must belong to the club (400 on
        ``user_id``)."""
        user = signed_in(request)
        club = selectors.club_for_manager(user=user, club_id=club_id)
        serializer = GuestMergeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        guest = services.guest_merge(
            club_id=club.pk,
            user=user,
            guest_id=guest_id,
            into_user_id=serializer.validated_data["user_id"],
        )
        return Response(GuestSerializer(guest).data)


# ---------------------------------------------------------------------------------------------
# the caller's own


class MyClubsView(generics.ListAPIView[Membership]):
    """The clubs you are in and your role in each."""

    serializer_class = MyClubSerializer
    filterset_class = MyClubFilter
    queryset = Membership.objects.none()

    def get_queryset(self) -> QuerySet[Membership]:
        if getattr(self, "swagger_fake_view", False):
            return Membership.objects.none()
        return memberships_of_user(user=signed_in(self.request))

    @extend_schema(summary="Your clubs")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """By club name."""
        return super().get(request, *args, **kwargs)


class MyInvitationsView(generics.ListAPIView[Invitation]):
    """Invitations sent to your confirmed e-mail address that you can still accept."""

    serializer_class = MyInvitationSerializer
    filterset_class = MyInvitationFilter
    queryset = Invitation.objects.none()

    def get_queryset(self) -> QuerySet[Invitation]:
        if getattr(self, "swagger_fake_view", False):
            return Invitation.objects.none()
        return invitations_for_user(user=signed_in(self.request))

    @extend_schema(summary="Invitations for you")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Pending, unexpired invitations addressed to your e-mail (any case) once you have
        confirmed it (none while ``email_verified`` is false), for clubs you are not in, with
        the code to accept them (``POST /invitations/{code}/accept/``)."""
        return super().get(request, *args, **kwargs)


# ---------------------------------------------------------------------------------------------
# routes

CLUB = "clubs/<id:club_id>/"

urlpatterns = [
    path("clubs/", ClubListView.as_view(), name="club-list"),
    path(CLUB, ClubDetailView.as_view(), name="club-detail"),
    path(CLUB + "members/", MemberListView.as_view(), name="club-members"),
    path(CLUB + "members/<id:user_id>/", MemberDetailView.as_view(), name="club-member"),
    path(CLUB + "leave/", ClubLeaveView.as_view(), name="club-leave"),
    path(CLUB + "transfer-ownership/", ClubTransferView.as_view(), name="club-transfer"),
    path(CLUB + "invitations/", InvitationListView.as_view(), name="club-invitations"),
    path(
        CLUB + "invitations/<id:invitation_id>/",
        InvitationDetailView.as_view(),
        name="club-invitation",
    ),
    path("invitations/<str:code>/", InvitationPreviewView.as_view(), name="invitation"),
    path(
        "invitations/<str:code>/accept/", InvitationAcceptView.as_view(), name="invitation-accept"
    ),
    path(CLUB + "join-requests/", JoinRequestListView.as_view(), name="club-join-requests"),
    path(
        CLUB + "join-requests/<id:request_id>/",
        JoinRequestDetailView.as_view(),
        name="club-join-request",
    ),
    path(
        CLUB + "join-requests/<id:request_id>/accept/",
        JoinRequestDecisionView.as_view(
            decide=services.join_request_accept,
            summary="Accept a join request",
            description="The user becomes a member and is told by e-mail.",
        ),
        name="club-join-request-accept",
    ),
    path(
        CLUB + "join-requests/<id:request_id>/decline/",
        JoinRequestDecisionView.as_view(
            decide=services.join_request_decline,
            summary="Decline a join request",
            description="No e-mail goes out; the user may ask again later.",
        ),
        name="club-join-request-decline",
    ),
    path(CLUB + "guests/", GuestListView.as_view(), name="club-guests"),
    path(CLUB + "guests/<id:guest_id>/merge/", GuestMergeView.as_view(), name="club-guest-merge"),
    path("me/clubs/", MyClubsView.as_view(), name="my-clubs"),
    path("me/invitations/", MyInvitationsView.as_view(), name="my-invitations"),
]
