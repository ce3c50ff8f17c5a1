"""A heuristic bot level for the seven talon-family rule sets (``kurz``, ``austria-1829``,
``austria-modern``, ``illustrated``, ``balkan``, ``danube-swabian``, ``american``;
``spec/next/kurz.md``, ``spec/next/austria-variants.md``): simple hand valuation, no search.

Terms: *Lizitieren* (auction), *Talon* (the two cards on the table; *widow* in american),
*Handspiel* (a game without the talon), *mitgehen / zu Hause bleiben* (``play`` / ``home``),
*Einladung* (invitation), *aufgeben* (give up), *Kontra / Rekontra*, *Bête* (the forced
player's penalty), *Misère* (no trick), *Slam* (every trick), *Sans* (no trumps, six tricks).

:func:`choose` sees only the seat's view (``engine.view(state, seat)``) and the legal actions
in it (``view["legal"]``). It answers ``None`` when the legal actions are cards (card play is
decided elsewhere) and otherwise one of the ``legal`` dicts.

How a hand is valued:

- :func:`suit_tricks`: the tricks a declarer's ten cards take in a suit contract, a linear
  score of trump length and honours, side aces, kings and queens, voids, singletons and long
  side suits. The weights were fitted by least squares to double-dummy results of random
  deals (declarer leading, or the next player; 1829 and whist obligations alike); the fit's
  error is about 0.75 tricks, so :data:`SPREAD` is a little wider. In an auction a talon game
  adds :data:`TALON_GAIN` for the two cards the declarer will pick up and lay away.
- :func:`nt_tricks`: the same for no trumps (Balkan ``sans``), weaker; a no-trump game is only
  considered with every suit stopped (:func:`stopped`).
- :func:`misere_risk`: the cards of a hand that an opponent can force to win a trick: the
  ``j``-th lowest card of a suit (from 0) is safe when its rank is at most ``2·j`` (7 9 J K
  is a perfect suit). :func:`slam_losers`: the cards that are not sure winners without trumps.
- :func:`defence_tricks`: a defender's own tricks against a declared trump (fitted likewise,
  against declarers strong enough to bid, plus what a partner's cooperation adds).
- :func:`odds`: the probability of making a contract: a normal tail of the estimate above
  the target for trick contracts, rates by the number of unsafe cards for misère and of
  losers for slam, checked against double-dummy play (for an auction with the talon unseen,
  the mean rate over every talon it may hold, after the discard that mends most).

Each decision weighs the money of a contract as its rule set pays it (:func:`contract_value`,
in the set's units; the pot counts as nobody's): the auction takes the cheapest call (``hold``
first) whose best permitted contract is worth playing; the discard keeps the ten cards whose
best permitted contract is worth most (so trumps and aces stay and short suits go); the
declaration takes the best legal contract (one that may still be given up is worth at least
the give-up); a defender plays when his tricks likely reach the defender's target, the set's
reward weighed against its fall (:func:`defender_value`), and invites when the pair's tricks
are worth more to him than his own; contra only with a defending hand that alone nearly beats
the contract; the declarer gives up only a contract worth less than the give-up. Misère and
slam are worth their high price only with hands that (nearly) cannot fail, so they are chosen
only for such hands; ``uno`` is never sought. Any other decision, or one the bot does not know,
takes the first legal action that commits to nothing (``pass``, ``false``, ``home``,
``alone``), else the first legal action.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

Json = dict[str, Any]
Holding = tuple[tuple[int, ...], ...]
"""A hand as four suits (``C S D H``), each its ranks high to low (7 = ace … 0 = seven)."""

SUITS = "CSDH"
RANKS = "789TJQKA"
ACE, KING, QUEEN, JACK = 7, 6, 5, 4

# --- hand valuation ---------------------------------------------------------------------------

TRUMP_CARD = 1.035
TRUMP_HONOURS = {ACE: 1.379, KING: 0.888, QUEEN: 0.469, JACK: 0.180}
SIDE_ACE = 1.134
SIDE_KING_WITH_ACE = 0.925
SIDE_KING_GUARDED = 0.433
SIDE_KING_SINGLE = 0.116
SIDE_QUEEN = 0.556
VOID = 0.439
SINGLETON = 0.177
LONG_SIDE = 0.700
SUIT_BASE = -2.865
"""Declarer's tricks in a suit contract: the least-squares fit to double-dummy play of random
deals (:func:`suit_tricks`)."""

NT_ACE = 1.108
NT_ACE_KING = 0.759
NT_ACE_KING_QUEEN = 0.328
NT_KING_GUARDED = 0.583
NT_LONG = 0.734
NT_SURE = 0.387
NT_BASE = -0.193
NT_NOT_LEADING = 0.5
"""Declarer's tricks without trumps (:func:`nt_tricks`), less when the defenders lead."""

