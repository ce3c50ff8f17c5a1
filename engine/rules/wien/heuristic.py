"""wien's ``heuristic`` bot: every decision of a hand except which card to play, taken by the
strength of the hand as a club player counts it, without search (``spec/wien.md``).

Terms: *Stich* (trick), *Trumpf* (trumps), *Rufer* (declarer), *Mitspieler* (defender),
*Lizit* (a call), *blank* (void in a suit), *Schutz* (guard: lower cards that keep a king or
queen from falling under the higher honours), *Bettler* (misère, the premium games 5 and 7),
*Mord* (slam, 6 and 8), *Einladung* (invitation), *Aushandeln* (agreeing a split).

The bot sees only its seat's view (``engine.view(state, seat)``) and the legal actions in it,
never the state, and answers one of the ``legal`` dicts, or ``None`` when a card is to be
played and it leaves the card to a card player (the ``pimc`` bot's search, or another).

How it counts (tricks out of ten; the weights were fitted to double-dummy results of random
deals, the declarer leading, and the thresholds then set by play at a table of this bot whose
cards were played double dummy):

- :func:`declarer_tricks`, a hand as declarer of a suit game: the trumps make their number
  less the honours missing among their top places (the ace in the first place, the king in
  the first two, the queen in the first three: a losing-trick count), the trump ace half a
  trick more, each trump beyond the third a quarter more; each side suit its ace
  (:data:`SIDE_ACE`), a king behind the ace, half a guarded king, a queen behind the ace and
  king; cards beyond the third of a side suit half a trick, a whole one with five trumps to
  draw the defenders'. With fewer than three trumps the defenders ruff the side suits: only
  their aces count, and half a king behind one.
- :func:`defender_tricks`, a hand as a defender against a suit: the trump ace, a guarded king,
  a queen with two guards, a fourth and further trumps; side aces, less a side king; long side
  suits a little less (the declarer ruffs them).
- :func:`misere_risk`, a Bettler: for each card, the lower cards of its suit the others may
  hold. Every player must beat the trick when he can (wien.md, "Card play"), so such a card
  can be forced to win over a defender's low lead; a hand of 7s and 8s is safe.
- :func:`slam_losers`, a Mord (no trumps): the cards below a suit's top sequence, unless that
  sequence is as long as the suit's cards left in play (then every card is led as the highest
  left, and the Mord is certain).

What it decides (:func:`choose`):

- **Auction** (:func:`call`): a certain Mord calls ``8h``; a Bettler ``7h``, ``5h`` or ``5``
  (with the talon, which takes two cards away) by :func:`misere_risk`; ``herz`` or
  ``geschaeft`` (the better of the two first) when the hand alone makes :data:`HAND_GAME`
  tricks; ``hold`` and number bids up to the highest suit that, with :data:`TALON_BONUS` for
  the talon, makes :data:`TALON_GAME`. Else ``pass``.
- **Geschäft suit**: the best suit of the hand among those allowed; a later caller, who may
  pass, names one only when it makes :data:`HAND_GAME`.
- **Talon and declaration** (:func:`discard`, :func:`declaration`): the two cards and the
  game with the best :func:`game_value` among the games the winning call allows, so the
  trumps and aces stay and short side suits go; the declaration then names that game (a
  premium game when :func:`premium_ok`, else the suit of most tricks).
- **Nachschauen** (:func:`look`): only with a hand already clearly good for a premium game
  above the game named; after looking, the best premium game allowed.
- **Defence** (:func:`defence`): ``play`` from :data:`PLAY_TRICKS` (:data:`PLAY_SHADE` more
  when the other defender plays, less when he stays home), ``home`` below, ``play`` when both
  must; an invitation from :data:`INVITE_TRICKS`, and only when the inviter is paid for both
  defenders' tricks (``invitation_tricks = "inviter"``).
- **Aushandeln** (:func:`bargain`): a split is accepted when it gives at least the estimate,
  rounded; the declarer proposes 8 to 2 from :data:`PROPOSE_TRICKS`; no counter proposals.

The bot uses ``rng`` for nothing: equal choices go to the first in ``legal``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable
from typing import Any

from engine.rules.wien.rules import (
    CALL_RANK,
    MISERE_LEVELS,
    NUMBER_CALLS,
    OPEN_LEVELS,
    premium_rank,
)

Json = dict[str, Any]
Game = tuple[str, str | int]
"""A game as the ``declare`` action names it: ``("suit", "H")`` or ``("premium", 5)``."""

SUITS = "CSDH"
"""The suits, low to high, with bid numbers 1..4 (wien.md, "Table, cards, seats")."""
RANKS = "789TJQKA"
"""The ranks, low to high."""
ACE, KING, QUEEN, JACK = 7, 6, 5, 4
"""Places of the honours in :data:`RANKS`."""

HAND_GAME = 6.0
"""A hand game (``geschaeft``, ``herz``) is called when the hand alone makes this many tricks
(double dummy such hands make their 6 three times in four, more the higher they count)."""
TALON_GAME = 5.5
"""A number bid is made for a suit whose estimate, :data:`TALON_BONUS` included, reaches this
many tricks: half a trick below the 6 a declarer needs, as defenders who stay home give the
game away and a passed hand leaves the pot to another (bidding from 6 or from 5 won less)."""
TALON_BONUS = 1.3
"""What two talon cards, two cards laid away, add to a hand's best estimate on average."""
MISERE_RISK = 3
"""A closed Bettler (5) is played up to this :func:`misere_risk` (double dummy, with the
defenders seeing every card, seven times in ten; closed defenders do worse)."""
OPEN_MISERE_RISK = 2
"""An open Bettler (7) up to this :func:`misere_risk` (double dummy, 19 times in 20)."""
TALON_MISERE_RISK = 4
"""A Bettler with the talon (``5``) is called up to this :func:`misere_risk` of the ten
cards: two cards can still be laid away."""
PLAY_TRICKS = 2.0
"""A defender plays from this many tricks (he needs 2; a fall costs the stake, each trick
pays a tenth of it)."""
PLAY_SHADE = 0.25
"""What :data:`PLAY_TRICKS` gains when the other defender plays (two defenders share the
tricks) and loses when he stays home (one against the declarer)."""
INVITE_TRICKS = 4.0
"""A lone defender invites from this many: with the home player's trick or so the two make
the declarer fall (the seed: "insgesamt ... 5 oder mehr Stiche")."""
PROPOSE_TRICKS = 8.5
"""The declarer proposes 8 tricks to 2 from this many."""
SIDE_ACE = 1.15
"""A side ace of the declarer: its own trick, and now and then a loser saved, as it brings
the lead back."""


