/**
 * What the hub's parts need of the dispatches (the hub's side of `tool.dispatch`): send one and
 * wait for its answer, hand on the extension's `tool.progress`, count the running ones. Declared
 * apart from the implementation (./dispatches.ts: the 30-second silence and 5-minute timers), so the
 * extension handlers depend on this shape only.
 */
import type { DispatchParams, ExtensionParams } from "../../protocol/events.ts";
import type { CallProgress } from "../../protocol/call_contract.ts";

export interface DispatchOptions {
  onProgress?: (progress: CallProgress) => void;
  signal?: AbortSignal;
  /**
   * Called when the extension answered with a well-formed result (`ok` is its outcome): from then
   * on the extension knows how the call ended, without being told.
   */
  onReply?: (ok: boolean) => void;
}

/** A dispatch's params; `dispatchId` defaults to a fresh id (the pipeline passes the call's). */
export type DispatchRequest = Omit<DispatchParams, "dispatchId"> & { dispatchId?: string };

/** The extension's answer to a dispatch that succeeded. */
export interface DispatchAnswer {
  value: unknown;
  /** The tab the call ran in. */
  tabId?: number;
  /** The origin of the page it read or acted on (the audit's `site`, the page-content marker). */
  origin?: string;
}

export interface Dispatches {
  dispatch(params: DispatchRequest, options?: DispatchOptions): Promise<DispatchAnswer>;
  /** Handles `tool.progress` from the extension. */
  progress(params: ExtensionParams<"tool.progress">): void;
  active(): number;
}
