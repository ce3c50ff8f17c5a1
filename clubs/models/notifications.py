"""What a person is told and where (issue 40, ``docs/notifications.md``): their push targets,
the phones and browsers that asked to be told when something concerns them, and their choice
per notification type (``clubs.notifications``). Part of the base: every app's notifications
reach the person through these.

A target is one push service's address for one installed app: an APNs device token (iOS),
an FCM registration token (Android), or a Web Push subscription (a browser: its endpoint and
the keys its messages are encrypted to). The service's address is unique: the same phone
registering again (or under another account) moves the row, it never doubles."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy


class Device(models.Model):
    """One push target of one user."""

    class Kind(models.TextChoices):
        APNS = "apns", pgettext_lazy("push service", "Apple Push Notification service")
        FCM = "fcm", pgettext_lazy("push service", "Firebase Cloud Messaging")
        WEBPUSH = "webpush", pgettext_lazy("push service", "Web Push")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="devices"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    token = models.CharField(
        max_length=1024,
        help_text="The push service's address of the app: an APNs device token, an FCM "
        "registration token, or a Web Push subscription's endpoint URL.",
    )
    keys = models.JSONField(
        default=dict,
        blank=True,
        help_text="Web Push: the subscription's p256dh and auth keys; empty otherwise.",
    )
    app = models.CharField(
        max_length=200,
        blank=True,
        help_text="The app's id at its push service (an iOS bundle id, an Android package); "
        "empty for the server's default app and for Web Push.",
    )
    name = models.CharField(
        max_length=100, blank=True, help_text="A label the person reads, e.g. “Anna's phone”."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    registered_at = models.DateTimeField(
        help_text="When the app last registered this target (apps register at every start)."
    )

    class Meta:
        ordering = ("-registered_at", "-id")
        constraints = [
            models.UniqueConstraint(fields=("kind", "token"), name="device_unique_target")
        ]

    def __str__(self) -> str:
        return f"{self.kind} device {self.pk} of user {self.user_id}"


class NotificationSetting(models.Model):
    """A person's choice for one notification type (``clubs.notifications.TYPES``): its
    channel and, for a reminder, how many minutes before. Kept only where it differs from
    the type's default."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    type = models.CharField(max_length=50, help_text="A notification type's name.")
    channel = models.CharField(max_length=16, help_text="push, email or off.")
    offset_minutes = models.PositiveIntegerField(
        null=True, blank=True, help_text="A reminder's minutes before the moment."
    )

    class Meta:
        ordering = ("user", "type")
        constraints = [
            models.UniqueConstraint(fields=("user", "type"), name="notification_setting_unique")
        ]

    def __str__(self) -> str:
        return f"{self.type} by {self.channel} for user {self.user_id}"


class Notification(models.Model):
    """One thing to tell one person (``clubs.outbox``): a notification type about one object
    (``key``, e.g. ``evening:12`` or ``table:7``), due at ``due_at`` (now, or a reminder's
    moment less the person's offset), and once sent, when and how. One row per person, type
    and object: telling someone twice about the same thing updates the row, so a reminder
    moves with its moment and a restarted worker never sends it twice.

    ``payload`` is what the app routes on (type, ids, deep link path); ``context`` the values
    its text is written from in the person's language when it is sent. Neither ever holds a
    card or anything the rules keep from the person."""

    class Outcome(models.TextChoices):
        PUSHED = "pushed", pgettext_lazy("notification outcome", "Sent by push")
        MAILED = "mailed", pgettext_lazy("notification outcome", "Sent by e-mail")
        OFF = "off", pgettext_lazy("notification outcome", "Not sent: turned off")
        WATCHING = (
            "watching",
            pgettext_lazy("notification outcome", "Not sent: the person was watching"),
        )
        NO_TARGET = (
            "no_target",
            pgettext_lazy("notification outcome", "Not sent: no device or address"),
        )
        FAILED = "failed", pgettext_lazy("notification outcome", "Every target failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    type = models.CharField(max_length=50, help_text="A notification type's name.")
    key = models.CharField(max_length=100, help_text="The object it is about, e.g. table:7.")
    moment = models.DateTimeField(
        null=True, blank=True, help_text="A reminder's moment (what it is due before)."
    )
    due_at = models.DateTimeField()
    payload = models.JSONField(default=dict)
    context = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    queued_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a delivery task was last given this row; a sweep gives it again only "
        "once it is due and NOTIFICATION_RESEND_SECONDS have passed.",
    )
    sent_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, blank=True)

    class Meta:
        ordering = ("-due_at", "-id")
        constraints = [
            models.UniqueConstraint(fields=("user", "type", "key"), name="notification_unique")
        ]
        indexes = [
            models.Index(
                fields=("due_at",),
                condition=models.Q(sent_at__isnull=True),
                name="notification_due",
            )
        ]

    def __str__(self) -> str:
        return f"{self.type} {self.key} for user {self.user_id}"
