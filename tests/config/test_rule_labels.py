"""``GET /api/v1/rules/`` (and ``/rules/{variant}/``) names each rule set's words in the
reader's language: ``labels``, an object from ``<kind>:<code>`` to the label, the same codes in
every language; English as the rule set writes it (``RuleSet.labels``), German from the
engine's catalog (``msgctxt`` ``engine:<variant>:<kind>:<code>``, :func:`config.i18n.label`),
the English label where the catalog has no German yet."""

from __future__ import annotations

import pytest
from django.utils import translation
from rest_framework.test import APIClient

import engine
from config.catalogs import ENGINE_CONTEXT, Key, catalog_path, entries
from config.i18n import label, option_description, rule_set_description
from games.rulesets import offered_rule_sets
from tests.openapi import generated_schema

pytestmark = pytest.mark.django_db


def listed(language: str) -> dict[str, dict[str, str]]:
    """Every offered rule set's ``labels`` as a reader of ``language`` gets them, by variant."""
    answer = APIClient(headers={"Accept-Language": language}).get("/api/v1/rules/?page_size=200")
    assert answer.status_code == 200, answer.content
    assert answer["Content-Language"] == language
    assert answer.json()["next"] is None
    return {rs["variant"]: rs["labels"] for rs in answer.json()["results"]}


def test_the_english_labels_are_the_rule_sets_own_by_code() -> None:
    english = listed("en")
    for rule_set in offered_rule_sets():
        assert english[rule_set.name] == dict(rule_set.labels), rule_set.name


def test_the_german_labels_come_from_the_engines_catalog_under_the_same_codes() -> None:
    german, english = listed("de"), listed("en")
    catalog = entries(catalog_path("engine", "de"))
    for rule_set in offered_rule_sets():
        assert list(german[rule_set.name]) == list(english[rule_set.name]), rule_set.name
        for code, text in rule_set.labels.items():
            entry = catalog.get(Key(f"{ENGINE_CONTEXT}{rule_set.name}:{code}", text))
            expected = entry.msgstr if entry is not None and entry.msgstr else text
            assert german[rule_set.name][code] == expected, (rule_set.name, code)


@pytest.mark.parametrize("language", ["en", "de", "de-AT,de;q=0.9"])
def test_one_rule_sets_labels_speak_the_readers_language(language: str) -> None:
    wien = engine.rule_set("wien")
    with translation.override(language.split(",")[0]):
        expected = {code: label(wien, code) for code in wien.labels}
    client = APIClient(headers={"Accept-Language": language})
    one = client.get("/api/v1/rules/wien/")
    assert one.status_code == 200 and one.json()["labels"] == expected
    german = language.startswith("de")
    assert (expected["game:suit"] != wien.labels["game:suit"]) == german


def test_the_schema_documents_labels_as_an_object_of_strings() -> None:
    component = generated_schema()["components"]["schemas"]["RuleSet"]
    assert "labels" in component["required"]
    labels = component["properties"]["labels"]
    assert labels["type"] == "object"
    assert labels["additionalProperties"] == {"type": "string"}
    assert "<kind>:<code>" in labels["description"]


def test_a_rule_set_and_its_options_are_described_in_the_readers_language() -> None:
    wien = engine.rule_set("wien")
    english = APIClient(headers={"Accept-Language": "en"}).get("/api/v1/rules/wien/").json()
    german = APIClient(headers={"Accept-Language": "de"}).get("/api/v1/rules/wien/").json()
    assert english["description"] == wien.description
    assert [o["description"] for o in english["options"]] == [o.description for o in wien.options]
    with translation.override("de"):
        assert german["description"] == rule_set_description(wien) != wien.description
        assert [o["description"] for o in german["options"]] == [
            option_description(wien, o) for o in wien.options
        ]
    assert [o["name"] for o in german["options"]] == [o["name"] for o in english["options"]]
    assert all(g != e for g, e in zip(german["options"], english["options"], strict=True))
