"""The seam between the core and the rule sets (``engine/README.md``, "Rule sets: the seam").

The core — every module directly in ``engine/`` and the bots — knows no rule set: it imports no
``engine.rules.<name>`` module and names no rule set in its code, and reaches a rule set only
through the registry (``engine.rules.rule_set``). A rule set builds on the core's building
blocks but not on its dispatchers, so the registry can import every rule set while the core
imports the registry. Checked with ``ast``, like ``test_purity.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import engine
import engine.rules
from tests import preview
from tests.preview import engine_only

__all__ = ["engine_only"]  # the fixture

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
RULES = ENGINE / "rules"
CORE_FILES = sorted(
    [*ENGINE.glob("*.py"), *(ENGINE / "bots").rglob("*.py"), *(ENGINE / "solver").rglob("*.py")]
)
PACKAGES = sorted(
    p.stem if p.is_file() else p.name
    for p in RULES.iterdir()
    if (p.is_dir() and (p / "__init__.py").exists())
    or (p.suffix == ".py" and p.name != "__init__.py")
)
#: Library packages shared by several rule sets (``family``: the talon family's machinery);
#: they register nothing, and every one of them must be used by a registered rule set.
LIBRARIES = ("family",)
#: The rule-set packages: every other package (a variant ``austria-modern`` lives in
#: ``austria_modern``).
RULE_SET_NAMES = sorted(p for p in PACKAGES if p not in LIBRARIES)
RULE_SET_FILES = sorted(p for p in RULES.rglob("*.py") if p.parent != RULES or p.stem != "__init__")
#: The core's dispatchers: they import the registry, so a rule set must not import them.
DISPATCHERS = (
    "engine",
    "engine.__main__",
    "engine.bots",
    "engine.bots.arena",
    "engine.bots.levels",
    "engine.bots.random_bot",
    "engine.fast",
    "engine.play",
    "engine.record",
    "engine.solver.analysis",
    "engine.solver.playout",
    "engine.solver.records",
    "engine.views",
)


def module_name(path: Path) -> str:
    """``engine/rules/wien/play.py`` → ``engine.rules.wien.play``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path, module: str | None = None) -> list[tuple[int, str]]:
    """(line, full dotted name) of everything ``path`` imports: modules, and for ``from m
    import x`` also ``m.x`` (which may be a submodule); relative imports resolved as in
    ``module`` (default: the module ``path`` is)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = (module or module_name(path)).split(".")
    if path.stem != "__init__":
        package.pop()
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.append((node.lineno, module))
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def names_a_rule_set(name: str) -> bool:
    """Whether a dotted name is a rule set's package or module (``engine.rules.wien…``)."""
    return any(
        name == f"engine.rules.{r}" or name.startswith(f"engine.rules.{r}.") for r in PACKAGES
    )


