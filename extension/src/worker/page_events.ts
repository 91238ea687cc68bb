/**
 * Events from adapters (taken out of their doors by door_exchanges.ts) reach the hub: `tool.progress`,
 * `plugin.log`, and readiness hints that trigger a new probe. An event belongs to the plugin whose
 * door it came out of, whatever it says, and counts only while that plugin's patterns match the
 * tab, so no adapter and no page script can write another plugin's logs.
 */
import type { LogEntry, PageEvent } from "../../../protocol/adapter.ts";
import { isLogLevel } from "../../../protocol/call_contract.ts";
import type { PluginStore } from "./plugin_store.ts";
import type { RpcPeer } from "./rpc_peer.ts";
import type { TabTracker } from "./tab_tracker.ts";

const MAX_ENTRIES = 1000;

export interface PageEventDeps {
  store: PluginStore;
  tracker: TabTracker;
  peer(): RpcPeer | undefined;
}

const KINDS = ["progress", "log", "readiness"];

function isEvent(value: unknown): value is PageEvent {
  const v = value as PageEvent;
  return typeof v === "object" && v !== null && KINDS.includes(v.kind);
}

/** Well-formed entries only, rebuilt field by field: one bad entry must not sink the batch. */
function logEntries(entries: unknown): LogEntry[] {
  if (!Array.isArray(entries)) return [];
  const valid: LogEntry[] = [];
  for (const e of entries.slice(0, MAX_ENTRIES)) {
    if (typeof e?.message !== "string" || !isLogLevel(e?.level)) continue;
    const entry = { level: e.level, message: e.message } as LogEntry;
    if (Number.isFinite(e.timestamp)) entry.timestamp = e.timestamp;
    if (e.data !== undefined) entry.data = e.data;
    valid.push(entry);
  }
  return valid;
}

/** Handles one event that came out of `plugin`'s door in tab `tabId`. */
export function handlePageEvent(
  tabId: number,
  plugin: string,
  event: unknown,
  deps: PageEventDeps,
): void {
  if (!isEvent(event)) return;
  const url = deps.tracker.urlOf?.(tabId);
  if (!deps.store.matching(url).some((p) => p.name === plugin)) return;
  const peer = deps.peer();
  if (event.kind === "readiness") {
    void deps.tracker.reprobe(tabId, plugin);
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
    if (entries.length > 0) peer.notify("plugin.log", { plugin, tabId, entries });
  }
}
