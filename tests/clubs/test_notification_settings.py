"""Issue 40: how a person hears of each notification type (``clubs.notifications``), part of
``/api/v1/me/``: every type with its channel and a reminder's offset, the defaults until the
person chooses, each change checked against the type (its channels, its offset range) and
all of a request's changes made or none, in the reader's language, in the person's export
and gone with their erasure."""

from __future__ import annotations

from typing import Any

import pytest

from clubs import notifications, privacy
from clubs.models import NotificationSetting, User
from tests.factories import UserFactory
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def settings_by_type(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["type"]: row for row in body["notifications"]}


def change(user: User, *changes: dict[str, Any]) -> Any:
    return client_for(user).patch("/api/v1/me/", {"notifications": list(changes)}, format="json")


def test_my_profile_lists_every_type_with_its_default() -> None:
    body = client_for(UserFactory.create()).get("/api/v1/me/").json()
    assert [row["type"] for row in body["notifications"]] == list(notifications.TYPE_NAMES)
    rows = settings_by_type(body)
    assert rows["round_starts"]["channel"] == "push"
    assert rows["round_starts"]["offset_minutes"] == 10
    assert rows["round_starts"]["offset_range"] == [0, 240]
    assert rows["seated"]["offset_minutes"] is None and rows["seated"]["offset_range"] is None
    assert rows["your_turn"]["channels"] == ["push", "off"]
    assert rows["seated"]["title"] == "You are seated"


def test_the_titles_speak_the_readers_language() -> None:
    client = client_for(UserFactory.create())
    body = client.get("/api/v1/me/", HTTP_ACCEPT_LANGUAGE="de").json()
    assert settings_by_type(body)["seated"]["title"] == "Du hast einen Platz"


def test_a_change_shows_and_only_choices_other_than_the_default_are_kept() -> None:
    anna = UserFactory.create()
    answer = change(
        anna,
        {"type": "round_starts", "offset_minutes": 30},
        {"type": "your_turn", "channel": "off"},
    )
    assert answer.status_code == 200, answer.json()
    rows = settings_by_type(answer.json())
    assert (rows["round_starts"]["channel"], rows["round_starts"]["offset_minutes"]) == ("push", 30)
    assert rows["your_turn"]["channel"] == "off"
    assert settings_by_type(client_for(anna).get("/api/v1/me/").json()) == rows
    assert NotificationSetting.objects.filter(user=anna).count() == 2
    back = change(anna, {"type": "your_turn", "channel": "push"})
    assert settings_by_type(back.json())["your_turn"]["channel"] == "push"
    assert list(NotificationSetting.objects.values_list("type", flat=True)) == ["round_starts"]


@pytest.mark.parametrize(
    ("wrong", "code"),
    [
        ({"type": "your_turn", "channel": "email"}, "notification_channel"),
        ({"type": "seated", "offset_minutes": 5}, "notification_offset"),
        ({"type": "round_starts", "offset_minutes": 600}, "notification_offset"),
        ({"type": "rsvp_closes", "offset_minutes": 30}, "notification_offset"),
        ({"type": "fireworks", "channel": "push"}, "validation_error"),
        ({"type": "seated", "channel": "pigeon"}, "validation_error"),
    ],
)
def test_a_wrong_change_is_refused_and_nothing_changes(wrong: dict[str, Any], code: str) -> None:
    anna = UserFactory.create()
    answer = change(anna, {"type": "invited", "channel": "email"}, wrong)
    assert answer.status_code == 400
    error = answer.json()
    assert error["code"] == code, error
    assert [f for f in error["fields"] if f.startswith("notifications")], error
    assert not NotificationSetting.objects.filter(user=anna).exists()


def test_the_export_holds_the_choices_and_erasure_forgets_them() -> None:
    anna = UserFactory.create()
    change(anna, {"type": "standings_final", "channel": "email"})
    document = privacy.export(anna)
    assert document["account"]["notification_settings"] == [
        {"type": "standings_final", "channel": "email", "offset_minutes": None}
    ]
    privacy.erase(anna)
    assert not NotificationSetting.objects.exists()
