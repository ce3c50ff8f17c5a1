"""What a finished ``wien`` deal pays (``spec/wien.md``, "Settlement").

Terms: *Stake* S (what the pot pays or a fall costs, the pot after the dealer's payment, capped
at L), *trick value* t = S / 10 (Stichgeld), *Fallstrafe* (fall: paying S into the pot),
*Prämie* (premium, paid player to player, never through the pot).

The parties are the seats and the pot. A result lists every transfer with its reason
(``dealer``, ``game``, ``tricks``, ``fall``, ``premium``, ``ausfechten``); ``delta`` and ``pot``
are sums of those transfers, so they always balance.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.rules.wien.rules import MISERE_LEVELS, WienRules
from engine.rules.wien.state import Game
from engine.transfers import Book, totals

POT = "pot"
PLAYING = ("play", "invite", "invited")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What happened in a deal, as a score sheet records it (``hand-record.md`` form 1)."""

    rules: WienRules
    seats: tuple[str, ...]
    dealer: str
    pot_before: int
    active: tuple[str, str, str]
    game: Game
    declarer: str | None
    defence: dict[str, str] = field(default_factory=dict)
    tricks: dict[str, int] = field(default_factory=dict)
    negotiated: bool = False


def premium_factor(game: Game) -> int:
    """k for premium games: 5 → 1 … 8 → 4, plus 1 von der Hand (wien.md)."""
    assert isinstance(game.level, int)
    return game.level - 4 + (1 if game.hand else 0)


def premium_made(game: Game, declarer_tricks: int, defender_tricks: int) -> bool:
    """A misère (5, 7) is made with no trick, a slam (6, 8) with every trick."""
    if game.level in MISERE_LEVELS:
        return declarer_tricks == 0
    return defender_tricks == 0


def settle_outcome(o: Outcome) -> dict[str, Any]:
    """The Result (``hand-record.md``) of a checked outcome."""
    g = o.rules.dealer_contribution
    s = o.rules.stake(o.pot_before)
    t = s // 10
    book = Book()
    book.pay(o.dealer, POT, g, "dealer")
    fallen: list[str] = []
    made: bool | None = None
    d = o.declarer
    others = [p for p in o.active if p != d]
    tricks = o.tricks

    if o.game.kind == "ausfechten":
        most = max(tricks[p] for p in o.active)
        fallen = [p for p in o.active if tricks[p] == most]
        for p in fallen:
            book.pay(p, POT, g, "ausfechten")
    elif o.game.kind == "premium":
        assert d is not None
        k = premium_factor(o.game)
        made = premium_made(o.game, tricks.get(d, 0), sum(tricks.get(p, 0) for p in others))
        if made:
            book.pay(POT, d, s, "game")
            for p in others:
                book.pay(p, d, k * g, "premium")
        else:
            book.pay(d, POT, s, "fall")
            fallen = [d]
            for p in others:
                book.pay(d, p, k * g, "premium")
    else:
        assert d is not None
        players = [p for p in others if o.defence[p] in PLAYING]
        if not players:
            made = True
            book.pay(POT, d, s, "game")
        else:
            made = tricks[d] >= 6
            if made:
                book.pay(POT, d, s, "game")
            else:
                book.pay(d, POT, s, "fall")
            inviter = next((p for p in players if o.defence[p] == "invite"), None)
            if inviter is not None and o.rules.invitation_tricks == "inviter":
                book.pay(d, inviter, t * sum(tricks[p] for p in players), "tricks")
            else:
                for p in players:
                    book.pay(d, p, t * tricks[p], "tricks")
            if inviter is not None:
                if sum(tricks[p] for p in players) < 4:
                    book.pay(inviter, POT, s, "fall")
            else:
                for p in players:
                    if tricks[p] < 2:
                        book.pay(p, POT, s, "fall")
            if not made:
                fallen.append(d)
            fallen += [
                tr["from"] for tr in book.transfers if tr["why"] == "fall" and tr["from"] != d
            ]
        if o.game.is_herz:
            for p in others:
                if made:
                    book.pay(p, d, g, "premium")
                else:
                    book.pay(d, p, g, "premium")

    delta, pot = totals(book.transfers, o.seats, POT, o.pot_before)
    order = {p: i for i, p in enumerate(o.active)}
    return {
        "stake": s,
        "declarer": d,
        "game": o.game.to_json(),
        "made": made,
        "fallen": sorted(set(fallen), key=order.__getitem__),
        "tricks": dict(tricks),
        "delta": delta,
        "pot": pot,
        "transfers": book.transfers,
    }
