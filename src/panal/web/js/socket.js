// The pages' one websocket: it reconnects by itself, waiting longer after each failed try (half
// a second, doubling, at most eight), and keeps the connection alive with a ping. The lobby's
// feed uses it as it is; a game's and a table's live state go through a StateFeed (below).

const PING_EVERY_MS = 25000;
const FIRST_DELAY_MS = 500;
const LONGEST_DELAY_MS = 8000;
// 4400: a hello the server refused, 4403: wrong seat token, 4404: unknown game or table:
// retrying cannot help.
const FINAL_CLOSES = new Set([4400, 4403, 4404]);

export class ReconnectingSocket {
  /**
   * path: the address under this site ("/ws/lobby"). Options:
   * - hello(): the first message of every connection (the seat token goes there, never in the
   *   URL, which proxies and access logs record), or null for none;
   * - onOpen(): after each connection (a reconnect included);
   * - onMessage(message): each message, parsed (one that is not JSON is dropped);
   * - onStatus(status, code): "open", "reconnecting", or "closed" (with the close code);
   * - wanted(): whether to reconnect after a close (the lobby's feed goes when nobody follows it).
   */
  constructor(path, { hello = () => null, onOpen = () => {}, onMessage = () => {}, onStatus = () => {}, wanted = () => true } = {}) {
    this.path = path;
    this.handlers = { hello, onOpen, onMessage, onStatus, wanted };
    this.retries = 0;
    this.stopped = false;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${this.path}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      const hello = this.handlers.hello();
      if (hello) socket.send(JSON.stringify(hello));
      this.retries = 0;
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_EVERY_MS);
      this.handlers.onStatus("open");
      this.handlers.onOpen();
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.handlers.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      if (this.stopped || FINAL_CLOSES.has(event.code) || !this.handlers.wanted()) {
        this.stopped = true;
        this.handlers.onStatus("closed", event.code);
        return;
      }
      this.handlers.onStatus("reconnecting");
      const delay = Math.min(FIRST_DELAY_MS * 2 ** this.retries, LONGEST_DELAY_MS);
      this.retries += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  /** Send `message` now; false when the connection is down (nothing is queued). */
  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    this.socket?.close();
  }
}

/**
 * The live state of a game or a table. Every connection starts with a hello carrying this
 * browser's seat token, and the server answers with the whole state: a reconnect resumes where
 * the server is. After that the server may send deltas (a game's, asked with ?deltas=1): what
 * changed, and the moves added, each applying to the state just before it (its `seq` is one
 * more). One that does not (a message missed) asks for the whole state again (`sync`) and
 * waits for it.
 *
 * handlers: onState(state), onError(error), onStatus(status, code), as ReconnectingSocket's.
 * watch: the spectators' view, asked with the seat token this browser holds, if any, so that a
 * player watching their own game is not counted as a spectator.
 */
export class StateFeed {
  constructor(path, token, handlers, { watch = false } = {}) {
    this.handlers = handlers;
    this.state = null; // the state the next delta applies to (null: waiting for a whole one)
    this.socket = new ReconnectingSocket(path, {
      hello: () => {
        this.state = null; // a new connection: its first state is a whole one
        const hello = { type: "hello", token: token || null };
        if (watch) hello.watch = true;
        return hello;
      },
      onMessage: (message) => this.receive(message),
      onStatus: (status, code) => handlers.onStatus(status, code),
    });
  }

  receive(message) {
    if (message.type === "state") {
      this.state = message;
      this.handlers.onState(message);
    } else if (message.type === "delta") {
      if (!this.state) return; // a whole state was asked for: it comes after this
      const state = applyDelta(this.state, message);
      this.state = state;
      if (state) this.handlers.onState(state);
      else this.send({ type: "sync" });
    } else if (message.type === "error") this.handlers.onError(message);
  }

  send(message) {
    return this.socket.send(message);
  }

  close() {
    this.socket.close();
  }
}

// The state a delta leads to, as a new object (the page compares it with the one before), or
// null when the delta does not follow `state`.
export function applyDelta(state, delta) {
  if (typeof delta.seq !== "number" || delta.seq !== state.seq + 1) return null;
  const { type, moves, ...fields } = delta;
  const next = { ...state, ...fields };
  if (moves) next.history = state.history.slice(0, moves.keep).concat(moves.add);
  return next;
}
