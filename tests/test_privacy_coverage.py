"""Issue 39: every model that keeps something about a person is answered for by exactly one
keeper of ``clubs.privacy`` (its export and its erasure), so a new model with a relation to
the user fails here until its app says what the person's export shows of it and what their
erasure does to it."""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth import get_user_model

from clubs import privacy

#: Models that carry a person's name or address without a relation to the user: the
#: webhook deliveries' payloads (standings with names).
NAME_CARRIERS = frozenset({"tournaments.Delivery"})


def _label(model: type) -> str:
    return model._meta.label  # type: ignore[attr-defined,no-any-return]


def models_about_a_person() -> set[str]:
    """The user model and every model with a field of its own that points at the user."""
    user = get_user_model()
    found = {_label(user)}
    for model in apps.get_models():
        for f in model._meta.get_fields():
            if f.is_relation and not f.auto_created and f.related_model is user:
                found.add(_label(model))
    return found | NAME_CARRIERS


def test_every_model_about_a_person_has_exactly_one_keeper() -> None:
    claimed: dict[str, list[str]] = {}
    for keeper in privacy.keepers():
        for label in keeper.models:
            claimed.setdefault(label, []).append(keeper.section)
    missing = sorted(models_about_a_person() - set(claimed))
    assert not missing, f"no keeper answers for {missing}: add them to an app's Keeper.models"
    twice = {label: sections for label, sections in claimed.items() if len(sections) > 1}
    assert not twice, f"answered for by more than one keeper: {twice}"
    unknown = sorted(set(claimed) - {_label(m) for m in apps.get_models()})
    assert not unknown, f"keepers answer for models that do not exist: {unknown}"


def test_the_walk_sees_a_model_pointing_at_the_user() -> None:
    found = models_about_a_person()
    assert {"clubs.User", "clubs.Membership", "games.Seat", "tournaments.Entry"} <= found
    assert "admin.LogEntry" in found  # other apps' models count too
    assert "clubs.Club" not in found
