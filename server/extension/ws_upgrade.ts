/** Turns an authenticated `GET /ws` into the extension's WebSocket, or a clear HTTP error. */
import { WS_PROTOCOL } from "../http/guards.ts";
import { HttpError } from "../http/http_error.ts";

/** The peer must answer WebSocket pings within this many seconds, or the link is dropped. */
const IDLE_TIMEOUT_S = 30;

export function upgradeExtensionSocket(req: Request): { socket: WebSocket; response: Response } {
  if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    throw new HttpError(426, "UPGRADE_REQUIRED", "/ws only takes WebSocket upgrades.", {
      upgrade: "websocket",
    });
  }
  try {
    // The hub must select the `hub` subprotocol, or Chromium fails the handshake.
    return Deno.upgradeWebSocket(req, { protocol: WS_PROTOCOL, idleTimeout: IDLE_TIMEOUT_S });
  } catch (error) {
    throw new HttpError(
      400,
      "BAD_UPGRADE",
      `Invalid WebSocket upgrade: ${(error as Error).message}`,
    );
  }
}
