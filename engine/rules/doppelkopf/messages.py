"""The refusals of rule sets ``doppelkopf`` and ``doppelkopf-ddv`` (``engine.errors.Message``):
each a stable code prefixed ``doppelkopf_`` and its English sentence with named placeholders,
which the catalogs translate (``engine/locale``, ``msgctxt`` ``engine:<code>``).

Parameters are the words of a record: seat names, card codes (``CQ``), party codes (``re``,
``kontra``), game types, option and key names, numbers, and ``repr`` of a refused value.
"""

from __future__ import annotations

from engine.errors import IllegalAction, Message, NotYourTurn

# --- rules and carry (rules.py, ruleset.py) -------------------------------------------------

RULES_NOT_OBJECT = Message("doppelkopf_rules_not_object", "rules must be an object")
RULES_VARIANT = Message("doppelkopf_rules_variant", "variant must be {expected}, not {given}")
KASSE_VALUE = Message(
    "doppelkopf_kasse_value", "kasse must be a whole number of cents ≥ 0, not {value}"
)
PFLICHT_OWED_NOT_LIST = Message(
    "doppelkopf_pflicht_owed_not_list", "pflicht_owed must be a list of seat names"
)
PFLICHT_OWED_TWICE = Message("doppelkopf_pflicht_owed_twice", "pflicht_owed names a seat twice")
PFLICHT_OWED_NOT_SEAT = Message(
    "doppelkopf_pflicht_owed_not_seat", "{seat} in pflicht_owed is not a seat"
)
VORFUEHRUNG_NOT_OWED = Message(
    "doppelkopf_vorfuehrung_not_owed", "vorfuehrung must name a seat in pflicht_owed, not {value}"
)
VORFUEHRUNG_FOREHAND = Message(
    "doppelkopf_vorfuehrung_forehand",
    "{seat} is vorgeführt and must sit forehand: {dealer} cannot deal",
)
SPLIT_NO_SEATS = Message(
    "doppelkopf_split_no_seats", "a Kasse is split among the seats, and there are none"
)

# --- actions as records write them (actions.py) ---------------------------------------------

RESERVATION_UNKNOWN = Message(
    "doppelkopf_reservation_unknown", 'a reservation is {words} or {{"solo": {kinds}}}, not {value}'
)
NO_ANNOUNCEMENTS = Message("doppelkopf_no_announcements", "doppelkopf has no announcements")
ANNOUNCEMENT_UNKNOWN = Message(
    "doppelkopf_announcement_unknown", "an announcement is one of {words}, not {value}"
)

# --- a hand (hand.py, cards.py, results.py) -------------------------------------------------

HAND_OVER = Message("doppelkopf_hand_over", "the hand is over; no more actions", IllegalAction)
NO_SUCH_SEAT = Message(
    "doppelkopf_no_such_seat", "there is no seat named {seat} at this table", IllegalAction
)
NO_ANNOUNCEMENTS_IN_PLAY = Message(
    "doppelkopf_no_announcements_in_play", "doppelkopf has no announcements", IllegalAction
)
RESERVATION_DUE = Message(
    "doppelkopf_reservation_due",
    "it is time for {seat}'s reservation, not for cards",
    IllegalAction,
)
RESERVATION_TURN = Message(
    "doppelkopf_reservation_turn",
    "it is {due}'s turn to send a reservation, not {seat}'s",
    NotYourTurn,
)
RESERVATION_LATE = Message(
    "doppelkopf_reservation_late",
    "{seat} cannot send a reservation now: the cards are being played",
    IllegalAction,
)
CARD_TURN = Message(
    "doppelkopf_card_turn", "it is {due}'s turn to play a card, not {seat}'s", NotYourTurn
)
UNFINISHED_RESERVATION = Message(
    "doppelkopf_unfinished_reservation", "the hand is not finished: {seat} is to send a reservation"
)
UNFINISHED_CARD = Message(
    "doppelkopf_unfinished_card", "the hand is not finished: {seat} is to play a card"
)
UNFINISHED_TRICKS = Message(
    "doppelkopf_unfinished_tricks", "the hand is not finished: {tricks} of 12 tricks"
)

