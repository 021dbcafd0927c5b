"""Game records: boardspace.net SGF, PGN (Mzinga, hivegame.com) and files of UHP GameStrings.

Every reader returns :class:`GameRecord` values: the game type, the moves as UHP MoveStrings, the
recorded headers and result, and the rule options of the site that recorded the game.
``record.replay()`` replays the moves with full rules and ``record.check_result(game)`` compares
the recorded result with the final position::

    records = load_records("games.pgn")
    for record in records:
        game = record.replay()              # RecordError names the source, ply and move
        problem = record.check_result(game)  # None when the result agrees

A file that cannot be read raises :class:`RecordError` (a ``ValueError``) naming the file and the
line, never an unrelated exception. The formats are described in docs/rules.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from panal.hex import Hex
from panal.hive.errors import GameTypeError, RecordError
from panal.hive.game import Game
from panal.hive.move import PASS, Move
from panal.hive.notation import parse_move
from panal.hive.options import OPTION_SPECS, Options, OptionsError
from panal.hive.outcome import GameState, Outcome, Termination
from panal.hive.pieces import Color, GameType, Piece, piece_from_name

__all__ = [
    "BOARDSPACE_OPTIONS",
    "BOARD_GAME_ARENA_OPTIONS",
    "TERMINATIONS",
    "GameRecord",
    "RecordError",
    "load_records",
    "read_game_strings",
    "read_pgn",
    "read_sgf",
    "read_sgf_file",
    "write_pgn",
]

# boardspace.net allows the queen on the first turn. It does end games drawn by repetition, but
# by its own rule (the third arrival at a position by the same move), which fires later than
# ours: its records replay with our rule off, and a recorded draw says how the game ended.
BOARDSPACE_OPTIONS = Options(tournament_opening=False, repetition_draw=False)
# BoardGameArena allows the queen on the first turn and never ends a game by repetition.
BOARD_GAME_ARENA_OPTIONS = Options(tournament_opening=False, repetition_draw=False)

# How a game can end off the board: the Termination values a record can carry. A "forfeit" is a
# recorded win without a resignation on an unfinished position (the loser ran out of time or
# left; only boardspace's RE tells), a "repetition" boardspace's own draw by repetition.
TERMINATIONS = tuple(t for t in Termination if not t.on_board or t is Termination.REPETITION)
# Words older files (panal before Termination) wrote in [Termination] tags.
_LEGACY_TERMINATIONS = {"agreed_draw": Termination.AGREEMENT, "timeout": Termination.TIME}


def termination_from_word(word: str) -> Termination | None:
    """A ``[Termination]`` tag's value → :class:`Termination` (None for free text)."""
    key = word.strip().lower().replace(" ", "_")
    try:
        return Termination(key)
    except ValueError:
        return _LEGACY_TERMINATIONS.get(key)


@dataclass
class GameRecord:
    """One recorded game.

    ``moves`` are UHP MoveStrings as they are replayed (``lenient``: hivegame.com's climbs written
    with a direction are accepted). ``result`` is what the record says (``None`` when it says
    nothing usable); ``termination`` says how the game ended off the board (one of
    :data:`TERMINATIONS`) or is ``None``. ``options`` are the rules of the site that recorded it.
    ``game`` is the 1-based index of the game in its file and ``move_lines`` the source line of
    each move, when known, for error messages.
    """

    game_type: GameType
    moves: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    result: GameState | None = None
    termination: Termination | None = None
    source: str = "<string>"
    options: Options = field(default_factory=Options)
    game: int | None = None
    move_lines: list[int] = field(default_factory=list)

    def replay(self) -> Game:
        """Replay every move with full rules; raises :class:`RecordError` at the first bad one."""
        game = Game(self.game_type, options=self.options)
        for ply, text in enumerate(self.moves, 1):
            try:
                game.push(text, lenient=True)
            except ValueError as exc:
                raise self.error(str(exc), ply) from exc
        return game

    def error(self, reason: str, ply: int | None = None) -> RecordError:
        """A :class:`RecordError` located at ``ply`` (1-based) of this record."""
        line = None
        move = None
        if ply is not None and 0 < ply <= len(self.moves):
            move = self.moves[ply - 1]
            if ply <= len(self.move_lines):
                line = self.move_lines[ply - 1]
        return RecordError(
            reason, source=self.source, line=line, game=self.game, ply=ply, move=move
        )

    @property
    def outcome(self) -> Outcome | None:
        """The recorded ending off the board (result and termination), when the record says
        both; a game that ended on the board says it by ``replay().outcome()``."""
        if self.result is None or not self.result.is_over or self.termination is None:
            return None
        try:
            return Outcome(self.termination, self.result.winner)
        except ValueError:
            return None  # a contradiction check_result reports

    def check_result(self, game: Game) -> str | None:
        """How the recorded result disagrees with ``game`` (the replayed final position), or None.

        A finished position must show the recorded result. An unfinished one agrees with a
        recorded win or draw only when the record says how the game ended off the board
        (``termination``), and a record of an unfinished game needs an unfinished position.
        """
        recorded = self.result
        final = game.state
        if recorded is None:
            return None
        if final.is_over:
            if recorded is final:
                return None
            return f"the record says {recorded} but the final position is {final}"
        if not recorded.is_over:
            return None
        if self.termination is None:
            return (
                f"the record says {recorded} but the final position is still in progress "
                "and the record does not say how the game ended"
            )
        if self.termination in (Termination.SURROUNDED, Termination.BOTH_SURROUNDED):
            return (
                f"the record says the game ended by {self.termination.value}, but the final "
                "position is still in progress"
            )
        if self.termination.is_draw != (recorded is GameState.DRAW):
            return f"the record says {recorded}, which a {self.termination.value} cannot give"
        return None


