"""Domain errors raised by games services; the API maps them to the shared error shape."""

from rest_framework import status

from config.api.errors import DomainError


class RuleViolation(DomainError):
    """An action the rules do not allow in this position (HTTP 400)."""

    status_code = status.HTTP_400_BAD_REQUEST
    code = "rule_violation"
    default_message = "That action is not allowed by the rules."


class NotYourTurn(DomainError):
    """The acting player is not the one to move (HTTP 403)."""

    status_code = status.HTTP_403_FORBIDDEN
    code = "not_your_turn"
    default_message = "It is not your turn."


class StaleVersion(DomainError):
    """The client acted on an old version of the hand (HTTP 409)."""

    status_code = status.HTTP_409_CONFLICT
    code = "stale_version"
    default_message = "The hand has changed since you last saw it; reload and try again."
