"""What of a text is not in the pseudo-locale (``en-xa``, ``config.catalogs.pseudo``): every
sentence of a catalog reads there as ``⟦…⟧``, so an English word left outside those marks, once
the data is taken out (names, addresses, links, numbers, times), is a sentence nobody made
translatable. Used on e-mails, feeds and pages, which carry no ``message`` field to check."""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable

PSEUDO = "en-xa"
#: Words that are data in every text: HTTP methods in the commands an e-mail shows, time zones;
#: and the names of days and months, which Django's own catalogs translate (German has them;
#: the pseudo-locale, which only our catalogs know, cannot).
DATA_WORDS = frozenset(
    {"GET", "POST", "PUT", "PATCH", "DELETE", "UTC", "CET", "CEST", "Europe"}
    | {calendar.day_name[d] for d in range(7)}
    | {calendar.month_name[m] for m in range(1, 13)}
)


def english_left(text: str, data: Iterable[str] = ()) -> list[str]:
    """The words of three or more plain letters in ``text`` outside the pseudo-locale's marks,
    once ``data`` (names the test made), links, addresses and paths are taken out."""
    rest = re.sub(r"⟦[^⟧]*⟧", " ", text)
    rest = re.sub(r"https?://\S+|\S+@\S+|/\S+", " ", rest)
    for value in sorted(data, key=len, reverse=True):
        rest = rest.replace(value, " ")
    words = re.findall(r"[^\W\d_]+", rest)  # whole words: "rence" of "Préférence" is none
    return [w for w in words if len(w) >= 3 and w.isascii() and w not in DATA_WORDS]
