"""Score-sheet entries of rule sets ``doppelkopf`` and ``doppelkopf-ddv``
(``spec/next/doppelkopf.md``, "Records" and the DDV "Records"): a deal played with real cards,
written as its game, its Re party and what each party took, checked into an
:class:`~engine.rules.doppelkopf.outcome.Outcome` and written back.

Terms as in :mod:`engine.rules.doppelkopf.outcome`. An entry's ``{"re", "kontra"}`` objects
(``points``, ``tricks``, ``queen_tricks``, ``announcements``, ``extras``) are keyed by party.
Errors name the key (``points.re``, ``extras.kontra[1]``) and say the rule in words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from engine.errors import Message
from engine.rules.doppelkopf import messages as m
from engine.rules.doppelkopf.outcome import (
    DDV,
    MOST_AUGEN_PER_TRICK,
    NO_ANNOUNCEMENTS,
    NO_EXTRAS,
    NO_QUEEN_TRICKS,
    NO_REPLIES,
    PARTIES,
    TOTAL_AUGEN,
    TRICKS,
    Outcome,
    is_card,
)
from engine.rules.doppelkopf.results import DOPPELKOPF_AUGEN

ENVELOPE = {
    "doppelkopf": ("rules", "seats", "dealer", "kasse"),
    DDV: ("rules", "seats", "dealer", "pflicht_owed", "vorfuehrung"),
}
"""The common part of a record (``hand-record.md``): its caller checks these keys."""
KEYS = {
    "doppelkopf": ("game", "re", "points", "tricks", "queen_tricks", "last_trick"),
    DDV: ("game", "re", "points", "tricks", "announcements", "extras"),
}
"""The keys of a score-sheet entry beyond the common part."""
NOT_HERE: dict[str, dict[str, Message]] = {
    "doppelkopf": {
        "pflicht_owed": m.ENTRY_NO_PFLICHT_OWED,
        "announcements": m.ENTRY_NO_ANNOUNCEMENTS,
        "extras": m.ENTRY_NO_EXTRAS,
    },
    DDV: {
        "kasse": m.ENTRY_DDV_NO_KASSE,
        "queen_tricks": m.ENTRY_DDV_NO_QUEEN_TRICKS,
        "last_trick": m.ENTRY_DDV_NO_LAST_TRICK,
    },
}
"""Keys of the other rule set, refused with a reason."""

RE_SIZES = {
    "doppelkopf": {
        "normal": (2,),
        "hochzeit": (2, 1),
        "solo": (1,),
        "secret_solo": (1,),
        "karlchen": (1,),
    },
    DDV: {"normal": (2,), "hochzeit": (2, 1), "solo": (1,), "silent_solo": (1,)},
}
"""``re``: "2 seats (normal), 2 or 1 (hochzeit: 1 is a lone Hochzeit), 1 (solos)"."""
TRUMPS = ("C", "S", "H", "D")
"""``doppelkopf`` einfaches Solo: ``"trump": "C|S|H|D"``."""
KINDS = ("queens", "jacks", "C", "S", "H", "D", "fleischlos")
"""``doppelkopf-ddv`` solos: ``"kind"``."""
ANNOUNCEMENTS = {
    "re": ("re", "no90", "no60", "no30", "schwarz"),
    "kontra": ("kontra", "no90", "no60", "no30", "schwarz"),
}
"""``announcements``: the highest level per party, its word or an Absage (or null)."""
EXTRAS = ("doppelkopf", "fox", "karlchen")
"""``extras`` a party may enter; ``against_alten`` "is derived and not entered"."""
MOST = {"fox": 2, "karlchen": 1}
"""At most two ``fox`` (there are two ``DA``) and one ``karlchen`` (one 12th trick) in all."""
MOST_QUEEN_TRICKS = 2
"""Two ``CQ``, so at most two tricks won by one."""

T = TypeVar("T")


def parse_entry(
    record: Mapping[str, Any],
    rules: Any,
    order: Sequence[str],
    kasse: int | None,
    pflicht_owed: Sequence[str],
) -> Outcome:
    """A score-sheet entry (``game``, ``re``, ``points``, ``tricks``; ``doppelkopf``: optional
    ``queen_tricks``, Karlchen Müller ``last_trick`` instead; ``doppelkopf-ddv``: optional
    ``announcements`` and ``extras``) checked by every rule of the spec's "Records";
    ``order`` is the four seats in playing order from forehand, the common part is the
    caller's. Unknown keys are errors."""
    variant = DDV if rules.variant == DDV else "doppelkopf"
    _check_keys(record, variant)
    order = tuple(order)
    owed = tuple(pflicht_owed) if variant == DDV else ()
    if "game" not in record:
        raise m.ENTRY_NO_GAME.error("game")
    game = _parse_game(record["game"], variant)
    re = _parse_re(record.get("re"), game["type"], variant, order)
    if variant == DDV and game["type"] == "solo":
        _check_pflicht(game, re[0], owed)
    base = Outcome(
        rules=rules,
        order=order,
        game=game,
        re=re,
        points=None,
        tricks=None,
        queen_tricks=dict(NO_QUEEN_TRICKS),
        last_trick=None,
        announcements=dict(NO_ANNOUNCEMENTS),
        replies=dict(NO_REPLIES),
        extras=dict(NO_EXTRAS),
        kasse=kasse if variant == "doppelkopf" else None,
        pflicht_owed=owed,
    )
    if game["type"] == "karlchen":
        return _karlchen(record, base)
    return _counted(record, base, variant)


