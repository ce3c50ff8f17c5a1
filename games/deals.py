"""Where a hosted hand's cards come from, as the apps that group tables answer it.

A hosted table normally deals each hand from its own secret shuffle and reveals deck and salt
(the "proof") as soon as the hand is over (``games.services.hosted``). Duplicate scoring
changes both: every table of a tournament round plays the same boards (board *n* is every
table's hand *n*), so players are compared on the same cards. The tournament deals each board
once, with its own commitment, and every table's hand *n* is dealt from that deck order and
salt, so its commitment is the same at every table. A finished board must stay secret until
every table has finished it: a player done early must not learn, nor pass on, the cards the
other tables are still playing.

Games cannot import tournaments (layers: engine ← games ← clubs' evenings, seasons ←
tournaments), so the apps above it register a :class:`DealSource` here in their
``AppConfig.ready``. Games asks :func:`deck_for` when it deals a hand and :func:`withheld`
before it reveals a finished hosted hand's deal, deck, salt or record; the result and the
money are never withheld.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

DeckAndSalt = tuple[list[str], str]


@dataclass(frozen=True)
class DealSource:
    """One app's answer. ``deck_for(table_id, number)``: the deck order (the codes of the
    table's rule set's deck, as the rule set's ``shuffled_deck`` gives them) and salt to deal
    hand ``number`` of that table from, or None when this source has no say;
    ``withheld(table_id, number)``: whether that finished hand's deal, deck, salt and full
    record must stay hidden from everyone for now, because other tables still have to play
    the same cards. ``withheld`` is asked once per finished hosted hand shown, so it must be
    cheap."""

    name: str
    deck_for: Callable[[int, int], DeckAndSalt | None]
    withheld: Callable[[int, int], bool]


_SOURCES: dict[str, DealSource] = {}


def register(source: DealSource) -> None:
    """Add (or replace, by name) an app's answer; call it from ``AppConfig.ready``."""
    _SOURCES[source.name] = source


def unregister(name: str) -> None:
    """Remove the answer registered as ``name``, if there is one (tests)."""
    _SOURCES.pop(name, None)


def registered() -> list[DealSource]:
    return list(_SOURCES.values())


def deck_for(table_id: int, number: int) -> DeckAndSalt | None:
    """The first deck order and salt a registered source gives for hand ``number`` of table
    ``table_id``; None when none has a say (the table shuffles itself)."""
    for source in _SOURCES.values():
        dealt = source.deck_for(table_id, number)
        if dealt is not None:
            return dealt
    return None


def withheld(table_id: int, number: int) -> bool:
    """Whether any registered source says the deal of that finished hand must stay hidden."""
    return any(s.withheld(table_id, number) for s in _SOURCES.values())
