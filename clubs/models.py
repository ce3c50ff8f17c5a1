"""Club members."""

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player or organiser; ``display_name`` is what tables and standings show."""

    display_name = models.CharField(max_length=150, blank=True)

    def __str__(self) -> str:
        return self.display_name or self.username
