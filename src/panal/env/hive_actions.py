"""Hive moves as a fixed discrete action space, a bijection with panal's UHP MoveStrings.

An action names the moving piece, a reference piece and where the destination lies from the
reference, as a UHP MoveString does (and as OpenSpiel's Hive encodes its actions)::

    action = (piece * N + reference) * R + relation        pass = N * N * R

* ``N`` pieces: the game type's pieces, White's then Black's, each side in panal's slot order
  (Q S1 S2 B1 B2 G1 G2 G3 A1 A2 A3 M L P D, only the bugs in play): 22 for Base, 28 for
  Base+MLP, 30 for Base+MLPD. ``HiveActions.pieces`` lists them. Both sides' pieces can move
  (the Pillbug throws enemy pieces), so the moving piece ranges over all ``N``.
* ``relation`` 0-5: the destination is the neighbour of the reference in that direction,
  clockwise from east as :data:`panal.hex.DIRECTIONS` (``wA1 bQ-`` E, ``wA1 bQ\\`` SE,
  ``wA1 /bQ`` SW, ``wA1 -bQ`` W, ``wA1 \\bQ`` NW, ``wA1 bQ/`` NE); 6: on top of the reference
  (``wB1 bQ``). The first piece of a game has no reference: it is ``(piece, piece, 6)``.
* Games with the Dragonfly have ``R = 14``: relations 7-13 are 0-6 with the Dragonfly carrying
  the piece beneath it (``wD+bA1 wQ-``). Other games have ``R = 7``, so Base+MLP has
  ``28 * 28 * 7 + 1 = 5,489`` actions, as many as OpenSpiel's.

A legal move has many MoveStrings (one per neighbour of its destination); its action is the one
for the MoveString panal writes (``game.move_string``): the reference is the destination's top
piece when climbing, else the first occupied neighbour clockwise from east that is not the
moving piece's own cell (that cell only when it is the sole neighbour, ``wQ -wQ``). So the legal
actions of a position and its legal MoveStrings are in one-to-one correspondence, and the action
mask marks exactly one action per legal move.

>>> from panal.hive import Game
>>> from panal.env.hive_actions import HiveActions
>>> game = Game("Base+MLP", tournament_opening=True)
>>> actions = HiveActions(game.game_type)
>>> actions.size, actions.pass_action
(5489, 5488)
>>> game.push("wS1")
Move(wS1, (0, 0))
>>> action = actions.action_of(game, "bG1 wS1-")
>>> action, actions.move_string(game, action)
(3731, 'bG1 wS1-')
>>> actions.split(action)  # (19 * 28 + 1) * 7 + 0: bG1 is piece 19, wS1 piece 1, east is 0
(Piece.bG1, Piece.wS1, 0, False)
>>> legal = actions.legal(game)  # action -> move code, one action per legal move
>>> len(legal) == len(game.legal_moves), actions.code_of(game, action) in legal.values()
(True, True)
"""

from __future__ import annotations

from panal.hex import NEIGHBOR_OFFSETS, ORIGIN_CELL
from panal.hive.codes import CARRY_FLAG, OFF_BOARD, PASS_CODE
from panal.hive.game import Game
from panal.hive.move import Move
from panal.hive.move_keys import ON_TOP, MoveKeys, MoveKeyTracker
from panal.hive.notation import DIRECTION_SYMBOLS
from panal.hive.pieces import PIECE_BY_VALUE, Bug, Color, GameType, Piece

__all__ = ["ON_TOP", "HiveActions"]

_RELATIONS = 7  # six directions and on top


