"""One Doppelkopf hand as an immutable state and its transitions (``spec/next/doppelkopf.md``:
"Reservations and game types", "Parties", "Card play", and under the DDV rules their
reservations, Hochzeit, announcements and card play).

Terms: *Vorhand* (forehand, player 0: the seat after the dealer), *Vorbehalt* (reservation),
*Hochzeit* (marriage: the holder of both CQ, the *announcer* or bride, takes as partner the
first player the rule names), *geklärt* (a Hochzeit is *clarified* once its partner is known or
it is known there is none), *Solo* (one player, the *soloist*, against three), *Heimliches
Solo* (``secret_solo``: a solo shown as a normal game until revealed), *stilles Solo* (DDV:
both CQ in one hand and no reservation, ``silent_solo``), *Pflichtsolo* / *Lustsolo* (DDV: a
compulsory solo owed this round, led by its soloist / any other solo), *Re* (the party of the
CQ, of the Hochzeit, of the soloist) and *Kontra* (the others), *Ansage* / *Absage*
(announcements, DDV), *Erwiderung* (a party's word in reply to the other party's).

Players are numbered 0 to 3 in playing order from forehand (the dealer is 3). :func:`apply`
is pure and always validates: an illegal action raises :class:`engine.errors.IllegalAction`
(:class:`engine.errors.NotYourTurn` out of turn) with a sentence naming the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from engine.actions import Action, PlayCard
from engine.cards import lowest
from engine.errors import EngineError
from engine.rules.doppelkopf import messages as m
from engine.rules.doppelkopf import results
from engine.rules.doppelkopf.actions import ABSAGEN, Announce, Reservation
from engine.rules.doppelkopf.cards import (
    AUGEN,
    CJ,
    CQ,
    DDV_SOLOS,
    DECK,
    NORMAL,
    SOLO_TRUMPS,
    distinct,
    obligations,
    order_for,
    refusal,
    trick_winner,
)
from engine.rules.doppelkopf.outcome import Trick
from engine.rules.doppelkopf.rules import AnyRules
from engine.tricks import CardOrder, Obligations, legal_mask

RESERVE, PLAY, DONE = "reservations", "play", "done"
PHASES: tuple[str, ...] = (RESERVE, PLAY, DONE)
"""The phases of a hand, the last its end."""

NEED: tuple[int, ...] = (11, 10, 9, 8, 7)
"""DDV: the fewest cards the announcer must hold for each level of announcement (the party's
word, ``no90``, ``no60``, ``no30``, ``schwarz``)."""
PARTIES = ("re", "kontra")

SOLO_GAMES = frozenset({"solo", "karlchen"})
"""The announced solos: every party is public once the reservations are done."""
HIDDEN_SOLOS = frozenset({"secret_solo", "silent_solo"})
"""The solos shown as a normal game until revealed."""


@dataclass(frozen=True, slots=True)
class State:
    """A hand: its envelope (``rules``, ``seats``, ``dealer``, the ``active`` players in
    playing order from forehand, the ``kasse`` or ``pflicht_owed`` it carries), the cards as
    dealt (``deal``) and held (``hands``), the ``history`` of actions and where the hand
    stands."""

    rules: AnyRules
    seats: tuple[str, ...]
    dealer: str
    active: tuple[str, ...]
    kasse: int | None
    pflicht_owed: tuple[str, ...]
    deal: tuple[int, ...]
    hands: tuple[int, ...]
    history: tuple[Action, ...] = ()
    phase: str = RESERVE
    turn: int = 0
    """The player to send a reservation or to play (-1 once the hand is over)."""
    reservations: tuple[Reservation, ...] = ()
    """The reservations sent so far, in playing order."""
    game: str | None = None
    """Once the reservations are done: ``normal``, ``hochzeit``, ``solo``, ``karlchen``,
    ``secret_solo`` (``doppelkopf``) or ``silent_solo`` (DDV)."""
    declarer: int = -1
    """The Hochzeit announcer or the soloist (-1 in a normal game)."""
    kind: str = NORMAL
    """The card order: ``normal``, a solo's suit, or ``queens``, ``jacks``, ``fleischlos``."""
    pflicht: bool = False
    """DDV: the solo is a Pflichtsolo."""
    partner: int = -1
    """The Hochzeit partner (-1: none yet, or none)."""
    clarified: int = 0
    """The trick (1-12) after which the Hochzeit was clarified; 0: not yet."""
    leader: int = 0
    """Who leads (led) the trick in progress."""
    trick: tuple[int, ...] = ()
    """The cards of the trick in progress in play order (the i-th played by ``leader + i``)."""
    tricks: tuple[tuple[int, tuple[int, ...], int], ...] = ()
    """The complete tricks: (leader, cards in play order, winner)."""
    announced: tuple[tuple[int, str], ...] = ()
    """DDV: the announcements so far, (player, word) in order."""
    levels: tuple[int, int] = (-1, -1)
    """DDV: the highest level each party (Re, Kontra) announced (-1 none, 0 the word, 1-4 the
    Absagen ``no90`` to ``schwarz``)."""
    reply_only: tuple[bool, bool] = (False, False)
    """DDV: the party's word came only as an Erwiderung (it may make no Absage)."""
    revealed: bool = False
    """A Heimliches or stilles Solo has been revealed."""
    vorfuehrung: str | None = None
    """DDV: the player vorgeführt in this deal (``engine.rules.doppelkopf.series``): he must
    reserve a solo."""

    @property
    def is_over(self) -> bool:
        return self.phase == DONE

    @property
    def ddv(self) -> bool:
        return self.rules.ddv

    @property
    def order(self) -> CardOrder:
        """How the cards rank in this hand's game (:func:`cards.order_for`)."""
        return order_for(self.ddv, self.kind, bool(getattr(self.rules, "second_dulle", False)))

    @property
    def duty(self) -> Obligations:
        """What a player must play to a trick (:func:`cards.obligations`)."""
        return obligations(self.ddv, getattr(self.rules, "stichzwang", "trump"))

    def player(self, seat: str | None) -> int | None:
        """The player number of ``seat`` (None for a spectator)."""
        return self.active.index(seat) if seat in self.active else None

    @property
    def re(self) -> tuple[int, ...]:
        """The Re party as it stands (the truth, not what is public): the two CQ holders in a
        normal game; the Hochzeit announcer and his partner once found; the soloist."""
        if self.game is None:
            return ()
        if self.game == "normal":
            return tuple(p for p in range(4) if self.deal[p] & CQ)
        if self.game == "hochzeit":
            if self.partner >= 0:
                return tuple(sorted((self.declarer, self.partner)))
            return (self.declarer,)
        return (self.declarer,)

    def party(self, p: int) -> int:
        """0 when player ``p`` is Re, 1 when Kontra."""
        return 0 if p in self.re else 1

    @property
    def played(self) -> int:
        """Complete tricks."""
        return len(self.tricks)


