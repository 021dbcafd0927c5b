"""HTTP API of account care: passwords, the e-mail address, reminders, deleting an account.

* ``GET /api/account/settings`` → ``{"name", "email", "reminders", "mail"}`` (``mail``: whether
  this server sends e-mail; a guest gets ``name`` null).
* ``PATCH /api/account/settings`` ``{"reminders"}``: correspondence reminders by e-mail on or off.
* ``POST /api/account/password`` ``{"current", "password"}`` → 204; every other session of the
  account is signed out. 401 ``bad_credentials``; 422 ``bad_password``; 429 ``slow_down``.
* ``POST /api/account/email`` ``{"email"}`` → 202: a link to verify it is sent there; the
  address becomes the account's when the link is opened (``POST /api/account/email/verify``
  ``{"token"}`` → ``{"email"}``; 410 ``bad_link``; 409 ``email_taken``).
  ``DELETE /api/account/email`` → 204. 422 ``bad_email``; 503 ``mail_off``; 429 ``slow_down``.
* ``POST /api/account/reset`` ``{"email", "language"?}`` → 202 whether or not an account has
  that address (nothing tells which); a link is mailed if one has. ``POST
  /api/account/reset/confirm`` ``{"token", "password"}`` → the account, signed in afresh (every
  other session signed out); 410 ``bad_link`` (used, expired or unknown); 422 ``bad_password``.
* ``POST /api/account/delete`` ``{"password"}`` → 204, signed out; 401 ``bad_credentials``.

Passwords asked for here are counted as sign-in attempts (:func:`attempts.sign_in_gate`), e-mails
asked for per client address, per e-mail address and per account (:func:`attempts.mail_gate`).
"""

from __future__ import annotations

import re
import time
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import Field

from panal.server.http.models import StrictModel
from panal.server.http.request_error import RequestError
from panal.server.players.account_mail import AccountMail
from panal.server.players.account_store import EmailTaken
from panal.server.players.accounts import (
    PASSWORD_MAX,
    AccountError,
    check_password,
    hash_password,
    name_key,
    session_key,
    verify_password,
)
from panal.server.players.attempts import mail_gate, sign_in_gate, signed_in
from panal.server.players.auth import (
    clear_session_cookie,
    require_account,
    session_account,
    session_token,
)
from panal.server.players.player_store import Account
from panal.server.players.routes import (
    Language,
    client_key,
    pass_gate,
    password_work,
    start_session,
)

__all__ = ["account_care_router", "check_email"]

EMAIL_MAX = 254
# One "@", something on each side, a dot in the domain, no spaces or control characters: what
# can be checked without sending; the link proves the rest.
_EMAIL = re.compile(r"[^@\s\x00-\x1f\x7f]{1,64}@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+")

account_care_router = APIRouter()


class PasswordChange(StrictModel):
    current: str = Field(max_length=PASSWORD_MAX + 10)
    password: str = Field(max_length=PASSWORD_MAX + 10)


class EmailRequest(StrictModel):
    email: str = Field(max_length=EMAIL_MAX + 10)
    language: Language | None = None


class TokenRequest(StrictModel):
    token: str = Field(max_length=100)


class ResetConfirm(StrictModel):
    token: str = Field(max_length=100)
    password: str = Field(max_length=PASSWORD_MAX + 10)


class PasswordRequest(StrictModel):
    password: str = Field(max_length=PASSWORD_MAX + 10)


class SettingsChange(StrictModel):
    reminders: bool


def check_email(email: str) -> str:
    """The address in lower case, if it reads as one; 422 ``bad_email`` otherwise."""
    email = email.strip().lower()
    if len(email) > EMAIL_MAX or not _EMAIL.fullmatch(email):
        raise RequestError("bad_email", "that is not an e-mail address", 422)
    return email


def _care(request: Request) -> AccountMail:
    care: AccountMail = request.app.state.account_mail
    return care


def _mail_on(care: AccountMail) -> None:
    if not care.configured:
        raise RequestError("mail_off", "this server sends no e-mail", 503)


async def _check_current_password(request: Request, account: Account, password: str) -> None:
    """The account's password, counted as a sign-in attempt; 401 when wrong."""
    care = _care(request)
    key, address = name_key(account.name), client_key(request)
    players = request.app.state.players
    pass_gate(
        await care.runtime.db(players.in_transaction, sign_in_gate, key, address, time.time())
    )
    stored = await care.runtime.db(care.store.password_hash, account.id)
    check = await password_work(request, verify_password, stored or "!", password)
    if stored is None or not check.ok:
        raise RequestError("bad_credentials", "wrong password", 401)
    await care.runtime.db(players.in_transaction, signed_in, key, address, time.time())


