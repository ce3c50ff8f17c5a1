"""The talon family's refusals (``engine.errors.Message``), shared by its rule sets: reading an
action, refusing one in play, reading a score-sheet entry. A rule set's own refusals stand in
its package (``austria_1829_…``, ``balkan_…``); these are ``family_…``.

Where the refused action's phase shapes the sentence ("it is time to discard two cards"), each
phase has its message (:data:`NOT_NOW`, :data:`MUST`), so that a translation says what the
player is asked in its own words."""

from __future__ import annotations

from engine.errors import IllegalAction, Message, NotYourTurn
from engine.rules.family.phases import DISCARD, DONE, PHASE_WORDS, PHASES, PLAY

# --- an action's shape (``engine.rules.family.actions.read``) ----------------------------------

NOT_A_CALL = Message("family_not_a_call", "{value} is not a call ({calls})")
DISCARD_TWO = Message("family_discard_two_cards", "a discard is exactly two cards")
DECLARE_SHAPE = Message("family_declare_shape", 'declare is {{"type": ..., "level": ...}}')
NOT_A_GAME = Message("family_not_a_game", "{value} is not a game of these rules ({games})")
DEFENCE_CHOICE = Message("family_defence_choice", "defence must be {choices}, not {value}")
TRUE_OR_FALSE = Message("family_true_or_false", "{key} must be true or false")
WORD_CHOICE = Message("family_word_choice", "{key} must be {choices}, not {value}")
OFFER_VALUE = Message(
    "family_offer_value", 'an offer is a whole number of units ≥ 1 or "pass", not {value}'
)

# --- an action refused in play (``engine.rules.family.ruleset``) -------------------------------

HAND_OVER = Message("family_hand_over", "the hand is over; no more actions", IllegalAction)
NO_SUCH_SEAT = Message(
    "family_no_such_seat", "there is no seat named {seat} at this table", IllegalAction
)
SITS_OUT = Message("family_dealer_sits_out", "{seat} deals and sits out this hand", NotYourTurn)
NOT_YOUR_TURN = Message("family_not_your_turn", "it is {to_act}'s turn, not {seat}'s", NotYourTurn)
NOT_HELD = Message("family_card_not_held", "{seat} does not hold {card}", IllegalAction)
DISCARD_FROM_HAND = Message(
    "family_discard_from_hand",
    "{seat} must discard two cards from the hand: {cards}",
    IllegalAction,
)
NOT_NOW: dict[int, Message] = {
    number: Message(
        f"family_not_now_{PHASES[number]}",
        f"{{seat}} cannot do that now: it is time to {PHASE_WORDS[number]}",
        IllegalAction,
    )
    for number in range(DONE)
}
"""``{seat} cannot do that now: it is time to …``, by phase number (the end asks nothing): the
action is not one the phase asks for."""
MUST: dict[int, Message] = {
    number: Message(
        f"family_must_{PHASES[number]}",
        f"{{seat}} must {PHASE_WORDS[number]}: {{legal}}",
        IllegalAction,
    )
    for number in range(DONE)
    if number not in (DISCARD, PLAY)
}
"""``{seat} must …: {legal}``, by phase number: the phase's action with a value it does not
allow (``legal``: the values it does; a card and a discard have their own sentences)."""
HAND_NOT_FINISHED = Message(
    "family_hand_not_finished", "the hand is not finished: {seat} is to act ({phase})"
)

# --- the auction on a ladder (``Family.why``) -------------------------------------------------

MAY_NOT_PASS = Message(
    "family_may_not_pass",
    "{seat} may not pass: forehand and middlehand passed, so he must call ({legal})",
    IllegalAction,
)
NOTHING_TO_HOLD = Message("family_nothing_to_hold", "there is no call to hold yet", IllegalAction)
HOLD_EARLIER = Message(
    "family_hold_earlier_seat",
    "only a player who sits earlier than the one holding {high} may hold it ({seat} may: {legal})",
    IllegalAction,
)
NOT_HIGHER = Message(
    "family_call_not_higher",
    "{call} is not higher than the highest call so far, {high} ({legal})",
    IllegalAction,
)
ONE_RUNG = Message(
    "family_one_rung",
    "{seat} may call only {legal}: bids go up one rung at a time",
    IllegalAction,
)

# --- the carry and the score sheet (``engine.rules.family.outcome``, ``spec``) ------------------

POT_CENTS = Message(
    "family_pot_cents", "the pot must be a non-negative whole number of cents, not {pot}"
)
NO_GAME_NO_KEY = Message("family_no_game_no_key", "a deal without a game has no {key}")
GAME_OBJECT = Message(
    "family_game_object", 'game must be null or an object with a "type" ({types})'
)
GAME_KEYS = Message("family_game_keys", 'a {kind} game is {{"type", "level", "{flag}"}}')
GAME_LEVEL = Message("family_game_level", "a {kind} game's level is one of {levels}, not {level}")
GAME_REQUIRED = Message("family_game_required", "game is required (null for a deal without a game)")
DEFENCE_BOTH = Message(
    "family_defence_both", "defence must give the choice of {first} and {second}"
)
DEFENCE_VALUE = Message("family_defence_value", "{choice} is not {choices}")
INVITATION_PAIR = Message(
    "family_invitation_pair",
    "an invitation needs one defender with invite and the other invited",
)
DEFENCE_OMIT = Message("family_defence_omit", "in this game everybody plays; omit defence")
TRICKS_OBJECT = Message("family_tricks_object", "tricks must map player names to trick counts")
TRICKS_SITS_OUT = Message("family_tricks_sits_out", "{seat} sits out this deal")
TRICKS_NOT_A_SEAT = Message("family_tricks_not_a_seat", "{seat} is not a seat")
TRICK_COUNT = Message("family_trick_count", "a trick count is a whole number 0..10, not {count}")
TRICKS_NOBODY_PLAYED = Message(
    "family_tricks_nobody_played", "nobody played this deal: tricks must be {{}} or omitted"
)
TRICKS_NOT_PLAYED = Message("family_tricks_not_played", "{seat} did not play and took no tricks")
TRICKS_MISSING = Message("family_tricks_missing", "give {seat}'s tricks: every player who played")
TRICKS_SUM = Message("family_tricks_sum", "the tricks must add up to 10, not {total}")
TRICKS_TOTAL = Message("family_tricks_total", "a hand has 10 tricks, not {total}")
TRICKS_MISERE = Message(
    "family_tricks_misere",
    "a misère ends with the declarer's first trick: the declarer has 0 tricks of 10, "
    "or 1 trick when play stopped there",
)
TRICKS_SLAM = Message(
    "family_tricks_slam",
    "a slam ends with the defenders' first trick: the defenders have 0 tricks "
    "(declarer 10), or 1 when play stopped there",
)
TRICKS_UNO = Message(
    "family_tricks_uno",
    "an uno ends with the declarer's second trick: the declarer has 0 or 1 trick of "
    "10, or 2 when play stopped there",
)
NOBODY_TO_GIVE_UP_TO = Message(
    "family_nobody_to_give_up_to", "both defenders stayed home: nobody to give up to"
)
"""A ``gave_up`` entry where both defenders stayed home (austria-modern, illustrated,
balkan)."""
