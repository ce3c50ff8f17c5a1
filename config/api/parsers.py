"""The JSON parser every endpoint uses: DRF's, refusing bodies no real client sends.

- Text containing NUL characters: PostgreSQL cannot store ``\\u0000`` in text, so such a value
  would fail in the database (a 500) wherever a field is not a DRF ``CharField`` (which refuses
  it itself), e.g. a username looked up by a ``SlugRelatedField``. Refused with 400
  ``parse_error``.
- A body that is not JSON: 400 ``parse_error`` saying where it goes wrong (DRF's own sentence
  carries the decoder's English).
- Nesting deeper than ``MAX_JSON_DEPTH`` arrays and objects: Python's decoder (and every
  recursive walk after it) runs out of stack on a body of a few kilobytes such as 5,000
  ``[``; no input of this API nests more than a few levels. Refused with 400
  ``json_too_deep``, both when the decoder gives up and when a decoded body is too deep.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext, gettext_lazy
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

#: The deepest nesting of arrays and objects a request body may have.
MAX_JSON_DEPTH = 32
TOO_DEEP = gettext_lazy(
    "The JSON body nests arrays and objects more than {depth} levels deep; "
    "no request of this API needs that."
)


def _too_deep() -> ParseError:
    return ParseError(str(TOO_DEEP).format(depth=MAX_JSON_DEPTH), code="json_too_deep")


def _not_json(error: BaseException | None) -> ParseError:
    """DRF's refusal of a body that is not JSON, in the reader's language: DRF words it
    ``JSON parse error - <the decoder's English>``, outside any catalog."""
    if isinstance(error, json.JSONDecodeError):
        return ParseError(
            gettext("The request body is not valid JSON (line {line}, column {column}).").format(
                line=error.lineno, column=error.colno
            )
        )
    return ParseError(gettext("The request body is not valid JSON."))


def _check(value: Any) -> None:
    """Refuse ``value`` if it nests deeper than :data:`MAX_JSON_DEPTH` or any text in it (keys
    too) holds a NUL; iterative, so the walk itself needs no stack."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ParseError(
                    gettext("Text in the request body must not contain NUL characters (\\u0000).")
                )
        elif isinstance(item, (dict, list)):
            if depth >= MAX_JSON_DEPTH:
                raise _too_deep()
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


class StrictJSONParser(JSONParser):
    """:class:`JSONParser` that refuses NUL characters anywhere in the body and nesting
    deeper than :data:`MAX_JSON_DEPTH`."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            # Python's decoder gives up near a thousand levels, long after our limit.
            raise _too_deep() from None
        except ParseError as refused:
            raise _not_json(refused.__context__) from None
        _check(data)
        return data
