// The live connection to one game: a websocket that reconnects by itself and resumes (the
// server sends the whole state on every connect), with a keep-alive ping.

const PING_EVERY_MS = 25000;

export class GameClient {
  // handlers: onState(state), onError(error), onStatus("open" | "reconnecting" | "closed")
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token;
    this.handlers = handlers;
    this.retries = 0;
    this.stopped = false;
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${scheme}://${location.host}/ws/games/${encodeURIComponent(this.gameId)}${query}`;
  }

  connect() {
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
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
      if (message.type === "state") this.handlers.onState(message);
      else if (message.type === "error") this.handlers.onError(message);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      // 4403: wrong seat token, 4404: unknown game: retrying cannot help.
      if (this.stopped || event.code === 4403 || event.code === 4404) {
        this.handlers.onStatus("closed", event.code);
        return;
      }
      this.handlers.onStatus("reconnecting");
      const delay = Math.min(500 * 2 ** this.retries, 8000);
      this.retries += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    });
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
