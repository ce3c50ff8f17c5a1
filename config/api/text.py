"""Answers that are not JSON: CSV files and iCalendar feeds.

Client generators read one media type per operation and status (openapi-python-client takes
the first it knows; OpenAPI Generator sends it as ``Accept``), so every non-JSON document is
an operation of its own whose success is text (``…/sheet.csv`` beside the JSON ``…/sheet/``)
and whose errors are JSON like everywhere else. :class:`TextAnswerView` is that operation's
base: a renderer for its one media type and errors rendered as JSON (documented as JSON for
every operation by :class:`config.api.schema.ApiAutoSchema`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class TextRenderer(BaseRenderer):
    """Passes a text body through; the views build it (a subclass names the media type)."""

    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if isinstance(data, bytes):
            return data
        return str(data).encode()


class CSVRenderer(TextRenderer):
    media_type = "text/csv"
    format = "csv"


class DataCSVRenderer(CSVRenderer):
    """CSV negotiated on a JSON operation (``?format=csv``, ``Accept: text/csv``), the form of
    API 1.1.0: an answer that has ``key`` is written by ``to_csv``, an error as a
    ``code,message`` row. The schema documents the ``….csv`` operation instead."""

    key = ""

    @staticmethod
    def to_csv(data: Mapping[str, Any], /) -> str:
        raise NotImplementedError

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if isinstance(data, Mapping) and self.key in data:
            return self.to_csv(data).encode()
        error = data if isinstance(data, Mapping) else {}
        return csv_text(
            [["code", "message"], [error.get("code", ""), error.get("message", "")]]
        ).encode()


class ICalendarRenderer(TextRenderer):
    media_type = "text/calendar"
    format = "ics"


class JsonErrorsMixin:
    """Renders error answers (4xx, 5xx) as JSON whatever the view's renderers."""

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        if response.status_code >= 400 and isinstance(response, Response):
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = "application/json"
        return response


class TextAnswerView(JsonErrorsMixin, APIView):
    """An operation answering one text media type (a subclass sets ``renderer_classes``)."""

    renderer_classes = [CSVRenderer]


def text_response(description: str) -> OpenApiResponse:
    """The documented success of a text answer: a string (not ``binary``, which generated
    clients would read as a file)."""
    return OpenApiResponse(OpenApiTypes.STR, description=description)


def csv_text(rows: Iterable[Iterable[Any]]) -> str:
    """Rows as CSV text, ``\\n`` line ends."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def file_answer(body: str, *, media_type: str, filename: str, inline: bool = False) -> HttpResponse:
    """A UTF-8 text answer that browsers save as ``filename`` (or show, ``inline``)."""
    answer = HttpResponse(body.encode(), content_type=f"{media_type}; charset=utf-8")
    disposition = "inline" if inline else "attachment"
    answer["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return answer
