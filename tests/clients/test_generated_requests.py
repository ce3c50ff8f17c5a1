"""What the generated Python client sends: a request model leaves out every field it was
not given (the schema documents no defaults, which openapi-python-client would send every
time, on a PATCH over the stored value), and a self check-in is called without a body."""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType

import attrs
import pytest

PACKAGE = "preference_api_client"
pytestmark = pytest.mark.xdist_group("generated_client")


def test_no_request_model_gives_an_optional_field_a_value_of_its_own(
    generated_client: ModuleType,
) -> None:
    models = importlib.import_module(f"{PACKAGE}.models")
    unset = importlib.import_module(f"{PACKAGE}.types").UNSET
    checked = 0
    for name, model in inspect.getmembers(models, inspect.isclass):
        if not name.endswith("Request") or not attrs.has(model):
            continue
        for field in attrs.fields(model):
            if field.init and field.default is not attrs.NOTHING:
                assert field.default is unset, f"{name}.{field.name} sends {field.default!r}"
                checked += 1
    assert checked > 20


def test_a_model_built_without_a_field_does_not_send_it(generated_client: ModuleType) -> None:
    models = importlib.import_module(f"{PACKAGE}.models")
    assert models.EntryInputRequest().to_dict() == {}
    assert models.PatchedEveningInputRequest(title="Clubabend").to_dict() == {"title": "Clubabend"}
    assert models.InvitationCreateRequest().to_dict() == {}


def test_a_self_check_in_is_called_without_a_body(generated_client: ModuleType) -> None:
    operation = importlib.import_module(f"{PACKAGE}.api.attendance.check_ins_create")
    request = operation._get_kwargs(club_id=1, evening_id=2)
    assert request["url"] == "/api/v1/clubs/1/evenings/2/check-ins/"
    assert "json" not in request
    body = importlib.import_module(f"{PACKAGE}.models").CheckInRequest(user_id=7)
    assert operation._get_kwargs(club_id=1, evening_id=2, body=body)["json"] == {"user_id": 7}