_FIELDS = tuple(f.name for f in fields(State))
_set_attr = object.__setattr__


def _with(s: State, **changes: Any) -> State:
    """``dataclasses.replace(s, **changes)`` without the generic machinery."""
    new = object.__new__(State)
    for name in _FIELDS:
        _set_attr(new, name, changes[name] if name in changes else getattr(s, name))
    return new


def new_state(
    rules: AnyRules,
    seats: tuple[str, ...],
    dealer: str,
    active: tuple[str, ...],
    kasse: int | None,
    pflicht_owed: tuple[str, ...],
    hands: tuple[int, ...],
) -> State:
    """The hand after the deal: forehand sends the first reservation."""
    return State(rules, seats, dealer, active, kasse, pflicht_owed, hands, hands)


def with_vorfuehrung(s: State, seat: str) -> State:
    """``s`` (before the first reservation) with ``seat`` vorgeführt: he must reserve a
    solo."""
    return _with(s, vorfuehrung=seat)


# ---------------------------------------------------------------------------------------------
# reservations


RESERVATIONS: tuple[Reservation, ...] = (
    Reservation("", "none"),
    Reservation("", "hochzeit"),
    *(Reservation("", "solo", k) for k in SOLO_TRUMPS),
    Reservation("", "karlchen"),
    Reservation("", "secret_solo"),
)
"""Every ``doppelkopf`` reservation, in the order ``legal`` lists them (seat left empty)."""
DDV_RESERVATIONS: tuple[Reservation, ...] = (
    Reservation("", "none"),
    Reservation("", "hochzeit"),
    *(Reservation("", "solo", k) for k in DDV_SOLOS),
)
"""Every ``doppelkopf-ddv`` reservation, in the order ``legal`` lists them."""


