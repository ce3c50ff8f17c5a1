"""The seam between the core and the rule sets: what every rule set answers.

The core (cards, tables, tricks, records, dispatch) knows no rule set. A rule set is a package
under ``engine/rules/`` that builds one :class:`RuleSet` value and is registered by its name
(``engine.rules``: ``rule_set("wien")``), the way OpenSpiel registers a game and python-chess
finds a variant. ``engine.new_hand``, ``legal_actions``, ``apply``, ``view``, ``replay`` and
``settle`` look the rule set up by the ``variant`` of the state's or record's rules and ask it.

A rule set gives data (its deck, table shape, dealing, what carries between deals and in which
unit, example rules) and answers questions about its own hand states (who may act, what they
may do, what happens, what a seat may see and know, what a deal pays). ``engine/README.md``,
"Rule sets: the seam", maps the rule sets to come onto it.
"""

from __future__ import annotations

import random
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from engine.actions import Action, ActionForm, action_to_json
from engine.bots.belief import Belief
from engine.bots.policy import BotPolicy, Decide
from engine.cards import Deck
from engine.errors import EngineError
from engine.messages import ACTIONS_NOT_LIST, relocated
from engine.options import Option
from engine.sealing import SealedDeck
from engine.solver.position import Position
from engine.table import Dealing, TableShape


class RuleOptions(Protocol):
    """A rule set's ``Rules`` value: its validated options, naming the variant."""

    @property
    def variant(self) -> str: ...

    def to_json(self) -> dict[str, Any]:
        """The full ``rules`` object of a record, defaults spelled out; an option without a
        value is left out where its page has no ``null`` for it (Preferans's
        ``whist_value``)."""
        ...


class HandState(Protocol):
    """What the core reads of any rule set's hand state (an immutable value)."""

    @property
    def rules(self) -> RuleOptions: ...

    @property
    def seats(self) -> tuple[str, ...]: ...

    @property
    def dealer(self) -> str: ...

    @property
    def active(self) -> tuple[str, ...]: ...

    @property
    def history(self) -> tuple[Action, ...]: ...

    @property
    def is_over(self) -> bool: ...


class HasRules(Protocol):
    """A rule set's outcome of a deal: what a score sheet records, naming its rules."""

    @property
    def rules(self) -> RuleOptions: ...


StateT = TypeVar("StateT", bound=HandState)
RulesT = TypeVar("RulesT", bound=RuleOptions)
OutcomeT = TypeVar("OutcomeT", bound=HasRules)


@dataclass(frozen=True, slots=True)
class Carry:
    """What a table carries from one deal to the next, and the unit of its results.

    ``keys``: the record keys that hold it before a deal (all required; ``("pot",)`` for
    ``wien``); ``optional``: keys that may be left out (a Preferans ``streak`` and ``sheet``);
    ``unit``: ``"cents"`` (money) or ``"points"`` (a score sheet); ``party``: its name as a
    party to transfers (``"pot"``, ``"kasse"``), ``None`` when it is none.
    """

    keys: tuple[str, ...]
    unit: str
    party: str | None
    optional: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Closing:
    """Closing a table (the end of a sitting): the ``transfers`` it makes (a pot shared out)
    and what carries to the table's next sitting (``carry``: the record keys of
    :attr:`Carry.keys`)."""

    transfers: tuple[dict[str, Any], ...]
    carry: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableRound:
    """Where a table stands in its rule set's round of deals before its next deal
    (:meth:`RuleSet.table_round`): who deals it, what it carries besides what the last deal
    left (:meth:`RuleSet.carry_after`), and the round as the API shows it (``status``)."""

    dealer: str
    carry: dict[str, Any]
    status: dict[str, Any]
    completed: int = 0
    """The rounds completed so far (a tournament's table plays one)."""


@dataclass(frozen=True, slots=True)
class Common:
    """The record envelope, checked: a rule set's options, the seats, the dealer, the
    carry."""

    rules: Any
    seats: tuple[str, ...]
    dealer: str
    carry: Any


