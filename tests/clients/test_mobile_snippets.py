"""The Swift and Kotlin snippets of docs/mobile.md name what the generated clients have.

No Swift or Kotlin compiler runs here (CI has neither a Swift toolchain nor Maven Central),
so the snippets are checked by their names against the code OpenAPI Generator makes, with the
generator, version and options of ``make clients-mobile`` (read from the Makefile), from the
schema of this code (``tests/config/test_schema.py`` keeps docs/openapi.yaml equal to it):

- every type a snippet names is a generated one (or the language's own), every import of the
  client's package is a generated file;
- every call of a generated function or constructor gives only parameters it has, in Swift
  every one without a default, in Kotlin no more arguments than it takes;
- every member a snippet reads (``.handsCount``, ``.hosted``) is a generated property or enum
  case (or one of the few standard ones the snippets use, or one the snippet declares);
- a hand view is one type per game (``HandView``: a Swift enum with a case per
  ``<Variant>HandView``, a Kotlin sealed interface with a wrapper per game), so a snippet reads
  a view's keys after choosing the game: on a value it declares a ``HandView`` it reads only
  what the snippet's own extension adds, every case or wrapper it matches is a generated one,
  and every game's view it gathers into its common view (a Swift protocol that the views
  conform to, a Kotlin data class built from a view's keys) has each key with the type the
  snippet gives it;
- a legal action is sent as it is: every game's view's ``legal`` holds the type a move's body
  (``ActionInputRequest.action``) takes, and a snippet that writes a legal action's type
  writes that one.

Generating both clients takes about a minute (Java): marked ``slow``, skipped only where Java
is missing (CI has it and sets ``REQUIRE_SERVICES=1``, which turns the skip into a failure).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from tests.clients.conftest import PROJECT_DIR
from tests.generated import generated_once
from tests.openapi import generated_schema

# One worker generates both clients once (``generated``, 20 s, kept for the next run while the
# schema and the generator stay the same: tests/generated.py) and runs every test of them.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("mobile_clients")]

MAKEFILE = (PROJECT_DIR / "Makefile").read_text()
MOBILE_DOC = PROJECT_DIR / "docs" / "mobile.md"
KOTLIN_PACKAGE = "org.preference.client"


def make_variable(name: str) -> str:
    """A ``NAME := value`` of the Makefile: the generator pin and the Kotlin options."""
    found = re.search(rf"^{name} := (.+)$", MAKEFILE, re.MULTILINE)
    assert found, f"the Makefile sets no {name}"
    return found.group(1).strip()


def snippets(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


# --- generating the clients, as make clients-mobile does ----------------------------------------


@dataclass
class Generated:
    swift: Path
    kotlin: Path


def generator() -> Path:
    """OpenAPI Generator's command in this virtualenv, installed as the Makefile pins it."""
    command = Path(sys.executable).parent / "openapi-generator-cli"
    if not command.exists():
        pin = make_variable("MOBILE_GENERATOR")
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", pin], check=True)
    return command


#: OpenAPI Generator's options for each language, as ``make clients-mobile`` gives them.
RUNS = {
    "swift": ["-g", "swift6", "--additional-properties=projectName=PreferenceClient"],
    "kotlin": [
        "-g", "kotlin",
        f"--additional-properties={make_variable('KOTLIN_OPTIONS')}",
        "--type-mappings=AnyType=JsonElement",
        "--import-mappings=JsonElement=kotlinx.serialization.json.JsonElement",
    ],
}  # fmt: skip


def generate(where: Path, schema: str) -> None:
    """Both clients from ``schema`` (the schema of this code), into ``where/swift`` and
    ``where/kotlin``."""
    (where / "openapi.yaml").write_text(schema)
    command = str(generator())
    for language, options in RUNS.items():
        done = subprocess.run(
            [command, "generate", "-i", str(where / "openapi.yaml"), "-o", str(where / language),
             *options],
            capture_output=True,
            text=True,
            timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


@pytest.fixture(scope="module")
def generated() -> Iterator[Generated]:
    if shutil.which("java") is None:
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail("REQUIRE_SERVICES=1 but there is no Java for OpenAPI Generator")
        pytest.skip("needs Java 11 or newer for OpenAPI Generator (make clients-mobile)")
    schema = yaml.safe_dump(generated_schema(), allow_unicode=True, sort_keys=False)
    inputs = [schema, make_variable("MOBILE_GENERATOR"), make_variable("KOTLIN_OPTIONS")]
    inputs += [" ".join(options) for options in RUNS.values()]
    kept = generated_once("mobile-clients", inputs, lambda where: generate(where, schema))
    yield Generated(swift=kept / "swift", kotlin=kept / "kotlin")


# --- what generated code declares ---------------------------------------------------------------


@dataclass
class Params:
    """A function's or constructor's parameters: (name, has a default), in order."""

    items: list[tuple[str, bool]]

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.items]

    @property
    def required(self) -> list[str]:
        return [name for name, default in self.items if not default]


