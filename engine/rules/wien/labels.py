"""``wien``'s words as a reader sees them (``RuleSet.labels``): English display labels by
``<kind>:<code>``, the codes staying what records and the API send. The game's own names stay
German where they are its names (Geschäft, Herz, Bettler, Mord, Ausfechten); the catalogs
translate the labels (``engine/locale``, ``msgctxt`` ``engine:wien:<kind>:<code>``).

- ``game:<type>``: the game forms of a Result's ``game`` (``shapes.games``);
- ``call:<value>``: every auction call (``call`` actions, ``spec/wien.md``, "Auction");
- ``suit:<level>``: the trump suit of a suit game (and the suit a Geschäft names);
- ``premium:<level>``: the premium games 5..8;
- ``defence:<choice>``: a defender's choice (``defence`` actions and entries);
- ``reason:<why>``: the transfers' ``why`` (``shapes.reasons``).
"""

from __future__ import annotations

from engine.rules.wien.rules import PREMIUM_NAMES

GAMES = {
    "game:suit": "Suit game",
    "game:premium": "Premium game",
    "game:ausfechten": "Ausfechten",
}

CALLS = {
    "call:pass": "Pass",
    "call:1": "One",
    "call:2": "Two",
    "call:3": "Three",
    "call:4": "Four",
    "call:hold": "Hold",
    "call:geschaeft": "Geschäft",
    "call:herz": "Herz",
    **{f"call:{level}": name for level, name in PREMIUM_NAMES.items()},
    **{f"call:{level}h": f"{name} von der Hand" for level, name in PREMIUM_NAMES.items()},
}

SUITS = {
    "suit:C": "Clubs",
    "suit:S": "Spades",
    "suit:D": "Diamonds",
    "suit:H": "Hearts",
}

PREMIUMS = {f"premium:{level}": name for level, name in PREMIUM_NAMES.items()}

DEFENCES = {
    "defence:play": "Play",
    "defence:home": "Stay home",
    "defence:invite": "Invite",
    "defence:invited": "Invited",
    "defence:alone": "Play alone",
}

REASONS = {
    "reason:dealer": "Dealer contribution",
    "reason:game": "Game won",
    "reason:tricks": "Tricks",
    "reason:fall": "Fall penalty",
    "reason:premium": "Premium",
    "reason:ausfechten": "Ausfechten",
    "reason:split": "Pot split",
}

LABELS: dict[str, str] = {**GAMES, **CALLS, **SUITS, **PREMIUMS, **DEFENCES, **REASONS}
"""Every label of ``wien`` (``RuleSet.labels``)."""
