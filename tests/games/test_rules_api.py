"""GET /api/v1/rules/ and /api/v1/rules/{variant}/: the registered rule sets as the engine
describes them (``python -m engine rules``), for anyone, paginated like every list."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from engine.__main__ import main as engine_cli
from tests.openapi import schema_errors

pytestmark = pytest.mark.django_db


def cli_rule_sets() -> dict[str, dict[str, Any]]:
    """``python -m engine rules`` as a user runs it, by variant."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert engine_cli(["rules"]) == 0
    return {rs["variant"]: rs for rs in json.loads(out.getvalue())["rule_sets"]}


def every_rule_set(client: APIClient) -> list[dict[str, Any]]:
    """Every page of ``GET /api/v1/rules/``, followed by ``next``."""
    found: list[dict[str, Any]] = []
    url: str | None = "/api/v1/rules/?page_size=3"
    while url:
        answer = client.get(url)
        assert answer.status_code == 200, answer.content
        page = answer.json()
        assert not schema_errors("PaginatedRuleSetList", page)
        found += page["results"]
        url = page["next"]
    return found


def test_anyone_lists_every_registered_rule_set_in_the_engines_order() -> None:
    listed = every_rule_set(APIClient())
    assert [rs["variant"] for rs in listed] == [rs.name for rs in engine.rule_sets()]


def test_each_rule_set_has_the_engines_options_defaults_shape_and_description() -> None:
    cli = cli_rule_sets()
    for listed in every_rule_set(APIClient()):
        described = cli[listed["variant"]]
        assert listed["description"] == described["description"]
        assert listed["players"] == described["players"]
        assert listed["seats"] == described["seats"]
        assert listed["unit"] == described["unit"]
        assert listed["score_unit"] == described["score_unit"]
        assert listed["example"] == described["example"]
        assert [o["name"] for o in listed["options"]] == [o["name"] for o in described["options"]]
        for option, engine_option in zip(listed["options"], described["options"], strict=True):
            # every key the engine gives, the same; the keys it leaves out are null or empty
            for key, value in engine_option.items():
                assert option[key] == value, (listed["variant"], option["name"], key)
            assert option["required"] == engine_option.get("required", False)
            if not option["required"]:
                assert option["example"] == engine_option["default"]
            for key in ("minimum", "maximum", "multiple_of", "unit"):
                assert key in engine_option or option[key] is None
            assert option["choices"] == engine_option.get("choices", [])
        defaults = {o["name"]: o["default"] for o in described["options"] if "default" in o}
        assert listed["defaults"] == defaults
        engine.parse_rules(listed["example"])  # a rules object a table may take as it is


def test_the_defaults_and_bot_levels_are_what_a_table_gets() -> None:
    for listed in every_rule_set(APIClient()):
        rule_set = engine.rule_set(listed["variant"])
        assert listed["bot_levels"] == ["random", *rule_set.bot_policies()]
        required = {o["name"]: o["example"] for o in listed["options"] if o["required"]}
        rules = engine.parse_rules({"variant": listed["variant"], **required}).to_json()
        # what the engine fills in for each omitted option (a record leaves a null one out)
        assert {k: rules.get(k) for k in listed["defaults"]} == listed["defaults"]


def test_one_rule_set_by_its_variant_is_its_entry_in_the_list() -> None:
    client = APIClient()
    listed = every_rule_set(client)
    for entry in listed:
        answer = client.get(f"/api/v1/rules/{entry['variant']}/")
        assert answer.status_code == 200
        assert answer.json() == entry
        assert not schema_errors("RuleSet", answer.json())


def test_an_unknown_variant_is_not_found_in_the_error_shape() -> None:
    answer = APIClient().get("/api/v1/rules/skat/")
    assert answer.status_code == 404
    body = answer.json()
    assert body["code"] == "not_found"
    assert body["fields"] == {}
    assert "'skat'" in body["message"]
    assert all(rs.name in body["message"] for rs in engine.rule_sets())


def test_a_page_size_pages_the_list() -> None:
    page = APIClient().get("/api/v1/rules/?page_size=1").json()
    assert page["count"] == len(engine.rule_sets())
    assert len(page["results"]) == 1
    assert page["next"] is not None and page["previous"] is None


def test_the_rules_are_read_only() -> None:
    client = APIClient()
    assert client.post("/api/v1/rules/", {}, format="json").status_code == 405
    assert client.delete(f"/api/v1/rules/{engine.rule_sets()[0].name}/").status_code == 405


def test_the_api_root_names_the_rule_sets() -> None:
    resources = APIClient().get("/api/v1/").json()["resources"]
    assert resources["rules"] == "http://testserver/api/v1/rules/"