DEF_TRUMP = 0.455
DEF_TRUMP_HONOURS = {ACE: 1.456, KING: 0.851, QUEEN: 0.341}
DEF_ACE = 0.954
DEF_ACE_KING = 0.088
DEF_KING_GUARDED = 0.358
DEF_BASE = -1.148
DEF_PARTNER = 0.7
"""A defender's own tricks (:func:`defence_tricks`): fitted with the partner playing against
him too, so :data:`DEF_PARTNER` adds what cooperation gives on average."""
DEF_ALONE = 1.0
"""What a lone defender gains when the other stays home (two-card tricks)."""
HOME_PARTNER = 1.0
"""The tricks a defender who stayed home would add when invited (he judged his hand weak)."""

SPREAD = 0.9
"""Spread of a declarer's tricks around :func:`suit_tricks` (double-dummy error 0.75)."""
DEF_SPREAD = 1.0
TALON_GAIN = 1.1
"""Tricks that taking the talon and laying two cards away adds to the ten cards' estimate,
on average: the best estimate after the discard gains 1.3, of which double-dummy play of the
kept cards confirms all but 0.2 (random deals, declarer's estimate 4.5 or more)."""

Rates = tuple[float, float, float, float]
MISERE_CHANCE: Rates = (0.95, 0.4, 0.15, 0.02)
OPEN_MISERE_CHANCE: Rates = (0.95, 0.3, 0.05, 0.0)
"""Chance of a misère with 0, 1, 2, 3 or more unsafe cards (:func:`misere_risk`); double-dummy
play of random deals (which is an open misère) makes 100 %, 37 % and 14 % of the first three."""
SLAM_CHANCE: Rates = (0.98, 0.2, 0.02, 0.0)
"""Chance of a slam with 0, 1, 2, 3 or more losers (:func:`slam_losers`); double-dummy play of
random deals makes 100 %, 20 % and 2 % of the first three."""


def holding(codes: Iterable[str]) -> Holding:
    """The cards ``codes`` (``"HA"``, ``"C7"``) as a :data:`Holding`."""
    suits: list[list[int]] = [[], [], [], []]
    for code in codes:
        suits[SUITS.index(code[0])].append(RANKS.index(code[1]))
    return tuple(tuple(sorted(s, reverse=True)) for s in suits)


def codes_of(h: Holding) -> list[str]:
    """The codes of the cards of ``h`` (``"HA"``), suit by suit, high to low."""
    return [SUITS[s] + RANKS[r] for s in range(4) for r in h[s]]


def suit_tricks(h: Holding, trump: int) -> float:
    """The tricks ``h`` takes as declarer with ``trump`` (a suit index, ``C`` 0 … ``H`` 3)."""
    trumps = h[trump]
    score = SUIT_BASE + TRUMP_CARD * len(trumps)
    for rank, weight in TRUMP_HONOURS.items():
        if rank in trumps:
            score += weight
    for s in range(4):
        if s == trump:
            continue
        cards = h[s]
        n = len(cards)
        ace, king = ACE in cards, KING in cards
        if ace:
            score += SIDE_ACE
            if king:
                score += SIDE_KING_WITH_ACE
        elif king:
            score += SIDE_KING_GUARDED if n >= 2 else SIDE_KING_SINGLE
        if QUEEN in cards and (ace or king) and n >= 3:
            score += SIDE_QUEEN
        if n == 0:
            score += VOID
        elif n == 1 and not ace:
            score += SINGLETON
        score += LONG_SIDE * max(0, n - 3)
    return score


def top_run(cards: Sequence[int]) -> int:
    """How many of the suit's highest cards (ace down) ``cards`` holds without a gap."""
    run = 0
    for i, rank in enumerate(cards):
        if rank != ACE - i:
            break
        run += 1
    return run


def stopped(h: Holding) -> bool:
    """Whether every suit is stopped against a no-trump attack: A, K x, Q x x or J x x x."""
    return all(any(rank >= JACK and len(cards) > ACE - rank for rank in cards) for cards in h)


def nt_tricks(h: Holding, *, leading: bool = True) -> float:
    """The tricks ``h`` takes as declarer without trumps (``leading``: he leads first)."""
    score = NT_BASE
    for cards in h:
        n = len(cards)
        ace, king = ACE in cards, KING in cards
        if ace:
            score += NT_ACE
            if king:
                score += NT_ACE_KING
                if QUEEN in cards:
                    score += NT_ACE_KING_QUEEN
        elif king and n >= 2:
            score += NT_KING_GUARDED
        score += NT_LONG * max(0, n - 4)
        run = top_run(cards)
        score += NT_SURE * (n if run and run >= min(n, 8 - n) else run)
    return score - (0 if leading else NT_NOT_LEADING)