@dataclass(frozen=True, slots=True)
class Shapes:
    """What a rule set's hands look like through the API, as plain JSON-Schema data (the way
    its action forms already are): the server's schema is generated from it
    (``<Variant>HandView``, ``<Variant>Result``, ``<Variant>Game``, ``<Variant>SheetRow``) and
    the strict schema check holds every key a rule set emits to it.

    ``view`` and ``result``: the keys a seat's view and a deal's ``Result`` carry beyond the
    keys the server documents for every rule set (a view's ``seat``, ``phase``, ``to_act``,
    ``rules``, ``seats``, ``dealer``, ``active``, ``hand``, ``hand_sizes``, ``actions``,
    ``declarer``, ``game``, ``trick``, ``last_trick``, ``tricks`` (seat → tricks won),
    ``legal`` and ``deal``, each optional; a Result's ``stake``, ``declarer``, ``game``,
    ``made``, ``fallen``, ``tricks``, ``delta``, ``pot`` and ``transfers``), as
    ``{"properties": {key: schema}, "required": [key, …]}`` (``required``: the keys the
    engine always writes); a key of both replaces the server's (Doppelkopf's ``tricks``, the
    tricks themselves). ``games``: the forms of a ``game`` object (each an object schema whose
    ``type`` property has one value; a view's game may carry more than a Result's, as
    optional keys); ``sheet_row``: the rule set's part of a row of a table's running score
    sheet (:meth:`RuleSet.sheet_rows`), in the form of ``result``, ``None`` when it has none;
    ``reasons``: every ``why`` word the transfers of its deals and of closing its table use;
    ``end_public``: the view keys the end of a hand makes public to a seat even while the
    board is withheld (duplicate: other tables still play it); ``kept_open``: view keys that
    map seat → cards (hands that lie open) which a withheld view keeps only for the seats they
    already showed before the last action, with the cards those seats hold at the end;
    ``round``: where a table stands in the rule set's round of deals as the API shows it
    (:attr:`TableRound.status`, ``<Variant>TableRound``), ``None`` where it keeps no rounds
    (:attr:`RuleSet.round_deals`); ``legacy_sheet_key``: the deprecated key of API 1.x under
    which a score-sheet row held the rule set's part before ``details`` (Preferans's
    ``pulya``), where the server repeats ``details`` until API 3.0 drops it; ``None`` where
    API 1.x had none (every rule set to come). The schemas are JSON Schema in the OpenAPI 3.0
    dialect (``nullable``), as the options' are.
    """

    view: Mapping[str, Any] = field(default_factory=dict)
    result: Mapping[str, Any] = field(default_factory=dict)
    games: tuple[Mapping[str, Any], ...] = ()
    sheet_row: Mapping[str, Any] | None = None
    reasons: tuple[str, ...] = ()
    end_public: tuple[str, ...] = ()
    kept_open: tuple[str, ...] = ()
    round: Mapping[str, Any] | None = None
    legacy_sheet_key: str | None = None


# JSON Schema in the OpenAPI 3.0 dialect (``nullable``), as the options write theirs
# (``engine.options``): the pieces the rule sets' :class:`Shapes` are made of.

SEAT_SCHEMA: Mapping[str, Any] = {"type": "string", "description": "A seat's key."}
CARDS_SCHEMA: Mapping[str, Any] = {
    "type": "array",
    "items": {"type": "string"},
    "description": "Card codes.",
}


def object_schema(
    properties: Mapping[str, Any],
    *,
    required: Sequence[str] | None = None,
    description: str = "",
) -> dict[str, Any]:
    """An object of exactly ``properties`` (``required``: all of them unless given)."""
    out: dict[str, Any] = {
        "type": "object",
        "properties": dict(properties),
        "required": list(properties if required is None else required),
        "additionalProperties": False,
    }
    if description:
        out["description"] = description
    return out


def by_seat(value: Mapping[str, Any], description: str) -> dict[str, Any]:
    """An object from seat keys to ``value``."""
    return {"type": "object", "additionalProperties": dict(value), "description": description}


def nullable(schema: Mapping[str, Any], description: str = "") -> dict[str, Any]:
    """``schema`` or ``null``."""
    out = {**schema, "nullable": True}
    if description:
        out["description"] = description
    return out