# --- reading cards ---------------------------------------------------------------------------


def rank(code: str) -> int:
    """The place of a card's rank, 0 for a 7 up to 7 for an ace."""
    return RANKS.index(code[1])


def by_suit(hand: Iterable[str]) -> dict[str, list[int]]:
    """The ranks (:func:`rank`) the hand holds in each suit, high to low (shared between
    calls with the same cards: read it, never change it)."""
    return _by_suit(frozenset(hand))


@functools.lru_cache(maxsize=4096)
def _by_suit(hand: frozenset[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {s: [] for s in SUITS}
    for code in hand:
        out[code[0]].append(RANKS.index(code[1]))
    for ranks in out.values():
        ranks.sort(reverse=True)
    return out


# --- hand strength ---------------------------------------------------------------------------


def trump_tricks(ranks: list[int]) -> float:
    """The tricks of a trump holding (ranks high to low): its length less the honours missing
    among its top places (ace first, king in the first two, queen in the first three); the ace
    half a trick more (it keeps control of the hand), each trump beyond the third a quarter
    more (long trumps draw the defenders' and ruff)."""
    n = len(ranks)
    missing = sum(
        1 for place, honour in enumerate((ACE, KING, QUEEN)) if place < n and honour not in ranks
    )
    return n - missing + (0.5 if ACE in ranks else 0.0) + 0.25 * max(0, n - 3)


def side_tricks(ranks: list[int], trumps: int) -> float:
    """The tricks of a side suit (ranks high to low) for a declarer with ``trumps`` trumps:
    the ace (:data:`SIDE_ACE`); the king behind the ace, or half a guarded king; the queen
    behind the ace and king, less behind one of them; cards beyond the third half a trick, a
    whole one with five trumps to draw the defenders'. With fewer than three trumps the
    defenders ruff: after the ace only half the king behind it counts."""
    n = len(ranks)
    if not n:
        return 0.0
    ace, king, queen = ACE in ranks, KING in ranks, QUEEN in ranks
    total = SIDE_ACE if ace else 0.0
    if trumps < 3:
        return total + (0.5 if ace and king else 0.0)
    if king and n >= 2:
        total += 0.9 if ace else 0.5
    if queen and n >= 3:
        total += 0.6 if ace and king else (0.3 if ace or king else 0.0)
    if n > 3:
        total += (n - 3) * (1.0 if trumps >= 5 else 0.5)
    return total


def declarer_tricks(hand: Iterable[str], trump: str) -> float:
    """The tricks ``hand`` makes as declarer of a suit game in ``trump``, leading to the first
    trick (module docstring)."""
    suits = by_suit(hand)
    n = len(suits[trump])
    total = trump_tricks(suits[trump])
    for s in SUITS:
        if s != trump:
            total += side_tricks(suits[s], n)
    return min(total, 10.0)


def defender_tricks(hand: Iterable[str], trump: str) -> float:
    """The tricks ``hand`` makes as a defender against a suit game in ``trump``: in the trumps
    the ace, a guarded king, a queen with two guards, a jack with three, a fifth of a trick
    for each trump and nearly a trick for each beyond the third (the declarer cannot draw
    them); in each side suit the ace, the king behind it being ruffed, less a king without it
    and a guarded queen; long side suits a little less (the declarer ruffs them)."""
    suits = by_suit(hand)
    trumps = suits[trump]
    n = len(trumps)
    total = 0.3 + 0.2 * n + 0.9 * max(0, n - 3)
    total += 0.9 if ACE in trumps else 0.0
    total += 0.75 if KING in trumps and n >= 2 else 0.0
    total += 0.55 if QUEEN in trumps and n >= 3 else 0.0
    total += 0.25 if JACK in trumps and n >= 4 else 0.0
    for s in SUITS:
        ranks = suits[s]
        if s == trump or not ranks:
            continue
        if ACE in ranks:
            total += 0.8
        elif KING in ranks:
            total += 0.4 if len(ranks) >= 2 else 0.3
        if QUEEN in ranks and len(ranks) >= 3:
            total += 0.2
        total -= 0.2 * max(0, len(ranks) - 3)
    return total


def misere_risk(hand: Iterable[str], out: Iterable[str] = ()) -> int:
    """How far a Bettler with ``hand`` is from safe: for each card, the lower cards of its
    suit that the others may hold (not in the hand, nor in ``out``, known to be out of play),
    summed. Every player must beat the trick when he can (wien.md, "Card play"), so a card
    with lower ones outside is forced over a defender's low lead; a hand of 7s and 8s is
    safe."""
    return _misere_risk(frozenset(hand), frozenset(out))


@functools.lru_cache(maxsize=4096)
def _misere_risk(hand: frozenset[str], out: frozenset[str]) -> int:
    gone = by_suit(out)
    total = 0
    for s, ranks in by_suit(hand).items():
        taken = set(ranks) | set(gone[s])
        for r in ranks:
            total += sum(1 for below in range(r) if below not in taken)
    return total


def slam_losers(hand: Iterable[str], out: Iterable[str] = ()) -> int:
    """The cards of ``hand`` that may lose a trick in a Mord (no trumps, the declarer leads):
    in each suit, unless its cards from the ace down are at least as many as the other cards
    of the suit that may still be in play (not in ``out``, known to be out of play), the cards
    below that top sequence. With none the Mord is certain: every card is led as the highest
    left."""
    return _slam_losers(frozenset(hand), frozenset(out))


@functools.lru_cache(maxsize=4096)
def _slam_losers(hand: frozenset[str], out: frozenset[str]) -> int:
    gone = by_suit(out)
    total = 0
    for s, ranks in by_suit(hand).items():
        top = 0
        while top < len(ranks) and ranks[top] == ACE - top:
            top += 1
        if top < 8 - len(ranks) - len(gone[s]):
            total += len(ranks) - top
    return total


def premium_ok(hand: Iterable[str], level: int, out: Iterable[str] = ()) -> bool:
    """Whether premium game ``level`` is clearly good with ``hand`` (``out``: cards known to
    be out of play): a Mord (6, 8) when it is certain, a Bettler up to :data:`MISERE_RISK`,
    the open one (7: the defenders see each other's hands and confer) up to
    :data:`OPEN_MISERE_RISK`."""
    if level in MISERE_LEVELS:
        limit = OPEN_MISERE_RISK if level in OPEN_LEVELS else MISERE_RISK
        return misere_risk(hand, out) <= limit
    return slam_losers(hand, out) == 0


def game_value(hand: Iterable[str], game: Game, out: Iterable[str] = ()) -> float:
    """How good ``game`` is with ``hand``, to compare games and discards: a suit game its
    :func:`declarer_tricks`; a clearly good premium game (:func:`premium_ok`) more than any
    suit game, a higher one more (it pays more), a safer one a little more; any other premium
    game less than any suit game, the farther from safe and the higher the worse."""
    kind, level = game
    if kind == "suit":
        return declarer_tricks(hand, str(level))
    assert isinstance(level, int)
    risk = misere_risk(hand, out) if level in MISERE_LEVELS else slam_losers(hand, out)
    if premium_ok(hand, level, out):
        return 20.0 + level - risk / 10
    return -10.0 - risk - level / 10


# --- what the view shows ---------------------------------------------------------------------


def winning_call(view: Json) -> str | None:
    """The highest call of the auction: the last one other than ``pass`` and ``hold`` (each
    call is higher than the one before; a hold takes a bid over at its level)."""
    made = [a["call"] for a in view["actions"] if a.get("call") not in (None, "pass", "hold")]
    return str(made[-1]) if made else None


def game_rank(game: Json) -> int:
    """The place of the view's ``game`` on the auction ladder (wien.md, "Auction")."""
    if game["type"] == "premium":
        return premium_rank(int(game["level"]), bool(game["hand"]))
    if game["type"] == "suit":
        level = str(game["level"])
        if game["talon"]:
            return SUITS.index(level) + 1
        return CALL_RANK["herz"] if level == "H" else CALL_RANK["geschaeft"]
    return 0


def talon_games(view: Json) -> list[Game]:
    """The games the seat may declare once it has laid two cards away (wien.md, "Talon,
    declaration, Nachschauen"): after looking, the non-hand premium games above the game
    named; after a number bid ``n`` the suits from bid number ``n`` up and every premium game;
    after a premium call the premium games from its level."""
    premiums: list[Game] = [("premium", k) for k in (5, 6, 7, 8)]
    if view["game"] is not None:
        rank = game_rank(view["game"])
        return [g for g in premiums if premium_rank(int(g[1]), False) > rank]
    high = winning_call(view) or NUMBER_CALLS[0]
    if high in NUMBER_CALLS:
        return [("suit", s) for s in SUITS[int(high) - 1 :]] + premiums
    return [g for g in premiums if int(g[1]) >= int(high[0])]


def laid_away(view: Json) -> list[str]:
    """The cards the seat laid away in this hand (a view shows a seat its own discards)."""
    out: list[str] = []
    for a in view["actions"]:
        if a.get("seat") == view["seat"] and a.get("discard"):
            out += a["discard"]
    return out


def defender_estimate(view: Json) -> float:
    """The seat's :func:`defender_tricks` against the suit game of the view."""
    return defender_tricks(view["hand"], str(view["game"]["level"]))


# --- the decisions ---------------------------------------------------------------------------


def call(hand: list[str], legal: list[str], high: str | None) -> str:
    """The auction call for ``hand`` among ``legal``, ``high`` the highest call so far (module
    docstring, "Auction"): the first that the hand is good for of ``8h 6h``, ``7h 5h 5``,
    ``herz``, ``geschaeft``, ``hold`` and the number bid, else ``pass``."""
    wanted: list[str] = []
    if slam_losers(hand) == 0:
        wanted += ["8h", "6h"]
    risk = misere_risk(hand)
    wanted += [c for c, limit in (("7h", OPEN_MISERE_RISK), ("5h", MISERE_RISK)) if risk <= limit]
    if risk <= TALON_MISERE_RISK:
        wanted.append("5")
    tricks = {s: declarer_tricks(hand, s) for s in SUITS}
    hand_games = sorted(
        (("herz", tricks["H"]), ("geschaeft", max(tricks[s] for s in "CSD"))),
        key=lambda game: -game[1],
    )
    wanted += [c for c, made in hand_games if made >= HAND_GAME]
    top = max(
        (i + 1 for i, s in enumerate(SUITS) if tricks[s] + TALON_BONUS >= TALON_GAME), default=0
    )
    if high in NUMBER_CALLS and int(high) <= top:
        wanted.append("hold")
    wanted += [c for c in NUMBER_CALLS if int(c) <= top]
    return next((c for c in wanted if c in legal), "pass")


def geschaeft_suit(hand: list[str], legal: list[str]) -> str:
    """Naming the suit of a contested Geschäft: the allowed suit of most tricks; a later
    caller (who may pass) names it only when it makes :data:`HAND_GAME`."""
    suits = [s for s in legal if s != "pass"]
    if not suits:
        return "pass"
    best = max(suits, key=lambda s: declarer_tricks(hand, s))
    if "pass" in legal and declarer_tricks(hand, best) < HAND_GAME:
        return "pass"
    return best


def discard(hand: list[str], pairs: list[list[str]], games: list[Game]) -> list[str]:
    """The two cards to lay away from the twelve: those that leave the best
    :func:`game_value` of any of ``games``; of equal ones those that leave more side suits
    void (the trumps ruff them), then the lower cards."""

    return max(pairs, key=lambda pair: _discard_key(hand, pair, games))


def _discard_key(hand: list[str], pair: list[str], games: list[Game]) -> tuple[float, int, int]:
    """How good laying ``pair`` away is (:func:`discard`): the best game value left, then the
    side suits left void, then the lower cards."""
    rest = [c for c in hand if c not in pair]
    value, game = max(((game_value(rest, g, pair), g) for g in games), key=lambda vg: vg[0])
    suits = by_suit(rest)
    voids = 0
    if game[0] == "suit":
        voids = sum(1 for s in SUITS if s != game[1] and not suits[s])
    return (round(value, 6), voids, -sum(rank(c) for c in pair))


def declaration(hand: list[str], games: list[Game], out: list[str]) -> Game:
    """The game to declare: the best :func:`game_value` of ``games``."""
    return max(games, key=lambda g: round(game_value(hand, g, out), 6))


def look(view: Json) -> bool:
    """Nachschauen only when the hand is already clearly good (:func:`premium_ok`) for a
    premium game above the game named (the talon can then be laid away again)."""
    rank = game_rank(view["game"])
    return any(premium_ok(view["hand"], k) for k in (5, 6, 7, 8) if premium_rank(k, False) > rank)


def defence(view: Json, legal: list[str]) -> str:
    """``play`` or ``home`` (module docstring, "Defence"); ``invite`` or ``alone``."""
    tricks = defender_estimate(view)
    if "invite" in legal:
        inviter = view["rules"].get("invitation_tricks", "inviter") == "inviter"
        return "invite" if inviter and tricks >= INVITE_TRICKS else "alone"
    if "home" not in legal:
        return "play"
    others = [c for s, c in view["defence"].items() if s != view["seat"]]
    need = PLAY_TRICKS
    if others:
        need += PLAY_SHADE if others[0] == "play" else -PLAY_SHADE
    return "play" if tricks >= need else "home"


def bargain(view: Json, legal: list[Json]) -> Json | None:
    """Aushandeln: the answer to a proposed split (accept it when it gives the seat at least
    its estimate, rounded; no counter proposal), or the declarer's own proposal of 8 to 2 from
    :data:`PROPOSE_TRICKS`; ``None``: play a card."""
    declarer = view["declarer"] == view["seat"]
    trump = str(view["game"]["level"])
    tricks = declarer_tricks(view["hand"], trump) if declarer else defender_estimate(view)
    offer = view["offer"]
    if offer is not None:
        mine = offer["declarer"] if declarer else offer["defender"]
        return {"accept": mine >= int(tricks + 0.5)}
    proposal = {"negotiate": {"declarer": 8, "defender": 2}}
    if declarer and tricks >= PROPOSE_TRICKS and proposal in legal:
        return proposal
    return None


DISCARD_CANDIDATES = 6
"""How many discards the ``pimc`` bot compares by simulation: the heuristic's best."""


PREMIUM_MARGIN = 2
"""A premium call is compared by simulation when the hand is at most this far beyond what
:func:`call` asks of it (:func:`misere_risk` above the talon Bettler's limit, or that many
:func:`slam_losers`)."""


def candidates(view: Json, legal: list[Json]) -> list[Json]:
    """The choices the ``pimc`` bot compares by simulation: every legal one, but of the 66
    discards only the :data:`DISCARD_CANDIDATES` that :func:`discard` values most, and of the
    premium calls only those the hand comes near (:data:`PREMIUM_MARGIN`)."""
    hand = list(view["hand"])
    if any("discard" in a for a in legal):
        games = talon_games(view)
        ranked = sorted(legal, key=lambda a: _discard_key(hand, a["discard"], games), reverse=True)
        return ranked[:DISCARD_CANDIDATES]
    if any("call" in a for a in legal):
        bettler = misere_risk(hand) <= TALON_MISERE_RISK + PREMIUM_MARGIN
        mord = slam_losers(hand) <= PREMIUM_MARGIN
        return [
            a
            for a in legal
            if a["call"][0] not in "5678"
            or (bettler if int(a["call"][0]) in MISERE_LEVELS else mord)
        ]
    return list(legal)


def choose(view: Json, legal: list[Json], rng: random.Random) -> Json | None:
    """One of ``legal`` (the JSON legal actions of ``view``, the seat's view) for every
    decision but the card to play (module docstring), or ``None`` when a card is to be played
    and the seat does not bargain. ``rng`` is not used: equal choices go to the first."""
    if not legal:
        return None
    kinds = {key for a in legal for key in a}
    hand: list[str] = list(view["hand"])
    answer: Json | None
    if "call" in kinds:
        answer = {"call": call(hand, [a["call"] for a in legal], winning_call(view))}
    elif "geschaeft_suit" in kinds:
        answer = {"geschaeft_suit": geschaeft_suit(hand, [a["geschaeft_suit"] for a in legal])}
    elif "discard" in kinds:
        answer = {"discard": discard(hand, [a["discard"] for a in legal], talon_games(view))}
    elif "declare" in kinds:
        games = [(str(a["declare"]["type"]), a["declare"]["level"]) for a in legal]
        kind, level = declaration(hand, games, laid_away(view))
        answer = {"declare": {"type": kind, "level": level}}
    elif "look" in kinds:
        answer = {"look": look(view)}
    elif "defence" in kinds:
        answer = {"defence": defence(view, [a["defence"] for a in legal])}
    elif "accept" in kinds or "negotiate" in kinds:
        answer = bargain(view, legal)
    else:
        answer = None
    if answer is None:
        return None
    return next(a for a in legal if a == answer)


__all__ = [
    "by_suit",
    "choose",
    "declarer_tricks",
    "defender_tricks",
    "misere_risk",
    "premium_ok",
    "side_tricks",
    "slam_losers",
    "trump_tricks",
]