def entry_json(outcome: Outcome) -> dict[str, Any]:
    """The score-sheet keys of a deal (the common part is the caller's): ``game``, ``re``, then
    ``last_trick`` (Karlchen Müller) or ``points``, ``tricks`` and ``queen_tricks``
    (``doppelkopf``) or ``announcements`` and ``extras`` (``doppelkopf-ddv``)."""
    out: dict[str, Any] = {"game": dict(outcome.game), "re": list(outcome.re)}
    if outcome.last_trick is not None:
        out["last_trick"] = dict(outcome.last_trick)
        return out
    assert outcome.points is not None and outcome.tricks is not None
    out["points"] = dict(outcome.points)
    out["tricks"] = dict(outcome.tricks)
    if outcome.rules.variant == DDV:
        out["announcements"] = dict(outcome.announcements)
        out["extras"] = {p: list(outcome.extras[p]) for p in PARTIES}
    else:
        out["queen_tricks"] = dict(outcome.queen_tricks)
    return out


# --- the parts of an entry -------------------------------------------------------------------


def _check_keys(record: Mapping[str, Any], variant: str) -> None:
    for key in record:
        if key in ENVELOPE[variant] or key in KEYS[variant]:
            continue
        why = NOT_HERE[variant].get(key)
        if why is not None:
            raise why.error(key)
        raise m.ENTRY_UNKNOWN_KEY.error(key, key=repr(key), variant=variant)


