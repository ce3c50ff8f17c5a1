"""A heuristic bot level for Russian Preferans (``spec/next/preferans.md``): simple hand
valuation, no search.

Terms: *торговля* (the auction), *прикуп* (the talon), *снос* (the discard), *заказ* (the
order: ``declare``), *вист / пас / полвиста* (whist, pass, half-whist), *в светлую / втёмную*
(open or closed defence), *мизер* (misère), *пуля / гора / висты* (pool, mountain, whists).

:func:`choose` sees only the seat's view (``engine.view(state, seat)``) and the legal actions in
it (``view["legal"]``). It answers ``None`` when the legal actions are cards (card play, raspasy
included, is decided elsewhere) and otherwise one of the ``legal`` dicts.

The hand valuation is the talon family's (``engine.rules.family.heuristic``: the same 32 cards,
three hands of ten and a talon of two): a declarer's tricks in each suit (:func:`suit_tricks`)
or without trumps (:func:`nt_tricks`, which loses half a trick when first hand leads against
the declarer), plus what the talon adds in the auction; a defender's own tricks
(:func:`defence_tricks`); a misère's unsafe cards (:func:`misere_risk`).

Money is counted in whists as the §11 settlement weighs one deal's entry against the other
seats (:func:`contract_value`): a pool point is worth ``K_P·(n−1)/n`` whists to the seat that
writes it, a mountain point costs ``K_M·(n−1)/n``; a declarer also pays the trick whists of the
defence (§9.1) and on a remise the consolation.

- **Auction** (§3): the call (``hold`` first, then the cheapest) whose best permitted contract
  is worth most, when that is worth playing; ``misere`` (first call only) for a hand whose
  unsafe cards the talon and the discard are likely to mend; otherwise pass.
- **Discard** (§4): the two cards whose loss leaves the best permitted contract (so trumps and
  aces stay and short suits go); for misère the pair that leaves the fewest unsafe cards.
- **Order**: the legal contract worth most with the ten cards kept.
- **Whist** (§5): a defender whists when his own tricks likely reach his share of the quota
  (``ob``: 4 on a 6, 2 on a 7, 1 above; each of two whisters half of it on a 6 or a 7); alone
  after the first defender passed, when with the passer's help (his hand is played open) the
  side likely reaches all of it; otherwise ``half`` where it is allowed (it costs nothing and
  writes whists), else pass. The first defender returns a half-whist on the lone whister's
  terms.
- **Mode**: ``open`` (the lone whister plays the passer's hand, seen, with his own), unless his
  own hand alone covers the quota with a trick to spare: then ``closed``, which shows the
  declarer nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.rules.family.heuristic import (
    DEF_SPREAD,
    RANKS,
    SUITS,
    TALON_GAIN,
    Holding,
    at_least,
    codes_of,
    defence_tricks,
    holding,
    misere_risk,
    nt_tricks,
    stopped,
    suit_tricks,
    talon_chance,
)

Json = dict[str, Any]

STRAINS = ("S", "C", "D", "H", "NT")
"""§1: the strains low to high."""
BIDS = tuple(f"{level}{strain}" for level in range(6, 11) for strain in STRAINS)
PRICE = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}
"""§9: the price of a contract level (misère 10)."""
QUOTA = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
"""§5: the tricks the defending side must take."""
MISERE_PRICE = 10

SPREAD_NT = 1.1
"""Spread of a declarer's tricks without trumps (the estimate is weaker than in a suit)."""
WHISTED = 0.7
"""How often a contract is whisted: the share of the defence's trick whists a declarer
expects to pay."""
UNDER = 1.3
"""A lost contract's expected undertricks (a lost misère's tricks: :data:`MISERE_TRICKS`)."""
MISERE_TRICKS = 1.5
PASSER = 1.0
"""What the passer's hand, played open by a lone whister, adds to the whister's tricks."""
MIN_CHANCE = 0.6
"""A whister's tricks must reach his need with this chance."""


