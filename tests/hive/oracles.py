"""Loaders for the reference engines' test data files (Mzinga CSV, nokamute uhp_tests.txt)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.shared_data import read_lines


def mzinga_cases(path: Path) -> Iterator[pytest.ParameterSet]:
    """``GameString<TAB>expected…`` lines, each case named after the comment above it."""
    section = path.stem
    for number, line in enumerate(read_lines(path), 1):
        if line.startswith("#"):
            section = line.lstrip("# ").strip()
        elif line.strip():
            fields = line.split("\t")
            yield pytest.param(*fields, id=f"{path.stem}:{number}:{section}")


def nokamute_cases(path: Path) -> Iterator[pytest.ParameterSet]:
    """Blocks of ``# name`` / GameString / expected valid moves (optional)."""
    lines = read_lines(path)
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("# ") and index + 1 < len(lines) and lines[index + 1].startswith("Base"):
            game_string = lines[index + 1]
            expected = None
            if index + 2 < len(lines) and lines[index + 2] and not lines[index + 2].startswith("#"):
                expected = lines[index + 2]
            yield pytest.param(game_string, expected, id=line[2:].strip())
            index += 2
        else:
            index += 1