def _new_password(password: str, name: str) -> str:
    try:
        return check_password(password, name)
    except AccountError as exc:
        raise RequestError(exc.code, str(exc), 422, reason=exc.reason) from None


async def _signed_in(request: Request) -> Account:
    account = await require_account(request)
    if account.bot:
        raise RequestError("sign_in", "a bot's token does not manage an account", 403)
    return account


@account_care_router.get("/api/account/settings")
async def settings(request: Request) -> dict[str, Any]:
    care = _care(request)
    account = await session_account(request, request.app.state.players)
    found = None if account is None else await care.runtime.db(care.store.mail_account, account.id)
    return {
        "name": None if found is None else found.name,
        "email": None if found is None else found.email,
        "reminders": False if found is None else found.reminders,
        "mail": care.configured,
    }


@account_care_router.patch("/api/account/settings")
async def change_settings(body: SettingsChange, request: Request) -> dict[str, Any]:
    care = _care(request)
    account = await _signed_in(request)
    await care.runtime.db(care.store.set_reminders, account.id, body.reminders)
    return await settings(request)


@account_care_router.post("/api/account/password", status_code=204)
async def change_password(body: PasswordChange, request: Request) -> Response:
    care = _care(request)
    account = await _signed_in(request)
    password = _new_password(body.password, account.name)
    await _check_current_password(request, account, body.current)
    new_hash = await password_work(request, hash_password, password)
    token = session_token(request) or ""
    await care.runtime.db(care.store.change_password, account.id, new_hash, session_key(token))
    return Response(status_code=204)


@account_care_router.post("/api/account/email", status_code=202)
async def set_email(body: EmailRequest, request: Request) -> dict[str, Any]:
    care = _care(request)
    account = await _signed_in(request)
    email = check_email(body.email)
    _mail_on(care)
    targets = [f"email:{email}", f"account:{account.id}"]
    players = request.app.state.players
    pass_gate(
        await care.runtime.db(
            players.in_transaction, mail_gate, client_key(request), targets, time.time()
        )
    )
    found = await care.runtime.db(care.store.mail_account, account.id)
    if found is not None:
        care.runtime.spawn(care.send_verification(found, email))
    return {"sent_to": email}


@account_care_router.delete("/api/account/email", status_code=204)
async def remove_email(request: Request) -> Response:
    care = _care(request)
    account = await _signed_in(request)
    await care.runtime.db(care.store.set_email, account.id, None)
    return Response(status_code=204)


def _bad_link() -> RequestError:
    return RequestError("bad_link", "this link was used already or has expired", 410)


@account_care_router.post("/api/account/email/verify")
async def verify_email(body: TokenRequest, request: Request) -> dict[str, Any]:
    care = _care(request)
    try:
        email = await care.runtime.db(care.store.verify_email, session_key(body.token))
    except EmailTaken:
        raise RequestError("email_taken", "another account has this address", 409) from None
    if email is None:
        raise _bad_link()
    return {"email": email}


@account_care_router.post("/api/account/reset", status_code=202)
async def ask_reset(body: EmailRequest, request: Request) -> dict[str, Any]:
    care = _care(request)
    email = check_email(body.email)
    _mail_on(care)
    players = request.app.state.players
    pass_gate(
        await care.runtime.db(
            players.in_transaction, mail_gate, client_key(request), [f"email:{email}"], time.time()
        )
    )
    found = await care.runtime.db(care.store.account_by_email, email)
    if found is not None:
        # Sent after the answer: its time does not tell whether the address has an account.
        care.runtime.spawn(care.send_reset(found, body.language))
    return {"sent_to": email}


@account_care_router.post("/api/account/reset/confirm")
async def confirm_reset(body: ResetConfirm, request: Request, response: Response) -> dict[str, Any]:
    care = _care(request)
    key = session_key(body.token)
    found = await care.runtime.db(care.store.token_account, key, "reset")
    if found is None:
        raise _bad_link()
    password = _new_password(body.password, found.name)
    new_hash = await password_work(request, hash_password, password)
    user_id = await care.runtime.db(care.store.reset_password, key, new_hash)
    if user_id is None:  # used meanwhile by another request
        raise _bad_link()
    account = Account(user_id, found.name, 0.0, found.language)
    await start_session(request, response, account)
    return {"name": found.name, "language": found.language}


@account_care_router.post("/api/account/delete", status_code=204)
async def delete_account(body: PasswordRequest, request: Request, response: Response) -> Response:
    care = _care(request)
    account = await _signed_in(request)
    await _check_current_password(request, account, body.password)
    await care.runtime.db(care.store.delete_account, account.id)
    request.app.state.lobby.announce("")  # its open challenges were cancelled
    clear_session_cookie(response, request)
    response.status_code = 204
    return response