# reservations
MUST_DECLARE = Message(
    "doppelkopf_must_declare", "{seat} holds both CQ and must declare", IllegalAction
)
HOCHZEIT_NEEDS_QUEENS = Message(
    "doppelkopf_hochzeit_needs_queens",
    "{seat} may announce a Hochzeit only holding both CQ",
    IllegalAction,
)
DDV_NO_RESERVATION = Message(
    "doppelkopf_ddv_no_reservation",
    "doppelkopf-ddv has no {reservation} reservation",
    IllegalAction,
)
NO_SUCH_SOLO = Message("doppelkopf_no_such_solo", "there is no solo in {solo}", IllegalAction)
KARLCHEN_NEEDS_JACK = Message(
    "doppelkopf_karlchen_needs_jack",
    "{seat} holds no CJ and may not announce Karlchen Müller",
    IllegalAction,
)
SECRET_SOLO_NEEDS_QUEEN = Message(
    "doppelkopf_secret_solo_needs_queen", "{seat} needs a CQ for a Heimliches Solo", IllegalAction
)
SECRET_SOLO_NEEDS_QUEENS = Message(
    "doppelkopf_secret_solo_needs_queens",
    "{seat} needs both CQ for a Heimliches Solo",
    IllegalAction,
)
NOT_A_RESERVATION = Message(
    "doppelkopf_not_a_reservation", "{reservation} is not a reservation", IllegalAction
)
VORGEFUEHRT = Message(
    "doppelkopf_vorgefuehrt",
    "{seat} is vorgeführt in this deal (Vorführung) and must reserve a solo",
    IllegalAction,
)

# cards
CARD_NOT_HELD = Message("doppelkopf_card_not_held", "{seat} does not hold {card}", IllegalAction)
MUST_FOLLOW = Message("doppelkopf_must_follow", "{seat} must follow {suit}: {cards}", IllegalAction)
MUST_FOLLOW_TRUMP = Message(
    "doppelkopf_must_follow_trump", "{seat} must follow trump: {cards}", IllegalAction
)
MUST_BEAT = Message(
    "doppelkopf_must_beat", "{seat} must beat the trick in {suit}: {cards}", IllegalAction
)
MUST_BEAT_TRUMP = Message(
    "doppelkopf_must_beat_trump", "{seat} must beat the trick in trump: {cards}", IllegalAction
)
MUST_TRUMP = Message(
    "doppelkopf_must_trump", "{seat} has no {suit} and must play a trump: {cards}", IllegalAction
)
MUST_OVERTRUMP = Message(
    "doppelkopf_must_overtrump",
    "{seat} has no {suit} and must beat the trick with a trump: {cards}",
    IllegalAction,
)
ANY_CARD = Message("doppelkopf_any_card", "{seat} may play any card", IllegalAction)

# DDV announcements
ANNOUNCE_BEFORE_PLAY = Message(
    "doppelkopf_announce_before_play", "announcements come after the reservations", IllegalAction
)
ANNOUNCE_HOCHZEIT_OPEN = Message(
    "doppelkopf_announce_hochzeit_open",
    "in a Hochzeit nothing may be announced before it is clarified",
    IllegalAction,
)
ANNOUNCE_OTHER_PARTY = Message(
    "doppelkopf_announce_other_party", "{seat} is not of the {party} party", IllegalAction
)
ANNOUNCE_NOT_RAISED = Message(
    "doppelkopf_announce_not_raised",
    "{party} has announced {word} already: an announcement must raise it",
    IllegalAction,
)
ANNOUNCE_REPLY_ONLY = Message(
    "doppelkopf_announce_reply_only",
    "{party}'s word came only as a reply: it may make no Absage",
    IllegalAction,
)
ANNOUNCE_TOO_LATE = Message(
    "doppelkopf_announce_too_late",
    "{seat} holds {cards} cards: {word} needs at least {need}",
    IllegalAction,
)

# --- score-sheet entries (entries.py, ruleset.py) -------------------------------------------

