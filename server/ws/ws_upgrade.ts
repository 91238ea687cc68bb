/** Turns an authenticated `GET /ws` into the extension's WebSocket, or a clear HTTP error. */
import { isWebSocketUpgrade, upgradeRequired } from "../http/guards.ts";
import { WS_PROTOCOL } from "../http/credentials.ts";
import { hubError } from "../../protocol/errors.ts";
import { acceptWebSocket } from "../net/listen.ts";

/** The peer must answer WebSocket pings within this many seconds, or the link is dropped. */
const IDLE_TIMEOUT_S = 30;

export function upgradeExtensionSocket(req: Request): { socket: WebSocket; response: Response } {
  // The handler answers this before auth already; checked again so this stands on its own.
  if (!isWebSocketUpgrade(req)) throw upgradeRequired();
  try {
    // The hub must select the `hub` subprotocol, or Chromium fails the handshake.
    return acceptWebSocket(req, { protocol: WS_PROTOCOL, idleTimeout: IDLE_TIMEOUT_S });
  } catch (error) {
    throw hubError("BAD_UPGRADE", `Invalid WebSocket upgrade: ${(error as Error).message}`);
  }
}
