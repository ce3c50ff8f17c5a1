"""The translation catalogs: where they are, what the code asks of them, the engine's part, and
the pseudo-locale.

Catalogs are gettext PO files (what Weblate and Crowdin read), one per part of the code, next
to it: ``games/locale``, ``clubs/locale``, ``tournaments/locale``, ``config/locale`` (the API's
own sentences, and everything outside the apps) and ``engine/locale`` (the engine's refusals
and the rule sets' words, which the engine keeps as English data: ``engine.errors.MESSAGES``,
``RuleSet.labels``). Each holds ``<language>/LC_MESSAGES/django.po`` and its compiled
``django.mo``, committed so that a machine without gettext serves every language.

``make messages`` extracts the apps' sentences with Django's ``makemessages`` (GNU gettext),
writes the engine's catalogs from its registry (``python -m config.catalogs engine``) and
compiles them all. :func:`extracted` finds the same sentences in the code without gettext
(the catalog test compares the two), and :func:`write_pseudo` writes the pseudo-locale
``en-xa`` in which every sentence is wrapped and accented, so that a test finds any English
sentence that still reaches a reader.
"""

from __future__ import annotations

import ast
import os
import re
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
#: The directories whose code has a catalog of its own, each ``<dir>/locale``.
CATALOG_DIRS = ("config", "engine", "games", "clubs", "tournaments")
#: The languages that have catalogs: every offered one but English (the code's own), and
#: those waiting for a translator (Russian).
CATALOG_LANGUAGES = ("de", "ru")
#: The pseudo-locale's code (as Android's ``en-XA``).
PSEUDO = "en-xa"
#: ``msgctxt`` of an engine refusal (``engine:<code>``) and of a rule set's word
#: (``engine:<variant>:<kind>:<code>``).
ENGINE_CONTEXT = "engine:"

#: gettext functions and which arguments are the context, the message and its plural.
KEYWORDS = {
    "_": (None, 0, None),
    "gettext": (None, 0, None),
    "gettext_lazy": (None, 0, None),
    "gettext_noop": (None, 0, None),
    "ngettext": (None, 0, 1),
    "ngettext_lazy": (None, 0, 1),
    "pgettext": (0, 1, None),
    "pgettext_lazy": (0, 1, None),
    "npgettext": (0, 1, 2),
    "npgettext_lazy": (0, 1, 2),
}
#: Folders that hold no code a reader sees.
SKIP_PARTS = frozenset({"migrations", "locale", "__pycache__", "tests"})


@dataclass(frozen=True, order=True, slots=True)
class Key:
    """One entry of a catalog: its context (or ``""``) and message (and plural)."""

    context: str
    message: str
    plural: str = ""


def catalog_path(directory: str, language: str, suffix: str = "po") -> Path:
    """``<directory>/locale/<language>/LC_MESSAGES/django.<suffix>``."""
    locale = language.replace("-", "_")
    return ROOT / directory / "locale" / locale / "LC_MESSAGES" / f"django.{suffix}"


# --- what the code asks -------------------------------------------------------------------


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _python_keys(source: str) -> Iterator[Key]:
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name not in KEYWORDS:
            continue
        context_at, message_at, plural_at = KEYWORDS[name]
        args = [_literal(a) for a in node.args]
        message = args[message_at] if len(args) > message_at else None
        if message is None:
            continue
        context = args[context_at] if context_at is not None else ""
        plural = args[plural_at] if plural_at is not None and len(args) > plural_at else ""
        yield Key(context or "", message, plural or "")


def _template_keys(source: str) -> Iterator[Key]:
    """The sentences of a Django template, as ``makemessages`` finds them (Django's own
    ``templatize`` turns ``{% translate %}`` and ``{% blocktranslate %}`` into gettext calls)."""
    from django.utils.translation.template import templatize

    code = templatize(source)
    # templatize writes one call per line, e.g. `` gettext('Standings') `` or
    # `` pgettext('context', 'text') ``; the rest is X's and blanks
    for line in code.splitlines():
        line = line.strip().strip("X").strip()
        if not line:
            continue
        for part in re.findall(r"\b(?:n?p?gettext)\(.*?\)(?=\s|$)", line):
            with_calls = ast.parse(part, mode="eval")
            yield from _python_keys(ast.unparse(with_calls))


def _files(directory: str) -> Iterator[Path]:
    for path in sorted((ROOT / directory).rglob("*")):
        if SKIP_PARTS & set(path.relative_to(ROOT).parts) or not path.is_file():
            continue
        if path.suffix in (".py", ".html", ".txt", ".ics"):
            yield path


def extracted(directory: str) -> set[Key]:
    """Every sentence the code under ``directory`` asks gettext for (tests and migrations
    aside), as ``makemessages`` extracts them into its catalog."""
    out: set[Key] = set()
    for path in _files(directory):
        text = path.read_text()
        if path.suffix == ".py":
            out.update(_python_keys(text))
        else:
            out.update(_template_keys(text))
    if directory == "engine":
        out.update(engine_keys())
    return out


