"""The core's refusals (``engine.errors.Message``): reading cards, actions, options, tables,
deals and records, the trick obligations, the command line, the bots and the solver.

Each is a stable code (unprefixed: the core serves every rule set) and its English sentence
with named placeholders; the catalogs translate them (``engine/locale``, ``msgctxt``
``engine:<code>``). A rule set's own refusals stand in its package, prefixed with its name
(``wien_…``, ``family_…``). Parameters are the words of a record: seat names, card codes,
option and key names, numbers, and ``repr`` of a refused value.
"""

from __future__ import annotations

from engine.errors import EngineError, IllegalAction, Message

# --- cards (``engine.cards``) ----------------------------------------------------------------

NOT_A_CARD = Message("not_a_card", "{text} is not a card (write suit and rank, like HA, DT, C7)")
NOT_A_CARD_LIST = Message("not_a_card_list", "expected a list of cards")
CARD_TWICE = Message("card_twice", "{card} appears twice")
CARD_TOO_OFTEN = Message("card_too_often", "{card} appears more than {copies} times")

# --- actions (``engine.actions``) ------------------------------------------------------------

ACTION_NOT_OBJECT = Message(
    "action_not_object", 'an action must be an object like {{"seat": "anna", "call": "1"}}'
)
ACTION_WITHOUT_SEAT = Message("action_without_seat", 'an action needs a "seat" naming the player')
ACTION_KEYS = Message("action_keys", 'an action has "seat" and exactly one of {keys}; got {given}')

# --- options (``engine.options``, and rule sets reading their ``rules``) -----------------------

RULES_NOT_OBJECT = Message("rules_not_object", "rules must be an object")
UNKNOWN_RULE_OPTION = Message("unknown_rule_option", "unknown rule option {option} for {variant}")
KEY_REQUIRED = Message("required", "{key} is required")
"""A key a record or a ``rules`` object must give (``rules``, ``pot_cap``, ``tricks``)."""
NOT_BOOLEAN = Message("not_boolean", "{key} must be true or false")
"""A key of a record or an action whose value is not ``true`` or ``false``."""
OPTION_NOT_BOOLEAN = Message("option_not_boolean", "{name} must be true or false, not {value}")
OPTION_NOT_CHOICE = Message("option_not_choice", "{name} must be one of {choices}, not {value}")

_BOUNDS = {
    "": "",
    "min": " of at least {minimum}",
    "max": " of at most {maximum}",
    "range": " from {minimum} to {maximum}",
}


def _whole_number(unit: bool, bounds: str, multiple: bool, nullable: bool) -> Message:
    code = "option_whole_number"
    what = "a whole number"
    if unit:
        code += "_unit"
        what += " of {unit}"
    if bounds:
        code += f"_{bounds}"
    what += _BOUNDS[bounds]
    if multiple:
        code += "_multiple"
        what += " divisible by {multiple_of}"
    if nullable:
        code += "_nullable"
        what += " or null"
    return Message(code, f"{{name}} must be {what}, not {{value}}")


OPTION_WHOLE_NUMBER: dict[tuple[bool, str, bool, bool], Message] = {
    (unit, bounds, multiple, nullable): _whole_number(unit, bounds, multiple, nullable)
    for unit in (False, True)
    for bounds in _BOUNDS
    for multiple in (False, True)
    for nullable in (False, True)
}
"""``{name} must be a whole number of {unit} of at least {minimum} divisible by {multiple_of}
or null, not {value}``, one message for each shape of an integer option (``Option.what``), by
whether it has a unit, its bounds (``""``, ``"min"``, ``"max"``, ``"range"``), whether it has
a ``multiple_of`` and whether it may be null: each a sentence a translation says whole."""

# --- tables and deals (``engine.table``) -----------------------------------------------------

DECLARER_MISSING = Message(
    "declarer_missing", "declarer is missing: name the seat that played the game"
)
DECLARER_MISSING_CONTRACT = Message(
    "declarer_missing_contract", "declarer is missing: name the seat that played the contract"
)
DECLARER_SITS_OUT = Message(
    "declarer_sits_out", "the declarer {declarer} deals and sits out this deal"
)
DECLARER_NOT_ACTIVE = Message(
    "declarer_not_active",
    "the declarer must be one of the active players ({players}), not {declarer}",
)
SEATS_COUNT = Message("seats_count", "seats must list {counts} player names in playing order")
SEATS_NOT_UNIQUE = Message("seats_not_unique", "seat names must be unique")
SEAT_NAME_RESERVED = Message("seat_name_reserved", "{name} is reserved and cannot name a seat")
SEAT_NAMES_RESERVED = Message("seat_names_reserved", "{names} are reserved and cannot name a seat")
DEALER_NOT_A_SEAT = Message("dealer_not_a_seat", "the dealer {dealer} is not one of the seats")
DEAL_RECIPIENTS = Message("deal_recipients", "the deal must name exactly {recipients}, not {given}")
DEAL_SIZE = Message("deal_size", "{name} must have {size} cards, not {count}")
DEALT_TWICE = Message("dealt_twice", "{cards} dealt twice")
DEALT_TOO_OFTEN = Message("dealt_too_often", "{cards} dealt more than {copies} times")
DEAL_NOT_OBJECT = Message("deal_not_object", "deal must map each active player to cards")
DEAL_NOT_OBJECT_PILES = Message(
    "deal_not_object_piles", "deal must map each active player and {piles} to cards"
)
DEAL_STRANGER = Message("deal_stranger", "{key} does not receive cards in this deal")
DEAL_MISSING = Message("deal_missing", "the deal has no cards for {key}")

