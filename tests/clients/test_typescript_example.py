"""The TypeScript example (docs/examples/typescript/app.ts) runs as written: compiled with the
project's ``tsc`` against the types openapi-typescript generates from docs/openapi.yaml (as
``make clients`` does), then run with ``node`` against a real server (pytest-django's
``live_server``). Its ``firstMove`` must follow "my tables" past a hosted table without hands
and a recorded table to the hand in play (hand 2, not hand 1), wait when another seat is to
act, and play the first legal action on the caller's turn.

``make test`` installs the Node tools first where npm is found (``npm ci``, as ``make lint``);
without them the test is skipped with the reason, and where Node.js is required it fails
instead: under ``CI=true`` (CI services set it), ``REQUIRE_NODE=1`` or ``REQUIRE_SERVICES=1``
(``.ci/run``), so CI never skips it.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from clubs.models import User
from games import services
from games.models import Hand, Table
from tests.clients.conftest import PROJECT_DIR
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.generated import generated_once

EXAMPLE_DIR = PROJECT_DIR / "docs" / "examples" / "typescript"
NODE_BIN = PROJECT_DIR / "node_modules" / ".bin"
NODE = shutil.which("node")
RULES: dict[str, Any] = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}
# Calls the example's own exports, as an app would: firstMove(new Api(base), user, password).
RUNNER = """
const [module, base, username, password] = process.argv.slice(1);
const { Api, firstMove } = await import(module);
console.log(await firstMove(new Api(base), username, password));
"""


def missing_node_tools() -> list[str]:
    return [
        name
        for name, there in [
            ("node", NODE is not None),
            ("node_modules/.bin/tsc", (NODE_BIN / "tsc").exists()),
            ("node_modules/.bin/openapi-typescript", (NODE_BIN / "openapi-typescript").exists()),
        ]
        if not there
    ]


def node_required() -> str | None:
    """The setting that requires Node.js here (CI), or None."""
    for name, value in (("CI", "true"), ("REQUIRE_NODE", "1"), ("REQUIRE_SERVICES", "1")):
        if os.environ.get(name, "").lower() == value:
            return f"{name}={value}"
    return None


def node_tools_or_skip(missing: list[str]) -> None:
    """Skip the test when a Node tool is ``missing``, or fail where Node.js is required."""
    if not missing:
        return
    reason = f"needs {', '.join(missing)}: install Node.js and npm (make test then runs npm ci)"
    required = node_required()
    if required is not None:
        pytest.fail(f"{required} but the TypeScript example's test {reason}", pytrace=False)
    pytest.skip(reason)


def compile_example(where: Path) -> None:
    """Types generated from docs/openapi.yaml, the example and its tsconfig.json copied beside
    them at the same relative place as in the repository, type-checked and emitted by ``tsc``
    into ``where/out``."""
    subprocess.run(
        [
            str(NODE_BIN / "openapi-typescript"), str(PROJECT_DIR / "docs" / "openapi.yaml"),
            "--output", str(where / "clients" / "typescript" / "schema.d.ts"),
        ],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    example = where / "docs" / "examples" / "typescript"
    shutil.copytree(EXAMPLE_DIR, example)
    out = where / "out"
    done = subprocess.run(
        [
            str(NODE_BIN / "tsc"), "-p", str(example),
            "--noEmit", "false", "--outDir", str(out),
        ],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    (out / "package.json").write_text(json.dumps({"type": "module"}))


@pytest.fixture(scope="module")
def compiled_example() -> Path:
    """app.js, compiled afresh when the schema, the example or the Node tools changed (else
    kept from the last run: tests/generated.py)."""
    node_tools_or_skip(missing_node_tools())
    inputs: list[bytes | str] = [
        (PROJECT_DIR / "docs" / "openapi.yaml").read_bytes(),
        (PROJECT_DIR / "package-lock.json").read_bytes(),
    ]
    for path in sorted(p for p in EXAMPLE_DIR.rglob("*") if p.is_file()):
        inputs += [str(path.relative_to(EXAMPLE_DIR)), path.read_bytes()]
    return generated_once("typescript-example", inputs, compile_example) / "out" / "app.js"


def first_move(app: Path, base: str, user: User) -> str:
    done = subprocess.run(
        [NODE or "node", "--input-type=module", "-e", RUNNER, "--"]
        + [app.as_uri(), base, user.username, DEFAULT_PASSWORD],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip()


def table_of(owner: User, mode: str, players: list[User], name: str) -> Table:
    seats = [services.SeatSpec(key=p.username, kind="user", user=p) for p in players]
    return services.table_create(
        user=owner, name=name, mode=mode, rules=RULES, seats=seats, first_dealer=seats[-1].key
    )


def play_out(table: Table, number: int, players: dict[str, User], rng: random.Random) -> None:
    """Play a hosted hand to its end through the services, random legal moves."""
    for _ in range(200):
        hand = Hand.objects.get(table=table, number=number)
        if hand.status == Hand.Status.DONE:
            return
        seat = services.hand_state(table, hand).to_act_seat
        assert seat is not None
        move = rng.choice(services.hand_view(table, hand, seat)["legal"])
        services.hand_apply_action(
            table_id=table.pk, number=number, user=players[seat], action=move
        )
    raise AssertionError("the hand did not end")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_tasks")
def test_the_typescript_example_follows_my_tables_to_the_hand_in_play_and_moves(
    compiled_example: Path, live_server: Any
) -> None:
    anna, bert, carl = (UserFactory.create(username=n) for n in ("anna", "bert", "carl"))
    players = {u.username: u for u in (anna, bert, carl)}
    playing = table_of(anna, Table.Mode.HOSTED, [anna, bert, carl], "Online")
    services.hand_start(table_id=playing.pk, user=anna)
    play_out(playing, 1, players, random.Random(24))
    services.hand_start(table_id=playing.pk, user=anna)
    # newer tables come first in "my tables": neither has a hand in play
    table_of(anna, Table.Mode.HOSTED, [anna, bert, carl], "Not dealt yet")
    table_of(anna, Table.Mode.RECORDED, [anna, bert, carl], "Score sheet")

    hand = Hand.objects.get(table=playing, number=2)
    to_act = services.hand_state(playing, hand).to_act_seat
    assert to_act is not None
    waiting = next(u for u in (anna, bert, carl) if u.username != to_act)

    said = first_move(compiled_example, live_server.url, waiting)
    assert said == (
        f"hand 2 at table {playing.pk}, seat {waiting.username}: waiting, {to_act} is to act"
    )
    hand.refresh_from_db()
    assert (hand.version, hand.actions) == (0, [])

    said = first_move(compiled_example, live_server.url, players[to_act])
    first = services.hand_view(playing, hand, to_act)["legal"][0]
    assert said == (
        f"hand 2 at table {playing.pk}, seat {to_act}: played "
        f"{json.dumps(first, separators=(',', ':'))}, now version 1"
    )
    hand.refresh_from_db()
    assert hand.version == 1
    assert [{k: v for k, v in a.items() if k != "seat"} for a in hand.actions] == [first]
    assert hand.actions[0]["seat"] == to_act
    assert Hand.objects.get(table=playing, number=1).status == Hand.Status.DONE
