"""The phases of a talon-family deal, in the one order the machine steps through them: their
numbers (``Hand.phase``), names (``State.phase``, the API's phase) and what the player to act
is asked to do (the sentence of a refused action).

AUCTION → (OFFER, SECOND, FORCED, HAND_CONTRACT, TALON: where a set has them) → DISCARD →
DECLARE → DEFENCE → INVITE → GIVE_UP → NO_ACES → CONTRA → RECONTRA → PLAY → DONE; a set's
:class:`engine.rules.family.spec.Family` answers which steps it asks.
"""

from __future__ import annotations

_TABLE = (
    ("auction", "call"),
    ("offer", "make an offer or pass"),
    ("second", "play or pass a second time"),
    ("forced", "play or pass (bête)"),
    ("hand_contract", "name a hand contract or pass"),
    ("talon", "take the talon or play from the hand"),
    ("discard", "discard two cards"),
    ("declare", "declare the game"),
    ("defence", "choose play or home"),
    ("invite", "invite the other defender or play alone"),
    ("give_up", "give up or play"),
    ("no_aces", "say whether he holds no ace"),
    ("contra", "say contra or not"),
    ("recontra", "say recontra or not"),
    ("play", "play a card"),
    ("done", "stop"),
)

PHASES: tuple[str, ...] = tuple(name for name, _ in _TABLE)
"""Each phase's name, by its number."""
PHASE_WORDS: tuple[str, ...] = tuple(words for _, words in _TABLE)
"""What the player to act is asked to do in each phase, by its number."""

(
    AUCTION,
    OFFER,
    SECOND,
    FORCED,
    HAND_CONTRACT,
    TALON,
    DISCARD,
    DECLARE,
    DEFENCE,
    INVITE,
    GIVE_UP,
    NO_ACES,
    CONTRA,
    RECONTRA,
    PLAY,
    DONE,
) = range(len(_TABLE))

__all__ = [
    "AUCTION",
    "CONTRA",
    "DECLARE",
    "DEFENCE",
    "DISCARD",
    "DONE",
    "FORCED",
    "GIVE_UP",
    "HAND_CONTRACT",
    "INVITE",
    "NO_ACES",
    "OFFER",
    "PHASES",
    "PHASE_WORDS",
    "PLAY",
    "RECONTRA",
    "SECOND",
    "TALON",
]
