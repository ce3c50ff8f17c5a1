"""Every refusal of ``preferans`` (``engine.errors.Message``): a stable code prefixed
``preferans_`` and the English sentence with named placeholders. The API renders them in the
reader's language from the code (``config.i18n.engine_text``). Refusals the core words the
same (``rules must be an object``) are the core's (:mod:`engine.messages`).

A refusal whose English sentence ends in a phrase that changes with the phase or the reason
(``it is anna's turn to call``, ``bert cannot hold: nobody has bid yet``) is one message per
phrase, so that each is translated whole: :data:`NOT_YOUR_TURN`, :data:`WRONG_ACTION` and
:data:`DEAL_UNFINISHED` by phase, the hold and half-whist refusals by reason.
"""

from __future__ import annotations

from engine.errors import IllegalAction, Message, NotYourTurn

# --- the actions of a deal (actions.py) -----------------------------------------------------

CALL_UNKNOWN = Message(
    "preferans_call_unknown", "a call is pass, 6S … 10NT, misere or hold, not {value}"
)
DISCARD_TWO_CARDS = Message("preferans_discard_two_cards", "a discard names exactly two cards")
DECLARE_SHAPE = Message(
    "preferans_declare_shape",
    'declare is {{"type": "contract", "level": 6..10, "strain": S C D H NT}}',
)
DECLARE_LEVEL = Message("preferans_declare_level", "level must be 6 to 10, not {level}")
DECLARE_STRAIN = Message(
    "preferans_declare_strain", "strain must be S, C, D, H or NT, not {strain}"
)
WHIST_UNKNOWN = Message("preferans_whist_unknown", "whist is whist, pass or half, not {value}")
MODE_UNKNOWN = Message("preferans_mode_unknown", "mode is open or closed, not {value}")

# --- a deal (hand.py) -----------------------------------------------------------------------

DEAL_OVER = Message("preferans_deal_over", "the deal is over; no more actions", IllegalAction)
NO_SUCH_SEAT = Message(
    "preferans_no_such_seat", "there is no seat named {seat} at this table", IllegalAction
)
DEALER_SITS_OUT = Message(
    "preferans_dealer_sits_out", "{seat} deals and sits out this deal", NotYourTurn
)

#: What the hand due is to do in each phase, as the sentences below say it.
_DUE = {
    "auction": ("call", "call"),
    "discard": ("discard", "discard two cards"),
    "declare": ("declare", "declare the contract"),
    "whist": ("whist", "whist or pass"),
    "mode": ("mode", "choose open or closed play"),
    "play": ("play", "play a card"),
}
NOT_YOUR_TURN: dict[str, Message] = {
    phase: Message(
        f"preferans_not_your_turn_{name}",
        f"it is {{due}}'s turn to {words}, not {{seat}}'s",
        NotYourTurn,
    )
    for phase, (name, words) in _DUE.items()
}
"""By phase: another seat (``due``) is to act, not ``seat``."""
WRONG_ACTION: dict[str, Message] = {
    phase: Message(
        f"preferans_wrong_action_{name}",
        f"{{seat}} cannot do that now: it is time to {words}",
        IllegalAction,
    )
    for phase, (name, words) in _DUE.items()
}
"""By phase: ``seat`` is due but sent an action of another phase."""
DEAL_UNFINISHED: dict[str, Message] = {
    phase: Message(
        f"preferans_deal_unfinished_{name}", f"the deal is not finished: {{due}} is to {words}"
    )
    for phase, (name, words) in _DUE.items()
}
"""By phase: a record's actions stop before the deal's end."""

