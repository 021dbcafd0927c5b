"""The API reference (docs/api, Sphinx) builds from the docstrings without a warning, covers
every library module, and every example in it runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main

from tests.test_docs import library_modules

SOURCE = Path(__file__).resolve().parents[1] / "docs" / "api"


def _documented() -> set[str]:
    names: set[str] = set()
    for page in SOURCE.glob("*.rst"):
        names.update(re.findall(r"^\.\. automodule:: (\S+)", page.read_text(), re.MULTILINE))
    return names


def test_every_library_module_is_in_the_reference() -> None:
    wanted = {name for name in library_modules() if not name.endswith(".commands")}
    assert wanted - _documented() == set()


def test_the_reference_builds_without_warnings(tmp_path: Path) -> None:
    # -W: a warning (a broken reference, a docstring Sphinx cannot read) fails the build.
    assert build_main(["-b", "html", "-W", "--keep-going", "-q", str(SOURCE), str(tmp_path)]) == 0
    assert (tmp_path / "hive.html").read_text(encoding="utf-8").count("Game.from_board") > 0


def test_every_example_in_the_reference_runs(tmp_path: Path) -> None:
    assert build_main(["-b", "doctest", "-q", str(SOURCE), str(tmp_path)]) == 0
    report = (tmp_path / "output.txt").read_text(encoding="utf-8")
    tests = int(re.search(r"^\s+(\d+) tests$", report, re.MULTILINE).group(1))  # type: ignore[union-attr]
    assert tests >= 50, report
    assert "0 failures in tests" in report


@pytest.mark.parametrize("page", sorted(p.name for p in SOURCE.glob("*.rst")))
def test_pages_are_in_the_table_of_contents(page: str) -> None:
    index = (SOURCE / "index.rst").read_text()
    assert page == "index.rst" or f"   {page.removesuffix('.rst')}\n" in index
