"""No English sentence reaches a reader of the pseudo-locale ``en-xa`` (``config/catalogs.py``:
every sentence of every catalog wrapped in ``⟦…⟧`` and accented, offered in the tests only):
a sentence the code does not pass through gettext, or passes under a text no catalog holds,
comes out in plain English there, and this sweep finds it.

The sweep asks the API in ``en-xa`` (``Accept-Language: en-xa``) for a broad set of refusals
and answers that carry sentences, on a small world (a club owner running a tournament that is
being played, with a recorded table, an evening, a season, an invitation and a calendar feed,
``tests/config/test_no_server_errors.small_world``): every operation of the schema (generated
here, so it is never stale) anonymously, as an outsider and as a plain member of the club
(refusals for a missing sign-in, a hidden object, a forbidden role), as the owner with the
path's ids, with ids nobody uses (missing objects), with an empty body, with the operation's
example body and with that body's values all wrong; then the answers the API's own layers
give (a Host not ours, NUL characters, a query it cannot read, JSON nested too deep, a body
too large or without a length, an unknown route, rate limits and the sign-in lockout, bad
credentials and tokens), the engine's refusals at a hosted table, and a recorded table's
settlement once its deals moved money.

In each JSON answer the human sentences are checked: an error's ``message`` and every string
in its ``fields``, and anywhere in a body every ``message`` and ``sentence`` (a payment's) and
every value of ``labels`` (a rule set's words; the labels of a rule set only the tests
register have no catalog and are left out); a string a request of the sweep sent (a name, a
join request's message) is data, not checked. A sentence passes when it is pseudo: what is
left once the pseudo pieces (``⟦…⟧``, nested or side by side) are taken out is no words
(punctuation, numbers, card codes, a lone name or code). What is left otherwise also passes
when it is one of Django's or Django REST framework's (or simplejwt's, django-filter's) own
messages: those are translated by their own catalogs, which have no ``en-xa``, so they stay
English there; a message counts as theirs when it matches an entry (placeholders as
wildcards) of those packages' German catalogs that has a German translation, i.e. when a
German reader gets it in German. Every answer must also say ``Content-Language: en-xa``.

The test reports every English sentence found, grouped by sentence (numbers written ``N``),
each with the endpoints, callers and places it came from, not just the first.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import django
import polib
import pytest
from django.apps import apps
from django.conf import settings
from django.test import RequestFactory
from django.utils import translation
from rest_framework.test import APIClient

import engine
from clubs.models import Club, Membership
from config.api.limits import RequestLimitsMiddleware
from config.catalogs import CATALOG_DIRS, PSEUDO, PSEUDO_CLOSE, PSEUDO_OPEN
from config.catalogs import ROOT as PROJECT_ROOT
from games import services as games
from games.models import Table
from games.random_entries import random_entry
from tests.config.test_no_server_errors import PARAM, RATES, example_body, small_world
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.helpers import client_for
from tests.openapi import generated_schema

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")
BODIES = ("post", "put", "patch")
#: Keys whose string values are sentences for a person, wherever they are in a body.
SENTENCE_KEYS = frozenset({"message", "sentence"})
#: Keys whose object's values are words for a person (a rule set's labels).
LABEL_KEYS = frozenset({"labels"})
#: Path parameters of text (the rest are numbers) and their values for a missing object.
MISSING = {"code": "nobody-uses-this-code", "token": "nobody-uses-this-token"}
MISSING_NUMBER = "999999999"
WORLD_RULES = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}

_PIECE = re.compile(f"{PSEUDO_OPEN}[^{PSEUDO_OPEN}{PSEUDO_CLOSE}]*{PSEUDO_CLOSE}")
_WORD = re.compile(r"[A-Za-z]{2,}")
#: Two or more words in a row: a phrase, not a lone name or code.
_PHRASE = re.compile(r"[A-Za-z][A-Za-z'’]+(?:[ ,;:/()“”\"'-]+[A-Za-z][A-Za-z'’]*)+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\s{2,}")
#: A placeholder in a catalog's message: ``%(name)s``, ``%s``, ``{name}``, ``{0}``, ``{}``.
_PLACEHOLDER = re.compile(r"%\([^)]+\)[sdifr]|%[sdifr]|\{[a-z_0-9]*\}")


# ---------------------------------------------------------------------------------------------
# what counts as translated


def without_pieces(text: str) -> str:
    """``text`` with every pseudo piece (innermost first, so nested ones too) taken out, each
    leaving a gap of two blanks that ends a sentence."""
    while True:
        shorter = _PIECE.sub("  ", text)
        if shorter == text:
            return text
        text = shorter


def _framework_catalogs() -> Iterator[Path]:
    """The German ``.mo`` files of Django and of every installed app that is not ours."""
    ours = [PROJECT_ROOT / directory for directory in CATALOG_DIRS]
    yield Path(django.__file__).parent / "conf" / "locale" / "de" / "LC_MESSAGES" / "django.mo"
    for app in apps.get_app_configs():
        path = Path(app.path)
        if any(path == mine or mine in path.parents for mine in ours):
            continue
        mo = path / "locale" / "de" / "LC_MESSAGES" / "django.mo"
        if mo.exists():
            yield mo
    for package in ("rest_framework_simplejwt", "django_filters"):
        module = __import__(package)
        mo = Path(str(module.__file__)).parent / "locale" / "de" / "LC_MESSAGES" / "django.mo"
        if mo.exists():
            yield mo


@cache
def framework_messages() -> tuple[frozenset[str], tuple[re.Pattern[str], ...]]:
    """The messages Django and the packages the API is built on translate into German: the
    texts without placeholders, and a pattern for each with them (a placeholder matches any
    text; messages with fewer than two words of their own are left out, they would match
    anything)."""
    exact: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for mo in dict.fromkeys(_framework_catalogs()):
        for entry in polib.mofile(str(mo)):
            if not entry.msgid:
                continue
            translated = entry.msgstr or next(iter(entry.msgstr_plural.values()), "")
            for text in filter(None, (entry.msgid, entry.msgid_plural)):
                if not translated or translated == text:
                    continue
                if not _PLACEHOLDER.search(text):
                    exact.add(text)
                    continue
                literal = _PLACEHOLDER.split(text)
                if len(_WORD.findall(" ".join(literal))) < 2:
                    continue
                patterns.append(re.compile("(.*?)".join(re.escape(part) for part in literal)))
    return frozenset(exact), tuple(patterns)


def is_framework(text: str) -> bool:
    """Whether ``text`` is one of the framework's own messages (with its placeholders filled),
    perhaps with the full stop the API's error handler adds."""
    exact, patterns = framework_messages()
    text = text.strip()
    candidates = {text, text.removesuffix(".")} if text.endswith(".") else {text}
    if candidates & exact:
        return True
    return any(p.fullmatch(c) for p in patterns for c in candidates)