def defence_tricks(h: Holding, trump: int | None) -> float:
    """A defender's own tricks against a contract with ``trump`` (None: no trumps), the
    partner defending with him."""
    score = DEF_BASE + DEF_PARTNER
    if trump is not None:
        trumps = h[trump]
        score += DEF_TRUMP * len(trumps)
        for rank, weight in DEF_TRUMP_HONOURS.items():
            if rank in trumps:
                score += weight
    for s in range(4):
        if s == trump:
            continue
        cards = h[s]
        if ACE in cards:
            score += DEF_ACE + (DEF_ACE_KING if KING in cards else 0.0)
        elif KING in cards and len(cards) >= 2:
            score += DEF_KING_GUARDED
    return max(0.0, score)


def misere_risk(h: Holding) -> int:
    """The cards of ``h`` an opponent can force to win a trick without trumps: in each suit
    the ``j``-th lowest (from 0) is unsafe when its rank exceeds ``2·j``."""
    return sum(1 for cards in h for j, rank in enumerate(reversed(cards)) if rank > 2 * j)


def slam_losers(h: Holding) -> int:
    """The cards of ``h`` that are not sure tricks without trumps: a suit whose unbroken top
    run covers every card the others may hold wins all its cards, else only the run."""
    losers = 0
    for cards in h:
        n = len(cards)
        run = top_run(cards)
        if run < min(n, 8 - n):
            losers += n - run
    return losers


def normal_tail(z: float) -> float:
    """The standard normal distribution function at ``z``."""
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def at_least(estimate: float, need: int | float, spread: float = SPREAD) -> float:
    """The chance that a whole number of tricks around ``estimate`` reaches ``need``."""
    return normal_tail((estimate - need + 0.5) / spread)


def without(h: Holding, cards: Iterable[tuple[int, int]]) -> Holding:
    """``h`` less ``cards`` (suit, rank)."""
    gone = set(cards)
    return tuple(tuple(r for r in h[s] if (s, r) not in gone) for s in range(4))


def with_cards(h: Holding, cards: Iterable[tuple[int, int]]) -> Holding:
    """``h`` with ``cards`` (suit, rank) added."""
    suits = [list(c) for c in h]
    for s, r in cards:
        suits[s].append(r)
    return tuple(tuple(sorted(c, reverse=True)) for c in suits)


def cards_in(h: Holding) -> list[tuple[int, int]]:
    """The cards of ``h`` as (suit, rank)."""
    return [(s, r) for s in range(4) for r in h[s]]


def best_after_two(h: Holding, cost: Callable[[Holding], int]) -> int:
    """The least ``cost`` of ``h`` after laying away two of its cards, one at a time (each
    step the card that lowers ``cost`` most)."""
    for _ in range(2):
        h = min((without(h, [c]) for c in cards_in(h)), key=cost)
    return cost(h)


def unseen_pairs(h: Holding) -> list[tuple[tuple[int, int], ...]]:
    """Every pair of cards the talon may hold, to one who holds ``h``."""
    mine = set(cards_in(h))
    rest = [(s, r) for s in range(4) for r in range(8) if (s, r) not in mine]
    return list(combinations(rest, 2))


COSTS: dict[str, tuple[Callable[[Holding], int], Rates]] = {
    "misere": (misere_risk, MISERE_CHANCE),
    "open_misere": (misere_risk, OPEN_MISERE_CHANCE),
    "slam": (slam_losers, SLAM_CHANCE),
}


@lru_cache(maxsize=512)
def talon_chance(h: Holding, kind: str) -> float:
    """The chance of a premium contract (``misere``, ``open_misere``, ``slam``) with the talon
    still unseen: over every talon the rate of the least cost (unsafe cards, losers) after the
    best discard."""
    cost, rates = COSTS[kind]
    if cost(h) > 3:  # two talon cards and two discards cannot mend it
        return rates[3]
    pairs = unseen_pairs(h)
    total = 0.0
    for pair in pairs:
        left = best_after_two(with_cards(h, pair), cost)
        total += rates[min(left, 3)]
    return total / len(pairs)


# --- contracts --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Contract:
    """What a declarer may play: ``kind`` ``suit`` (``level`` the trump letter) or a
    no-trump contract ``misere`` / ``slam`` / ``sans`` / ``uno`` / ``open_misere`` /
    ``open_slam``; ``level`` as the set's ``declare`` writes it; ``talon``: with the talon."""

    kind: str
    level: str | int
    talon: bool


