"""Account rules: names and their look-alikes, passwords, Argon2 hashing, session tokens, and the
counts that slow sign-in attempts (on an SQLite database in memory: the server tests run them on
PostgreSQL too)."""

from __future__ import annotations

import pytest

pytest.importorskip("argon2")

from argon2 import PasswordHasher
from sqlalchemy import Engine, create_engine

from panal.server.database.store import metadata
from panal.server.players.accounts import (
    AccountError,
    check_name,
    check_password,
    hash_password,
    name_key,
    name_skeleton,
    new_session_token,
    session_key,
    verify_password,
)
from panal.server.players.attempts import (
    PER_ADDRESS,
    PER_NAME,
    PER_NAME_AND_ADDRESS,
    WINDOW,
    address_key,
    sign_in_gate,
    signed_in,
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
        ("panaI", "reserved"),  # a capital I for the l (issue 19)
        ("PanaI", "reserved"),
        ("r00t", "reserved"),
        ("Adrnin", "reserved"),  # rn for m
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


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Alice9", "A1ice9"),
        ("Alice9", "AIice9"),
        ("alice9", "A1ice9"),
        ("ALICE9", "ALlCE9"),
        ("Bob", "B0b"),
        ("Emma", "Ernrna"),
    ],
)
def test_names_that_read_alike_have_one_skeleton(one: str, other: str) -> None:
    assert name_skeleton(one) == name_skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("Alice9", "Alice8"), ("ana", "anna"), ("bee", "bea")])
def test_names_that_read_differently_have_their_own_skeletons(one: str, other: str) -> None:
    assert name_skeleton(one) != name_skeleton(other)


@pytest.fixture
def counters() -> Engine:
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    return engine


def gate(engine: Engine, name: str, address: str, now: float) -> bool:
    with engine.begin() as conn:
        return bool(sign_in_gate(conn, name, address, now).open)


def test_an_address_gets_a_few_attempts_at_a_name_per_window(counters: Engine) -> None:
    now = 10_000.0
    attacker = address_key("203.0.113.9")
    passed = [gate(counters, "target", attacker, now + i) for i in range(3 * PER_NAME_AND_ADDRESS)]
    assert passed == [True] * PER_NAME_AND_ADDRESS + [False] * (2 * PER_NAME_AND_ADDRESS)
    assert gate(counters, "target", attacker, now + WINDOW)  # a new window
    # A correct password clears the count of its name and address.
    with counters.begin() as conn:
        signed_in(conn, "target", attacker, now + WINDOW)
    assert all(gate(counters, "target", attacker, now + WINDOW + 1) for _ in range(4))


def test_the_owner_passes_when_others_used_up_the_name(counters: Engine) -> None:
    now = 10_000.0
    others = [address_key(f"198.51.100.{index}") for index in range(PER_NAME)]
    assert all(gate(counters, "target", address, now) for address in others)
    assert not any(gate(counters, "target", address, now) for address in others)
    owner = address_key("192.0.2.1")
    assert gate(counters, "target", owner, now)  # an address's first attempt is tested
    assert not gate(counters, "target", owner, now)  # then the name's cap holds


def test_an_address_is_capped_across_names_and_a_correct_password_gives_back(
    counters: Engine,
) -> None:
    now = 10_000.0
    router = address_key("203.0.113.50")
    for index in range(PER_ADDRESS):
        assert gate(counters, f"name{index}", router, now)
        if index % 2 == 0:
            with counters.begin() as conn:
                signed_in(conn, f"name{index}", router, now)
    for index in range(PER_ADDRESS // 2):  # the signed-in half was given back
        assert gate(counters, f"more{index}", router, now)
    assert not gate(counters, "onemore", router, now)


def test_an_ipv6_client_counts_by_its_network() -> None:
    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key("::ffff:192.0.2.1") == address_key("192.0.2.1")
    assert address_key("192.0.2.1") != address_key("192.0.2.2")
