/**
 * The worker's side of the page channel (page_messages.ts): the open port of each tab's current
 * document, calls sent over it with their answers matched by id, and the page's events handed
 * on. A port that closes fails the calls still waiting on it; an answer of the wrong shape (a
 * page script can post anything) becomes an ADAPTER_ERROR instead of breaking the call.
 */
import type { AdapterCall } from "../../../protocol/adapter.ts";
import { hubError, isErrorPayload } from "../../../protocol/errors.ts";
import {
  CALL_MESSAGE,
  CALL_RESULT_MESSAGE,
  type CallResultMessage,
  HELLO_MESSAGE,
  type MaybeMissing,
  PORT_NAME,
} from "../shared/page_messages.ts";
import { CallFailure } from "./tab_calls.ts";
import { CALL_MAX_MS } from "../../../protocol/limits.ts";

export interface PageLinks {
  /** Takes a port the bridge opened (chrome.runtime.onConnect); ignores others. */
  accept(port: chrome.runtime.Port): void;
  has(tabId: number): boolean;
  /** Waits until the tab's bridge has a port open, up to `timeoutMs`. */
  waitFor(tabId: number, timeoutMs: number): Promise<boolean>;
  /** Runs a call in the tab's adapter; `missing` when the tab has no usable port. */
  call(tabId: number, plugin: string, hash: string, request: AdapterCall): Promise<MaybeMissing>;
}

interface Pending {
  resolve(result: MaybeMissing): void;
  reject(error: Error): void;
  started: number;
}

interface Link {
  port: chrome.runtime.Port;
  pending: Map<number, Pending>;
}

/** The answer as the adapter contract allows it, or an ADAPTER_ERROR saying what came instead. */
export function checkedAnswer(result: unknown): MaybeMissing {
  const r = result as Record<string, unknown> | null;
  if (typeof r === "object" && r !== null) {
    if (r.missing === true) return { missing: true };
    if (r.ok === true && "value" in r) return { ok: true, value: r.value };
    if (r.ok === false && isErrorPayload(r.error)) return { ok: false, error: r.error };
  }
  const message = `The page answered with something that is not a tool result: ${
    JSON.stringify(result)?.slice(0, 200)
  }`;
  return { ok: false, error: hubError("ADAPTER_ERROR", message) };
}

export function createPageLinks(
  onEvent: (message: unknown, sender: chrome.runtime.MessageSender) => void,
): PageLinks {
  const links = new Map<number, Link>();
  const waiters = new Map<number, Set<() => void>>();
  let nextId = 1;

  function adopt(tabId: number, link: Link) {
    links.set(tabId, link);
    for (const wake of waiters.get(tabId) ?? []) wake();
    waiters.delete(tabId);
  }

  async function closed(tabId: number, link: Link) {
    if (links.get(tabId) === link) links.delete(tabId);
    if (link.pending.size === 0) return;
    const exists = await chrome.tabs.get(tabId).then(() => true, () => false);
    const error = new CallFailure(
      exists
        ? hubError(
          "TAB_NAVIGATED",
          `Tab ${tabId}'s page went away while the call ran (it navigated or reloaded), so ` +
            "its answer was lost. Try again once the page has loaded.",
        )
        : hubError("TAB_CLOSED", `Tab ${tabId} was closed while the call ran.`),
    );
    for (const waiting of link.pending.values()) waiting.reject(error);
    link.pending.clear();
  }

  /** Calls the page never answered (the caller gave up after 5 minutes) are dropped. */
  function sweep(link: Link) {
    const cutoff = Date.now() - CALL_MAX_MS;
    for (const [id, waiting] of link.pending) if (waiting.started < cutoff) link.pending.delete(id);
  }

  function accept(port: chrome.runtime.Port) {
    const sender = port.sender;
    const tabId = sender?.tab?.id;
    if (port.name !== PORT_NAME || tabId === undefined || sender?.frameId !== 0) return;
    // A document on its way out (bfcache, unload) must not take over from the current one.
    if (sender.documentLifecycle !== undefined && sender.documentLifecycle !== "active") {
      port.disconnect();
      return;
    }
    const link: Link = { port, pending: new Map() };
    port.onMessage.addListener((message: { type?: unknown }) => {
      if (message?.type === CALL_RESULT_MESSAGE) {
        const { id, result } = message as CallResultMessage;
        const waiting = link.pending.get(id);
        link.pending.delete(id);
        waiting?.resolve(checkedAnswer(result));
      } else if (message?.type === HELLO_MESSAGE) {
        // The bridge was injected again into a document whose port we still hold: it is the
        // tab's current document.
        if (links.get(tabId) !== link) adopt(tabId, link);
      } else onEvent(message, sender);
    });
    port.onDisconnect.addListener(() => void closed(tabId, link));
    adopt(tabId, link);
  }

  return {
    accept,
    has: (tabId) => links.has(tabId),
    waitFor(tabId, timeoutMs) {
      if (links.has(tabId)) return Promise.resolve(true);
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          const set = waiters.get(tabId);
          set?.delete(wake);
          if (set?.size === 0) waiters.delete(tabId);
          resolve(links.has(tabId));
        }, timeoutMs);
        let set = waiters.get(tabId);
        if (!set) waiters.set(tabId, set = new Set());
        set.add(wake);
      });
    },
    call(tabId, plugin, hash, request) {
      const link = links.get(tabId);
      if (!link) return Promise.resolve({ missing: true });
      if (link.pending.size > 100) sweep(link);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        link.pending.set(id, { resolve, reject, started: Date.now() });
        try {
          link.port.postMessage({ type: CALL_MESSAGE, id, plugin, hash, request });
        } catch {
          // The port died before we heard of it: treat the page as not set up, so the
          // dispatcher injects again and retries.
          link.pending.delete(id);
          if (links.get(tabId) === link) links.delete(tabId);
          resolve({ missing: true });
        }
      });
    },
  };
}
