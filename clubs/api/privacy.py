"""A person's data over the API (GDPR art. 15, 17, 20; ``docs/privacy.md``): the person's own
export and its download link, a club manager's export of a member's data in the club, and
erasing one's account (``DELETE /api/v1/me/``, in :class:`clubs.api.views.MeView`).

Each view calls one service of :mod:`clubs.services.users`, which records the request as a
:class:`~clubs.models.DataRequest` (the audit of who asked for whose data). An export the
caller may not see answers 404 as one that does not exist; a download link authorises by its
signature alone, as a pre-signed link does, so a phone can hand it to a browser.
"""

from __future__ import annotations

from typing import Any

from django.urls import path, reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import privacy
from clubs.api.scoped import ClubScopedView
from clubs.models import DataRequest, Membership
from clubs.services import users
from config.api.callers import signed_in
from config.api.schema import ApiAutoSchema, ErrorSerializer

# ---------------------------------------------------------------------------------------------
# serializers


class PersonalDataProfileSerializer(serializers.Serializer[dict[str, Any]]):
    """The account as its export's ``profile`` holds it (``clubs.privacy.profile``)."""

    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.CharField()
    email_verified_at = serializers.DateTimeField(allow_null=True)
    language = serializers.CharField(allow_null=True)
    public_name = serializers.BooleanField(allow_null=True)
    date_joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)
    erased_at = serializers.DateTimeField(allow_null=True)


class PersonalDataScopeSerializer(serializers.Serializer[dict[str, Any]]):
    """Whose request an export answers when a club's manager made it."""

    club = serializers.IntegerField(help_text="The club whose data the export holds.")


SECTION = (
    "What the {app} keeps about the person, as plain JSON; `docs/privacy.md` lists its fields."
)


class PersonalDataSerializer(serializers.Serializer[dict[str, Any]]):
    """Everything kept about a person (``clubs.privacy.export``): the account and one section
    per app. Hands appear as the person's seat saw them, never another seat's hidden cards."""

    format = serializers.CharField(help_text=f"`{privacy.FORMAT}`: what reads an export checks it.")
    generated_at = serializers.DateTimeField()
    scope = PersonalDataScopeSerializer(
        allow_null=True,
        help_text="null: the person's own export, everything; else a club manager's export "
        "of what that club keeps.",
    )
    profile = PersonalDataProfileSerializer()
    account = serializers.JSONField(required=False, help_text=SECTION.format(app="account"))
    clubs = serializers.JSONField(required=False, help_text=SECTION.format(app="clubs app"))
    tables = serializers.JSONField(required=False, help_text=SECTION.format(app="games app"))
    tournaments = serializers.JSONField(
        required=False, help_text=SECTION.format(app="tournaments app")
    )


