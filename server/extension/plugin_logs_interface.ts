/**
 * What the hub's parts need of the plugin logs: add the entries a page sent, read the recent ones,
 * hear each new one. Declared apart from the implementation (./plugin_logs.ts: the rings, the limits,
 * the notes on dropped lines), so health.ts and the transports depend on this shape only.
 */
import type { PluginLogEntry } from "../../protocol/events.ts";

export interface PluginLogs {
  /** Entries of `plugin` from the page in tab `tabId` (when the extension said which). */
  add(plugin: string, entries: PluginLogEntry[], tabId?: number): void;
  size(plugin: string): number;
  recent(plugin: string): PluginLogEntry[];
  onEntry(listener: (plugin: string, entry: PluginLogEntry) => void): void;
  /** Reports what was dropped and not yet said, and stops the report timer. */
  close(): void;
}
