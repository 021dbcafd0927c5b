"""Which build of panal a benchmark runs on, and how to run it on the other one.

panal installs as pure Python by default, or compiled with mypyc (docs/library.md, "Compiled
build").
A benchmark measures the build it imports and, when that is the compiled one, can measure the
pure source in the same sitting: ``run_on_pure_source`` runs a script again in a subprocess
whose ``sys.path`` starts with a copy of the package's ``.py`` files only (a compiled editable
install keeps its extension modules beside the sources, so the source folder itself will not do).
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import panal
import panal.hive.game

PURE_FLAG = "--json-on-pure-source"


def build_name() -> str:
    """``compiled`` (mypyc) or ``pure``: the build this process imports. (Read from the rules
    engine's file rather than ``panal.compiled()``, so that versions before it measure too.)"""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return "compiled" if str(panal.hive.game.__file__).endswith(suffixes) else "pure"


def run_on_pure_source(script: str, args: list[str]) -> dict[str, Any]:
    """Run ``script`` with ``args`` and ``PURE_FLAG`` on a pure copy of the package; the script
    prints one JSON object as its last line, returned here."""
    package = Path(panal.__file__).resolve().parent
    with tempfile.TemporaryDirectory(prefix="panal-pure-") as folder:
        shutil.copytree(package, Path(folder) / "panal", ignore=_not_python_source)
        env = dict(os.environ, PYTHONPATH=folder)
        done = subprocess.run(
            [sys.executable, script, *args, PURE_FLAG],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if result.get("build") != "pure":
        raise RuntimeError(f"the pure run imported the {result.get('build')} build")
    return result


def _not_python_source(folder: str, names: list[str]) -> list[str]:
    """Leave out compiled modules and caches (``shutil.copytree``'s ``ignore``)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return [name for name in names if name.endswith(suffixes) or name == "__pycache__"]
