"""Engine errors: every refusal names where (``at``) and why (``message``, a sentence)."""

from __future__ import annotations


class EngineError(ValueError):
    """Invalid input or an illegal action.

    ``at`` names the offending place in a record (``"actions[14]"``, ``"rules.pot_cap"``) or is
    empty; ``message`` is a sentence a person understands, naming the rule in words.
    """

    def __init__(self, at: str, message: str) -> None:
        super().__init__(f"{at}: {message}" if at else message)
        self.at = at
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"at": self.at, "message": self.message}


class IllegalAction(EngineError):
    """An action the rules do not allow in this position (wrong turn, wrong phase, a rule)."""


class NotYourTurn(IllegalAction):
    """The action names a seat that is not to act."""