@dataclass
class Declared:
    """The names generated code declares, and the declared type of each property."""

    types: set[str] = field(default_factory=set)
    functions: dict[str, list[Params]] = field(default_factory=dict)
    constructors: dict[str, list[Params]] = field(default_factory=dict)
    members: set[str] = field(default_factory=set)
    property_types: dict[tuple[str, str], str] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)
    # a oneOf type → its Swift enum cases or Kotlin wrapper classes → the type each holds
    alternatives: dict[str, dict[str, str]] = field(default_factory=dict)


def balanced(text: str, start: int) -> str:
    """The text inside the parentheses that open at ``text[start]``."""
    depth = 0
    for at in range(start, len(text)):
        if text[at] in "([{<" and not (text[at] == "<" and text[at - 1] == "-"):
            depth += 1
        elif text[at] in ")]}>" and not (text[at] == ">" and text[at - 1] == "-"):
            depth -= 1
            if depth == 0:
                return text[start + 1 : at]
    raise AssertionError(f"unbalanced: {text[start : start + 80]!r}")


def top_level(args: str) -> list[str]:
    """``args`` split at the commas outside brackets."""
    parts, depth, current = [], 0, ""
    for char in args:
        if char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts]


def without_annotations(text: str) -> str:
    """Kotlin's ``@Path("number")``, ``@SerialName(value = "x")`` removed."""
    return re.sub(r"@\w+(?:\([^()]*\))?", "", text)


def swift_params(args: str) -> Params:
    items = []
    for part in top_level(args):
        label = part.split(":")[0].split()[0]
        items.append((label, "=" in part))
    return Params(items)


def kotlin_params(args: str) -> Params:
    items = []
    for part in top_level(without_annotations(args)):
        words = part.split(":")[0].split()
        items.append((words[-1], "=" in part))
    return Params(items)


def swift_declared(root: Path) -> Declared:
    out = Declared()
    for path in (root / "Sources").rglob("*.swift"):
        text = path.read_text()
        out.files.add(path.stem)
        out.types |= set(re.findall(r"\b(?:class|struct|enum|protocol|typealias)\s+(\w+)", text))
        for found in re.finditer(r"\bfunc\s+(\w+)\s*(?:<[^>]*>)?\(", text):
            params = swift_params(balanced(text, found.end() - 1))
            out.functions.setdefault(found.group(1), []).append(params)
        for found in re.finditer(r"\binit\(", text):
            params = swift_params(balanced(text, found.end() - 1))
            out.constructors.setdefault(path.stem, []).append(params)
        out.members |= set(re.findall(r"\b(?:var|let|case)\s+(\w+)", text))
        for name, kind in re.findall(r"\bvar\s+(\w+):\s*([^{=\n]+)", text):
            out.property_types[(path.stem, name)] = kind.strip()
        if re.search(rf"\benum\s+{path.stem}\b", text):  # ``case typeWienHandView(WienHandView)``
            cases = re.findall(r"^\s*case\s+(\w+)\((\w+)\)\s*$", text, re.MULTILINE)
            if cases:
                out.alternatives[path.stem] = dict(cases)
    return out


def kotlin_declared(root: Path) -> Declared:
    out = Declared()
    sources = root / "src" / "main" / "kotlin"  # not the generated tests beside them
    for path in sources.rglob("*.kt"):
        text = path.read_text()
        out.files.add(".".join(path.relative_to(sources).with_suffix("").parts))
        out.types |= set(re.findall(r"\b(?:class|interface|object|typealias)\s+(\w+)", text))
        for found in re.finditer(r"\bfun\s+(?:<[^>]*>\s*)?(\w+)\(", text):
            params = kotlin_params(balanced(text, found.end() - 1))
            out.functions.setdefault(found.group(1), []).append(params)
        for found in re.finditer(r"\bclass\s+(\w+)\s*\(", text):
            params = kotlin_params(balanced(text, found.end() - 1))
            out.constructors.setdefault(found.group(1), []).append(params)
        for found in re.finditer(r"\bconstructor\(", text):
            params = kotlin_params(balanced(text, found.end() - 1))
            out.constructors.setdefault(path.stem, []).append(params)
        out.members |= set(re.findall(r"\b(?:val|var)\s+(\w+)", text))
        out.members |= set(re.findall(r"^\s*(\w+)\(\"[^\"]*\"\)[,;]?\s*$", text, re.MULTILINE))
        for name, kind in re.findall(r"\bval\s+(\w+):\s*([^=\n]+)", without_annotations(text)):
            out.property_types[(path.stem, name)] = kind.strip().rstrip(",")
        # ``value class WienWrapper(val value: WienHandView) : HandView``
        for wrapper, kind, union in re.findall(
            r"\bvalue\s+class\s+(\w+)\(val\s+value:\s*([\w.]+)\)\s*:\s*(\w+)", text
        ):
            out.alternatives.setdefault(union, {})[wrapper] = kind.split(".")[-1]
    return out


