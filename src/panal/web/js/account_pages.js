// Signing in and creating an account.

import { signIn, signUp } from "./account.js";
import { api } from "./api.js";
import { escapeHtml } from "./dom.js";
import { describeError, getLanguage, getLook, onChange, t } from "./i18n.js";

/** A refused name or password, in words: the reason's own sentence where there is one. */
function accountError(failure) {
  if (failure.code === "name_taken") return t("name.taken");
  if (failure.code === "bad_name" && failure.reason) return t(`name.${failure.reason}`);
  if (failure.code === "bad_password" && failure.reason) return t(`password.${failure.reason}`);
  return describeError({ code: failure.code, message: failure.detail, details: failure.details });
}

/** A forgotten password: a reset link where this server sends e-mail, else who can help. */
function forgotten(mail) {
  if (mail === null) return "";
  if (!mail) return `<p class="hint" data-mail-off>${t("account.mailOff")}</p>`;
  return `<p><a href="/reset" data-link data-forgot>${t("account.forgot")}</a></p>`;
}

export function showAccountPage(root, kind, navigate) {
  const signingUp = kind === "signup";
  let mail = null; // whether this server sends e-mail, once asked
  let error = "";
  let values = { name: "", password: "" };
  let busy = false;

  function render() {
    const title = t(signingUp ? "acct.signUpTitle" : "acct.signInTitle");
    root.innerHTML = `
      <section class="form-page account-page">
        <h1>${title}</h1>
        <form class="account-form" data-form="${kind}" novalidate>
          <label class="block">${t("acct.name")}
            <input name="name" autocomplete="username" autocapitalize="off" spellcheck="false" maxlength="20" required
              value="${escapeHtml(values.name)}" ${signingUp ? 'aria-describedby="name-help"' : ""}></label>
          ${signingUp ? `<small id="name-help" class="hint">${t("acct.nameHelp")}</small>` : ""}
          <label class="block">${t("acct.password")}
            <input name="password" type="password" autocomplete="${signingUp ? "new-password" : "current-password"}" maxlength="256" required
              ${signingUp ? 'aria-describedby="password-help"' : ""}></label>
          ${signingUp ? `<small id="password-help" class="hint">${t("acct.passwordHelp")}</small>` : ""}
          <p class="banner error" role="alert" data-form-error ${error ? "" : "hidden"}>${escapeHtml(error)}</p>
          <div class="form-actions"><button type="submit" class="primary">${t(signingUp ? "acct.signUp" : "acct.signIn")}</button></div>
          ${signingUp ? `<p class="hint">${t("acct.claimNote")}</p>` : ""}
          <p><a href="${signingUp ? "/signin" : "/signup"}" data-link>${t(signingUp ? "acct.toSignIn" : "acct.toSignUp")}</a></p>
          ${signingUp ? "" : `<div data-forgot-area>${forgotten(mail)}</div>`}
        </form>
      </section>`;
  }

  root.addEventListener("input", (event) => {
    if (event.target.name === "name") values.name = event.target.value;
  });
  root.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    const formElement = event.target;
    const name = formElement.querySelector("input[name=name]").value.trim();
    const password = formElement.querySelector("input[name=password]").value;
    busy = true;
    try {
      const signed = signingUp ? await signUp(name, password, getLanguage(), getLook()) : await signIn(name, password);
      navigate(`/@/${encodeURIComponent(signed.name)}`);
    } catch (failure) {
      error = accountError(failure);
      const banner = root.querySelector("[data-form-error]");
      banner.textContent = error;
      banner.hidden = false;
      root.querySelector("input[name=password]").value = "";
    } finally {
      busy = false;
    }
  });
  render();
  if (!signingUp) {
    api("/api/account/settings")
      .then((settings) => {
        mail = settings.mail;
        const area = root.querySelector("[data-forgot-area]");
        if (area) area.innerHTML = forgotten(mail);
      })
      .catch(() => {});
  }
  const unsubscribe = onChange(() => {
    values = { ...values, name: root.querySelector("input[name=name]")?.value ?? values.name };
    render();
  });
  root.querySelector("input[name=name]").focus();
  return unsubscribe;
}
