"""The pieces of each look as SVG figures (the same drawings as the web UI's ``pieces.js``).

Figures are drawn in a box about 44 units wide centred on 0,0, for a hexagonal tile of
circumradius :data:`TILE_SIZE`. Classic: ivory and black tiles with coloured bugs. Football
(rulebook 004): Blanco tiles (White) against Grana (Black) with the club's objects: Escudo (a
crowned crest), Muro (wall), Rayo (lightning), Balón, Bota, Escudo Imperial (a crest in a
laurel), Acho Pimentón (a pepper), Portero (a goalkeeper's glove), Extremo (a run down the wing,
then a cut inside).
"""

from __future__ import annotations

__all__ = ["TILE_COLORS", "TILE_SIZE", "figure"]

TILE_SIZE = 30.0

# (fill, stroke) of the tiles per look, white then black.
TILE_COLORS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "classic": (("#f4efe2", "#8a806c"), ("#272421", "#000000")),
    "football": (("#fbfbf8", "#8c8c8c"), ("#7b1e34", "#4a0f1d")),
}

_BUG_COLORS = {
    "Q": "#e3a600",
    "S": "#8b4a2b",
    "B": "#7a4fa0",
    "G": "#3a9a3a",
    "A": "#2f6fc4",
    "M": "#8e8e8e",
    "L": "#d22f2f",
    "P": "#23998c",
    "D": "#23b0d6",
}


def figure(letter: str, color: int, look: str) -> str:
    """SVG markup of the figure of bug ``letter`` (UHP letter) on a tile of ``color``."""
    if look == "football":
        return _football(letter, color)
    return _classic(letter, color == 1)


