"""The base of every view under ``clubs/{club_id}/``: the club as the caller may see it.

A private club does not exist for non-members (404); a public one answers 403 to those it
does not let in. The club found sets the timezone the answers' times are given in.
"""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from rest_framework import generics, serializers

from clubs import selectors
from clubs.models import Club, Evening
from clubs.selectors import evenings as selectors_evenings
from config.api.callers import caller

UTC = ZoneInfo("UTC")


class ClubScopedView(generics.GenericAPIView[Any]):
    """Views under ``clubs/{club_id}/``: the club as the caller may see it, its timezone
    for the answers' times. While the schema is generated there is no club: a list's
    ``get_queryset`` asks :meth:`schema_only` and answers an empty queryset."""

    zone: ZoneInfo = UTC

    def schema_only(self) -> bool:
        """True while drf-spectacular generates the schema (no request, no club)."""
        return bool(getattr(self, "swagger_fake_view", False))

    def _found(self, club: Club) -> Club:
        self.zone = selectors_evenings.club_zone(club)
        return club

    def read_club(self) -> Club:
        """Public clubs: anyone; private clubs: members (404 for others)."""
        return self._found(
            selectors.club_for_user(user=caller(self.request), club_id=self.kwargs["club_id"])
        )

    def member_club(self) -> Club:
        """Members only (404 for a private club, 403 for a public one)."""
        return self._found(
            selectors.club_for_member(user=caller(self.request), club_id=self.kwargs["club_id"])
        )

    def manager_club(self) -> Club:
        """Owners and admins (404 for a private club, 403 for other members)."""
        return self._found(
            selectors.club_for_manager(user=caller(self.request), club_id=self.kwargs["club_id"])
        )

    def evening(self, club: Club) -> Evening:
        """The path's ``evening_id`` in the club (404 for another club's)."""
        return selectors_evenings.evening_in_club(
            club=club, evening_id=self.kwargs["evening_id"], user=caller(self.request)
        )

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "zone": self.zone}

    def out(self, serializer_class: type[serializers.BaseSerializer[Any]], obj: Any) -> Any:
        """``obj`` serialized with the club's timezone in the context."""
        return serializer_class(obj, context={"zone": self.zone, "request": self.request}).data
