from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from panal.server.ai_pool import AiRequest
from panal.server.app import create_app


async def first_legal_move(request: AiRequest) -> str:
    """A stand-in AI for tests that are not about the AI: the first legal move, instantly."""
    from panal.hive import Game

    game = Game.from_game_string(request.game_string, options=request.options)
    return game.move_string(next(iter(game.legal_moves)))


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'panal-test.sqlite3'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    app = create_app(db_url, ai_runner=first_legal_move, levels=("beginner", "medium"))
    with TestClient(app) as test_client:
        yield test_client