def english(text: str, framework: bool = True) -> str | None:
    """The English in ``text`` (a sentence an answer carries), or None when it has none: when
    it is pseudo-translated, or what is left outside its pseudo pieces is no phrase (a lone
    name, number or code) or (unless not ``framework``: a rule set's label is never the
    framework's) is the framework's own message."""
    theirs = is_framework if framework else lambda _: False
    rest = without_pieces(text)
    if not _WORD.search(rest) or theirs(rest):
        return None
    had_pieces = rest != text
    leftovers = []
    for part in _SENTENCE_END.split(rest.strip()):
        if not _WORD.search(part) or theirs(part):
            continue
        if had_pieces and not _PHRASE.search(part):
            continue  # a name or code put beside translated text
        leftovers.append(part.strip())
    return " … ".join(leftovers) or None


# ---------------------------------------------------------------------------------------------
# the sweep


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def sentences(body: Any, status: int) -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every human sentence of a JSON answer: an error's ``message`` and
    its ``fields``' strings; anywhere, every ``message``, ``sentence`` and ``labels`` value (a
    list's items named by their ``variant`` where they have one)."""
    if status >= 400 and isinstance(body, dict) and "code" in body:
        for name, messages in (body.get("fields") or {}).items():
            for text in _strings(messages):
                yield f"fields.{name}", text

    def walk(node: Any, at: str) -> Iterator[tuple[str, str]]:
        if isinstance(node, dict):
            for key, value in node.items():
                here = f"{at}.{key}" if at else str(key)
                if key in SENTENCE_KEYS and isinstance(value, str):
                    yield here, value
                elif key in LABEL_KEYS and isinstance(value, dict):
                    yield from ((f"{here}.{k}", v) for k, v in value.items() if isinstance(v, str))
                elif key != "fields" or at:
                    yield from walk(value, here)
        elif isinstance(node, list):
            for item in node:
                name = item.get("variant") if isinstance(item, dict) else None
                yield from walk(item, f"{at}[{name if isinstance(name, str) else ''}]")

    yield from walk(body, "")