def _parse_game(data: object, variant: str) -> dict[str, Any]:
    """``game``: ``{"type"}``, an einfaches Solo with ``"trump"`` (``doppelkopf``) or a solo with
    ``"kind"`` and ``"pflicht"`` (``doppelkopf-ddv``); "no other key"."""
    types = tuple(RE_SIZES[variant])
    if not isinstance(data, Mapping):
        raise m.ENTRY_GAME_NOT_OBJECT.error("game")
    kind = data.get("type")
    if kind not in types:
        raise m.ENTRY_GAME_TYPE.error(
            "game.type", variant=variant, types=_words(types), value=repr(kind)
        )
    allowed: tuple[str, ...] = ("type",)
    if kind == "solo":
        allowed = ("type", "trump") if variant == "doppelkopf" else ("type", "kind", "pflicht")
    for key in data:
        if key not in allowed:
            raise m.ENTRY_GAME_KEY.error(f"game.{key}", game=kind, key=repr(key))
    if kind != "solo":
        return {"type": kind}
    if variant == "doppelkopf":
        trump = data.get("trump")
        if trump not in TRUMPS:
            raise m.ENTRY_SOLO_TRUMP.error("game.trump", value=repr(trump))
        return {"type": "solo", "trump": trump}
    solo = data.get("kind")
    if solo not in KINDS:
        raise m.ENTRY_SOLO_KIND.error("game.kind", kinds=_words(KINDS), value=repr(solo))
    pflicht = data.get("pflicht")
    if type(pflicht) is not bool:
        raise m.ENTRY_PFLICHT_VALUE.error("game.pflicht", value=repr(pflicht))
    return {"type": "solo", "kind": solo, "pflicht": pflicht}


def _check_pflicht(game: Mapping[str, Any], soloist: str, owed: tuple[str, ...]) -> None:
    """DDV Records: ``pflicht`` "true exactly when the soloist is in ``pflicht_owed``"."""
    if game["pflicht"] and soloist not in owed:
        raise m.ENTRY_PFLICHT_NOT_OWED.error("game.pflicht", seat=soloist)
    if not game["pflicht"] and soloist in owed:
        raise m.ENTRY_PFLICHT_OWED.error("game.pflicht", seat=soloist)


def _parse_re(data: object, kind: str, variant: str, order: tuple[str, ...]) -> tuple[str, ...]:
    """``re``: distinct seats of the table, as many as the game has (in any order; kept in
    playing order from forehand)."""
    sizes = RE_SIZES[variant][kind]
    if not isinstance(data, list):
        raise m.ENTRY_RE_NOT_LIST.error("re")
    for i, seat in enumerate(data):
        if seat not in order:
            raise m.ENTRY_RE_NOT_SEAT.error(f"re[{i}]", seat=repr(seat))
        if seat in data[:i]:
            raise m.ENTRY_RE_TWICE.error(f"re[{i}]", seat=seat)
    if len(data) not in sizes:
        if len(sizes) == 1:
            raise m.ENTRY_RE_SIZE.error("re", game=kind, need=sizes[0], count=len(data))
        need, fewer = sizes
        raise m.ENTRY_RE_SIZES.error("re", game=kind, need=need, fewer=fewer, count=len(data))
    return tuple(s for s in order if s in data)


def _karlchen(record: Mapping[str, Any], base: Outcome) -> Outcome:
    """Karlchen Müller: "instead of these three, ``last_trick``" ("Augen do not count")."""
    for key in ("points", "tricks", "queen_tricks"):
        if key in record:
            raise m.ENTRY_KARLCHEN_NO_AUGEN.error(key, key=key)
    if "last_trick" not in record:
        raise m.ENTRY_KARLCHEN_LAST_TRICK.error("last_trick")
    data = record["last_trick"]
    if not isinstance(data, Mapping):
        raise m.ENTRY_LAST_TRICK_NOT_OBJECT.error("last_trick")
    for key in data:
        if key not in ("winner", "card"):
            raise m.ENTRY_LAST_TRICK_KEY.error(f"last_trick.{key}", key=repr(key))
    winner = data.get("winner")
    if not isinstance(winner, str) or winner not in base.order:
        raise m.ENTRY_LAST_TRICK_WINNER.error("last_trick.winner", value=repr(winner))
    card = data.get("card")
    if not is_card(card):
        raise m.ENTRY_LAST_TRICK_CARD.error("last_trick.card", value=repr(card))
    return replace(base, last_trick={"winner": winner, "card": card})


