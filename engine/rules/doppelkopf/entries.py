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

from engine.errors import EngineError
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
NOT_HERE = {
    "doppelkopf": {
        "pflicht_owed": "doppelkopf has no Pflichtsolo: its records have no 'pflicht_owed'",
        "announcements": "doppelkopf has no announcements (the seed has none)",
        "extras": "doppelkopf has no extra points: the Kasse pays by category",
    },
    DDV: {
        "kasse": "doppelkopf-ddv keeps no Kasse: the players pay one another",
        "queen_tricks": "doppelkopf-ddv has no queen_tricks: its schwarz means no trick",
        "last_trick": "doppelkopf-ddv has no Karlchen Müller game, so no 'last_trick'",
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
        raise EngineError("game", "a score-sheet entry names its game")
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
        raise EngineError(key, why or f"unknown key {key!r} in a {variant} score-sheet entry")


def _parse_game(data: object, variant: str) -> dict[str, Any]:
    """``game``: ``{"type"}``, an einfaches Solo with ``"trump"`` (``doppelkopf``) or a solo with
    ``"kind"`` and ``"pflicht"`` (``doppelkopf-ddv``); "no other key"."""
    types = tuple(RE_SIZES[variant])
    if not isinstance(data, Mapping):
        raise EngineError("game", 'game must be an object such as {"type": "normal"}')
    kind = data.get("type")
    if kind not in types:
        raise EngineError(
            "game.type", f"a {variant} game type is one of {_words(types)}, not {kind!r}"
        )
    allowed: tuple[str, ...] = ("type",)
    if kind == "solo":
        allowed = ("type", "trump") if variant == "doppelkopf" else ("type", "kind", "pflicht")
    for key in data:
        if key not in allowed:
            raise EngineError(f"game.{key}", f"a {kind} game has no {key!r}")
    if kind != "solo":
        return {"type": kind}
    if variant == "doppelkopf":
        trump = data.get("trump")
        if trump not in TRUMPS:
            raise EngineError("game.trump", f"a solo's trump is one of C, S, H, D, not {trump!r}")
        return {"type": "solo", "trump": trump}
    solo = data.get("kind")
    if solo not in KINDS:
        raise EngineError("game.kind", f"a solo's kind is one of {_words(KINDS)}, not {solo!r}")
    pflicht = data.get("pflicht")
    if type(pflicht) is not bool:
        raise EngineError(
            "game.pflicht",
            f"pflicht says whether the solo was a Pflichtsolo: true or false, not {pflicht!r}",
        )
    return {"type": "solo", "kind": solo, "pflicht": pflicht}


def _check_pflicht(game: Mapping[str, Any], soloist: str, owed: tuple[str, ...]) -> None:
    """DDV Records: ``pflicht`` "true exactly when the soloist is in ``pflicht_owed``"."""
    if game["pflicht"] and soloist not in owed:
        raise EngineError(
            "game.pflicht",
            f"{soloist} owes no Pflichtsolo this round (pflicht_owed), so the solo is a Lustsolo "
            f"and pflicht must be false",
        )
    if not game["pflicht"] and soloist in owed:
        raise EngineError(
            "game.pflicht",
            f"{soloist} still owes a Pflichtsolo this round (pflicht_owed), so the solo is one "
            f"and pflicht must be true",
        )


def _parse_re(data: object, kind: str, variant: str, order: tuple[str, ...]) -> tuple[str, ...]:
    """``re``: distinct seats of the table, as many as the game has (in any order; kept in
    playing order from forehand)."""
    sizes = RE_SIZES[variant][kind]
    if not isinstance(data, list):
        raise EngineError("re", "re must be a list of the Re party's seats")
    for i, seat in enumerate(data):
        if seat not in order:
            raise EngineError(f"re[{i}]", f"{seat!r} is not a seat at this table")
        if seat in data[:i]:
            raise EngineError(f"re[{i}]", f"{seat} is named twice")
    if len(data) not in sizes:
        need = " or ".join(str(n) for n in sizes)
        raise EngineError("re", f"a {kind} game has {need} Re player(s), not {len(data)}")
    return tuple(s for s in order if s in data)


def _karlchen(record: Mapping[str, Any], base: Outcome) -> Outcome:
    """Karlchen Müller: "instead of these three, ``last_trick``" ("Augen do not count")."""
    for key in ("points", "tricks", "queen_tricks"):
        if key in record:
            raise EngineError(
                key, f"Augen do not count in Karlchen Müller: no {key}, only last_trick"
            )
    if "last_trick" not in record:
        raise EngineError(
            "last_trick",
            'Karlchen Müller is decided by its last trick: give last_trick {"winner", "card"}',
        )
    data = record["last_trick"]
    if not isinstance(data, Mapping):
        raise EngineError("last_trick", 'last_trick must be an object {"winner", "card"}')
    for key in data:
        if key not in ("winner", "card"):
            raise EngineError(f"last_trick.{key}", f"last_trick has no {key!r}")
    winner = data.get("winner")
    if not isinstance(winner, str) or winner not in base.order:
        raise EngineError(
            "last_trick.winner", f"the last trick's winner must be a seat, not {winner!r}"
        )
    card = data.get("card")
    if not is_card(card):
        raise EngineError(
            "last_trick.card",
            f"the card that won the last trick must be a card code such as 'CJ', not {card!r}",
        )
    return replace(base, last_trick={"winner": winner, "card": card})


def _counted(record: Mapping[str, Any], base: Outcome, variant: str) -> Outcome:
    """A game counted in Augen: ``points``, ``tricks`` and what the rule set adds."""
    if "last_trick" in record:
        raise EngineError("last_trick", "only Karlchen Müller gives its last trick")
    for key in ("points", "tricks"):
        if key not in record:
            raise EngineError(key, f'{key} are required: {{"re": …, "kontra": …}}')
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
        raise EngineError(key, f'{key} must be an object {{"re": …, "kontra": …}}')
    for party in data:
        if party not in PARTIES:
            raise EngineError(f"{key}.{party}", f"{key} are given for re and kontra only")
    out: dict[str, int] = {}
    for party in PARTIES:
        value = data.get(party)
        if type(value) is not int or value < 0:
            raise EngineError(
                f"{key}.{party}", f"{key} of {party} must be a whole number ≥ 0, not {value!r}"
            )
        out[party] = value
    if sum(out.values()) != total:
        raise EngineError(key, f"{key} must sum to {total}, not {sum(out.values())}")
    return out


def _check_augen(points: Mapping[str, int], tricks: Mapping[str, int]) -> None:
    """Records: "a party with no trick has 0 Augen", and at most
    :data:`MOST_AUGEN_PER_TRICK` (44; the page says 42, which play exceeds) per trick."""
    for party in PARTIES:
        most = MOST_AUGEN_PER_TRICK * tricks[party]
        if points[party] > most:
            if not tricks[party]:
                why = f"{party} took no trick, so it has 0 Augen, not {points[party]}"
            else:
                why = (
                    f"{party} took {tricks[party]} trick(s), so at most {most} Augen "
                    f"({MOST_AUGEN_PER_TRICK} a "
                    f"trick), not {points[party]}"
                )
            raise EngineError(f"points.{party}", why)


def _queen_tricks(data: object, outcome: Outcome) -> dict[str, int]:
    """``queen_tricks`` (optional, a missing party 0): "tricks of each party won by a CQ, used
    only for schwarz; each at most that party's tricks, 2 in all, Kontra's 0 in a normal game
    or Hochzeit" (there the Re party holds both ``CQ``)."""
    assert outcome.tricks is not None
    out = _party_object(data, "queen_tricks", lambda p, v: _queen_count(p, v, outcome), 0)
    if sum(out.values()) > MOST_QUEEN_TRICKS:
        raise EngineError(
            "queen_tricks",
            f"there are two CQ, so at most 2 tricks are won by one, not {sum(out.values())}",
        )
    if out["kontra"] and outcome.game["type"] in ("normal", "hochzeit"):
        raise EngineError(
            "queen_tricks.kontra",
            f"in a {outcome.game['type']} game the Re party holds both CQ, so Kontra wins no "
            f"trick with one",
        )
    if outcome.game["type"] == "secret_solo":
        # the soloist holds at least secret_solo_queens CQ ("Reservations and game types")
        need = getattr(outcome.rules, "secret_solo_queens", 1)
        if out["kontra"] > MOST_QUEEN_TRICKS - need:
            raise EngineError(
                "queen_tricks.kontra",
                f"a Heimliches Solo needs {need} CQ in the soloist's hand "
                f"(secret_solo_queens), so Kontra wins at most {MOST_QUEEN_TRICKS - need} "
                f"trick(s) with one, not {out['kontra']}",
            )
    return out


def _queen_count(party: str, value: object, outcome: Outcome) -> int:
    assert outcome.tricks is not None
    if type(value) is not int or value < 0:
        raise EngineError(
            f"queen_tricks.{party}", f"a number of tricks is a whole number ≥ 0, not {value!r}"
        )
    if value > outcome.tricks[party]:
        raise EngineError(
            f"queen_tricks.{party}",
            f"{party} won {outcome.tricks[party]} trick(s), so at most that many with a CQ, "
            f"not {value}",
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
        raise EngineError(
            f"announcements.{party}",
            f"{party}'s highest announcement is one of {_words(ANNOUNCEMENTS[party])} or "
            f"null, not {value!r}",
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
            raise EngineError("extras", f"at most {most} {name} in all, not {count}")
    return out


def _party_extras(party: str, value: object, outcome: Outcome) -> tuple[str, ...]:
    assert outcome.points is not None and outcome.tricks is not None
    at = f"extras.{party}"
    if not isinstance(value, list):
        raise EngineError(at, f'{party}\'s extras must be a list such as ["fox"]')
    for i, name in enumerate(value):
        if name == "against_alten":
            raise EngineError(
                f"{at}[{i}]", "against_alten follows from the result and is not entered"
            )
        if name not in EXTRAS:
            raise EngineError(
                f"{at}[{i}]", f"an extra point is one of {_words(EXTRAS)}, not {name!r}"
            )
    if value and len(outcome.re) == 1:
        raise EngineError(at, "a solo (a lone bride and a stilles Solo too) has no extra points")
    if value and not outcome.tricks[party]:
        raise EngineError(at, f"{party} took no trick, so it earned no extra points")
    most = outcome.points[party] // DOPPELKOPF_AUGEN
    if value.count("doppelkopf") > most:
        raise EngineError(
            at,
            f"{party} has {outcome.points[party]} Augen, so at most {most} doppelkopf (one per "
            f"40 Augen), not {value.count('doppelkopf')}",
        )
    return tuple(sorted(value))


def _party_object(
    data: object, key: str, read: Callable[[str, object], T], default: T
) -> dict[str, T]:
    """An optional ``{"re", "kontra"}`` object: each party's value read by ``read``, a missing
    party ``default``; other keys are errors."""
    if not isinstance(data, Mapping):
        raise EngineError(key, f'{key} must be an object {{"re": …, "kontra": …}}')
    for party in data:
        if party not in PARTIES:
            raise EngineError(f"{key}.{party}", f"{key} are given for re and kontra only")
    return {p: (read(p, data[p]) if p in data else default) for p in PARTIES}


def _words(names: Sequence[str]) -> str:
    return ", ".join(names)