MISERE_ONLY_PASS = Message(
    "preferans_misere_only_pass", "{seat} called misère and may only pass", IllegalAction
)
HOLD_NOT_PLAYED = Message(
    "preferans_hold_not_played",
    "{seat} cannot hold: hold is not played at this table",
    IllegalAction,
)
HOLD_NO_BID = Message(
    "preferans_hold_no_bid", "{seat} cannot hold: nobody has bid yet", IllegalAction
)
HOLD_MISERE = Message(
    "preferans_hold_misere", "{seat} cannot hold: misère cannot be held", IllegalAction
)
HOLD_SENIOR_ONLY = Message(
    "preferans_hold_senior_only",
    "{seat} cannot hold: only a senior player may hold a junior player's bid",
    IllegalAction,
)
HOLD_TWO_LEFT = Message(
    "preferans_hold_two_left",
    "{seat} cannot hold: hold is allowed only when two players are left in the auction",
    IllegalAction,
)
MISERE_FIRST_CALL_ONLY = Message(
    "preferans_misere_first_call_only",
    "{seat} cannot call misère: misère is only a player's first call",
    IllegalAction,
)
MISERE_OVER_HIGHER = Message(
    "preferans_misere_over_higher", "{seat} cannot call misère over a higher call", IllegalAction
)
BID_BELOW_EXIT = Message(
    "preferans_bid_below_exit",
    "{seat} cannot bid {call}: after {streak} raspasy in a row the lowest bid is a {minimum}",
    IllegalAction,
)
BID_ONE_STEP = Message(
    "preferans_bid_one_step",
    "{seat} cannot bid {call}: bids go up one step at a time, next is {next}",
    IllegalAction,
)
BID_NOT_HIGHER = Message(
    "preferans_bid_not_higher",
    "{seat} cannot bid {call}: it is not higher than the highest call",
    IllegalAction,
)
DISCARD_FROM_HAND = Message(
    "preferans_discard_from_hand",
    "{seat} must discard two cards of the hand: {cards}",
    IllegalAction,
)
DECLARE_BELOW_BID = Message(
    "preferans_declare_below_bid",
    "{seat} cannot declare {bid}: the contract may not be below {won}",
    IllegalAction,
)
HALF_SECOND_ONLY = Message(
    "preferans_half_second_only",
    "{seat} cannot call half (only the second defender may, after the first passed)",
    IllegalAction,
)
HALF_FIRST_WHISTED = Message(
    "preferans_half_first_whisted",
    "{seat} cannot call half (the first defender whisted)",
    IllegalAction,
)
HALF_LEVEL = Message(
    "preferans_half_level",
    "{seat} cannot call half (half-whist is only on a 6 or a 7)",
    IllegalAction,
)
HALF_NOT_PLAYED = Message(
    "preferans_half_not_played",
    "{seat} cannot call half (half-whist is not played at this table)",
    IllegalAction,
)
CARD_NOT_HELD = Message("preferans_card_not_held", "{seat} does not hold {card}", IllegalAction)

# --- the rules (rules.py) -------------------------------------------------------------------

LIST_BETWEEN = Message(
    "preferans_list_between",
    "{name} must be a non-empty list of whole numbers from {minimum} to {maximum}",
)
LIST_AT_LEAST = Message(
    "preferans_list_at_least", "{name} must be a non-empty list of whole numbers ≥ {minimum}"
)
LIST_ENTRY_BETWEEN = Message(
    "preferans_list_entry_between",
    "every entry of {name} must be a whole number from {minimum} to {maximum}, not {value}",
)
LIST_ENTRY_AT_LEAST = Message(
    "preferans_list_entry_at_least",
    "every entry of {name} must be a whole number ≥ {minimum}, not {value}",
)
RULES_VARIANT = Message("preferans_rules_variant", "variant must be {expected}, not {given}")
POOL_POINT_MULTIPLE = Message(
    "preferans_pool_point_multiple",
    "pool_point_whists must be a multiple of mountain_point_whists ({mountain}), not {pool}",
)

# --- the score sheet (sheet.py) -------------------------------------------------------------