def _classic(letter: str, dark: bool) -> str:
    c = _BUG_COLORS[letter]
    ink = "#f4efe2" if dark else "#222"
    shell_line = "#272421" if dark else "#f4efe2"

    def legs(paths: str) -> str:
        return (
            f'<g stroke="{c}" stroke-width="2.2" fill="none" stroke-linecap="round">'
            f'<path d="{paths}"/></g>'
        )

    if letter == "Q":  # a bee: striped body, wings, head
        wing = "#cfe7f5" if dark else "#bcdff2"
        return (
            f'<ellipse cx="-9" cy="-6" rx="8" ry="12" fill="{wing}" opacity="0.9" '
            'transform="rotate(-25 -9 -6)"/>'
            f'<ellipse cx="9" cy="-6" rx="8" ry="12" fill="{wing}" opacity="0.9" '
            'transform="rotate(25 9 -6)"/>'
            f'<ellipse cx="0" cy="4" rx="9" ry="14" fill="{c}"/>'
            '<rect x="-9" y="0" width="18" height="3.5" fill="#222"/>'
            '<rect x="-8" y="7" width="16" height="3.5" fill="#222"/>'
            '<circle cx="0" cy="-12" r="5.5" fill="#222"/>'
            f'<path d="M-4 -19 L-2 -15 L0 -19 L2 -15 L4 -19" stroke="{c}" stroke-width="1.8" '
            'fill="none"/>'
        )
    if letter == "S":  # a spider: round body, eight legs
        return (
            legs(
                "M-4 -2 L-16 -12 L-20 -4 M-4 1 L-18 -2 L-22 6 M-4 4 L-16 8 L-18 17 M-3 6 L-10 14 "
                "L-10 21 M4 -2 L16 -12 L20 -4 M4 1 L18 -2 L22 6 M4 4 L16 8 L18 17 M3 6 L10 14 "
                "L10 21"
            )
            + f'<circle cx="0" cy="5" r="8" fill="{c}"/><circle cx="0" cy="-6" r="5" fill="{c}"/>'
            f'<circle cx="-2" cy="-7" r="1.2" fill="{ink}"/>'
            f'<circle cx="2" cy="-7" r="1.2" fill="{ink}"/>'
        )
    if letter == "B":  # a beetle: split shell, head, six short legs
        return (
            legs(
                "M-10 -4 L-17 -9 M-11 3 L-18 3 M-10 10 L-16 16 "
                "M10 -4 L17 -9 M11 3 L18 3 M10 10 L16 16"
            )
            + f'<ellipse cx="0" cy="4" rx="11" ry="14" fill="{c}"/>'
            f'<line x1="0" y1="-9" x2="0" y2="18" stroke="{shell_line}" stroke-width="1.6"/>'
            f'<circle cx="0" cy="-12" r="5.5" fill="{c}"/>'
            f'<path d="M-3 -16 L-6 -21 M3 -16 L6 -21" stroke="{c}" stroke-width="2" fill="none"/>'
        )
    if letter == "G":  # a grasshopper: long body, bent hind legs, antennae
        return (
            f'<path d="M-16 8 Q-2 -6 14 -8" stroke="{c}" stroke-width="8" fill="none" '
            'stroke-linecap="round"/>'
            f'<path d="M-4 4 L6 -10 L12 12 M-10 8 L-2 -4 L0 16" stroke="{c}" stroke-width="2.6" '
            'fill="none" stroke-linejoin="round"/>'
            f'<circle cx="15" cy="-9" r="4.5" fill="{c}"/>'
            f'<path d="M17 -13 Q20 -20 13 -22 M15 -13 Q14 -19 8 -20" stroke="{c}" '
            'stroke-width="1.5" fill="none"/>'
        )
    if letter == "A":  # an ant: head, thorax, abdomen, legs, antennae
        return (
            legs("M-2 -2 L-13 -9 M-2 1 L-14 2 M-2 3 L-12 12 M2 -2 L13 -9 M2 1 L14 2 M2 3 L12 12")
            + f'<circle cx="0" cy="-13" r="5" fill="{c}"/>'
            f'<ellipse cx="0" cy="-2" rx="4" ry="5.5" fill="{c}"/>'
            f'<ellipse cx="0" cy="12" rx="7" ry="9" fill="{c}"/>'
            f'<path d="M-2 -17 Q-6 -22 -10 -21 M2 -17 Q6 -22 10 -21" stroke="{c}" '
            'stroke-width="1.6" fill="none"/>'
        )
    if letter == "M":  # a mosquito: slim body, long legs, proboscis, clear wings
        return (
            f'<ellipse cx="-8" cy="-2" rx="5" ry="11" fill="none" stroke="{c}" stroke-width="1.4" '
            'transform="rotate(-35 -8 -2)"/>'
            f'<ellipse cx="8" cy="-2" rx="5" ry="11" fill="none" stroke="{c}" stroke-width="1.4" '
            'transform="rotate(35 8 -2)"/>'
            f'<path d="M-2 4 L-14 10 L-20 20 M-2 6 L-8 14 L-10 22 M2 4 L14 10 L20 20 M2 6 L8 14 '
            f'L10 22 M-2 1 L-16 0 L-22 -6 M2 1 L16 0 L22 -6" stroke="{c}" stroke-width="1.4" '
            'fill="none"/>'
            f'<ellipse cx="0" cy="6" rx="3.5" ry="11" fill="{c}"/>'
            f'<circle cx="0" cy="-8" r="4" fill="{c}"/>'
            f'<line x1="0" y1="-11" x2="0" y2="-22" stroke="{c}" stroke-width="1.6"/>'
        )
    if letter == "L":  # a ladybug: red dome, black middle line and spots
        rim = "#f4efe2" if dark else "none"
        spots = "".join(
            f'<circle cx="{x}" cy="{y}" r="{r}" fill="#222"/>'
            for x, y, r in ((-6, -2, 2.8), (6, -2, 2.8), (-8, 8, 2.5), (8, 8, 2.5), (-3, 12, 1.8))
        )
        return (
            f'<circle cx="0" cy="-13" r="5" fill="#222" stroke="{rim}" stroke-width="0.8"/>'
            f'<circle cx="0" cy="3" r="14" fill="{c}"/>'
            '<line x1="0" y1="-11" x2="0" y2="17" stroke="#222" stroke-width="1.8"/>'
            + spots
            + '<circle cx="3" cy="12" r="1.8" fill="#222"/>'
        )
    if letter == "P":  # a pillbug: segmented oval shell
        return (
            f'<ellipse cx="0" cy="2" rx="12" ry="17" fill="{c}"/>'
            '<path d="M-11 -7 Q0 -3 11 -7 M-12 -1 Q0 3 12 -1 M-12 5 Q0 9 12 5 '
            f'M-10 11 Q0 15 10 11" '
            f'stroke="{shell_line}" stroke-width="1.5" fill="none"/>'
            f'<path d="M-4 -14 L-8 -20 M4 -14 L8 -20" stroke="{c}" stroke-width="1.8"/>'
        )
    if letter == "D":  # a dragonfly: long thin body, four wings
        wings = "".join(
            f'<ellipse cx="{x}" cy="{y}" rx="{rx}" ry="{ry}" fill="{c}" opacity="0.55" '
            f'transform="rotate({angle} {x} {y})"/>'
            for x, y, rx, ry, angle in (
                (-11, -7, 11, 4, -12),
                (11, -7, 11, 4, 12),
                (-10, 1, 10, 3.5, 14),
                (10, 1, 10, 3.5, -14),
            )
        )
        return (
            wings + f'<rect x="-2" y="-10" width="4" height="30" rx="2" fill="{c}"/>'
            f'<circle cx="0" cy="-13" r="4.5" fill="{c}"/>'
        )
    raise ValueError(f"unknown bug letter {letter!r}")


