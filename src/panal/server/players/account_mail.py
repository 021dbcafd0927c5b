"""The e-mails an account gets: a password reset link, an address to verify, and the
correspondence reminders, each in the player's language (:mod:`panal.server.mail`).

* A **link** carries a random 256-bit token after ``#`` (the fragment: browsers never send it
  to a server, nor in a ``Referer``); the database keeps its SHA-256 only. A reset link lasts
  :data:`RESET_SECONDS`, an address's link :data:`VERIFY_SECONDS`; each works once.
* A **reminder** goes once per move awaited, to a player with a verified address and reminders
  on, when :data:`REMIND_BEFORE` seconds are left on a correspondence move, or half the move's
  time for a move of less than twice that (a 1-day game: 12 hours before the deadline). Every
  process looks each :data:`REMINDER_SWEEP` seconds; one conditional write per game and move
  decides which process sends it.
"""

from __future__ import annotations

import logging
import secrets
import time

from panal.server.mail.sender import Mailer
from panal.server.mail.texts import mail_text
from panal.server.players.account_store import RESET, VERIFY, AccountStore, MailAccount
from panal.server.players.accounts import session_key
from panal.server.players.player_store import PlayerStore
from panal.server.runtime.runtime import Runtime

__all__ = ["REMIND_BEFORE", "RESET_SECONDS", "VERIFY_SECONDS", "AccountMail"]

log = logging.getLogger(__name__)
RESET_SECONDS = 60 * 60
VERIFY_SECONDS = 48 * 3600
REMIND_BEFORE = 24 * 3600
REMINDER_SWEEP = 60.0


class AccountMail:
    def __init__(
        self, runtime: Runtime, store: AccountStore, players: PlayerStore, mailer: Mailer
    ) -> None:
        self.runtime = runtime
        self.store = store
        self.players = players
        self.mailer = mailer

    @property
    def configured(self) -> bool:
        return self.mailer.configured

    def start(self) -> None:
        """The reminders' sweep (with SMTP configured)."""
        if self.configured:
            self.runtime.spawn(self.runtime.every(REMINDER_SWEEP, self.remind, "reminders"))

    def _link(self, path: str) -> str:
        assert self.mailer.settings is not None
        return self.mailer.settings.public_url + path

    async def _new_link(
        self, account: MailAccount, purpose: str, lifetime: float, email: str | None
    ) -> str:
        token = secrets.token_urlsafe(32)
        await self.runtime.db(
            self.store.new_token, session_key(token), account.id, purpose, lifetime, email
        )
        return token

    async def send_reset(self, account: MailAccount, language: str | None) -> None:
        """A reset link to the account's verified address."""
        if account.email is None:
            return
        token = await self._new_link(account, RESET, RESET_SECONDS, None)
        words = account.language or language
        await self.mailer.send(
            self.mailer.message(
                account.email,
                mail_text(words, "reset.subject"),
                mail_text(
                    words,
                    "reset.body",
                    name=account.name,
                    link=self._link(f"/reset#{token}"),
                    minutes=RESET_SECONDS // 60,
                ),
            )
        )

    async def send_verification(self, account: MailAccount, email: str) -> None:
        """A link that makes ``email`` the account's address, sent to that address."""
        token = await self._new_link(account, VERIFY, VERIFY_SECONDS, email)
        await self.mailer.send(
            self.mailer.message(
                email,
                mail_text(account.language, "verify.subject"),
                mail_text(
                    account.language,
                    "verify.body",
                    name=account.name,
                    link=self._link(f"/verify#{token}"),
                    hours=VERIFY_SECONDS // 3600,
                ),
            )
        )

    async def remind(self) -> int:
        """Send the reminders due now; how many this process sent."""
        due = await self.runtime.db(self.store.reminders_due, time.time(), REMIND_BEFORE)
        sent = 0
        for reminder in due:
            if not await self.runtime.db(self.store.claim_reminder, reminder.game_id, reminder.ply):
                continue
            player = reminder.player
            assert player.email is not None
            names = await self.runtime.db(self.players.names, [reminder.opponent or 0])
            opponent = names.get(reminder.opponent or 0) or "?"
            hours = max(1, round((reminder.deadline - time.time()) / 3600))
            await self.mailer.send(
                self.mailer.message(
                    player.email,
                    mail_text(player.language, "reminder.subject", opponent=opponent),
                    mail_text(
                        player.language,
                        "reminder.body",
                        name=player.name,
                        opponent=opponent,
                        hours=hours,
                        link=self._link(f"/game/{reminder.game_id}"),
                        settings=self._link("/account"),
                    ),
                )
            )
            sent += 1
        return sent
