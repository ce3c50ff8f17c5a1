"""``manage.py demo_data``."""

import pytest
from django.core.management import call_command

from clubs.models import User

pytestmark = pytest.mark.django_db


def test_it_creates_the_demo_accounts_idempotently() -> None:
    call_command("demo_data")
    call_command("demo_data")
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.check_password("admin-demo-1")
    for name in ("anna", "bert", "carl", "dave"):
        assert User.objects.get(username=name).check_password("demo-pass-1")
    assert User.objects.count() == 5
