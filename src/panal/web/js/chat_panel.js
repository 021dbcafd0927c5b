// A game's or a table's chat (server/chat/): a collapsible panel below the board on a phone and
// beside it on a wide screen, never over it. The players' chat and the spectators' are apart;
// which this reader reads and writes in comes from the server's welcome. Messages are text only:
// every message is put in with textContent, never as markup. Mutes hide a sender's messages for
// this reader only (an account's kept by the server, a guest's in this browser); a moderator
// deletes a message for everyone.

import { api } from "./api.js";
import { describeError, onChange, t } from "./i18n.js";
import { ReconnectingSocket } from "./socket.js";
import { guestChatMutes, saveGuestChatMutes } from "./storage.js";

export class ChatPanel {
  /** element: the (empty) <details> to fill; kind: "game" or "table"; key: its id; token: this
   *  browser's seat token (null: a spectator, or the account's seats). */
  constructor(element, { kind, key, token }) {
    this.element = element;
    this.kind = kind;
    this.key = key;
    this.token = token;
    this.welcome = null;
    this.messages = new Map(); // id → message, in the order received
    this.muted = new Set();
    this.unread = 0;
    this.error = null;
    this.build();
    this.unsubscribe = onChange(() => this.renderTexts());
    this.open();
  }

  open() {
    this.socket?.close();
    this.socket = new ReconnectingSocket(`/ws/chat/${this.kind}/${encodeURIComponent(this.key)}`, {
      hello: () => ({ type: "hello", token: this.token }),
      onMessage: (message) => this.receive(message),
    });
  }

  /** Open again (the game ended, so the players now read the spectators' chat too). */
  refresh(token = this.token) {
    this.token = token;
    this.open();
  }

  stop() {
    this.socket?.close();
    this.unsubscribe();
  }