PREMIUM_KINDS = {5: "misere", 6: "slam", 7: "open_misere", 8: "open_slam"}
"""illustrated's premium contracts by level."""
BALKAN_SUITS = {"S": 2, "D": 3, "H": 4, "C": 5}
BALKAN_EXTRA = {
    "slam": {"misere": 6, "slam": 7},
    "sans": {"misere": 6, "sans": 7},
    "sans_slam": {"misere": 6, "sans": 7, "slam": 8},
    "sans_uno_slam": {"misere": 6, "sans": 7, "uno": 8, "slam": 9},
}
"""balkan's and danube-swabian's contract codes (austria-variants.md, "balkan")."""


def balkan_codes(rules: Json) -> dict[str, int]:
    """The codes of balkan's and danube-swabian's contracts at this table (``contracts``)."""
    return {**BALKAN_SUITS, **BALKAN_EXTRA[rules.get("contracts", "slam")]}


def balkan_contract(name: str, talon: bool) -> Contract:
    """A balkan contract name (``S`` … ``C``, ``misere`` …) as a :class:`Contract`."""
    return Contract("suit" if name in BALKAN_SUITS else name, name, talon)


def kind_of(declare: Json, talon: bool) -> Contract:
    """A ``declare`` value as a :class:`Contract`."""
    kind, level = declare["type"], declare["level"]
    if kind == "premium":
        return Contract(PREMIUM_KINDS[level], level, talon)
    if kind == "notrump":
        return Contract(level, level, talon)
    return Contract("suit", level, talon)


@dataclass(frozen=True, slots=True)
class Seat:
    """What the bot reads from a view: the rules, its hand and place, the auction so far."""

    variant: str
    rules: Json
    me: str
    active: tuple[str, ...]
    hand: Holding
    actions: tuple[Json, ...]
    declarer: str | None
    game: Json | None

    def mine(self, key: str) -> list[Any]:
        """The values of ``key`` in this seat's own actions so far."""
        return [a[key] for a in self.actions if a.get("seat") == self.me and key in a]

    def calls(self) -> list[str]:
        """Every call of the auction so far, in order."""
        return [a["call"] for a in self.actions if "call" in a]

    def high_call(self) -> str | None:
        """The highest call so far (the last one that is not pass, hold or hand)."""
        high = None
        for call in self.calls():
            if call not in ("pass", "hold", "hand"):
                high = call
        return high


def seat_of(view: Json) -> Seat:
    """What the bot reads from ``view``."""
    return Seat(
        variant=view["rules"]["variant"],
        rules=view["rules"],
        me=view["seat"],
        active=tuple(view["active"]),
        hand=holding(view["hand"] or ()),
        actions=tuple(view["actions"]),
        declarer=view.get("declarer"),
        game=view.get("game"),
    )


def target_of(seat: Seat, c: Contract) -> int:
    """The declarer's tricks to make a suit or sans contract: 6, in danube-swabian one more
    with spades trumps and one more for a hand contract."""
    if seat.variant == "danube-swabian":
        return 6 + (c.level == "S") + (not c.talon)
    return 6


def leads(seat: Seat) -> bool:
    """Whether the declarer leads to the first trick (american's defender or Balkan's
    ``second_defender`` lead to sans and slam otherwise)."""
    if seat.variant == "american":
        return seat.rules.get("leader") == "forehand" and seat.declarer == seat.active[0]
    return bool(seat.rules.get("sans_slam_lead", "declarer") == "declarer")


@dataclass(frozen=True, slots=True)
class Odds:
    """A contract's chance and the declarer's expected tricks (for trick contracts)."""

    chance: float
    tricks: float


def odds(seat: Seat, c: Contract, h: Holding, *, unseen: bool) -> Odds:
    """The chance of ``c`` with ``h`` (``unseen``: the talon is still to come; ``h`` the ten
    cards before it)."""
    gain = TALON_GAIN if unseen and c.talon else 0.0
    if c.kind == "suit":
        tricks = suit_tricks(h, SUITS.index(str(c.level))) + gain
        return Odds(at_least(tricks, target_of(seat, c)), tricks)
    if c.kind == "sans":
        tricks = nt_tricks(h, leading=leads(seat)) + gain
        chance = at_least(tricks, target_of(seat, c), SPREAD + 0.2)
        return Odds(chance if stopped(h) else chance * 0.3, tricks)
    kind = "slam" if c.kind == "open_slam" else c.kind
    if kind in COSTS:
        tricks = 10.0 if kind == "slam" else 0.0
        if unseen and c.talon:
            return Odds(talon_chance(h, kind), tricks)
        cost, rates = COSTS[kind]
        return Odds(rates[min(cost(h), 3)], tricks)
    return Odds(0.02, 1.0)  # uno: never sought


