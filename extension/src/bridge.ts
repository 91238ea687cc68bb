/**
 * The page bridge, injected into a plugin's tabs in the extension's isolated world: it picks up
 * the events an adapter posts to the window (progress, log batches, "probe me again"; see
 * protocol/adapter.ts) and hands them to the service worker, in order. A `flush` event is answered
 * with `flushed` once the worker has handled it, and so everything posted before it. Injecting it
 * twice into one document adds no second listener.
 */
import { BRIDGE_EVENT_SOURCE, PAGE_EVENT_SOURCE } from "../../protocol/adapter.ts";
import { PAGE_EVENT_MESSAGE } from "./page_events.ts";

const FLAG = "__hubBridge";
const scope = globalThis as unknown as Record<string, boolean>;

function forward(event: MessageEvent) {
  if (event.source !== window) return;
  const data = event.data as { source?: unknown; kind?: unknown; token?: unknown } | null;
  if (typeof data !== "object" || data === null || data.source !== PAGE_EVENT_SOURCE) return;
  try {
    const sent = chrome.runtime.sendMessage({ type: PAGE_EVENT_MESSAGE, event: data });
    if (data.kind === "flush") {
      const answer = () =>
        postMessage({ source: BRIDGE_EVENT_SOURCE, kind: "flushed", token: data.token }, "*");
      sent.then(answer, answer);
    } else sent.catch(() => {});
  } catch {
    // The extension was reloaded: this copy of the bridge is orphaned and stops listening.
    removeEventListener("message", forward);
    scope[FLAG] = false;
  }
}

if (!scope[FLAG]) {
  scope[FLAG] = true;
  addEventListener("message", forward);
}
