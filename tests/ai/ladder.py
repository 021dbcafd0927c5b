"""Benchmarks (benchmarks/ai_ladder.py and others) loaded as modules for the tests (benchmarks/
is not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_benchmark(name: str) -> ModuleType:
    """benchmarks/<name>.py, registered under its own name, as other benchmarks import it."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_ladder() -> ModuleType:
    return load_benchmark("ai_ladder")
