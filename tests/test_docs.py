"""The README's examples and the library's docstring examples run as doctests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_readme_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 0
    assert result.failed == 0


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
