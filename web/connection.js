// One game's WebSocket: sends client frames, hands every server frame to its handler,
// pings to keep the connection alive, and reconnects after a drop (the server sends the
// whole state again on connect).

const PING_MS = 25000;
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 8000;

import { nickname } from "./player.js";

/** A live connection to `/ws/<id>?token=…`; `handlers` has onFrame(frame) and onOnline(bool). */
export class GameConnection {
  constructor(id, token, handlers) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // A seat's token, with the nickname a free seat is taken under.
    const query = token ? `?token=${encodeURIComponent(token)}&name=${encodeURIComponent(nickname())}` : "";
    this.url = `${scheme}://${location.host}/ws/${encodeURIComponent(id)}${query}`;
    this.handlers = handlers;
    this.retryMs = RETRY_MIN_MS;
    this.closed = false;
    this.open();
  }

  open() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retryMs = RETRY_MIN_MS;
      this.handlers.onOnline(true);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    socket.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      this.handlers.onFrame(frame);
    });
    socket.addEventListener("close", () => {
      clearInterval(this.pinger);
      if (this.closed) return;
      this.handlers.onOnline(false);
      setTimeout(() => this.closed || this.open(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    });
  }

  /** Sends one client frame; false when the connection is down. */
  send(frame) {
    if (this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** Closes for good (leaving the game's view). */
  close() {
    this.closed = true;
    clearInterval(this.pinger);
    this.socket.close();
  }
}