# --- what a snippet uses ------------------------------------------------------------------------


@dataclass(frozen=True)
class Language:
    name: str
    declared_by: str  # the keyword of a function the snippet declares itself
    label: str  # how an argument is named: ``label:`` (Swift) or ``label =`` (Kotlin)
    own_types: frozenset[str]  # the language's and its standard library's, that the snippets use
    own_members: frozenset[str]  # standard members and functions the snippets call


SWIFT = Language(
    "swift",
    "func",
    r"^(\w+)\s*:",
    frozenset({"String", "Int", "UUID", "Data", "URLResponse", "Error"}),
    frozenset({"first", "uuidString", "error"}),
)
KOTLIN = Language(
    "kotlin",
    "fun",
    r"^(\w+)\s*=(?!=)",
    frozenset({"String", "Int", "Pair", "UUID", "List"}),
    frozenset(
        {"java", "util", "randomUUID", "toString", "body", "code", "firstOrNull", "to", "run"}
        | {"createService", "errorBody"}
    ),
)


LITERALS = re.compile(r'"(?:\\.|[^"\\\n])*"|//[^\n]*|/\*.*?\*/', re.DOTALL)
KEYWORDS = frozenset(
    {"if", "for", "guard", "while", "return", "catch", "throws", "let", "val", "var"}
    | {"switch", "when", "get"}
)
# What a snippet declares itself: its types (a protocol, a data class) and their members,
# and the properties its extensions add (``var common`` in Swift, ``val HandView.common``).
OWN_TYPES = re.compile(r"\b(?:protocol|struct|class|enum|interface|object|typealias)\s+(\w+)")
OWN_MEMBERS = re.compile(r"\b(?:var|val|let)\s+(?:\w+\.)?(\w+)")


def strip(code: str) -> str:
    """``code`` without comments and string literals (their text names nothing; a ``//``
    in a string is no comment)."""
    return LITERALS.sub(lambda m: '""' if m.group().startswith('"') else " ", code)


def unknown_names(code: str, language: Language, declared: Declared) -> list[str]:
    """What the snippet ``code`` names that the generated code does not declare."""
    code = strip(code)
    wrong: list[str] = []
    own_functions = set(re.findall(rf"\b{language.declared_by}\s+(\w+)", code))
    imports = re.findall(r"^import\s+([\w.]+)", code, re.MULTILINE)
    for name in imports:
        generated_file = language is KOTLIN and name.startswith(KOTLIN_PACKAGE + ".")
        if generated_file and name not in declared.files:
            wrong.append(f"import {name}: no such generated file")
    body = re.sub(r"^import\s+[\w.]+\s*$", "", code, flags=re.MULTILINE)
    own_types = set(OWN_TYPES.findall(body))
    types = set(re.findall(r"\b([A-Z]\w*)\b", body)) - language.own_types - own_types
    wrong += [f"type {t}" for t in sorted(types - declared.types)]
    cases = {case for held in declared.alternatives.values() for case in held}
    for found in re.finditer(r"(?<![\w.])([A-Za-z]\w*)\s*\(|\.(\w+)\s*\(", body):
        name = found.group(1) or found.group(2)
        if name in own_functions or name in language.own_members or name in own_types:
            continue
        if name in KEYWORDS:
            continue
        if name in language.own_types:  # UUID(), a standard constructor
            continue
        if found.group(2) and name in cases:  # Swift: ``case .typeWienHandView(let view)``
            continue
        args = top_level(balanced(body, found.end() - 1))
        labels = [m.group(1) for a in args if (m := re.match(language.label, a))]
        candidates = declared.constructors.get(name) if name[0].isupper() else None
        if candidates is None:
            candidates = declared.functions.get(name)
        if candidates is None:
            wrong.append(f"call {name}(…): no such generated function")
            continue
        if not any(fits(p, labels, len(args), language) for p in candidates):
            wrong.append(f"call {name}({', '.join(labels)}; {len(args)} arguments)")
    # what the snippet names itself: its tuples' labels and its parameters (``view: HandView``),
    # its types' properties and its extensions'
    own_members = set(re.findall(r"\b(\w+)\s*:\s*[A-Z]", body)) | set(OWN_MEMBERS.findall(body))
    for member in set(re.findall(r"\.\s*([a-z]\w*)\b(?!\s*\()", body)):
        if member not in declared.members | own_members | language.own_members:
            wrong.append(f"member .{member}")
    return wrong


