"""Test helpers for accounts: people with their own session cookie on one TestClient."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient

from panal.server.players.auth import SESSION_COOKIE
from tests.server.helpers import game_socket

ORIGIN = "http://testserver"  # the TestClient's own origin


@dataclass
class Person:
    """Someone using the site from their own browser: their session, their seat tokens."""

    client: TestClient
    session: str | None = None
    tokens: dict[str, str] = field(default_factory=dict)

    def headers(self, origin: str | None = ORIGIN) -> dict[str, str]:
        headers = {}
        if origin is not None:
            headers["Origin"] = origin
        if self.session is not None:
            headers["Cookie"] = f"{SESSION_COOKIE}={self.session}"
        return headers

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        headers = {**self.headers(), **kwargs.pop("headers", {})}
        response = self.client.request(method, path, headers=headers, **kwargs)
        cookie = self.client.cookies.get(SESSION_COOKIE)
        if cookie is not None:
            self.session = cookie
        self.client.cookies.clear()  # each person keeps their own cookie
        return response

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        return self.request("POST", path, json=body, **kwargs)

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.request("GET", path, **kwargs)

    def sign_up(self, name: str, password: str = "correct horse", **extra: Any) -> Any:
        response = self.post("/api/account/signup", {"name": name, "password": password, **extra})
        assert response.status_code == 201, response.text
        return response.json()

    def websocket(self, game_id: str, token: str | None = None) -> Any:
        return game_socket(self.client, game_id, token, headers=self.headers())