def reservations_of(rules: AnyRules) -> tuple[Reservation, ...]:
    """Every reservation the rule set knows, in the order ``legal`` lists them (seat left
    empty)."""
    return DDV_RESERVATIONS if rules.ddv else RESERVATIONS


def reservation_refusal(
    rules: AnyRules, seat: str, hand: int, r: Reservation
) -> EngineError | None:
    """Why ``seat`` holding ``hand`` may not send reservation ``r`` (the refusal, an
    :class:`~engine.errors.IllegalAction` to raise), or None when he may.

    - ``none``: in ``doppelkopf`` not with both CQ (the seed: "muss das vor Beginn des Spieles
      melden (oder ein Solo spielen)"); under the DDV rules it is a stilles Solo then.
    - ``hochzeit``: only with both CQ.
    - ``karlchen``: with ``karlchen_needs_jack``, only holding a CJ.
    - ``secret_solo``: with at least ``secret_solo_queens`` CQ.
    """
    queens = (hand & CQ).bit_count()
    if r.kind == "none":
        if queens == 2 and not rules.ddv:
            return m.MUST_DECLARE.error("", seat=seat)
        return None
    if r.kind == "hochzeit":
        return None if queens == 2 else m.HOCHZEIT_NEEDS_QUEENS.error("", seat=seat)
    if rules.ddv:
        if r.kind == "solo" and r.solo in DDV_SOLOS:
            return None
        return m.DDV_NO_RESERVATION.error("", reservation=r.kind)
    if r.kind == "solo":
        return None if r.solo in SOLO_TRUMPS else m.NO_SUCH_SOLO.error("", solo=repr(r.solo))
    if r.kind == "karlchen":
        if getattr(rules, "karlchen_needs_jack", True) and not hand & CJ:
            return m.KARLCHEN_NEEDS_JACK.error("", seat=seat)
        return None
    if r.kind == "secret_solo":
        need = getattr(rules, "secret_solo_queens", 1)
        if queens < need:
            many = m.SECRET_SOLO_NEEDS_QUEEN if need == 1 else m.SECRET_SOLO_NEEDS_QUEENS
            return many.error("", seat=seat)
        return None
    return m.NOT_A_RESERVATION.error("", reservation=repr(r.kind))


def reservation_options(s: State, p: int) -> list[Reservation]:
    """The reservations player ``p`` may send (:func:`reservation_choices`); in a Vorführung
    its player only his solos."""
    choices = reservation_choices(s.rules, s.active[p], s.hands[p])
    if s.vorfuehrung == s.active[p]:
        return [r for r in choices if r.kind == "solo"]
    return choices


def reservation_choices(rules: AnyRules, seat: str, hand: int) -> list[Reservation]:
    """The reservations ``seat`` holding ``hand`` may send, in :func:`reservations_of`'s
    order."""
    return [
        Reservation(seat, r.kind, r.solo)
        for r in reservations_of(rules)
        if reservation_refusal(rules, seat, hand, r) is None
    ]