@dataclass(frozen=True, slots=True)
class Seat:
    """What the bot reads from a view."""

    me: str
    rules: Json
    seats: tuple[str, ...]
    active: tuple[str, ...]
    hand: Holding
    actions: tuple[Json, ...]
    declarer: str | None
    game: Json | None
    defence: Json

    @property
    def first_hand(self) -> bool:
        """Whether this seat is first hand (who leads to the first trick, §6.1)."""
        return self.me == self.active[0]

    def high_bid(self) -> str | None:
        """The highest contract bid so far (misère and hold aside)."""
        high = None
        for a in self.actions:
            call = a.get("call")
            if call in BIDS:
                high = call
        return high

    def share(self) -> float:
        """(n−1)/n: a point written on oneself, weighed against the mean of ``n`` seats."""
        n = len(self.seats)
        return (n - 1) / n

    def num(self, key: str, default: float) -> float:
        """A numeric option of the rules (its default when absent)."""
        return float(self.rules.get(key, default))


def seat_of(view: Json) -> Seat:
    """What the bot reads from ``view``."""
    return Seat(
        me=view["seat"],
        rules=view["rules"],
        seats=tuple(view["seats"]),
        active=tuple(view["active"]),
        hand=holding(view["hand"] or ()),
        actions=tuple(view["actions"]),
        declarer=view.get("declarer"),
        game=view.get("game"),
        defence=dict(view.get("defence") or {}),
    )


def strain_tricks(seat: Seat, strain: str, h: Holding, *, unseen: bool) -> float:
    """The declarer's tricks in ``strain`` with ``h`` (``unseen``: the talon is to come)."""
    gain = TALON_GAIN if unseen else 0.0
    if strain == "NT":
        return nt_tricks(h, leading=seat.first_hand) + gain
    return suit_tricks(h, SUITS.index(strain)) + gain


def make_chance(strain: str, level: int, tricks: float, h: Holding) -> float:
    """The chance of taking ``level`` tricks; without trumps only with every suit stopped."""
    if strain == "NT":
        chance = at_least(tricks, level, SPREAD_NT)
        return chance if stopped(h) else chance * 0.3
    return at_least(tricks, level)


def contract_value(seat: Seat, level: int, chance: float, tricks: float) -> float:
    """A contract's expected whists for its declarer (§9.1, §11): the pool if made, the
    mountain and the consolation if lost, the defence's trick whists either way."""
    price = PRICE[level]
    share = seat.share()
    made = seat.num("pool_point_whists", 10) * price * seat.num("pool_mult", 1) * share
    writers = 2 + (len(seat.seats) == 4 and bool(seat.rules.get("dealer_consolation", True)))
    consolation = seat.rules.get("consolation", "price")
    per_under = 0.0
    if consolation != "fixed10_only":
        per_under += seat.num("mountain_point_whists", 10) * price * seat.num("mountain_mult", 1)
        per_under *= share
    cons = price * seat.num("whist_mult", 1) if consolation == "price" else 10.0
    lost = UNDER * (per_under + writers * cons)
    whists = WHISTED * price * seat.num("whist_mult", 1) * max(0.0, 10 - tricks)
    return chance * made - (1 - chance) * lost - whists


def misere_value(seat: Seat, chance: float) -> float:
    """A misère's expected whists (§9.2): ten pool points if made, ten mountain points a trick
    if lost (and the consolation where the rules write it)."""
    share = seat.share()
    made = seat.num("pool_point_whists", 10) * MISERE_PRICE * seat.num("pool_mult", 1) * share
    per_trick = 0.0
    consolation = seat.rules.get("consolation", "price")
    if consolation != "fixed10_only":
        per_trick += seat.num("mountain_point_whists", 10) * MISERE_PRICE * share
        per_trick *= seat.num("mountain_mult", 1)
    if seat.rules.get("misere_consolation") or consolation == "fixed10_only":
        cons = MISERE_PRICE * seat.num("whist_mult", 1) if consolation == "price" else 10.0
        per_trick += 2 * cons
    return chance * made - (1 - chance) * MISERE_TRICKS * per_trick


def split(bid: str) -> tuple[int, str]:
    """``"7NT"`` → ``(7, "NT")``."""
    if bid.endswith("NT"):
        return int(bid[:-2]), "NT"
    return int(bid[:-1]), bid[-1]


