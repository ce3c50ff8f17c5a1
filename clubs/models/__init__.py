"""Club models by layer.

:mod:`.people` is the base every app may use (``User``, ``Club``, ``Membership``, and the
club's invitations, join requests and guests). :mod:`.evenings` and :mod:`.seasons` sit above
the games app: they group its tables (club evenings, their rounds and tables) and rank their
results; games never imports them.
"""

from clubs.models.evenings import (
    Attendance,
    CalendarFeed,
    Evening,
    EveningRound,
    EveningSeries,
    EveningTable,
)
from clubs.models.notifications import Device, Notification, NotificationSetting
from clubs.models.people import Club, Guest, Invitation, JoinRequest, Membership, User
from clubs.models.privacy import DataRequest
from clubs.models.seasons import Rating, RatingChange, Season, SeasonStanding

__all__ = [
    "Device",
    "Notification",
    "NotificationSetting",
    "Attendance",
    "CalendarFeed",
    "Club",
    "DataRequest",
    "Evening",
    "EveningRound",
    "EveningSeries",
    "EveningTable",
    "Guest",
    "Invitation",
    "JoinRequest",
    "Membership",
    "Rating",
    "RatingChange",
    "Season",
    "SeasonStanding",
    "User",
]
