/**
 * Sends `tool.dispatch` to the extension and waits for the answer: 30 s without news is a
 * timeout, each `tool.progress` for the dispatch restarts those 30 s, and nothing runs longer
 * than 5 minutes. A disconnect or a caller giving up ends the wait at once. `Dispatches` are the
 * hub's side of `tool.dispatch`; the extension's side, which runs them, is
 * `worker/plugin_dispatch.ts` (and `dispatchBrowserTool` for browser tools).
 */
import { hubError, MAX_ERROR_MESSAGE_CHARS } from "../../protocol/errors.ts";
import type { DispatchParams } from "../../protocol/events.ts";
import { type CallProgress, readCallResult } from "../../protocol/call_contract.ts";
import type { ExtensionRequests } from "./extension_requests.ts";
import { abortError, extensionCallError } from "./call_error.ts";
import { capText } from "../../protocol/text_cap.ts";
import { CALL_MAX_MS } from "../../protocol/limits.ts";
import type {
  DispatchAnswer,
  Dispatches,
  DispatchOptions,
  DispatchRequest,
} from "./dispatches_interface.ts";

const CALL_TIMEOUT_MS = 30_000;

export interface DispatchTimeouts {
  timeoutMs?: number;
  maxMs?: number;
  clock?: () => number;
}

interface Active {
  onProgress?: (progress: CallProgress) => void;
  extend(): void;
}

export function createDispatches(
  link: ExtensionRequests,
  options: DispatchTimeouts = {},
): Dispatches {
  const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
  const maxMs = options.maxMs ?? CALL_MAX_MS;
  const clock = options.clock ?? Date.now;
  const active = new Map<string, Active>();

  async function dispatch(
    params: DispatchRequest,
    { onProgress, signal, onReply }: DispatchOptions = {},
  ) {
    const dispatchId = params.dispatchId ?? crypto.randomUUID();
    const controller = new AbortController();
    const deadline = callDeadline(params.tool, controller, { timeoutMs, maxMs, clock });
    const onAbort = () => controller.abort(abortError(signal!, params.tool));
    signal?.addEventListener("abort", onAbort, { once: true });
    active.set(dispatchId, { onProgress, extend: deadline.extend });
    try {
      if (signal?.aborted) onAbort();
      const sent: DispatchParams = { ...params, dispatchId };
      const raw = await link.request("tool.dispatch", sent, controller.signal);
      return toValue(params.tool, raw, onReply);
    } finally {
      deadline.clear();
      signal?.removeEventListener("abort", onAbort);
      active.delete(dispatchId);
    }
  }

  return {
    dispatch,
    progress({ dispatchId, progress, total, message }) {
      const call = active.get(dispatchId);
      if (!call) return;
      call.extend();
      call.onProgress?.({ progress, total, message });
    },
    active: () => active.size,
  };
}

/** An error message from the extension or a page, cut to the one limit with a note that it was. */
const capMessage = (message: string) =>
  capText(message, MAX_ERROR_MESSAGE_CHARS, "The error message was cut.").text;

/**
 * The one deadline of a call, the hub's: `controller` aborts with TIMEOUT after `timeoutMs`
 * without news (each `extend` restarts that wait), and at `maxMs` (CALL_MAX_MS) from now at the
 * latest. The extension and the page run no clock of their own: they end a call when the hub does.
 */
function callDeadline(
  tool: string,
  controller: AbortController,
  { timeoutMs, maxMs, clock }: Required<DispatchTimeouts>,
): { extend(): void; clear(): void } {
  const started = clock();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const extend = () => {
    clearTimeout(timer);
    const left = started + maxMs - clock();
    const capped = left <= timeoutMs;
    timer = setTimeout(() => {
      controller.abort(hubError(
        "TIMEOUT",
        capped
          ? `${tool} ran longer than the ${maxMs / 1000} s maximum and was abandoned.`
          : `${tool} did not answer within ${timeoutMs / 1000} s. The page may be ` +
            "busy or stuck; reload the tab and try again.",
      ));
    }, Math.max(0, Math.min(timeoutMs, left)));
  };
  extend();
  return { extend, clear: () => clearTimeout(timer) };
}

/**
 * The extension's answer as the call's value, tab and page origin, or the error it carries (tool
 * errors keep their code, their message cut to the one limit); a malformed answer is
 * EXTENSION_ERROR.
 */
function toValue(
  tool: string,
  raw: unknown,
  onReply?: (ok: boolean) => void,
): DispatchAnswer {
  const read = readCallResult(raw);
  if (!("result" in read)) {
    throw hubError(
      "EXTENSION_ERROR",
      `The extension sent a malformed result for ${tool}: ${read.problem}.`,
    );
  }
  const { result } = read;
  onReply?.(result.ok);
  if (!result.ok) {
    // A message (a page's exception text, say) is cut so it cannot flood the agent or the audit
    // log.
    throw extensionCallError({ ...result.error, message: capMessage(result.error.message) });
  }
  return {
    value: result.value,
    ...(result.tabId === undefined ? {} : { tabId: result.tabId }),
    ...(result.origin === undefined ? {} : { origin: result.origin }),
  };
}
