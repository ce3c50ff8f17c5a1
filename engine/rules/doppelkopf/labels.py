"""Display labels of Doppelkopf's words (``RuleSet.labels``), in English by ``<kind>:<code>``;
the catalogs translate them (``msgctxt`` ``engine:<variant>:<kind>:<code>``; German: the
seed's own terms, Hochzeit, Solo, Re, Kontra, Fuchs, Karlchen, Kasse).

English-speaking Doppelkopf players keep most German words (Re, Kontra, Doppelkopf, Karlchen,
Schneider, Schwarz); where they translate one, the German stays beside it ("Hochzeit
(wedding)"). Kinds: ``game`` (a deal's ``game.type``), ``reservation`` (a reservation's word,
``reserved`` as another seat's shows), ``solo`` (a solo's trump or DDV kind), ``party``,
``announcement`` (DDV), ``extra`` (DDV extra points), ``category`` (``doppelkopf``: the losing
party's), ``reason`` (a transfer's ``why``), ``clause`` (``RuleSet.unlike_deals``).
"""

from __future__ import annotations

PARTIES = {
    "party:re": "Re",
    "party:kontra": "Kontra",
}

UNLIKE_DEALS = (
    "in doppelkopf all four players refill the Kasse whenever it cannot pay a deal's winners, "
    "so what a deal moves depends on the table's earlier deals"
)
"""``doppelkopf``'s :attr:`~engine.ruleset.RuleSet.unlike_deals`, a clause of a refusal."""

LABELS: dict[str, str] = {
    "game:normal": "Normal game",
    "game:hochzeit": "Hochzeit (wedding)",
    "game:solo": "Suit solo",
    "game:karlchen": "Karlchen Müller",
    "game:secret_solo": "Secret solo",
    "reservation:none": "Healthy",
    "reservation:reserved": "Reservation",
    "reservation:hochzeit": "Hochzeit (wedding)",
    "reservation:solo": "Solo",
    "reservation:karlchen": "Karlchen Müller",
    "reservation:secret_solo": "Secret solo",
    "solo:C": "Clubs solo",
    "solo:S": "Spades solo",
    "solo:H": "Hearts solo",
    "solo:D": "Diamonds solo",
    **PARTIES,
    "category:simple": "Simple",
    "category:schneider": "Schneider",
    "category:schwarz": "Schwarz",
    "reason:ante": "Ante",
    "reason:refill": "Kasse refill",
    "reason:karlchen": "Karlchen Müller lost",
    "reason:win": "Win",
    "reason:split": "Kasse shared out",
    "clause:unlike_deals": UNLIKE_DEALS,
}
"""The labels of ``doppelkopf``."""

DDV_LABELS: dict[str, str] = {
    "game:normal": "Normal game",
    "game:hochzeit": "Hochzeit (wedding)",
    "game:solo": "Solo",
    "game:silent_solo": "Silent solo",
    "reservation:none": "Healthy",
    "reservation:reserved": "Reservation",
    "reservation:hochzeit": "Hochzeit (wedding)",
    "reservation:solo": "Solo",
    "solo:queens": "Queens solo",
    "solo:jacks": "Jacks solo",
    "solo:C": "Clubs solo",
    "solo:S": "Spades solo",
    "solo:H": "Hearts solo",
    "solo:D": "Diamonds solo (trump solo)",
    "solo:fleischlos": "Fleischloser (no-trump solo)",
    "solo:pflicht": "Pflichtsolo (compulsory solo)",
    **PARTIES,
    "announcement:re": "Re",
    "announcement:kontra": "Kontra",
    "announcement:no90": "No 90",
    "announcement:no60": "No 60",
    "announcement:no30": "No 30",
    "announcement:schwarz": "Schwarz",
    "extra:doppelkopf": "Doppelkopf",
    "extra:fox": "Fox",
    "extra:karlchen": "Karlchen",
    "extra:against_alten": "Against the Queens",
    "reason:score": "Game points",
}
"""The labels of ``doppelkopf-ddv``."""

__all__ = ["DDV_LABELS", "LABELS", "UNLIKE_DEALS"]
