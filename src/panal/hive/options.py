"""Rule options: the places where players read the rulebooks differently.

Each option is one field of :class:`Options` and one :class:`OptionSpec` in :data:`OPTION_SPECS`,
which says what the option is called in UHP and in PGN headers, which values it takes, what it
means and which rulebook sentence it reads. Everything that offers options to people (the UHP
engine, the game records, the web's new-game form) is generated from that table, so an option is
added in one place. docs/rules.md gives the reason behind every default.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

__all__ = [
    "OPTION_SPECS",
    "DragonflyCarry",
    "DragonflySidestep",
    "OptionSpec",
    "Options",
    "OptionsError",
]


class OptionsError(ValueError):
    """An option name or value that does not exist."""


class DragonflySidestep(StrEnum):
    """Which cells "a la izquierda o derecha" of its jump the Dragonfly steps to."""

    FORWARD = "forward"
    """60° from the jump's direction: forward-left or forward-right (the default)."""
    BACKWARD = "backward"
    """120° from the jump's direction: back-left or back-right, along the last piece jumped."""
    EITHER = "either"
    """Any of those four cells."""


class DragonflyCarry(StrEnum):
    """When a Dragonfly on a stack may carry the piece beneath it ("en su siguiente turno")."""

    LATER = "later"
    """On any later move that starts on top of that piece (the default)."""
    NEXT_TURN = "next_turn"
    """Only on its owner's very next turn after it came to rest on that piece."""


@dataclass(frozen=True, kw_only=True)
class Options:
    """Rule options where players disagree; ``Options()`` is panal's reading (docs/rules.md).

    Values may be given as the enums or as their strings (``dragonfly_sidestep="backward"``);
    anything else raises :class:`OptionsError`.
    """

    tournament_opening: bool = False
    repetition_draw: bool = True
    repetition_forced: bool = False
    dragonfly_sidestep: DragonflySidestep = DragonflySidestep.FORWARD
    dragonfly_gaps: bool = False
    dragonfly_contact: bool = False
    dragonfly_carry: DragonflyCarry = DragonflyCarry.LATER
    mosquito_stays_dragonfly: bool = False

    def __post_init__(self) -> None:
        for spec in OPTION_SPECS:
            value = getattr(self, spec.name)
            object.__setattr__(self, spec.name, spec.check(value))

    def with_values(self, **values: Any) -> Options:
        """A copy with some options changed (names and values checked)."""
        unknown = sorted(set(values) - set(SPEC_BY_NAME))
        if unknown:
            raise OptionsError(f"unknown rule option {unknown[0]!r}; known: {_known()}")
        return replace(self, **values)

    @classmethod
    def from_values(cls, values: dict[str, Any]) -> Options:
        """Options from ``{name: value}``; unknown names raise :class:`OptionsError`."""
        return cls().with_values(**values)

    def to_values(self) -> dict[str, bool | str]:
        """``{name: value}`` with plain bools and strings (JSON-ready)."""
        return {spec.name: spec.plain(getattr(self, spec.name)) for spec in OPTION_SPECS}

    def changed(self, base: Options | None = None) -> dict[str, bool | str]:
        """The options that differ from ``base`` (default: ``Options()``)."""
        base = base or Options()
        mine, theirs = self.to_values(), base.to_values()
        return {name: value for name, value in mine.items() if theirs[name] != value}


@dataclass(frozen=True)
class OptionSpec:
    """One option as people see it.

    ``choices`` is ``None`` for a yes/no option, else the allowed values (strings). ``uhp`` is its
    name in UHP ``options`` lines and in PGN headers. ``expansion`` is the bug letter whose
    presence makes the option matter (``""``: always). ``reads`` quotes the rulebook sentence.
    """

    name: str
    uhp: str
    choices: tuple[str, ...] | None
    expansion: str
    description: str
    reads: str

    @property
    def default(self) -> bool | str:
        return self.plain(_DEFAULTS[self.name])

    def check(self, value: object) -> Any:
        """``value`` as this option's type, or :class:`OptionsError`."""
        if self.choices is None:
            if not isinstance(value, bool):
                raise OptionsError(f"rule option {self.name} is true or false, not {value!r}")
            return value
        enum = _ENUMS[self.name]
        if isinstance(value, str):
            for member in enum:
                if member.value == value.lower():
                    return member
        raise OptionsError(
            f"rule option {self.name} is one of {', '.join(self.choices)}, not {value!r}"
        )

    def plain(self, value: object) -> bool | str:
        return value if isinstance(value, bool) else str(value)

    def parse(self, text: str) -> bool | str:
        """A value written as text (UHP, PGN headers): ``True``/``False`` or a choice."""
        if self.choices is None:
            lowered = text.strip().lower()
            if lowered in ("true", "1", "yes", "on"):
                return True
            if lowered in ("false", "0", "no", "off"):
                return False
            raise OptionsError(f"{self.uhp} must be True or False, not {text!r}")
        wanted = text.strip().lower().replace("_", "")
        for choice in self.choices:
            if choice.replace("_", "") == wanted:
                return choice
        shown = ", ".join(self.uhp_value(choice) for choice in self.choices)
        raise OptionsError(f"{self.uhp} must be one of {shown}, not {text!r}")

    def uhp_value(self, value: bool | str) -> str:
        """How UHP and PGN headers write a value: ``True``, ``NextTurn``."""
        return str(value) if isinstance(value, bool) else _to_camel(value)