def _counted(record: Mapping[str, Any], base: Outcome, variant: str) -> Outcome:
    """A game counted in Augen: ``points``, ``tricks`` and what the rule set adds."""
    if "last_trick" in record:
        raise m.ENTRY_LAST_TRICK_NOT_KARLCHEN.error("last_trick")
    for key in ("points", "tricks"):
        if key not in record:
            raise m.ENTRY_PAIR_REQUIRED.error(key, key=key)
    tricks = _pair(record["tricks"], "tricks", TRICKS)
    points = _pair(record["points"], "points", TOTAL_AUGEN)
    _check_augen(points, tricks)
    out = replace(base, points=points, tricks=tricks)
    if variant == DDV:
        announcements = _announcements(record.get("announcements", {}))
        out = replace(out, announcements=announcements)
        return replace(out, extras=_extras(record.get("extras", {}), out))
    queens = _queen_tricks(record.get("queen_tricks", {}), out)
    return replace(out, queen_tricks=queens)


def _pair(data: object, key: str, total: int) -> dict[str, int]:
    """``points`` or ``tricks``: a whole number ≥ 0 for each party, summing to ``total``
    ("points sum to 240, tricks to 12")."""
    if not isinstance(data, Mapping):
        raise m.ENTRY_PAIR_NOT_OBJECT.error(key, key=key)
    for party in data:
        if party not in PARTIES:
            raise m.ENTRY_PAIR_PARTY.error(f"{key}.{party}", key=key)
    out: dict[str, int] = {}
    for party in PARTIES:
        value = data.get(party)
        if type(value) is not int or value < 0:
            raise m.ENTRY_PAIR_VALUE.error(
                f"{key}.{party}", key=key, party=party, value=repr(value)
            )
        out[party] = value
    if sum(out.values()) != total:
        raise m.ENTRY_PAIR_SUM.error(key, key=key, total=total, given=sum(out.values()))
    return out


def _check_augen(points: Mapping[str, int], tricks: Mapping[str, int]) -> None:
    """Records: "a party with no trick has 0 Augen", and at most
    :data:`MOST_AUGEN_PER_TRICK` (44; the page says 42, which play exceeds) per trick."""
    for party in PARTIES:
        most = MOST_AUGEN_PER_TRICK * tricks[party]
        if points[party] > most:
            at = f"points.{party}"
            if not tricks[party]:
                raise m.ENTRY_AUGEN_NO_TRICK.error(at, party=party, augen=points[party])
            raise m.ENTRY_AUGEN_MOST.error(
                at,
                party=party,
                tricks=tricks[party],
                most=most,
                per_trick=MOST_AUGEN_PER_TRICK,
                augen=points[party],
            )


def _queen_tricks(data: object, outcome: Outcome) -> dict[str, int]:
    """``queen_tricks`` (optional, a missing party 0): "tricks of each party won by a CQ, used
    only for schwarz; each at most that party's tricks, 2 in all, Kontra's 0 in a normal game
    or Hochzeit" (there the Re party holds both ``CQ``)."""
    assert outcome.tricks is not None
    out = _party_object(data, "queen_tricks", lambda p, v: _queen_count(p, v, outcome), 0)
    if sum(out.values()) > MOST_QUEEN_TRICKS:
        raise m.ENTRY_QUEEN_TRICKS_MOST.error("queen_tricks", count=sum(out.values()))
    if out["kontra"] and outcome.game["type"] in ("normal", "hochzeit"):
        raise m.ENTRY_QUEEN_TRICKS_KONTRA.error("queen_tricks.kontra", game=outcome.game["type"])
    if outcome.game["type"] == "secret_solo":
        # the soloist holds at least secret_solo_queens CQ ("Reservations and game types")
        need = getattr(outcome.rules, "secret_solo_queens", 1)
        if out["kontra"] > MOST_QUEEN_TRICKS - need:
            raise m.ENTRY_QUEEN_TRICKS_SECRET_SOLO.error(
                "queen_tricks.kontra",
                need=need,
                most=MOST_QUEEN_TRICKS - need,
                count=out["kontra"],
            )
    return out


