"""``wien``'s refusals (``engine.errors.Message``): its rules, its actions as records write them,
an action refused in play (the auction's ladder, the defence, Aushandeln) and its score-sheet
entries. Each code is prefixed ``wien_``; the core's own refusals (cards, seats, deals, rule
options, the trick obligations) are ``engine.messages``'.

Where the phase shapes the sentence ("it is time to declare the game"), each phase has its
message (:data:`NOT_NOW`, :data:`MUST`, :data:`MUST_ONE_OF`), so that a translation says what
the player is asked in its own words. Parameters are the words of a record: seat names, calls
(``5h``), card codes, numbers, and ``repr`` of a refused value.
"""

from __future__ import annotations

from engine.errors import IllegalAction, Message, NotYourTurn

# --- rules and the pot (rules.py, play.py, ruleset.py) ----------------------------------------

DEALER_CONTRIBUTION = Message(
    "wien_dealer_contribution",
    "the dealer contribution must be a positive whole number of cents divisible by 10, not {value}",
)
POT_CAP = Message(
    "wien_pot_cap",
    "the pot cap must be null or a positive multiple of the dealer contribution "
    "({contribution}), not {value}",
)
POT = Message("wien_pot", "the pot must be a non-negative multiple of 10 cents, not {pot}")
SPLIT_NO_SEATS = Message(
    "wien_split_no_seats", "a pot is split among the seats, and there are none"
)

# --- actions as records write them (actions.py) -----------------------------------------------

NOT_A_CALL = Message("wien_not_a_call", "{value} is not a call ({calls})")
GESCHAEFT_SUIT = Message(
    "wien_geschaeft_suit", "geschaeft_suit must be C, S, D or pass, not {value}"
)
DISCARD_TWO = Message("wien_discard_two", "a discard is exactly two cards")
DECLARE_SHAPE = Message(
    "wien_declare_shape", 'declare is {{"type": "suit"|"premium", "level": ...}}'
)
NOT_A_GAME = Message(
    "wien_not_a_game", "{value} is not a game: a suit game C, S, D, H or a premium game 5..8"
)
DEFENCE_VALUE = Message(
    "wien_defence_value", "defence must be play, home, invite or alone, not {value}"
)
NEGOTIATE_SHAPE = Message(
    "wien_negotiate_shape", 'negotiate is {{"declarer": d, "defender": n}} with whole numbers'
)

# --- an action refused in play (play.py) ------------------------------------------------------

HAND_OVER = Message("wien_hand_over", "the hand is over; no more actions", IllegalAction)
NO_SUCH_SEAT = Message(
    "wien_no_such_seat", "there is no seat named {seat} at this table", IllegalAction
)
SITS_OUT = Message("wien_dealer_sits_out", "{seat} deals and sits out this hand", NotYourTurn)
NOT_YOUR_TURN = Message("wien_not_your_turn", "it is {to_act}'s turn, not {seat}'s", NotYourTurn)
CARD_NOT_HELD = Message("wien_card_not_held", "{seat} does not hold {card}", IllegalAction)
DISCARD_FROM_HAND = Message(
    "wien_discard_from_hand", "{seat} must discard two cards from the hand: {cards}", IllegalAction
)
NO_PROPOSAL = Message(
    "wien_no_proposal",
    "no proposal is possible now (only the declarer before the first card, one counter "
    "proposal, and only when one defender plays alone)",
    IllegalAction,
)
SPLIT_TERMS = Message(
    "wien_split_terms",
    "a split gives the defender 2 to 4 tricks and the declarer the rest of the 10",
    IllegalAction,
)
NOBODY_HOME = Message(
    "wien_nobody_home",
    "nobody may stay home: the pot holds only the dealer's contribution, so both defenders "
    "must play",
    IllegalAction,
)

PHASE_WORDS: dict[str, str] = {
    "auction": "call",
    "geschaeft": "name the Geschäft suit",
    "talon": "discard two cards",
    "declare": "declare the game",
    "look": "say whether to look into the talon (Nachschauen)",
    "defence": "choose play or home",
    "invite": "invite the other defender or play alone",
    "play": "play a card",
    "offer": "answer the proposed split (accept true or false, or one counter proposal)",
}
"""What the player to act is asked, by phase (``offer``: card play with a proposed split on the
table), as the refusals say it."""

NOT_NOW: dict[str, Message] = {
    key: Message(
        f"wien_not_now_{key}",
        f"{{seat}} cannot do that now: it is time to {words}",
        IllegalAction,
    )
    for key, words in PHASE_WORDS.items()
}
"""``{seat} cannot do that now: it is time to …``, by phase: an action the phase does not ask
for."""
MUST: dict[str, Message] = {
    key: Message(f"wien_must_{key}", f"{{seat}} must {PHASE_WORDS[key]}", IllegalAction)
    for key in ("defence", "invite")
}
"""``{seat} must …``: a defence choice the phase does not offer."""
MUST_ONE_OF: dict[str, Message] = {
    key: Message(
        f"wien_must_{key}_one_of", f"{{seat}} must {PHASE_WORDS[key]}: {{legal}}", IllegalAction
    )
    for key in PHASE_WORDS
    if key not in ("talon", "play")
}
"""``{seat} must …: {legal}``: the phase's action with a value it does not allow (``legal``: the
values it does; a card and a discard have their own sentences)."""

# --- the auction's ladder (play.py, ``_why_call``) --------------------------------------------

