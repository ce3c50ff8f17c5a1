"""``austria-1829`` behind the seam: the family's machinery asking
:data:`engine.rules.austria_1829.rules.AUSTRIA_1829`."""

from __future__ import annotations

from typing import ClassVar

from engine.rules.austria_1829.rules import AUSTRIA_1829
from engine.rules.family.ruleset import FamilyRuleSet, family_rule_set
from engine.rules.family.schema import PLAY_HOME, SUIT_GAME, family_shapes
from engine.rules.family.spec import Family

LABELS = {
    "call:pass": "Pass (weiter)",
    "call:hold": "Hold (selbst)",
    "call:H": "Hearts (Préférence as the first bid)",
    "suit:H": "Préférence (hearts)",
    "defence:play": "Play (helfen)",
    "defence:home": "Drop out (passen)",
}
"""1829's words: *weiter*, *selbst*, hearts as *Préférence*, *helfen* and *passen*."""


class Austria1829(FamilyRuleSet):
    """The earliest printed rules (``spec/next/austria-variants.md``, "austria-1829")."""

    family: ClassVar[Family] = AUSTRIA_1829


RULE_SET = family_rule_set(
    Austria1829,
    name="austria-1829",
    description="The earliest printed rules (1829): suit bids, holding, Préférence, a forced "
    "player's bête, defenders failing with fewer than 2 tricks pay the others "
    "(spec/next/austria-variants.md)",
    sheet_keys=("defence", "bid", "forced"),
    examples=(
        {"variant": "austria-1829", "unit": 1, "ante": 240},
        {
            "variant": "austria-1829",
            "unit": 5,
            "ante": 20,
            "must_trump": False,
            "must_head": True,
            "jump_bids": False,
            "hand_value": "double",
            "walkover_value": "bid",
            "forced_bete": "always",
        },
        {"variant": "austria-1829", "unit": 1, "ante": 50, "forced_player": "throw_in"},
    ),
    carry_examples=({"pot": 0}, {"pot": 720}, {"pot": 1000}),
    shapes=family_shapes((SUIT_GAME,), PLAY_HOME, ("ante", "game", "tricks", "fall", "bete")),
    labels=LABELS,
)
"""The ``austria-1829`` rule set, registered in ``engine.rules``."""
