"""Hive PGN (Mzinga, hivegame.com, panal): tag pairs, one numbered ply per line, a result line.

``iter_pgn(handle)`` reads one game at a time from a file object (or any iterable of lines), so
a file of thousands of games never sits in memory; ``read_pgn(text)`` reads a string.
``write_pgn(game, headers)`` writes one game, and with ``notes`` (one :class:`PlyNote` per ply)
an annotated one: a move mark (``?!``, ``??``...), a ``{comment}`` and a ``(variation)`` after a
ply's move, on its line. The reader skips all three, as it skips NAGs (``$2``) and ``;`` comments
to the end of a line; comments and variations may span lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from panal.hive.errors import GameTypeError, RecordError
from panal.hive.game import Game
from panal.hive.options import OPTION_SPECS, Options, OptionsError
from panal.hive.outcome import GameState
from panal.hive.pieces import GameType
from panal.hive.records.base import (
    RESULT_WORDS,
    GameRecord,
    ending_off_the_board,
    termination_from_word,
)

__all__ = ["MOVE_MARKS", "PlyNote", "iter_pgn", "read_pgn", "write_pgn"]

_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_NUMBERED_MOVE = re.compile(r"^(\d+)\s*\.+\s*(.*?)$")
_ROSTER = ("GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result")
_MARKS_AND_NAGS = re.compile(r"\$\d+|[!?]+")
MOVE_MARKS = ("!!", "!", "!?", "?!", "?", "??")
"""The move marks of PGN (no UHP MoveString has a ``!`` or a ``?``)."""


@dataclass(frozen=True)
class PlyNote:
    """What an annotated PGN adds to one ply: a mark of :data:`MOVE_MARKS`, a comment (one line,
    without ``}``), and a variation: MoveStrings played instead of the ply's move, from the
    position before it."""

    mark: str = ""
    comment: str = ""
    variation: tuple[str, ...] = ()

    def check(self) -> None:
        """ValueError unless the note can be written and read back."""
        if self.mark and self.mark not in MOVE_MARKS:
            raise ValueError(f"a move mark is one of {' '.join(MOVE_MARKS)}, not {self.mark!r}")
        if "}" in self.comment or len(f"[{self.comment}]".splitlines()) != 1:
            raise ValueError(f"a comment is one line without '}}': {self.comment!r}")
        for text in self.variation:
            if not text or any(char in text for char in "(){};$!?") or "\n" in text:
                raise ValueError(f"not a MoveString for a variation: {text!r}")

    def text(self, ply: int) -> str:
        """The note as written after the move of ``ply`` (1-based)."""
        parts = [self.mark] if self.mark else []
        if self.comment:
            parts.append(f"{{{self.comment}}}")
        if self.variation:
            moves = " ".join(f"{ply + i}. {text}" for i, text in enumerate(self.variation))
            parts.append(f"({moves})")
        return " ".join(parts)


class _Annotations:
    """Strips what an annotated PGN adds around the moves (comments, variations, marks, NAGs),
    line after line: a comment or variation may go on over several lines."""

    def __init__(self) -> None:
        self.in_comment = False
        self.variations = 0  # how deep in nested variations
        self.opened = 0  # the line where the open comment or variation began

    @property
    def open(self) -> bool:
        return self.in_comment or self.variations > 0

    def strip(self, line: str, number: int) -> str:
        """The text of ``line`` outside comments and variations, without marks and NAGs."""
        kept = []
        for char in line:
            if self.in_comment:
                self.in_comment = char != "}"
            elif char == "{":
                self.in_comment = True
                self.opened = self.opened if self.variations else number
            elif char == ";" and not self.variations:
                break  # a comment to the end of the line
            elif char == "(":
                self.variations += 1
                self.opened = self.opened if self.variations > 1 else number
            elif char == ")":
                if not self.variations:
                    raise ValueError("a ')' closes no variation")
                self.variations -= 1
            elif not self.variations:
                kept.append(char)
        return _MARKS_AND_NAGS.sub("", "".join(kept)).strip()


def iter_pgn(lines: Iterable[str], source: str = "<string>") -> Iterator[GameRecord]:
    """Read games of Hive PGN one at a time from ``lines`` (a file object, or any iterable of
    lines): tag pairs, one numbered ply per line, a result line. Each game is yielded when the
    next one starts, so a malformed game raises after the good ones before it.

    Ply numbers are not checked (a repeated number is a separate ply, as hivegame.com's test files
    expect). ``[GameType]`` is required. The result comes from ``[Result]`` (``WhiteWins``… or
    ``1-0``/``0-1``/``1/2-1/2``) and the result line, which must agree. A ``[Termination]`` tag
    with a :class:`~panal.hive.outcome.Termination` value says how the game ended off the board;
    without one (Mzinga and hivegame.com write none), a recorded draw on an unfinished position
    is read as an agreed draw and a recorded win as a resignation, as for GameString lines.
    panal's own rule-option tags, named as the UHP options (``[TournamentOpening "True"]``,
    ``[DragonflySidestep "Backward"]``, see :data:`panal.hive.OPTION_SPECS`), set rule options,
    which are otherwise the defaults (hivegame.com's rules: queen allowed on the first turn,
    threefold repetition draws).
    """
    builder = _PgnGame(source, 1)
    found = 0
    annotations = _Annotations()
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not (line.startswith("[") and not annotations.open):
            try:
                line = annotations.strip(line, number)
            except ValueError as exc:
                raise RecordError(str(exc), source=source, line=number) from None
        if not line:
            continue
        if line.startswith("[") and not annotations.open:
            if builder.has_body:
                yield builder.finish()
                found += 1
                builder = _PgnGame(source, found + 1)
            builder.tag(line, number)
        elif builder.result_line is not None:
            raise RecordError(
                f"unexpected text after the result line: {line!r}", source=source, line=number
            )
        elif line.lower() in RESULT_WORDS and line not in ("", "?"):
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
    if annotations.open:
        what = "comment" if annotations.in_comment else "variation"
        raise RecordError(f"the {what} is never closed", source=source, line=annotations.opened)
    if builder.tags or builder.has_body:
        yield builder.finish()
        found += 1
    if not found:
        raise RecordError("no game found", source=source)


def read_pgn(text: str, source: str = "<string>") -> list[GameRecord]:
    """Every game of a PGN text (see :func:`iter_pgn`)."""
    return list(iter_pgn(text.splitlines(), source))


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
            record.termination = ending_off_the_board(record)
        return record

    def result_or_move_line(self) -> int | None:
        if self.move_lines:
            return self.move_lines[0]
        return self.result_line[1] if self.result_line else None

    def result(self) -> GameState | None:
        tagged = None
        if "Result" in self.tags:
            word = self.tags["Result"].strip().lower()
            if word not in RESULT_WORDS:
                raise self.fail(f"unknown result {self.tags['Result']!r}", self.tag_lines["Result"])
            tagged = RESULT_WORDS[word]
        if self.result_line is None:
            return tagged
        text, number = self.result_line
        written = RESULT_WORDS[text.lower()]
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


def write_pgn(
    game: Game,
    headers: dict[str, str] | None = None,
    notes: Sequence[PlyNote | None] | None = None,
) -> str:
    """The game as Mzinga-style PGN: tag pairs, one numbered ply per line, the result line.

    ``headers`` add tags (``White``, ``Date``…); a ``Result`` among them is written instead of the
    position's state (a resignation, say). ``GameType`` always comes from the game; rule options
    that differ from the defaults are written as tags named as their UHP options. ``notes``, one
    per ply (None for a ply without), annotate the moves (:class:`PlyNote`).
    """
    notes = list(notes or [])
    if len(notes) > game.ply:
        raise ValueError(f"{len(notes)} notes for a game of {game.ply} plies")
    for note in notes:
        if note is not None:
            note.check()
    given = dict(headers or {})
    given.pop("GameType", None)
    result = given.pop("Result", None) or str(game.state)
    if result.strip().lower() not in RESULT_WORDS:
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
    for ply, text in enumerate(game.move_strings(), 1):
        note = notes[ply - 1] if ply <= len(notes) else None
        written = note.text(ply) if note is not None else ""
        lines.append(f"{ply}. {text} {written}" if written else f"{ply}. {text}")
    lines.append("")
    lines.append(result)
    return "\n".join(lines) + "\n"