SHEET_NOT_OBJECT = Message(
    "preferans_sheet_not_object", "the sheet must be an object with pool, mountain and whists"
)
SHEET_UNKNOWN_KEY = Message("preferans_sheet_unknown_key", "unknown sheet key {key}")
SHEET_NEEDS_POOL = Message("preferans_sheet_needs_pool", "the sheet needs its pool")
SHEET_NEEDS_MOUNTAIN = Message("preferans_sheet_needs_mountain", "the sheet needs its mountain")
NOT_A_SEAT = Message("preferans_not_a_seat", "{key} is not a seat at this table")
POOL_NOT_OBJECT = Message(
    "preferans_pool_not_object", "the pool must be an object naming every seat"
)
MOUNTAIN_NOT_OBJECT = Message(
    "preferans_mountain_not_object", "the mountain must be an object naming every seat"
)
POOL_MISSING_SEAT = Message(
    "preferans_pool_missing_seat", "the pool must name every seat, {seat} too"
)
MOUNTAIN_MISSING_SEAT = Message(
    "preferans_mountain_missing_seat", "the mountain must name every seat, {seat} too"
)
POOL_ENTRY = Message("preferans_pool_entry", "a pool entry must be a whole number, not {value}")
MOUNTAIN_ENTRY = Message(
    "preferans_mountain_entry", "a mountain entry must be a whole number, not {value}"
)
POOL_NEGATIVE = Message("preferans_pool_negative", "a pool is never below 0, not {pool}")
POOL_ABOVE_TARGET = Message(
    "preferans_pool_above_target",
    "a pool never exceeds the pool target {target} when pools are closed, not {pool}",
)
WHISTS_NOT_OBJECT = Message(
    "preferans_whists_not_object", "whists must be an object {{writer: {{target: whists}}}}"
)
WRITER_WHISTS_NOT_OBJECT = Message(
    "preferans_writer_whists_not_object", "a writer's whists must be an object"
)
WHISTS_ON_SELF = Message("preferans_whists_on_self", "nobody writes whists on himself")
WHISTS_VALUE = Message("preferans_whists_value", "whists are a whole number ≥ 0, not {value}")

# --- a score-sheet entry (scoring.py) -------------------------------------------------------