def contract_value(seat: Seat, c: Contract, o: Odds) -> float:
    """The declarer's expected money of ``c`` in the set's units, as its settlement pays it
    (``kurz.md`` and ``austria-variants.md``, each set's "Settlement"; the pot is nobody's):
    kurz the tricks or the fall and the hand premium; 1829 V and the trick units of the
    defence; modern and illustrated 10 or 20 and the bonuses, a premium contract W from or to
    each defender; balkan 20·b and 2·b a defence trick; danube-swabian b and the over- or
    undertricks from or to each defender; american the reward or the fall."""
    r = seat.rules
    p = o.chance
    swing = 2 * p - 1
    v = seat.variant
    if v == "kurz":
        t, g = r.get("trick_value", 1), r.get("dealer_contribution", 10)
        value = p * t * o.tricks - (1 - p) * r.get("fail_multiple", 2) * g
        if not c.talon:
            payers = 2 if r.get("hand_premium_from") == "opponents" else 1.5
            value += payers * r.get("hand_premium", 5) * swing
        return float(value)
    if v == "austria-1829":
        t = (SUITS.index(str(c.level)) + 1) * (
            2 if not c.talon and r.get("hand_value") == "double" else 1
        )
        return t * (10 * swing - (10 - o.tricks))
    if v in ("austria-modern", "illustrated"):
        if c.kind != "suit":
            assert isinstance(c.level, int)
            w = 10 * (c.level - 4) * (1 if c.talon else 2)
            return 2 * w * swing
        m = SUITS.index(str(c.level)) + 1 if r.get("multiply_by_bid") else 1
        value = 10 * p - 20 * (1 - p) - 1.0
        if c.level == "H" and not c.talon:
            value += 2 * r.get("preference_bonus", 0) * swing
        if r.get("no_ace_bonus", 0) and not any(ACE in cards for cards in seat.hand) and p > 0.5:
            value += 2 * r["no_ace_bonus"] * swing
        return float(m * value)
    if v == "balkan":
        b = balkan_codes(r)[str(c.level)] + (0 if c.talon else 1)
        if c.kind in ("suit", "sans"):
            return b * (20 * swing - 2 * (10 - o.tricks))
        return b * 20 * swing
    if v == "danube-swabian":
        b = balkan_codes(r)[str(c.level)] + (0 if c.talon else r.get("hand_adds", 1))
        if c.kind in ("suit", "sans"):
            return 2 * (b * swing + (o.tricks - target_of(seat, c)))
        return 2 * b * swing
    if v == "american":
        reward = r.get("trick_reward", {"S": 1, "C": 2, "D": 3, "H": 4})[str(c.level)]
        made = reward * o.tricks if r.get("reward_mode", "per_trick") == "per_trick" else reward
        return float(p * made - (1 - p) * r.get("fail_factor", 6) * reward)
    return 0.0


def value_of(seat: Seat, c: Contract, h: Holding, *, unseen: bool) -> float:
    """The declarer's expected money of ``c`` with ``h`` (:func:`contract_value`)."""
    return contract_value(seat, c, odds(seat, c, h, unseen=unseen))


def best_value(seat: Seat, contracts: Iterable[Contract], h: Holding, *, unseen: bool) -> float:
    """The most any of ``contracts`` is worth with ``h`` (-inf: none)."""
    return max((value_of(seat, c, h, unseen=unseen) for c in contracts), default=-math.inf)


# --- what a call permits -------------------------------------------------------------------


def suits_from(n: int, talon: bool) -> list[Contract]:
    """The suit contracts from the suit numbered ``n`` up (C 1 … H 4)."""
    return [Contract("suit", s, talon) for s in SUITS[n - 1 :]]


def call_contracts(seat: Seat, call: str) -> list[Contract]:
    """The contracts the winner of ``call`` may end up playing (``hold``: the highest call's)."""
    v = seat.variant
    if call == "hold":
        high = seat.high_call()
        return call_contracts(seat, high) if high is not None else []
    if v == "american":
        return [Contract("suit", call, False)]
    if v == "austria-1829":
        start = SUITS.index(call) + 1
        return suits_from(start, True) + suits_from(start, False)
    if v in ("balkan", "danube-swabian"):
        table = balkan_codes(seat.rules)
        if call == "hand":
            return [balkan_contract(n, False) for n in table]
        return [balkan_contract(n, True) for n, code in table.items() if code >= int(call)]
    hand = call.endswith("h")
    n = int(call.rstrip("h"))
    if v == "kurz":
        return suits_from(n, not hand)
    if hand:
        if n <= 4:
            return [Contract("suit", SUITS[n - 1], False)]
        return [Contract(PREMIUM_KINDS[n], n, False)]
    out = suits_from(n, True) if n <= 4 else []
    if v == "illustrated":
        top = 8 if seat.rules.get("illustrated_form", "open") == "open" else 6
        out += [Contract(PREMIUM_KINDS[k], k, True) for k in range(max(n, 5), top + 1)]
    return out


