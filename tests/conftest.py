from __future__ import annotations

import pytest

from tests.shared_data import SHARED_DIR, _missing


@pytest.fixture
def _shared_missing() -> None:
    _missing(SHARED_DIR)