@cache
def uncatalogued() -> frozenset[str]:
    """The rule sets the tests register (``tests/trickgame``): their labels have no catalog."""
    return frozenset(
        rs.name
        for rs in engine.rule_sets(include_engine_only=True)
        if not type(rs).__module__.startswith("engine.")
    )


def numbered(text: str) -> str:
    return re.sub(r"\d+", "N", text)


@dataclass
class Sweep:
    """What the sweep found: each English sentence (numbers as ``N``) with the places it came
    from (request, status and where in the answer) and the callers it came to; the answers
    in another language than ``en-xa``; how many answers it read; every string it sent."""

    found: dict[str, dict[str, set[str]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(set))
    )
    other_language: set[str] = field(default_factory=set)
    answers: int = 0
    sent: set[str] = field(default_factory=set)

    def check(self, request: str, answer: Any, sent: Any = None, caller: str = "") -> None:
        """Read ``answer`` to ``request`` (method and path template) by ``caller``, a request
        that sent ``sent``: its strings, and those of every request before, are data."""
        self.answers += 1
        self.sent.update(_strings(sent))
        status = answer.status_code
        spoken = answer.get("Content-Language")
        if spoken != PSEUDO:
            self.other_language.add(f"{request} [{caller}] → {status} ({spoken})")
        if not answer.get("Content-Type", "").startswith("application/json") or not answer.content:
            return
        for where, text in sentences(json.loads(answer.content), status):
            label = ".labels." in where or where.startswith("labels.")
            if label and any(f"[{name}]" in where for name in uncatalogued()):
                continue
            found = None if text in self.sent else english(text, framework=not label)
            if found is not None:
                self.found[numbered(found)][f"{request} → {status} {where}"].add(caller)

    def report(self) -> str:
        lines = [
            f"{len(self.found)} English sentences in answers to en-xa ({self.answers} answers "
            "read); make each translatable where it is made (docs/languages.md):"
        ]
        for text in sorted(self.found):
            places = self.found[text]
            lines.append(f"\n{text!r}")
            for place in sorted(places)[:8]:
                callers = ", ".join(sorted(c for c in places[place] if c))
                lines.append(f"    {place}" + (f" [{callers}]" if callers else ""))
            if len(places) > 8:
                lines.append(f"    … and {len(places) - 8} more places")
        if self.other_language:
            lines.append(f"\n{len(self.other_language)} answers not in en-xa (Content-Language):")
            lines += [f"    {label}" for label in sorted(self.other_language)[:20]]
        return "\n".join(lines)


