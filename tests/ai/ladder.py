"""benchmarks/ai_ladder.py, loaded as a module for the tests (benchmarks/ is not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_ladder() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "ai_ladder.py"
    spec = importlib.util.spec_from_file_location("ai_ladder", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ai_ladder"] = module
    spec.loader.exec_module(module)
    return module
