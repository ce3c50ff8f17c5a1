"""Display labels of the talon family's words (``RuleSet.labels``), in English by
``<kind>:<code>``; the catalogs translate them (``msgctxt`` ``engine:<variant>:<kind>:<code>``;
German: the seeds' own terms, Weiter, Halten, Handspiel, von der Hand, mitgehen, zu Hause
bleiben, Einladung, Bettler, Mord, Kontra, Topf).

Kinds: ``game`` (a deal's ``game.type``), ``call`` (an auction call), ``suit``, ``premium``
and ``notrump`` (a game's ``level`` by its ``type``, as a ``declare`` or a ``hand_contract``
names it: ``suit:C``, ``premium:5``, ``notrump:misere``, as wien's), ``defence`` (a
defender's answer, as the score sheet writes it), ``announcement`` (the declarer's or a
defender's true/false steps: giving up, no ace, contra, recontra) and ``reason`` (a
transfer's ``why``). :data:`LABELS` holds the words most sets share; each set
adds or overrides its own (``family_rule_set(labels=…)``), and :func:`labels_of` keeps the
words the set uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.rules.family.spec import Family
from engine.ruleset import Shapes

LABELS: dict[str, str] = {
    "game:suit": "Suit game",
    "game:premium": "Premium game",
    "game:notrump": "No-trump contract",
    "call:pass": "Pass",
    "call:hold": "Hold",
    "call:C": "Clubs",
    "call:S": "Spades",
    "call:D": "Diamonds",
    "call:H": "Hearts",
    "suit:C": "Clubs",
    "suit:S": "Spades",
    "suit:D": "Diamonds",
    "suit:H": "Hearts",
    "defence:play": "Play",
    "defence:home": "Stay home",
    "defence:invite": "Invite",
    "defence:alone": "Play alone",
    "defence:invited": "Invited",
    "announcement:give_up": "Give up",
    "announcement:no_aces": "No ace",
    "announcement:contra": "Contra",
    "announcement:recontra": "Recontra",
    "reason:ante": "Ante",
    "reason:game": "Game won",
    "reason:tricks": "Tricks",
    "reason:fall": "Fall penalty",
    "reason:bete": "Bête",
    "reason:giveup": "Giving up",
    "reason:premium": "Premium",
    "reason:bonus": "Bonus",
    "reason:artwork": "Artwork (talon pair)",
    "reason:offer": "Offer",
    "reason:dealer": "Dealer contribution",
}
"""The family's shared labels: its game types, ``pass`` and ``hold``, the four suits (as calls
and as a suit game's level), the defenders' answers, the announcements and the transfer
reasons."""

NUMBERS = ("One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")
"""The number calls ``1`` … ``9`` in words."""


def number_calls(numbers: Iterable[int], suffix: str = "") -> dict[str, str]:
    """The labels of the number calls ``n`` ("Two"), or with a ``suffix`` of the calls
    ``n<suffix>`` ("h": "Two from the hand")."""
    words = " from the hand" if suffix == "h" else ""
    return {f"call:{n}{suffix}": f"{NUMBERS[n - 1]}{words}" for n in numbers}


ANNOUNCEMENTS = ("give_up", "no_aces", "contra", "recontra")
"""The action keys that are announcements (``announcement:<key>``)."""


def words_of(family: Family, shapes: Shapes) -> list[str]:
    """The ``<kind>:<code>`` of every word a set uses: its game types (``shapes.games``), its
    calls, the levels it may declare, its defenders' answers (the actions' and the score
    sheet's), its announcements and its transfer reasons."""
    games = [f"game:{form['properties']['type']['enum'][0]}" for form in shapes.games]
    calls = [f"call:{call}" for call in family.vocabulary_calls]
    levels = [f"{kind}:{level}" for kind, level in family.vocabulary_declares]
    defences = list(family.vocabulary_defences)
    defence: Any = shapes.view.get("properties", {}).get("defence", {})
    for answer in defence.get("additionalProperties", {}).get("enum", ()):
        if answer not in defences:
            defences.append(answer)
    announcements = [f"announcement:{key}" for key in family.keys if key in ANNOUNCEMENTS]
    reasons = [f"reason:{why}" for why in shapes.reasons]
    return [
        *games,
        *calls,
        *levels,
        *(f"defence:{answer}" for answer in defences),
        *announcements,
        *reasons,
    ]


def labels_of(family: Family, shapes: Shapes, own: Mapping[str, str]) -> dict[str, str]:
    """A set's labels: :data:`LABELS` with ``own`` over them, for every word the set uses
    (:func:`words_of`), and ``own``'s others beside them. A word without a label is a
    programming error."""
    merged = {**LABELS, **own}
    words = words_of(family, shapes)
    missing = [word for word in words if word not in merged]
    if missing:
        raise ValueError(f"{family.name}: no display label for {missing}")
    out = {word: merged[word] for word in words}
    out.update({word: label for word, label in own.items() if word not in out})
    return out
