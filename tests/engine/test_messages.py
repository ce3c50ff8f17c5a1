"""The engine's refusals carry a stable code and their parameters beside the English sentence
(``engine.errors.Message``), and the API renders every one of them in every offered language
with every parameter (``config.i18n.engine_text``): the engine stays free of Django and
gettext, the catalogs (``engine/locale``) translate the templates."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

import engine
from config.catalogs import CATALOG_LANGUAGES
from config.i18n import engine_text
from engine.errors import MESSAGES, EngineError, Message

ENGINE = Path(engine.__file__).parent
ERROR_CLASSES = {"EngineError", "IllegalAction", "NotYourTurn"}
#: The offered languages with a catalog (English is the engine's own).
TRANSLATED = [code for code, _ in settings.LANGUAGES if code in CATALOG_LANGUAGES]
#: The engine's own refusals (a rule set the tests register defines its own, uncatalogued).
OWN = {code: m for code, m in MESSAGES.items() if m.module.startswith("engine.")}


def _sample(message: Message) -> dict[str, str]:
    return {name: f"<{name}>" for name in message.fields}


def test_the_engine_raises_no_sentence_without_a_code() -> None:
    """Every refusal is made by a Message (``MESSAGE.error(at, **params)``): no module of the
    engine builds an ``EngineError``, ``IllegalAction`` or ``NotYourTurn`` from a sentence."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name == "errors.py" and path.parent == ENGINE:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name in ERROR_CLASSES:
                    found.append(f"{path.relative_to(ENGINE.parent)}:{node.lineno}")
    assert not found, f"refusals without a Message: {found}"


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_every_engine_refusal_renders_with_every_parameter(language: str) -> None:
    assert len(OWN) > 100, "the engine defines its refusals as Messages"
    untranslated = []
    with translation.override(language):
        for code, message in sorted(OWN.items()):
            params = _sample(message)
            rendered = engine_text(message.error("here", **params))
            for name, value in params.items():
                assert value in rendered, f"{language}: {code} drops {{{name}}}: {rendered!r}"
            if language != "en" and rendered == message.text(**params):
                untranslated.append(code)
    assert not untranslated, f"{language}: {len(untranslated)} not translated: {untranslated[:10]}"


def test_an_engine_refusal_carries_its_code_and_parameters() -> None:
    with pytest.raises(EngineError) as raised:
        engine.parse_rules({"variant": "no-such-game"})
    error = raised.value
    assert error.code in OWN
    assert OWN[error.code].text(**error.params) == error.message
    assert error.to_json() == {
        "at": error.at,
        "message": error.message,
        "code": error.code,
        "params": error.params,
    }
    with translation.override("de"):
        assert engine_text(error) != error.message


def test_a_message_refuses_the_wrong_parameters_and_a_second_template() -> None:
    message = Message("test_only_message", "{seat} cannot play {card}.")
    try:
        assert message.text(seat="anna", card="HA") == "anna cannot play HA."
        with pytest.raises(ValueError):
            message.text(seat="anna")
        with pytest.raises(ValueError):
            Message("test_only_message", "another template")
    finally:
        MESSAGES.pop("test_only_message")


@pytest.mark.parametrize("rs", engine.rule_sets(), ids=lambda rs: rs.name)
def test_each_rule_set_labels_its_game_types_and_transfer_words(
    rs: engine.RuleSet,  # type: ignore[type-arg]
) -> None:
    """Every game type and ``why`` word has a display label (the catalog test requires each
    label translated in every offered language, as every catalog entry)."""
    kinds = [form["properties"]["type"]["enum"][0] for form in rs.shapes.games]
    wanted = [f"game:{kind}" for kind in kinds] + [f"reason:{why}" for why in rs.shapes.reasons]
    missing = [code for code in wanted if code not in rs.labels]
    assert not missing, f"{rs.name} has no label for {missing}"


def test_a_list_in_a_refusal_is_joined_in_the_readers_language() -> None:
    """The engine joins cards, choices and names with an English "or" or "and"; the API says
    those words in the reader's language, and leaves any other value as it is."""
    must = OWN["must_follow_suit"]
    error = must.error("actions[3]", seat="bert", suit="D", cards="D9 or DK or DA")
    assert engine_text(error) == error.message
    with translation.override("de"):
        german = engine_text(error)
    assert "D9 oder DK oder DA" in german and " or " not in german
    named = must.error("actions[3]", seat="or and", suit="D", cards="D9")
    with translation.override("de"):
        assert "or and" in engine_text(named)  # not a list: a value as given
