"""Account rules: names, passwords, Argon2 hashing, session tokens, slowed sign-in attempts."""

from __future__ import annotations

import pytest

pytest.importorskip("argon2")

from argon2 import PasswordHasher

from panal.server.players.accounts import (
    FREE_FAILURES_PER_NAME,
    MAX_SIGN_IN_DELAY,
    SIGN_IN_WINDOW,
    AccountError,
    check_name,
    check_password,
    hash_password,
    name_key,
    new_session_token,
    session_key,
    sign_in_delay,
    verify_password,
)


@pytest.mark.parametrize("name", ["ana", "Queen_Bee", "hive-master-2000", "x_1", "A" * 20])
def test_good_names(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("ab", "too_short"),
        ("a" * 21, "too_long"),
        ("ana maria", "characters"),
        ("josé", "characters"),
        ("pаnal", "characters"),  # a Cyrillic 'а': a look-alike of "panal"
        ("ana@home", "characters"),
        ("1ana", "start"),
        ("_ana", "start"),
        ("ana_", "end"),
        ("ana-", "end"),
        ("Admin", "reserved"),
        ("PANAL", "reserved"),
    ],
)
def test_bad_names_say_why(name: str, reason: str) -> None:
    with pytest.raises(AccountError) as caught:
        check_name(name)
    assert caught.value.code == "bad_name" and caught.value.reason == reason


def test_names_are_one_without_regard_to_case() -> None:
    assert name_key("QueenBee") == name_key("queenbee") == name_key("QUEENBEE") == "queenbee"
    assert name_key("queen-bee") != name_key("queen_bee")


@pytest.mark.parametrize(
    ("password", "reason"),
    [("short", "too_short"), ("x" * 257, "too_long"), ("QueenBee", "same_as_name")],
)
def test_bad_passwords_say_why(password: str, reason: str) -> None:
    with pytest.raises(AccountError) as caught:
        check_password(password, "queenbee")
    assert caught.value.code == "bad_password" and caught.value.reason == reason
    assert check_password("correct horse", "queenbee") == "correct horse"


def test_passwords_are_hashed_with_argon2id() -> None:
    stored = hash_password("correct horse battery")
    assert stored.startswith("$argon2id$") and "correct" not in stored
    assert hash_password("correct horse battery") != stored  # a fresh salt each time
    assert verify_password(stored, "correct horse battery").ok
    assert verify_password(stored, "correct horse battery").rehashed is None
    assert not verify_password(stored, "Correct horse battery").ok
    assert not verify_password("not a hash", "correct horse battery").ok


def test_a_hash_of_an_older_cost_is_replaced_at_sign_in() -> None:
    cheap = PasswordHasher(time_cost=1, memory_cost=8 * 1024, parallelism=1)
    old = cheap.hash("correct horse battery")
    check = verify_password(old, "correct horse battery")
    assert check.ok and check.rehashed is not None and check.rehashed != old
    assert PasswordHasher().verify(check.rehashed, "correct horse battery")
    assert not PasswordHasher().check_needs_rehash(check.rehashed)


def test_session_tokens_are_random_and_only_their_hash_is_kept() -> None:
    tokens = {new_session_token() for _ in range(100)}
    assert len(tokens) == 100 and all(len(token) >= 43 for token in tokens)
    token = tokens.pop()
    assert session_key(token) == session_key(token) and len(session_key(token)) == 64
    assert token not in session_key(token)


def test_sign_in_attempts_are_slowed_after_a_few_failures() -> None:
    now = 10_000.0
    free = FREE_FAILURES_PER_NAME
    failures = [now - 60 + i for i in range(free - 1)]
    assert sign_in_delay(failures, free, now) == 0
    failures.append(now - 0.5)  # the free ones are spent: wait 1 s after the last
    assert sign_in_delay(failures, free, now) == pytest.approx(0.5)
    failures.append(now)
    assert sign_in_delay(failures, free, now) == 2.0
    failures += [now] * 3
    assert sign_in_delay(failures, free, now) == 16.0  # doubling with each failure
    failures += [now] * 30
    assert sign_in_delay(failures, free, now) == MAX_SIGN_IN_DELAY
    # Failures older than the window no longer count.
    assert sign_in_delay(failures, free, now + SIGN_IN_WINDOW) == 0
