"""The examples of the README and of the chapters moved from it to docs/, and the library's
docstring examples, run as doctests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


#: The README and the chapters that moved from it to docs/ (issue 25): their examples run.
GUIDES = (
    "README.md",
    "docs/library.md",
    "docs/ai.md",
    "docs/benchmarks.md",
    "docs/serving.md",
    "docs/puzzles-and-lessons.md",
    "docs/research.md",
    "docs/enjambre-guide.md",
)


@pytest.mark.parametrize("path", GUIDES)
def test_guide_examples(path: str) -> None:
    text = (ROOT / path).read_text()
    result = doctest.testfile(str(ROOT / path), module_relative=False, optionflags=FLAGS)
    assert result.attempted == len(re.findall(r"^>>> ", text, re.MULTILINE))
    assert result.failed == 0


def test_the_moved_chapters_keep_their_examples() -> None:
    """The library, AI, puzzles and research chapters have examples: they still run."""
    for path in (
        "docs/library.md",
        "docs/ai.md",
        "docs/puzzles-and-lessons.md",
        "docs/research.md",
    ):
        assert ">>> " in (ROOT / path).read_text(), path


def library_modules() -> list[str]:
    """Every module of the library packages (the web platform and Enjambre have their own)."""
    names = []
    for package in ("panal.hex", "panal.hive", "panal.ai", "panal.uhp"):
        names.append(package)
        path = importlib.import_module(package).__path__
        names.extend(info.name for info in pkgutil.walk_packages(path, package + "."))
    return sorted(names)


@pytest.mark.parametrize("module", library_modules())
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=FLAGS)
    assert result.failed == 0


def test_readme_commands_are_the_ones_ci_runs() -> None:
    """.ci/run must run the README's install step and test command exactly as written."""
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    install, test = 'pip install -e ".[web]"', 'pip install -e ".[web,test]" && python -m pytest'
    assert f"{install} && panal serve" in readme
    assert f"\n{test}\n" in readme
    assert f"\n{install}\n" in ci
    assert f"\n{test}\n" in ci
