/**
 * The extension's own channel into a plugin's tab. The bridge (isolated world) keeps one
 * `chrome.runtime` port per document open to the service worker; the runner (MAIN world) runs
 * calls in the adapter. Calls and the page's events travel the same port, in order, so a call's
 * progress and logs always reach the hub before its result.
 *
 *   service worker ──port── bridge (isolated) ──CALL_EVENT── runner / adapter (MAIN)
 *                                             ◀─window.postMessage──
 */
import type { AdapterCall, AdapterResult } from "../../../protocol/adapter.ts";
import { VERSION } from "../../../protocol/version.ts";

export const PORT_NAME = "hub-page";
/** Bridge → worker: an adapter event (`PageEvent`). */
export const PAGE_EVENT_MESSAGE = "hub-page-event";
/** Bridge → worker: the answer to a call. */
export const CALL_RESULT_MESSAGE = "hub-call-result";
/** Worker → bridge → runner: run a call. */
export const CALL_MESSAGE = "hub-call";
/** Bridge → worker: the bridge was injected again; this port belongs to the current document. */
export const HELLO_MESSAGE = "hub-hello";
/**
 * Bridge → runner: the DOM event that hands a call over, dispatched on the window. Unlike a
 * window message it is delivered at once (no task, no message event for the page's listeners).
 */
export const CALL_EVENT = "hub-bridge-call";
/** Identifies the build of the page scripts, so a newer extension replaces older copies. */
export const PAGE_SCRIPTS_BUILD = `${VERSION}+2`;

/** The answer of a page that does not hold the adapter build asked for. */
export type MaybeMissing = AdapterResult | { missing: true };

export interface CallMessage {
  type: typeof CALL_MESSAGE;
  id: number;
  plugin: string;
  hash: string;
  request: AdapterCall;
}

export interface CallResultMessage {
  type: typeof CALL_RESULT_MESSAGE;
  id: number;
  result: MaybeMissing;
}
