"""Permission-matrix rows for a tournament's webhooks and their deliveries: directors only."""

from __future__ import annotations

from typing import Any

from tests.factories import UserFactory
from tests.tournaments.world import (
    DIRECTORS,
    HOOK_URL,
    Row,
    TournamentWorld,
    hidden,
    statuses,
    with_status,
)
from tournaments import services, webhooks
from tournaments.models import Webhook

T = "/api/v1/tournaments/{tournament}/"
W = T + "webhooks/"
ONE = W + "{webhook}/"


def a_delivery(w: TournamentWorld) -> None:
    """A delivery of the world's webhook, ``{delivery}`` (a test ping; never sent, as the
    test's transaction never commits)."""
    hook = Webhook.objects.get(pk=w.extra["webhook"])
    w.extra["delivery"] = webhooks.webhook_ping(user=w.users["director"], webhook=hook).pk


def an_inactive_webhook(w: TournamentWorld) -> None:
    hook = Webhook.objects.get(pk=w.extra["webhook"])
    webhooks.webhook_update(user=w.users["director"], webhook=hook, is_active=False)


def another_tournaments_webhook(w: TournamentWorld) -> None:
    """``{webhook}`` is a webhook of another tournament, run by someone else."""
    boss = UserFactory.create(username="elsewhere")
    other = services.tournament_create(user=boss, name="Grazer Open")
    hook = webhooks.webhook_create(
        user=boss, tournament=other, url=HOOK_URL, events=["round_seated"]
    )
    w.extra["webhook"] = hook.pk


def new_webhook(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"url": HOOK_URL, "events": ["round_seated", "standings_changed"]}


def switch_off(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"is_active": False}


FOREIGN = statuses(anonymous=401, outsider=403, player=403, director=404, club_admin=404)
"""A webhook of another tournament does not exist under this one, even for its directors."""

ROWS = [
    Row("get", W, DIRECTORS),
    hidden(Row("get", W, DIRECTORS)),
    Row("post", W, with_status(DIRECTORS, 201), body=new_webhook),
    hidden(Row("post", W, with_status(DIRECTORS, 201), body=new_webhook)),
    hidden(Row("post", W, with_status(DIRECTORS, 201), body=new_webhook), state="draft"),
    Row("get", ONE, DIRECTORS),
    hidden(Row("get", ONE, DIRECTORS)),
    Row("get", ONE, FOREIGN, setup=another_tournaments_webhook, label="another tournament's"),
    Row("patch", ONE, DIRECTORS, body=switch_off),
    hidden(Row("patch", ONE, DIRECTORS, body=switch_off)),
    Row(
        "patch",
        ONE,
        FOREIGN,
        setup=another_tournaments_webhook,
        body=switch_off,
        label="another tournament's",
    ),
    Row("delete", ONE, with_status(DIRECTORS, 204)),
    hidden(Row("delete", ONE, with_status(DIRECTORS, 204))),
    Row("delete", ONE, FOREIGN, setup=another_tournaments_webhook, label="another tournament's"),
    Row("get", ONE + "deliveries/", DIRECTORS, setup=a_delivery),
    hidden(Row("get", ONE + "deliveries/", DIRECTORS, setup=a_delivery)),
    Row(
        "post",
        ONE + "deliveries/{delivery}/replay/",
        with_status(DIRECTORS, 202),
        setup=a_delivery,
    ),
    hidden(
        Row(
            "post",
            ONE + "deliveries/{delivery}/replay/",
            with_status(DIRECTORS, 202),
            setup=a_delivery,
        )
    ),
    Row("post", ONE + "test/", with_status(DIRECTORS, 202)),
    hidden(Row("post", ONE + "test/", with_status(DIRECTORS, 202))),
    Row("post", ONE + "rotate-secret/", DIRECTORS),
    hidden(Row("post", ONE + "rotate-secret/", DIRECTORS)),
    Row(
        "post",
        ONE + "rotate-secret/",
        FOREIGN,
        setup=another_tournaments_webhook,
        label="another tournament's",
    ),
    Row(
        "post",
        ONE + "test/",
        with_status(DIRECTORS, 409),
        setup=an_inactive_webhook,
        label="inactive",
    ),
]
