"""Play a hosted hand with the Python client generated from the schema (docs/mobile.md).

With ``make run`` serving the demo data, generate and install the client, then play:

    make clients
    .venv/bin/pip install ./clients/python
    .venv/bin/python docs/examples/generated_client.py --user anna --password demo-pass-1

The server's address is ``--base``, by default ``$API_PUBLIC_URL`` or http://127.0.0.1:8000:
after ``make run PORT=8080``, pass ``--base http://127.0.0.1:8080``. Where nothing answers
there, it says so in one line ("cannot reach …: is the server running? pass --base") and exits
with status 1.

It signs in, follows the tables you sit at to the hand in play (a hosted table's latest hand
is number ``hands_count``; never assume hand 1), or deals the next hand at your newest hosted
table when none is in play, and plays your seat to the end of the hand: on your turn one of
your legal actions, sent with the version you saw and an ``Idempotency-Key`` (a retry after a
timeout uses the same key and so never acts twice); otherwise it long-polls the hand's events.
Every call goes through the generated client; there is no hand-written HTTP here.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import uuid
from typing import Any

import httpx  # the generated client's HTTP library: its error for an address nobody serves
from preference_api_client import AuthenticatedClient, Client
from preference_api_client.api.auth import tokens_create
from preference_api_client.api.hands import (
    hands_act,
    hands_create,
    hands_get,
    hands_get_events,
    hands_get_view,
)
from preference_api_client.api.me import my_tables_list
from preference_api_client.api.tables import tables_get
from preference_api_client.models import (
    ActionInputRequest,
    ApiError,
    MyTable,
    TokenObtainPairRequest,
)


def answer(result: Any) -> Any:
    """The parsed answer, or exit with the error's sentence (every error is an ``ApiError``)."""
    if isinstance(result, ApiError):
        sys.exit(f"{result.code}: {result.message}")
    if result is None:
        sys.exit("the server gave an answer the schema does not describe")
    return result


def hand_in_play(api: AuthenticatedClient, tables: list[MyTable]) -> tuple[MyTable, int] | None:
    """The first of my hosted tables (newest first) whose latest hand (numbered 1, 2, … so the
    latest is ``hands_count``) is still being played, with that hand's number."""
    for table in tables:
        if table.mode != "hosted":
            continue
        number = answer(tables_get.sync(table.table_id, client=api)).hands_count
        hand = answer(hands_get.sync(table.table_id, number, client=api)) if number else None
        if hand is not None and hand.status == "playing":
            return table, number
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--base",
        default=os.environ.get("API_PUBLIC_URL", "http://127.0.0.1:8000"),
        help="the API's address (default: $API_PUBLIC_URL, else http://127.0.0.1:8000)",
    )
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--seed", type=int, default=None, help="for a repeatable choice of moves")
    args = parser.parse_args()
    try:
        play(args)
    except httpx.ConnectError:
        sys.exit(f"cannot reach {args.base}: is the server running? pass --base")


def play(args: argparse.Namespace) -> None:
    """Sign in, find or deal the hand, and play our seat to its end."""
    rng = random.Random(args.seed)
    with Client(base_url=args.base) as anonymous:
        body = TokenObtainPairRequest(username=args.user, password=args.password)
        tokens = answer(tokens_create.sync(client=anonymous, body=body))
    with AuthenticatedClient(base_url=args.base, token=tokens.access) as api:
        tables = answer(my_tables_list.sync(client=api)).results
        found = hand_in_play(api, tables)
        if found is not None:
            table, number = found
        else:
            table = next((t for t in tables if t.mode == "hosted"), None)
            if table is None:
                sys.exit(f"{args.user} sits at no hosted table")
            number = answer(hands_create.sync(table.table_id, client=api)).number
            print(f"dealt hand {number} at {table.name}")
        while True:
            view = answer(hands_get_view.sync(table.table_id, number, client=api))
            if view.status == "done":
                print(f"hand {number} is over.")
                return
            if view.to_act == table.seat and view.legal:
                move = rng.choice(view.legal).to_dict()
                request = ActionInputRequest.from_dict(
                    {"action": move, "expected_version": view.version}
                )
                key = str(uuid.uuid4())
                answer(
                    hands_act.sync(
                        table.table_id, number, client=api, body=request, idempotency_key=key
                    )
                )
                print(f"{table.seat}: {move}")
                continue
            events = answer(
                hands_get_events.sync(
                    table.table_id, number, client=api, after=view.version, wait=25
                )
            )
            for event in events.events:
                print(f"{event.seat}: {event.action.to_dict()}")


if __name__ == "__main__":
    main()