  build() {
    const el = this.element;
    el.classList.add("chat");
    el.dataset.chat = "";
    el.replaceChildren();
    const summary = document.createElement("summary");
    this.title = document.createElement("span");
    this.badge = document.createElement("span");
    this.badge.className = "chat-unread";
    this.badge.hidden = true;
    summary.append(this.title, this.badge);
    this.log = document.createElement("ol");
    this.log.className = "chat-log";
    this.log.setAttribute("aria-live", "polite");
    this.note = document.createElement("p");
    this.note.className = "chat-note";
    this.form = document.createElement("form");
    this.form.className = "chat-form";
    this.input = document.createElement("input");
    this.input.name = "chat";
    this.input.autocomplete = "off";
    this.send = document.createElement("button");
    this.send.type = "submit";
    this.form.append(this.input, this.send);
    this.problem = document.createElement("p");
    this.problem.className = "chat-error";
    this.problem.setAttribute("role", "alert");
    this.unmute = document.createElement("button");
    this.unmute.type = "button";
    this.unmute.className = "chat-unmute link-button";
    el.append(summary, this.log, this.problem, this.form, this.note, this.unmute);
    el.addEventListener("toggle", () => {
      if (el.open) this.unread = 0;
      this.renderTexts();
    });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.say();
    });
    this.log.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-chat-action]");
      if (button?.dataset.chatAction === "more") {
        const row = button.closest("li").querySelector(".chat-acts");
        row.hidden = !row.hidden;
        button.setAttribute("aria-expanded", String(!row.hidden));
      } else if (button) this.act(button.dataset.chatAction, Number(button.closest("li").dataset.id));
    });
    this.unmute.addEventListener("click", () => this.setMuted([]));
    this.renderTexts();
  }

  // --- from the server ---------------------------------------------------------------------

  receive(message) {
    if (message.type === "chat") {
      this.welcome = message;
      const mine = message.me?.startsWith("u:") ? message.muted : guestChatMutes();
      this.muted = new Set(mine);
      this.replace(message.messages);
    } else if (message.type === "history") {
      this.replace(message.messages);
    } else if (message.type === "said") {
      this.messages.set(message.message.id, message.message);
      if (!this.element.open && !this.muted.has(message.message.sender) && message.message.sender !== this.welcome?.me) this.unread += 1;
      this.renderLog();
    } else if (message.type === "deleted") {
      this.messages.delete(message.id);
      this.renderLog();
    }
  }

  replace(messages) {
    this.messages = new Map(messages.map((m) => [m.id, m]));
    this.renderLog();
  }

  // --- the reader's doings -----------------------------------------------------------------

  async say() {
    const text = this.input.value.trim();
    if (!text) return;
    try {
      await api(`/api/chat/${this.kind}/${encodeURIComponent(this.key)}`, { method: "POST", body: { text }, token: this.token });
      this.input.value = "";
      this.error = null;
    } catch (error) {
      this.error = describeError({ code: error.code, message: error.detail, details: error.details });
    }
    this.renderTexts();
  }

  async act(action, id) {
    const message = this.messages.get(id);
    if (!message) return;
    const base = `/api/chat/${this.kind}/${encodeURIComponent(this.key)}/messages/${id}`;
    try {
      if (action === "mute") await this.setMuted([...this.muted, message.sender], message.sender);
      else if (action === "report") {
        await api(`${base}/report`, { method: "POST", token: this.token });
        this.error = t("chat.reported");
      } else if (action === "delete") await api(base, { method: "DELETE" });
    } catch (error) {
      this.error = describeError({ code: error.code, message: error.detail, details: error.details });
    }
    this.renderTexts();
  }

  /** Mute these senders (an account: the server keeps them; a guest: this browser). */
  async setMuted(senders, added = null) {
    const account = this.welcome?.me?.startsWith("u:");
    if (account && added) await api(`/api/chat/mutes/${encodeURIComponent(added)}`, { method: "PUT" });
    if (account && !added) {
      for (const sender of this.muted) await api(`/api/chat/mutes/${encodeURIComponent(sender)}`, { method: "DELETE" });
    }
    if (!account) saveGuestChatMutes(senders);
    this.muted = new Set(senders);
    this.renderLog();
  }

  // --- drawing -----------------------------------------------------------------------------

  renderTexts() {
    const welcome = this.welcome;
    this.title.textContent = t("chat.title");
    this.badge.hidden = this.unread === 0;
    this.badge.textContent = String(this.unread);
    this.badge.setAttribute("aria-label", t("chat.unread", { n: this.unread }));
    const placeholder = welcome?.writes === "spectators" ? "chat.placeholderSpectators" : this.kind === "table" ? "chat.placeholderTable" : "chat.placeholder";
    this.input.placeholder = t(placeholder);
    this.input.maxLength = welcome?.max_chars || 300;
    this.input.setAttribute("aria-label", t("chat.title"));
    this.send.textContent = t("chat.send");
    this.form.hidden = !welcome?.writes;
    this.note.hidden = !welcome || Boolean(welcome.writes);
    this.note.textContent = t("chat.signInToChat");
    this.problem.hidden = !this.error;
    this.problem.textContent = this.error || "";
    this.unmute.hidden = this.muted.size === 0;
    this.unmute.textContent = t("chat.unmuteAll", { n: this.muted.size });
  }

  renderLog() {
    const welcome = this.welcome;
    const both = (welcome?.reads || []).length > 1;
    const items = [];
    // In the order the server stored them (two processes' messages may cross on the way).
    const ordered = [...this.messages.values()].sort((a, b) => a.id - b.id);
    for (const message of ordered) {
      if (this.muted.has(message.sender)) continue;
      const item = document.createElement("li");
      item.dataset.id = String(message.id);
      item.dataset.sender = message.sender;
      item.dataset.channel = message.channel;
      if (both && message.channel === "spectators") {
        const tag = document.createElement("span");
        tag.className = "chat-channel";
        tag.textContent = t("chat.spectatorsTag");
        item.append(tag);
      }
      const acts = [];
      if (message.sender !== welcome?.me) {
        acts.push(this.button("mute", t("chat.mute")));
        if (welcome?.me) acts.push(this.button("report", t("chat.report")));
      }
      if (welcome?.moderator) acts.push(this.button("delete", t("chat.delete")));
      // The name opens what may be done with the message (mute, report, delete): a row of
      // buttons under every message would take a phone's whole panel.
      const author = document.createElement(acts.length ? "button" : "strong");
      author.className = "chat-author";
      author.textContent = message.author ?? this.guestName(message.seat);
      const text = document.createElement("span");
      text.className = "chat-text";
      text.textContent = message.text;
      item.append(author, " ", text);
      if (acts.length) {
        author.type = "button";
        author.dataset.chatAction = "more";
        author.setAttribute("aria-expanded", "false");
        const row = document.createElement("span");
        row.className = "chat-acts";
        row.hidden = true;
        row.append(...acts);
        item.append(row);
      }
      items.push(item);
    }
    this.log.replaceChildren(...items);
    this.log.scrollTop = this.log.scrollHeight;
    this.renderTexts();
  }

  /** A guest who plays: by their colour in a game, by their seat at a table. */
  guestName(seat) {
    if (this.kind === "game") return t(seat === 1 ? "chat.guestBlack" : "chat.guestWhite");
    return t("chat.guestSeat", { seat: (seat ?? 0) + 1 });
  }

  button(action, label) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chat-act";
    button.dataset.chatAction = action;
    button.textContent = label;
    return button;
  }
}
