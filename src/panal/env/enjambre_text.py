"""Enjambre Tácticas in words, for language-model agents and for OpenSpiel's strings.

:func:`observation_text` is one seat's view as plain text: the board the terminal game draws
(``render_board``: a tile shows its number only if the seat may look at it now, ``?``
otherwise), the status (round, turn, own tiles, eliminations), every number shown to all that is
still on the board (the public record a player with a perfect memory keeps), the seat's set-up
picks not yet sent, and the latest events. It is built from ``Game.observe(seat)`` only.

:func:`action_text` names an index of the action space in the terminal game's notation
(``panal enjambre play``): ``move H9 H8`` (a step; with ``moves="paths"`` the whole path,
``move H9 H8 G8``), ``scout H9`` (``scout H9 (below)`` for the tile under one passing over
it), ``displace G5``, ``end``; a set-up pick is ``place 3 C4`` (the tile numbered 3 goes on
C4; the terminal's ``place`` takes all ten cells at once).
:func:`legal_action_texts` maps each legal action's text to its index, one to one, and
:func:`prompt_text` is the view with the legal actions appended (``with_legal=True``).

:func:`play_text_game` is a small play loop for text agents
(:data:`panal.env.text_agents.TextAgent`, as in the Hive driver): the last legal action in the
answer is played; an answer with none is refused and asked again with the reason
(:func:`panal.env.text_agents.ask`), up to ``max_retries`` times, then the seat ends its turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from panal.enjambre import Phase, Step
from panal.enjambre.observation import Observation
from panal.enjambre.render import describe_event, render_board, render_status
from panal.hex import Hex

from .enjambre_actions import EnjambreTable
from .text_agents import Reader, TextAgent, Turn, ask

__all__ = [
    "INSTRUCTIONS",
    "TextAgent",
    "Turn",
    "action_text",
    "extract_action",
    "legal_action_texts",
    "observation_text",
    "play_text_game",
    "prompt_text",
]


def observation_text(observation: Observation, picks: Sequence[Hex] = (), events: int = 20) -> str:
    """One seat's view in words (see the module's description)."""
    state = observation.state
    board = state.board
    seat = observation.me
    lines = [
        f"You are {state.colour(seat)} (seat {seat}) in Enjambre Tácticas, "
        f"{state.players} players, phase: {state.phase}.",
        render_board(observation),
        render_status(observation),
    ]
    remembered = []
    for tile, number in sorted(observation.revealed.items()):
        cell = state.tile_cell[tile]
        if cell is not None and state.owner(tile) != seat and tile not in observation.numbers:
            remembered.append(f"{board.label(cell)}={number}")
    if remembered:
        lines.append("enemy numbers shown earlier: " + ", ".join(remembered))
    if state.phase is Phase.SETUP and observation.my_turn:
        done = ", ".join(f"{n}->{board.label(c)}" for n, c in enumerate(picks, start=1))
        lines.append(
            f"set-up: place your tiles 1 to {board.tiles_per_player} in order on cells of your "
            f"zone; placed so far: {done or 'none'}"
        )
    recent = [describe_event(e, state) for e in observation.history[-events:]]
    shown = [line for line in recent if line]
    if shown:
        lines.append("latest events:")
        lines.extend(f"  {line}" for line in shown)
    return "\n".join(lines)


def action_text(table: EnjambreTable, index: int) -> str:
    """The index, for the seat to act now, in the terminal game's notation."""
    seat = table.to_move
    if seat is None:
        raise ValueError("the game is over")
    state = table.state
    board = state.board
    kind, slot, where = table.layout.describe(index)
    if kind == "pick":
        number = len(table.picks[seat]) + 1
        return f"place {number} {board.label(state.zone(seat)[where])}"
    if kind == "end":
        return "end"
    if kind == "displace":
        return f"displace {board.label(table.layout.cells[where])}"
    tile = seat * table.layout.tiles + slot
    cell = state.tile_cell[tile]
    start = "?" if cell is None else board.label(cell)
    if kind == "scout":
        # A tile passing over its own shares a cell with it: the terminal's "scout A" means the
        # tile in motion, so the one it stands over is named apart.
        below = tile != state.active and cell is not None and state.is_floating()
        below = below and state.tile_cell[state.active or 0] == cell
        return f"scout {start}" + (" (below)" if below else "")
    cells = [board.label(s.target) for s in table.engine_actions(index) if isinstance(s, Step)]
    return "move " + " ".join([start, *cells])


def legal_action_texts(table: EnjambreTable) -> dict[str, int]:
    """Each legal action's text and its index, for the seat to act."""
    return {action_text(table, index): index for index in table.legal_indices()}


def prompt_text(table: EnjambreTable, seat: int, *, with_legal: bool = False) -> str:
    """``seat``'s view in words; ``with_legal`` appends its legal actions, one a line, when it
    is the seat to act."""
    text = observation_text(table.observe(seat), table.picks[seat])
    if with_legal and seat == table.to_move:
        text += "\nyour legal actions:\n" + "\n".join(f"  {t}" for t in legal_action_texts(table))
    return text


INSTRUCTIONS = (
    "You are playing Enjambre Tácticas. Answer with one of your legal actions exactly as listed"
    " (move A B: step the tile on A to B; scout A: flip your tile on A; displace A; end: end your"
    " turn; during the set-up, place N A: your tile numbered N goes on A). The last legal action"
    " in your answer is read as your action."
)


def extract_action(answer: str, legal: Mapping[str, int]) -> str | None:
    """The legal action whose text ends last in ``answer`` (any case and spacing; the longer
    text wins where two end together), or None.

    >>> extract_action("I will scout first... final: Move  h9 H8", {"move H9 H8": 5, "end": 9})
    'move H9 H8'
    """
    flat = _normalised(answer)
    best: tuple[int, int] | None = None
    found = None
    for text in legal:
        at = flat.rfind(_normalised(text))
        if at < 0:
            continue
        key = (at + len(text), len(text))
        if best is None or key > best:
            best, found = key, text
    return found


def play_text_game(
    table: EnjambreTable,
    agents: Mapping[int, TextAgent],
    *,
    max_retries: int = 2,
) -> list[Turn]:
    """Play ``table`` to its end with one text agent per seat and return the transcript.

    Each prompt is :data:`INSTRUCTIONS`, the seat's view and its legal actions
    (:func:`prompt_text`); an answer with no legal action is refused and the question asked
    again with the reason, up to ``max_retries`` times, after which the seat ends its turn (or,
    when it cannot, takes its first legal action) and play goes on.
    """
    transcript: list[Turn] = []
    while not table.over:
        seat = table.to_move
        assert seat is not None
        legal = legal_action_texts(table)
        question = INSTRUCTIONS + "\n\n" + prompt_text(table, seat, with_legal=True)
        chosen = ask(
            agents[seat],
            question,
            _reader(legal),
            seat=seat,
            ply=table.actions_taken,
            max_retries=max_retries,
            transcript=transcript,
        )
        if chosen is None:
            chosen = legal["end"] if "end" in legal else next(iter(legal.values()))
        table.apply(chosen)
    return transcript


def _reader(legal: Mapping[str, int]) -> Reader[int]:
    """Reads an answer as the index of the legal action it names last."""

    def read(answer: str) -> tuple[str | None, int | None, str]:
        found = extract_action(answer, legal)
        if found is None:
            return None, None, "it held none of your legal actions"
        return found, legal[found], ""

    return read


def _normalised(text: str) -> str:
    """Answers match a legal text whatever their case and spacing."""
    return " ".join(text.lower().split())