NO_NUMBER_AFTER = Message("wien_no_number_after", "no number bids after {high}", IllegalAction)
FOUR_IS_HIGHEST = Message("wien_four_is_highest", "4 is the highest number bid", IllegalAction)
NEXT_NUMBER = Message(
    "wien_next_number", "the next number bid is {next}, not {call}", IllegalAction
)
ONLY_HOLDER = Message("wien_only_holder", "only the holder ({holder}) may hold", IllegalAction)
NOTHING_TO_HOLD = Message(
    "wien_nothing_to_hold",
    "hold takes over another player's number bid, and there is none to hold",
    IllegalAction,
)
HOLDS_HIGHEST = Message(
    "wien_holds_highest", "{seat} already has the highest bid and cannot hold it", IllegalAction
)
FIRST_CALL_ONLY = Message(
    "wien_first_call_only",
    "{call} is allowed only as a player's first call, and {seat} has already called",
    IllegalAction,
)
CALL_NOT_HIGHER = Message(
    "wien_call_not_higher",
    "{call} must be higher than the highest call so far ({high})",
    IllegalAction,
)

# --- score-sheet entries and finished hands (record.py) ---------------------------------------

TRICKS_NOT_OBJECT = Message(
    "wien_tricks_not_object", "tricks must map player names to trick counts"
)
TRICKS_SITS_OUT = Message("wien_tricks_sits_out", "{seat} sits out this deal")
TRICKS_NOT_A_SEAT = Message("wien_tricks_not_a_seat", "{seat} is not a seat")
TRICK_COUNT = Message("wien_trick_count", "a trick count is a whole number 0..10, not {count}")
AUSFECHTEN_NO_KEY = Message("wien_ausfechten_no_key", "an Ausfechten has no {key}")
NEGOTIATED_ONLY_SUIT = Message(
    "wien_negotiated_only_suit", "only a suit game with one defender can be negotiated"
)
AUSFECHTEN_ALL_PLAY = Message(
    "wien_ausfechten_all_play",
    "in an Ausfechten all three players play: give {seat}'s tricks",
)
PREMIUM_ALL_PLAY = Message(
    "wien_premium_all_play", "in a premium game all three players play: give {seat}'s tricks"
)
PLAYER_NEEDS_TRICKS = Message(
    "wien_player_needs_tricks",
    "every player who played needs a trick count: give {seat}'s tricks",
)
AUSFECHTEN_TRICKS_SUM = Message(
    "wien_ausfechten_tricks_sum",
    "the tricks of an Ausfechten must add up to {total}, not {given}",
)
SUIT_TRICKS_SUM = Message(
    "wien_suit_tricks_sum", "the tricks of a suit game must add up to {total}, not {given}"
)
PREMIUM_NO_DEFENCE = Message(
    "wien_premium_no_defence", "in a premium game everybody plays; omit defence"
)
TEN_TRICKS = Message("wien_ten_tricks", "a hand has 10 tricks, not {total}")
MISERE_TRICKS = Message(
    "wien_misere_tricks",
    "a misère ends with the declarer's first trick: the declarer has 0 tricks of 10, or 1 "
    "trick when play stopped there",
)
SLAM_TRICKS = Message(
    "wien_slam_tricks",
    "a slam ends with the defenders' first trick: the defenders have 0 tricks (declarer 10), "
    "or 1 when play stopped there",
)
DEFENCE_CHOICES = Message(
    "wien_defence_choices", "defence must give the choice of {first} and {second}"
)
DEFENCE_CHOICE = Message("wien_defence_choice", "{choice} is not play, home, invite or invited")
INVITATION_PAIR = Message(
    "wien_invitation_pair",
    "an invitation needs one defender with invite and the other with invited",
)
BOTH_HAD_TO_PLAY = Message(
    "wien_both_had_to_play",
    "the pot held only the dealer's contribution, so both defenders had to play",
)
HOME_NO_TRICKS = Message("wien_home_no_tricks", "{seat} stayed home and took no tricks")
NOTHING_TO_NEGOTIATE = Message(
    "wien_nothing_to_negotiate", "both defenders stayed home: nothing to negotiate"
)
SPLIT_ONE_DEFENDER = Message(
    "wien_split_one_defender",
    "a split is agreed only with one defender playing and one at home",
)
SPLIT_RANGE = Message("wien_split_range", "an agreed split gives the defender 2 to 4 tricks")
GAME_NOT_OBJECT = Message("wien_game_not_object", 'game must be an object with a "type"')
AUSFECHTEN_ONLY_TYPE = Message("wien_ausfechten_only_type", "an Ausfechten game has only a type")
SUIT_GAME_SHAPE = Message(
    "wien_suit_game_shape",
    'a suit game is {{"type": "suit", "level": "C|S|D|H", "talon": true|false}}',
)
SUIT_GAME_LEVEL = Message(
    "wien_suit_game_level", "a suit game's level is C, S, D or H, not {level}"
)
PREMIUM_GAME_SHAPE = Message(
    "wien_premium_game_shape",
    'a premium game is {{"type": "premium", "level": 5..8, "hand": true|false}}',
)
PREMIUM_GAME_LEVEL = Message(
    "wien_premium_game_level", "a premium game's level is 5, 6, 7 or 8, not {level}"
)
GAME_TYPE = Message("wien_game_type", "game type must be suit, premium or ausfechten, not {kind}")
HAND_NOT_FINISHED = Message(
    "wien_hand_not_finished", "the hand is not finished: {seat} is to act ({phase})"
)