# --- trick play (``engine.tricks``: the obligation a card broke) -----------------------------

MUST_FOLLOW_SUIT = Message(
    "must_follow_suit", "{seat} must follow suit {suit}: {cards}", IllegalAction
)
MUST_BEAT_IN_SUIT = Message(
    "must_beat_in_suit", "{seat} must beat the trick in {suit}: {cards}", IllegalAction
)
MUST_BEAT_IN_SUIT_LOWEST = Message(
    "must_beat_in_suit_lowest",
    "{seat} must beat the trick in {suit} with the lowest card that does (Largierpflicht): {cards}",
    IllegalAction,
)
MUST_TRUMP = Message(
    "must_trump",
    "{seat} has no {suit} and must play a trump ({trump}): {cards}",
    IllegalAction,
)
MUST_BEAT_WITH_TRUMP = Message(
    "must_beat_with_trump",
    "{seat} has no {suit} and must beat the trick with a trump: {cards}",
    IllegalAction,
)
MUST_BEAT_WITH_TRUMP_LOWEST = Message(
    "must_beat_with_trump_lowest",
    "{seat} has no {suit} and must beat the trick with a trump with the lowest card that does "
    "(Largierpflicht): {cards}",
    IllegalAction,
)
MAY_PLAY_ANY_CARD = Message("may_play_any_card", "{seat} may play any card", IllegalAction)

# --- records (``engine.record``, ``engine.ruleset``) -----------------------------------------

RECORD_NOT_OBJECT = Message("record_not_object", "a record must be a JSON object")
ANSWER_RECORD_NOT_OBJECT = Message("answer_record_not_object", "record must be a JSON object")
"""The ``record`` inside the API's answer to ``GET …/hands/{n}/record/``."""
RECORDED_HAND_NOT_DEALT = Message(
    "recorded_hand_not_dealt",
    "a recorded hand was played with real cards: it has no deal to verify",
)
UNKNOWN_RECORD_KEY = Message("unknown_record_key", "unknown key {key} in this record")
DEAL_REQUIRED = Message("deal_required", "deal is required in a full record")
ACTIONS_NOT_LIST = Message("actions_not_list", "actions must be a list")
HAND_NOT_REVEALED = Message(
    "hand_not_revealed", "the hand is not finished, so its deal is not revealed yet"
)
PROOF_SHAPE = Message("proof_shape", 'proof must be {{"commitment", "salt", "deck"}}')
PROOF_SALT = Message("proof_salt", "salt must be 64 lowercase hex digits")
PROOF_DECK = Message("proof_deck", "the deck must list all {size} cards once")
PROOF_DECK_COPIES = Message(
    "proof_deck_copies", "the deck must list all {size} cards {copies} times each"
)
PROOF_COMMITMENT = Message("proof_commitment", "the commitment does not match salt and deck")
PROOF_PILE_ORDER = Message(
    "proof_pile_order", "{pile}'s cards are not in the order of the committed deck"
)
PROOF_CARDS = Message("proof_cards", "{key}'s cards do not follow from the committed deck")

# --- the command line (``engine.__main__``) --------------------------------------------------

CLI_CANNOT_READ = Message("cli_cannot_read", "cannot read {path}: {reason}")
CLI_NOT_JSON = Message("cli_not_json", "not valid JSON: {reason} at line {line} column {column}")
CLI_RULES_NOT_JSON = Message("cli_rules_not_json", "--rules is not valid JSON: {reason}")
CLI_RULES_NOT_OBJECT = Message("cli_rules_not_object", "--rules must be a JSON object")
CLI_DEALS_TOO_FEW = Message("cli_deals_too_few", "--deals must be at least 1")
CLI_JOBS_TOO_FEW = Message("cli_jobs_too_few", "--jobs must be at least 1")

# --- bots (``engine.bots``) ------------------------------------------------------------------

BOT_CHOSE_NOTHING = Message("bot_chose_nothing", "a bot chose nothing at {seat}")
NOBODY_CHOSE = Message("nobody_chose", "nobody chose at {seat}")
ARENA_BOT_COUNT = Message(
    "arena_bot_count", "{rule_set} seats {seats}: name {seats} bots (a level may repeat)"
)
UNKNOWN_BOT = Message("unknown_bot", "{rule_set} has no bot {name}: its levels are {levels}")

# --- the solver (``engine.solver``) ----------------------------------------------------------

SOLVER_HAND_OVER = Message("solver_hand_over", "the hand is over: there is no card left to play")
SOLVER_NOT_CARD_PLAY = Message(
    "solver_not_card_play",
    "the record does not stop in card play (a card must be the next action), or "
    "{rule_set}'s game here is not one the solver plays",
)
ANALYSIS_HAND_NOT_OVER = Message(
    "analysis_hand_not_over", "the hand is not over: it is analysed once it ends"
)


def relocated(error: EngineError, at: str) -> EngineError:
    """``error`` (its class, code and parameters) at another place ``at``: a refusal a caller
    names more precisely (``actions[3]``)."""
    return type(error)(at, error.message, code=error.code, params=error.params)