def speaking(client: APIClient) -> APIClient:
    """``client`` asking in the pseudo-locale, JSON bodies by default, answered 5xx too."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = PSEUDO
    client.default_format = "json"
    client.raise_request_exception = False
    return client


def send(client: APIClient, method: str, path: str, body: Any = None) -> Any:
    if method in BODIES or (method == "delete" and body is not None):
        return getattr(client, method)(path, {} if body is None else body, format="json")
    return getattr(client, method)(path)


def wrong(value: Any) -> Any:
    """A value of the same kind that no field takes: empty text, -1, empty lists and
    objects, nested ones made wrong alike (booleans flipped into text)."""
    if isinstance(value, bool):
        return "neither"
    if isinstance(value, str):
        return ""
    if isinstance(value, (int, float)):
        return -1
    if isinstance(value, list):
        return [wrong(v) for v in value[:1]] if value and isinstance(value[0], dict) else []
    if isinstance(value, dict):
        return {k: wrong(v) for k, v in value.items()}
    return value


@dataclass
class World:
    owner: APIClient
    member: APIClient
    outsider: APIClient
    anonymous: APIClient
    ids: dict[str, str]
    owner_user: Any


def world() -> World:
    owner, ids = small_world()
    club = Club.objects.get(pk=ids["club_id"])
    member = UserFactory.create(username="mitglied")
    Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
    outsider = UserFactory.create(username="fremder")
    owner_user = Membership.objects.get(club=club, role=Membership.Role.OWNER).user
    return World(
        owner=speaking(owner),
        member=speaking(client_for(member)),
        outsider=speaking(client_for(outsider)),
        anonymous=speaking(client_for(None)),
        ids=ids,
        owner_user=owner_user,
    )


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    spec = generated_schema()
    return [
        (method, template, operation)
        for template, ops in sorted(spec["paths"].items())
        for method, operation in ops.items()
        if method in METHODS
    ]


def sweep_operations(w: World, sweep: Sweep) -> None:
    """Every operation of the schema, by callers who may not and by the owner."""
    ops = operations()

    def path(template: str, **given: str) -> str:
        return PARAM.sub(lambda m: given.get(m.group(1), w.ids.get(m.group(1), "1")), template)

    def ask(caller: str, client: APIClient, method: str, template: str, body: Any = None,
            **given: str) -> None:  # fmt: skip
        answer = send(client, method, path(template, **given), body)
        sweep.check(f"{method.upper()} {template}", answer, body, caller)

    # who may not: no sign-in, a stranger to everything, a plain member of the club
    for caller, client in (
        ("anonymous", w.anonymous), ("outsider", w.outsider), ("member", w.member)
    ):  # fmt: skip
        for method, template, operation in ops:
            body = example_body(operation) if method != "get" else None
            ask(caller, client, method, template, body)
    # the owner reads everything, and asks for what nobody has
    for method, template, operation in ops:
        if method == "get":
            ask("owner", w.owner, method, template)
        names = PARAM.findall(template)
        if names:
            missing = {name: MISSING.get(name, MISSING_NUMBER) for name in names}
            body = example_body(operation) if method != "get" else None
            ask("owner, missing", w.owner, method, template, body, **missing)
    # the owner's writes: an empty body, the example's values all wrong, the example; deletes
    writes = [(method, template, op) for method, template, op in ops if method in BODIES]
    for method, template, operation in writes:
        ask("owner, empty body", w.owner, method, template, {})
        example = example_body(operation)
        if isinstance(example, dict) and example:
            ask("owner, wrong values", w.owner, method, template, wrong(example))
    for method, template, operation in writes:
        ask("owner, example", w.owner, method, template, example_body(operation))
    for method, template, _ in ops:
        if method == "delete":
            ask("owner", w.owner, method, template)


def sweep_engine(w: World, sweep: Sweep) -> None:
    """The engine's refusals: moves out of turn and moves no rule set knows, at a hosted
    table where the owner, bert and carl sit; rules objects the engine refuses."""
    owner = w.owner_user
    players = {owner.username: owner}
    players |= {name: UserFactory.create(username=name) for name in ("bert", "carl")}
    seats = [games.SeatSpec(key=key, kind="user", user=user) for key, user in players.items()]
    table = games.table_create(
        user=owner, name="Online", mode=Table.Mode.HOSTED, rules=WORLD_RULES, seats=seats,
        first_dealer="carl",
    )  # fmt: skip
    games.hand_start(table_id=table.pk, user=owner)
    actions = f"/api/v1/tables/{table.pk}/hands/1/actions/"
    moves: list[dict[str, Any]] = [
        {"call": "nonsense"}, {"card": "XX"}, {"card": "HA"}, {"discard": ["HA"]}, {}
    ]  # fmt: skip
    for key, user in players.items():
        client = w.owner if user == owner else speaking(client_for(user))
        for move in moves:
            body = {"action": move}
            answer = client.post(actions, body, format="json")
            sweep.check(f"POST /api/v1/tables/{{table_id}}/hands/{{number}}/actions/ {move}",
                        answer, body, f"seat {key}")  # fmt: skip
    seated = [{"key": key, "kind": "user", "user": user.pk} for key, user in players.items()]
    for rules in (
        {"variant": "wien"},
        {"variant": "nothing"},
        {"variant": "wien", "dealer_contribution": "x", "pot_cap": -5},
        {"variant": "preferans", "convention": "nowhere", "pool_target": 0},
        {"variant": "doppelkopf", "surprise": True},
    ):
        opening: dict[str, Any] = {"name": "Neu", "mode": "hosted", "rules": rules, "seats": seated}
        answer = w.owner.post("/api/v1/tables/", opening, format="json")
        sweep.check(f"POST /api/v1/tables/ rules {rules}", answer, opening, "owner")


def sweep_settlement(w: World, sweep: Sweep) -> None:
    """A recorded table's reads once deals moved money: its payments' sentences."""
    owner = w.owner_user
    players = {owner.username: owner}
    players |= {name: UserFactory.create(username=name) for name in ("bert", "carl")}
    seats = [games.SeatSpec(key=key, kind="user", user=user) for key, user in players.items()]
    table = games.table_create(
        user=owner, name="Abrechnung", mode=Table.Mode.RECORDED, rules=WORLD_RULES, seats=seats,
        first_dealer="carl",
    )  # fmt: skip
    rng = random.Random(38)
    for number in range(1, 7):
        entry = random_entry(table, rng, number)
        games.table_record_hand(table_id=table.pk, user=owner, entry=entry)
    at = f"/api/v1/tables/{table.pk}/"
    for read in ("settlement/", "balances/", "sheet/", "ledger/"):
        sweep.check(f"GET /api/v1/tables/{{table_id}}/{read} [recorded, six deals]",
                    w.owner.get(at + read), None, "owner")  # fmt: skip
    closed = w.owner.post(at + "close/", {}, format="json")
    sweep.check("POST /api/v1/tables/{table_id}/close/ [six deals]", closed, None, "owner")
    payments = closed.json().get("payments") if closed.status_code == 200 else None
    assert payments, closed.content  # the sweep read the payments' sentences


def sweep_layers(w: World, sweep: Sweep, django_settings: Any) -> None:
    """The answers of the API's own layers, before and around the views."""
    anon = w.anonymous
    register, token = "/api/v1/auth/register/", "/api/v1/auth/token/"
    fields = "&".join(f"f{i}=1" for i in range(1200))
    answers: list[tuple[str, Any]] = [
        ("GET /api/v1/ [Host not ours]", anon.get("/api/v1/", HTTP_HOST="evil.example")),
        ("GET /api/v1/invitations/{code}/ [NUL]", anon.get("/api/v1/invitations/a%00b/")),
        ("GET /api/v1/tournaments/ [NUL]", anon.get("/api/v1/tournaments/", {"search": "a\x00b"})),
        ("GET /api/v1/tournaments/ [1,200 fields]", anon.get(f"/api/v1/tournaments/?{fields}")),
        ("GET /api/v1/no-such-thing/", anon.get("/api/v1/no-such-thing/")),
        ("GET /api/v1/clubs [no slash]", anon.get("/api/v1/clubs")),
        ("DELETE /api/v1/rules/ [no such method]", anon.delete("/api/v1/rules/")),
        ("GET /api/v1/rules/ [Accept: xml]", anon.get("/api/v1/rules/", HTTP_ACCEPT="text/xml")),
        ("GET /api/v1/rules/{variant}/ [none]", anon.get("/api/v1/rules/nothing/")),
    ]  # fmt: skip
    bodies: dict[str, Any] = {  # text, or bytes
        "nested 40 deep": "[" * 40 + "]" * 40,
        "nested 5000 deep": "[" * 5000 + "]" * 5000,
        "NUL": json.dumps({"username": "a\x00b", "password": "x"}),
        "broken JSON": '{"username": ',
        "not UTF-8": b'{"username": "\xff"}',
    }
    for name, text in bodies.items():
        answer = anon.generic("POST", register, text, content_type="application/json")
        answers.append((f"POST {register} [{name}]", answer))
    answer = anon.generic("POST", register, "username=x", content_type="text/plain")
    answers.append((f"POST {register} [text/plain]", answer))
    django_settings.MAX_REQUEST_BODY_BYTES = 1000
    big = json.dumps({"username": "x" * 2000})
    answer = anon.generic("POST", register, big, content_type="application/json")
    answers.append((f"POST {register} [too large]", answer))
    request = RequestFactory().post(register, b"{}", content_type="application/json")
    del request.META["CONTENT_LENGTH"]
    request.META["HTTP_TRANSFER_ENCODING"] = "chunked"
    with translation.override(PSEUDO):  # the middleware alone, as a WSGI server without ends
        refused = RequestLimitsMiddleware.refusal(request)
    assert refused is not None
    refused["Content-Language"] = PSEUDO  # the language middleware's part
    answers.append((f"POST {register} [chunked, no end]", refused))
    django_settings.MAX_REQUEST_BODY_BYTES = 1024 * 1024

    # credentials and tokens
    user = UserFactory.create(username="gesperrt")
    wrong_password = {"username": user.username, "password": "wrong"}
    answers.append((f"POST {token} [wrong password]", anon.post(token, wrong_password)))
    junk = speaking(APIClient(HTTP_AUTHORIZATION="Bearer junk"))
    answers.append(("GET /api/v1/me/ [junk token]", junk.get("/api/v1/me/")))
    for name in ("refresh", "revoke"):
        answer = anon.post(f"{token}{name}/", {"refresh": "junk"}, format="json")
        answers.append((f"POST {token}{name}/ [junk]", answer))
    # the lockout, then each rate limit alone (the anonymous one counts every request without
    # a token first)
    # (every test starts with no counts: tests/conftest.py, fresh_rate_limits)
    django_settings.LOGIN_LOCKOUT_FAILURES = 1
    anon.post(token, wrong_password, REMOTE_ADDR="10.0.0.1")
    right = {"username": user.username, "password": DEFAULT_PASSWORD}
    answer = anon.post(token, right, REMOTE_ADDR="10.0.0.1")
    answers.append((f"POST {token} [locked out]", answer))
    writer = speaking(client_for(UserFactory.create(username="schreiber")))
    rules, pings = "/api/v1/rules/", "/api/v1/pings/"
    limited = {
        "LOGIN_RATE_PER_IP": (f"POST {token}", lambda at: anon.post(token, right, REMOTE_ADDR=at)),
        "REGISTER_RATE_PER_IP": (
            f"POST {register}", lambda at: anon.post(register, {}, REMOTE_ADDR=at)
        ),
        "ANON_RATE_PER_IP": (f"GET {rules}", lambda at: anon.get(rules, REMOTE_ADDR=at)),
        "USER_WRITE_RATE": (f"POST {pings}", lambda at: writer.post(pings, {})),
    }  # fmt: skip
    for at, (rate, (label, call)) in enumerate(limited.items(), start=2):
        setattr(django_settings, rate, "1/hour")
        call(f"10.0.0.{at}")
        answers.append((f"{label} [over {rate}]", call(f"10.0.0.{at}")))
        setattr(django_settings, rate, "1000000/min")
    for label, answer in answers:
        sweep.check(label, answer)


