// Account care: the account page (password, e-mail, reminders, deleting the account), the
// password reset (asked for by address; set from the e-mailed link) and the address's check.
// The e-mailed links carry their token after "#", which no browser sends to a server.

import { account, loadAccount } from "./account.js";
import { api } from "./api.js";
import { drawPart, escapeHtml } from "./dom.js";
import { describeError, getLanguage, onChange, t } from "./i18n.js";

/** A refused request in words: a password's reason has its own sentence. */
function careError(failure) {
  if (failure.code === "bad_password" && failure.reason) return t(`password.${failure.reason}`);
  if (failure.code === "bad_credentials") return t("account.wrongPassword");
  return describeError({ code: failure.code, message: failure.detail, details: failure.details });
}

function banner(root, selector, text, kind) {
  const element = root.querySelector(selector);
  if (!element) return;
  element.textContent = text;
  element.className = `banner ${kind}`;
  element.hidden = !text;
}

/** Send a form's request; its outcome shown in the form's own banner. */
async function submit(root, form, request, done) {
  const status = `[data-status="${form.dataset.form}"]`;
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const answer = await request();
    banner(root, status, done(answer) || "", "ok");
    form.querySelectorAll("input[type=password]").forEach((input) => (input.value = ""));
  } catch (failure) {
    banner(root, status, careError(failure), "error");
  } finally {
    button.disabled = false;
  }
}

const statusLine = (form) => `<p class="banner" role="status" data-status="${form}" hidden></p>`;
const passwordInput = (name, autocomplete) =>
  `<input name="${name}" type="password" autocomplete="${autocomplete}" maxlength="256" required>`;

export function showAccountSettings(root, navigate) {
  let settings = null;

  function render() {
    if (!account().name) {
      root.innerHTML = `<section class="form-page account-care"><h1>${t("account.title")}</h1>
        <p><a href="/signin" data-link>${t("nav.signIn")}</a></p></section>`;
      return;
    }
    root.innerHTML = `
      <section class="form-page account-care">
        <h1>${t("account.title")}</h1>
        <form class="account-form" data-form="password" novalidate>
          <h2>${t("account.changePassword")}</h2>
          <input type="text" name="username" autocomplete="username" value="${escapeHtml(account().name)}" hidden>
          <label class="block">${t("account.currentPassword")} ${passwordInput("current", "current-password")}</label>
          <label class="block">${t("account.newPassword")} ${passwordInput("password", "new-password")}</label>
          <small class="hint">${t("acct.passwordHelp")} ${t("account.othersSignedOut")}</small>
          <div class="form-actions"><button type="submit" class="primary">${t("account.savePassword")}</button></div>
          ${statusLine("password")}
        </form>
        <div data-mail-part>${mailHtml()}</div>
        <form class="account-form danger-zone" data-form="delete" novalidate>
          <h2>${t("account.delete")}</h2>
          <p class="hint">${t("account.deleteHelp")}</p>
          <label class="block">${t("acct.password")} ${passwordInput("password", "current-password")}</label>
          <div class="form-actions"><button type="submit" class="danger">${t("account.deleteButton")}</button></div>
          ${statusLine("delete")}
        </form>
      </section>`;
  }

  // The e-mail part waits for the settings; the password forms do not, and what is typed in
  // them stays when the settings arrive (only this part is drawn again).
  function mailHtml() {
    if (!settings) return "";
    return settings.mail
      ? `<form class="account-form" data-form="email" novalidate>
          <h2>${t("account.email")}</h2>
          <p class="hint" data-email-now>${settings.email ? t("account.emailNow", { email: escapeHtml(settings.email) }) : t("account.emailNone")}</p>
          <label class="block">${t("account.newEmail")}
            <input name="email" type="email" autocomplete="email" maxlength="254" required></label>
          <div class="form-actions"><button type="submit" class="primary">${t("account.sendCheck")}</button>
            ${settings.email ? `<button type="button" data-action="remove-email">${t("account.removeEmail")}</button>` : ""}</div>
          ${statusLine("email")}
          <label class="choice"><input type="checkbox" name="reminders" ${settings.reminders ? "checked" : ""}> ${t("account.reminders")}</label>
          <small class="hint">${t("account.remindersHelp")}</small>
        </form>`
      : `<section class="account-form"><h2>${t("account.email")}</h2><p class="hint" data-mail-off>${t("account.mailOff")}</p></section>`;
  }

  async function load() {
    settings = await api("/api/account/settings");
    drawPart(root, "[data-mail-part]", mailHtml(), render);
  }

  root.addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    const value = (name) => form.querySelector(`[name=${name}]`).value;
    if (form.dataset.form === "password") {
      submit(root, form, () => api("/api/account/password", { method: "POST", body: { current: value("current"), password: value("password") } }), () => t("account.passwordSaved"));
    } else if (form.dataset.form === "email") {
      submit(root, form, () => api("/api/account/email", { method: "POST", body: { email: value("email") } }), (answer) => t("account.checkSent", { email: answer.sent_to }));
    } else if (form.dataset.form === "delete") {
      if (!window.confirm(t("account.deleteConfirm"))) return;
      submit(root, form, async () => {
        await api("/api/account/delete", { method: "POST", body: { password: value("password") } });
        await loadAccount();
        navigate("/");
      }, () => "");
    }
  });
  root.addEventListener("change", async (event) => {
    if (event.target.name !== "reminders") return;
    settings = await api("/api/account/settings", { method: "PATCH", body: { reminders: event.target.checked } });
  });
  root.addEventListener("click", async (event) => {
    if (event.target.dataset.action !== "remove-email") return;
    await api("/api/account/email", { method: "DELETE" });
    await load();
  });
  render();
  load().catch(() => {});
  return onChange(render);
}

