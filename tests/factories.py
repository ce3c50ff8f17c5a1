"""factory-boy factories shared by the API tests."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from clubs.models import Club, Membership, User

DEFAULT_PASSWORD = "correct-horse-battery-9"


class UserFactory(DjangoModelFactory[User]):
    """A player with the password ``DEFAULT_PASSWORD``."""

    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    display_name = factory.LazyAttribute(lambda user: user.username.capitalize())
    password = factory.django.Password(DEFAULT_PASSWORD)


class ClubFactory(DjangoModelFactory[Club]):
    """A club."""

    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")


class MembershipFactory(DjangoModelFactory[Membership]):
    """A user's membership of a club (``role`` member unless given)."""

    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.MEMBER
