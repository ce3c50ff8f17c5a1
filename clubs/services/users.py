"""Writes for users: registration and profile updates."""

from __future__ import annotations

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction

from clubs.models import User


@transaction.atomic
def user_register(*, username: str, password: str, email: str = "", display_name: str = "") -> User:
    """Create a player account.

    The username must be free (case-insensitively) and the password must pass Django's
    password validators; failures raise ``ValidationError`` keyed by field.
    """
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": ["This username is taken."]})
    user = User(username=username, email=email, display_name=display_name)
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from exc
    user.set_password(password)
    user.full_clean()
    user.save()
    return user


@transaction.atomic
def user_update(*, user: User, email: str | None = None, display_name: str | None = None) -> User:
    """Change a user's own profile fields; ``None`` leaves a field unchanged."""
    changed: list[str] = []
    if email is not None:
        user.email = email
        changed.append("email")
    if display_name is not None:
        user.display_name = display_name
        changed.append("display_name")
    if changed:
        user.full_clean()
        user.save(update_fields=changed)
    return user
