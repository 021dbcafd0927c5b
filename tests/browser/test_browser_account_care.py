"""A password reset in the browser, on a phone in Spanish: the e-mail reaches a test SMTP server
on loopback (aiosmtpd) and its link, opened in the browser, sets a new password; the account
page shows the address and the reminders' switch without scrolling sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.browser.conftest import PHONE
from tests.server.helpers import ServerProcess
from tests.server.mail_helpers import link_token, smtp_server


def test_a_reset_e_mail_link_sets_a_new_password(
    browser: Any, tmp_path: Path, artifacts: Path
) -> None:
    process = ServerProcess(tmp_path / "games.sqlite3", tmp_path / "serve.log")
    with smtp_server(process.url) as (settings, inbox):
        smtp = f"smtp://{settings.host}:{settings.port}?security=none"
        process.extra_args = ("--ai-workers", "1", "--smtp-url", smtp, "--public-url", process.url)
        process.start()
        try:
            with httpx.Client(base_url=process.url, headers={"Origin": process.url}) as api:
                signup = api.post(
                    "/api/account/signup", json={"name": "olvido", "password": "old horse 1"}
                )
                assert signup.status_code == 201
                # The cookie is Secure on loopback, which httpx keeps off plain HTTP: sent by hand.
                api.headers["Cookie"] = f"panal_session={signup.cookies['panal_session']}"
                assert (
                    api.post("/api/account/email", json={"email": "olvido@example.org"}).status_code
                    == 202
                )
                verify = link_token(inbox.wait(1)[0], "/verify")
                assert (
                    api.post("/api/account/email/verify", json={"token": verify}).status_code == 200
                )
                _played_with_a_deleted_account(process.url, api)
            context = browser.new_context(locale="es-ES", **PHONE)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.set_default_timeout(20_000)
            page.goto(process.url + "/signin")
            page.wait_for_selector("body[data-ready]")
            page.click("[data-forgot]")
            page.fill("input[name=email]", "olvido@example.org")
            page.click("button[type=submit]")
            status = page.wait_for_selector('[data-status="ask"]:not([hidden])')
            assert "olvido@example.org" in status.inner_text() and "enlace" in status.inner_text()
            link = link_token(inbox.wait(2)[1], process.url + "/reset")
            page.goto(f"{process.url}/reset#{link}")
            page.wait_for_selector("body[data-ready]")
            page.fill("input[name=password]", "new horse 22")
            page.click("button[type=submit]")
            page.wait_for_url("**/@/olvido")
            # The opponent deleted their account: the profile names them in the page's language.
            page.wait_for_selector("text=jugador borrado")
            page.click(".settings-toggle")  # on a phone the player's links are in this panel
            page.click("[data-account-settings]")
            page.wait_for_selector("[data-email-now]")
            assert "olvido@example.org" in page.inner_text("[data-email-now]")
            assert page.is_checked("input[name=reminders]")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.screenshot(path=str(artifacts / "account-phone.png"), full_page=True)
            # Bad input: its own words in the page's language, and nothing changes.
            password_form = page.locator('[data-form="password"]')
            password_form.locator("input[name=current]").fill("not my password")
            password_form.locator("input[name=password]").fill("another horse 3")
            password_form.locator("button[type=submit]").click()
            said = page.locator('[data-status="password"]')
            said.filter(has_text="Esa no es tu contraseña actual.").wait_for()
            password_form.locator("input[name=current]").fill("new horse 22")
            password_form.locator("input[name=password]").fill("corta")
            password_form.locator("button[type=submit]").click()
            said.filter(has_text="Una contraseña tiene al menos 8 caracteres.").wait_for()
            email_form = page.locator('[data-form="email"]')
            email_form.locator("input[name=email]").fill("no es una dirección")
            email_form.locator("button[type=submit]").click()
            page.locator('[data-status="email"]').filter(
                has_text="Eso no es una dirección de correo."
            ).wait_for()
            assert not errors, errors
            context.close()
            with httpx.Client(base_url=process.url, headers={"Origin": process.url}) as api:
                old = api.post(
                    "/api/account/signin", json={"name": "olvido", "password": "old horse 1"}
                )
                new = api.post(
                    "/api/account/signin", json={"name": "olvido", "password": "new horse 22"}
                )
            assert (old.status_code, new.status_code) == (401, 200)
        finally:
            process.stop()


def _played_with_a_deleted_account(url: str, api: httpx.Client) -> None:
    """A game between the account of ``api`` and one that is then deleted."""
    with httpx.Client(base_url=url, headers={"Origin": url}) as rival:
        made = rival.post("/api/account/signup", json={"name": "rival", "password": "rival horse"})
        rival.headers["Cookie"] = f"panal_session={made.cookies['panal_session']}"
        clock = {"kind": "correspondence", "days": 3}
        challenge = rival.post("/api/challenges", json={"clock": clock}).json()["id"]
        assert api.post(f"/api/challenges/{challenge}/accept").status_code == 200
        gone = rival.post("/api/account/delete", json={"password": "rival horse"})
        assert gone.status_code == 204


def test_without_smtp_no_reset_is_offered_and_the_page_says_so(open_page: Any) -> None:
    page = open_page("/signin", locale="pt-BR", phone=True)
    note = page.wait_for_selector("[data-mail-off]")
    assert "e-mails" in note.inner_text() and "senha" in note.inner_text()
    assert page.query_selector("[data-forgot]") is None
    page.goto(page.url.replace("/signin", "/reset"))
    assert "senha" in page.wait_for_selector("[data-mail-off]").inner_text()
    assert page.query_selector("input[name=email]") is None
