"""Invitations to direct or to play in a tournament (``docs/tournaments.md``, "Who joins a
tournament"): a director asks someone who shares no club with them; only that person sees the
invitation and accepts or declines it, under ``/api/v1/me/tournament-invitations/``."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import path
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.callers import signed_in
from config.api.schema import ErrorSerializer
from tournaments import selectors, services
from tournaments.models import Invitation, Tournament

INVITATION_ID = OpenApiParameter(
    "invitation_id",
    OpenApiTypes.INT,
    OpenApiParameter.PATH,
    description="The id of an invitation of yours (`GET /me/tournament-invitations/`).",
)
#: What a 202 for an invitation says, by role.
INVITED_MESSAGES = {
    Invitation.Role.DIRECTOR: gettext_lazy(
        "Asked: they become a director once they accept. (The same answer whether or not an "
        "active account has that id: you are told nothing about people who share no club with "
        "you.)"
    ),
    Invitation.Role.ENTRANT: gettext_lazy(
        "Asked: they become an entrant once they accept. (The same answer whether or not an "
        "active account has that id: you are told nothing about people who share no club with "
        "you.)"
    ),
}


class TournamentInvitationSentSerializer(serializers.Serializer[dict[str, Any]]):
    """What adding someone who shares no club with you answers (202): they are asked, and
    join only by accepting. The same for an id no active account has."""

    user = serializers.IntegerField(help_text="The user id you gave.")
    role = serializers.ChoiceField(choices=Invitation.Role.choices)
    status = serializers.ChoiceField(
        choices=[(Invitation.Status.INVITED, "Invited")], help_text='Always "invited".'
    )
    message = serializers.CharField(help_text="What happens next, as a sentence.")


def invitation_sent(*, user_id: int, role: str) -> dict[str, Any]:
    """The body of a 202 for an invitation (or an id nobody uses: the same)."""
    return {
        "user": user_id,
        "role": role,
        "status": Invitation.Status.INVITED.value,
        "message": str(INVITED_MESSAGES[Invitation.Role(role)]),
    }


class InvitedTournamentSerializer(serializers.ModelSerializer[Tournament]):
    """What an invitation shows of its tournament (the tournament itself may be private)."""

    club_name = serializers.CharField(source="club.name", default=None, allow_null=True)

    class Meta:
        model = Tournament
        fields = ("id", "name", "venue", "starts_on", "ends_on", "status", "club", "club_name")
        read_only_fields = fields


class TournamentInvitationSerializer(serializers.ModelSerializer[Invitation]):
    """An invitation of yours to direct (``director``) or to play in (``entrant``) a
    tournament, and your answer."""

    tournament = InvitedTournamentSerializer(read_only=True)
    invited_by_name = serializers.SerializerMethodField(
        help_text="The director who asked you, by display name."
    )

    class Meta:
        model = Invitation
        fields = (
            "id",
            "tournament",
            "role",
            "status",
            "checked_in",
            "invited_by",
            "invited_by_name",
            "entry",
            "created_at",
            "decided_at",
        )
        read_only_fields = fields
        extra_kwargs = {"entry": {"help_text": "Your entry, once you accepted to play."}}

    def get_invited_by_name(self, invitation: Invitation) -> str | None:
        who = invitation.invited_by
        return None if who is None else (who.display_name or who.get_username())


class MyTournamentInvitationsView(generics.ListAPIView[Invitation]):
    serializer_class = TournamentInvitationSerializer
    queryset = Invitation.objects.none()

    def get_queryset(self) -> QuerySet[Invitation]:
        if getattr(self, "swagger_fake_view", False):
            return Invitation.objects.none()
        return selectors.invitations_for_user(user=signed_in(self.request))

    @extend_schema(
        summary="Tournament invitations for you",
        description="Invitations to direct or to play in a tournament that you have not "
        "answered yet, newest first. Accept (`…/{invitation_id}/accept/`) to become a "
        "director or an entrant; decline (`…/decline/`) and nothing changes.",
        responses={
            200: TournamentInvitationSerializer(many=True),
            401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
        },
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


def _answer_view(answer: Any, summary: str, description: str) -> type[APIView]:
    class AnswerView(APIView):
        @extend_schema(
            summary=summary,
            description=description,
            parameters=[INVITATION_ID],
            request=None,
            responses={
                200: TournamentInvitationSerializer,
                401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
                404: OpenApiResponse(
                    ErrorSerializer,
                    description="No open invitation of yours with that id (answered already, "
                    "or someone else's).",
                ),
                409: OpenApiResponse(
                    ErrorSerializer, description="The tournament does not take you now."
                ),
            },
        )
        def post(self, request: Request, invitation_id: int) -> Response:
            invitation = answer(user=signed_in(request), invitation_id=invitation_id)
            return Response(TournamentInvitationSerializer(invitation).data)

    AnswerView.__name__ = f"{summary.title().replace(' ', '')}View"
    return AnswerView


AcceptView = _answer_view(
    services.invitation_accept,
    "Accept a tournament invitation",
    "A director's invitation becomes true: you are a director, or an entrant (checked in or "
    "registered as the director asked; while the tournament runs, between rounds only "
    "(409 `round_open`), playing from the next round). 409 `wrong_state` once the "
    "tournament is finished, `entered` when you entered already.",
)
DeclineView = _answer_view(
    services.invitation_decline,
    "Decline a tournament invitation",
    "Nothing changes in the tournament, and its directors are not told.",
)

MINE = "me/tournament-invitations/"

urlpatterns = [
    path(MINE, MyTournamentInvitationsView.as_view(), name="me-tournament-invitations"),
    path(MINE + "<id:invitation_id>/accept/", AcceptView.as_view(), name="t-invitation-accept"),
    path(MINE + "<id:invitation_id>/decline/", DeclineView.as_view(), name="t-invitation-decline"),
]
