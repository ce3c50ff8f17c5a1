"""The layers stay as drawn: engine ← games ← clubs' evenings, seating, seasons ← tournaments,
with ``User``, ``Club``, ``Membership`` (and a club's guests) as the base every app may use.
A lower layer never imports a higher one; games learns who manages a table through
``games.managers``, which the apps above fill in.

``config`` wires the apps together and uses only their public names. An app's ``api`` package
is the top of the stack: the API layer (the apps' ``api`` packages; ``config/urls.py`` includes
their urls by dotted string) may import it, nothing else may: services, selectors, the live
consumer and ``config`` reach the database through selectors and services, never a view."""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.sources import parsed, parsed_file

ROOT = Path(__file__).resolve().parent.parent
BASE_NAMES = {"User", "Club", "Membership", "Guest"}
#: Modules of the base that every app may import whole: a person's data across the apps
#: (issue 39: each app registers what it keeps about a person, ``clubs.privacy.Keeper``).
BASE_MODULES = {"clubs.privacy", "clubs.outbox", "clubs.notifications"}
APPS = ("engine", "games", "clubs", "tournaments")
APPS_WITH_API = ("games", "clubs", "tournaments")
CORES = ("seating.py", "seating/*.py", "standings.py", "ratings.py")


def _imports(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """(module, names) for every import in ``path``, relative imports resolved."""
    tree = parsed_file(path)
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*parts, module] if module else parts)
            out.append((module, tuple(a.name for a in node.names)))
    return out


def _sources(app: str) -> list[Path]:
    return [p for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts]


@pytest.mark.parametrize("path", _sources("games"), ids=lambda p: str(p.relative_to(ROOT)))
def test_games_imports_only_the_base_of_clubs_and_nothing_of_tournaments(path: Path) -> None:
    for module, names in _imports(path):
        assert not module.startswith("tournaments"), f"{path}: imports {module}"
        if module == "clubs":  # from clubs import outbox
            assert {f"clubs.{n}" for n in names} <= BASE_MODULES, (
                f"{path}: imports {names} of clubs; games may use only {sorted(BASE_MODULES)}"
            )
        elif module.startswith("clubs") and module not in BASE_MODULES:
            assert module == "clubs.models" and set(names) <= BASE_NAMES, (
                f"{path}: imports {module} {names}; games may use only "
                f"{sorted(BASE_NAMES)} from clubs.models, and {sorted(BASE_MODULES)}"
            )


@pytest.mark.parametrize("path", _sources("clubs"), ids=lambda p: str(p.relative_to(ROOT)))
def test_clubs_never_imports_tournaments(path: Path) -> None:
    for module, _ in _imports(path):
        assert not module.startswith("tournaments"), f"{path}: imports {module}"


