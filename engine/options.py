"""A rule set's options as data: names, kinds, defaults, bounds and one line each.

Every house rule is a named option (``engine/README.md``). A rule set declares its options as
:class:`Option` values; :func:`read_options` checks a record's ``rules`` object against them
(unknown options, missing required ones, wrong kinds and values out of bounds are errors naming
the option, ``at`` ``rules.<name>``), and :meth:`Option.to_json` describes an option for
``python -m engine rules`` and for the API's schema of the rule set's ``rules``. Checks that
tie two options together (wien's pot cap a multiple of the dealer contribution) stay with the
rule set's own options value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError
from engine.messages import (
    KEY_REQUIRED,
    OPTION_NOT_BOOLEAN,
    OPTION_NOT_CHOICE,
    OPTION_WHOLE_NUMBER,
    RULES_NOT_OBJECT,
    UNKNOWN_RULE_OPTION,
)

INTEGER = "integer"
CHOICE = "choice"
BOOLEAN = "boolean"
OBJECT = "object"
KINDS = (INTEGER, CHOICE, BOOLEAN, OBJECT)


class _Required:
    """The default of an option a record must give."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a rule set's ``rules``.

    ``kind``: ``integer`` (a JSON number without fraction; booleans are not numbers, with
    ``minimum``, ``maximum``, ``multiple_of`` and ``nullable``), ``choice`` (one of
    ``choices``), ``boolean``, or ``object`` (checked by ``check``, which returns the value to
    keep or raises :class:`EngineError`). ``default`` is :data:`REQUIRED` when a record must
    give it. ``unit`` names what an integer counts (``cents``, ``units``, ``tricks``).
    """

    name: str
    kind: str
    description: str
    default: Any = REQUIRED
    minimum: int | None = None
    maximum: int | None = None
    multiple_of: int | None = None
    nullable: bool = False
    choices: tuple[str, ...] = ()
    unit: str = ""
    check: Callable[[Any, str], Any] | None = field(default=None, compare=False)
    example: Any = None
    """For a required option: a value to show in examples and listings."""
    schema: Mapping[str, Any] | None = field(default=None, compare=False)
    """For an ``object`` option: its JSON Schema (what :meth:`json_schema` gives)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown option kind {self.kind!r}")
        if self.kind == CHOICE and not self.choices:
            raise ValueError(f"option {self.name} lists no choices")
        if self.kind == OBJECT and self.check is None:
            raise ValueError(f"object option {self.name} needs a check")

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def read(self, value: Any) -> Any:
        """``value`` checked; an error names the option and says what it must be."""
        at = f"rules.{self.name}"
        if value is None and self.nullable:
            return None
        if self.kind == BOOLEAN:
            if type(value) is not bool:
                raise OPTION_NOT_BOOLEAN.error(at, name=self.name, value=repr(value))
            return value
        if self.kind == CHOICE:
            if value not in self.choices:
                names = ", ".join(repr(c) for c in self.choices)
                raise OPTION_NOT_CHOICE.error(at, name=self.name, choices=names, value=repr(value))
            return value
        if self.kind == OBJECT:
            assert self.check is not None
            return self.check(value, at)
        if type(value) is not int or not self._in_bounds(value):
            raise self.not_whole_number(at, value)
        return value

    def _in_bounds(self, value: int) -> bool:
        return (
            (self.minimum is None or value >= self.minimum)
            and (self.maximum is None or value <= self.maximum)
            and (self.multiple_of is None or value % self.multiple_of == 0)
        )

    def not_whole_number(self, at: str, value: Any) -> EngineError:
        """The refusal of ``value`` for an integer option: what it must be (:meth:`what`), one
        message per shape of option (``engine.messages.OPTION_WHOLE_NUMBER``)."""
        bounds = {
            (False, False): "",
            (True, False): "min",
            (False, True): "max",
            (True, True): "range",
        }[(self.minimum is not None, self.maximum is not None)]
        shape = (bool(self.unit), bounds, self.multiple_of is not None, self.nullable)
        params = {
            "unit": self.unit,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "multiple_of": self.multiple_of,
        }
        message = OPTION_WHOLE_NUMBER[shape]
        given = {k: v for k, v in params.items() if k in message.fields}
        return message.error(at, name=self.name, value=repr(value), **given)

    def what(self) -> str:
        """What an integer option must be, in words (``a whole number of cents ≥ 1``)."""
        unit = f" of {self.unit}" if self.unit else ""
        parts = [f"a whole number{unit}"]
        if self.minimum is not None and self.maximum is not None:
            parts.append(f"from {self.minimum} to {self.maximum}")
        elif self.minimum is not None:
            parts.append(f"of at least {self.minimum}")
        elif self.maximum is not None:
            parts.append(f"of at most {self.maximum}")
        if self.multiple_of is not None:
            parts.append(f"divisible by {self.multiple_of}")
        text = " ".join(parts)
        return f"{text} or null" if self.nullable else text

    def json_schema(self) -> dict[str, Any]:
        """The option's value as JSON Schema (OpenAPI 3.0 dialect: ``nullable``), without
        its description and default."""
        out: dict[str, Any]
        if self.kind == INTEGER:
            out = {"type": "integer"}
            for key, name in (
                ("minimum", "minimum"),
                ("maximum", "maximum"),
                ("multiple_of", "multipleOf"),
            ):
                if getattr(self, key) is not None:
                    out[name] = getattr(self, key)
        elif self.kind == CHOICE:
            out = {"type": "string", "enum": list(self.choices)}
        elif self.kind == BOOLEAN:
            out = {"type": "boolean"}
        else:
            out = dict(self.schema or {"type": "object"})
        if self.nullable:
            out["nullable"] = True
        return out

    def to_json(self) -> dict[str, Any]:
        """The option described for listings and schemas (no ``check`` function)."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.required:
            out["required"] = True
            if self.example is not None:
                out["example"] = self.example
        else:
            out["default"] = self.default
        for key in ("minimum", "maximum", "multiple_of"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.nullable:
            out["nullable"] = True
        if self.choices:
            out["choices"] = list(self.choices)
        if self.unit:
            out["unit"] = self.unit
        out["description"] = self.description
        return out


def read_options(
    variant: str, options: Sequence[Option], data: Any, *, ignore: Sequence[str] = ("variant",)
) -> dict[str, Any]:
    """The options of a ``rules`` object, checked, defaults filled in (keyed by name).

    Unknown keys, missing required options and bad values are errors naming the option.
    """
    if not isinstance(data, Mapping):
        raise RULES_NOT_OBJECT.error("rules")
    by_name = {o.name: o for o in options}
    for key in data:
        if key not in by_name and key not in ignore:
            raise UNKNOWN_RULE_OPTION.error(f"rules.{key}", option=repr(key), variant=variant)
    out: dict[str, Any] = {}
    for option in options:
        if option.name in data:
            out[option.name] = option.read(data[option.name])
        elif option.required:
            raise KEY_REQUIRED.error(f"rules.{option.name}", key=option.name)
        else:
            out[option.name] = option.default
    return out


def example_rules(variant: str, options: Sequence[Option]) -> dict[str, Any]:
    """The smallest valid ``rules`` object: the variant and every required option's
    example."""
    return {
        "variant": variant,
        **{o.name: o.example for o in options if o.required},
    }
