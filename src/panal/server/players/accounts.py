"""Accounts: the rules for names and passwords, password hashing, session tokens, and how much
sign-in attempts are slowed. The tables and their transactions are in
:mod:`panal.server.database.store`.

* **Names** are 3 to 20 characters of ASCII letters, digits, ``_`` and ``-``, beginning with a
  letter and ending with a letter or a digit (no look-alike letters from other scripts). They
  are unique without regard to case: each name is stored with its key (:func:`name_key`, the
  name in lower case) under a unique index. Names that read alike are refused too: each name is
  stored with its confusable skeleton (:func:`name_skeleton`: Unicode TR39's, through ICU, with
  case folded, so "panaI" reads as the reserved "panal" and "A1ice9" as "Alice9") under a second
  unique index.
* **Passwords** are 8 to 256 characters, not the name itself, hashed with Argon2id through
  argon2-cffi at its default cost (RFC 9106's second recommended setting: 64 MiB, 3 passes);
  a hash made with an older cost is replaced at the next sign-in.
* **Sessions** are random tokens in an HTTP-only cookie; the database keeps only their SHA-256
  hash, so a copy of the database signs nobody in.
* **Sign-in attempts** are counted before the password is tested, by the database in one
  statement per count, so that parallel attempts cannot all pass a check made before any of
  them was written (:mod:`panal.server.players.attempts` has the policy and its numbers).
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from argon2 import PasswordHasher

__all__ = [
    "NAME_MAX",
    "NAME_MIN",
    "PASSWORD_MAX",
    "PASSWORD_MIN",
    "AccountError",
    "PasswordCheck",
    "check_name",
    "check_password",
    "dummy_hash",
    "hash_password",
    "name_key",
    "name_skeleton",
    "new_session_token",
    "session_key",
    "verify_password",
]

NAME_MIN = 3
NAME_MAX = 20
PASSWORD_MIN = 8
PASSWORD_MAX = 256
_NAME_CHARACTERS = re.compile(r"[A-Za-z0-9_-]+")
#: Names a person could mistake for the site or for a role.
RESERVED_NAMES = frozenset(
    {
        "admin",
        "administrator",
        "ai",
        "anonymous",
        "guest",
        "mod",
        "moderator",
        "panal",
        "root",
        "staff",
        "system",
        "you",
    }
)

SESSION_DAYS = 30


class AccountError(ValueError):
    """A name or password refused: ``code`` (``bad_name``, ``bad_password``) and ``reason``
    (``too_short``, ``too_long``, ``characters``, ``start``, ``end``, ``reserved``,
    ``same_as_name``) are stable keys for translations."""

    def __init__(self, code: str, reason: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason


def name_key(name: str) -> str:
    """The key that makes names unique without regard to case."""
    return name.lower()


@functools.cache
def _spoof_checker() -> Any:
    import icu  # PyICU: ICU's SpoofChecker implements Unicode TR39 (the web extra)

    return icu.SpoofChecker()


def name_skeleton(name: str) -> str:
    """What a name looks like: two names with the same skeleton are confusable.

    TR39's skeleton maps each character to the prototype of its class of look-alikes (of the
    characters a name may have: "I" and "1" to "l", "0" to "O", "m" to "rn"), but it keeps case
    apart where the letters look different ("O" and "o"), and its mappings are not closed under
    case ("I" goes to "l", while "i" stays). So: skeleton, then case folded, then skeleton again
    ("A1ice9" → "Alice9" → "alice9" → "alice9"; "B0b" → "BOb" → "bob" → "bob"). (Names the
    same but for case have one :func:`name_key` anyway.)"""
    checker = _spoof_checker()
    once = checker.getSkeleton(0, name)
    return str(checker.getSkeleton(0, once.casefold()))


@functools.cache
def _reserved_skeletons() -> frozenset[str]:
    return frozenset(name_skeleton(name) for name in RESERVED_NAMES)


def check_name(name: str) -> str:
    """The name, if it may be a user name; raises :class:`AccountError` saying why not."""
    if len(name) < NAME_MIN:
        raise AccountError("bad_name", "too_short", f"a name has at least {NAME_MIN} characters")
    if len(name) > NAME_MAX:
        raise AccountError("bad_name", "too_long", f"a name has at most {NAME_MAX} characters")
    if not _NAME_CHARACTERS.fullmatch(name):
        raise AccountError(
            "bad_name", "characters", "a name has only letters a-z, digits, '_' and '-'"
        )
    if not name[0].isalpha():
        raise AccountError("bad_name", "start", "a name begins with a letter")
    if not name[-1].isalnum():
        raise AccountError("bad_name", "end", "a name ends with a letter or a digit")
    if name_key(name) in RESERVED_NAMES or name_skeleton(name) in _reserved_skeletons():
        raise AccountError("bad_name", "reserved", f"the name {name!r} is reserved")
    return name


def check_password(password: str, name: str) -> str:
    """The password, if it may be used by ``name``; raises :class:`AccountError`."""
    if len(password) < PASSWORD_MIN:
        raise AccountError(
            "bad_password", "too_short", f"a password has at least {PASSWORD_MIN} characters"
        )
    if len(password) > PASSWORD_MAX:
        raise AccountError(
            "bad_password", "too_long", f"a password has at most {PASSWORD_MAX} characters"
        )
    if password.lower() == name.lower():
        raise AccountError("bad_password", "same_as_name", "the password cannot be the name")
    return password


# --- password hashing (argon2-cffi) -----------------------------------------------------------


def _hasher() -> PasswordHasher:
    from argon2 import PasswordHasher

    return PasswordHasher()


def hash_password(password: str) -> str:
    """An Argon2id hash (with its salt and cost) of the password; about 50 ms of CPU and 64 MiB:
    the server runs it in a thread, a few at a time."""
    return str(_hasher().hash(password))


@dataclass(frozen=True)
class PasswordCheck:
    """Whether a password matched, and the hash to store instead when its cost is outdated."""

    ok: bool
    rehashed: str | None = None


def verify_password(stored_hash: str, password: str) -> PasswordCheck:
    from argon2.exceptions import InvalidHashError, VerificationError

    hasher = _hasher()
    try:
        hasher.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return PasswordCheck(False)
    if hasher.check_needs_rehash(stored_hash):
        return PasswordCheck(True, str(hasher.hash(password)))
    return PasswordCheck(True)


@functools.cache
def dummy_hash() -> str:
    """A hash to verify against when a name does not exist, so that a wrong name costs as long
    as a wrong password (the answer's timing does not tell which names exist)."""
    return hash_password(secrets.token_urlsafe(16))


# --- sessions ---------------------------------------------------------------------------------


def new_session_token() -> str:
    """A session's secret: 256 random bits, URL-safe (the cookie's value)."""
    return secrets.token_urlsafe(32)


def session_key(token: str) -> str:
    """What the database keeps of a session token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