def resolve(
    rules: AnyRules,
    active: tuple[str, ...],
    pflicht_owed: tuple[str, ...],
    deal: tuple[int, ...],
    reservations: tuple[Reservation, ...],
) -> tuple[str, int, str, bool, int]:
    """The game once all four reservations are in: (game, declarer, kind, pflicht, leader).

    ``doppelkopf``: (1) the first ``solo`` or ``karlchen`` in playing order; else (2) a
    ``hochzeit``; else (3) exactly one ``secret_solo`` (two: both single-CQ holders, neither
    stands, a normal game); else (4) a normal game. An announced solo is led by the soloist
    when ``solo_leads`` is ``soloist``, every other game by forehand.

    ``doppelkopf-ddv``: Pflichtsolo (its player in ``pflicht_owed``; he leads) > Lustsolo
    (forehand leads) > Hochzeit, each the first in playing order; else a player holding both
    CQ plays a stilles Solo; else a normal game.
    """
    if rules.ddv:
        solos = [p for p, r in enumerate(reservations) if r.kind == "solo"]
        owed = [p for p in solos if active[p] in pflicht_owed]
        if owed:
            p = owed[0]
            return "solo", p, reservations[p].solo, True, p
        if solos:
            p = solos[0]
            return "solo", p, reservations[p].solo, False, 0
    else:
        solos = [p for p, r in enumerate(reservations) if r.kind in SOLO_GAMES]
        if solos:
            p = solos[0]
            r = reservations[p]
            leader = p if getattr(rules, "solo_leads", "forehand") == "soloist" else 0
            if r.kind == "karlchen":
                return "karlchen", p, NORMAL, False, leader
            return "solo", p, r.solo, False, leader
    hochzeit = [p for p, r in enumerate(reservations) if r.kind == "hochzeit"]
    if hochzeit:
        return "hochzeit", hochzeit[0], NORMAL, False, 0
    if rules.ddv:
        both = [p for p in range(4) if deal[p] & CQ == CQ]
        if both:
            return "silent_solo", both[0], NORMAL, False, 0
        return "normal", -1, NORMAL, False, 0
    secret = [p for p, r in enumerate(reservations) if r.kind == "secret_solo"]
    if len(secret) == 1:
        return "secret_solo", secret[0], NORMAL, False, 0
    return "normal", -1, NORMAL, False, 0


def _reserve(s: State, p: int, r: Reservation) -> State:
    refused = reservation_refusal(s.rules, r.seat, s.hands[p], r)
    if refused is None and s.vorfuehrung == r.seat and r.kind != "solo":
        refused = m.VORGEFUEHRT.error("", seat=r.seat)
    if refused is not None:
        raise refused
    reservations = (*s.reservations, r)
    if len(reservations) < 4:
        return _with(s, reservations=reservations, turn=p + 1)
    game, declarer, kind, pflicht, leader = resolve(
        s.rules, s.active, s.pflicht_owed, s.deal, reservations
    )
    kind = NORMAL if kind == "D" else kind
    return _with(
        s,
        reservations=reservations,
        phase=PLAY,
        game=game,
        declarer=declarer,
        kind=kind,
        pflicht=pflicht,
        leader=leader,
        turn=leader,
    )


# ---------------------------------------------------------------------------------------------
# card play


def card_mask(s: State) -> int:
    """The cards the player to play may play (``Card play``, rules 1-3, by
    :func:`engine.tricks.legal_mask`)."""
    hand = s.hands[s.turn]
    if not s.trick:
        return hand
    order = s.order
    best = s.trick[trick_winner(order, s.trick)]
    return legal_mask(
        hand,
        order.suit_of[s.trick[0]],
        best,
        order.suit_of,
        order.suit_mask,
        order.above,
        order.trump,
        s.duty.bits,
    )