def test_no_english_sentence_reaches_a_reader_of_the_pseudo_locale(settings: Any) -> None:
    for name in RATES:
        setattr(settings, name, "1000000/min")
    w = world()
    sweep = Sweep()
    sweep_operations(w, sweep)
    sweep_engine(w, sweep)
    sweep_settlement(w, sweep)
    sweep_layers(w, sweep, settings)
    assert sweep.answers > 800  # the sweep reached every operation
    assert not sweep.found and not sweep.other_language, sweep.report()


# ---------------------------------------------------------------------------------------------
# the judge itself


@pytest.mark.parametrize(
    "text",
    [
        "⟦Ŧĥé ŧåƀłé îš çłöšéđ.⟧",
        "⟦Šöɱé ƒîéłđš åŕé îñṽåłîđ: name, seats.⟧",
        "⟦Ŧöö ɱåñý ŕéǫûéšŧš; ŧŕý åĝåîñ îñ ⟦5 šéçöñđš⟧.⟧ Expected available in 5 seconds.",
        "⟦Ñö ÅÞÎ éñđþöîñŧ⟧.",
        "⟦ÅÅ⟧ ⟦ßß⟧",
        "This field is required.",
        "Authentication credentials were not provided.",
        "Ensure this field has no more than 150 characters.",
        "Token is invalid or expired.",
        "⟦Ŧĥé ĥåñđ⟧ HA",
        "⟦Ŵîñ⟧ Anna",
        "42",
    ],
)
def test_pseudo_text_and_the_frameworks_own_messages_pass(text: str) -> None:
    assert english(text) is None


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ("The table is closed.", "The table is closed."),
        ("Closed.", "Closed."),
        ("⟦Ŧĥé ŧåƀłé⟧ is closed now.", "is closed now."),
        ("⟦Šéåŧ⟧: anna cannot play HA.", ": anna cannot play HA."),
        ("This field is required. Pick a seat.", "Pick a seat."),
    ],
)
def test_english_is_found_inside_and_beside_pseudo_text(text: str, left: str) -> None:
    assert english(text) == left