def fits(params: Params, labels: list[str], count: int, language: Language) -> bool:
    """Whether a call with ``labels`` (and ``count`` arguments in all) fits ``params``."""
    if not set(labels) <= set(params.names) or count > len(params.items):
        return False
    if language is SWIFT:  # every argument is labelled; those without a default are given
        return set(params.required) - {"_"} <= set(labels)
    return count >= len(params.required)


def element(kind: str) -> str:
    """A list type's element, unqualified: ``[Action]?`` and ``kotlin.collections.List<Action>?``
    → ``Action``; any other type unqualified, without its ``?``."""
    kind = kind.strip().rstrip("?")
    for pattern in (r"^\[(.+)\]$", r"^(?:kotlin\.collections\.)?List<(.+)>$"):
        if found := re.match(pattern, kind):
            kind = found.group(1)
    return kind.split(".")[-1].rstrip("?")


def unqualified(kind: str) -> str:
    """A type as a snippet writes it: ``kotlin.collections.List<Action>?`` → ``List<Action>?``."""
    return re.sub(r"\b(?:kotlin\.collections\.|kotlin\.)", "", kind).replace(" ", "")


def view_types(declared: Declared) -> dict[str, str]:
    """Each game's hand view type (``WienHandView``), by its Swift case or Kotlin wrapper."""
    return declared.alternatives.get("HandView", {})


def legal_types(declared: Declared) -> dict[str, str]:
    """The type of the legal actions of each game's hand view, by the view's type."""
    return {
        view: element(declared.property_types[(view, "legal")])
        for view in view_types(declared).values()
    }


def action_type(declared: Declared) -> str:
    """The type of a move's ``action``."""
    return element(declared.property_types[("ActionInputRequest", "action")])


def wrong_legal_types(code: str, declared: Declared) -> list[str]:
    """A value the snippet declares with a type, taken from a legal action list
    (``hand.legal?.firstOrNull()``), whose type is not the legal action's."""
    legal = action_type(declared)
    wrong = []
    for name, kind in re.findall(
        r"\b(?:val|let|var)\s+(\w+)\s*:\s*([^=]+?)\s*=\s*[\w.]*\.legal\b", strip(code)
    ):
        if kind.replace(" ", "") != legal:
            wrong.append(f"{name}: {kind} (a legal action is {legal})")
    return wrong


def named_types(code: str) -> dict[str, str]:
    """The snippet's values whose type it writes (``view: HandView``), and in Kotlin those it
    takes apart from a ``Pair`` one of its functions returns (``val (table, view) = …``)."""
    named = dict(re.findall(r"\b(\w+)\s*:\s*([A-Z]\w*)\b(?!\s*[.<])", code))
    returns = dict(re.findall(r"\bfun\s+(\w+)\([^)]*\)\s*:\s*Pair<\s*(\w+\s*,\s*\w+)\s*>", code))
    for first, second, function in re.findall(r"\bval\s+\((\w+),\s*(\w+)\)\s*=\s*(\w+)\(", code):
        if function in returns:
            kinds = [kind.strip() for kind in returns[function].split(",")]
            named.update({first: kinds[0], second: kinds[1]})
    return named


def wrong_union_reads(code: str, declared: Declared) -> list[str]:
    """A member read on a value the snippet declares of a oneOf type (a ``HandView``) that is
    no case of it and no property the snippet's own extension gives it: a Swift enum and a
    Kotlin sealed interface have none of their alternatives' keys (``view.legal`` fails)."""
    code = strip(code)
    extended: dict[str, set[str]] = {}
    for found in re.finditer(r"\bextension\s+(\w+)\s*\{", code):
        body = balanced(code, found.end() - 1)
        extended.setdefault(found.group(1), set()).update(OWN_MEMBERS.findall(body))
    for union, name in re.findall(r"\b(?:val|var)\s+(\w+)\.(\w+)", code):
        extended.setdefault(union, set()).add(name)
    wrong = []
    for name, kind in named_types(code).items():
        if kind not in declared.alternatives:
            continue
        allowed = extended.get(kind, set()) | set(declared.alternatives[kind])
        for member in re.findall(rf"(?<!\w){name}\s*\.\s*(\w+)", code):
            if member not in allowed:
                wrong.append(f"{name}.{member}: {kind} has no {member} (choose the game first)")
    return wrong