def _decode(data: bytes) -> str:
    """UTF-8 (with or without a byte-order mark), else Latin-1 as old boardspace files are."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _read_text(path: str | Path) -> str:
    try:
        return _decode(Path(path).read_bytes())
    except OSError as exc:
        raise RecordError(f"cannot read the file: {exc.strerror or exc}", source=str(path)) from exc


# --- boardspace.net SGF -----------------------------------------------------------------------


class _Property(NamedTuple):
    name: str
    value: str
    line: int


_IDENT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")


def _scan_sgf(text: str, source: str) -> list[list[_Property]]:
    """The nodes of the first game tree, each a list of properties (values unescaped)."""
    nodes: list[list[_Property]] = []
    index, end, line, depth = 0, len(text), 1, 0
    while index < end:
        char = text[index]
        if char == "\n":
            line += 1
            index += 1
        elif char.isspace():
            index += 1
        elif depth == 0:
            if char != "(":
                raise RecordError(
                    f"not an SGF game tree: expected '(' but found {char!r}",
                    source=source,
                    line=line,
                )
            depth = 1
            index += 1
        elif char == "(":
            raise RecordError("SGF variations are not supported", source=source, line=line)
        elif char == ")":
            depth -= 1
            index += 1
            if depth == 0:
                return nodes  # a second copy of the tree, as some files have, is ignored
        elif char == ";":
            nodes.append([])
            index += 1
        elif char in _IDENT_CHARS:
            start = index
            while index < end and text[index] in _IDENT_CHARS:
                index += 1
            name = text[start:index]
            while index < end and text[index] in " \t\r":
                index += 1
            if index >= end or text[index] != "[":
                raise RecordError(f"property {name} has no [value]", source=source, line=line)
            if not nodes:
                raise RecordError(
                    f"property {name} before the first node", source=source, line=line
                )
            while index < end and text[index] == "[":
                value, index, value_line, line = _scan_value(text, index + 1, line, source)
                nodes[-1].append(_Property(name, value, value_line))
        else:
            raise RecordError(f"unexpected character {char!r}", source=source, line=line)
    if depth == 0:
        raise RecordError("no SGF game tree found", source=source)
    raise RecordError("the SGF game tree is not closed with ')'", source=source, line=line)


def _scan_value(text: str, index: int, line: int, source: str) -> tuple[str, int, int, int]:
    """Read a ``[...]`` value from just after ``[``: ``\\x`` is the character x."""
    start_line = line
    parts: list[str] = []
    end = len(text)
    while index < end:
        char = text[index]
        if char == "]":
            return "".join(parts), index + 1, start_line, line
        if char == "\\" and index + 1 < end:
            index += 1
            char = text[index]
        if char == "\n":
            line += 1
        parts.append(char)
        index += 1
    raise RecordError("a [value] is not closed with ']'", source=source, line=start_line)


class _Action(NamedTuple):
    player: int
    command: str
    args: list[str]
    line: int


_ACTION = re.compile(r"^\s*(\d+)\s+([A-Za-z]+)\s*(.*)$", re.DOTALL)
_PLAYER_ID = re.compile(r'^\s*id\s+"?(.*?)"?\s*$', re.DOTALL)
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "september", "sept"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        1,
    )
    for name in names
}
_DATE_DAY_MONTH_YEAR = re.compile(r"\b(\d{1,2}) ([A-Za-z]+) (\d{4})\b")
_DATE_MONTH_DAY_YEAR = re.compile(r"\b([A-Za-z]{3}) (\d{1,2}) .*\b(\d{4})\b")
_DATE_IN_NAME = re.compile(r"-(\d{4})-(\d{2})-(\d{2})-\d{4}$")
# Words for "draw" in the languages boardspace writes RE[] in.
_DRAW_WORDS = (
    "draw",
    "nulle",
    "empate",
    "remis",
    "unentschieden",
    "patta",
    "pareggio",
    "gelijkspel",
    "oavgjort",
    "uavgjort",
    "uafgjort",
    "tasapeli",
    "ничья",
    "ничьей",
    "ничьёй",
    "平局",
    "和棋",
    "引き分け",
)
# The largest coordinate offset accepted from a file: a hive of 28 pieces spans far less.
_MAX_OFFSET = 256
_ATTACHMENT = re.compile(r"^([-/\\]?)([A-Za-z]{1,2}\d?)([-/\\.]?)$")
_DIRECTION_OF_ATTACHMENT = {
    ("", "-"): Hex(1, 0),
    ("", "\\"): Hex(0, 1),
    ("/", ""): Hex(-1, 1),
    ("-", ""): Hex(-1, 0),
    ("\\", ""): Hex(0, -1),
    ("", "/"): Hex(1, -1),
}


def read_sgf_file(path: str | Path) -> GameRecord:
    """Read a boardspace SGF file (UTF-8, or Latin-1 as some old files are)."""
    return read_sgf(_read_text(path), source=str(path))


def read_sgf(text: str, source: str = "<string>") -> GameRecord:
    """Import a boardspace.net Hive SGF game (every variant except Hive-Ultimate).

    The moves are replayed as they are read, so an illegal move raises :class:`RecordError`
    here. Each destination comes from boardspace's grid coordinates, relative to the first
    piece; the MoveString is then written by the engine, and boardspace's own attachment text
    is only checked against it.

    The result comes from a resignation or an accepted draw, else from RE[] naming a winner or
    a draw (in any of boardspace's languages); ``result`` is None when the file does not say
    (2013 files have no RE[]). ``termination`` says how an unfinished game ended: a resignation,
    an accepted draw, a recorded draw whose final position occurred before (boardspace's draw
    by repetition), or a recorded win without a resignation ("forfeit": time or absence). A
    recorded draw on an unfinished, unrepeated position has no termination, so
    :meth:`GameRecord.check_result` reports it. The options are boardspace's
    (:data:`BOARDSPACE_OPTIONS`).
    """
    nodes = _scan_sgf(text, source)
    header: dict[str, _Property] = {}
    player_ids: dict[int, str] = {}
    actions: list[_Action] = []
    for node in nodes:
        for prop in node:
            if prop.name in ("P0", "P1"):
                match = _ACTION.match(prop.value)
                if match:
                    # the leading number is boardspace's action counter, not a move number
                    _, command, rest = match.groups()
                    player = int(prop.name[1])
                    actions.append(_Action(player, command.lower(), rest.split(), prop.line))
                else:
                    found = _PLAYER_ID.match(prop.value)
                    if found and int(prop.name[1]) not in player_ids:
                        player_ids[int(prop.name[1])] = found.group(1)
            elif prop.name != "TM" and not prop.name.startswith("P"):
                header.setdefault(prop.name, prop)
    if "GM" in header and header["GM"].value.strip() != "27":
        gm = header["GM"]
        raise RecordError(
            f"GM[{gm.value}] is not a Hive game (boardspace's Hive is GM[27])",
            source=source,
            line=gm.line,
        )
    game_type = _sgf_game_type(header.get("SU"), source)
    colors = _sgf_colors(header.get("CM"), source)
    names = {colors[player]: name for player, name in player_ids.items()}
    headers = _sgf_headers(header, names)
    converter = _SgfConverter(game_type, colors, source)
    for action in actions:
        converter.act(action)
    game = converter.game
    result, termination = converter.result, converter.termination
    re_prop = header.get("RE")
    if result is None and re_prop is not None:
        result = _result_from_re(re_prop.value, names)
    if result is not None and result.is_over and termination is None and not game.state.is_over:
        if result is not GameState.DRAW:
            termination = (
                Termination.FORFEIT
            )  # RE names a winner of an unfinished game: time or absence
        elif game.repetitions() >= 2:
            termination = Termination.REPETITION
    return GameRecord(
        game_type=game_type,
        moves=converter.moves,
        headers=headers,
        result=result,
        termination=termination,
        source=source,
        options=BOARDSPACE_OPTIONS,
        move_lines=converter.move_lines,
    )


def _sgf_game_type(prop: _Property | None, source: str) -> GameType:
    """``SU[hive-plm 2 0 101]`` → ``Base+MLP``; the numbers of 2023+ files are setup details."""
    if prop is None:
        raise RecordError("no SU[] property: the Hive variant is unknown", source=source)
    words = prop.value.split()
    variant = words[0].lower() if words else ""
    base, _, letters = variant.partition("-")
    if base != "hive":
        raise RecordError(f"unknown Hive variant SU[{prop.value}]", source=source, line=prop.line)
    if letters == "ultimate":
        raise RecordError(
            "Hive-Ultimate is not supported (it has other pieces)", source=source, line=prop.line
        )
    if not set(letters) <= set("mlp") or len(set(letters)) != len(letters):
        raise RecordError(f"unknown Hive variant SU[{prop.value}]", source=source, line=prop.line)
    order = "".join(letter.upper() for letter in "mlp" if letter in letters)
    return GameType.parse(f"Base+{order}" if order else "Base")


def _sgf_colors(prop: _Property | None, source: str) -> dict[int, Color]:
    """Player number → colour; ``CM[0,1]`` (the usual map) makes player 0 white."""
    if prop is None:
        return {0: Color.WHITE, 1: Color.BLACK}
    fields = [f.strip() for f in prop.value.split(",")]
    if sorted(fields) != ["0", "1"]:
        raise RecordError(f"bad colour map CM[{prop.value}]", source=source, line=prop.line)
    return {player: Color(int(color)) for player, color in enumerate(fields)}


def _sgf_headers(header: dict[str, _Property], names: dict[Color, str]) -> dict[str, str]:
    headers: dict[str, str] = {"Site": "boardspace.net"}
    if Color.WHITE in names:
        headers["White"] = names[Color.WHITE]
    if Color.BLACK in names:
        headers["Black"] = names[Color.BLACK]
    date = _sgf_date(header)
    if date:
        headers["Date"] = date
    for prop, tag in (
        ("DT", "SgfDate"),
        ("GN", "SgfGameName"),
        ("RE", "SgfResult"),
        ("SU", "SgfVariant"),
        ("TC", "SgfTimeControl"),
    ):
        if prop in header and header[prop].value.strip():
            headers[tag] = header[prop].value.strip()
    return headers


def _sgf_date(header: dict[str, _Property]) -> str | None:
    """``YYYY.MM.DD`` from DT[] (English forms) or else from the game name (UTC)."""
    text = header["DT"].value if "DT" in header else ""
    match = _DATE_DAY_MONTH_YEAR.search(text)
    if match and match.group(2).lower() in _MONTHS:
        day, month, year = match.group(1), _MONTHS[match.group(2).lower()], match.group(3)
        return f"{year}.{month:02d}.{int(day):02d}"
    match = _DATE_MONTH_DAY_YEAR.search(text)
    if match and match.group(1).lower() in _MONTHS:
        month, day, year = _MONTHS[match.group(1).lower()], match.group(2), match.group(3)
        return f"{year}.{month:02d}.{int(day):02d}"
    name = header["GN"].value.strip() if "GN" in header else ""
    match = _DATE_IN_NAME.search(name)
    if match:
        return ".".join(match.groups())
    return None


def _result_from_re(text: str, names: dict[Color, str]) -> GameState | None:
    """Boardspace's localized RE[]: a draw word, or the winner's name (robots' ids lose their
    digit suffix there: ``Dumbot0`` wins as ``Dumbot``; guests are renamed, ``invitado1498``)."""
    lowered = text.lower()
    if any(word in lowered for word in _DRAW_WORDS):
        return GameState.DRAW
    winners = [color for color, name in names.items() if _names_player(text, name)]
    if len(winners) == 1:
        return GameState.WHITE_WINS if winners[0] is Color.WHITE else GameState.BLACK_WINS
    if not winners:
        guests = [color for color, name in names.items() if name.lower() == "guest"]
        if len(guests) == 1 and len(names) == 2:
            return GameState.WHITE_WINS if guests[0] is Color.WHITE else GameState.BLACK_WINS
    return None


def _names_player(text: str, name: str) -> bool:
    for candidate in (name, name.rstrip("0123456789")):
        if candidate and re.search(rf"(?<!\w){re.escape(candidate)}(?!\w)", text, re.IGNORECASE):
            return True
    return False


class _Pending(NamedTuple):
    """A move dropped but not yet committed by Done."""

    piece: Piece | None  # None: a pass
    to: Hex | None
    attachment: str | None
    line: int
    grid: tuple[int, int] | None = None  # boardspace's column and row


class _SgfConverter:
    """Follows boardspace's UI actions and replays each committed move on a Game."""

    def __init__(self, game_type: GameType, colors: dict[int, Color], source: str) -> None:
        self.game = Game(game_type, options=BOARDSPACE_OPTIONS)
        self.colors = colors
        self.source = source
        self.moves: list[str] = []
        self.move_lines: list[int] = []
        self.origin: tuple[int, int] | None = None  # grid cell of the first piece
        self.pending: _Pending | None = None
        self.handshake = False  # a draw offer/decline whose Done is not a turn
        self.ended = False
        self.result: GameState | None = None
        self.termination: Termination | None = None

    def fail(self, reason: str, action: _Action) -> RecordError:
        return RecordError(reason, source=self.source, line=action.line)

    def act(self, action: _Action) -> None:
        if self.ended:
            return  # the tail after a resignation or an accepted draw
        command, args = action.command, action.args
        if command in ("start", "pick", "pickb"):
            return  # UI steps: what counts is where pieces are dropped
        if command == "drop":
            self.pending = None  # the piece went back to the reserve
        elif command in ("dropb", "pdropb"):
            self.drop(action, args[0] if args else "", args[1:], None)
        elif command in ("move", "pmove", "movedone", "pmovedone"):
            color = args[0] if args else ""
            self.drop(action, args[1] if len(args) > 1 else "", args[2:], color)
            if command.endswith("done"):
                self.commit(action)
        elif command == "pass":
            self.pending = _Pending(None, None, None, action.line)
        elif command == "passdone":
            self.pending = _Pending(None, None, None, action.line)
            self.commit(action)
        elif command == "done":
            if self.handshake:
                self.handshake = False
            else:
                self.commit(action)
        elif command == "resign":
            loser = self.colors[action.player]
            self.result = GameState.BLACK_WINS if loser is Color.WHITE else GameState.WHITE_WINS
            self.termination = Termination.RESIGNATION
            self.ended = True
        elif command in ("offerdraw", "declinedraw"):
            self.handshake = True
        elif command == "acceptdraw":
            self.result = GameState.DRAW
            self.termination = Termination.AGREEMENT
            self.ended = True
        else:
            raise self.fail(f"unsupported boardspace command {action.command!r}", action)

    def drop(self, action: _Action, token: str, args: list[str], color_token: str | None) -> None:
        """Dropb/Move: ``<piece> <col> <row> <attachment>`` (Move has a colour token first)."""
        if len(args) < 2:
            raise self.fail(f"{action.command}: expected a piece, a column and a row", action)
        hint = self.colors[action.player]
        if color_token is not None:
            letter = color_token.strip().lower()[:1]
            if letter not in ("w", "b"):
                raise self.fail(f"{action.command}: bad colour {color_token!r}", action)
            hint = Color.WHITE if letter == "w" else Color.BLACK
        piece = _sgf_piece(token, hint)
        if piece is None:
            raise self.fail(f"{action.command}: unknown piece {token!r}", action)
        column = _parse_column(args[0])
        try:
            row = int(args[1])
        except ValueError:
            row = None
        if column is None or row is None:
            raise self.fail(f"{action.command}: bad cell {args[0]} {args[1]}", action)
        if self.origin is None:
            to = Hex(0, 0)  # the first piece; its grid cell becomes the origin when committed
        else:
            to = Hex(column - self.origin[0], -(row - self.origin[1]))
            if max(abs(to.q), abs(to.r)) > _MAX_OFFSET:
                raise self.fail(f"cell {args[0]} {args[1]} is far off the board", action)
        attachment = args[2] if len(args) > 2 else None
        if self.game.position_of(piece) == to and self.game.stack_at(to)[-1] == piece:
            self.pending = None  # dropped back where it stood
            return
        self.pending = _Pending(piece, to, attachment, action.line, (column, row))

    def commit(self, action: _Action) -> None:
        """Done: play the last dropped move, or a pass when nothing was dropped."""
        game = self.game
        if self.colors[action.player] is not game.turn:
            raise self.fail(
                f"{action.command} by {self.colors[action.player].title}, "
                f"but it is {game.turn.title}'s turn",
                action,
            )
        pending = self.pending or _Pending(None, None, None, action.line)
        self.pending = None
        move = PASS if pending.piece is None else Move(pending.piece, pending.to)
        ply = game.ply + 1
        try:
            if not game.is_legal(move):
                game.push(move)  # raises, naming the rule
            text = game.move_string(move)
        except ValueError as exc:
            raise RecordError(
                str(exc),
                source=self.source,
                line=pending.line,
                ply=ply,
                move=self.describe(move),
            ) from exc
        if pending.attachment is not None and pending.piece is not None:
            problem = self.check_attachment(pending)
            if problem:
                raise RecordError(
                    problem, source=self.source, line=pending.line, ply=ply, move=text
                )
        game.push(move)
        if self.origin is None:
            self.origin = pending.grid
        self.moves.append(text)
        self.move_lines.append(pending.line)

    def describe(self, move: Move) -> str:
        if move.is_pass:
            return "pass"
        return f"{move.piece.name} to {tuple(move.to)}"

    def check_attachment(self, pending: _Pending) -> str | None:
        """Boardspace's own description of the destination must name the same cell."""
        assert pending.attachment is not None and pending.to is not None
        text = pending.attachment
        game = self.game
        occupied = bool(game.stack_at(pending.to))
        if text == ".":
            # "." is a climb, the first piece, or a piece touching nothing but the cell it left
            origin = game.position_of(pending.piece)
            touching = [n for n in pending.to.neighbors() if n != origin and game.stack_at(n)]
            if occupied or not touching:
                return None
            return "the attachment '.' says the piece touches nothing, but it does"
        match = _ATTACHMENT.match(text)
        if match is None or (match.group(1) and match.group(3)):
            return f"unreadable attachment {text!r}"
        prefix, name, suffix = match.groups()
        reference = piece_from_name(name)
        where = game.position_of(reference) if reference is not None else None
        if reference is None or where is None:
            return f"the attachment {text!r} names a piece that is not on the board"
        if suffix in (".", "") and not prefix:
            expected = where  # on top of the reference
        else:
            expected = where + _DIRECTION_OF_ATTACHMENT[(prefix, suffix)]
        if expected != pending.to:
            return (
                f"the attachment {text!r} names cell {tuple(expected)} but the grid "
                f"coordinates give {tuple(pending.to)}"
            )
        return None


def _sgf_piece(token: str, color: Color) -> Piece | None:
    """``wA1``, ``bP1``; 2013 files write ``A1``/``g1``/``q`` (colour from context) or ``bs2``."""
    token = token.strip()
    if len(token) >= 2 and token[1].isalpha():
        letter, rest = token[0].lower(), token[1:]
        if letter not in ("w", "b"):
            return None
    else:
        letter, rest = color.letter, token
    if not rest:
        return None
    return piece_from_name(letter + rest)


def _parse_column(token: str) -> int | None:
    """``A``..``Z`` = 0..25; past the edges ``1A``, ``2A``… = -1, -2… and ``1Z``… = 26…"""
    token = token.strip().upper()
    match = re.fullmatch(r"(\d{0,4})([A-Z])", token)
    if match is None:
        return None
    count, letter = match.groups()
    if not count:
        return ord(letter) - ord("A")
    if letter == "A":
        return -int(count)
    if letter == "Z":
        return 25 + int(count)
    return None


# --- PGN (Mzinga, hivegame.com) ---------------------------------------------------------------

# Result words: UHP's GameState names (Mzinga) and chess-style scores (hivegame.com).
_RESULTS: dict[str, GameState | None] = {
    "whitewins": GameState.WHITE_WINS,
    "blackwins": GameState.BLACK_WINS,
    "draw": GameState.DRAW,
    "inprogress": GameState.IN_PROGRESS,
    "notstarted": GameState.NOT_STARTED,
    "1-0": GameState.WHITE_WINS,
    "0-1": GameState.BLACK_WINS,
    "1/2-1/2": GameState.DRAW,
    "*": None,
    "?": None,
    "": None,
    "error parsing result": None,  # hivegame.com's converter writes this when it gave up
}
_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_NUMBERED_MOVE = re.compile(r"^(\d+)\s*\.+\s*(.*?)$")
_ROSTER = ("GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result")


def read_pgn(text: str, source: str = "<string>") -> list[GameRecord]:
    """Read one or more games of Hive PGN: tag pairs, one numbered ply per line, a result line.

    Ply numbers are not checked (a repeated number is a separate ply, as hivegame.com's test files
    expect). ``[GameType]`` is required. The result comes from ``[Result]`` (``WhiteWins``… or
    ``1-0``/``0-1``/``1/2-1/2``) and the result line, which must agree. A ``[Termination]`` tag
    with one of :data:`TERMINATIONS` says how the game ended off the board; without one (Mzinga
    and hivegame.com write none), a recorded draw on an unfinished position is read as an agreed
    draw and a recorded win as a resignation, as for GameString lines. panal's own rule-option
    tags, named as the UHP options (``[TournamentOpening "True"]``, ``[DragonflySidestep
    "Backward"]``, see :data:`panal.hive.OPTION_SPECS`), set rule options, which are otherwise the
    defaults (hivegame.com's rules: queen allowed on the first turn, threefold repetition draws).
    """
    records: list[GameRecord] = []
    builder = _PgnGame(source, 1)
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("["):
            if builder.has_body:
                records.append(builder.finish())
                builder = _PgnGame(source, len(records) + 1)
            builder.tag(line, number)
        elif builder.result_line is not None:
            raise RecordError(
                f"unexpected text after the result line: {line!r}", source=source, line=number
            )
        elif line.lower() in _RESULTS and line not in ("", "?"):
            builder.result_line = (line, number)
        else:
            match = _NUMBERED_MOVE.match(line)
            if match is None:
                raise RecordError(
                    f"expected a tag pair, a numbered move ('12. wQ -bA1') or a result, "
                    f"not {line!r}",
                    source=source,
                    line=number,
                )
            if not match.group(2):
                raise RecordError(f"ply {match.group(1)} has no move", source=source, line=number)
            builder.moves.append(match.group(2))
            builder.move_lines.append(number)
    if builder.tags or builder.has_body:
        records.append(builder.finish())
    if not records:
        raise RecordError("no game found", source=source)
    return records


class _PgnGame:
    """The parts of one PGN game as they are read."""

    def __init__(self, source: str, index: int) -> None:
        self.source = source
        self.index = index
        self.tags: dict[str, str] = {}
        self.tag_lines: dict[str, int] = {}
        self.moves: list[str] = []
        self.move_lines: list[int] = []
        self.result_line: tuple[str, int] | None = None
        self.first_line: int | None = None

    @property
    def has_body(self) -> bool:
        return bool(self.moves) or self.result_line is not None

    def fail(self, reason: str, line: int | None) -> RecordError:
        return RecordError(reason, source=self.source, line=line, game=self.index)

    def tag(self, line: str, number: int) -> None:
        match = _TAG.match(line)
        if match is None:
            raise self.fail(f'expected a tag pair like [Name "value"], not {line!r}', number)
        name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
        if name in self.tags:
            raise self.fail(f"the tag {name} appears twice", number)
        if self.first_line is None:
            self.first_line = number
        self.tags[name] = value
        self.tag_lines[name] = number

    def finish(self) -> GameRecord:
        if "GameType" not in self.tags:
            raise self.fail("no [GameType] tag", self.first_line or self.result_or_move_line())
        try:
            game_type = GameType.parse(self.tags["GameType"])
        except GameTypeError as exc:
            raise self.fail(str(exc), self.tag_lines["GameType"]) from exc
        result = self.result()
        record = GameRecord(
            game_type=game_type,
            moves=self.moves,
            headers=dict(self.tags),
            result=result,
            source=self.source,
            options=self.options(),
            game=self.index,
            move_lines=self.move_lines,
        )
        if "Termination" in self.tags:
            # PGN allows free text here; only our own words say something we can check
            record.termination = termination_from_word(self.tags["Termination"])
        else:
            record.termination = _ending_off_the_board(record)
        return record

    def result_or_move_line(self) -> int | None:
        if self.move_lines:
            return self.move_lines[0]
        return self.result_line[1] if self.result_line else None

    def result(self) -> GameState | None:
        tagged = None
        if "Result" in self.tags:
            word = self.tags["Result"].strip().lower()
            if word not in _RESULTS:
                raise self.fail(f"unknown result {self.tags['Result']!r}", self.tag_lines["Result"])
            tagged = _RESULTS[word]
        if self.result_line is None:
            return tagged
        text, number = self.result_line
        written = _RESULTS[text.lower()]
        if "Result" in self.tags and written is not tagged and None not in (written, tagged):
            raise self.fail(
                f"the result line says {text} but the Result tag says {self.tags['Result']}",
                number,
            )
        return written if written is not None else tagged

    def options(self) -> Options:
        values: dict[str, bool | str] = {}
        for spec in OPTION_SPECS:
            if spec.uhp in self.tags:
                try:
                    values[spec.name] = spec.parse(self.tags[spec.uhp])
                except OptionsError as exc:
                    raise self.fail(str(exc), self.tag_lines[spec.uhp]) from None
        return Options.from_values(values)


def write_pgn(game: Game, headers: dict[str, str] | None = None) -> str:
    """The game as Mzinga-style PGN: tag pairs, one numbered ply per line, the result line.

    ``headers`` add tags (``White``, ``Date``…); a ``Result`` among them is written instead of the
    position's state (a resignation, say). ``GameType`` always comes from the game; rule options
    that differ from the defaults are written as tags named as their UHP options.
    """
    given = dict(headers or {})
    given.pop("GameType", None)
    result = given.pop("Result", None) or str(game.state)
    if result.strip().lower() not in _RESULTS:
        raise ValueError(f"unknown result {result!r}")
    tags: dict[str, str] = {"GameType": str(game.game_type)}
    for name in _ROSTER[1:-1]:
        tags[name] = given.pop(name, "")
    tags["Result"] = result
    changed = game.options.changed()
    for spec in OPTION_SPECS:
        if spec.name in changed:
            tags[spec.uhp] = spec.uhp_value(changed[spec.name])
        given.pop(spec.uhp, None)
    tags.update(given)
    lines = []
    for name, value in tags.items():
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            raise ValueError(f"a PGN tag name is letters, digits and '_': {name!r}")
        if len(f"[{value}]".splitlines()) != 1:
            raise ValueError(f"the value of tag {name} spans lines")
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{name} "{escaped}"]')
    lines.append("")
    lines.extend(f"{ply}. {text}" for ply, text in enumerate(game.move_strings(), 1))
    lines.append("")
    lines.append(result)
    return "\n".join(lines) + "\n"


# --- UHP GameString lines (BoardGameArena corpus) ---------------------------------------------

_TURN = re.compile(r"^(white|black)\[\d+\]$", re.IGNORECASE)


def read_game_strings(text: str, source: str = "<string>") -> list[GameRecord]:
    """Read a file of UHP GameStrings, one game a line (blank lines and ``#`` comments skipped).

    The GameState field is the recorded result and the turn field is recomputed. These files
    have no headers, so a recorded ``Draw`` on an unfinished final position is read as an agreed
    draw and a recorded win on an unfinished position as a resignation (``termination``); the
    moves are replayed without rule checks to see whether the position is finished. The options
    are BoardGameArena's: queen allowed on the first turn, no draw by repetition.
    """
    records: list[GameRecord] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        index = len(records) + 1
        fields = [part.strip() for part in line.split(";")]
        if len(fields) < 3:
            raise RecordError(
                "expected a GameString: GameType;GameState;Turn;moves…",
                source=source,
                line=number,
                game=index,
            )
        try:
            game_type = GameType.parse(fields[0])
        except GameTypeError as exc:
            raise RecordError(str(exc), source=source, line=number, game=index) from exc
        state_word = fields[1].lower()
        if state_word not in _RESULTS or not state_word.isalpha():
            raise RecordError(
                f"unknown game state {fields[1]!r}", source=source, line=number, game=index
            )
        if not _TURN.match(fields[2]):
            raise RecordError(
                f"bad turn {fields[2]!r}, expected White[n] or Black[n]",
                source=source,
                line=number,
                game=index,
            )
        moves = fields[3:]
        if moves and moves[-1] == "":
            moves.pop()  # a trailing ';'
        record = GameRecord(
            game_type=game_type,
            moves=moves,
            result=_RESULTS[state_word],
            source=source,
            options=BOARD_GAME_ARENA_OPTIONS,
            game=index,
            move_lines=[number] * len(moves),
        )
        record.termination = _ending_off_the_board(record)
        records.append(record)
    return records


def _ending_off_the_board(record: GameRecord) -> Termination | None:
    """For records that cannot say how a game ended: a recorded draw on an unfinished position
    was agreed, a recorded win on an unfinished position was a resignation (or a loss on time)."""
    if record.result is None or not record.result.is_over or not _ends_unfinished(record):
        return None
    if record.result is GameState.DRAW:
        return Termination.AGREEMENT
    return Termination.RESIGNATION


def _ends_unfinished(record: GameRecord) -> bool:
    """Whether the moves, played without rule checks, leave the game unfinished.

    Only the geometry matters here; ``replay`` judges legality. Moves that do not even parse
    count as unfinished: the record will fail to replay anyway.
    """
    game = Game(record.game_type, options=record.options)
    try:
        for text in record.moves:
            game.push_code(parse_move(game, text, lenient=True))
    except (ValueError, KeyError, IndexError):
        # Unchecked moves can leave a nonsensical position; replay() reports the real error.
        return True
    return not game.state.is_over


# --- files ------------------------------------------------------------------------------------


def load_records(path: str | Path) -> list[GameRecord]:
    """Every game in a file: SGF (``.sgf`` or ``(;``), PGN (``.pgn`` or a leading ``[``) or
    UHP GameString lines."""
    text = _read_text(path)
    source = str(path)
    suffix = Path(path).suffix.lower()
    start = text.lstrip()
    if suffix == ".sgf" or (suffix != ".pgn" and start.startswith("(")):
        return [read_sgf(text, source)]
    if suffix == ".pgn" or start.startswith("["):
        return read_pgn(text, source)
    return read_game_strings(text, source)
