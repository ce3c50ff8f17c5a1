"""Display labels of ``preferans``'s words (``RuleSet.labels``), in English by
``<kind>:<code>``; the catalogs translate them (``msgctxt`` ``engine:preferans:<kind>:<code>``).

The Preferans terms stay as the Russian-speaking players say them, in Latin letters, in
English and in German alike: *pulya* (пуля, the pool), *gora* (гора, the mountain), *vist*
(вист, whist) and *raspasy* (распасы, the all-pass deal); the rest is plain English (German:
the seed's terms, Pique, Treff, Karo, Herz, Misère, Stichspiel).

Kinds: ``game`` (a deal's ``game.type``), ``call`` (an auction call, a contract bid among
them, and a defender's whist call: every value of the ``call`` and ``whist`` actions; a
declared contract ``{"level": 7, "strain": "H"}`` is labelled by its bid, ``call:7H``),
``strain`` (a contract's trump suit or no trumps), ``defence`` (a defender's call as the
Result's ``defence`` writes it), ``mode`` (the lone whister's open or closed play), ``sheet``
(the parts of the score sheet) and ``reason`` (a transfer's ``why``).
"""

from __future__ import annotations

from engine.rules.preferans.actions import CALLS, LEVELS, MODES, STRAINS, WHISTS
from engine.rules.preferans.schema import SHAPES

STRAIN_NAMES = {
    "S": "spades",
    "C": "clubs",
    "D": "diamonds",
    "H": "hearts",
    "NT": "no trumps",
}
"""§1: the strains in words, low to high."""

WHIST_NAMES = {"whist": "Vist", "pass": "Pass", "half": "Half-vist"}
"""§5: a defender's calls (вист, пас, полвиста)."""

LABELS: dict[str, str] = {
    "game:contract": "Contract",
    "game:misere": "Misère",
    "game:raspasy": "Raspasy",
    "call:pass": "Pass",
    **{
        f"call:{level}{strain}": f"{level} {name}"
        for level in LEVELS
        for strain, name in STRAIN_NAMES.items()
    },
    "call:misere": "Misère",
    "call:hold": "Hold",
    "call:whist": WHIST_NAMES["whist"],
    "call:half": WHIST_NAMES["half"],
    **{f"strain:{strain}": name.capitalize() for strain, name in STRAIN_NAMES.items()},
    **{f"defence:{call}": name for call, name in WHIST_NAMES.items()},
    "mode:open": "Open",
    "mode:closed": "Closed",
    "sheet:pool": "Pulya",
    "sheet:mountain": "Gora",
    "sheet:whists": "Vists",
    "reason:score": "Pulya settlement",
}
"""The labels of ``preferans``."""


def words() -> list[str]:
    """The ``<kind>:<code>`` of every word the rule set's data uses: its game types, calls
    (bids and whist calls), strains, defenders' calls, modes and transfer reasons (the tests
    check each has a label)."""
    games = [form["properties"]["type"]["enum"][0] for form in SHAPES.games]
    return [
        *(f"game:{game}" for game in games),
        *(f"call:{call}" for call in dict.fromkeys((*CALLS, *WHISTS))),
        *(f"strain:{strain}" for strain in STRAINS),
        *(f"defence:{call}" for call in WHISTS),
        *(f"mode:{mode}" for mode in MODES),
        *(f"reason:{why}" for why in SHAPES.reasons),
    ]
