"""Slugs (the addresses of clubs and tournaments, the seat keys of tables) from names.

Django's ``slugify`` drops what Unicode does not decompose into ASCII (``ß`` vanishes) and
keeps only the base letter of the rest (``ö`` → ``o``): "Großes Straßen-Turnier" became
``groes-straen-turnier``. :func:`slug_of` first writes German as Germans do without umlauts
(``ä`` → ``ae``, ``ö`` → ``oe``, ``ü`` → ``ue``, ``ß`` → ``ss``), and a few other letters of the
players' languages that have no ASCII decomposition (``đ`` → ``dj``, ``ł`` → ``l``, ``ø`` → ``o``,
``æ`` → ``ae``, ``œ`` → ``oe``); accents then fall away as before (``é`` → ``e``).
"""

from __future__ import annotations

import unicodedata

from django.utils.text import slugify

TRANSLITERATION = str.maketrans(
    {
        "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss",
        "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ẞ": "SS",
        "đ": "dj", "Đ": "Dj", "ł": "l", "Ł": "L", "ø": "o", "Ø": "O",
        "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe",
    }
)  # fmt: skip


def slug_of(text: str) -> str:
    """``text`` as a slug: lower-case ASCII letters, digits and hyphens (``Großes
    Straßen-Turnier`` → ``grosses-strassen-turnier``), however its umlauts are encoded
    (composed, or a letter and a combining diaeresis); empty when nothing of it is left."""
    return slugify(unicodedata.normalize("NFC", text).translate(TRANSLITERATION))
