/**
 * Plugin log entries that arrive from pages (`plugin.log`): kept in a ring per plugin (its size is
 * `logBufferSize` in `/health`), written to server.log as `[plugin:<name>]` lines, and handed to
 * listeners (MCP sessions forward them as `notifications/message`).
 */
import type { PluginLogEntry } from "../../protocol/events.ts";
import type { Logger } from "../log/logger.ts";

export const PLUGIN_LOG_BUFFER = 200;

export interface PluginLogs {
  add(plugin: string, entries: PluginLogEntry[]): void;
  size(plugin: string): number;
  recent(plugin: string): PluginLogEntry[];
  onEntry(listener: (plugin: string, entry: PluginLogEntry) => void): void;
}

export function createPluginLogs(logger: Logger, capacity = PLUGIN_LOG_BUFFER): PluginLogs {
  const rings = new Map<string, PluginLogEntry[]>();
  const listeners: ((plugin: string, entry: PluginLogEntry) => void)[] = [];
  return {
    add(plugin, entries) {
      const ring = rings.get(plugin) ?? [];
      for (const entry of entries) {
        ring.push(entry);
        const data = entry.data === undefined ? "" : ` ${safeJson(entry.data)}`;
        logger[entry.level](`[plugin:${plugin}] ${entry.message}${data}`);
        for (const listener of listeners) listener(plugin, entry);
      }
      if (ring.length > capacity) ring.splice(0, ring.length - capacity);
      rings.set(plugin, ring);
    },
    size: (plugin) => rings.get(plugin)?.length ?? 0,
    recent: (plugin) => [...(rings.get(plugin) ?? [])],
    onEntry: (listener) => listeners.push(listener),
  };
}

function safeJson(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  } catch {
    return "[unserializable]";
  }
}