def after_talon(seat: Seat) -> list[Contract]:
    """The contracts a declarer who takes the talon may still declare."""
    if seat.variant == "american" or seat.mine("second") or seat.mine("forced"):
        return suits_from(1, True)
    high = seat.high_call()
    if high is None:  # 1829's forced player after two passes: the bid is C
        return suits_from(1, True)
    return [c for c in call_contracts(seat, high) if c.talon]


# --- decisions ---------------------------------------------------------------------------------


def key_of(action: Json) -> str:
    """The key of a JSON action body (``call``, ``discard`` …)."""
    return next(k for k in action if k != "seat")


def first_with(legal: Sequence[Json], key: str, value: Any) -> Json | None:
    """The first legal action whose ``key`` is ``value``, or None."""
    return next((a for a in legal if a.get(key) == value), None)


def safe_default(legal: Sequence[Json]) -> Json:
    """The first legal action that commits to nothing (pass, false, home, alone), else the
    first one."""
    for action in legal:
        if action[key_of(action)] in ("pass", False, "home", "alone"):
            return action
    return legal[0]


MIN_VALUE = 0.0
"""A contract is worth playing when its expected money is above this (in the set's units)."""


def auction(seat: Seat, legal: Sequence[Json]) -> Json:
    """The cheapest call (``hold`` first) whose best contract is worth most and above
    :data:`MIN_VALUE`; else pass; without a pass (the forced rearhand) the best call."""
    options = sorted(legal, key=lambda a: a["call"] != "hold")
    scored = []
    for action in options:
        if action["call"] == "pass":
            continue
        contracts = call_contracts(seat, action["call"])
        scored.append((best_value(seat, contracts, seat.hand, unseen=True), action))
    passing = first_with(legal, "call", "pass")
    if not scored:
        return passing or legal[0]
    top = max(v for v, _ in scored)
    if top > MIN_VALUE or passing is None:
        return next(a for v, a in scored if v >= top - 1e-9)
    return passing


def discard(seat: Seat, legal: Sequence[Json]) -> Json:
    """The two cards whose loss leaves the best contract the declarer may still declare; on
    a tie the lowest cards."""
    contracts = after_talon(seat)

    def score(action: Json) -> tuple[float, int]:
        """The discard's best remaining contract, then the lower cards laid away."""
        gone = [(SUITS.index(c[0]), RANKS.index(c[1])) for c in action["discard"]]
        rest = without(seat.hand, gone)
        return best_value(seat, contracts, rest, unseen=False), -sum(r for _, r in gone)

    return max(legal, key=score)


def took_talon(seat: Seat) -> bool:
    """Whether the declarer took the talon (or the widow) in this deal."""
    return bool(seat.mine("discard")) or True in seat.mine("talon")


def give_up_cost(seat: Seat, c: Contract, *, lone: bool = False) -> float | None:
    """What giving ``c`` up costs the declarer (None: the set does not ask): modern and
    illustrated 3 units to each playing defender (5 to a lone one or an inviter), × the suit's
    number with ``multiply_by_bid``; balkan 20·b into the pot."""
    v = seat.variant
    if v == "balkan":
        return -20.0 * (balkan_codes(seat.rules)[str(c.level)] + (0 if c.talon else 1))
    if v in ("austria-modern", "illustrated") and c.kind == "suit":
        m = SUITS.index(str(c.level)) + 1 if seat.rules.get("multiply_by_bid") else 1
        return -(5.0 if lone else 6.0) * m
    return None


def declare(seat: Seat, legal: Sequence[Json]) -> Json:
    """The legal contract worth most with the cards the declarer holds (a contract that may
    still be given up is worth at least the give-up)."""
    talon = took_talon(seat)

    def value(action: Json) -> float:
        c = kind_of(action["declare"], talon)
        worth = value_of(seat, c, seat.hand, unseen=False)
        floor = give_up_cost(seat, c)
        return worth if floor is None else max(worth, floor)

    return max(legal, key=value)


def current(seat: Seat) -> Contract | None:
    """The declared contract of the view, or None before the declaration."""
    g = seat.game
    if g is None:
        return None
    talon = g.get("talon", not g.get("hand", False))
    return kind_of({"type": g["type"], "level": g["level"]}, bool(talon))


def trump_of(c: Contract | None) -> int | None:
    """The trump suit index of ``c`` (None: no trumps, or no contract yet)."""
    return SUITS.index(str(c.level)) if c is not None and c.kind == "suit" else None


