"""Permission-matrix rows for a person's data (``docs/privacy.md``): one's own export, its
status and signed download link, a club manager's export of a member, and erasing one's
account (each role erases itself; the owner is the club's last owner).

Placeholders beyond ``{club}`` come from the rows' ``setup``: ``{export}`` (a ready export of
the member's, built as the worker builds it) and its link's ``{signature}``; ``{target}``
(another plain member, whose data a manager exports).
"""

from __future__ import annotations

from clubs.models import DataRequest, Membership
from clubs.services import users
from tests.clubs.world import ClubWorld, Row, statuses
from tests.factories import UserFactory

API = "/api/v1"
CLUB = API + "/clubs/{club}/"


def _export(world: ClubWorld) -> None:
    member = world.users["member"]
    request = DataRequest.objects.create(subject=member, actor=member, kind=DataRequest.Kind.EXPORT)
    users.export_build(request_id=request.pk)
    world.extra["export"] = request.pk
    world.extra["signature"] = users.export_link_signature(request.pk)


def _target(world: ClubWorld) -> None:
    user = UserFactory.create(username="target")
    Membership.objects.create(club=world.club, user=user, role=Membership.Role.MEMBER)
    world.extra["target"] = user.pk


ROWS = [
    Row("get", API + "/me/export/", statuses(anonymous=401)),
    # only the subject sees an export; the link authorises by itself, anyone may follow it
    Row(
        "get",
        API + "/me/exports/{export}/",
        statuses(anonymous=401, member=200, rest=404),
        setup=_export,
    ),
    Row(
        "get",
        API + "/me/exports/{export}/download/?signature={signature}",
        statuses(),
        setup=_export,
    ),
    Row(
        "get",
        CLUB + "members/{target}/export/",
        statuses(anonymous=401, outsider=404, member=403, scorer=403),
        setup=_target,
    ),
    Row(
        "get",
        CLUB + "members/{target}/export/",
        statuses(anonymous=401, outsider=403, member=403, scorer=403),
        setup=_target,
        public=True,
    ),
    # a fresh sign-in erases without the password; the last owner of a club is refused
    Row("delete", API + "/me/", statuses(anonymous=401, owner=409, rest=204)),
]
