"""Club members."""

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player or organiser; ``display_name`` is what tables and standings show."""

    display_name = models.CharField(max_length=150, blank=True)

    def __str__(self) -> str:
        return self.display_name or self.username


class Club(models.Model):
    """A club: members with roles, its evenings (events) and its tables."""

    name = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's membership of a club; ``admin`` members run the club (and its tables)."""

    class Role(models.TextChoices):
        ADMIN = "admin", "Admin"
        MEMBER = "member", "Member"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("club", "user"), name="membership_unique_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


class Event(models.Model):
    """A club evening; tables can belong to one."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=150)
    starts_at = models.DateTimeField()

    class Meta:
        ordering = ("-starts_at", "-id")

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"
