"""The optional compiled build: ``PANAL_MYPYC=1 pip install .`` compiles the rules engine and the
AI (``panal.hex``, ``panal.hive``, ``panal.ai``) with mypyc, from the same typed source.

Without ``PANAL_MYPYC=1`` (the default) this adds nothing: panal installs as pure Python and
needs no compiler. ``build_backend/panal_build.py`` asks pip for mypy only when it is set.
Metadata lives in pyproject.toml.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from setuptools import setup

# Modules left out, each for a reason: move.py builds Move values without running __init__
# (object.__new__), which a compiled class refuses; options.py's dataclass takes strings for its
# enum fields and converts them after __init__, which compiled type checks refuse. Neither is on
# a hot path, nor is the records sub-package (I/O). ai/commands.py is command-line glue that
# imports the AI only when it runs: nothing to gain from compiling it.
NOT_COMPILED = {
    "src/panal/hive/move.py",
    "src/panal/hive/options.py",
    "src/panal/ai/commands.py",
}


def compiled_modules() -> list[str]:
    """The source files mypyc compiles: the top level of panal.hex, panal.hive and panal.ai."""
    files = []
    for package in ("hex", "hive", "ai"):
        files += sorted(str(path) for path in Path("src/panal", package).glob("*.py"))
    return [file for file in files if file not in NOT_COMPILED]


def compiled_build() -> bool:
    return os.environ.get("PANAL_MYPYC", "") not in ("", "0")


def extensions(folder: str) -> list[object]:
    """mypyc's extension modules, their C written under ``folder``."""
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit(
            "PANAL_MYPYC=1 compiles panal with mypyc, which comes with mypy: install "
            "'mypy>=2.4,<2.5' first when building without pip's build isolation"
        ) from None
    return mypycify(
        ["--config-file", "pyproject.toml", *compiled_modules()],
        opt_level="3",
        debug_level="0",
        group_name="panal",
        target_dir=folder,
    )


if compiled_build():
    # A fresh build folder each time, removed after: one left by an earlier compile holds
    # extension modules that this one would package too (stubs bound to the old shared library,
    # modules no longer compiled), and the imports would fail.
    folder = tempfile.mkdtemp(prefix="panal-mypyc-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    setup(ext_modules=extensions(folder), options={"build": {"build_base": folder}})
else:
    setup()
