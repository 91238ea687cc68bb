/**
 * The worker's side of the page channel (page_messages.ts): the open port of each tab's current
 * document, calls sent over it with their answers matched by id, and the page's events handed
 * on. A port that closes (the document went away) fails the calls still waiting on it.
 */
import type { AdapterCall } from "../../protocol/adapter.ts";
import { hubError } from "../../protocol/errors.ts";
import {
  CALL_MESSAGE,
  CALL_RESULT_MESSAGE,
  type CallResultMessage,
  type MaybeMissing,
  PORT_NAME,
} from "./page_messages.ts";
import { CallFailure } from "./tab_calls.ts";

export interface PageLinks {
  /** Takes a port the bridge opened (chrome.runtime.onConnect); ignores others. */
  accept(port: chrome.runtime.Port): void;
  has(tabId: number): boolean;
  /** Waits until the tab's bridge has a port open, up to `timeoutMs`. */
  waitFor(tabId: number, timeoutMs: number): Promise<boolean>;
  /** Runs a call in the tab's adapter; rejects with a CallFailure when the page goes away. */
  call(tabId: number, plugin: string, hash: string, request: AdapterCall): Promise<MaybeMissing>;
}

interface Link {
  port: chrome.runtime.Port;
  pending: Map<number, { resolve(result: MaybeMissing): void; reject(error: Error): void }>;
}

export function createPageLinks(
  onEvent: (message: unknown, sender: chrome.runtime.MessageSender) => void,
): PageLinks {
  const links = new Map<number, Link>();
  const waiters = new Map<number, Set<() => void>>();
  let nextId = 1;

  async function closed(tabId: number, link: Link) {
    if (links.get(tabId) === link) links.delete(tabId);
    if (link.pending.size === 0) return;
    const exists = await chrome.tabs.get(tabId).then(() => true, () => false);
    const error = new CallFailure(
      exists
        ? hubError(
          "TAB_NAVIGATED",
          `Tab ${tabId} left the page while the call ran, so its answer was lost. Try again ` +
            "once the page has loaded.",
        )
        : hubError("TAB_CLOSED", `Tab ${tabId} was closed while the call ran.`),
    );
    for (const waiting of link.pending.values()) waiting.reject(error);
    link.pending.clear();
  }

  function accept(port: chrome.runtime.Port) {
    const tabId = port.sender?.tab?.id;
    if (port.name !== PORT_NAME || tabId === undefined || port.sender?.frameId !== 0) return;
    const link: Link = { port, pending: new Map() };
    links.set(tabId, link); // the newest document of the tab wins
    port.onMessage.addListener((message: { type?: unknown }) => {
      if (message?.type === CALL_RESULT_MESSAGE) {
        const { id, result } = message as CallResultMessage;
        const waiting = link.pending.get(id);
        link.pending.delete(id);
        waiting?.resolve(result);
      } else onEvent(message, port.sender!);
    });
    port.onDisconnect.addListener(() => void closed(tabId, link));
    for (const wake of waiters.get(tabId) ?? []) wake();
    waiters.delete(tabId);
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
          waiters.get(tabId)?.delete(wake);
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
      const id = nextId++;
      return new Promise((resolve, reject) => {
        link.pending.set(id, { resolve, reject });
        try {
          link.port.postMessage({ type: CALL_MESSAGE, id, plugin, hash, request });
        } catch (error) {
          link.pending.delete(id);
          void closed(tabId, link);
          reject(error as Error);
        }
      });
    },
  };
}