def engine_keys() -> set[Key]:
    """The engine's part of its catalog: each refusal's template (``engine:<code>``), each
    rule set's words (``engine:<variant>:<kind>:<code>``, its English label), its description
    (``engine:<variant>:description``) and its options' (``engine:<variant>:option:<name>``)."""
    import engine  # registers every rule set, and with them their messages
    from engine.errors import MESSAGES

    keys = {
        Key(f"{ENGINE_CONTEXT}{m.code}", m.template)
        for m in MESSAGES.values()
        if m.module.startswith("engine.")
    }
    for rule_set in engine.rule_sets(include_engine_only=True):
        if not type(rule_set).__module__.startswith("engine."):
            continue  # a rule set the tests register has no catalog
        keys.add(Key(f"{ENGINE_CONTEXT}{rule_set.name}:description", rule_set.description))
        for option in rule_set.options:
            keys.add(
                Key(f"{ENGINE_CONTEXT}{rule_set.name}:option:{option.name}", option.description)
            )
        for code, label in rule_set.labels.items():
            keys.add(Key(f"{ENGINE_CONTEXT}{rule_set.name}:{code}", label))
    return keys


# --- reading and writing catalogs ---------------------------------------------------------


def key_of(entry: polib.POEntry) -> Key:
    return Key(entry.msgctxt or "", entry.msgid, entry.msgid_plural or "")


def entries(path: Path) -> dict[Key, polib.POEntry]:
    """The live entries of a PO file (obsolete ones left out), by key."""
    if not path.exists():
        return {}
    return {key_of(e): e for e in polib.pofile(str(path)) if not e.obsolete}


def _header(language: str) -> dict[str, str]:
    plural = {
        "de": "nplurals=2; plural=(n != 1);",
        "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
        "(n%100<10 || n%100>=20) ? 1 : 2);",
    }.get(language, "nplurals=2; plural=(n != 1);")
    return {
        "Project-Id-Version": "preference",
        "Language": language,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": plural,
    }


def _brace_flag(message: str) -> list[str]:
    return ["python-brace-format"] if re.search(r"\{[a-z_]+\}", message) else []


def write_engine(languages: Iterable[str] = CATALOG_LANGUAGES) -> list[Path]:
    """Write ``engine/locale/<language>/LC_MESSAGES/django.po`` from the registry, keeping
    every translation whose context and English text are unchanged; compile each."""
    keys = sorted(engine_keys())
    written = []
    for language in languages:
        path = catalog_path("engine", language)
        old = entries(path)
        po = polib.POFile(wrapwidth=100)
        po.metadata = _header(language)
        for key in keys:
            kept = old.get(key)
            po.append(
                polib.POEntry(
                    msgctxt=key.context,
                    msgid=key.message,
                    msgstr=kept.msgstr if kept is not None else "",
                    flags=_brace_flag(key.message),
                )
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        po.save(str(path))
        po.save_as_mofile(str(path.with_suffix(".mo")))
        written.append(path)
    return written


# --- the pseudo-locale --------------------------------------------------------------------

_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķłɱñöþǫŕšŧûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶŁṀÑÖÞǪŔŠŦÛṼŴẊÝŽ",
)
#: What a translation must keep as it is: ``{name}``, ``%(name)s``, ``%s``, HTML tags.
_KEEP = re.compile(r"\{[^{}]*\}|%\([^)]*\)[sdif]|%[sdif]|<[^<>]*>|&[a-z]+;")
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"


_FORMAT = re.compile(r"[A-Za-z](?:[\s,.:/\\-]+[A-Za-z])*")


def pseudo(text: str) -> str:
    """``text`` accented and wrapped (``⟦Ŧĥé ŧåƀłé …⟧``), its placeholders and tags kept; a
    date or number format (``l j F Y, H:i``: single letters) stays as it is, since it is a
    pattern, not a sentence."""
    if _FORMAT.fullmatch(text):
        return text
    out, at = [], 0
    for found in _KEEP.finditer(text):
        out.append(text[at : found.start()].translate(_ACCENTS))
        out.append(found.group())
        at = found.end()
    out.append(text[at:].translate(_ACCENTS))
    return f"{PSEUDO_OPEN}{''.join(out)}{PSEUDO_CLOSE}"


def write_pseudo(target: Path) -> Path:
    """One pseudo-locale catalog of every catalog's entries, compiled, under
    ``target/en_XA/LC_MESSAGES/django.mo`` (``target`` goes into ``LOCALE_PATHS``); written
    to a temporary file first, so parallel test workers never read half of it."""
    po = polib.POFile()
    po.metadata = _header(PSEUDO)
    seen: set[Key] = set()
    for directory in CATALOG_DIRS:
        for key, entry in entries(catalog_path(directory, CATALOG_LANGUAGES[0])).items():
            if key in seen:
                continue
            seen.add(key)
            if entry.msgid_plural:
                po.append(
                    polib.POEntry(
                        msgctxt=entry.msgctxt,
                        msgid=entry.msgid,
                        msgid_plural=entry.msgid_plural,
                        msgstr_plural={0: pseudo(entry.msgid), 1: pseudo(entry.msgid_plural)},
                    )
                )
            else:
                po.append(
                    polib.POEntry(
                        msgctxt=entry.msgctxt, msgid=entry.msgid, msgstr=pseudo(entry.msgid)
                    )
                )
    mo = target / "en_XA" / "LC_MESSAGES" / "django.mo"
    mo.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=mo.parent, suffix=".mo")
    os.close(handle)
    po.save_as_mofile(temporary)
    os.replace(temporary, mo)
    return mo


if __name__ == "__main__":
    if sys.argv[1:] == ["engine"]:
        for written in write_engine():
            print(f"wrote {written.relative_to(ROOT)}")
    else:
        sys.exit("usage: python -m config.catalogs engine")
