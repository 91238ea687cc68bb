/**
 * Events from pages (through the bridge) reach the hub: `tool.progress`, `plugin.log`, and
 * readiness hints that trigger a new probe. An event counts only for a plugin whose patterns
 * match the tab it came from, so one site cannot write another plugin's logs.
 */
import type { LogEntry, PageEvent } from "../../protocol/adapter.ts";
import type { PluginStore } from "./plugin_store.ts";
import type { RpcPeer } from "./rpc_peer.ts";
import type { TabTracker } from "./tab_tracker.ts";

export const PAGE_EVENT_MESSAGE = "hub-page-event";
const MAX_ENTRIES = 1000;

export interface PageEventDeps {
  store: PluginStore;
  tracker: TabTracker;
  peer(): RpcPeer | undefined;
}

function isEvent(value: unknown): value is PageEvent {
  const v = value as PageEvent;
  return typeof v === "object" && v !== null && typeof v.plugin === "string" &&
    (v.kind === "progress" || v.kind === "log" || v.kind === "readiness");
}

function logEntries(entries: unknown): LogEntry[] {
  if (!Array.isArray(entries)) return [];
  return entries.slice(0, MAX_ENTRIES).filter((e) =>
    typeof e?.message === "string" && ["debug", "info", "warn", "error"].includes(e?.level)
  );
}

export function handlePageEvent(
  message: unknown,
  sender: chrome.runtime.MessageSender,
  deps: PageEventDeps,
): void {
  const m = message as { type?: unknown; event?: unknown };
  const tab = sender.tab;
  if (m?.type !== PAGE_EVENT_MESSAGE || tab?.id === undefined || !isEvent(m.event)) return;
  const event = m.event;
  if (!deps.store.matching(tab.url).some((p) => p.name === event.plugin)) return;
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