def _queen_count(party: str, value: object, outcome: Outcome) -> int:
    assert outcome.tricks is not None
    if type(value) is not int or value < 0:
        raise m.ENTRY_QUEEN_TRICKS_VALUE.error(f"queen_tricks.{party}", value=repr(value))
    if value > outcome.tricks[party]:
        raise m.ENTRY_QUEEN_TRICKS_PARTY.error(
            f"queen_tricks.{party}", party=party, tricks=outcome.tricks[party], count=value
        )
    return value


def _announcements(data: object) -> dict[str, str | None]:
    """``announcements`` (optional, a missing party null): "highest level per party", Re's
    word ``re`` or Kontra's ``kontra``, or an Absage ``no90``, ``no60``, ``no30``,
    ``schwarz``."""

    def level(party: str, value: object) -> str | None:
        if value is None:
            return None
        if isinstance(value, str) and value in ANNOUNCEMENTS[party]:
            return value
        raise m.ENTRY_ANNOUNCEMENT.error(
            f"announcements.{party}",
            party=party,
            words=_words(ANNOUNCEMENTS[party]),
            value=repr(value),
        )

    return _party_object(data, "announcements", level, None)


def _extras(data: object, outcome: Outcome) -> dict[str, tuple[str, ...]]:
    """``extras`` (optional, a missing party none): "``against_alten`` is derived and not
    entered; none in solos or for a party without a trick; at most two ``fox``, one
    ``karlchen``, and a ``doppelkopf`` per 40 of the party's Augen". Kept sorted."""
    none: tuple[str, ...] = ()
    out = _party_object(data, "extras", lambda p, v: _party_extras(p, v, outcome), none)
    for name, most in MOST.items():
        count = sum(out[p].count(name) for p in PARTIES)
        if count > most:
            raise m.ENTRY_EXTRAS_MOST.error("extras", most=most, extra=name, count=count)
    return out


def _party_extras(party: str, value: object, outcome: Outcome) -> tuple[str, ...]:
    assert outcome.points is not None and outcome.tricks is not None
    at = f"extras.{party}"
    if not isinstance(value, list):
        raise m.ENTRY_EXTRAS_NOT_LIST.error(at, party=party)
    for i, name in enumerate(value):
        if name == "against_alten":
            raise m.ENTRY_EXTRAS_AGAINST_ALTEN.error(f"{at}[{i}]")
        if name not in EXTRAS:
            raise m.ENTRY_EXTRAS_UNKNOWN.error(
                f"{at}[{i}]", extras=_words(EXTRAS), value=repr(name)
            )
    if value and len(outcome.re) == 1:
        raise m.ENTRY_EXTRAS_SOLO.error(at)
    if value and not outcome.tricks[party]:
        raise m.ENTRY_EXTRAS_NO_TRICK.error(at, party=party)
    most = outcome.points[party] // DOPPELKOPF_AUGEN
    if value.count("doppelkopf") > most:
        raise m.ENTRY_EXTRAS_DOPPELKOPF.error(
            at,
            party=party,
            augen=outcome.points[party],
            most=most,
            count=value.count("doppelkopf"),
        )
    return tuple(sorted(value))


def _party_object(
    data: object, key: str, read: Callable[[str, object], T], default: T
) -> dict[str, T]:
    """An optional ``{"re", "kontra"}`` object: each party's value read by ``read``, a missing
    party ``default``; other keys are errors."""
    if not isinstance(data, Mapping):
        raise m.ENTRY_PAIR_NOT_OBJECT.error(key, key=key)
    for party in data:
        if party not in PARTIES:
            raise m.ENTRY_PAIR_PARTY.error(f"{key}.{party}", key=key)
    return {p: (read(p, data[p]) if p in data else default) for p in PARTIES}


def _words(names: Sequence[str]) -> str:
    return ", ".join(names)
