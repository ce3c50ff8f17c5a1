"""The options of a ``doppelkopf`` and a ``doppelkopf-ddv`` table (``spec/next/doppelkopf.md``,
"Options and defaults" and "Rule set ``doppelkopf-ddv``").

Terms: *Grundbetrag* (the base amount, B), *Einsatz* (the ante, A), *Kasse* (the common pot the
antes go into), *Spielart* (ehrliches / freies Spiel: how partners conduct themselves, recorded
only), *Stichzwang* (the duty to trump, or to beat, when void), *Hochzeit* (marriage: both
Kreuz-Damen in one hand), *Heimliches Solo* (a secret solo), *Karlchen Müller* (the Kreuz-Bube
solo), *Schneider* (a losing party below the Schneider line), *Dulle* (the Herz-Zehn, the
highest trump under the DDV rules), *Punktwert* (the value of a game point).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.options import BOOLEAN, CHOICE, INTEGER, Option, read_options
from engine.rules.doppelkopf import messages as m

VARIANT = "doppelkopf"
DDV_VARIANT = "doppelkopf-ddv"

OPTIONS: tuple[Option, ...] = (
    Option("base", INTEGER, "B: the Grundbetrag", minimum=1, unit="cents", example=20),
    Option(
        "ante",
        INTEGER,
        "A: what each player puts into the Kasse",
        minimum=1,
        unit="cents",
        example=10,
    ),
    Option(
        "ante_each_deal",
        BOOLEAN,
        "every player pays A before every deal; false: only the refill rule applies",
        default=True,
    ),
    Option(
        "spielart",
        CHOICE,
        "ehrliches or freies Spiel: recorded only, changes no rule",
        default="ehrlich",
        choices=("ehrlich", "frei"),
    ),
    Option(
        "stichzwang",
        CHOICE,
        "a player void in the led suit must trump; none: any card; head: must also beat the "
        "trick when able",
        default="trump",
        choices=("trump", "none", "head"),
    ),
    Option(
        "solo_leads",
        CHOICE,
        "who leads an announced solo",
        default="forehand",
        choices=("forehand", "soloist"),
    ),
    Option(
        "secret_solo_queens",
        INTEGER,
        "fewest CQ a Heimliches Solo needs",
        default=1,
        minimum=1,
        maximum=2,
    ),
    Option(
        "hochzeit_deadline",
        INTEGER,
        "n: with no partner found in the first n tricks, the Hochzeit announcer plays alone; "
        "null: no deadline",
        default=None,
        minimum=1,
        maximum=12,
        nullable=True,
        unit="tricks",
    ),
    Option(
        "schneider_below",
        INTEGER,
        "a losing Kontra party with fewer Augen than this is Schneider",
        default=60,
        minimum=1,
        maximum=120,
    ),
    Option(
        "schneider_re_below",
        INTEGER,
        "a losing Re party with fewer Augen than this is Schneider (61: the traditional rule)",
        default=60,
        minimum=1,
        maximum=121,
    ),
    Option(
        "karlchen_needs_jack",
        BOOLEAN,
        "Karlchen Müller may be announced only by a player holding a CJ",
        default=True,
    ),
    Option(
        "kasse_at_close",
        CHOICE,
        "when a table stops: the Kasse carries to its next sitting, or is split among the seats",
        default="carry",
        choices=("carry", "split"),
    ),
)

DDV_OPTIONS: tuple[Option, ...] = (
    Option("point_value", INTEGER, "cents per game point", minimum=1, unit="cents", example=10),
    Option(
        "second_dulle",
        BOOLEAN,
        "house rule (not DDV): the second HT beats the first in every trick",
        default=False,
    ),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class DoppelkopfRules:
    """The options of one ``doppelkopf`` table, every one filled in."""

    variant: str = VARIANT
    base: int
    ante: int
    ante_each_deal: bool = True
    spielart: str = "ehrlich"
    stichzwang: str = "trump"
    solo_leads: str = "forehand"
    secret_solo_queens: int = 1
    hochzeit_deadline: int | None = None
    schneider_below: int = 60
    schneider_re_below: int = 60
    karlchen_needs_jack: bool = True
    kasse_at_close: str = "carry"

    @property
    def ddv(self) -> bool:
        """Whether these are the DDV tournament rules (they are not)."""
        return False

    def to_json(self) -> dict[str, Any]:
        """The full ``rules`` object, every option spelled out."""
        return {"variant": self.variant, **{o.name: getattr(self, o.name) for o in OPTIONS}}


@dataclass(frozen=True, slots=True, kw_only=True)
class DdvRules:
    """The options of one ``doppelkopf-ddv`` table, every one filled in."""

    variant: str = DDV_VARIANT
    point_value: int
    second_dulle: bool = False

    @property
    def ddv(self) -> bool:
        """Whether these are the DDV tournament rules (they are)."""
        return True

    def to_json(self) -> dict[str, Any]:
        """The full ``rules`` object, every option spelled out."""
        return {"variant": self.variant, **{o.name: getattr(self, o.name) for o in DDV_OPTIONS}}


AnyRules = DoppelkopfRules | DdvRules


def _check_variant(data: object, variant: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise m.RULES_NOT_OBJECT.error("rules")
    if data.get("variant") != variant:
        raise m.RULES_VARIANT.error(
            "rules.variant", expected=repr(variant), given=repr(data.get("variant"))
        )
    return data


def parse_rules(data: object) -> DoppelkopfRules:
    """A ``doppelkopf`` ``rules`` object checked and filled in with the defaults of the
    spec's option table; unknown keys and bad values are errors naming ``rules.<option>``."""
    values = read_options(VARIANT, OPTIONS, _check_variant(data, VARIANT))
    return DoppelkopfRules(**values)


def parse_ddv_rules(data: object) -> DdvRules:
    """A ``doppelkopf-ddv`` ``rules`` object checked and filled in (``point_value`` required,
    ``second_dulle`` default false); the options of ``doppelkopf`` (``base``, ``ante``,
    ``stichzwang`` …) are unknown here."""
    values = read_options(DDV_VARIANT, DDV_OPTIONS, _check_variant(data, DDV_VARIANT))
    return DdvRules(**values)


EXAMPLES: tuple[dict[str, Any], ...] = (
    {"variant": VARIANT, "base": 20, "ante": 10},
    {"variant": VARIANT, "base": 20, "ante": 10, "stichzwang": "head", "solo_leads": "soloist"},
    {
        "variant": VARIANT,
        "base": 50,
        "ante": 20,
        "stichzwang": "none",
        "secret_solo_queens": 2,
        "hochzeit_deadline": 3,
        "ante_each_deal": False,
        "kasse_at_close": "split",
    },
    {
        "variant": VARIANT,
        "base": 10,
        "ante": 10,
        "karlchen_needs_jack": False,
        "schneider_re_below": 61,
        "spielart": "frei",
    },
)
"""Example ``doppelkopf`` rules, the first the default one."""

DDV_EXAMPLES: tuple[dict[str, Any], ...] = (
    {"variant": DDV_VARIANT, "point_value": 10},
    {"variant": DDV_VARIANT, "point_value": 50, "second_dulle": True},
)
"""Example ``doppelkopf-ddv`` rules, the first the default one."""

__all__ = [
    "DDV_EXAMPLES",
    "DDV_OPTIONS",
    "DDV_VARIANT",
    "EXAMPLES",
    "OPTIONS",
    "VARIANT",
    "AnyRules",
    "DdvRules",
    "DoppelkopfRules",
    "parse_ddv_rules",
    "parse_rules",
]