_ENUMS: dict[str, type[StrEnum]] = {
    "dragonfly_sidestep": DragonflySidestep,
    "dragonfly_carry": DragonflyCarry,
}


def _to_camel(value: str) -> str:
    return "".join(part.title() for part in value.split("_"))


def _choices(enum: type[StrEnum]) -> tuple[str, ...]:
    return tuple(member.value for member in enum)


OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "tournament_opening",
        "TournamentOpening",
        None,
        "",
        "no queen on a player's first turn",
        "000: «La Abeja Reina puede ser colocada en cualquier momento dentro de los primeros "
        "tres turnos»",
    ),
    OptionSpec(
        "repetition_draw",
        "RepetitionDraw",
        None,
        "",
        "the third occurrence of a position is a draw",
        "000: «al igual que si ambos jugadores terminan obligados a mover sus fichas de forma que "
        "se entre en un bucle»",
    ),
    OptionSpec(
        "repetition_forced",
        "RepetitionForced",
        None,
        "",
        "a repetition draws only when every position of the loop left the side to move a single "
        "piece to move",
        "002: «ambos jugadores se encuentran obligados a mover cada uno una misma ficha una y "
        "otra vez»",
    ),
    OptionSpec(
        "dragonfly_sidestep",
        "DragonflySidestep",
        _choices(DragonflySidestep),
        "D",
        "the Dragonfly's step after its jump turns 60° (forward), 120° (backward) or either",
        "002: «una vez hecho el salto se desplaza un movimiento hacia la izquierda o derecha»",
    ),
    OptionSpec(
        "dragonfly_gaps",
        "DragonflyGaps",
        None,
        "D",
        "the Dragonfly's step after its jump cannot pass through a gap too narrow to slide through",
        "002: «Con la excepción del Escarabajo y el Saltamontes, el resto de las piezas sólo "
        "podrán moverse deslizándose»",
    ),
    OptionSpec(
        "dragonfly_contact",
        "DragonflyContact",
        None,
        "D",
        "the Dragonfly's step after its jump must keep touching the hive",
        "001: «a Colmeia nunca pode ser separada em duas, nem mesmo momentaneamente a meio de uma "
        "jogada»",
    ),
    OptionSpec(
        "dragonfly_carry",
        "DragonflyCarry",
        _choices(DragonflyCarry),
        "D",
        "a Dragonfly carries the piece beneath it on any later move (later) or only on its "
        "owner's next turn (next_turn)",
        "002: «En su siguiente turno, la pieza que quedó debajo de la libélula […] podrá ser "
        "movida por la Libélula»",
    ),
    OptionSpec(
        "mosquito_stays_dragonfly",
        "MosquitoStaysDragonfly",
        None,
        "MD",
        "a Mosquito that flew onto the hive as a Dragonfly goes on moving as a Dragonfly up "
        "there (and may carry), instead of as a Beetle",
        "002: «Si adopta los movimientos del Escarabajo y se sube encima de la Colmena, "
        "continuará moviéndose como un Escarabajo hasta que bajara de la Colmena»",
    ),
)

SPEC_BY_NAME: dict[str, OptionSpec] = {spec.name: spec for spec in OPTION_SPECS}
SPEC_BY_UHP: dict[str, OptionSpec] = {spec.uhp.lower(): spec for spec in OPTION_SPECS}
_DEFAULTS: dict[str, Any] = {field.name: field.default for field in fields(Options)}


def _known() -> str:
    return ", ".join(SPEC_BY_NAME)


def spec_for_uhp(name: str) -> OptionSpec | None:
    """The option called ``name`` in UHP or a PGN header (any case), if there is one."""
    return SPEC_BY_UHP.get(name.lower())