def _football(letter: str, color: int) -> str:
    # White plays Blanco, Black plays Grana (names.py says why). Grana tiles carry white and gold
    # drawings; Blanco tiles carry grana ones.
    grana = color == 1
    fg = "#ffffff" if grana else "#7b1e34"
    accent = "#f2c14e" if grana else "#c7972b"
    back = "#7b1e34" if grana else "#fbfbf8"

    def shield(extra: str = "") -> str:
        return (
            f'<path d="M-13 -14 L13 -14 L13 2 Q13 14 0 20 Q-13 14 -13 2 Z" fill="{fg}" '
            f'stroke="{accent}" stroke-width="2"/>'
            f'<path d="M-5 -14 L-5 17 M5 -14 L5 17" stroke="{back}" stroke-width="3"/>' + extra
        )

    # The Escudo, the piece to surround, is the one with the crown: players took the crowned
    # crest for the queen (issue 25), so the Escudo Imperial wears a laurel instead.
    if letter == "Q":  # Escudo: the club crest, crowned
        dot = f'<circle cx="0" cy="-1" r="4.5" fill="{accent}"/>'
        return (
            f'<g transform="translate(0 4) scale(0.85)">{shield(dot)}</g>'
            f'<path d="M-10 -12 L-10 -21 L-5 -16 L0 -23 L5 -16 L10 -21 L10 -12 Z" fill="{accent}" '
            f'stroke="{fg}" stroke-width="1"/>'
        )
    if letter == "M":  # Escudo Imperial: the crest in a laurel wreath
        return (
            f'<g transform="scale(0.75)">{shield()}</g>'
            f'<g fill="none" stroke="{accent}" stroke-width="2.5" stroke-linecap="round">'
            f'<path d="M-8 19 Q-21 10 -16 -16"/><path d="M8 19 Q21 10 16 -16"/></g>'
            f'<g fill="{accent}"><circle cx="-18" cy="-6" r="2.5"/>'
            f'<circle cx="-17" cy="5" r="2.5"/><circle cx="18" cy="-6" r="2.5"/>'
            f'<circle cx="17" cy="5" r="2.5"/></g>'
        )
    if letter == "B":  # Muro: a brick wall
        bricks = "".join(
            f'<rect x="{x}" y="{y}" width="{w}" height="8"/>'
            for y, row in ((-14, ((-16, 16), (0, 16))), (-6, ((-20, 12), (-8, 16), (8, 12))))
            for x, w in row
        )
        lower = "".join(
            f'<rect x="{x}" y="{y}" width="{w}" height="8"/>'
            for y, row in ((2, ((-16, 16), (0, 16))), (10, ((-20, 12), (-8, 16), (8, 12))))
            for x, w in row
        )
        return (
            f'<g fill="{fg}" stroke="{back}" stroke-width="1.6">{bricks}{lower}</g>'
            f'<rect x="-20" y="-14" width="40" height="32" fill="none" stroke="{accent}" '
            'stroke-width="1.6"/>'
        )
    if letter == "G":  # Rayo: a lightning bolt
        return (
            f'<path d="M4 -22 L-12 3 L-1 3 L-6 22 L12 -4 L1 -4 Z" fill="{accent}" stroke="{fg}" '
            'stroke-width="2" stroke-linejoin="round"/>'
        )
    if letter == "S":  # Balón: a football
        return (
            f'<circle cx="0" cy="0" r="16" fill="{fg}" stroke="{accent}" stroke-width="1.5"/>'
            f'<path d="M0 -6 L6 -2 L4 5 L-4 5 L-6 -2 Z" fill="{back}"/>'
            f'<path d="M0 -6 L0 -15 M6 -2 L14 -6 M4 5 L9 13 M-4 5 L-9 13 M-6 -2 L-14 -6" '
            f'stroke="{back}" stroke-width="1.6" fill="none"/>'
        )
    if letter == "A":  # Bota: a football boot with studs
        studs = "".join(f'<rect x="{x}" y="11" width="3" height="5"/>' for x in (-12, -3, 6, 13))
        return (
            '<path d="M-8 -16 L4 -16 L4 -2 Q10 -1 18 4 Q21 8 18 11 L-14 11 Q-17 11 -17 7 '
            'L-13 -4 Z" '
            f'fill="{fg}" stroke="{accent}" stroke-width="1.8" stroke-linejoin="round"/>'
            f'<path d="M-6 -10 L3 -10 M-7 -5 L3 -5" stroke="{back}" stroke-width="1.6"/>'
            f'<g fill="{accent}">{studs}</g>'
        )
    if letter == "L":  # Acho Pimentón: a red pepper with a green stalk
        return (
            '<path d="M-2 -12 Q-16 -12 -14 4 Q-12 18 0 20 Q12 18 14 4 Q16 -12 2 -12 Z" '
            f'fill="#d8262c" stroke="{fg}" stroke-width="2"/>'
            '<path d="M0 -12 Q0 -20 6 -22" stroke="#2e8b3a" stroke-width="3.5" fill="none" '
            'stroke-linecap="round"/>'
            '<path d="M-7 -6 Q-10 4 -6 12" stroke="#ff8a80" stroke-width="2" fill="none"/>'
        )
    if letter == "P":  # Portero: a goalkeeper's glove
        return (
            '<path d="M-10 18 L-10 2 L-15 -4 Q-17 -8 -13 -9 L-8 -3 L-8 -15 Q-8 -18 -5 -18 Q-2 -18 '
            "-2 -15 L-2 -7 L-2 -19 Q-2 -22 1 -22 Q4 -22 4 -19 L4 -7 L4 -17 Q4 -20 7 -20 Q10 -20 "
            '10 -17 L10 -5 L10 -11 Q10 -14 13 -14 Q15 -14 15 -11 L15 6 Q15 14 8 18 Z" '
            f'fill="{fg}" stroke="{accent}" stroke-width="1.8" stroke-linejoin="round"/>'
            f'<rect x="-11" y="12" width="22" height="6" fill="{accent}"/>'
        )
    if letter == "D":  # Extremo: a run down the wing, then a cut inside at 60°, to the ball
        return (
            f'<path d="M-14 18 L-14 -6 L2 -18" stroke="{fg}" stroke-width="4" fill="none" '
            'stroke-linecap="round" stroke-linejoin="round"/>'
            f'<path d="M2 -18 L-6 -18 M2 -18 L-1 -11" stroke="{fg}" stroke-width="4" fill="none" '
            'stroke-linecap="round"/>'
            f'<circle cx="11" cy="-4" r="6" fill="{accent}" stroke="{fg}" stroke-width="1.5"/>'
            f'<path d="M-20 18 L-8 18" stroke="{accent}" stroke-width="2"/>'
        )
    raise ValueError(f"unknown bug letter {letter!r}")
