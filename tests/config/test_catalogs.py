"""The catalogs (``config/catalogs.py``) are true to the code: every sentence the code asks
gettext for is in each language's catalog and nothing else is; an offered language's catalog
translates every entry, none fuzzy, each with exactly the placeholders of its English; the
compiled ``.mo`` files say what the ``.po`` files say. (The engine's refusals in every
language: ``tests/engine/test_messages.py``.)"""

from __future__ import annotations

import re
import string
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

from config.catalogs import (
    CATALOG_DIRS,
    CATALOG_LANGUAGES,
    PSEUDO,
    catalog_path,
    entries,
    extracted,
    key_of,
    pseudo,
)
from engine.errors import MESSAGES, Message, placeholders

#: The offered languages with a catalog (English is the code's own).
TRANSLATED = [code for code, _ in settings.LANGUAGES if code in CATALOG_LANGUAGES]
CATALOGS = [(d, lang) for d in CATALOG_DIRS for lang in CATALOG_LANGUAGES]


def _ids(value: object) -> str:
    return "-".join(value) if isinstance(value, tuple) else str(value)


@pytest.mark.parametrize("directory", CATALOG_DIRS)
def test_each_catalog_holds_exactly_what_the_code_asks(directory: str) -> None:
    wanted = extracted(directory)
    for language in CATALOG_LANGUAGES:
        have = set(entries(catalog_path(directory, language)))
        missing = sorted(wanted - have)[:10]
        extra = sorted(have - wanted)[:10]
        assert not missing and not extra, (
            f"{catalog_path(directory, language).relative_to(settings.BASE_DIR)} is out of date "
            f"(run `make messages`): missing {missing}, no longer asked {extra}"
        )


def _fields(text: str) -> list[str]:
    """The placeholders of a sentence, as a translation must keep them: ``{name}``,
    ``%(name)s``, ``%s``."""
    braces = sorted(placeholders(text)) if "{" in text else []
    percent = sorted(re.findall(r"%\([a-z_]+\)[sdif]|%[sdif]", text))
    return braces + percent


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("directory", CATALOG_DIRS)
def test_an_offered_language_translates_every_sentence_with_its_placeholders(
    directory: str, language: str
) -> None:
    path = catalog_path(directory, language)
    if not path.exists():
        assert not extracted(directory), f"{path} is missing (run `make messages`)"
        return
    po = polib.pofile(str(path))
    assert not po.fuzzy_entries(), [e.msgid for e in po.fuzzy_entries()][:10]
    untranslated = [e.msgid for e in po.untranslated_entries() if not e.obsolete]
    assert not untranslated, f"{path}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    for entry in po.translated_entries():
        if entry.msgid_plural:
            for form in entry.msgstr_plural.values():
                assert set(_fields(form)) <= set(_fields(entry.msgid_plural)), entry.msgid
            continue
        assert _fields(entry.msgstr) == _fields(entry.msgid), (
            f"{path}: {entry.msgid!r} → {entry.msgstr!r} changes its placeholders"
        )


@pytest.mark.parametrize("catalog", CATALOGS, ids=_ids)
def test_the_compiled_catalog_says_what_the_catalog_says(catalog: tuple[str, str]) -> None:
    directory, language = catalog
    path = catalog_path(directory, language)
    if not path.exists():
        return
    mo = Path(str(path)[:-3] + ".mo")
    assert mo.exists(), f"{mo} is missing (run `make messages`)"
    written = {key_of(e): (e.msgstr, e.msgstr_plural) for e in polib.mofile(str(mo)) if e.msgid}
    translated = {
        key_of(e): (e.msgstr, e.msgstr_plural)
        for e in polib.pofile(str(path)).translated_entries()
        if not e.obsolete
    }
    assert written == translated, f"{mo} is out of date (run `make messages`)"


def test_a_message_refuses_the_wrong_parameters() -> None:
    message = Message("test_only_message", "{seat} cannot play {card}.")
    assert message.text(seat="anna", card="HA") == "anna cannot play HA."
    with pytest.raises(ValueError):
        message.text(seat="anna")
    with pytest.raises(ValueError):
        Message("test_only_message", "another template")
    MESSAGES.pop("test_only_message")


def test_the_pseudo_locale_wraps_and_accents_but_keeps_placeholders_and_tags() -> None:
    text = "Table {name} has %(count)s seats; <b>see</b> %s."
    out = pseudo(text)
    assert out.startswith("⟦") and out.endswith("⟧")
    assert "{name}" in out and "%(count)s" in out and "<b>" in out and "%s" in out
    assert "Table" not in out and "seats" not in out
    assert string.Formatter().parse(out) is not None


def test_the_pseudo_locale_is_offered_in_tests_only() -> None:
    assert PSEUDO in dict(settings.LANGUAGES)
    with translation.override(PSEUDO):
        assert translation.get_language() == PSEUDO
        assert translation.gettext("Not an offered language.").startswith("⟦")
