"""Domain errors raised by games services; the API maps them to the shared error shape."""

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from config.api.errors import Conflict, DomainError
from config.api.errors import InvalidInput as InvalidInput  # one class, shared by the apps


class RuleViolation(DomainError):
    """An action or entry the rules do not allow (HTTP 400); the message is the engine's."""

    status_code = status.HTTP_400_BAD_REQUEST
    code = "rule_violation"
    default_message = _("That action is not allowed by the rules.")


class NotYourTurn(DomainError):
    """Not the caller's seat, or not the caller's turn (HTTP 403)."""

    status_code = status.HTTP_403_FORBIDDEN
    code = "not_your_turn"
    default_message = _("It is not your turn.")


class NotAllowed(DomainError):
    """The caller may not change this table (HTTP 403)."""

    status_code = status.HTTP_403_FORBIDDEN
    code = "permission_denied"
    default_message = _(
        "Only the table's seated players (and its club admins or tournament directors) may do that."
    )


class StaleVersion(DomainError):
    """The client acted on an old version of the hand (HTTP 409)."""

    status_code = status.HTTP_409_CONFLICT
    code = "stale_version"
    default_message = _("The hand has changed since you last saw it; reload and try again.")


class TableConflict(Conflict):
    """The table's state does not allow this now (closed, a hand unconfirmed, …) (HTTP 409)."""

    code = "table_conflict"


class IdempotencyMismatch(DomainError):
    """An ``Idempotency-Key`` reused with a different request (HTTP 422)."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    code = "idempotency_key_reused"
    default_message = _("This Idempotency-Key was already used with a different request.")
