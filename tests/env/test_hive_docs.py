"""docs/env.md's examples and the docstring examples of panal.env's Hive modules (and of the
text-agent loop both games share) run."""

from __future__ import annotations

import doctest
import importlib
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parents[2]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
MODULES = [
    "panal.env",
    "panal.env.hive_actions",
    "panal.env.hive_aec",
    "panal.env.hive_gym",
    "panal.env.hive_observation",
    "panal.env.hive_openspiel",
    "panal.env.hive_opponents",
    "panal.env.hive_render",
    "panal.env.hive_text_agents",
    "panal.env.text_agents",
]


def test_env_md_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the MCTS example is imported from docs/examples
    monkeypatch.setattr(sys, "path", list(sys.path))  # which the page adds to sys.path
    result = doctest.testfile(str(ROOT / "docs/env.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 10
    assert result.failed == 0


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=FLAGS)
    assert result.failed == 0