class HiveActions:
    """The action space of one game type: action ints to moves and back.

    ``size`` actions, the last one (``pass_action``) the pass. ``legal(game)`` maps each legal
    action of a position to its move code; ``action_of`` and ``code_of``/``move_string`` convert
    single moves. Illegal or malformed input raises ``ValueError`` naming the problem.
    """

    def __init__(self, game_type: GameType | str) -> None:
        self.game_type = game_type if isinstance(game_type, GameType) else GameType.parse(game_type)
        self.pieces: tuple[Piece, ...] = tuple(
            self.game_type.pieces(Color.WHITE) + self.game_type.pieces(Color.BLACK)
        )
        self.relations = _RELATIONS * (2 if Bug.DRAGONFLY in self.game_type.expansions else 1)
        count = len(self.pieces)
        self.size = count * count * self.relations + 1
        self.pass_action = self.size - 1
        self._index = [-1] * 32  # piece value -> index among self.pieces
        for index, piece in enumerate(self.pieces):
            self._index[piece] = index
        self._count = count
        # piece value -> its part of an action as the moving piece, and as the reference
        self._moving = [max(i, 0) * count * self.relations for i in self._index]
        self._referred = [max(i, 0) * self.relations for i in self._index]
        self._keys = MoveKeys(self._moving, self._referred, _RELATIONS, self.pass_action)

    def __repr__(self) -> str:
        return f"HiveActions({str(self.game_type)!r})"

    # --- positions --------------------------------------------------------------------------

    def legal(self, game: Game) -> dict[int, int]:
        """Every legal action of ``game``'s position → its move code (``{}`` once it is over).

        The actions are the ones of the MoveStrings ``game.move_string`` writes; the engine's
        :class:`~panal.hive.move_keys.MoveKeys` builds them from the move codes without writing
        any text (it runs at every step of an environment, and the compiled build compiles it).
        :meth:`tracker` also remembers each destination's references from one position to the
        next.
        """
        return self._keys.legal(game)

    def mask(self, game: Game) -> list[int]:
        """The legal actions of ``game``, sorted (the action mask's set entries)."""
        return sorted(self.legal(game))

    def tracker(self, game: Game) -> MoveKeyTracker:
        """A :class:`~panal.hive.move_keys.MoveKeyTracker` of ``game``: its legal actions
        (``tracker.legal()``) as it goes forward through ``tracker.push(code)``."""
        return self._keys.tracker(game)

    # --- single moves -----------------------------------------------------------------------

    def action_of(self, game: Game, move: Move | str | int) -> int:
        """The action of a legal move (a :class:`Move`, a MoveString or a move code) in
        ``game``'s position; ``ValueError`` (``IllegalMoveError``) when it is not legal."""
        if isinstance(move, str):
            code = game.parse_move_code(move)
        elif isinstance(move, Move):
            code = move.code
        elif isinstance(move, int) and not isinstance(move, bool):
            code = move
        else:
            raise TypeError(f"a move is a Move, a MoveString or a move code, not {move!r}")
        for action, legal_code in self.legal(game).items():
            if legal_code == code:
                return action
        game.move_string(code)  # raises IllegalMoveError naming the rule the move breaks
        raise ValueError(f"move code {code} is not a legal move here")

    def split(self, action: int) -> tuple[Piece, Piece, int, bool] | None:
        """``(piece, reference, relation 0-6, carry)`` of an action; None for the pass.
        ``ValueError`` for an int outside the action space."""
        if isinstance(action, bool) or not 0 <= int(action) < self.size:
            raise ValueError(f"action {action!r} is outside 0..{self.size - 1}")
        action = int(action)
        if action == self.pass_action:
            return None
        rest, relation = divmod(action, self.relations)
        piece, reference = divmod(rest, self._count)
        return self.pieces[piece], self.pieces[reference], relation % _RELATIONS, relation >= 7

    def code_of(self, game: Game, action: int) -> int:
        """The move code an action names in ``game``'s position (legal or not); ``ValueError``
        when it names no cell: a reference still in hand, or a first move later on."""
        parts = self.split(action)
        if parts is None:
            return PASS_CODE
        piece, reference, relation, carry = parts
        stacks = game.stacks
        if not stacks:
            if reference != piece or relation != ON_TOP or carry:
                raise ValueError("the first move of a game is (piece, piece, on top)")
            return ORIGIN_CELL << 6 | piece
        cell = game.piece_cells[reference]
        if cell == OFF_BOARD:
            raise ValueError(f"action {action}: its reference {reference.name} is not on the board")
        if relation != ON_TOP:
            cell += NEIGHBOR_OFFSETS[relation]
        return cell << 6 | (CARRY_FLAG if carry else 0) | piece

    def move_string(self, game: Game, action: int) -> str:
        """The MoveString an action names (``wA1 bQ-``, ``wB1 bQ``, ``wD+bA1 bQ-``, ``pass``),
        written from the action itself; legal or not."""
        parts = self.split(action)
        if parts is None:
            return "pass"
        piece, reference, relation, carry = parts
        name = piece.name
        if carry:
            cell = game.piece_cells[piece]
            stack = game.stacks.get(cell, ()) if cell != OFF_BOARD else ()
            under = PIECE_BY_VALUE[stack[-2]].name if len(stack) > 1 else "?"
            name = f"{name}+{under}"
        if not game.stacks and reference == piece and relation == ON_TOP:
            return name
        if relation == ON_TOP:
            return f"{name} {reference.name}"
        prefix, suffix = DIRECTION_SYMBOLS[relation]
        return f"{name} {prefix}{reference.name}{suffix}"

    def piece_index(self, piece: Piece | str) -> int:
        """The index of ``piece`` (a Piece or its name) among :attr:`pieces`; ``ValueError``
        when it is not a piece of this game type."""
        index = self._index[Piece.from_name(piece) if isinstance(piece, str) else Piece(piece)]
        if index < 0:
            raise ValueError(f"{piece!r} is not a piece of {self.game_type}")
        return index
