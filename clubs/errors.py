"""Domain errors raised by club services; the API maps them to the shared error shape
``{"code", "message", "fields"}``."""

from django.utils.translation import gettext_lazy
from rest_framework import status

from config.api.errors import Conflict, DomainError
from config.api.errors import InvalidInput as InvalidInput  # one class, shared by the apps


class ClubNotFound(DomainError):
    """The club (or a thing in it) does not exist for this caller (HTTP 404): private clubs
    do not exist for non-members."""

    status_code = status.HTTP_404_NOT_FOUND
    code = "not_found"
    default_message = gettext_lazy("There is no such club.")


class NotAllowed(DomainError):
    """The caller's role does not allow this (HTTP 403)."""

    status_code = status.HTTP_403_FORBIDDEN
    code = "permission_denied"
    default_message = gettext_lazy("Only the club's owners and admins may do that.")


class ClubConflict(Conflict):
    """The club's state does not allow this now (HTTP 409); ``code`` says why."""

    code = "club_conflict"
