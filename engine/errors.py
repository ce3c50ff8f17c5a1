"""Engine errors: every refusal names where (``at``), why (``message``, a sentence), and which
refusal it is (``code``, with the ``params`` its sentence is made of).

The engine speaks English and knows no translation machinery: each refusal is a
:class:`Message` (a stable ``code`` and an English ``template`` with named ``{placeholders}``),
registered once in :data:`MESSAGES`. The API renders a refusal in the reader's language from
its code and parameters (``config.i18n.engine_text``); the catalogs translate the templates
(``engine/locale``, written from :data:`MESSAGES` by ``make messages``).
"""

from __future__ import annotations

import string
import sys
from collections.abc import Mapping
from typing import Any

MESSAGES: dict[str, Message] = {}
"""Every engine refusal by code, as the modules that raise them define them."""


class EngineError(ValueError):
    """Invalid input or an illegal action.

    ``at`` names the offending place in a record (``"actions[14]"``, ``"rules.pot_cap"``) or is
    empty; ``message`` is a sentence a person understands, naming the rule in words; ``code``
    the refusal's :class:`Message` (empty for a sentence not yet given one) and ``params`` the
    values its template was filled with.
    """

    def __init__(
        self,
        at: str,
        message: str,
        *,
        code: str = "",
        params: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{at}: {message}" if at else message)
        self.at = at
        self.message = message
        self.code = code
        self.params: dict[str, str] = dict(params or {})

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"at": self.at, "message": self.message}
        if self.code:
            out["code"] = self.code
            out["params"] = dict(self.params)
        return out


class IllegalAction(EngineError):
    """An action the rules do not allow in this position (wrong turn, wrong phase, a rule)."""


class NotYourTurn(IllegalAction):
    """The action names a seat that is not to act."""


def placeholders(template: str) -> frozenset[str]:
    """The named fields of a ``str.format`` template (``{seat}``, ``{card}``)."""
    return frozenset(
        field for _, field, _, _ in string.Formatter().parse(template) if field is not None
    )


class Message:
    """One refusal of the engine: a stable ``code`` (snake_case, unique in the engine), the
    English ``template`` (``str.format`` with named fields only), and the error class it
    raises (``kind``: :class:`EngineError`, :class:`IllegalAction` or :class:`NotYourTurn`).

    ``raise NOT_A_CARD.error(at, text="X9")`` fills the template; every field must be given
    and nothing else, each as the text it shows (a card code, a seat, a number). Defining two
    messages with one code and different templates is a programming error.
    """

    __slots__ = ("code", "fields", "kind", "module", "template")

    code: str
    template: str
    kind: type[EngineError]
    fields: frozenset[str]
    module: str

    def __init__(self, code: str, template: str, kind: type[EngineError] = EngineError) -> None:
        if not code or not code.replace("_", "").isalnum() or code != code.lower():
            raise ValueError(f"an engine message code is snake_case, not {code!r}")
        fields = placeholders(template)
        if any(not f.isidentifier() for f in fields):
            raise ValueError(f"{code}: name every field of the template ({template!r})")
        known = MESSAGES.get(code)
        if known is not None and (known.template, known.kind) != (template, kind):
            raise ValueError(f"two engine messages have the code {code!r}")
        self.code = code
        self.template = template
        self.kind = kind
        self.fields = fields
        #: the module that defined it: the catalogs hold the engine's (``engine.…``), not those
        #: of a rule set a test registers
        self.module = str(sys._getframe(1).f_globals.get("__name__", ""))
        MESSAGES[code] = self

    def text(self, **params: Any) -> str:
        """The English sentence with ``params``."""
        given = set(params)
        if given != self.fields:
            raise ValueError(
                f"{self.code}: give exactly {sorted(self.fields)}, not {sorted(given)}"
            )
        return self.template.format(**{k: str(v) for k, v in params.items()})

    def error(self, at: str, **params: Any) -> EngineError:
        """The refusal at ``at`` (its :attr:`kind`), to raise."""
        return self.kind(
            at,
            self.text(**params),
            code=self.code,
            params={k: str(v) for k, v in params.items()},
        )

    def __repr__(self) -> str:
        return f"Message({self.code!r}, {self.template!r})"