def ladder_values(seat: Seat, h: Holding, *, unseen: bool) -> list[float]:
    """Each contract's value with ``h``, in :data:`BIDS` order."""
    tricks = {s: strain_tricks(seat, s, h, unseen=unseen) for s in STRAINS}
    values = []
    for b in BIDS:
        level, strain = split(b)
        chance = make_chance(strain, level, tricks[strain], h)
        values.append(contract_value(seat, level, chance, tricks[strain]))
    return values


def best_from(seat: Seat, bid: str, h: Holding, *, unseen: bool) -> float:
    """The best contract not below ``bid`` on the ladder with ``h``."""
    return max(ladder_values(seat, h, unseen=unseen)[BIDS.index(bid) :])


MIN_VALUE = 0.0
"""A contract or misère is worth playing when its expected whists are above this."""


def auction(seat: Seat, legal: Sequence[Json]) -> Json:
    """The call (``hold`` first, then the cheapest) whose best permitted contract is worth
    most, when that is above :data:`MIN_VALUE`; otherwise pass (or the only call)."""
    scored: list[tuple[float, Json]] = []
    ladder = ladder_values(seat, seat.hand, unseen=True)  # once: each call reads its rungs
    for action in sorted(legal, key=lambda a: a["call"] != "hold"):
        call = action["call"]
        if call == "pass":
            continue
        if call == "misere":
            value = misere_value(seat, talon_chance(seat.hand, "misere"))
        else:
            bid = seat.high_bid() if call == "hold" else call
            if bid is None:
                continue
            value = max(ladder[BIDS.index(bid) :])
        scored.append((value, action))
    passing = next((a for a in legal if a["call"] == "pass"), None)
    if scored:
        top = max(v for v, _ in scored)
        if top > MIN_VALUE or passing is None:
            return next(a for v, a in scored if v >= top - 1e-9)
    return passing or legal[0]


def discard_scores(seat: Seat) -> Callable[[Json], tuple[float, int]]:
    """A discard's value to the declarer: the best contract not below the winning bid with
    the ten cards kept (for misère the fewer unsafe cards the better), then a tie-break that
    lays the highest cards away."""
    misere = seat.game is not None and seat.game.get("type") == "misere"
    bid = seat.high_bid() or BIDS[0]

    def score(action: Json) -> tuple[float, int]:
        gone = action["discard"]
        rest = holding(c for c in codes_of(seat.hand) if c not in gone)
        ranks = sum(RANKS.index(c[1]) for c in gone)
        if misere:
            return -float(misere_risk(rest)), ranks
        return best_from(seat, bid, rest, unseen=False), -ranks

    return score


def discard(seat: Seat, legal: Sequence[Json]) -> Json:
    """The two cards whose loss leaves the best contract not below the winning bid; for
    misère the fewest unsafe cards (on a tie the highest cards go)."""
    return max(legal, key=discard_scores(seat))


def declare_values(seat: Seat) -> Callable[[Json], float]:
    """A contract's expected whists to the declarer with the ten cards kept."""
    tricks = {s: strain_tricks(seat, s, seat.hand, unseen=False) for s in STRAINS}

    def value(action: Json) -> float:
        level, strain = action["declare"]["level"], action["declare"]["strain"]
        chance = make_chance(strain, level, tricks[strain], seat.hand)
        return contract_value(seat, level, chance, tricks[strain])

    return value


def declare(seat: Seat, legal: Sequence[Json]) -> Json:
    """The legal contract worth most with the ten cards kept."""
    return max(legal, key=declare_values(seat))


def defenders(seat: Seat) -> tuple[str, str]:
    """The first and the second defender (§5: the next active players after the declarer)."""
    assert seat.declarer is not None
    d = seat.active.index(seat.declarer)
    return seat.active[(d + 1) % 3], seat.active[(d + 2) % 3]


def contract(seat: Seat) -> tuple[int, int | None]:
    """The ordered contract's level and trump suit (None: no trumps)."""
    assert seat.game is not None
    strain = seat.game["strain"]
    return int(seat.game["level"]), None if strain == "NT" else SUITS.index(strain)