def code_strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of ``path``, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
        if isinstance(node, ast.Module | ast.ClassDef):  # attribute docstrings
            for a, b in zip(node.body, node.body[1:], strict=False):
                if isinstance(a, ast.Assign | ast.AnnAssign) and isinstance(b, ast.Expr):
                    docstrings.add(id(b.value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_there_is_a_core_and_a_rule_set() -> None:
    assert ENGINE / "record.py" in CORE_FILES and ENGINE / "bots" / "random_bot.py" in CORE_FILES
    assert "wien" in RULE_SET_NAMES


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_core_imports_no_rule_set(path: Path) -> None:
    found = [f"line {line}: {name}" for line, name in imported(path) if names_a_rule_set(name)]
    assert not found, f"{path.relative_to(ROOT)} imports a rule set:\n" + "\n".join(found)


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_core_names_no_rule_set_in_its_code(path: Path) -> None:
    """No ``rule_set("wien")``, no ``importlib.import_module("engine.rules.wien")``: a rule set
    is found by the variant a record or a state names."""
    found = [
        f"line {line}: {text!r}"
        for line, text in code_strings(path)
        if text in RULE_SET_NAMES or names_a_rule_set(text)
    ]
    assert not found, f"{path.relative_to(ROOT)} names a rule set:\n" + "\n".join(found)


@pytest.mark.parametrize("path", RULE_SET_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_rule_set_builds_on_the_core_but_not_on_its_dispatchers(path: Path) -> None:
    found = [
        f"line {line}: {name}"
        for line, name in imported(path)
        if name in DISPATCHERS or name.startswith("engine.__main__")
    ]
    assert not found, f"{path.relative_to(ROOT)} imports a dispatcher:\n" + "\n".join(found)


#: The core modules a rule set may build on besides the plain ones: the bots' belief and
#: policy shapes and heuristics, the solver's position and search.
BUILDING_BLOCKS = sorted(
    p
    for p in [*(ENGINE / "bots").glob("*.py"), *(ENGINE / "solver").glob("*.py")]
    if module_name(p) not in DISPATCHERS and p.stem != "__init__"
)


@pytest.mark.parametrize("path", BUILDING_BLOCKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_what_a_rule_set_may_build_on_reaches_no_registry(path: Path) -> None:
    """A bots or solver module that is not a dispatcher imports neither the registry nor a
    dispatcher, so a rule set importing it makes no import cycle."""
    found = [
        f"line {line}: {name}"
        for line, name in imported(path)
        if name in DISPATCHERS or name == "engine.rules" or name.startswith("engine.rules.")
    ]
    assert not found, f"{path.relative_to(ROOT)} reaches the registry:\n" + "\n".join(found)


#: Variants that live in a package named after another variant of it (``doppelkopf/`` holds
#: ``doppelkopf`` and ``doppelkopf-ddv``).
SHARED_PACKAGES = {"doppelkopf-ddv": "doppelkopf"}
#: The rule sets registered for the engine only (``register(rs, offered=False)``): none since
#: Doppelkopf was offered (issue 27); ``tests/preview.py`` registers one for the tests.
ENGINE_ONLY: tuple[str, ...] = ()


def package_of(variant: str) -> str:
    """The package of a variant: ``austria-modern`` → ``austria_modern``."""
    return SHARED_PACKAGES.get(variant, variant.replace("-", "_"))


def test_every_rule_set_package_is_registered_under_its_name() -> None:
    """Every package under ``engine/rules/`` registers its rule set under its name (rule sets
    the test suite registers from elsewhere, ``tests/trickgame``, are not the engine's)."""
    registered = {
        rs.name: rs
        for rs in engine.rule_sets(include_engine_only=True)
        if type(rs).__module__.startswith("engine.rules.")
    }
    assert sorted({package_of(name) for name in registered}) == RULE_SET_NAMES
    for name, rs in registered.items():
        assert type(rs).__module__.startswith(f"engine.rules.{package_of(name)}.")
        assert engine.rule_set(name) is rs


def test_an_engine_only_rule_set_is_known_by_name_but_not_offered(
    engine_only: engine.RuleSet[Any, Any, Any],
) -> None:
    """``register(rs, offered=False)``: ``rule_set(name)`` finds it, ``rule_sets()`` (what
    the Django apps offer) leaves it out (:data:`ENGINE_ONLY`; ``tests/preview.py``
    registers a copy of kurz so for the test)."""
    assert [
        rs for rs in engine.rule_sets(include_engine_only=True) if rs not in engine.rule_sets()
    ] == [*(engine.rule_set(name) for name in ENGINE_ONLY), engine_only]
    assert engine.rule_set(preview.NAME) is engine_only
    assert engine.parse_rules({"variant": preview.NAME}).to_json()["variant"] == preview.NAME


def test_every_registered_rule_set_but_the_engine_only_ones_is_offered() -> None:
    every = engine.rule_sets(include_engine_only=True)
    assert engine.rule_sets() == tuple(rs for rs in every if rs.name not in ENGINE_ONLY)
    offered = {rs.name for rs in engine.rule_sets()}
    assert {"preferans", "doppelkopf", "doppelkopf-ddv"} <= offered
    assert not set(ENGINE_ONLY) & offered


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_library_package_is_no_rule_set_and_serves_a_registered_one(library: str) -> None:
    """A library registers nothing under its name, and some registered rule set builds on it
    (so a rule set cannot hide in a library, nor a library outlive its rule sets)."""
    assert (RULES / library / "__init__.py").exists()
    assert library not in {rs.name for rs in engine.rule_sets(include_engine_only=True)}
    users = [
        rs.name
        for rs in engine.rule_sets(include_engine_only=True)
        if any(f"engine.rules.{library}." in c.__module__ for c in type(rs).__mro__)
    ]
    assert users, f"no registered rule set uses the library {library}"


def test_the_import_scan_sees_every_form(tmp_path: Path) -> None:
    """The scanner finds each way of importing a rule set (so the tests above can fail)."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import engine.rules.wien\n"
        "from engine.rules.wien.play import apply\n"
        "from engine.rules import wien\n"
        "from .rules import wien as w\n"
        "from .rules.wien import WienRules\n"
        "from engine.rules import rule_set\n"
        "X = rule_set('wien')\n",
        encoding="utf-8",
    )
    found = [name for _, name in imported(probe, "engine.probe") if names_a_rule_set(name)]
    assert found == [
        "engine.rules.wien",
        "engine.rules.wien.play",
        "engine.rules.wien.play.apply",
        "engine.rules.wien",
        "engine.rules.wien",
        "engine.rules.wien",
        "engine.rules.wien.WienRules",
    ]
    assert [text for _, text in code_strings(probe)] == ["wien"]


def test_the_house_rules_are_the_first_rule_sets_house_rule_book_written_out_whole() -> None:
    """A new club or tournament plays these where its organiser names none: every option
    written out (a later change of an option's default changes no club), accepted as they
    are, and a fresh copy each time (a caller's change reaches no other club)."""
    first = engine.rule_sets()[0]
    rules = engine.house_rules()
    assert rules["variant"] == first.name
    assert first.parse_rules(rules).to_json() == rules
    rules["variant"] = "changed"
    assert engine.house_rules()["variant"] == first.name


@pytest.mark.parametrize(
    "rule_set", engine.rule_sets(include_engine_only=True), ids=lambda rs: rs.name
)
def test_the_draw_for_the_first_dealer_gives_each_seat_a_card_of_the_deck(
    rule_set: engine.RuleSet[Any, Any, Any],
) -> None:
    import random

    seats = [f"s{i}" for i in range(max(rule_set.table.seats))]
    for seed in range(20):
        draw = rule_set.draw_for_dealer(seats, random.Random(seed))
        assert list(draw) == seats
        assert all(card in rule_set.deck.codes for card in draw.values())
        assert rule_set.first_dealer(draw) in seats


@pytest.mark.parametrize(
    "rule_set", engine.rule_sets(include_engine_only=True), ids=lambda rs: rs.name
)
def test_a_random_deal_deals_every_card_of_a_shuffled_deck_to_the_active_seats(
    rule_set: engine.RuleSet[Any, Any, Any],
) -> None:
    import random
    from collections import Counter

    seats = [f"s{i}" for i in range(min(rule_set.table.seats))]
    deal = rule_set.random_deal(seats, seats[-1], random.Random(3))
    order, _ = rule_set.shuffled_deck(random.Random(3))
    assert deal == rule_set.deal_from_deck(order, rule_set.active_seats(seats, seats[-1]))
    assert Counter(c for cards in deal.values() for c in cards) == Counter(rule_set.deck.codes)
