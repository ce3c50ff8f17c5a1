"""A small live client (docs/live.md): sign in, open the websocket, and play a hosted hand on
"your turn" notifications alone, resuming after a dropped connection without gaps.

With ``make run`` serving and the demo data loaded:

    .venv/bin/python docs/examples/live_client.py --user anna --password demo-pass-1

plays anna's seat at the demo's hosted table "Online-Tisch" (two bots) to the end of its hand
(dealing the next hand when the last one is over), printing every move it hears. It uses only
the standard library and the ``websockets`` package; the REST calls are plain HTTP. The
server's address is ``--base``, by default ``$API_PUBLIC_URL`` or http://127.0.0.1:8000: after
``make run PORT=8080``, pass ``--base http://127.0.0.1:8080``. Where nothing answers there, it
says so in one line ("cannot reach …: is the server running? pass --base") and exits with
status 1.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import urllib.error
import urllib.request
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

PROTOCOL = "preference.v1"
TOO_SLOW, TOKEN_EXPIRED = 4008, 4004


def cannot_reach(base: str) -> str:
    return f"cannot reach {base}: is the server running? pass --base"


class Api:
    """REST calls with the access token of one account."""

    def __init__(self, base: str, username: str, password: str) -> None:
        self.base = base.rstrip("/")
        self.credentials = {"username": username, "password": password}
        self.token = ""
        self.sign_in()

    def sign_in(self) -> None:
        self.token = self.call("POST", "/api/v1/auth/token/", self.credentials)["access"]

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                raw = answer.read()
        except urllib.error.HTTPError as e:
            problem = json.loads(e.read() or b"{}")
            sys.exit(f"{method} {path}: {e.code} {problem.get('message', problem)}")
        except urllib.error.URLError:  # nothing answers at that address
            sys.exit(cannot_reach(self.base))
        return json.loads(raw) if raw else None


def my_hosted_table(api: Api, username: str) -> dict[str, Any]:
    """The first open hosted table where ``username`` has a seat."""
    tables = api.call("GET", "/api/v1/tables/?mode=hosted&status=open")["results"]
    for table in tables:
        if any(seat["username"] == username for seat in table["seats"]):
            return table
    sys.exit(f"{username} has no seat at an open hosted table.")


def hand_to_play(api: Api, table_id: int) -> int:
    """The number of the hand being played, dealing the next one when the last is over."""
    playing = api.call("GET", f"/api/v1/tables/{table_id}/hands/?status=playing")["results"]
    if playing:
        return int(playing[0]["number"])
    return int(api.call("POST", f"/api/v1/tables/{table_id}/hands/")["number"])


def play(api: Api, ws_url: str, table_id: int, number: int, rng: random.Random) -> None:
    """Play our seat of one hand, reconnecting (and resuming from the last version heard)
    whenever the server closes the socket."""
    base = f"/api/v1/tables/{table_id}/hands/{number}/"
    heard = 0  # the last version whose events we printed
    while True:
        # the token goes in a subprotocol, never in the URL (proxies log URLs)
        offered = [PROTOCOL, f"bearer.{api.token}"]
        try:
            with connect(ws_url, subprotocols=offered) as ws:  # type: ignore[arg-type]
                send = lambda message: ws.send(json.dumps(message))  # noqa: E731
                send({"type": "subscribe", "topic": "notifications"})
                send({"type": "subscribe", "topic": "hand", "table_id": table_id,
                      "number": number, "after": heard})  # fmt: skip
                for raw in ws:
                    message = json.loads(raw)
                    kind = message["type"]
                    if kind == "events":
                        for event in message["events"]:
                            print(f"  v{event['version']:>2} {event['seat']:>6}: {event['action']}")
                        heard = message["version"]
                        if message["status"] == "done":
                            print(f"hand {number} is over.")
                            return
                    elif kind in ("notification", "notifications"):
                        turns = [message] if kind == "notification" else message["your_turn"]
                        for turn in turns:
                            if turn.get("kind", "your_turn") == "your_turn" and (
                                turn["table_id"],
                                turn["number"],
                            ) == (table_id, number):
                                move(api, base, rng)
                    elif kind == "error":
                        print(f"server: {message['code']}: {message['message']}")
        except OSError:  # the server went away: refused, or no such host
            sys.exit(cannot_reach(api.base))
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            print(f"socket closed ({code}); reconnecting from version {heard}")
            if code == TOKEN_EXPIRED:
                api.sign_in()


def move(api: Api, base: str, rng: random.Random) -> None:
    """Our turn: read our view and send one of the legal actions (a random one: replace with
    your player's choice), with the version we saw so a repeated message cannot act twice."""
    view = api.call("GET", base + "view/")
    if not view.get("legal"):
        return  # an old notification: it is no longer our turn
    action = rng.choice(view["legal"])
    print(f"  we play {action}")
    api.call("POST", base + "actions/", {"action": action, "expected_version": view["version"]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--base",
        default=os.environ.get("API_PUBLIC_URL", "http://127.0.0.1:8000"),
        help="the API's address (default: $API_PUBLIC_URL, else http://127.0.0.1:8000)",
    )
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--seed", type=int, default=None, help="seed for our random player")
    args = parser.parse_args()
    api = Api(args.base, args.user, args.password)
    ws_url = args.base.replace("http", "ws", 1).rstrip("/") + "/ws/v1/"
    table = my_hosted_table(api, args.user)
    number = hand_to_play(api, table["id"])
    print(f"{table['name']} (table {table['id']}), hand {number}:")
    play(api, ws_url, table["id"], number, random.Random(args.seed))


if __name__ == "__main__":
    main()
