"""Names of the bugs and colours in English, Spanish and Portuguese, in two looks.

The *classic* look uses the names of the rulebooks (000 Spanish, 001 Portuguese, 002 for the
Mosquito, Ladybug and Dragonfly). Rulebook 001 is European Portuguese (``pt-PT``, also ``pt``);
Brazilian Portuguese (``pt-BR``) names some bugs otherwise: the Beetle is a Besouro, the Pillbug a
Tatuzinho, the football Goalkeeper a Goleiro and the Winger a Ponta.

The *football* look is rulebook 004's re-skin: Escudo, Muro, Rayo, Balón, Bota, and from its
"Leyendas Murcianistas" expansion Escudo Imperial and Acho Pimentón, played Blanco (White)
against Grana (Black).
The rulebooks name no football Pillbug or Dragonfly; panal calls them the Portero (a goalkeeper
picks up a piece next to him and puts it down on his other side) and the Extremo (a winger runs down
the line, then cuts in sideways: a straight jump, then one step at 60°). A look renames; it never
changes a rule, and UHP notation never changes.
"""

from __future__ import annotations

from panal.hive.pieces import BUG_COUNTS, BUG_OF, NUMBER_OF, Bug, Color

LANGUAGES = ("en", "es", "pt-PT", "pt-BR")
_ALIASES = {"pt": "pt-PT"}  # Portuguese without a region: the rulebook's (001), European
LOOKS = ("classic", "football")

_BUGS: dict[str, dict[str, tuple[str, ...]]] = {
    # Order: Queen, Spider, Beetle, Grasshopper, Ant, Mosquito, Ladybug, Pillbug, Dragonfly.
    "classic": {
        "en": (
            "Queen Bee",
            "Spider",
            "Beetle",
            "Grasshopper",
            "Soldier Ant",
            "Mosquito",
            "Ladybug",
            "Pillbug",
            "Dragonfly",
        ),
        "es": (
            "Abeja Reina",
            "Araña",
            "Escarabajo",
            "Saltamontes",
            "Hormiga",
            "Mosquito",
            "Mariquita",
            "Cochinilla",
            "Libélula",
        ),
        "pt-PT": (
            "Abelha",
            "Aranha",
            "Escaravelho",
            "Gafanhoto",
            "Formiga",
            "Mosquito",
            "Joaninha",
            "Bicho-de-conta",
            "Libélula",
        ),
        "pt-BR": (
            "Abelha-rainha",
            "Aranha",
            "Besouro",
            "Gafanhoto",
            "Formiga",
            "Mosquito",
            "Joaninha",
            "Tatuzinho",
            "Libélula",
        ),
    },
    "football": {
        "en": (
            "Crest",
            "Ball",
            "Wall",
            "Bolt",
            "Boot",
            "Imperial Crest",
            "Acho Pimentón",
            "Goalkeeper",
            "Winger",
        ),
        "es": (
            "Escudo",
            "Balón",
            "Muro",
            "Rayo",
            "Bota",
            "Escudo Imperial",
            "Acho Pimentón",
            "Portero",
            "Extremo",
        ),
        "pt-PT": (
            "Escudo",
            "Bola",
            "Muro",
            "Raio",
            "Chuteira",
            "Escudo Imperial",
            "Acho Pimentón",
            "Guarda-redes",
            "Extremo",
        ),
        "pt-BR": (
            "Escudo",
            "Bola",
            "Muro",
            "Raio",
            "Chuteira",
            "Escudo Imperial",
            "Acho Pimentón",
            "Goleiro",
            "Ponta",
        ),
    },
}

_COLORS: dict[str, dict[str, tuple[str, str]]] = {
    "classic": {
        "en": ("White", "Black"),
        "es": ("Blancas", "Negras"),
        "pt-PT": ("Brancas", "Pretas"),
        "pt-BR": ("Brancas", "Pretas"),
    },
    "football": {
        "en": ("White", "Maroon"),
        "es": ("Blanco", "Grana"),
        "pt-PT": ("Branco", "Grená"),
        "pt-BR": ("Branco", "Grená"),
    },
}


def _check(language: str, look: str) -> str:
    """The language's code in :data:`LANGUAGES` (``pt`` is ``pt-PT``), or ValueError."""
    language = _ALIASES.get(language, language)
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    if look not in LOOKS:
        raise ValueError(f"unknown look {look!r}; choose one of {', '.join(LOOKS)}")
    return language


def _as_bug(bug: Bug | int | str) -> Bug:
    if isinstance(bug, str):
        return Bug.from_letter(bug)
    try:
        return Bug(bug)
    except ValueError:
        raise ValueError(
            f"unknown bug {bug!r}: give a Bug, its number (0-8) or its UHP letter (QSBGAMLPD)"
        ) from None


def bug_name(bug: Bug | int | str, language: str = "en", look: str = "classic") -> str:
    """A bug (a :class:`Bug`, its number or its UHP letter) as players call it.

    >>> from panal.hive import Bug
    >>> from panal.hive.names import bug_name
    >>> bug_name(Bug.QUEEN, "es", "football"), bug_name("A", "pt-BR")
    ('Escudo', 'Formiga')
    """
    return _BUGS[look][_check(language, look)][_as_bug(bug)]


def color_name(color: Color | int, language: str = "en", look: str = "classic") -> str:
    """The colour as players call it: in the football look White plays Blanco, Black Grana.

    Rulebook 004 says "Grana vs Blanco" and not who begins. White is Blanco so that a name never
    swaps its meaning between the looks (the white tiles stay White's, and a move list's ``w``
    moves are Blanco's): issue 25 found Blancas shown as Grana, and Blanco naming Black."""
    if color not in (0, 1):
        raise ValueError(f"unknown colour {color!r}: Color.WHITE (0) or Color.BLACK (1)")
    return _COLORS[look][_check(language, look)][int(color)]


_BOARD_TITLES = {
    "en": "Hive board",
    "es": "Tablero de Hive",
    "pt-PT": "Tabuleiro de Hive",
    "pt-BR": "Tabuleiro de Hive",
}


def board_title(language: str = "en") -> str:
    """What a picture of a board is called, for its accessible label."""
    return _BOARD_TITLES[_check(language, "classic")]


def piece_name(piece: int, language: str = "en", look: str = "classic") -> str:
    """``Piece.bA2`` → "Soldier Ant 2 (Black)", "Bota 2 (Blanco)"…"""
    bug = BUG_OF[piece]
    number = f" {NUMBER_OF[piece]}" if BUG_COUNTS[Bug(bug)] > 1 else ""
    return f"{bug_name(bug, language, look)}{number} ({color_name(piece >> 4, language, look)})"


def table(language: str = "en", look: str = "classic") -> dict[str, str]:
    """UHP letter → name, for user interfaces."""
    return {b.letter: bug_name(b, language, look) for b in Bug}
