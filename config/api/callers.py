"""Who is calling: the request's user, typed for the services (one place for every app)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from rest_framework.request import Request

from clubs.models import User


def caller(request: Request) -> User | AnonymousUser:
    """The request's user: a signed-in user or anonymous."""
    user = request.user
    assert isinstance(user, User | AnonymousUser)
    return user


def signed_in(request: Request) -> User:
    """The request's user on a view that requires signing in."""
    user = request.user
    assert isinstance(user, User)
    return user
