"""Secrets handed to players: seat tokens (stored only as SHA-256 hashes) and row ids."""

from __future__ import annotations

import hashlib
import secrets

__all__ = ["hash_token", "new_id", "new_token"]


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_id() -> str:
    """A new game's or table's id."""
    return secrets.token_urlsafe(9)
