/**
 * The hub's `/ws` link to the extension as the layers above use it: what the calls need of it
 * (ExtensionRequests) plus attach, the connect and disconnect listeners, and closing; its creator
 * also sets the handlers of the extension's methods. Declared apart from the implementation
 * (./extension_link.ts: the socket, its outbox, the JSON-RPC engine), so changes/, the extension
 * handlers, health.ts and the routes depend on this shape only.
 */
import type { EXTENSION_TO_HUB_METHODS } from "../../protocol/events.ts";
import type { MethodHandlers } from "../../protocol/rpc_engine.ts";
import type { LinkSocket } from "./outbox.ts";
import type { ExtensionRequests } from "../calls/extension_requests.ts";

/** What runs each extension method; each receives its params validated. */
export type ExtensionHandlers = MethodHandlers<typeof EXTENSION_TO_HUB_METHODS>;

/** The `/ws` link as the layers above the calls use it (connect listeners, attach, close). */
export interface ExtensionLink extends ExtensionRequests {
  /** Takes over a freshly upgraded socket; an older connection is closed. */
  attach(socket: LinkSocket): void;
  onConnect(listener: () => void): void;
  onDisconnect(listener: () => void): void;
  /** Closes the active connection (shutdown, secret rotation). */
  disconnect(code: number, reason: string): void;
}

/** The link as its creator holds it: it also sets the handlers of the extension's methods. */
export interface ExtensionSocketLink extends ExtensionLink {
  /** Replaces the handlers; messages from then on go to these. */
  setHandlers(handlers: ExtensionHandlers): void;
}
