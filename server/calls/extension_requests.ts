/**
 * What the calls need of the hub's `/ws` link to the extension (server/ws/extension_link.ts
 * implements it): whether the extension is connected, a request, a notification. It is declared
 * here, below the link, so calls/ never imports the transport above it.
 */
import type {
  ServerNotificationMethod,
  ServerParams,
  ServerRequestMethod,
} from "../../protocol/events.ts";
import { hubError } from "../../protocol/errors.ts";

export interface ExtensionRequests {
  isConnected(): boolean;
  /** Sends a request; rejects with EXTENSION_NOT_CONNECTED / EXTENSION_DISCONNECTED. */
  request<M extends ServerRequestMethod>(
    method: M,
    params: ServerParams<M>,
    signal?: AbortSignal,
  ): Promise<unknown>;
  /** Sends a notification if connected; returns whether it was sent. */
  notify<M extends ServerNotificationMethod>(method: M, params: ServerParams<M>): boolean;
}

/** The error of a call made while the extension is not connected. */
export function notConnectedError() {
  return hubError(
    "EXTENSION_NOT_CONNECTED",
    "The hub browser extension is not connected. Open Chromium with the hub extension loaded " +
      '(see "hub status"), then try again.',
  );
}
