"""Game options: the rulebook's advanced rules and the readings players may disagree on.

Every field of :class:`Options` defaults to the basic rules and panal's reading of them. Each
option is described once, in :data:`OPTION_SPECS` (name, kind, default, allowed values, a
one-line description, the rulebook section and the sentence it reads), so that command-line
flags, the terminal and any form can be generated from that table. ``docs/enjambre.md`` gives the
reason for every default.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

__all__ = ["ELIMINATION_POINTS", "OPTION_SPECS", "OptionSpec", "Options"]

# Advanced rule: victory points for the players who eliminated most tiles, by player count
# (3/1 for 3-4 players and 4/2/1 for 5-6). Two players are not covered: see
# ``two_player_elimination_points``.
ELIMINATION_POINTS: dict[int, tuple[int, ...]] = {
    3: (3, 1),
    4: (3, 1),
    5: (4, 2, 1),
    6: (4, 2, 1),
}
TWO_PLAYER_ELIMINATION_POINTS: dict[str, tuple[int, ...]] = {
    "top": (3,),
    "three_one": (3, 1),
    "none": (),
}


@dataclass(frozen=True)
class OptionSpec:
    """One option as a person sees it; ``choices`` is None for a yes/no or a number option.

    ``minimum`` is set for a number option. ``section`` is the rulebook section (§) and
    ``reads`` the rulebook sentence the option reads (empty for options of panal's own).
    """

    name: str
    default: bool | int | str
    description: str
    section: str
    reads: str = ""
    choices: tuple[str, ...] | None = None
    minimum: int | None = None

    @property
    def kind(self) -> str:
        """``"bool"``, ``"int"`` or ``"choice"``."""
        if self.choices is not None:
            return "choice"
        return "int" if self.minimum is not None else "bool"

    def check(self, value: object) -> bool | int | str:
        """``value`` if it is allowed, else ValueError naming the option."""
        if self.kind == "choice":
            if isinstance(value, str) and value in (self.choices or ()):
                return value
            allowed = ", ".join(self.choices or ())
            raise ValueError(f"option {self.name} is one of {allowed}, not {value!r}")
        if self.kind == "int":
            minimum = self.minimum or 0
            if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
                wanted = "a positive integer" if minimum == 1 else f"an integer from {minimum}"
                raise ValueError(f"{self.name} must be {wanted}, not {value!r}")
            return value
        if not isinstance(value, bool):
            raise ValueError(f"option {self.name} must be true or false, not {value!r}")
        return value


OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "rounds",
        10,
        "number of rounds (advanced rule: fewer for quick games, more for slow ones)",
        "§4, §16",
        "Ajustar las rondas al estilo de juego de los participantes.",
        minimum=1,
    ),
    OptionSpec(
        "elimination_points",
        False,
        "advanced rule: victory points to the top eliminators (3/1 with 3-4 players, 4/2/1 with "
        "5-6) instead of the elimination tiebreak",
        "§16",
        "En la versión de 3 y 4 jugadores, 3 puntos de victoria al que más elimine y 1 al segundo.",
    ),
    OptionSpec(
        "elimination_ranking",
        "dense",
        "elimination points with equal counts: dense (2,2,1 eliminations score 3,3,1) or "
        "competition (3,3,0: after two firsts comes third)",
        "§16",
        "3 puntos de victoria al que más elimine y 1 al segundo.",
        choices=("dense", "competition"),
    ),
    OptionSpec(
        "two_player_elimination_points",
        "top",
        "elimination points in a two-player game (not covered by the rule): top (3 to the top "
        "eliminator), three_one (3/1 as with 3-4 players) or none (the elimination tiebreak)",
        "§16",
        "En la versión de 3 y 4 jugadores, 3 puntos de victoria al que más elimine y 1 al segundo.",
        choices=("top", "three_one", "none"),
    ),
    OptionSpec(
        "tie_credit",
        "each",
        "who is credited with the tiles when equal numbers fight: each (each player with the "
        "other's tile), attacker (the attacker with the defender's tile) or none",
        "§7",
        "Si ambas fichas tuvieran el mismo número, ambas se eliminarán del juego para toda la "
        "partida. Las fichas eliminadas se las quedará quien las elimine.",
        choices=("each", "attacker", "none"),
    ),
    OptionSpec(
        "scout_extra_step",
        False,
        "advanced rule: using the scout adds one step to what it has left",
        "§16",
        "Al activar la habilidad de la abeja exploradora se le suma un movimiento más a lo que le "
        "quede por realizar.",
    ),
    OptionSpec(
        "scout_retry",
        False,
        "flipping a tile that is not the 1 does not use up the turn's scout: the player may flip "
        "again",
        "§8",
        "si no lo fuera, la volverá a girar y continuaría el juego.",
    ),
    OptionSpec(
        "colmena_combat",
        False,
        "advanced rule: tiles can be eliminated in the colmena in the last two rounds",
        "§16",
        "Se pueden eliminar fichas en las 2 últimas rondas en la colmena",
    ),
    OptionSpec(
        "displaced_to",
        "near_colmena_cell",
        "colmena combat: the displaced tile goes to the empty cell nearest to its colmena cell "
        "(near_colmena_cell) or to the cell it entered the colmena from (near_entry)",
        "§16",
        "La ficha desplazada se posicionaría en la celda vacía más próxima de donde viene",
        choices=("near_colmena_cell", "near_entry"),
    ),
    OptionSpec(
        "must_move_one",
        False,
        "advanced rule: every player must move at least one tile per turn",
        "§16",
        "Obligación de mover como mínimo una ficha por turno y jugador.",
    ),
    OptionSpec(
        "must_move_all",
        False,
        "advanced rule: every player must move every tile they have on the board",
        "§16",
        "Obligación de mover todas las fichas del tablero por turno y jugador.",
    ),
    OptionSpec(
        "linked_dark_cells",
        "off",
        "advanced rule: the dark cells between zones are joined, one step from any dark cell to "
        "any other (all) or to any other of the same spoke (spoke)",
        "§16",
        "Los hexágonos entre dos zonas de jugador, coloreados en oscuro, podrán usarse como si "
        "estos estuvieran juntos, pudiendo moverse de unos a otros contando un movimiento.",
        choices=("off", "all", "spoke"),
    ),
    OptionSpec(
        "eliminated_visible",
        False,
        "easier version: everyone may look at the eliminated tiles' numbers",
        "§14",
        "se puede realizar otra versión mas fácil del juego, permitiendo la visualización de las "
        "fichas eliminadas.",
    ),
    OptionSpec(
        "memory_play",
        False,
        "players no longer see even their own numbers after setup",
        "§3",
        "El jugador deberá acordarse de la numeración de sus fichas si desea ganar.",
    ),
    OptionSpec(
        "queen_exit_anywhere",
        False,
        "a tile leaving its own colmena cell may land on any cell next to the colmena",
        "§6",
        "el movimiento es total en la colmena",
    ),
)

SPEC_BY_NAME: dict[str, OptionSpec] = {spec.name: spec for spec in OPTION_SPECS}


@dataclass(frozen=True, kw_only=True)
class Options:
    """Rule switches (see :data:`OPTION_SPECS`). ``Options()`` is the basic game."""

    rounds: int = 10
    elimination_points: bool = False
    elimination_ranking: str = "dense"
    two_player_elimination_points: str = "top"
    tie_credit: str = "each"
    scout_extra_step: bool = False
    scout_retry: bool = False
    colmena_combat: bool = False
    displaced_to: str = "near_colmena_cell"
    must_move_one: bool = False
    must_move_all: bool = False
    linked_dark_cells: str = "off"
    eliminated_visible: bool = False
    memory_play: bool = False
    queen_exit_anywhere: bool = False

    def __post_init__(self) -> None:
        for spec in OPTION_SPECS:
            spec.check(getattr(self, spec.name))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        """Options from plain data (a game log); unknown names are refused.

        Logs written before ``linked_dark_cells`` had three values hold ``true``/``false``: they
        read as ``"all"``/``"off"``, the same rule.
        """
        known = {field.name for field in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
        values = dict(data)
        if isinstance(values.get("linked_dark_cells"), bool):
            values["linked_dark_cells"] = "all" if values["linked_dark_cells"] else "off"
        return cls(**values)

    def changed(self) -> dict[str, Any]:
        """The options that differ from the basic game."""
        return {
            spec.name: getattr(self, spec.name)
            for spec in OPTION_SPECS
            if getattr(self, spec.name) != spec.default
        }

    def elimination_table(self, players: int) -> tuple[int, ...]:
        """Points by elimination rank for ``players`` players, under these options."""
        if players == 2:
            return TWO_PLAYER_ELIMINATION_POINTS[self.two_player_elimination_points]
        return ELIMINATION_POINTS[players]
