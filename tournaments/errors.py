"""Domain errors raised by tournament services; the API maps them to the shared error shape
``{"code", "message", "fields"}``."""

from django.utils.translation import gettext_lazy
from rest_framework import status

from config.api.errors import Conflict, DomainError
from config.api.errors import InvalidInput as InvalidInput  # one class, shared by the apps


class TournamentNotFound(DomainError):
    """The tournament (or a thing in it) does not exist for this caller (HTTP 404): drafts
    and private tournaments do not exist for those who may not see them."""

    status_code = status.HTTP_404_NOT_FOUND
    code = "not_found"
    default_message = gettext_lazy("There is no such tournament.")


class NotAllowed(DomainError):
    """The caller may not do this (HTTP 403)."""

    status_code = status.HTTP_403_FORBIDDEN
    code = "permission_denied"
    default_message = gettext_lazy("Only the tournament's directors may do that.")


class TournamentConflict(Conflict):
    """The tournament's state does not allow this now (HTTP 409); ``code`` says why
    (``wrong_state``, ``round_open``, ``unsplittable``, ...)."""

    code = "tournament_conflict"