def defender_value(seat: Seat, mine: float, *, alone: bool = False) -> float:
    """A defender's expected money for playing, in the set's units (staying home is 0): kurz
    his tricks from the pot, less a hand game's premium; 1829 his tricks' units, or paying the
    others' when he falls (fewer than 2 tricks); modern and illustrated a unit, or a fall of
    10; balkan 2·b a trick, or ``defender_fall``·b. ``alone``: the other defender is home."""
    r = seat.rules
    v = seat.variant
    c = current(seat)
    if alone:
        mine += DEF_ALONE
    made = at_least(mine, 2, DEF_SPREAD)
    if v == "kurz":
        cost = 0.0
        if c is not None and not c.talon and r.get("hand_premium_from", "players") == "players":
            cost = 0.6 * r.get("hand_premium", 5)
        return float(r.get("trick_value", 1) * mine - cost)
    if v == "austria-1829":
        t = SUITS.index(str(c.level)) + 1 if c is not None and c.kind == "suit" else 1
        return t * (made * mine - (1 - made) * 8)
    if v in ("austria-modern", "illustrated"):
        gain = mine if r.get("defender_unit_per_trick") else 1.0
        return made * gain - (1 - made) * 10
    if v == "balkan":
        if c is not None and c.kind not in ("suit", "sans"):
            return 0.0  # premium contracts: only the declarer and the pot pay
        return float(2 * mine - (1 - made) * r.get("defender_fall", 10))
    return 0.0


def defence(seat: Seat, legal: Sequence[Json]) -> Json:
    """``play`` when the defender's tricks likely reach his target against the set's fall
    (premium contracts: play, nothing is at stake for him); ``invite`` when the pair's tricks
    are worth more to the inviter than his own alone."""
    c = current(seat)
    mine = defence_tricks(seat.hand, trump_of(c))
    words = [a["defence"] for a in legal]
    if "invite" in words:
        return invitation(seat, legal, mine)
    if c is not None and c.kind not in ("suit", "sans"):
        return first_with(legal, "defence", "play") or legal[0]
    others = [a for a in seat.actions if "defence" in a and a["seat"] != seat.me]
    alone = any(a["defence"] == "home" for a in others)
    play = defender_value(seat, mine, alone=alone) > 0
    return first_with(legal, "defence", "play" if play else "home") or safe_default(legal)


def invitation(seat: Seat, legal: Sequence[Json], mine: float) -> Json:
    """A lone defender invites when both defenders' tricks (the invited one judged his hand
    weak) are worth more to him than playing alone."""
    r = seat.rules
    alone = defender_value(seat, mine, alone=True)
    both = mine + HOME_PARTNER + DEF_PARTNER
    made = at_least(both, 4, DEF_SPREAD)
    if seat.variant == "balkan":
        invited = 2 * both - (1 - made) * r.get("defender_fall", 10)
    else:
        gain = both if r.get("defender_unit_per_trick") else 1.0
        invited = made * gain - (1 - made) * r.get("invitation_fall", 1)
    word = "invite" if invited > alone + 0.5 else "alone"
    return first_with(legal, "defence", word) or safe_default(legal)


def declarer_odds(seat: Seat, *, contra: bool = False) -> tuple[Contract | None, Odds]:
    """The declared contract and its chance with the cards the declarer kept (lower after a
    contra: a defender says he can beat it)."""
    c = current(seat)
    if c is None:
        return None, Odds(0.5, 6.0)
    o = odds(seat, c, seat.hand, unseen=False)
    if contra and c.kind in ("suit", "sans"):
        tricks = o.tricks - 0.7
        return c, Odds(at_least(tricks, target_of(seat, c)), tricks)
    return c, o


def give_up(seat: Seat, legal: Sequence[Json]) -> Json:
    """Give up only a contract worth less than the give-up costs."""
    c, o = declarer_odds(seat)
    if c is None:
        return first_with(legal, "give_up", False) or legal[0]
    players = [a for a in seat.actions if a.get("defence") in ("play", "invite")]
    if len(players) >= 2 and c.kind == "suit":
        tricks = o.tricks - 0.3
        o = Odds(at_least(tricks, target_of(seat, c)), tricks)
    invited = any(a.get("defence") == "invite" for a in seat.actions)
    cost = give_up_cost(seat, c, lone=invited or len(players) < 2)
    say = cost is not None and contract_value(seat, c, o) < cost
    return first_with(legal, "give_up", say) or legal[0]


def no_aces(seat: Seat, legal: Sequence[Json]) -> Json:
    """Announce holding no ace (won or lost, the bonus) when the contract is likely made."""
    _, o = declarer_odds(seat)
    return first_with(legal, "no_aces", o.chance > 0.55) or legal[0]


