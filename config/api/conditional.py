"""Conditional GET: answers that phones poll carry an ``ETag`` (and, where the state has a
time, ``Last-Modified``); a client that sends them back (``If-None-Match`` /
``If-Modified-Since``, RFC 9110 section 13) gets a 304 without a body while nothing changed.

The view names its state in the ETag; :func:`conditional_answer` decides between 304 and the
full answer and sets the validators on both, so that a 304 carries the same caching headers as
the 200 it stands for. Headers the answer comes to vary on (``Vary``) belong in
:func:`_validated` for the same reason.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.http import http_date, parse_http_date_safe
from rest_framework import status
from rest_framework.request import Request


def is_current(
    request: Request | HttpRequest, *, etag: str, last_modified: dt.datetime | None = None
) -> bool:
    """Whether the client's copy is current: one of the tags in ``If-None-Match`` (or ``*``)
    is ``etag``; without that header, ``If-Modified-Since`` is no earlier than
    ``last_modified`` (to the second, as HTTP dates go)."""
    sent = request.headers.get("If-None-Match")
    if sent is not None:
        return etag in [tag.strip() for tag in sent.split(",")] or sent.strip() == "*"
    if last_modified is None:
        return False
    since = parse_http_date_safe(request.headers.get("If-Modified-Since", ""))
    return since is not None and int(last_modified.timestamp()) <= since


def _validated(
    answer: HttpResponse, *, etag: str, last_modified: dt.datetime | None
) -> HttpResponse:
    """The headers a 200 and its 304 share: the validators, and ``no-cache`` (a cache may
    keep the answer but asks again, with the validators, before using it)."""
    answer["ETag"] = etag
    if last_modified is not None:
        answer["Last-Modified"] = http_date(last_modified.timestamp())
    answer["Cache-Control"] = "no-cache"
    return answer


def conditional_answer(
    request: Request | HttpRequest,
    *,
    etag: str,
    build: Callable[[], HttpResponse],
    last_modified: dt.datetime | None = None,
) -> HttpResponse:
    """A 304 without a body when the client's copy is current (:func:`is_current`), else the
    answer ``build()`` makes (JSON, CSV or HTML; not called for a 304); both with the ETag,
    ``Last-Modified`` when given, and ``Cache-Control: no-cache``. ``etag`` is a quoted
    string naming the state the answer shows, and everything else it depends on but the
    language, which is added here (an answer in German is another representation)."""
    etag = f'{etag[:-1]}-{translation.get_language()}"'
    if is_current(request, etag=etag, last_modified=last_modified):
        answer = HttpResponse(status=status.HTTP_304_NOT_MODIFIED)
    else:
        answer = build()
    return _validated(answer, etag=etag, last_modified=last_modified)