def _play(s: State, p: int, card: int) -> State:
    seat = s.active[p]
    hand = s.hands[p]
    held = hand & DECK.same(card)
    if not held:
        raise m.CARD_NOT_HELD.error("", seat=seat, card=DECK.code(card))
    legal = card_mask(s)
    if not legal & held:
        led = s.order.suit_of[s.trick[0]]
        raise refusal(s.order, s.duty, seat, hand, led, legal)
    c = lowest(legal & held)
    hand &= ~(1 << c)
    hands = (*s.hands[:p], hand, *s.hands[p + 1 :])
    trick = (*s.trick, c)
    revealed = s.revealed
    if not revealed and s.game in HIDDEN_SOLOS and (1 << c) & CQ:
        # A Heimliches Solo with one CQ is revealed when the other CQ falls; with both CQ
        # (and every stilles Solo) by the soloist's second CQ.
        revealed = p != s.declarer or (s.deal[p] & CQ == CQ and not hand & CQ)
    if len(trick) < 4:
        return _with(s, hands=hands, trick=trick, turn=(p + 1) % 4, revealed=revealed)
    winner = (s.leader + trick_winner(s.order, trick)) % 4
    tricks = (*s.tricks, (s.leader, trick, winner))
    n = len(tricks)
    partner, clarified = s.partner, s.clarified
    if s.game == "hochzeit" and not clarified:
        partner, clarified = hochzeit_step(s.rules, s.declarer, s.leader, winner, n)
    s = _with(
        s,
        hands=hands,
        trick=(),
        tricks=tricks,
        revealed=revealed,
        partner=partner,
        clarified=clarified,
        leader=winner,
        turn=winner,
    )
    if n == 12:
        return _with(s, phase=DONE, turn=-1)
    return s


def hochzeit_step(rules: AnyRules, bride: int, leader: int, winner: int, n: int) -> tuple[int, int]:
    """After trick ``n`` (1-12) of an unclarified Hochzeit, led by ``leader`` and won by
    ``winner``: (partner, clarified), (-1, 0) while still open.

    ``doppelkopf``: the partner is the leader of the first trick another player led and the
    announcer won (the seed: "der erste Ausspielende, dessen Karte der Ansagende gestochen
    hat"); with none by trick ``hochzeit_deadline`` (when set) or 12 he plays alone.
    ``doppelkopf-ddv``: the winner of the first of tricks 1-3 the bride does not win; winning
    all three she plays alone (clarified at trick 3)."""
    if rules.ddv:
        if winner != bride:
            return winner, n
        return (-1, n) if n == 3 else (-1, 0)
    if leader != bride and winner == bride:
        return leader, n
    deadline = getattr(rules, "hochzeit_deadline", None)
    if n == 12 or (deadline is not None and n >= deadline):
        return -1, n
    return -1, 0


# ---------------------------------------------------------------------------------------------
# DDV announcements


def word_of(level: int, party: int) -> str:
    """The word of announcement ``level`` for ``party`` (0 Re, 1 Kontra)."""
    return PARTIES[party] if level == 0 else ABSAGEN[level - 1]


def level_of(word: str) -> int:
    """The level of an announcement word (``re``/``kontra`` 0, ``no90`` 1 … ``schwarz`` 4)."""
    return 0 if word in PARTIES else ABSAGEN.index(word) + 1


def drop(s: State) -> int:
    """How many cards every minimum drops by: c − 1 in a Hochzeit clarified at trick c."""
    return s.clarified - 1 if s.game == "hochzeit" and s.clarified else 0


def announce_levels(s: State, p: int) -> tuple[int, bool]:
    """The highest level player ``p`` may announce now (-1: none) and whether his party's word
    would come only as an Erwiderung (:func:`announce_top`). In a Hochzeit nothing before its
    clarifying trick c, and every minimum drops by c − 1."""
    if not s.ddv or s.phase != PLAY:
        return -1, False
    if s.game == "hochzeit" and not s.clarified:
        return -1, False
    party = s.party(p)
    return announce_top(
        s.hands[p].bit_count(),
        s.levels[party],
        s.levels[1 - party],
        s.reply_only[party],
        drop(s),
    )


def announce_top(cards: int, mine: int, other: int, reply_only: bool, d: int) -> tuple[int, bool]:
    """The highest announcement level a player holding ``cards`` cards may make (-1: none),
    his party at level ``mine``, the other at ``other`` (-1: nothing announced), every minimum
    lowered by ``d``; and whether the party's word would come only as an Erwiderung.

    Each level must raise his party's. The party's word is in time while he holds at least 11
    cards, or, as a reply to the other party, one card fewer than the other party's highest
    level needed; the Absagen while he holds 10, 9, 8, 7. A higher level implies the lower
    ones, each of which must still be in time; a party whose word came only as a reply
    (``reply_only``, or now) makes no Absage. The validating and the fast path both ask
    this."""
    best, reply = -1, False
    for level in range(mine + 1, 5):
        if cards >= NEED[level] - d:
            pass
        elif level == 0 and other >= 0 and cards >= NEED[other] - d - 1:
            reply = True
        else:
            break
        if level >= 1 and (reply or reply_only):
            break
        best = level
    return best, reply