ENTRY_NO_GAME = Message("doppelkopf_entry_no_game", "a score-sheet entry names its game")
ENTRY_UNKNOWN_KEY = Message(
    "doppelkopf_entry_unknown_key", "unknown key {key} in a {variant} score-sheet entry"
)
ENTRY_NO_PFLICHT_OWED = Message(
    "doppelkopf_entry_no_pflicht_owed",
    "doppelkopf has no Pflichtsolo: its records have no 'pflicht_owed'",
)
ENTRY_NO_ANNOUNCEMENTS = Message(
    "doppelkopf_entry_no_announcements", "doppelkopf has no announcements (the seed has none)"
)
ENTRY_NO_EXTRAS = Message(
    "doppelkopf_entry_no_extras", "doppelkopf has no extra points: the Kasse pays by category"
)
ENTRY_DDV_NO_KASSE = Message(
    "doppelkopf_entry_ddv_no_kasse", "doppelkopf-ddv keeps no Kasse: the players pay one another"
)
ENTRY_DDV_NO_QUEEN_TRICKS = Message(
    "doppelkopf_entry_ddv_no_queen_tricks",
    "doppelkopf-ddv has no queen_tricks: its schwarz means no trick",
)
ENTRY_DDV_NO_LAST_TRICK = Message(
    "doppelkopf_entry_ddv_no_last_trick",
    "doppelkopf-ddv has no Karlchen Müller game, so no 'last_trick'",
)
ENTRY_GAME_NOT_OBJECT = Message(
    "doppelkopf_entry_game_not_object", 'game must be an object such as {{"type": "normal"}}'
)
ENTRY_GAME_TYPE = Message(
    "doppelkopf_entry_game_type", "a {variant} game type is one of {types}, not {value}"
)
ENTRY_GAME_KEY = Message("doppelkopf_entry_game_key", "a {game} game has no {key}")
ENTRY_SOLO_TRUMP = Message(
    "doppelkopf_entry_solo_trump", "a solo's trump is one of C, S, H, D, not {value}"
)
ENTRY_SOLO_KIND = Message(
    "doppelkopf_entry_solo_kind", "a solo's kind is one of {kinds}, not {value}"
)
ENTRY_PFLICHT_VALUE = Message(
    "doppelkopf_entry_pflicht_value",
    "pflicht says whether the solo was a Pflichtsolo: true or false, not {value}",
)
ENTRY_PFLICHT_NOT_OWED = Message(
    "doppelkopf_entry_pflicht_not_owed",
    "{seat} owes no Pflichtsolo this round (pflicht_owed), so the solo is a Lustsolo and "
    "pflicht must be false",
)
ENTRY_PFLICHT_OWED = Message(
    "doppelkopf_entry_pflicht_owed",
    "{seat} still owes a Pflichtsolo this round (pflicht_owed), so the solo is one and pflicht "
    "must be true",
)
ENTRY_VORGEFUEHRT = Message(
    "doppelkopf_entry_vorgefuehrt",
    "{seat} is vorgeführt in this deal (Vorführung) and must reserve a solo",
)
ENTRY_RE_NOT_LIST = Message(
    "doppelkopf_entry_re_not_list", "re must be a list of the Re party's seats"
)
ENTRY_RE_NOT_SEAT = Message("doppelkopf_entry_re_not_seat", "{seat} is not a seat at this table")
ENTRY_RE_TWICE = Message("doppelkopf_entry_re_twice", "{seat} is named twice")
ENTRY_RE_SIZE = Message(
    "doppelkopf_entry_re_size", "a {game} game has {need} Re player(s), not {count}"
)
ENTRY_RE_SIZES = Message(
    "doppelkopf_entry_re_sizes", "a {game} game has {need} or {fewer} Re player(s), not {count}"
)
ENTRY_KARLCHEN_NO_AUGEN = Message(
    "doppelkopf_entry_karlchen_no_augen",
    "Augen do not count in Karlchen Müller: no {key}, only last_trick",
)
ENTRY_KARLCHEN_LAST_TRICK = Message(
    "doppelkopf_entry_karlchen_last_trick",
    'Karlchen Müller is decided by its last trick: give last_trick {{"winner", "card"}}',
)
ENTRY_LAST_TRICK_NOT_OBJECT = Message(
    "doppelkopf_entry_last_trick_not_object", 'last_trick must be an object {{"winner", "card"}}'
)
ENTRY_LAST_TRICK_KEY = Message("doppelkopf_entry_last_trick_key", "last_trick has no {key}")
ENTRY_LAST_TRICK_WINNER = Message(
    "doppelkopf_entry_last_trick_winner", "the last trick's winner must be a seat, not {value}"
)
ENTRY_LAST_TRICK_CARD = Message(
    "doppelkopf_entry_last_trick_card",
    "the card that won the last trick must be a card code such as 'CJ', not {value}",
)
ENTRY_LAST_TRICK_NOT_KARLCHEN = Message(
    "doppelkopf_entry_last_trick_not_karlchen", "only Karlchen Müller gives its last trick"
)
ENTRY_PAIR_REQUIRED = Message(
    "doppelkopf_entry_pair_required", '{key} are required: {{"re": …, "kontra": …}}'
)
ENTRY_PAIR_NOT_OBJECT = Message(
    "doppelkopf_entry_pair_not_object", '{key} must be an object {{"re": …, "kontra": …}}'
)
ENTRY_PAIR_PARTY = Message("doppelkopf_entry_pair_party", "{key} are given for re and kontra only")
ENTRY_PAIR_VALUE = Message(
    "doppelkopf_entry_pair_value", "{key} of {party} must be a whole number ≥ 0, not {value}"
)
ENTRY_PAIR_SUM = Message("doppelkopf_entry_pair_sum", "{key} must sum to {total}, not {given}")
ENTRY_AUGEN_NO_TRICK = Message(
    "doppelkopf_entry_augen_no_trick", "{party} took no trick, so it has 0 Augen, not {augen}"
)
ENTRY_AUGEN_MOST = Message(
    "doppelkopf_entry_augen_most",
    "{party} took {tricks} trick(s), so at most {most} Augen ({per_trick} a trick), not {augen}",
)
ENTRY_QUEEN_TRICKS_MOST = Message(
    "doppelkopf_entry_queen_tricks_most",
    "there are two CQ, so at most 2 tricks are won by one, not {count}",
)
ENTRY_QUEEN_TRICKS_KONTRA = Message(
    "doppelkopf_entry_queen_tricks_kontra",
    "in a {game} game the Re party holds both CQ, so Kontra wins no trick with one",
)
ENTRY_QUEEN_TRICKS_SECRET_SOLO = Message(
    "doppelkopf_entry_queen_tricks_secret_solo",
    "a Heimliches Solo needs {need} CQ in the soloist's hand (secret_solo_queens), so Kontra "
    "wins at most {most} trick(s) with one, not {count}",
)
ENTRY_QUEEN_TRICKS_VALUE = Message(
    "doppelkopf_entry_queen_tricks_value", "a number of tricks is a whole number ≥ 0, not {value}"
)
ENTRY_QUEEN_TRICKS_PARTY = Message(
    "doppelkopf_entry_queen_tricks_party",
    "{party} won {tricks} trick(s), so at most that many with a CQ, not {count}",
)
ENTRY_ANNOUNCEMENT = Message(
    "doppelkopf_entry_announcement",
    "{party}'s highest announcement is one of {words} or null, not {value}",
)
ENTRY_EXTRAS_MOST = Message(
    "doppelkopf_entry_extras_most", "at most {most} {extra} in all, not {count}"
)
ENTRY_EXTRAS_NOT_LIST = Message(
    "doppelkopf_entry_extras_not_list", '{party}\'s extras must be a list such as ["fox"]'
)
ENTRY_EXTRAS_AGAINST_ALTEN = Message(
    "doppelkopf_entry_extras_against_alten",
    "against_alten follows from the result and is not entered",
)
ENTRY_EXTRAS_UNKNOWN = Message(
    "doppelkopf_entry_extras_unknown", "an extra point is one of {extras}, not {value}"
)
ENTRY_EXTRAS_SOLO = Message(
    "doppelkopf_entry_extras_solo",
    "a solo (a lone bride and a stilles Solo too) has no extra points",
)
ENTRY_EXTRAS_NO_TRICK = Message(
    "doppelkopf_entry_extras_no_trick", "{party} took no trick, so it earned no extra points"
)
ENTRY_EXTRAS_DOPPELKOPF = Message(
    "doppelkopf_entry_extras_doppelkopf",
    "{party} has {augen} Augen, so at most {most} doppelkopf (one per 40 Augen), not {count}",
)