def wrong_common_views(code: str, language: Language, declared: Declared) -> list[str]:
    """The snippet's common view of the games' views, checked against each game's view.

    Swift: every generated type the snippet makes conform to its protocol (``extension
    WienHandView: CommonHandView {}``) has each property the protocol requires, with that
    type, and every case it matches (``case .typeWienHandView(let view): return view``) holds
    a type that conforms. Kotlin: every wrapper it matches (``is HandView.WienWrapper ->
    value.run { CommonView(number, version, …) }``) holds a type whose properties of those
    names have the types of the data class's parameters in that order."""
    code = strip(code)
    wrong: list[str] = []
    if language is SWIFT:
        protocols = {
            found.group(1): re.findall(
                r"\bvar\s+(\w+)\s*:\s*(.+?)\s*\{\s*get\s*\}", balanced(code, found.end() - 1)
            )
            for found in re.finditer(r"\bprotocol\s+(\w+)\s*\{", code)
        }
        conforming: dict[str, str] = {}
        for kind, protocol in re.findall(r"\bextension\s+(\w+)\s*:\s*(\w+)\s*\{\s*\}", code):
            if protocol not in protocols:
                continue
            conforming[kind] = protocol
            for name, required in protocols[protocol]:
                has = declared.property_types.get((kind, name))
                if has is None or unqualified(has) != unqualified(required):
                    wrong.append(f"{kind}.{name} is {has}, {protocol} requires {required}")
        held = {c: k for cases in declared.alternatives.values() for c, k in cases.items()}
        for case in re.findall(r"\bcase\s+\.(\w+)\(let\s+\w+\)", code):
            if held.get(case) not in conforming:
                wrong.append(
                    f"case .{case} holds {held.get(case)}, which the snippet does not conform"
                )
        return wrong
    classes = {
        found.group(1): re.findall(
            r"\bval\s+(\w+)\s*:\s*([^,]+?)\s*(?:,|$)", balanced(code, found.end() - 1)
        )
        for found in re.finditer(r"\bdata\s+class\s+(\w+)\s*\(", code)
    }
    for union, wrapper, made, args in re.findall(
        r"\bis\s+(\w+)\.(\w+)\s*->\s*value\.run\s*\{\s*(\w+)\(([^()]*)\)\s*\}", code
    ):
        kind = declared.alternatives.get(union, {}).get(wrapper)
        if kind is None:
            wrong.append(f"{union}.{wrapper}: no such wrapper")
            continue
        params = classes.get(made)
        if params is None:
            continue
        names = [arg.strip() for arg in args.split(",")]
        if len(names) != len(params):
            wrong.append(f"{made}({args}): {len(params)} parameters")
            continue
        for name, (param, wanted) in zip(names, params, strict=True):
            has = declared.property_types.get((kind, name))
            if has is None or unqualified(has) != unqualified(wanted):
                wrong.append(f"{kind}.{name} is {has}, {made}.{param} is {wanted}")
    return wrong


# --- the tests ----------------------------------------------------------------------------------


def test_a_legal_action_of_every_game_is_the_type_a_move_sends(generated: Generated) -> None:
    games = {
        ref["$ref"].rsplit("/", 1)[-1]
        for ref in generated_schema()["components"]["schemas"]["HandView"]["oneOf"]
    }
    for declared in (swift_declared(generated.swift), kotlin_declared(generated.kotlin)):
        assert set(view_types(declared).values()) == games  # one case or wrapper per game
        action = action_type(declared)
        assert legal_types(declared) == dict.fromkeys(games, action)


@pytest.mark.parametrize("language", [SWIFT, KOTLIN], ids=lambda lang: lang.name)
def test_the_snippets_name_only_what_the_generated_client_has(
    generated: Generated, language: Language
) -> None:
    if language is SWIFT:
        declared = swift_declared(generated.swift)
    else:
        declared = kotlin_declared(generated.kotlin)
    found = snippets(MOBILE_DOC.read_text(), language.name)
    assert found, f"docs/mobile.md has no {language.name} snippet"
    for code in found:
        assert unknown_names(code, language, declared) == []
        assert wrong_legal_types(code, declared) == []
        assert wrong_union_reads(code, declared) == []
        assert wrong_common_views(code, language, declared) == []