GAME_OVER = Message(
    "preferans_game_over", "the game is over on this sheet: no further deal can be scored"
)
NO_POT = Message("preferans_no_pot", "preferans keeps no pot: its records have no 'pot'")
ENTRY_UNKNOWN_KEY = Message(
    "preferans_entry_unknown_key", "unknown key {key} in a preferans score-sheet entry"
)
ENTRY_NEEDS_GAME = Message("preferans_entry_needs_game", "a score-sheet entry names its game")
GAME_SHAPE = Message(
    "preferans_game_shape",
    "game must be an object whose type is 'contract', 'misere' or 'raspasy'",
)
GAME_KEY: dict[str, Message] = {
    kind: Message(f"preferans_{kind}_game_key", f"a {kind} game has no {{key}}")
    for kind in ("contract", "misere", "raspasy")
}
"""By the game's type: a key the game form does not have."""
CONTRACT_LEVEL = Message(
    "preferans_contract_level", "a contract level is a whole number 6 to 10, not {level}"
)
GAME_STRAIN = Message("preferans_game_strain", "the strain must be S, C, D, H or NT, not {strain}")
CONTRACT_BELOW_EXIT = Message(
    "preferans_contract_below_exit",
    "after {streak} raspasy in a row no contract below {minimum} can be bid (§8.4), "
    "so {contract} cannot have been played",
)
TRICKS_NOT_OBJECT = Message(
    "preferans_tricks_not_object", "tricks must be an object {{seat: tricks}}"
)
TRICKS_NOT_PLAYER = Message(
    "preferans_tricks_not_player", "{key} took no part in the play of this deal"
)
TRICKS_MISSING_PLAYER = Message(
    "preferans_tricks_missing_player", "tricks must name every player, {seat} too"
)
TRICKS_VALUE = Message("preferans_tricks_value", "tricks are a whole number 0 to 10, not {value}")
TRICKS_SUM = Message("preferans_tricks_sum", "the tricks must add up to 10, not {total}")
RASPASY_KEY = Message("preferans_raspasy_key", "raspasy has no {key}")
RASPASY_NEEDS_TRICKS = Message(
    "preferans_raspasy_needs_tricks", "raspasy is always played out: tricks are required"
)
MISERE_NO_WHIST_KEY = Message(
    "preferans_misere_no_whist_key", "misère has no whist step, so no {key}"
)
MISERE_NEEDS_TRICKS = Message(
    "preferans_misere_needs_tricks", "misère is always played out: tricks are required"
)
CHECKED_TEN_NO_WHIST_KEY = Message(
    "preferans_checked_ten_no_whist_key",
    "a checked ten (ten_whisted is false) has no whist step, so no {key}",
)
CHECKED_TEN_NEEDS_TRICKS = Message(
    "preferans_checked_ten_needs_tricks",
    "a checked ten (ten_whisted is false) is always played out: tricks are required",
)
ENTRY_MODE = Message("preferans_entry_mode", "mode must be 'open' or 'closed', not {mode}")
MODE_LONE_WHISTER = Message("preferans_mode_lone_whister", "mode is chosen only by a lone whister")
WHISTED_NEEDS_TRICKS = Message(
    "preferans_whisted_needs_tricks", "a whisted contract is played out: tricks are required"
)
UNWHISTED_NO_TRICKS = Message(
    "preferans_unwhisted_no_tricks", "nothing is played when nobody whists: no tricks"
)
DEFENCE_SHAPE = Message(
    "preferans_defence_shape", "defence must name both defenders: {first} and {second}"
)
NOT_A_DEFENDER = Message("preferans_not_a_defender", "{key} is not a defender in this deal")
DEFENCE_CALL = Message(
    "preferans_defence_call", "{seat}'s call must be 'whist', 'pass' or 'half', not {call}"
)
HALF_BY_FIRST = Message("preferans_half_by_first", "only the second defender may half-whist")
HALF_AFTER_PASS = Message(
    "preferans_half_after_pass", "{seat} may half-whist only after the first defender passed"
)
HALF_ON_SIX_SEVEN = Message(
    "preferans_half_on_six_seven", "{seat} may half-whist only on a 6 or a 7"
)
HALF_NOT_AT_TABLE = Message(
    "preferans_half_not_at_table", "{seat} may half-whist not at this table (half_whist is false)"
)

# --- records: a pulya, a settlement, a full record (pulya.py, ruleset.py) -------------------

STREAK = Message("preferans_streak", "streak must be a whole number ≥ 0, not {streak}")
PULYA_NOT_OBJECT = Message("preferans_pulya_not_object", "a pulya must be an object")
PULYA_UNKNOWN_KEY = Message("preferans_pulya_unknown_key", "unknown key {key} in a preferans pulya")
SETTLEMENT_NOT_OBJECT = Message(
    "preferans_settlement_not_object", "a settlement record must be an object"
)
SETTLEMENT_UNKNOWN_KEY = Message(
    "preferans_settlement_unknown_key", "unknown key {key} in a preferans settlement"
)
SETTLEMENT_NEEDS_SHEET = Message(
    "preferans_settlement_needs_sheet", "a settlement needs the sheet to settle"
)
DEALS_NOT_LIST = Message(
    "preferans_deals_not_list", "deals must be a list of score-sheet entries and full records"
)
DEAL_AFTER_END = Message(
    "preferans_deal_after_end", "the game ended with deals[{last}]: no deal can follow"
)
DEAL_NOT_OBJECT = Message(
    "preferans_deal_not_object", "a deal must be an object: a score-sheet entry or a full record"
)
DEAL_ENVELOPE_KEY = Message(
    "preferans_deal_envelope_key", "a deal of a pulya takes no {key}: the pulya gives it"
)
DEAL_DEALER = Message(
    "preferans_deal_dealer", "{dealer} deals this deal by the rotation, not {given}"
)
DEAL_FORM = Message(
    "preferans_deal_form",
    "a deal is a score-sheet entry (with game) or a full record (deal and actions)",
)
DEAL_UNKNOWN_KEY = Message("preferans_deal_unknown_key", "unknown key {key} in a deal of a pulya")
