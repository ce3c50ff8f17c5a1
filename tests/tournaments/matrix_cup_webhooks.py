"""Permission-matrix rows for a cup's webhooks and their deliveries: the cup's directors (and
its club's owners and admins) only. The world's director directs the cup, and the cup belongs
to the world's club, so its club_admin runs it too; the player is just another signed-in user
here. A cup nobody else may see (a draft) does not exist for them (404)."""

from __future__ import annotations

from typing import Any

from tests.factories import UserFactory
from tests.tournaments.world import DIRECTORS, HOOK_URL, Row, TournamentWorld, statuses, with_status
from tournaments import webhooks
from tournaments.models import Cup, Webhook

C = "/api/v1/cups/{cup}/"
W = C + "webhooks/"
ONE = W + "{cup_webhook}/"


def _cup(w: TournamentWorld, status: str) -> Cup:
    """The world's cup, ``{cup}``, with a webhook for every cup event, ``{cup_webhook}``."""
    cup = Cup.objects.create(
        club=w.club, name="Wiener Cup", slug="wiener-cup", status=status, policy={}
    )
    cup.directors.add(w.users["director"])
    hook = webhooks.webhook_create(
        user=w.users["director"], cup=cup, url=HOOK_URL, events=list(Webhook.CUP_EVENTS)
    )
    w.extra["cup"], w.extra["cup_webhook"] = cup.pk, hook.pk
    return cup


def a_cup(w: TournamentWorld) -> None:
    _cup(w, Cup.Status.RUNNING)


def a_draft_cup(w: TournamentWorld) -> None:
    _cup(w, Cup.Status.DRAFT)


def a_cup_delivery(w: TournamentWorld) -> None:
    """A delivery of the cup's webhook, ``{cup_delivery}`` (a test ping)."""
    _cup(w, Cup.Status.RUNNING)
    hook = Webhook.objects.get(pk=w.extra["cup_webhook"])
    w.extra["cup_delivery"] = webhooks.webhook_ping(user=w.users["director"], webhook=hook).pk


def a_draft_cup_delivery(w: TournamentWorld) -> None:
    a_cup_delivery(w)
    Cup.objects.filter(pk=w.extra["cup"]).update(status=Cup.Status.DRAFT)


def another_cups_webhook(w: TournamentWorld) -> None:
    """``{cup_webhook}`` is a webhook of another cup, run by someone else."""
    _cup(w, Cup.Status.RUNNING)
    boss = UserFactory.create(username="elsewhere")
    other = Cup.objects.create(name="Grazer Cup", slug="grazer-cup", status="running", policy={})
    other.directors.add(boss)
    hook = webhooks.webhook_create(user=boss, cup=other, url=HOOK_URL, events=["cup_finished"])
    w.extra["cup_webhook"] = hook.pk


def an_inactive_cup_webhook(w: TournamentWorld) -> None:
    _cup(w, Cup.Status.RUNNING)
    hook = Webhook.objects.get(pk=w.extra["cup_webhook"])
    webhooks.webhook_update(user=w.users["director"], webhook=hook, is_active=False)


def new_webhook(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"url": HOOK_URL, "events": ["cup_standings_changed"]}


def switch_off(w: TournamentWorld, role: str) -> dict[str, Any]:
    return {"is_active": False}


HIDDEN = statuses(anonymous=401, outsider=404, player=404)
"""A draft cup does not exist for those who do not run it."""
FOREIGN = statuses(anonymous=401, outsider=403, player=403, director=404, club_admin=404)
"""A webhook of another cup does not exist under this one, even for its directors."""


def both(method: str, path: str, ok: int, **kwargs: Any) -> list[Row]:
    """The row on a running cup (directors ``ok``, others 403) and on a draft (others 404)."""
    setup = kwargs.pop("setup", a_cup)
    draft = kwargs.pop("draft", a_draft_cup)
    return [
        Row(method, path, with_status(DIRECTORS, ok), setup=setup, label="cup", **kwargs),
        Row(method, path, with_status(HIDDEN, ok), setup=draft, label="draft cup", **kwargs),
    ]


ROWS = [
    *both("get", W, 200),
    *both("post", W, 201, body=new_webhook),
    *both("get", ONE, 200),
    *both("patch", ONE, 200, body=switch_off),
    *both("delete", ONE, 204),
    *both("get", ONE + "deliveries/", 200, setup=a_cup_delivery, draft=a_draft_cup_delivery),
    *both(
        "post",
        ONE + "deliveries/{cup_delivery}/replay/",
        202,
        setup=a_cup_delivery,
        draft=a_draft_cup_delivery,
    ),
    *both("post", ONE + "test/", 202),
    *both("post", ONE + "rotate-secret/", 200),
    Row("get", ONE, FOREIGN, setup=another_cups_webhook, label="another cup's"),
    Row("patch", ONE, FOREIGN, setup=another_cups_webhook, body=switch_off, label="another cup's"),
    Row("delete", ONE, FOREIGN, setup=another_cups_webhook, label="another cup's"),
    Row(
        "post",
        ONE + "test/",
        with_status(DIRECTORS, 409),
        setup=an_inactive_cup_webhook,
        label="inactive cup",
    ),
]