def announce_options(s: State, p: int) -> list[str]:
    """The announcements player ``p`` may make now (:func:`announce_levels`), lowest first."""
    top, _ = announce_levels(s, p)
    if top < 0:
        return []
    party = s.party(p)
    return [word_of(level, party) for level in range(s.levels[party] + 1, top + 1)]


def announce_refusal(s: State, p: int, word: str) -> EngineError:
    """Why player ``p`` may not announce ``word`` now: the refusal to raise."""
    seat = s.active[p]
    if s.phase != PLAY:
        return m.ANNOUNCE_BEFORE_PLAY.error("")
    if s.game == "hochzeit" and not s.clarified:
        return m.ANNOUNCE_HOCHZEIT_OPEN.error("")
    party = s.party(p)
    if word in PARTIES and word != PARTIES[party]:
        return m.ANNOUNCE_OTHER_PARTY.error("", seat=seat, party=word.capitalize())
    level = level_of(word)
    mine = s.levels[party]
    who = PARTIES[party].capitalize()
    if level <= mine:
        said = word_of(mine, party)
        return m.ANNOUNCE_NOT_RAISED.error("", party=who, word=said)
    if level >= 1 and s.reply_only[party]:
        return m.ANNOUNCE_REPLY_ONLY.error("", party=who)
    cards = s.hands[p].bit_count()
    d = drop(s)
    missed = next(lv for lv in range(mine + 1, level + 1) if cards < NEED[lv] - d)
    name = word_of(missed, party)
    return m.ANNOUNCE_TOO_LATE.error("", seat=seat, cards=cards, word=name, need=NEED[missed] - d)


def _announce(s: State, p: int, word: str) -> State:
    if word not in announce_options(s, p):
        raise announce_refusal(s, p, word)
    party = s.party(p)
    level = level_of(word)
    _, reply = announce_levels(s, p)
    levels = (level, s.levels[1]) if party == 0 else (s.levels[0], level)
    reply_only = s.reply_only
    if s.levels[party] < 0 and reply:
        reply_only = (True, reply_only[1]) if party == 0 else (reply_only[0], True)
    return _with(s, announced=(*s.announced, (p, word)), levels=levels, reply_only=reply_only)


# ---------------------------------------------------------------------------------------------
# who may act, what may be done, what happens


def to_act(s: State) -> frozenset[str]:
    """The seats that may act: the one to reserve or play, and under the DDV rules every seat
    with an announcement in time."""
    if s.is_over:
        return frozenset()
    out = {s.active[s.turn]}
    if s.ddv and s.phase == PLAY:
        out.update(s.active[p] for p in range(4) if announce_levels(s, p)[0] >= 0)
    return frozenset(out)


def legal(s: State, p: int) -> list[Action]:
    """Every action player ``p`` may send now: a reservation or a card (each code once, in deck
    order) when it is his turn, then his announcements (DDV)."""
    if s.is_over:
        return []
    seat = s.active[p]
    out: list[Action] = []
    if p == s.turn:
        if s.phase == RESERVE:
            return list(reservation_options(s, p))
        mask = distinct(card_mask(s))
        while mask:
            low = mask & -mask
            out.append(PlayCard(seat, low.bit_length() - 1))
            mask ^= low
    if s.ddv and s.phase == PLAY:
        out.extend(Announce(seat, w) for w in announce_options(s, p))
    return out