def contra(seat: Seat, legal: Sequence[Json]) -> Json:
    """Contra only against a suit or sans contract that the defender's hand nearly beats
    alone: the tricks the declarer must not lose, less one (balkan: the pair needs five)."""
    c = current(seat)
    say = False
    if c is not None and c.kind in ("suit", "sans"):
        mine = defence_tricks(seat.hand, trump_of(c))
        need = 11 - target_of(seat, c)
        say = mine >= need - 1.0
    return first_with(legal, "contra", say) or legal[0]


def recontra(seat: Seat, legal: Sequence[Json]) -> Json:
    """Recontra with a contract still very likely made after the contra."""
    _, o = declarer_odds(seat, contra=True)
    return first_with(legal, "recontra", o.chance > 0.8) or legal[0]


def take_talon(seat: Seat, legal: Sequence[Json]) -> Json:
    """Take the talon (widow) unless the best game from the hand is worth more."""
    if seat.variant == "american":
        return first_with(legal, "talon", True) or legal[0]
    high = seat.high_call() or "C"
    contracts = call_contracts(seat, high)
    with_talon = best_value(seat, [c for c in contracts if c.talon], seat.hand, unseen=True)
    from_hand = best_value(seat, [c for c in contracts if not c.talon], seat.hand, unseen=False)
    return first_with(legal, "talon", with_talon >= from_hand) or legal[0]


def second(seat: Seat, legal: Sequence[Json]) -> Json:
    """1829, forehand after all passed: play (take the talon, any suit) with a game worth it."""
    value = best_value(seat, suits_from(1, True), seat.hand, unseen=True)
    return first_with(legal, "second", "play" if value > MIN_VALUE else "pass") or legal[0]


def forced(seat: Seat, legal: Sequence[Json]) -> Json:
    """1829's forced player (twelve cards) plays when his best game after the discard loses
    less than the bête he would pay by passing (``forced_bete`` "always": he pays it anyway)."""
    contracts = suits_from(1, True)
    value = max(
        best_value(seat, contracts, without(seat.hand, pair), unseen=False)
        for pair in combinations(cards_in(seat.hand), 2)
    )
    bete = 0.0 if seat.rules.get("forced_bete") == "always" else -10.0
    return first_with(legal, "forced", "play" if value > bete else "pass") or legal[0]


def hand_contract(seat: Seat, legal: Sequence[Json]) -> Json:
    """balkan, danube: name the hand contract worth most, or pass when none is worth playing
    (the first hand caller must name one)."""
    named = [a for a in legal if a["hand_contract"] != "pass"]
    passing = first_with(legal, "hand_contract", "pass")
    if not named:
        return passing or legal[0]

    def value(action: Json) -> float:
        return value_of(
            seat, balkan_contract(action["hand_contract"], False), seat.hand, unseen=False
        )

    best = max(named, key=value)
    if passing is not None and value(best) <= MIN_VALUE:
        return passing
    return best


def offer(seat: Seat, legal: Sequence[Json]) -> Json:
    """american round 2: offer the least legal units when the best game with the widow is
    worth more than the offer."""
    bids = [a for a in legal if a["offer"] != "pass"]
    passing = first_with(legal, "offer", "pass")
    if not bids:
        return passing or legal[0]
    least = min(bids, key=lambda a: int(a["offer"]))
    value = best_value(seat, suits_from(1, True), seat.hand, unseen=True)
    margin = 1.0 if seat.rules.get("offer_paid") == "all" else 0.0
    if value - int(least["offer"]) > margin or passing is None:
        return least
    return passing


DECISIONS = {
    "call": auction,
    "discard": discard,
    "declare": declare,
    "defence": defence,
    "give_up": give_up,
    "no_aces": no_aces,
    "contra": contra,
    "recontra": recontra,
    "talon": take_talon,
    "second": second,
    "forced": forced,
    "hand_contract": hand_contract,
    "offer": offer,
}


def choose(view: Json, legal: Sequence[Json], rng: random.Random) -> Json | None:
    """The heuristic's action for the seat of ``view`` among ``legal`` (JSON action bodies),
    or ``None`` when the legal actions are cards (card play is decided elsewhere)."""
    if not legal or all("card" in a for a in legal):
        return None
    decide = DECISIONS.get(key_of(legal[0]))
    if decide is None:
        return safe_default(legal)
    return decide(seat_of(view), legal)


__all__ = [
    "Contract",
    "choose",
    "defence_tricks",
    "holding",
    "misere_risk",
    "nt_tricks",
    "slam_losers",
    "stopped",
    "suit_tricks",
]
