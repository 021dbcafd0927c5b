// What every live page does (a game, an Enjambre table, and the kinds to come), once: it follows
// the server's state through a StateFeed, hands each new state to the page with the one before,
// keeps a notice (a refusal translated from the server's code, or a word of the page's own) and
// the connection's state, draws both as banners, sends the player's messages, and draws the page
// again in a new language. The page keeps only what is its own kind's: how the state looks, and
// what the player may do.

import { escapeHtml } from "./dom.js";
import { describeError, onChange, t } from "./i18n.js";
import { StateFeed } from "./socket.js";

export class LivePage {
  /**
   * options:
   * - path: the websocket's address ("/ws/games/<id>?deltas=1");
   * - texts: the keys of the page's words {unknown: "no such game", reconnecting: "connection lost"};
   * - describe(error): a refusal in the reader's language (the page's kind knows its rules);
   * - offline(): the notice {text, kind} when a message cannot be sent (the connection is down);
   * - receive(state, previous): a new state (previous: null for the first);
   * - showNotices(): draw the notices again;
   * - showConnection(): draw what the connection's state changes (by default the notices);
   * - render(): draw everything again (the language or the look changed).
   */
  constructor(options) {
    this.options = { describe: describeError, showConnection: options.showNotices, ...options };
    this.state = null;
    this.notice = null; // {text, kind: "error" | "warn" | "info", key?}
    this.connection = "connecting"; // "open", "reconnecting", "closed"
    this.unsubscribe = onChange(() => this.options.render());
  }

  /** Follow the state, with this browser's seat token (watch: the spectators' view). */
  open(token, { watch = false } = {}) {
    this.feed?.close();
    this.feed = new StateFeed(
      this.options.path,
      token,
      {
        onState: (state) => this.receive(state),
        onError: (error) => this.showError(error),
        onStatus: (status, code) => this.connectionChanged(status, code),
      },
      { watch },
    );
  }

  stop() {
    this.feed?.close();
    this.unsubscribe();
  }

  receive(state) {
    const previous = this.state;
    this.state = state;
    this.options.receive(state, previous);
  }

  /** Send `message` to the server; when the connection is down, say so (and return false). */
  send(message) {
    if (this.feed?.send(message)) return true;
    this.notice = this.options.offline();
    this.options.showNotices();
    return false;
  }

  notify(text, kind, key = null) {
    this.notice = { text, kind, key };
  }

  showError(error) {
    this.notify(this.options.describe(error), "error");
    this.options.showNotices();
  }

  connectionChanged(status, code) {
    this.connection = status;
    if (status === "closed" && code === 4404) this.notify(t(this.options.texts.unknown), "error");
    if (status === "closed" && code === 4403) this.notify(describeError({ code: "bad_token" }), "error");
    this.options.showConnection();
  }

  /** The connection lost, and the notice, as banners. */
  bannersMarkup() {
    const parts = [];
    if (this.connection === "reconnecting") parts.push(`<p class="banner warn" data-banner="reconnecting">${t(this.options.texts.reconnecting)}</p>`);
    if (this.notice) {
      const key = this.notice.key ? ` data-notice="${this.notice.key}"` : "";
      parts.push(`<p class="banner ${this.notice.kind}" role="alert" data-banner="notice"${key}>${escapeHtml(this.notice.text)}</p>`);
    }
    return parts.join("");
  }
}

/** The seat token this browser holds for `id` on `shelf` (storage.js). One given in the page's
 *  fragment (#token=…, a private link) is kept first, and wins. */
export function heldToken(shelf, id, fragment = new URLSearchParams(location.hash.slice(1))) {
  const given = fragment.get("token");
  if (given) shelf.set(id, given);
  return given || shelf.get(id);
}
