/**
 * The page bridge, injected by file into a plugin tab's isolated world. It keeps one port open
 * to the service worker for this document (page_messages.ts): calls from the worker go to the
 * runner in the MAIN world (a `CALL_EVENT` on the window, delivered at once); the adapter's
 * events (progress, log batches, "probe me again"; see protocol/adapter.ts) and the runner's
 * answers go back as window messages, in the order the page posted them. A
 * port that closed (the worker restarted) is opened again when needed. Injecting the bridge again
 * says hello on the open port (or opens one) and adds no second listener.
 */
import { PAGE_EVENT_SOURCE } from "../../../protocol/adapter.ts";
import {
  CALL_EVENT,
  CALL_MESSAGE,
  HELLO_MESSAGE,
  PAGE_EVENT_MESSAGE,
  PORT_NAME,
} from "../shared/page_messages.ts";

interface BridgeState {
  port?: chrome.runtime.Port;
}

const KEY = "__hubBridge";
const scope = globalThis as unknown as Record<string, BridgeState | undefined>;

function orphaned() {
  // The extension was reloaded or removed: this copy of the bridge stops for good.
  removeEventListener("message", fromPage);
  scope[KEY] = undefined;
}

/** The open port, opening one if the last one closed; undefined once orphaned. */
function port(state: BridgeState): chrome.runtime.Port | undefined {
  if (state.port) return state.port;
  let opened: chrome.runtime.Port;
  try {
    opened = chrome.runtime.connect({ name: PORT_NAME });
  } catch {
    orphaned();
    return undefined;
  }
  opened.onMessage.addListener((message: { type?: unknown }) => {
    if (message?.type === CALL_MESSAGE) {
      // Handed over as text: a string reaches the MAIN world as it is, an object would be cloned.
      dispatchEvent(new CustomEvent(CALL_EVENT, { detail: JSON.stringify(message) }));
    }
  });
  opened.onDisconnect.addListener(() => {
    if (state.port === opened) state.port = undefined;
  });
  return state.port = opened;
}

function send(message: unknown) {
  const state = scope[KEY];
  if (!state) return;
  try {
    port(state)?.postMessage(message);
  } catch (error) {
    // Not a closed port (that clears state.port first): the message cannot be sent as JSON.
    console.warn("[hub] dropped a page event that is not plain JSON", error);
  }
}

function fromPage(event: MessageEvent) {
  if (event.source !== window) return;
  const data = event.data as { source?: unknown; kind?: unknown; answer?: unknown } | null;
  if (typeof data !== "object" || data === null || data.source !== PAGE_EVENT_SOURCE) return;
  if (data.kind === "result") send(data.answer);
  else send({ type: PAGE_EVENT_MESSAGE, event: data });
}

const existing = scope[KEY];
if (!existing) {
  scope[KEY] = {};
  addEventListener("message", fromPage);
  port(scope[KEY]!);
} else if (existing.port) {
  send({ type: HELLO_MESSAGE });
} else {
  port(existing);
}