def test_a_label_is_never_the_frameworks() -> None:
    assert is_framework("Yes")
    assert english("Yes") is None
    assert english("Yes", framework=False) == "Yes"
    assert english("⟦Ŷéš⟧", framework=False) is None


def test_a_german_reader_gets_the_frameworks_messages_in_german() -> None:
    with translation.override("de"):
        assert translation.gettext("This field is required.") != "This field is required."
    assert is_framework("This field is required.")
    assert not is_framework("The table is closed.")
    assert settings.LANGUAGE_CODE == "en"


def test_the_sweep_reports_every_english_sentence_with_where_it_came_from() -> None:
    from django.http import JsonResponse

    def answer(body: Any, status: int = 400, language: str = PSEUDO) -> JsonResponse:
        out = JsonResponse(body, status=status, safe=False)
        out["Content-Language"] = language
        return out

    sweep = Sweep()
    error: dict[str, Any] = {
        "code": "x",
        "message": "⟦Ŧĥé ŧåƀłé îš çłöšéđ.⟧",
        "fields": {"seats": ["Give three seats.", "⟦Ĝîṽé⟧"], "name": ["Anna Maria"]},
    }
    sweep.check("POST /t/", answer(error), {"name": "Anna Maria"}, "owner")
    sweep.check("POST /t/", answer(error), None, "member")
    rules = [{"variant": "wien", "labels": {"call:herz": "Hearts", "call:pass": "⟦Þåšš⟧"}}]
    sweep.check("GET /rules/", answer({"results": rules}, 200), None, "anonymous")
    sweep.check("GET /x/", answer({"payments": [{"sentence": "Carl pays Anna 3.40 €"}]}, 200))
    sweep.check("GET /de/", answer({}, 200, "de"))
    assert sweep.found == {
        "Give three seats.": {"POST /t/ → 400 fields.seats": {"owner", "member"}},
        "Hearts": {"GET /rules/ → 200 results[wien].labels.call:herz": {"anonymous"}},
        "Carl pays Anna N.N €": {"GET /x/ → 200 payments[].sentence": {""}},
    }
    assert sweep.other_language == {"GET /de/ [] → 200 (de)"}
    report = sweep.report()
    assert "'Give three seats.'\n    POST /t/ → 400 fields.seats [member, owner]" in report
