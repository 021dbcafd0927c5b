"""Access to ../shared (reference data no one here wrote).

Tests that read it skip when it is absent (a user's clone) and fail when CI sets
PANAL_REQUIRE_SHARED=1.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

SHARED_DIR = Path(
    os.environ.get("PANAL_SHARED_DIR", Path(__file__).resolve().parents[2] / "shared")
)


def _missing(path: Path) -> None:
    message = f"reference data missing: {path}"
    if os.environ.get("PANAL_REQUIRE_SHARED") == "1":
        pytest.fail(message)
    pytest.skip(message)


def shared(*parts: str) -> Path:
    """A path under ../shared; skips (or fails under CI) when it is absent."""
    path = SHARED_DIR.joinpath(*parts)
    if not path.exists():
        _missing(path)
    return path


def shared_cases(load: Callable[[Path], Iterable[Any]], *parts: str) -> list[Any]:
    """Parametrize over cases loaded from a shared file at collection time.

    When the file is absent the list is empty, so pytest skips the test ("got empty parameter
    set"); under PANAL_REQUIRE_SHARED=1 the absence stops the collection with an error instead.
    """
    path = SHARED_DIR.joinpath(*parts)
    if not path.exists():
        if os.environ.get("PANAL_REQUIRE_SHARED") == "1":
            raise FileNotFoundError(f"reference data missing: {path}")
        return []
    return list(load(path))


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8-sig").splitlines()