@pytest.mark.parametrize(
    "path",
    [ROOT / "clubs/models/people.py", ROOT / "clubs/models/privacy.py", ROOT / "clubs/privacy.py"]
    + [
        ROOT / "tournaments" / name
        for name in ("scoring.py", "swiss.py", "prizes.py", "cups.py", "cups_import.py")
    ]
    + [p for core in CORES for p in sorted((ROOT / "clubs").glob(core))],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_the_base_and_the_algorithm_cores_import_no_app_above_them(path: Path) -> None:
    for module, _ in _imports(path):
        assert not module.startswith(("games", "tournaments")), f"{path}: imports {module}"
        if path.name not in ("people.py", "privacy.py"):
            assert not module.startswith(("django", "rest_framework", "clubs.models")), (
                f"{path}: an algorithm core imports {module}; keep it free of the ORM"
            )


@pytest.mark.parametrize(
    "name", ["scoring.py", "swiss.py", "prizes.py", "cups.py", "cups_import.py"]
)
def test_the_tournament_cores_import_only_the_standard_library(name: str) -> None:
    path = ROOT / "tournaments" / name
    modules = {module.split(".")[0] for module, _ in _imports(path)}
    assert modules <= set(sys.stdlib_module_names) | {"__future__"}, f"{path}: {modules}"


@pytest.mark.parametrize("path", _sources("config"), ids=lambda p: str(p.relative_to(ROOT)))
def test_config_imports_no_private_name_of_an_app(path: Path) -> None:
    for module, names in _imports(path):
        parts = module.split(".")
        if parts[0] not in APPS:
            continue
        private = [n for n in [*parts[1:], *names] if n.startswith("_")]
        assert not private, f"{path}: imports {private} from {module}; use its public names"


def _in_an_api(path: Path) -> bool:
    """Whether ``path`` is part of an app's API layer (``<app>/api/…``)."""
    parts = path.relative_to(ROOT).parts
    return len(parts) > 2 and parts[0] in APPS_WITH_API and parts[1] == "api"


@pytest.mark.parametrize(
    "path",
    [p for app in (*APPS, "config") for p in _sources(app) if not _in_an_api(p)],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_nothing_outside_the_api_layer_imports_an_apps_api(path: Path) -> None:
    for module, names in _imports(path):
        parts = module.split(".")
        if parts[0] not in APPS_WITH_API:
            continue
        assert parts[1:2] != ["api"] and not (len(parts) == 1 and "api" in names), (
            f"{path}: imports {module} {names}; only an app's api (and config/urls.py's "
            "include strings) may use an app's api"
        )


def _objects_reads(path: Path) -> list[str]:
    """Every ``<Model>.objects`` use in ``path`` but an empty ``….objects.none()``: DRF's
    generic views and the schema generator ask a class's ``queryset`` (or an ``as_view``
    ``queryset``) for its model, and an empty queryset reads nothing."""
    tree = parsed_file(path)
    empty = {
        id(node.func.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "none"
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "objects"
    }
    return [
        f"line {node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "objects" and id(node) not in empty
    ]


@pytest.mark.parametrize(
    "path",
    [p for app in APPS_WITH_API for p in _sources(app) if _in_an_api(p)],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_views_read_through_selectors_never_model_objects(path: Path) -> None:
    """STYLE.md: views never touch ``Model.objects`` beyond a selector; the reads an API
    module needs are selectors (``<app>/selectors``) named for what they return."""
    reads = _objects_reads(path)
    assert not reads, f"{path}: reads the database directly ({reads}); use a selector"


#: The rule-set packages under ``engine/rules/`` (``wien``; the ones to come by their folder).
RULE_SETS = sorted(
    p.name for p in (ROOT / "engine" / "rules").iterdir() if (p / "__init__.py").exists()
)
#: Names of one rule set's deck that the apps must not use: they ask the table's rule set.
DECK_NAMES = {"PIQUET"}


def _rule_set_uses(source: str) -> list[str]:
    """Where ``source`` reaches past the registry into one rule set: an import of a rule-set
    package (``engine.rules.wien``, ``from engine.rules import wien``), a dotted use of one
    (``engine.rules.wien.PREMIUM_NAMES``), or the Viennese deck (``engine.PIQUET``, ``from
    engine import PIQUET``, ``from engine.cards import PIQUET``). Relative imports are left
    out: ``engine`` is no app's subpackage."""
    packages = tuple(f"engine.rules.{name}" for name in RULE_SETS)

    def a_rule_set(dotted: str) -> bool:
        return any(dotted == p or dotted.startswith(f"{p}.") for p in packages)

    found: dict[int, str] = {}
    for node in ast.walk(parsed(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
            if any(a_rule_set(n) for n in names):
                found[node.lineno] = f"line {node.lineno}: import {', '.join(names)}"
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [alias.name for alias in node.names]
            dotted = [node.module, *(f"{node.module}.{n}" for n in names)]
            deck = node.module.split(".")[0] == "engine" and DECK_NAMES & set(names)
            if deck or any(a_rule_set(d) for d in dotted):
                found[node.lineno] = f"line {node.lineno}: from {node.module} import {names}"
        elif isinstance(node, ast.Attribute):
            dotted = ast.unparse(node)
            if dotted.startswith("engine.") and (a_rule_set(dotted) or node.attr in DECK_NAMES):
                found.setdefault(node.lineno, f"line {node.lineno}: {dotted}")
    return [found[line] for line in sorted(found)]


@pytest.mark.parametrize(
    "path",
    [p for app in APPS_WITH_API for p in _sources(app)],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_the_apps_ask_the_tables_rule_set_never_one_rule_set_by_name(path: Path) -> None:
    """Issue 25, "Take rule knowledge out of Django": games, clubs and tournaments reach the
    rules through the engine's public functions and the table's rule set
    (``games.rulesets``), never a rule-set package or the Viennese deck."""
    uses = _rule_set_uses(path.read_text())
    assert not uses, f"{path}: {uses}; ask the table's rule set (games.rulesets.rule_set_of)"


def test_the_rule_set_guard_sees_what_it_forbids() -> None:
    assert RULE_SETS and "wien" in RULE_SETS
    source = (
        "import engine\n"
        "import engine.rules.wien\n"
        "from engine.rules.wien import PREMIUM_NAMES\n"
        "from engine.rules import wien\n"
        "from engine import PIQUET\n"
        "x = engine.PIQUET.codes\n"
        "y = engine.rules.wien.PREMIUM_NAMES\n"
        "z = engine.rule_set(table.rules['variant']).deck\n"
        "from engine.rules import rule_set\n"
    )
    assert [u.split(":")[0] for u in _rule_set_uses(source)] == [f"line {n}" for n in range(2, 8)]


# --- rule-set words in Django code (issue 37) -----------------------------------------------

#: Keys the API documents for every rule set (``engine.ruleset.Shapes``: a view's and a
#: Result's common keys) and the seam's own answers (``RuleSet.statistics``: ``declarer``,
#: ``made``, ``premium``): every rule set has them, so Django may use them.
SHARED_WORDS = frozenset(
    (
        *("seat", "phase", "to_act", "rules", "seats", "dealer", "active", "hand", "hand_sizes"),
        *("actions", "declarer", "game", "trick", "last_trick", "tricks", "legal", "deal"),
        *("stake", "made", "fallen", "delta", "pot", "transfers", "premium"),
    )
)
#: Words the apps use for their own things that some rule set also uses as a key: a ledger
#: row's ``amount``, a transfer's ``from`` and ``to`` (the server's ``Transfer``), a trick's
#: ``card`` and ``cards`` (the server's ``TrickCard``), a tournament's ``entry``, ``round``,
#: ``points``, ``score``, ``totals`` and price ``unit``, a table's ``mode``, a seat's ``kind``,
#: a bot's (and a log's) ``level``, a JSON object's ``type``, a field's ``value``, a rules
#: example's ``base``, a management command's ``help``.
OWN_WORDS = frozenset(
    (
        *("amount", "from", "to", "card", "cards", "entry", "round", "points", "score"),
        *("totals", "unit", "mode", "kind", "level", "type", "value", "base", "help"),
        # a cup's counted events (tournaments/cups.py Row.counted, CupStanding.counted, a
        # standings detail's status)
        *("counted", "winner", "needs", "category"),
        # and its winner, what each contender needs in its final, a player's category (women,
        # seniors) for a side ranking
    )
)
#: (file, word) → why it may stay; ``*``: every word of the file. The schema's examples are
#: no exception: ``games.api.examples`` builds them from the registry.
RULE_WORDS_ALLOWED = {
    ("clubs/management/commands/demo_data.py", "*"): "demo data: a wien club's evenings",
    ("clubs/management/demo_evenings.py", "*"): "demo data: the evenings' score-sheet entries",
    ("tournaments/management/commands/demo_tournament.py", "*"): "demo data: a tournament",
    ("tournaments/management/commands/demo_cup.py", "*"): "demo data: a cup (a region: Wien)",
    ("games/api/serializers.py", "taken"): "the solver's analysis: the tricks taken",
    ("games/services/hosted.py", "game_over"): "the server's error code, not the Result key",
    ("clubs/api/people.py", "invitation"): "the URL name of a club's invitation",
    ("clubs/push/webpush.py", "normal"): "Web Push's Urgency header value (RFC 8030)",
}


def _keys(schema: Any) -> set[str]:
    """Every property name in ``schema`` and in the schemas nested in it (an object's
    properties', an array's items', a map's values', each alternative's)."""
    if isinstance(schema, list | tuple):
        return {key for part in schema for key in _keys(part)}
    if not isinstance(schema, Mapping):
        return set()
    properties = schema.get("properties") or {}
    out = set(properties) | _keys(list(properties.values()))
    for key in ("items", "additionalProperties", "oneOf", "anyOf", "allOf"):
        out |= _keys(schema.get(key))
    return out


def _rule_set_words() -> dict[str, str]:
    """Every word that names a registered rule set or one of its things, asked of the registry
    at test time (a rule set the tests register, trickgame, counts): its name, its options,
    every key of its view, Result, sheet row, game forms and table round at any depth, its game
    forms' types, its score-sheet keys (``RuleSet.sheet_keys``) and the keys it carries from
    deal to deal (``RuleSet.carry``); but :data:`SHARED_WORDS` and :data:`OWN_WORDS`. Word →
    where it comes from."""
    import engine  # the registry with the test settings' rule sets

    out: dict[str, str] = {}
    for rs in engine.rule_sets(include_engine_only=True):
        shapes = rs.shapes
        found = {
            rs.name: "a rule set's name",
            **{o.name: "an option" for o in rs.options},
            **dict.fromkeys(_keys(shapes.view), "a view key"),
            **dict.fromkeys(_keys(shapes.result), "a Result key"),
            **dict.fromkeys(_keys(shapes.sheet_row), "a sheet-row key"),
            **dict.fromkeys(_keys(shapes.games), "a game form's key"),
            **dict.fromkeys(_keys(shapes.round), "a table round's key"),
            **dict.fromkeys(rs.sheet_keys, "a score-sheet key"),
            **dict.fromkeys((*rs.carry.keys, *rs.carry.optional), "a carried key"),
            **{
                value: "a game form"
                for form in shapes.games
                for value in form.get("properties", {}).get("type", {}).get("enum", ())
            },
        }
        for word, what in found.items():
            out.setdefault(word, f"{rs.name}'s {what.removeprefix('a ').removeprefix('an ')}")
    return {w: v for w, v in out.items() if w not in SHARED_WORDS | OWN_WORDS}


def _names_in_prose(words: Mapping[str, str]) -> frozenset[str]:
    """The words a sentence (a help text, a message) must not use either: the rule sets'
    names and the words written as identifiers (``pot_at_close``); a plain English word that
    is also a key (``talon``, ``whists``) may describe the server's own things."""
    return frozenset(w for w in words if "_" in w or "-" in w or w in _rule_set_names())


def _rule_set_names() -> frozenset[str]:
    import engine

    return frozenset(rs.name for rs in engine.rule_sets(include_engine_only=True))


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstrings in ``tree``: a module's, a class's or a function's, and the
    string after an assignment (an attribute's docstring)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for first, second in zip([None, *body], body, strict=False):
                docstring = isinstance(second, ast.Expr) and isinstance(second.value, ast.Constant)
                if docstring and (first is None or isinstance(first, ast.Assign | ast.AnnAssign)):
                    out.add(id(second.value))
    return out


def _rule_words(source: str, words: Mapping[str, str]) -> list[tuple[int, str]]:
    """(line, word) for each use of a rule-set word in ``source``'s code: a string literal that
    is the word, an attribute, a keyword argument, a class attribute (a serializer's field),
    and in a sentence (a help text, a description, a message) a rule set's name in any case or
    a word written as an identifier (:func:`_names_in_prose`). Docstrings are left out: they
    may name a rule set as an example. Schema examples are not: they are built from the
    registry (``games.api.examples``)."""
    tree = parsed(source)
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
        ):
            # a translated sentence's placeholders (``_("… {deals} …").format(deals=…)``)
            skip.update(id(k) for k in node.keywords)
    found: set[tuple[int, str]] = set()
    prose = _names_in_prose(words)
    names = _rule_set_names() & set(words)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            word = node.value
            found.update(
                (node.lineno, token.lower() if token.lower() in names else token)
                for token in re.findall(r"[\w-]+", word)
                if token != word and (token in prose or token.lower() in names)
            )
        elif isinstance(node, ast.Attribute):
            word = node.attr
        elif isinstance(node, ast.keyword) and node.arg:
            word = node.arg
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                targets = (
                    statement.targets
                    if isinstance(statement, ast.Assign)
                    else [statement.target]
                    if isinstance(statement, ast.AnnAssign)
                    else []
                )
                for t in targets:
                    if isinstance(t, ast.Name) and t.id in words:
                        found.add((statement.lineno, t.id))
            continue
        else:
            continue
        if word in words:
            found.add((getattr(node, "lineno", 0), word))
    return sorted(found)


@pytest.mark.parametrize(
    "path",
    [p for app in (*APPS_WITH_API, "config") for p in _sources(app)],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_django_code_names_no_rule_set_and_none_of_its_options_or_keys(path: Path) -> None:
    """Issue 37: games, clubs, tournaments and config ask the table's rule set (its shapes,
    options, statistics, close) instead of naming a rule set, an option, or a key of its view,
    Result, sheet row, game forms, table round or score sheet, also in the sentences a client
    reads (help texts, descriptions, messages): those say what the rule set's own answers
    (``GET /api/v1/rules/``, the generated ``<Variant>…`` components) hold, and in the schema's
    examples, which the rule sets bring (``games.api.examples``). Docstrings may name one as
    an example; the few other uses are :data:`RULE_WORDS_ALLOWED`, each with its reason."""
    name = str(path.relative_to(ROOT))
    if (name, "*") in RULE_WORDS_ALLOWED:
        return
    words = _rule_set_words()
    hits = [
        f"line {line}: {word!r} ({words[word]})"
        for line, word in _rule_words(path.read_text(), words)
        if (name, word) not in RULE_WORDS_ALLOWED
    ]
    assert not hits, f"{name}: {hits}; ask the table's rule set instead"


def test_the_rule_word_guard_sees_what_it_forbids() -> None:
    words = _rule_set_words()
    assert {"wien", "trickgame", "pot_at_close", "kasse", "negotiated", "bids"} <= set(words)
    # keys at any depth, carried from deal to deal, and of a table's round
    assert {"pflicht_owed", "vorfuehrung", "parties"} <= set(words)
    assert not {"seat", "declarer", "tricks", "amount"} & set(words)
    source = (
        '"""A module about wien\'s pot_at_close (a docstring may say so)."""\n'
        "def keeper(table):\n"
        '    """Asks ``pot_at_close``."""\n'
        '    return table.rules.get("pot_at_close", "carry")\n'
        "x = result.kasse\n"
        "f(pot_at_close=1)\n"
        "class EntrySerializer:\n"
        "    negotiated = Field()\n"
        "    declarer = Field()\n"
        'EXAMPLE = {"variant": "wien"}\n'
        'OpenApiExample("A table", value={"variant": "trickgame"})\n'
        'if rules["variant"] == "trickgame": pass\n'
        'y = {"bids": 3, "seat": "anna"}\n'
        'n = f(help_text="Applies pot_at_close, as Preferans tables do.")\n'
        'w = status["pflicht_owed"]\n'
        'v = f(help_text="A seat, a trick or the pot: the words of every rule set.")\n'
        'u = _("{deals} deals").format(deals=n, pot_at_close=m)\n'
    )
    assert _rule_words(source, words) == [
        (4, "pot_at_close"),
        (5, "kasse"),
        (6, "pot_at_close"),
        (8, "negotiated"),
        (10, "wien"),
        (11, "trickgame"),
        (12, "trickgame"),
        (13, "bids"),
        (14, "pot_at_close"),
        (14, "preferans"),
        (15, "pflicht_owed"),
    ]


# --- card codes in Django code (issue 37) ---------------------------------------------------


def _card_codes() -> frozenset[str]:
    """Every card code of every registered rule set's deck (``HA``, ``C7``), asked of the
    registry at test time (trickgame's deck counts)."""
    import engine

    return frozenset(
        code for rs in engine.rule_sets(include_engine_only=True) for code in rs.deck.codes
    )


def _card_uses(source: str, codes: frozenset[str]) -> list[tuple[int, str]]:
    """(line, code) for each string literal of ``source`` outside docstrings that is a card
    code of ``codes`` or holds one as a word (``'{"card": "HA"}'``, a help text's example)."""
    tree = parsed(source)
    skip = _docstrings(tree)
    return sorted(
        {
            (node.lineno, token)
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skip
            for token in re.findall(r"\w+", node.value)
            if token in codes
        }
    )


@pytest.mark.parametrize(
    "path",
    [p for app in (*APPS_WITH_API, "config") for p in _sources(app)],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_django_code_names_no_card_of_a_rule_sets_deck(path: Path) -> None:
    """Issue 37: a card is a code of the table's rule set's deck (``RuleSet.deck``), which
    Django code never names, not in a help text's example nor in a schema example (those deal
    their hands from the deck: ``games.api.examples``); a sentence says "a card code of the
    rule set's deck". Docstrings may show one."""
    name = str(path.relative_to(ROOT))
    if (name, "*") in RULE_WORDS_ALLOWED:
        return
    hits = [f"line {line}: {code!r}" for line, code in _card_uses(path.read_text(), _card_codes())]
    assert not hits, f"{name}: {hits}; say it as a card code of the table's rule set's deck"


def test_the_card_code_guard_sees_what_it_forbids() -> None:
    codes = _card_codes()
    assert {"HA", "C7", "D9"} <= codes
    source = (
        '"""Plays "HA" (a docstring may say so)."""\n'
        "def play(hand):\n"
        '    """Sends ``{"card": "C7"}``."""\n'
        '    return {"card": "HA"}\n'
        'x = f(help_text=\'An action, e.g. {"card": "D9"}.\')\n'
        'y = "A card code of the rule set\'s deck (HAND, ha, cards)."\n'
        "z = [c for c in hand if c == 'C7']\n"
    )
    assert _card_uses(source, codes) == [(4, "HA"), (5, "D9"), (7, "C7")]
