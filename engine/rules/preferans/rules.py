"""The options of a ``preferans`` table (``spec/next/preferans.md`` §12), the streak prices and
the exit minimum (§8.3, §8.4).

Terms: *пуля* (pool, P), *гора* (mountain, M), *висты* (whists, W), *распасы* (raspasy, the
all-pass deal), *выход из распасов* (the exit minimum after raspasy), *консоляция*
(consolation), *полвиста* (half-whist), *сочинка / ленинградка / ростов* (the conventions Sochi,
Leningrad and Rostov, each a preset of options).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from engine.errors import EngineError
from engine.messages import KEY_REQUIRED, RULES_NOT_OBJECT, UNKNOWN_RULE_OPTION, relocated
from engine.options import BOOLEAN, CHOICE, INTEGER, OBJECT, Option
from engine.rules.preferans import messages as m

VARIANT = "preferans"

# §12: the three columns, every option but pool_target and whist_value (which have none).
CONVENTIONS: dict[str, dict[str, object]] = {
    "sochi": {
        "pool_mult": 1,
        "mountain_mult": 1,
        "whist_mult": 1,
        "pool_point_whists": 10,
        "mountain_point_whists": 10,
        "whist_liability": "full",
        "liability_6_7": "capped",
        "liability_8_10": "second",
        "whist_split": "greedy",
        "consolation": "price",
        "misere_consolation": False,
        "dealer_consolation": True,
        "ten_whisted": True,
        "half_whist": True,
        "raspasy_scoring": "mountain",
        "raspasy_progression": (1, 2, 3),
        "raspasy_amnesty": False,
        "raspasy_zero_pool": True,
        "raspasy_whists": 5,
        "raspasy_talon": "lead",
        "raspasy_exit": (6,),
        "raspasy_reset": "any_game",
        "game_end": "all_closed",
        "help_to": "highest",
        "misere_rank": "below_9",
        "bid_jumps": False,
        "hold": "senior",
        "open_timing": "after_declarer_lead",
    },
}
CONVENTIONS["leningrad"] = {
    **CONVENTIONS["sochi"],
    "mountain_mult": 2,
    "whist_mult": 2,
    "pool_point_whists": 20,
    "whist_liability": "half",
    "whist_split": "gentleman_remise",
    "raspasy_exit": (7,),
    "game_end": "sum",
}
CONVENTIONS["rostov"] = {
    **CONVENTIONS["sochi"],
    "whist_liability": "half",
    "whist_split": "gentleman_remise",
    "consolation": "fixed10",
    "misere_consolation": True,
    "raspasy_scoring": "whists",
    "raspasy_progression": (1,),
    "raspasy_talon": "closed",
}


def _int_list(minimum: int, maximum: int | None) -> Any:
    """A check for a non-empty list of integers in bounds (§12), kept as a tuple."""

    def check(value: Any, at: str) -> tuple[int, ...]:
        name = at.rsplit(".", 1)[-1]
        if not isinstance(value, list) or not value:
            if maximum is None:
                raise m.LIST_AT_LEAST.error(at, name=name, minimum=minimum)
            raise m.LIST_BETWEEN.error(at, name=name, minimum=minimum, maximum=maximum)
        for v in value:
            if type(v) is not int or v < minimum or (maximum is not None and v > maximum):
                if maximum is None:
                    raise m.LIST_ENTRY_AT_LEAST.error(at, name=name, minimum=minimum, value=repr(v))
                raise m.LIST_ENTRY_BETWEEN.error(
                    at, name=name, minimum=minimum, maximum=maximum, value=repr(v)
                )
        return tuple(value)

    return check


def _list_schema(minimum: int, maximum: int | None) -> dict[str, Any]:
    items: dict[str, Any] = {"type": "integer", "minimum": minimum}
    if maximum is not None:
        items["maximum"] = maximum
    return {"type": "array", "items": items, "minItems": 1}


_S = CONVENTIONS["sochi"]


def _choice(name: str, description: str, *choices: str) -> Option:
    return Option(name, CHOICE, description, default=_S[name], choices=choices)


def _boolean(name: str, description: str) -> Option:
    return Option(name, BOOLEAN, description, default=_S[name])


def _integer(name: str, description: str, unit: str = "") -> Option:
    return Option(name, INTEGER, description, default=_S[name], minimum=1, unit=unit)


OPTIONS: tuple[Option, ...] = (
    Option(
        "convention",
        CHOICE,
        "the preset every option below defaults to (§12); any option may be given explicitly",
        default="sochi",
        choices=("sochi", "leningrad", "rostov"),
    ),
    Option(
        "pool_target",
        INTEGER,
        "T: every seat's own pool target (§10)",
        minimum=1,
        unit="points",
        example=20,
    ),
    Option(
        "whist_value",
        INTEGER,
        "cents per whist; needed only for money in the settlement",
        default=None,
        minimum=1,
        nullable=True,
        unit="cents",
    ),
    _integer("pool_mult", "factor on pool entries"),
    _integer("mountain_mult", "factor on mountain entries (Leningrad 2)"),
    _integer(
        "whist_mult", "factor on trick whists, price consolation and half-whist (Leningrad 2)"
    ),
    _integer(
        "pool_point_whists",
        "K_P: whists per pool point (help, pool gap); a multiple of mountain_point_whists",
        unit="whists",
    ),
    _integer("mountain_point_whists", "K_M: whists per mountain point", unit="whists"),
    _choice("whist_liability", "a liable whister's mountain: full or half price", "full", "half"),
    _choice(
        "liability_6_7",
        "two whisters on a 6 or 7: liability capped at the side's shortfall, or each share",
        "capped",
        "share",
    ),
    _choice(
        "liability_8_10",
        "two whisters on 8, 9, 10: the second defender is liable, or both",
        "second",
        "both",
    ),
    _choice(
        "whist_split",
        "one whister, one passer: who writes the side's trick whists (§5)",
        "greedy",
        "gentleman_remise",
        "gentleman",
    ),
    _choice(
        "consolation",
        "consolation per undertrick: the price × whist_mult, or 10 (fixed10_only: no mountain)",
        "price",
        "fixed10",
        "fixed10_only",
    ),
    _boolean("misere_consolation", "consolation is written on a lost misère"),
    _boolean("dealer_consolation", "the sitting-out dealer writes consolation too (4 players)"),
    _boolean("ten_whisted", "a ten is whisted; false: checked with open defenders, ob 0"),
    _boolean("half_whist", "the second defender may half-whist a 6 or 7 after a pass"),
    _choice(
        "raspasy_scoring", "raspasy tricks go to the mountain, or are whists", "mountain", "whists"
    ),
    Option(
        "raspasy_progression",
        OBJECT,
        "base trick prices after 0, 1, 2 … raspasy in a row; the last repeats (§8.3)",
        default=list(cast(tuple[int, ...], _S["raspasy_progression"])),
        check=_int_list(1, None),
        schema=_list_schema(1, None),
    ),
    _boolean("raspasy_amnesty", "raspasy: subtract the fewest tricks from everyone's"),
    _boolean(
        "raspasy_zero_pool",
        "raspasy: a player without a trick writes one trick's price to the pool",
    ),
    _integer("raspasy_whists", "whists per trick with raspasy_scoring whists", unit="whists"),
    _choice(
        "raspasy_talon",
        "raspasy: the talon cards lead tricks 1 and 2, or are unused",
        "lead",
        "closed",
    ),
    Option(
        "raspasy_exit",
        OBJECT,
        "the lowest contract level after 1, 2 … raspasy in a row; the last repeats (§8.4)",
        default=list(cast(tuple[int, ...], _S["raspasy_exit"])),
        check=_int_list(6, 10),
        schema=_list_schema(6, 10),
    ),
    _choice(
        "raspasy_reset",
        "which deal ends a raspasy streak (§8.3)",
        "any_game",
        "made_game",
        "whisted_game",
    ),
    _choice(
        "game_end",
        "the game ends when all pools are closed, or on the pool sum",
        "all_closed",
        "sum",
    ),
    _choice("help_to", "who is helped first with a pool excess (§10)", "highest", "next"),
    _choice("misere_rank", "misère ranks below 9S, or below 10S", "below_9", "below_10"),
    _boolean("bid_jumps", "any higher bid, not only the next step"),
    _choice("hold", "who may hold (здесь)", "senior", "two_left", "none"),
    _choice(
        "open_timing",
        "when open defenders' hands are shown (views only)",
        "after_declarer_lead",
        "before_first_lead",
        "after_first_card",
    ),
)

_BY_NAME = {o.name: o for o in OPTIONS}


@dataclass(frozen=True, slots=True, kw_only=True)
class PreferansRules:
    """The options of one ``preferans`` table, every one filled in (§12)."""

    variant: str = VARIANT
    convention: str
    pool_target: int
    whist_value: int | None
    pool_mult: int
    mountain_mult: int
    whist_mult: int
    pool_point_whists: int
    mountain_point_whists: int
    whist_liability: str
    liability_6_7: str
    liability_8_10: str
    whist_split: str
    consolation: str
    misere_consolation: bool
    dealer_consolation: bool
    ten_whisted: bool
    half_whist: bool
    raspasy_scoring: str
    raspasy_progression: tuple[int, ...]
    raspasy_amnesty: bool
    raspasy_zero_pool: bool
    raspasy_whists: int
    raspasy_talon: str
    raspasy_exit: tuple[int, ...]
    raspasy_reset: str
    game_end: str
    help_to: str
    misere_rank: str
    bid_jumps: bool
    hold: str
    open_timing: str

    def to_json(self) -> dict[str, Any]:
        """The full ``rules`` object, every option with a value spelled out (lists as lists);
        ``whist_value`` left out when the table has none (§12: numeric options are positive
        integers, and ``whist_value`` is given only for money)."""
        out: dict[str, Any] = {"variant": self.variant}
        for option in OPTIONS:
            value = getattr(self, option.name)
            if value is None:
                continue
            out[option.name] = list(value) if isinstance(value, tuple) else value
        return out

    def exit_minimum(self, streak: int) -> int:
        """§8.4: the lowest contract level that may be bid after ``streak`` raspasy in a row
        (6 when the streak is 0; entry ``j`` after exactly ``j``, the last entry after more)."""
        if streak <= 0:
            return 6
        return self.raspasy_exit[min(streak, len(self.raspasy_exit)) - 1]

    def base_price(self, streak: int) -> int:
        """§8.3: the raspasy base trick price ``b`` in a deal with ``streak`` raspasy before it
        (``raspasy_progression[min(k, len − 1)]``)."""
        progression = self.raspasy_progression
        return progression[min(max(streak, 0), len(progression) - 1)]


def parse_rules(data: object, at: str = "rules") -> PreferansRules:
    """§12: a ``rules`` object checked and filled in from its convention.

    ``variant`` must be ``"preferans"``; unknown keys are errors; numbers are positive whole
    numbers (``true``/``false`` are not numbers); lists are non-empty; ``raspasy_exit``
    entries are 6–10; ``pool_point_whists`` is a multiple of ``mountain_point_whists``;
    ``pool_target`` is required. Each error names the option (``rules.<option>``).
    """
    if not isinstance(data, Mapping):
        raise RULES_NOT_OBJECT.error(at)
    if data.get("variant") != VARIANT:
        raise m.RULES_VARIANT.error(
            f"{at}.variant", expected=repr(VARIANT), given=repr(data.get("variant"))
        )
    for key in data:
        if key != "variant" and key not in _BY_NAME:
            raise UNKNOWN_RULE_OPTION.error(f"{at}.{key}", option=repr(key), variant=VARIANT)

    def read(option: Option, value: Any) -> Any:
        try:
            return option.read(value)
        except EngineError as e:
            raise relocated(e, f"{at}.{option.name}") from None

    convention = read(_BY_NAME["convention"], data.get("convention", "sochi"))
    preset = CONVENTIONS[convention]
    values: dict[str, Any] = {"convention": convention}
    for option in OPTIONS[1:]:
        if option.name in data:
            values[option.name] = read(option, data[option.name])
        elif option.required:
            raise KEY_REQUIRED.error(f"{at}.{option.name}", key=option.name)
        elif option.name in preset:
            values[option.name] = preset[option.name]
        else:
            values[option.name] = option.default
    if values["pool_point_whists"] % values["mountain_point_whists"]:
        raise m.POOL_POINT_MULTIPLE.error(
            f"{at}.pool_point_whists",
            mountain=values["mountain_point_whists"],
            pool=values["pool_point_whists"],
        )
    return PreferansRules(**values)


EXAMPLES: tuple[dict[str, Any], ...] = (
    {"variant": VARIANT, "convention": "sochi", "pool_target": 20},
    {"variant": VARIANT, "convention": "leningrad", "pool_target": 30},
    {"variant": VARIANT, "convention": "rostov", "pool_target": 20},
    {"variant": VARIANT, "convention": "sochi", "pool_target": 10, "whist_value": 10},
)
