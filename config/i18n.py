"""Whose language an answer speaks, and the engine's sentences in it.

The reader's language is, in order: their saved preference (``User.language``, set on
``/api/v1/me/``), the request's ``Accept-Language``, the club's language for a club's texts
(``Club.language``), else English (``LANGUAGE_CODE``). :class:`LanguageMiddleware` activates
the request's language before the view and says it in ``Content-Language`` (with ``Vary:
Accept-Language``); the API's authentication switches to a signed-in user's preference
(:func:`activate_for`). Texts that leave without a request (e-mails, reminders, iCal feeds)
speak the recipient's language: :func:`language_for` and Django's ``translation.override``.

Machine-readable ``code``s, field names, enum values and URLs never change with the language;
the OpenAPI descriptions stay English.

The engine speaks English and knows no catalogs: a refusal carries its code and parameters
(``engine.errors.Message``), and :func:`engine_text` renders it from the catalog
(``msgctxt`` ``engine:<code>``, ``msgid`` the English template), the English sentence where
the catalog has none.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

import engine
from engine.errors import MESSAGES

#: The ``msgctxt`` prefix of the engine's refusals in the catalogs.
ENGINE_CONTEXT = "engine:"


def offered() -> list[str]:
    """The language codes the server offers (``settings.LANGUAGES``)."""
    return [code for code, _ in settings.LANGUAGES]


def supported(code: str | None) -> str | None:
    """``code`` when the server offers it (or its base language: ``de-AT`` → ``de``), else
    None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def language_for(user: Any = None, club: Any = None) -> str:
    """The language of a text sent to ``user`` without a request (an e-mail, a reminder): their
    preference, else ``club``'s language, else the server's default."""
    return (
        supported(getattr(user, "language", None))
        or supported(getattr(club, "language", None))
        or settings.LANGUAGE_CODE
    )


def activate_for(user: Any) -> None:
    """Speak ``user``'s saved language from now on in this request, where they saved one."""
    chosen = supported(getattr(user, "language", None))
    if chosen:
        translation.activate(chosen)


def request_language(request: HttpRequest) -> str:
    """The language of ``request`` before anyone signed in: its ``Accept-Language`` (the
    offered language it prefers most), else the server's default."""
    return translation.get_language_from_request(request) or settings.LANGUAGE_CODE


class LanguageMiddleware:
    """Activates the request's language (:func:`request_language`) for the view, which the
    authentication may change to the user's preference; the answer says the language it
    speaks in ``Content-Language`` and varies on ``Accept-Language``. Unlike Django's
    ``LocaleMiddleware`` it reads no cookie or session and never redirects: the API's URLs
    carry no language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        translation.activate(request_language(request))
        try:
            response = self.get_response(request)
            response.headers.setdefault("Content-Language", translation.get_language())
            patch_vary_headers(response, ("Accept-Language",))
            return response
        finally:
            translation.deactivate()


class SessionUserLanguageMiddleware:
    """The admin's and the browsable pages' pages speak the signed-in user's saved language:
    after Django's ``AuthenticationMiddleware``, a page outside the API (the API's
    authentication does this itself, for tokens too) switches to the session user's
    preference."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated:
                activate_for(user)
        return self.get_response(request)


#: A list the engine joined in English: codes without spaces between ", ", " or " and " and "
#: ("D9 or DK or DA", "carry, split and keep").
_LIST = re.compile(r"[^\s,]+(?:(?:, | or | and )[^\s,]+)+")


def _joined(value: str) -> str:
    """A parameter of an engine refusal with the words that join a list (``or``, ``and``)
    in the active language; any other value as it is."""
    if not _LIST.fullmatch(value):
        return value
    either = translation.pgettext("joining a list", "or")
    both = translation.pgettext("joining a list", "and")
    return value.replace(" or ", f" {either} ").replace(" and ", f" {both} ")


def engine_text(error: engine.EngineError) -> str:
    """The engine's refusal in the active language: its message's template from the catalog,
    filled with its parameters; the English sentence where the refusal has no code."""
    message = MESSAGES.get(error.code) if error.code else None
    if message is None:
        return error.message
    translated = translation.pgettext(f"{ENGINE_CONTEXT}{message.code}", message.template)
    params = {name: _joined(value) for name, value in error.params.items()}
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError):
        # a translation that names a field the refusal lacks: the catalog test catches it
        return error.message


def label(rule_set: engine.RuleSet[Any, Any, Any], code: str, default: str | None = None) -> str:
    """A rule set's word in the active language: its English label (``RuleSet.labels``, by
    ``<kind>:<code>``) from the catalog (``msgctxt`` ``engine:<variant>:<kind>:<code>``);
    ``default`` (else the code itself) where the rule set has no label for it."""
    english = rule_set.labels.get(code)
    if english is None:
        return code if default is None else default
    return translation.pgettext(f"{ENGINE_CONTEXT}{rule_set.name}:{code}", english)


def rule_set_description(rule_set: engine.RuleSet[Any, Any, Any]) -> str:
    """The rule set in one line (``RuleSet.description``), in the active language."""
    return translation.pgettext(
        f"{ENGINE_CONTEXT}{rule_set.name}:description", rule_set.description
    )


def option_description(rule_set: engine.RuleSet[Any, Any, Any], option: Any) -> str:
    """What one of the rule set's options decides (``Option.description``), in the active
    language."""
    return translation.pgettext(
        f"{ENGINE_CONTEXT}{rule_set.name}:option:{option.name}", option.description
    )
