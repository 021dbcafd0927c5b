// The live connection to one game: a websocket that reconnects by itself and resumes (the
// server sends the whole state on every connect), with a keep-alive ping. The seat token goes in
// the first message ("hello"), never in the URL, which proxies and access logs record. After that first state
// the server sends deltas (what changed, and the moves added); each applies to the state just
// before it (its `seq` is one more). One that does not — a message missed — asks for the whole
// state again (`sync`) and waits for it.

const PING_EVERY_MS = 25000;

export class GameClient {
  // handlers: onState(state), onError(error), onStatus("open" | "reconnecting" | "closed").
  // watch: the spectators' view, asked with the seat token this browser holds, if any, so that
  // a player watching their own game is not counted as a spectator.
  constructor(gameId, token, handlers, { watch = false } = {}) {
    this.gameId = gameId;
    this.token = token;
    this.watch = watch;
    this.handlers = handlers;
    this.retries = 0;
    this.stopped = false;
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/games/${encodeURIComponent(this.gameId)}?deltas=1`;
  }

  connect() {
    const socket = new WebSocket(this.url());
    this.socket = socket;
    this.state = null; // the state the next delta applies to (null: waiting for a whole one)
    socket.addEventListener("open", () => {
      const hello = { type: "hello", token: this.token || null };
      if (this.watch) hello.watch = true;
      socket.send(JSON.stringify(hello));
      this.retries = 0;
      this.handlers.onStatus("open");
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_EVERY_MS);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "state") {
        this.state = message;
        this.handlers.onState(message);
      } else if (message.type === "delta") {
        this.receiveDelta(message);
      } else if (message.type === "error") this.handlers.onError(message);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      // 4400: a hello the server refused, 4403: wrong seat token, 4404: unknown game: retrying
      // cannot help.
      if (this.stopped || event.code === 4400 || event.code === 4403 || event.code === 4404) {
        this.handlers.onStatus("closed", event.code);
        return;
      }
      this.handlers.onStatus("reconnecting");
      const delay = Math.min(500 * 2 ** this.retries, 8000);
      this.retries += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  receiveDelta(delta) {
    if (!this.state) return; // a whole state was asked for: it comes after this
    const state = applyDelta(this.state, delta);
    if (!state) {
      this.state = null;
      this.send({ type: "sync" });
      return;
    }
    this.state = state;
    this.handlers.onState(state);
  }

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

// The state a delta leads to, as a new object (the page compares it with the one before), or
// null when the delta does not follow `state`.
export function applyDelta(state, delta) {
  if (typeof delta.seq !== "number" || delta.seq !== state.seq + 1) return null;
  const { type, moves, ...fields } = delta;
  const next = { ...state, ...fields };
  if (moves) next.history = state.history.slice(0, moves.keep).concat(moves.add);
  return next;
}