class DataExportSerializer(serializers.Serializer[dict[str, Any]]):
    """A large export the worker builds: where to ask for it and, once ready, the link that
    downloads it."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=DataRequest.Status.choices,
        help_text="`pending`: being built, ask `url` again in a while; `ready`: `download_url` "
        "has it; `expired`: no longer kept, ask for a new export; `done`: an export answered "
        "at once (nothing to download here).",
    )
    url = serializers.URLField(help_text="This request's status (poll it).")
    download_url = serializers.URLField(
        allow_null=True,
        help_text="While `ready`: the document, with a signature that authorises it for an hour "
        "(no sign-in needed: a browser may open it). A new link comes with every look at "
        "`url`. null otherwise.",
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(
        allow_null=True, help_text="Until when the document is kept; null while pending."
    )


class AccountErasureSerializer(serializers.Serializer[dict[str, Any]]):
    """Input for ``DELETE /api/v1/me/``."""

    password = serializers.CharField(
        required=False,
        write_only=True,
        max_length=4096,
        style={"input_type": "password"},
        help_text="Your password. Omitted: you must have signed in within the last 10 minutes.",
    )


# ---------------------------------------------------------------------------------------------
# schema pieces


class BodyOnDeleteSchema(ApiAutoSchema):
    """Documents the optional JSON body of a ``DELETE`` (erasing one's account takes the
    password): drf-spectacular documents bodies of POST, PUT and PATCH only. Set on the view
    method with :func:`body_on_delete` below its ``extend_schema``."""

    def _get_request_body(self, direction: str = "request") -> dict[str, Any] | None:
        if self.method != "DELETE":
            return super()._get_request_body(direction)
        self.method = "POST"  # read the body as a POST's
        try:
            body = super()._get_request_body(direction)
        finally:
            self.method = "DELETE"
        if body is not None:
            body.pop("required", None)
        return body


def body_on_delete(method: Any) -> Any:
    """Let ``method`` (a view's ``delete``) document its request body."""
    method.schema = BodyOnDeleteSchema
    return method


EXPORT_ID = OpenApiParameter(
    "export_id",
    OpenApiTypes.INT,
    OpenApiParameter.PATH,
    description="The export's id (`id` of the 202 answer of `GET /api/v1/me/export/`).",
)
SIGNATURE = OpenApiParameter(
    "signature",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=True,
    description="The signature of `download_url`, which authorises the download for an hour.",
)
CLUB_ID = OpenApiParameter("club_id", OpenApiTypes.INT, OpenApiParameter.PATH)
USER_ID = OpenApiParameter(
    "user_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The member's user id."
)


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


DOCUMENT = OpenApiResponse(
    PersonalDataSerializer,
    description='The document, as a file (`Content-Disposition: attachment; filename="'
    'personal-data-<date>.json"`).',
)


def _file(document: dict[str, Any], filename: str) -> Response:
    answer = Response(document)
    answer["Content-Disposition"] = f'attachment; filename="{filename}"'
    return answer


def _day(document: dict[str, Any]) -> str:
    return str(document["generated_at"])[:10]


def export_body(request: Request, export: DataRequest) -> dict[str, Any]:
    """The answer about an export the worker builds, with a fresh download link while it is
    ready."""
    state = users.export_status(export)
    url = request.build_absolute_uri(reverse("my-export", kwargs={"export_id": export.pk}))
    download = None
    if state == DataRequest.Status.READY and export.document is not None:
        signature = users.export_link_signature(export.pk)
        download = request.build_absolute_uri(
            reverse("my-export-download", kwargs={"export_id": export.pk})
            + f"?signature={signature}"
        )
    return DataExportSerializer(
        {
            "id": export.pk,
            "status": state,
            "url": url,
            "download_url": download,
            "created_at": export.created_at,
            "expires_at": export.expires_at,
        }
    ).data


# ---------------------------------------------------------------------------------------------
# views


class MyExportView(APIView):
    """The caller's own export (GDPR art. 15 and 20)."""

    renderer_classes = [JSONRenderer]

    @extend_schema(
        summary="Export my data",
        description="Everything the service keeps about you, as one JSON document (a file: "
        "`Content-Disposition: attachment`): your account (`profile`), and per app your "
        "memberships, evenings, tables and hands (as your seat saw them), seasons, ratings "
        "and tournaments; `docs/privacy.md` lists every field. Each export is recorded.\n\n"
        "With more than 2000 hands at your seats the worker builds it: 202 with the "
        "export's `url`; ask it until `status` is `ready`, then fetch `download_url` (kept "
        "24 hours). Asking again while one is being built answers the same one.\n\n"
        "```\ncurl -H 'Authorization: Bearer <access>' -OJ https://…/api/v1/me/export/\n```",
        request=None,
        responses={
            200: DOCUMENT,
            202: OpenApiResponse(
                DataExportSerializer, description="Being built: ask `url` until ready."
            ),
        },
    )
    def get(self, request: Request) -> Response:
        export, document = users.user_export(user=signed_in(request))
        if document is None:
            return Response(export_body(request, export), status=status.HTTP_202_ACCEPTED)
        return _file(document, f"personal-data-{_day(document)}.json")


class MyExportStatusView(APIView):
    """One export of the caller's: its status and download link."""

    @extend_schema(
        summary="My export's status",
        description="`pending` while the worker builds it; `ready` with a `download_url` "
        "(a new one, valid for an hour, with every look) until `expires_at`; then "
        "`expired`. Only you see your exports: anyone else's answers 404 as an unknown id.",
        parameters=[EXPORT_ID],
        request=None,
        responses={
            200: DataExportSerializer,
            404: _error("not_found: no export of yours has this id."),
        },
    )
    def get(self, request: Request, export_id: int) -> Response:
        export = users.export_of(user=signed_in(request), request_id=export_id)
        return Response(export_body(request, export))


class MyExportDownloadView(APIView):
    """A ready export's document, authorised by the link's signature."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []
    renderer_classes = [JSONRenderer]

    @extend_schema(
        summary="Download my export",
        description="The document of a ready export, as a file. No sign-in: the signature "
        "of `download_url` authorises it for an hour, so a phone may hand the link to a "
        "browser. A damaged or older signature, an export not ready or no longer kept, and "
        "an unknown id all answer the same 404 `not_found`; the export's status gives a new "
        "link while it is kept (24 hours).",
        parameters=[EXPORT_ID, SIGNATURE],
        request=None,
        responses={
            200: DOCUMENT,
            400: _error("validation_error: the signature holds a NUL character."),
            404: _error("not_found: no such export, or the link has expired."),
        },
    )
    def get(self, request: Request, export_id: int) -> Response:
        export = users.export_download(
            request_id=export_id, signature=str(request.query_params.get("signature", ""))
        )
        assert export.document is not None
        return _file(export.document, f"personal-data-{_day(export.document)}.json")


class MemberExportView(ClubScopedView):
    """A club manager's export of a member's data in the club, on the member's request."""

    queryset = Membership.objects.none()
    serializer_class = PersonalDataSerializer
    renderer_classes = [JSONRenderer]

    @extend_schema(
        summary="Export a member's data in the club",
        description="What this club keeps about the member (their membership, the club's "
        "evenings, tables, seasons, ratings and tournaments), as a file, for a club that "
        "answers a member's request for their data (GDPR art. 15). Owners and admins only; "
        "each export is recorded with who made it (the club's audit). A user who is not a "
        "member answers 404 as an unknown one.",
        parameters=[CLUB_ID, USER_ID],
        request=None,
        responses={
            200: DOCUMENT,
            403: _error("permission_denied: only the club's owners and admins may do this."),
            404: _error(
                "not_found: no such club, a private club you are not a member of, or no such "
                "member in it."
            ),
        },
    )
    def get(self, request: Request, club_id: int, user_id: int) -> Response:
        club = self.manager_club()
        document = users.member_export(club=club, manager=signed_in(request), member_id=user_id)
        return _file(document, f"personal-data-{club.slug}-{user_id}-{_day(document)}.json")


# ---------------------------------------------------------------------------------------------
# routes

urlpatterns = [
    path("me/export/", MyExportView.as_view(), name="me-export"),
    path("me/exports/<id:export_id>/", MyExportStatusView.as_view(), name="my-export"),
    path(
        "me/exports/<id:export_id>/download/",
        MyExportDownloadView.as_view(),
        name="my-export-download",
    ),
    path(
        "clubs/<id:club_id>/members/<id:user_id>/export/",
        MemberExportView.as_view(),
        name="club-member-export",
    ),
]
