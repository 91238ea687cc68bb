/**
 * The call runner, injected by file into a plugin tab's MAIN world next to the adapters: it takes
 * the calls the bridge hands over (a `CALL_EVENT` on the window), runs them in the adapter of the
 * right plugin and build, and posts the answer back (after any events the call posted, so they
 * stay in order). Injecting it again adds no second listener; a newer build replaces an older
 * one's.
 */
import {
  ADAPTER_REGISTRY,
  type AdapterResult,
  BRIDGE_EVENT_SOURCE,
  PAGE_EVENT_SOURCE,
  type PageAdapter,
} from "../../../protocol/adapter.ts";
import { hubError } from "../../../protocol/errors.ts";
import { ADAPTER_MARK } from "../shared/page_functions.ts";
import {
  CALL_EVENT,
  CALL_MESSAGE,
  CALL_RESULT_MESSAGE,
  type CallMessage,
  type MaybeMissing,
  PAGE_SCRIPTS_BUILD,
} from "../shared/page_messages.ts";

const KEY = "__hubRunner";
const scope = globalThis as unknown as Record<string, unknown>;

function adapterError(plugin: string, why: string): AdapterResult {
  const message = `The adapter of ${plugin} failed: ${why}`;
  return { ok: false, error: hubError("ADAPTER_ERROR", message) };
}

async function run(call: CallMessage): Promise<MaybeMissing> {
  const adapters = scope[ADAPTER_REGISTRY] as Record<string, PageAdapter> | undefined;
  const marks = scope[ADAPTER_MARK] as Record<string, string> | undefined;
  const adapter = adapters?.[call.plugin];
  if (!adapter || marks?.[call.plugin] !== call.hash) return { missing: true };
  try {
    // A plain-JSON copy: the answer crosses two message channels, and something that cannot
    // be copied (a DOM node, a BigInt, a cycle) must fail this call, not hang it.
    return JSON.parse(JSON.stringify(await adapter.call(call.request)));
  } catch (error) {
    return adapterError(call.plugin, (error as Error)?.message ?? String(error));
  }
}

/** Runs one call and posts its answer, after any events the call posted. */
async function answer(call: CallMessage) {
  const result = await run(call);
  const message = { type: CALL_RESULT_MESSAGE, id: call.id, result };
  postMessage({ source: PAGE_EVENT_SOURCE, kind: "result", answer: message }, "*");
}

/** A call from the bridge: its JSON text in a `CALL_EVENT`. */
function onCall(event: Event) {
  const detail = (event as CustomEvent).detail;
  if (typeof detail !== "string") return;
  let call: CallMessage;
  try {
    call = JSON.parse(detail);
  } catch {
    return; // not the bridge's
  }
  if (call?.type === CALL_MESSAGE) void answer(call);
}

/** A call as a window message: how a bridge of an older build hands it over. */
function onMessage(event: MessageEvent) {
  if (event.source !== window) return;
  const data = event.data as { source?: unknown; call?: CallMessage } | null;
  if (data?.source !== BRIDGE_EVENT_SOURCE || data.call?.type !== CALL_MESSAGE) return;
  void answer(data.call);
}

interface Installed {
  build: string;
  listener: typeof onMessage;
  onCall?: typeof onCall;
}

const installed = scope[KEY] as Installed | undefined;
if (installed?.build !== PAGE_SCRIPTS_BUILD) {
  if (installed) {
    removeEventListener("message", installed.listener);
    if (installed.onCall) removeEventListener(CALL_EVENT, installed.onCall);
  }
  scope[KEY] = { build: PAGE_SCRIPTS_BUILD, listener: onMessage, onCall } satisfies Installed;
  addEventListener("message", onMessage);
  addEventListener(CALL_EVENT, onCall);
}