def apply(s: State, action: Action) -> State:
    """The hand after ``action`` (validated; refusals name the rule)."""
    if s.is_over:
        raise m.HAND_OVER.error("")
    seat = action.seat
    p = s.player(seat)
    if p is None:
        raise m.NO_SUCH_SEAT.error("", seat=repr(seat))
    if isinstance(action, Announce):
        if not s.ddv:
            raise m.NO_ANNOUNCEMENTS_IN_PLAY.error("")
        return _with(_announce(s, p, action.word), history=(*s.history, action))
    due = s.active[s.turn]
    if s.phase == RESERVE:
        if not isinstance(action, Reservation):
            raise m.RESERVATION_DUE.error("", seat=due)
        if p != s.turn:
            raise m.RESERVATION_TURN.error("", due=due, seat=seat)
        return _with(_reserve(s, p, action), history=(*s.history, action))
    if not isinstance(action, PlayCard):
        raise m.RESERVATION_LATE.error("", seat=seat)
    if p != s.turn:
        raise m.CARD_TURN.error("", due=due, seat=seat)
    return _with(_play(s, p, action.card), history=(*s.history, action))


# ---------------------------------------------------------------------------------------------
# the outcome


def game_entry(ddv: bool, game: str, kind: str, pflicht: bool) -> dict[str, Any]:
    """The game in a score-sheet entry's form: ``{"type"}``, a ``doppelkopf`` solo with its
    ``trump``, a DDV solo with its ``kind`` and ``pflicht``."""
    if game == "solo":
        name = "D" if kind == NORMAL else kind
        if ddv:
            return {"type": "solo", "kind": name, "pflicht": pflicht}
        return {"type": "solo", "trump": name}
    return {"type": game}


def augen(cards: tuple[int, ...]) -> int:
    """The card points of a trick's cards."""
    return sum(AUGEN[c] for c in cards)


def outcome(s: State) -> Any:
    """The finished hand as its score sheet records it (:func:`make_outcome`)."""
    if not s.is_over or s.game is None:
        due = s.active[s.turn]
        unfinished = m.UNFINISHED_RESERVATION if s.phase == RESERVE else m.UNFINISHED_CARD
        raise unfinished.error("actions", seat=due)
    return make_outcome(
        s.rules,
        s.active,
        game_entry(s.ddv, s.game, s.kind, s.pflicht),
        s.re,
        s.tricks,
        s.levels,
        s.reply_only,
        s.kasse,
        s.pflicht_owed,
    )


def make_outcome(
    rules: AnyRules,
    active: tuple[str, ...],
    game: dict[str, Any],
    re: Sequence[int],
    tricks: Sequence[tuple[int, tuple[int, ...], int]],
    levels: Sequence[int],
    reply_only: Sequence[bool],
    kasse: int | None,
    pflicht_owed: tuple[str, ...],
) -> Any:
    """A finished hand's outcome: its 12 tricks (leader, cards in play order, winner) and final
    Re party handed to ``results.outcome_from_tricks`` (the parties' Augen, categories and
    extra points are the results side's); DDV adds each party's highest announcement and
    whether its word came only as a reply. The validating and the fast path both end here."""
    code = DECK.codes
    log = [
        Trick(
            active[lead],
            tuple((active[(lead + i) % 4], code[c]) for i, c in enumerate(cards)),
            active[winner],
            augen(cards),
        )
        for lead, cards, winner in tricks
    ]
    said: dict[str, str | None] | None = None
    replies: dict[str, bool] | None = None
    if rules.ddv:
        said = {PARTIES[i]: None if levels[i] < 0 else word_of(levels[i], i) for i in range(2)}
        replies = {PARTIES[i]: bool(reply_only[i]) for i in range(2)}
    return results.outcome_from_tricks(
        rules,
        active,
        game,
        tuple(active[p] for p in sorted(re)),
        log,
        said,
        kasse,
        pflicht_owed,
        replies,
    )


__all__ = [
    "DONE",
    "NEED",
    "PHASES",
    "PLAY",
    "RESERVE",
    "State",
    "announce_levels",
    "announce_options",
    "announce_top",
    "apply",
    "card_mask",
    "game_entry",
    "hochzeit_step",
    "make_outcome",
    "legal",
    "new_state",
    "outcome",
    "reservation_choices",
    "reservation_options",
    "reservation_refusal",
    "resolve",
    "to_act",
]