def game_form(game_type: str, description: str, /, **properties: Any) -> dict[str, Any]:
    """A form of a deal's ``game``: ``type`` ``game_type`` and ``properties`` (all required
    but those marked ``"x-optional": True``, a mark taken off here)."""
    shown = {k: {n: v for n, v in p.items() if n != "x-optional"} for k, p in properties.items()}
    required = ["type", *(k for k, p in properties.items() if not p.get("x-optional"))]
    return object_schema(
        {"type": {"type": "string", "enum": [game_type]}, **shown},
        required=required,
        description=description,
    )


@dataclass(frozen=True, slots=True)
class RuleSet(ABC, Generic[StateT, RulesT, OutcomeT]):
    """One rule set: its data, and the answers about its hands (``StateT``), its options
    (``RulesT``) and its outcomes (``OutcomeT``, a deal as a score sheet records it)."""

    name: str
    description: str
    deck: Deck
    table: TableShape
    dealing: Dealing
    carry: Carry
    sheet_keys: frozenset[str]
    examples: tuple[dict[str, Any], ...] = field(default=())
    """Example ``rules`` objects, the first the default one (CLI, documentation, tests)."""
    house: Mapping[str, Any] | None = None
    """The ``rules`` object of the rule set's house rule book, written out whole, where it has
    one (wien: ``seeds/000``): what a new club or tournament plays when it is the first rule set
    registered and its organiser names none (:func:`engine.rules.house_rules`)."""
    carry_examples: tuple[dict[str, Any], ...] = field(default=())
    """Example carries before a deal (tests)."""
    options: tuple[Option, ...] = field(default=())
    """The options of the rule set's ``rules`` (``engine.options``): what ``python -m engine
    rules`` lists and the API's schema of a table's rules documents."""
    phases: tuple[str, ...] = field(default=())
    """The names of the phases a hand goes through (a view's ``phase``), the last the end:
    the API documents a hand's phase as one of every rule set's."""
    vocabulary: tuple[ActionForm, ...] = field(default=())
    """Every key of the rule set's actions and what its value may be (``engine.actions``):
    the API documents an action body as one of them; the conformance suite checks every legal
    action against its form."""
    ordered_piles: tuple[str, ...] = ()
    """The piles whose order matters (Preferans's talon: its first card is turned first):
    :meth:`start_hand` receives them in order, :meth:`dealt` writes them back so, and
    ``verify`` compares them card by card (other recipients as multisets)."""
    legal_with_seat: bool = False
    """Whether ``python -m engine legal`` writes each legal action whole, ``seat`` included
    (Preferans, §13: the whister sends the passer's cards, so the seat says whose hand)."""
    round_deals: int | None = None
    """The deals that count towards a round where a table keeps rounds of deals beyond the
    dealer moving on each deal (:meth:`table_round`: Doppelkopf under the DDV rules, 24, with
    a Pflichtsolo each not counted); ``None``: no rounds."""
    score_unit: str | None = None
    """The unit of a sitting's score where the rule set scores a sitting besides its money
    (Preferans: ``"whists"``, the pulya settled as a whole, :meth:`sitting_score`; Doppelkopf
    under the DDV rules: ``"points"``, the game points, summed deal by deal,
    :attr:`deal_scores`). ``None``: a sitting's result is its money, the sum of its deals'
    deltas and what its close moves."""
    shapes: Shapes = field(default_factory=Shapes)
    """The rule set's view, ``Result``, game forms, sheet row, transfer reasons and end-public
    view keys as JSON-Schema data (:class:`Shapes`)."""
    point_price: str | None = None
    """The option of its ``rules`` that prices one :attr:`score_unit` in cents (Preferans:
    ``whist_value``; DDV: ``point_value``), ``None`` where results are money already."""
    positions: tuple[str, ...] = ()
    """The names of the active positions of a deal, in order from the first active seat after
    the dealer (wien: ``forehand``, ``middlehand``, ``rearhand``): duplicate scoring compares
    the same position at every table playing a board."""
    statistics_keys: tuple[str, ...] = ("declarer", "made", "game")
    """The keys of its ``Result`` that :meth:`statistics` reads (its answer depends on them
    alone): a server summing a season's deals fetches only these of each stored ``Result`` and
    asks :meth:`statistics` once for each combination of their values."""
    deal_scores: bool = False
    """Whether a sitting's score is the sum of its deals' Result ``score`` (seat → points),
    not :meth:`sitting_score` of what the last deal left."""
    labels: Mapping[str, str] = field(default_factory=dict)
    """Display labels of the rule set's words, in English, by ``<kind>:<code>``: its game
    types (``game:<type>``), calls and bids (``call:<value>``), contracts, reservations,
    announcements and transfer reasons (``reason:<why>``). The codes stay what the API sends;
    the catalogs translate the labels (``engine/locale``, ``msgctxt``
    ``engine:<variant>:<kind>:<code>``) and ``docs/glossary.md`` lists them."""
    unlike_deals: str | None = None
    """Why the same deal played at two tables cannot be compared seat by seat (duplicate
    scoring), as a clause for a refusal, where the rule set settles deal by deal yet a deal's
    money hangs on the table's earlier deals (Doppelkopf's Kasse, refilled by all four when it
    runs short); ``None``: deals compare (a rule set with a :attr:`score_unit` is refused on
    that ground)."""

    # --- options and the table -------------------------------------------------------------

    @abstractmethod
    def parse_rules(self, data: Any) -> RulesT:
        """The validated options of a record's ``rules`` object (unknown options, bad values
        are errors naming them)."""

    @abstractmethod
    def read_carry(self, record: Mapping[str, Any]) -> Any:
        """The carry of a record (its :attr:`Carry.keys`), validated."""

    def describe(self) -> dict[str, Any]:
        """The rule set for listings: name, one line, players and seats, the unit of its
        results, its options with defaults, an example ``rules`` object."""
        return {
            "variant": self.name,
            "description": self.description,
            "players": self.table.players,
            "seats": list(self.table.seats),
            "unit": self.carry.unit,
            "score_unit": self.score_unit,
            "carry": list(self.carry.keys),
            "phases": list(self.phases),
            "sheet_keys": sorted(self.sheet_keys),
            "options": [o.to_json() for o in self.options],
            "actions": [
                {"key": f.key, "description": f.description, "value": dict(f.schema)}
                for f in self.vocabulary
            ],
            "example": self.examples[0] if self.examples else {"variant": self.name},
        }

    def stake(self, rules: RulesT, carry: Mapping[str, Any]) -> int | None:
        """What a game of the next deal is worth, in cents, where the rule set has one value
        for it (wien's stake S from the pot); ``None`` where it has none. Default: none."""
        return None

    def opening_carry(self, rules: RulesT, seats: Sequence[str]) -> dict[str, Any]:
        """What a new table carries into its first deal besides a pot (record keys of
        :attr:`Carry.optional`): Preferans's empty sheet and streak 0, so that help, the game
        end and the settlement at the close are computed from the first deal on. Default:
        nothing."""
        return {}

    def active_seats(self, seats: Sequence[str], dealer: str) -> tuple[str, ...]:
        """The active players of a deal, forehand first."""
        return self.table.active(seats, dealer)

    def first_dealer(self, draws: Mapping[str, str]) -> str:
        """Who deals first when each seat draws a card: the highest card in deck order."""
        return max(draws, key=lambda seat: self.deck.parse(draws[seat], f"draws.{seat}"))

    def draw_for_dealer(
        self, seats: Sequence[str], rng: random.Random | None = None
    ) -> dict[str, str]:
        """One card of the deck for each seat, drawn without putting back from ``rng`` (by
        default the system's secret source, as a server draws; tests pass a seeded one): the
        draw :meth:`first_dealer` reads."""
        cards = (rng or secrets.SystemRandom()).sample(list(self.deck.codes), len(seats))
        return dict(zip(seats, cards, strict=True))

    # --- dealing -------------------------------------------------------------------------

    def shuffled_deck(self, rng: random.Random | None = None) -> tuple[list[str], str]:
        """A shuffled order of the deck (every copy) and a fresh 64-hex-digit salt for its
        commitment, drawn from ``rng`` (by default the system's secret source, as a server
        deals; tests and duplicate boards pass their own)."""
        rng = rng or secrets.SystemRandom()
        order = list(self.deck.codes)
        rng.shuffle(order)
        salt = f"{rng.getrandbits(256):064x}"
        return order, salt

    def seal(self, rng: random.Random | None = None) -> SealedDeck:
        """A :meth:`shuffled_deck` drawn from ``rng`` (by default the system's secret source)
        with its salt and commitment: the secret a server deals a hand (or a duplicate board)
        from and publishes the commitment of before the first call."""
        order, salt = self.shuffled_deck(rng)
        return SealedDeck.of(order, salt)

    def reseal(self, order: Sequence[str], salt: str) -> SealedDeck:
        """The sealed deck of a deck order and salt kept from an earlier :meth:`seal` (a
        duplicate board dealt again at another table), with the same commitment."""
        return SealedDeck.of(order, salt)

    def deal_sealed(self, sealed: SealedDeck, active: Sequence[str]) -> dict[str, list[str]]:
        """Deal a sealed deck (:meth:`seal`, or a board's) to the active players and the
        piles."""
        return self.deal_from_deck(sealed.order, active)

    def is_card(self, value: object) -> bool:
        """Whether ``value`` is the code of a card of the rule set's deck."""
        return isinstance(value, str) and value in self.deck.codes

    def random_deal(
        self, seats: Sequence[str], dealer: str, rng: random.Random
    ) -> dict[str, list[str]]:
        """A deal of a :meth:`shuffled_deck` drawn from ``rng`` to the active seats of
        ``seats`` under ``dealer``, for a hand nobody needs to verify later (examples, demo
        data, simulations): no salt is kept."""
        order, _ = self.shuffled_deck(rng)
        return self.deal_from_deck(order, self.active_seats(seats, dealer))

    def deal_from_deck(self, order: Sequence[str], active: Sequence[str]) -> dict[str, list[str]]:
        """Deal a deck order to the active players and the piles."""
        return self.dealing.deal(order, active)

    # --- a hand --------------------------------------------------------------------------

    @abstractmethod
    def new_hand(
        self, rules: RulesT, seats: Sequence[str], dealer: str, carry: Any, deal: Mapping[str, int]
    ) -> StateT:
        """The state before the first action; ``deal`` maps each active player and pile to a
        card mask."""

    def start_hand(
        self, rules: RulesT, seats: Sequence[str], dealer: str, carry: Any, deal: Any
    ) -> StateT:
        """The state before the first action of a record's ``deal`` (each active player and
        pile to a list of codes, checked here). Default: read it as masks by :attr:`dealing`
        and call :meth:`new_hand`; a rule set whose pile order matters (Preferans's talon, its
        first card turned first) overrides it to keep the order of the lists."""
        active = self.active_seats(seats, dealer)
        masks = self.dealing.parse(deal, self.deck, active)
        return self.new_hand(rules, seats, dealer, carry, masks)

    @abstractmethod
    def to_act(self, state: StateT) -> frozenset[str]:
        """The seats that may act now (empty once the hand is over)."""

    def waiting_for(self, state: StateT) -> frozenset[str]:
        """The seats of :meth:`to_act` the hand waits for (a "your turn"): those whose move it
        needs to go on. Default: every seat that may act; a rule set whose seats may also act
        beside the turn (Doppelkopf's announcements) names the turn's seat only."""
        return self.to_act(state)

    def sender(self, state: StateT, seat: str) -> str:
        """The seat that may send an action whose ``seat`` (the hand it is about) is ``seat``.
        Default: each seat for itself; Preferans's lone whister sends the passer's cards in
        open play. :meth:`to_act` and :meth:`legal_actions` speak of senders: the actions in
        ``legal_actions(state, s)`` are those ``s`` may send, whatever hand they are about."""
        return seat

    @abstractmethod
    def legal_actions(self, state: StateT, seat: str | None) -> list[Action]:
        """Every action ``seat`` may take now, in a stable order (empty when it may not act);
        ``None``: the actions of every seat that may act now, seat by seat in playing order."""

    def legal_answer(self, state: StateT) -> dict[str, Any]:
        """``python -m engine legal``: ``{"to_act", "legal"}``, the first seat in seat order that
        may act and its legal actions (``to_act`` the hand they are about: Preferans's passer
        whose card the whister sends; each action whole with its ``seat`` where
        :attr:`legal_with_seat`). A rule set whose seats act beside the turn answers more
        (Doppelkopf under the DDV rules: every seat's ``announce`` actions)."""
        acting = self.to_act(state)
        seat = next((s for s in state.seats if s in acting), None)
        legal = [] if seat is None else self.legal_actions(state, seat)
        if legal:
            seat = legal[0].seat
        whole = self.legal_with_seat
        return {"to_act": seat, "legal": [action_to_json(a, self.deck, seat=whole) for a in legal]}

    @abstractmethod
    def apply(self, state: StateT, action: Action) -> StateT:
        """The state after ``action``; always validates and refuses with the rule in words."""

    def play_record_actions(self, state: StateT, actions: Any) -> StateT:
        """A record's ``actions`` applied in order from ``state``, each read by
        :meth:`action_from_json` and applied by :meth:`apply`; an error names ``actions[i]``
        (``engine.record.replay``, Preferans's deals of a pulya)."""
        if not isinstance(actions, list):
            raise ACTIONS_NOT_LIST.error("actions")
        for i, data in enumerate(actions):
            at = f"actions[{i}]"
            action = self.action_from_json(data, at)
            try:
                state = self.apply(state, action)
            except EngineError as e:
                raise relocated(e, at) from None
        return state

    @abstractmethod
    def view(self, state: StateT, seat: str | None) -> dict[str, Any]:
        """What ``seat`` may know, JSON-ready (``None``: a spectator); the only exit of hidden
        information."""

    @abstractmethod
    def known(self, state: StateT, seat: str | None) -> int:
        """The mask of cards ``seat`` may know now: its own cards and every card the rules have
        shown it (before the hand is over). A view shows no other card."""

    # --- records -------------------------------------------------------------------------

    @abstractmethod
    def action_from_json(self, data: Any, at: str) -> Action:
        """One action of the rule set's vocabulary; shape checked here, legality by
        :meth:`apply`."""

    def action_to_json(self, action: Action, *, seat: bool = True) -> dict[str, Any]:
        """The record form of ``action``, its cards as codes of the rule set's deck (without
        ``seat`` when ``seat`` is false): what a server stores and sends, never knowing the
        deck."""
        return action_to_json(action, self.deck, seat=seat)

    @abstractmethod
    def carry_json(self, state: StateT) -> dict[str, Any]:
        """The carry keys of the state's record."""

    @abstractmethod
    def dealt(self, state: StateT) -> dict[str, list[str]]:
        """The record's ``deal``: each active player and pile, in record order, to its cards as
        dealt (in card order, or in the order a pile's cards are used where that matters)."""

    # --- results -------------------------------------------------------------------------

    @abstractmethod
    def outcome(self, state: StateT) -> OutcomeT:
        """A finished hand as its score sheet records it (an error before the end)."""

    @abstractmethod
    def parse_sheet(self, record: Mapping[str, Any], common: Common) -> OutcomeT:
        """A score-sheet entry (form 1) checked against the rules; ``common`` is its
        envelope, already checked."""

    @abstractmethod
    def sheet_json(self, outcome: OutcomeT) -> dict[str, Any]:
        """The score-sheet keys (beyond the envelope) of an outcome."""

    @abstractmethod
    def settle_outcome(self, outcome: OutcomeT) -> dict[str, Any]:
        """The Result of a deal: what it pays or scores, as transfers with reasons."""

    def settle_record(
        self,
        record: Mapping[str, Any],
        full: Callable[[Any], dict[str, Any]],
        entry: Callable[[Any], dict[str, Any]],
    ) -> dict[str, Any]:
        """The answer of ``settle`` for a record naming this rule set, routed by its form:
        ``full(record)`` settles a full record (replayed), ``entry(record)`` a score-sheet
        entry. Default: a record with a ``deal`` or ``actions`` is a full record, any other
        a score-sheet entry; a rule set with more forms (Preferans's pulya and bare
        settlement) overrides it."""
        if "deal" in record or "actions" in record:
            return full(record)
        return entry(record)

    def describe_game(self, game: Mapping[str, Any] | None) -> str:
        """A deal's game (a Result's ``game``) as a score sheet writes it, for people to read;
        ``""`` when the deal had none. Default: the game's ``type``."""
        if not game:
            return ""
        return str(game.get("type", ""))

    def sheet_row(self, result: Mapping[str, Any]) -> dict[str, Any] | None:
        """What a table's running score sheet shows of a deal beyond the game, the declarer
        and the money, in the rule set's own terms (Doppelkopf: the parties, winner, Augen,
        announcements, extras and game points); ``None`` (the default): nothing more."""
        return None

    def sheet_rows(self, results: Sequence[Mapping[str, Any]]) -> list[dict[str, Any] | None]:
        """The rule set's part of each row of a table's running score sheet, for the Results
        of its settled deals in order (:attr:`Shapes.sheet_row` documents it). Default:
        :meth:`sheet_row` of each; a rule set whose rows run on from the deals before (a
        running total) overrides it."""
        return [self.sheet_row(result) for result in results]

    def sheet_columns(self, seats: Sequence[str]) -> list[str]:
        """The CSV columns of the rule set's part of a sheet row (:meth:`sheet_rows`) at a
        table of ``seats``, after the columns every sheet has. Default: none."""
        return []

    def sheet_cells(self, row: Mapping[str, Any], seats: Sequence[str]) -> list[Any]:
        """A sheet row's part (:meth:`sheet_rows`, not ``None``) as the cells of
        :meth:`sheet_columns`. Default: none."""
        return []

    def statistics(self, result: Mapping[str, Any]) -> dict[str, Any]:
        """What season statistics count of a deal with ``result``: ``declarer`` (a seat or
        ``None``), ``made`` (``True``/``False``, ``None`` without a declarer) and ``premium``
        (whether the game is one of the rule set's premium games). ``result`` may hold only
        the :attr:`statistics_keys` of a stored ``Result``. Default: a Result's ``declarer``
        and ``made`` keys and :meth:`is_premium` of its ``game``."""
        declarer = result.get("declarer")
        made = result.get("made")
        return {
            "declarer": declarer if isinstance(declarer, str) else None,
            "made": made if isinstance(made, bool) and declarer else None,
            "premium": bool(declarer) and self.is_premium(result.get("game")),
        }

    def deal_cycle(self, seats: int) -> int:
        """The deals after which every seat of a table of ``seats`` has dealt equally often:
        a tournament's deals per round should be a multiple of it at every table of a round
        (its director is told the least common multiple over the round's tables). Default:
        ``seats``, the deal passing one seat on each time (wien's dealer of a table of four
        sits out, but deals like everyone)."""
        return seats

    def is_premium(self, game: Mapping[str, Any] | None) -> bool:
        """Whether a deal's game (a Result's ``game``) is one of the rule set's premium games
        (season statistics count them). Default: its ``type`` is ``premium``."""
        return bool(game) and isinstance(game, Mapping) and game.get("type") == "premium"

    @abstractmethod
    def carry_after(self, result: Mapping[str, Any]) -> dict[str, Any]:
        """The carry keys for the next deal's record, after a deal with ``result``."""

    @abstractmethod
    def close(self, rules: RulesT, seats: Sequence[str], carry: Any) -> Closing:
        """Closing a table with ``carry`` left after its last deal."""

    def sitting_score(
        self, rules: RulesT, seats: Sequence[str], carry: Any
    ) -> dict[str, int] | None:
        """What a sitting that ended with ``carry`` left after its last deal is worth to each
        seat, in :attr:`score_unit` (summing to zero): the standings of clubs and tournaments
        count it where the rule set has a score unit. ``None`` (the default): the sitting's
        result is its money."""
        return None

    def table_round(
        self,
        rules: RulesT,
        seats: Sequence[str],
        first_dealer: str,
        results: Sequence[Mapping[str, Any]],
    ) -> TableRound | None:
        """Where a table whose first deal ``first_dealer`` dealt stands after the deals whose
        Results are ``results`` (in order), where the rule set keeps rounds
        (:attr:`round_deals`); ``None`` (the default): the dealer moves on each deal and
        nothing carries but what :meth:`carry_after` says."""
        return None

    # --- bots and the fast path -----------------------------------------------------------

    def random_action(self, state: StateT, rng: random.Random) -> Action:
        """The ``random`` bot: a legal action of a seat that may act, chosen with ``rng``
        (uniformly, unless the rule set biases it like real players)."""
        legal = self.legal_actions(state, None)
        if not legal:
            raise ValueError("the hand is over")
        return rng.choice(legal)

    def random_action_for(self, state: StateT, seat: str, rng: random.Random) -> Action | None:
        """The ``random`` bot's action for ``seat`` alone (a bot's seat at a table, whoever
        else may act), or ``None`` when it lets the moment pass (an announcement it need not
        make). Default: uniform among the actions ``seat`` may send."""
        legal = self.legal_actions(state, seat)
        return rng.choice(legal) if legal else None

    def bot_policies(self) -> dict[str, BotPolicy]:
        """The bot levels beyond ``random`` that play this rule set, each a policy that sees
        only a seat's view and its legal actions (``engine/bots/``). Default: where the rule
        set reads a view's card play (:meth:`card_play_view`) and has a heuristic for the other
        choices (:meth:`bot_decide`), ``heuristic`` (``engine.bots.heuristic``) and ``pimc``
        (``engine.bots.pimc``, its default strength); else none. Doppelkopf gives its own."""
        decide = self.bot_decide()
        if decide is None:
            return {}
        from engine.bots import heuristic, pimc  # they build on this module

        return {
            "heuristic": heuristic.policy(self.card_play_view, decide),
            "pimc": pimc.policy(self.card_play_view, decide, rule_set=self),
        }

    def bot_decide(self) -> Decide | None:
        """The rule set's heuristic for every choice of a hand but the card to play (bidding,
        discarding, declaring, defence …), from a seat's view and legal actions; ``None``
        (the default) where it has none."""
        return None

    def bot_deal(self, view: dict[str, Any], rng: random.Random) -> StateT | None:
        """A whole hand drawn at random that the seat of ``view`` cannot tell from the real one
        (its cards, every action it saw, the cards it does not know dealt at random and the
        hidden choices made as the rule set's heuristic would): what the ``pimc`` bot plays
        its choices out on (``engine.bots.simulate``). ``None`` (the default) where the rule
        set draws none; the bot then takes those choices by its heuristic."""
        return None

    def bot_candidates(
        self, view: dict[str, Any], legal: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """The choices of ``legal`` that the ``pimc`` bot compares by simulation. Default: all
        of them; a rule set with many (``wien``'s 66 discards) names the heuristic's best few."""
        return list(legal)

    def card_play(self, state: StateT) -> Position | None:
        """The card play of ``state`` for the double-dummy solver (``engine.solver``): every
        hand open, the trick in progress, each player's obligations as data and what the
        tricks are for. ``None`` when no card is to be played now, or when the rule set's
        game is not one the solver plays (the default)."""
        return None

    def card_play_view(self, view: dict[str, Any]) -> Belief | None:
        """What the seat of ``view`` knows of card play when a card is to be played, read
        from the view alone (``engine.bots.belief``: the ``pimc`` bot samples deals from it):
        the :meth:`card_play` position with only the cards it knows placed, the cards it does
        not and how many each player holds. ``None`` where :meth:`card_play` would be (the
        default)."""
        return None

    def play_random_hand(self, rules: RulesT, carry: Any, rng: random.Random) -> Any:
        """Deal, bid, play and settle one random hand on the rule set's fast path (bots,
        simulations, the benchmark)."""
        raise NotImplementedError(f"{self.name} has no fast path yet")
