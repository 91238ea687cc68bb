/**
 * Confirmations for `ask` tools, and for `ask` sites (a request with `site`: "Allow agents to use
 * <site>?"): the hub sends `confirmation.request` to the extension and waits for the person's
 * `confirmation.response`. A confirmation waits at most 5 minutes (then TIMEOUT)
 * and fails at once when the extension disconnects or the caller gives up.
 */
import { hubError } from "../../protocol/errors.ts";
import type { ExtensionRequests } from "./extension_requests.ts";
import { abortError } from "./call_error.ts";
import type { Confirmations, Decision } from "./confirmations_interface.ts";

export const CONFIRMATION_TIMEOUT_MS = 5 * 60_000;

interface Waiting {
  resolve(decision: Decision): void;
  reject(error: Error): void;
}

export function createConfirmations(
  link: ExtensionRequests,
  options: { timeoutMs?: number; clock?: () => number } = {},
): Confirmations {
  const timeoutMs = options.timeoutMs ?? CONFIRMATION_TIMEOUT_MS;
  const clock = options.clock ?? Date.now;
  const waiting = new Map<string, Waiting>();

  return {
    ask(request, signal) {
      if (!link.isConnected()) {
        return Promise.reject(hubError(
          "EXTENSION_NOT_CONNECTED",
          `${request.tool} needs your confirmation in the browser, but the hub extension is not ` +
            "connected. Open Chromium with the hub extension, then try again.",
        ));
      }
      if (signal?.aborted) return Promise.reject(abortError(signal, request.tool));
      return new Promise<Decision>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          waiting.delete(request.id);
        };
        const timer = setTimeout(() => {
          done();
          const what = request.site === undefined
            ? request.tool
            : `agents using ${request.site} (${request.tool})`;
          reject(hubError(
            "TIMEOUT",
            `Nobody answered the confirmation for ${what} within ` +
              `${Math.round(timeoutMs / 1000)} s. Ask the user to approve it in the hub side ` +
              "panel, then call the tool again.",
          ));
        }, timeoutMs);
        const onAbort = () => {
          done();
          reject(abortError(signal!, request.tool));
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        waiting.set(request.id, {
          resolve: (d) => (done(), resolve(d)),
          reject: (e) => (done(), reject(e)),
        });
        link.notify("confirmation.request", { ...request, expiresAt: clock() + timeoutMs });
      });
    },
    respond({ id, decision, alwaysAllow }) {
      waiting.get(id)?.resolve({
        allow: decision === "allow",
        alwaysAllow: decision === "allow" && alwaysAllow === true,
      });
    },
    failAll(reason) {
      for (const w of [...waiting.values()]) {
        w.reject(hubError(
          "EXTENSION_DISCONNECTED",
          `The hub extension disconnected while waiting for your confirmation (${reason}).`,
        ));
      }
    },
    pending: () => waiting.size,
  };
}
