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


class CupNotFound(DomainError):
    """The cup (or a thing in it: an event, a player) does not exist for this caller (HTTP
    404): drafts and private cups do not exist for those who may not see them
    (``tournaments.cup_permissions``)."""

    status_code = status.HTTP_404_NOT_FOUND
    code = "not_found"
    default_message = gettext_lazy("There is no such cup.")


class CupConflict(Conflict):
    """The cup's state does not allow this now (HTTP 409); ``code`` says why: ``wrong_state``
    (a step out of order), ``event_not_accepted`` (a tournament's directors have not accepted
    it), ``event_exists`` (the tournament is in the cup already), ``duplicate_result`` (two
    players to merge both have a result at one event), ``final_exists`` (the cup has a final
    event already), ``final_missing`` (a cup with a final finishes once the final's results
    are in), ``rule_set`` (a tournament of a rule set the cup does not count), ``account_taken``
    (another player of the cup has that account), ``has_results`` (a player with results)."""

    code = "cup_conflict"
