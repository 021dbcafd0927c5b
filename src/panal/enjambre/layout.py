"""The Enjambre Tácticas board, described as data.

The rulebook's pictures are lost, so the board is reconstructed from its text. Everything about
the geometry lives in :data:`DEFAULT_LAYOUT`, a plain literal that can be corrected without
touching code; :mod:`panal.enjambre.board` turns it into lookup tables and checks it.

Conventions (also in ``docs/enjambre.md``):

* Axial coordinates from :mod:`panal.hex`; ``D[i]`` is ``panal.hex.DIRECTIONS[i]``, listed
  clockwise from east on screen (y grows downwards).
* The board is six identical sectors around the centre. Cell ``[a, b]`` of a sector's list is the
  cell ``a·D[i] + b·D[i+1]`` of sector ``i``. Sector ``i`` belongs to colour ``colours[i]``: its
  ``zone`` cells are that colour's starting zone and its ``colmena`` cell is that colour's cell of
  the colmena. ``dark`` cells are the darker cells between two starting zones.
* ``clockwise``: play passes from sector ``i`` to sector ``i + clockwise`` (mod 6).
* ``seats`` maps a player count to the sectors used, listed in clockwise order; ``"draw"`` means
  the sectors are drawn at random with the game's random generator.
"""

from __future__ import annotations

from typing import Any

# fmt: off
DEFAULT_LAYOUT: dict[str, Any] = {
    "name": "Enjambre Tácticas, reconstructed from rulebook 003",
    "radius": 6,
    "centre": [0, 0],
    "sector": {
        "colmena": [[1, 0]],
        "dark": [[2, 0], [3, 0], [4, 0], [5, 0], [6, 0]],
        "neutral": [[1, 1], [2, 1], [1, 2]],
        "zone": [
            [3, 1], [2, 2], [1, 3],
            [4, 1], [3, 2], [2, 3], [1, 4],
            [5, 1], [4, 2], [3, 3], [2, 4], [1, 5],
        ],
    },
    "colours": ["orange", "blue", "green", "red", "purple", "yellow"],
    "clockwise": 1,
    "seats": {
        "2": [0, 3],
        "3": [0, 2, 4],
        "4": [0, 1, 3, 4],
        "5": "draw",
        "6": [0, 1, 2, 3, 4, 5],
    },
    "tiles_per_player": 10,
}
# fmt: on
