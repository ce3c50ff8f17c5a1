"""docs/examples/generated_client.py runs as written, on the Python client generated from
docs/openapi.yaml (the session fixture in conftest.py) and against a real server
(pytest-django's ``live_server``; the bots move in the server's process): with no hand in
play it deals one and plays it to the end; with hand 2 in play at an older table it follows
"my tables" past a newer hosted table and a recorded one to that hand, and deals nothing.
CI also runs it against ``make run`` (.ci/run)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from clubs.models import User
from games import services
from games.models import Hand, Table
from tests.clients.conftest import PROJECT_DIR
from tests.factories import DEFAULT_PASSWORD, UserFactory

EXAMPLE = PROJECT_DIR / "docs" / "examples" / "generated_client.py"
RULES: dict[str, Any] = {"variant": "wien", "dealer_contribution": 100, "pot_cap": 300}
# The same worker as test_python_client.py, which generates and installs the client once.
pytestmark = pytest.mark.xdist_group("generated_client")


def run_example(client: ModuleType, base: str, user: User) -> list[str]:
    site = Path(client.__file__ or "").resolve().parents[1]
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--base", base, "--user", user.username]
        + ["--password", DEFAULT_PASSWORD, "--seed", "1"],
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()


def with_bots(anna: User, name: str, mode: str = Table.Mode.HOSTED) -> Table:
    bots = [
        services.SeatSpec(key=k, kind="bot" if mode == Table.Mode.HOSTED else "guest",
                          bot_level="random" if mode == Table.Mode.HOSTED else "",
                          guest_name=k.capitalize())
        for k in ("bot-1", "bot-2")
    ]  # fmt: skip
    return services.table_create(
        user=anna,
        name=name,
        mode=mode,
        rules=RULES,
        seats=[services.SeatSpec(key="anna", kind="user", user=anna), *bots],
        first_dealer="anna",
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_tasks")
def test_the_python_example_deals_when_no_hand_is_in_play_and_else_plays_the_hand_in_play(
    generated_client: ModuleType, live_server: Any
) -> None:
    anna = UserFactory.create(username="anna")
    online = with_bots(anna, "Online")

    said = run_example(generated_client, live_server.url, anna)
    assert said[0] == "dealt hand 1 at Online" and said[-1] == "hand 1 is over."

    services.hand_start(table_id=online.pk, user=anna)
    newer = with_bots(anna, "Not dealt yet")
    recorded = with_bots(anna, "Score sheet", Table.Mode.RECORDED)

    said = run_example(generated_client, live_server.url, anna)
    assert not any(line.startswith("dealt") for line in said), said
    assert said[-1] == "hand 2 is over."
    assert Hand.objects.get(table=online, number=2).status == Hand.Status.DONE
    assert not Hand.objects.filter(table__in=[newer, recorded]).exists()
