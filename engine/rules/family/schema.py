"""The talon family's API shapes (``engine.ruleset.Shapes``): wien and the seven family sets.

What a seat's view and a deal's Result carry beyond the keys the server documents for every
rule set: the pot (and wien's stake and offer), the talon as the seat sees it, open hands and
each defender's choice; Balkan's open refe. The game forms: a suit game (every set), a
premium game (wien, ``illustrated``), Balkan's no-trump contracts (``balkan``,
``danube-swabian``) and wien's Ausfechten. Each set states its own in its package
(``shapes=family_shapes(…)``) from these parts.
"""

from __future__ import annotations

from typing import Any

from engine.ruleset import (
    CARDS_SCHEMA,
    SEAT_SCHEMA,
    Shapes,
    by_seat,
    game_form,
    nullable,
    object_schema,
)

END_PUBLIC = (
    "phase", "to_act", "hand", "hand_sizes", "declarer", "game", "defence", "trick",
    "last_trick", "tricks", "offer",
)  # fmt: skip
"""The view keys the end of a hand makes public while its board is withheld: phase, the last
action, the tricks, the seat's own cards left, the declarer's game and the defence."""

POSITIONS = ("forehand", "middlehand", "rearhand")
"""The active positions of a deal, forehand first (duplicate scoring compares them)."""

SUIT_GAME = game_form(
    "suit",
    "A suit game: a number game with the talon, or a hand game (wien's Geschäft and herz; "
    "the other sets' hand games).",
    level={"type": "string", "enum": ["C", "S", "D", "H"], "description": "The trump suit."},
    talon={"type": "boolean", "description": "false for a hand game."},
)
PREMIUM_GAME = game_form(
    "premium",
    "A premium game, 5 (Bettel) to 8 (Pagat), from the talon or von der Hand.",
    level={"type": "integer", "minimum": 5, "maximum": 8},
    hand={"type": "boolean", "description": "Von der Hand (without the talon)."},
)
NOTRUMP_GAME = game_form(
    "notrump",
    "A no-trump contract of the Balkan rule sets.",
    level={"type": "string", "enum": ["misere", "sans", "uno", "slam"]},
    talon={"type": "boolean", "description": "false for a hand contract."},
)
AUSFECHTEN_GAME = game_form(
    "ausfechten", "Ausfechten: everyone passed and the hand is played out without a declarer."
)

POT: dict[str, Any] = {"type": "integer", "description": "The pot before the deal (cents)."}
RESULT_POT = "The pot after the deal (cents)."
OFFER = nullable(
    object_schema(
        {
            "by": SEAT_SCHEMA,
            "declarer": {"type": "integer", "description": "Tricks offered to the declarer."},
            "defender": {"type": "integer", "description": "Tricks offered to the defender."},
        }
    ),
    "wien: the split on the table in an Aushandeln, null when none is.",
)
REFE = by_seat(
    {"type": "integer", "minimum": 0}, "Balkan: each seat's open refe (carried between deals)."
)
REFE_WRITTEN = {"type": "integer", "minimum": 0, "description": "Balkan: refe written so far."}


def family_shapes(
    games: tuple[dict[str, Any], ...],
    defences: tuple[str, ...],
    reasons: tuple[str, ...],
    *,
    pot: bool = True,
    wien: bool = False,
    refe: bool = False,
) -> Shapes:
    """A family set's shapes: its game forms, its defenders' choices as a view and a Result
    show them, its transfer words; ``pot``: it keeps a pot; ``wien``: the stake and the offer
    of an Aushandeln; ``refe``: Balkan's open refe."""
    defence = (
        by_seat({"type": "string", "enum": list(defences)}, "Each defender's choice so far.")
        if defences
        else {"type": "object", "maxProperties": 0, "description": "No defence choices: {}."}
    )
    view: dict[str, Any] = {
        "talon": nullable(CARDS_SCHEMA, "The talon as it lies now, if the seat may see it."),
        "dealt_talon": nullable(CARDS_SCHEMA, "The talon as dealt, if the seat saw it."),
        "open_hands": by_seat(CARDS_SCHEMA, "The hands that lie open, by seat."),
        "defence": defence,
    }
    result: dict[str, Any] = {}
    if pot:
        view["pot"] = POT
    if wien:
        view["stake"] = {"type": "integer", "description": "The stake S of the deal (cents)."}
        view["offer"] = OFFER
    if refe:
        view["refe"] = REFE
        view["refe_written"] = REFE_WRITTEN
        result["refe"] = REFE
        result["refe_written"] = REFE_WRITTEN
    return Shapes(
        view={
            "properties": view,
            "required": [k for k in view if k not in ("refe", "refe_written")],
        },
        result={"properties": result, "required": []},
        games=games,
        reasons=reasons,
        end_public=END_PUBLIC,
        kept_open=("open_hands",),
    )


PLAY_HOME = ("play", "home")
"""The defenders' choices of a set without invitations."""
INVITING = ("play", "home", "invite", "invited")
"""The defenders' choices of a set with invitations."""
