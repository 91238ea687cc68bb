/**
 * Events from pages (through the bridge) reach the hub: `tool.progress`, `plugin.log`, and
 * readiness hints that trigger a new probe. An event counts only for a plugin whose patterns
 * match the tab it came from, so one site cannot write another plugin's logs.
 */
import type { LogEntry, PageEvent } from "../../../protocol/adapter.ts";
import type { PluginStore } from "./plugin_store.ts";
import type { RpcPeer } from "./rpc_peer.ts";
import type { TabTracker } from "./tab_tracker.ts";
import { PAGE_EVENT_MESSAGE } from "../shared/page_messages.ts";

const MAX_ENTRIES = 1000;

export interface PageEventDeps {
  store: PluginStore;
  tracker: TabTracker;
  peer(): RpcPeer | undefined;
}

const KINDS = ["progress", "log", "readiness"];
const LEVELS = ["debug", "info", "warn", "error"];

function isEvent(value: unknown): value is PageEvent {
  const v = value as PageEvent;
  return typeof v === "object" && v !== null && typeof v.plugin === "string" &&
    KINDS.includes(v.kind);
}

/** Well-formed entries only, rebuilt field by field: one bad entry must not sink the batch. */
function logEntries(entries: unknown): LogEntry[] {
  if (!Array.isArray(entries)) return [];
  const valid: LogEntry[] = [];
  for (const e of entries.slice(0, MAX_ENTRIES)) {
    if (typeof e?.message !== "string" || !LEVELS.includes(e?.level)) continue;
    const entry = { level: e.level, message: e.message } as LogEntry;
    if (Number.isFinite(e.timestamp)) entry.timestamp = e.timestamp;
    if (e.data !== undefined) entry.data = e.data;
    valid.push(entry);
  }
  return valid;
}

/** Handles one event the bridge of a tab sent (`sender` is its port's sender). */
export function handlePageEvent(
  message: unknown,
  sender: chrome.runtime.MessageSender,
  deps: PageEventDeps,
): void {
  const m = message as { type?: unknown; event?: unknown };
  const tab = sender.tab;
  if (m?.type !== PAGE_EVENT_MESSAGE || tab?.id === undefined || !isEvent(m.event)) return;
  const event = m.event;
  // The port's sender is a snapshot from when it opened; the page may have moved (pushState).
  const url = deps.tracker.urlOf?.(tab.id) ?? tab.url;
  if (!deps.store.matching(url).some((p) => p.name === event.plugin)) return;
  const peer = deps.peer();
  if (event.kind === "readiness") {
    void deps.tracker.reprobe(tab.id, event.plugin);
  } else if (event.kind === "progress" && peer) {
    if (typeof event.dispatchId !== "string" || !Number.isFinite(event.progress)) return;
    peer.notify("tool.progress", {
      dispatchId: event.dispatchId,
      progress: event.progress,
      ...(Number.isFinite(event.total) ? { total: event.total } : {}),
      ...(typeof event.message === "string" ? { message: event.message } : {}),
    });
  } else if (event.kind === "log" && peer) {
    const entries = logEntries(event.entries);
    if (entries.length > 0) peer.notify("plugin.log", { plugin: event.plugin, entries });
  }
}
