/**
 * The call runner, injected by file into a plugin tab's MAIN world next to the adapters: it takes
 * calls the bridge posts to the window, runs them in the adapter of the right plugin and build,
 * and posts the answer back (after any events the call posted, so they stay in order). Injecting
 * it twice into one document adds no second listener.
 */
import {
  ADAPTER_REGISTRY,
  type AdapterResult,
  BRIDGE_EVENT_SOURCE,
  PAGE_EVENT_SOURCE,
  type PageAdapter,
} from "../../protocol/adapter.ts";
import { ADAPTER_MARK } from "./page_functions.ts";
import {
  CALL_MESSAGE,
  CALL_RESULT_MESSAGE,
  type CallMessage,
  type MaybeMissing,
} from "./page_messages.ts";

const FLAG = "__hubRunner";
const scope = globalThis as unknown as Record<string, unknown>;

async function run(call: CallMessage): Promise<MaybeMissing> {
  const adapters = scope[ADAPTER_REGISTRY] as Record<string, PageAdapter> | undefined;
  const marks = scope[ADAPTER_MARK] as Record<string, string> | undefined;
  const adapter = adapters?.[call.plugin];
  if (!adapter || marks?.[call.plugin] !== call.hash) return { missing: true };
  try {
    return await adapter.call(call.request);
  } catch (error) {
    const message = `The adapter of ${call.plugin} failed: ${(error as Error)?.message ?? error}`;
    const failed: AdapterResult = {
      ok: false,
      error: { code: "ADAPTER_ERROR", message, category: "internal", retryable: false },
    };
    return failed;
  }
}

async function onMessage(event: MessageEvent) {
  if (event.source !== window) return;
  const data = event.data as { source?: unknown; call?: CallMessage } | null;
  if (data?.source !== BRIDGE_EVENT_SOURCE || data.call?.type !== CALL_MESSAGE) return;
  const result = await run(data.call);
  postMessage({
    source: PAGE_EVENT_SOURCE,
    kind: "result",
    answer: { type: CALL_RESULT_MESSAGE, id: data.call.id, result },
  }, "*");
}

if (!scope[FLAG]) {
  scope[FLAG] = true;
  addEventListener("message", onMessage);
}