/** /reset: ask for a link by address; /reset#<token>: set a new password with it. */
export function showResetPage(root, navigate) {
  const token = location.hash.slice(1);
  let mail = null;

  function render() {
    const ask = `
      <form class="account-form" data-form="ask" novalidate>
        <p class="hint">${t("account.resetHelp")}</p>
        <label class="block">${t("account.email")}
          <input name="email" type="email" autocomplete="email" maxlength="254" required></label>
        <div class="form-actions"><button type="submit" class="primary">${t("account.sendLink")}</button></div>
        ${statusLine("ask")}
      </form>`;
    const confirm = `
      <form class="account-form" data-form="confirm" novalidate>
        <label class="block">${t("account.newPassword")} ${passwordInput("password", "new-password")}</label>
        <small class="hint">${t("acct.passwordHelp")}</small>
        <div class="form-actions"><button type="submit" class="primary">${t("account.savePassword")}</button></div>
        ${statusLine("confirm")}
      </form>`;
    const body = token ? confirm : mail === false ? `<p class="hint" data-mail-off>${t("account.mailOff")}</p>` : ask;
    root.innerHTML = `<section class="form-page account-care"><h1>${t("account.resetTitle")}</h1>${body}</section>`;
  }

  root.addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    const value = (name) => form.querySelector(`[name=${name}]`).value;
    if (form.dataset.form === "ask") {
      submit(root, form, () => api("/api/account/reset", { method: "POST", body: { email: value("email"), language: getLanguage() } }), (answer) => t("account.linkSent", { email: answer.sent_to }));
    } else {
      submit(root, form, async () => {
        const signed = await api("/api/account/reset/confirm", { method: "POST", body: { token, password: value("password") } });
        history.replaceState(null, "", "/reset");
        await loadAccount();
        navigate(`/@/${encodeURIComponent(signed.name)}`);
      }, () => "");
    }
  });
  render();
  if (!token) {
    api("/api/account/settings")
      .then((answer) => {
        mail = answer.mail;
        if (mail === false) render(); // else the form stays as it is, with what was typed in it
      })
      .catch(() => {});
  }
  return onChange(render);
}

/** /verify#<token>: the e-mailed link that makes an address the account's. */
export function showVerifyPage(root) {
  const token = location.hash.slice(1);
  let text = t("account.verifying");
  let kind = "";
  const render = () => {
    root.innerHTML = `<section class="form-page account-care"><h1>${t("account.email")}</h1>
      <p class="banner ${kind}" role="status" data-verify>${escapeHtml(text)}</p>
      <p><a href="/account" data-link>${t("account.title")}</a></p></section>`;
  };
  render();
  api("/api/account/email/verify", { method: "POST", body: { token } })
    .then((answer) => {
      [text, kind] = [t("account.verified", { email: answer.email }), "ok"];
      history.replaceState(null, "", "/verify");
      render();
    })
    .catch((failure) => {
      [text, kind] = [careError(failure), "error"];
      render();
    });
  return onChange(render);
}
