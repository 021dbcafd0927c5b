"""boardspace.net SGF: one game per file, as boardspace's UI actions (pick, drop, done…).

The moves are replayed as they are read (each destination comes from boardspace's grid
coordinates), so an illegal move raises :class:`~panal.hive.errors.RecordError` while reading.
A file whose game tree does not parse, or that goes on after the tree closes (a stray ``)`` in
the middle of a game), is refused with the line at fault: never read as a shorter game.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from panal.hex import DIRECTIONS, Hex
from panal.hive.errors import RecordError
from panal.hive.game import Game
from panal.hive.move import PASS, Move
from panal.hive.notation import DIRECTION_OF_SYMBOLS
from panal.hive.outcome import GameState, Termination
from panal.hive.pieces import Color, GameType, Piece, piece_from_name
from panal.hive.records.base import BOARDSPACE_OPTIONS, GameRecord, read_text

__all__ = ["read_sgf", "read_sgf_file"]


class _Property(NamedTuple):
    name: str
    value: str
    line: int


_IDENT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")


def _scan_sgf(text: str, source: str) -> list[list[_Property]]:
    """The nodes of the game tree, each a list of properties (values unescaped).

    Some boardspace files repeat the tree (with the viewer's own actions added); a second tree is
    skipped when it is a whole tree of the same game (the same GN[] name). Anything else after
    the tree is an error: a stray ``)`` closes the tree early, and the rest of the game must not
    be silently dropped.
    """
    nodes, index, line, closed_at = _scan_tree(text, 0, 1, source)
    while True:
        index, line = _skip_space(text, index, line)
        if index >= len(text):
            return nodes
        if text[index] != "(":
            raise RecordError(
                f"text after the end of the game tree, which a ')' on line {closed_at} closed: "
                "a stray ')' would cut the game short",
                source=source,
                line=line,
            )
        copy_line = line
        copy, index, line, _ = _scan_tree(text, index, line, source)
        if _game_name(copy) != _game_name(nodes):
            raise RecordError(
                "a second game tree of another game (its GN[] differs): one game per file",
                source=source,
                line=copy_line,
            )


def _game_name(nodes: list[list[_Property]]) -> str | None:
    return next((p.value for node in nodes for p in node if p.name == "GN"), None)


def _skip_space(text: str, index: int, line: int) -> tuple[int, int]:
    while index < len(text) and text[index].isspace():
        if text[index] == "\n":
            line += 1
        index += 1
    return index, line


def _scan_tree(
    text: str, index: int, line: int, source: str
) -> tuple[list[list[_Property]], int, int, int]:
    """One game tree from ``index``: its nodes, where it ends, the line there, and the line of
    its closing ``)``."""
    nodes: list[list[_Property]] = []
    end, depth = len(text), 0
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
                return nodes, index, line, line
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


def read_sgf_file(path: str | Path) -> GameRecord:
    """Read a boardspace SGF file (UTF-8, or Latin-1 as some old files are)."""
    return read_sgf(read_text(path), source=str(path))


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
        move = (
            PASS if pending.piece is None or pending.to is None else Move(pending.piece, pending.to)
        )
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
        assert pending.piece is not None
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
            expected = where + DIRECTIONS[DIRECTION_OF_SYMBOLS[(prefix, suffix)]]
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