def whist(seat: Seat, legal: Sequence[Json]) -> Json:
    """§5 (module docstring, "Whist")."""
    level, trump = contract(seat)
    quota = QUOTA[level]
    mine = defence_tricks(seat.hand, trump)
    first, second = defenders(seat)
    words = [a["whist"] for a in legal]
    alone = at_least(mine + PASSER, quota, DEF_SPREAD) >= MIN_CHANCE
    if seat.me == first and seat.defence.get(second) == "half":
        call = "whist" if alone else "pass"
    elif seat.me == first or seat.defence.get(first) == "whist":
        need = quota / 2 if level <= 7 else 1
        call = "whist" if at_least(mine, need, DEF_SPREAD) >= MIN_CHANCE else "pass"
    else:  # the second defender after the first passed
        call = "whist" if alone else "half" if "half" in words else "pass"
    return next((a for a in legal if a["whist"] == call), legal[0])


def mode(seat: Seat, legal: Sequence[Json]) -> Json:
    """``open`` unless the lone whister's own hand covers the quota with a trick to spare."""
    level, trump = contract(seat)
    mine = defence_tricks(seat.hand, trump)
    word = "closed" if at_least(mine, QUOTA[level] + 1, DEF_SPREAD) >= 0.8 else "open"
    return next((a for a in legal if a["mode"] == word), legal[0])


DECISIONS = {
    "call": auction,
    "discard": discard,
    "declare": declare,
    "whist": whist,
    "mode": mode,
}


def key_of(action: Json) -> str:
    """The key of a JSON action body (``call``, ``whist`` …)."""
    return next(k for k in action if k != "seat")


MISERE_REACH = 0.4
"""A misère is compared by simulation when its chance with the talon unseen is at least this
(the auction calls it from about 0.6, where it starts to pay): a misère played out double
dummy costs the most of any choice, and far from it the simulation never prefers it."""
DISCARD_CANDIDATES = 6
"""The discards of the 66 that the ``pimc`` bot compares: those :func:`discard` values most."""
DECLARE_CANDIDATES = 4
"""The contracts the ``pimc`` bot compares: those :func:`declare` values most."""


def candidates(view: Json, legal: list[Json]) -> list[Json]:
    """The choices the ``pimc`` bot compares by simulation: of the 66 discards and of the
    contracts the few this heuristic values most; of the calls pass, hold, the cheapest bid,
    the heuristic's own (a higher bid only raises the floor of the order) and misère when the
    hand comes near it (:data:`MISERE_REACH`); every whist and mode."""
    if not legal:
        return []
    kind = key_of(legal[0])
    if kind == "discard":
        return sorted(legal, key=discard_scores(seat_of(view)), reverse=True)[:DISCARD_CANDIDATES]
    if kind == "declare":
        return sorted(legal, key=declare_values(seat_of(view)), reverse=True)[:DECLARE_CANDIDATES]
    if kind == "call":
        seat = seat_of(view)
        own = auction(seat, legal)
        bids = [a for a in legal if a["call"] in BIDS]
        cheapest = min(bids, key=lambda a: BIDS.index(a["call"])) if bids else None
        near = talon_chance(seat.hand, "misere") >= MISERE_REACH
        wanted = ("pass", "hold", "misere") if near else ("pass", "hold")
        return [a for a in legal if a is own or a is cheapest or a["call"] in wanted]
    return list(legal)


def choose(view: Json, legal: Sequence[Json], rng: random.Random) -> Json | None:
    """The heuristic's action for the seat of ``view`` among ``legal`` (JSON action bodies),
    or ``None`` when the legal actions are cards (card play is decided elsewhere)."""
    if not legal or all("card" in a for a in legal):
        return None
    decide = DECISIONS.get(key_of(legal[0]))
    if decide is None:
        return next((a for a in legal if a[key_of(a)] == "pass"), legal[0])
    return decide(seat_of(view), legal)


__all__ = ["candidates", "choose", "contract_value", "misere_value"]
