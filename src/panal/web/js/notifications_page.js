// /notifications: the unread notices (each a link), and the player's switches: for each kind,
// on the page, with a sound, by push to this device. Push needs the browser's permission and
// the service worker; the device's subscription goes to the server (docs/web.md,
// "Notifications").

import { account } from "./account.js";
import { api } from "./api.js";
import { escapeHtml, keepingFocus } from "./dom.js";
import { onChange, t } from "./i18n.js";
import { describeNotice, markRead, notificationState, onNotifications } from "./notifications.js";

const KINDS = ["your_turn", "draw_offer", "rematch_offer", "takeback_offer", "challenge", "tournament_round"];
const CHANNELS = ["page", "sound", "push"];

function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function deviceSubscription() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

/** Ask the browser for push on this device and give the server its subscription. */
async function turnOnPush() {
  if ((await Notification.requestPermission()) !== "granted") throw new Error("denied");
  const { key } = await api("/api/notifications/push-key");
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  await api("/api/notifications/push", { method: "POST", body: subscription.toJSON() });
}

async function turnOffPush() {
  const subscription = await deviceSubscription();
  if (!subscription) return;
  await api("/api/notifications/push/remove", { method: "POST", body: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
}

export function showNotificationsPage(root) {
  let pushHere = null; // this device's subscription, once known
  let message = "";

  const render = () =>
    keepingFocus(root, () => {
      if (!account().name) {
        root.innerHTML = `<section class="notifications-page"><h1>${t("notify.title")}</h1>
          <p>${t("notify.signIn")} <a href="/signin" data-link>${t("nav.signIn")}</a></p></section>`;
        return;
      }
      const { unread, count, switches } = notificationState();
      const items = unread
        .map((notice) => {
          const { text, url } = describeNotice(notice);
          const when = new Date(notice.at * 1000).toLocaleString();
          return `<li data-notice-item="${notice.kind}"><a href="${escapeHtml(url)}" data-link data-read="${notice.id}">${escapeHtml(text)}</a> <small>${escapeHtml(when)}</small></li>`;
        })
        .join("");
      const rows = KINDS.map(
        (kind) => `<tr><th scope="row">${t(`notify.kind.${kind}`)}</th>${CHANNELS.map(
          (channel) => `<td><input type="checkbox" data-switch="${kind}:${channel}" aria-label="${escapeHtml(`${t(`notify.kind.${kind}`)}: ${t(`notify.channel.${channel}`)}`)}" ${switches?.[kind]?.[channel] ? "checked" : ""}></td>`,
        ).join("")}</tr>`,
      ).join("");
      const pushState = !pushSupported() ? t("notify.push.unsupported") : pushHere ? t("notify.push.on") : t("notify.push.off");
      root.innerHTML = `<section class="notifications-page">
        <h1>${t("notify.title")}</h1>
        <h2>${t("notify.unread", { n: count })}</h2>
        ${items ? `<ul class="notice-list">${items}</ul><button type="button" data-action="read-all">${t("notify.readAll")}</button>` : `<p>${t("notify.none")}</p>`}
        <h2>${t("notify.switches")}</h2>
        <div class="table-scroll"><table class="switches">
          <thead><tr><th></th>${CHANNELS.map((c) => `<th scope="col">${t(`notify.channel.${c}`)}</th>`).join("")}</tr></thead>
          <tbody>${rows}</tbody></table></div>
        <h2>${t("notify.push.title")}</h2>
        <p data-push-state>${pushState}</p>
        ${pushSupported() ? `<button type="button" data-action="${pushHere ? "push-off" : "push-on"}">${pushHere ? t("notify.push.turnOff") : t("notify.push.turnOn")}</button>` : ""}
        <p role="status" data-notify-message>${escapeHtml(message)}</p>
      </section>`;
    });

  const onClick = async (event) => {
    const action = event.target.closest("[data-action]")?.dataset.action;
    const read = event.target.closest("[data-read]")?.dataset.read;
    if (read) markRead([Number(read)]);
    if (action === "read-all") await markRead(null);
    if (action === "push-on" || action === "push-off") {
      try {
        if (action === "push-on") await turnOnPush();
        else await turnOffPush();
        message = "";
      } catch {
        message = t("notify.push.failed");
      }
      pushHere = await deviceSubscription().catch(() => null);
      render();
    }
  };
  const onSwitch = async (event) => {
    const name = event.target.dataset.switch;
    if (!name) return;
    const [kind, channel] = name.split(":");
    try {
      await api("/api/notifications/switches", { method: "PUT", body: { switches: { [kind]: { [channel]: event.target.checked } } } });
      message = t("notify.saved");
    } catch {
      message = t("notify.push.failed");
    }
    render();
  };
  root.addEventListener("click", onClick);
  root.addEventListener("change", onSwitch);
  render();
  deviceSubscription()
    .then((subscription) => {
      pushHere = subscription;
      render();
    })
    .catch(() => {});
  const stopFollowing = onNotifications(render);
  const stopLanguage = onChange(render);
  return () => {
    stopFollowing();
    stopLanguage();
    root.removeEventListener("click", onClick);
    root.removeEventListener("change", onSwitch);
  };
}
