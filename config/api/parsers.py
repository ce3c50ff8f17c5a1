"""The JSON parser every endpoint uses: DRF's, refusing text that contains NUL characters.

PostgreSQL cannot store ``\\u0000`` in text, so such a value would fail in the database (a
500) wherever a field is not a DRF ``CharField`` (which refuses it itself), e.g. a username
looked up by a ``SlugRelatedField``. No real input contains it: the body is refused at once
with 400 ``parse_error`` and a sentence.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    return False


class StrictJSONParser(JSONParser):
    """:class:`JSONParser` that refuses NUL characters anywhere in the body."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        if _has_nul(data):
            raise ParseError("Text in the request body must not contain NUL characters (\\u0000).")
        return data
