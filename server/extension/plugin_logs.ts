/**
 * Plugin log entries that arrive from pages (`plugin.log`): kept in a ring per plugin (its size is
 * `logBufferSize` in `/health`), written to server.log as `[plugin:<name>]` lines, and handed to
 * listeners (MCP sessions forward them as `notifications/message`). A page decides what it logs,
 * so every entry is cut to a bounded size first, each ring is bounded in entries and in bytes,
 * and only so many plugins keep a ring: the memory they take has a fixed ceiling.
 */
import type { PluginLogEntry } from "../../protocol/events.ts";
import { clip } from "../../protocol/clip.ts";
import type { Logger } from "../log/logger.ts";

export const PLUGIN_LOG_BUFFER = 200;
/** Characters kept of an entry's message, and of its data as JSON. */
export const PLUGIN_LOG_ENTRY_MAX_CHARS = 2_000;
/** Characters of all the entries of one plugin's ring together (about). */
export const PLUGIN_LOG_RING_MAX_CHARS = 256 * 1024;
/** Plugins that keep a ring; the one that logged least recently gives way to a new one. */
export const PLUGIN_LOG_MAX_PLUGINS = 64;

export interface PluginLogs {
  add(plugin: string, entries: PluginLogEntry[]): void;
  size(plugin: string): number;
  recent(plugin: string): PluginLogEntry[];
  onEntry(listener: (plugin: string, entry: PluginLogEntry) => void): void;
}

interface Ring {
  entries: { entry: PluginLogEntry; chars: number }[];
  chars: number;
}

export function createPluginLogs(logger: Logger, capacity = PLUGIN_LOG_BUFFER): PluginLogs {
  const rings = new Map<string, Ring>();
  const listeners: ((plugin: string, entry: PluginLogEntry) => void)[] = [];

  function ringOf(plugin: string): Ring {
    const ring = rings.get(plugin) ?? { entries: [], chars: 0 };
    rings.delete(plugin); // re-inserted last: the map's order is least recently logged first
    rings.set(plugin, ring);
    if (rings.size > PLUGIN_LOG_MAX_PLUGINS) rings.delete(rings.keys().next().value!);
    return ring;
  }

  return {
    add(name, entries) {
      const plugin = clip(name, 200);
      const ring = ringOf(plugin);
      for (const raw of entries) {
        const { entry, dataText } = bounded(raw);
        const chars = entry.message.length + dataText.length;
        ring.entries.push({ entry, chars });
        ring.chars += chars;
        logger[entry.level](`[plugin:${plugin}] ${entry.message}${dataText ? ` ${dataText}` : ""}`);
        for (const listener of listeners) listener(plugin, entry);
      }
      while (
        ring.entries.length > capacity ||
        (ring.entries.length > 1 && ring.chars > PLUGIN_LOG_RING_MAX_CHARS)
      ) {
        ring.chars -= ring.entries.shift()!.chars;
      }
    },
    size: (plugin) => rings.get(plugin)?.entries.length ?? 0,
    recent: (plugin) => (rings.get(plugin)?.entries ?? []).map((e) => e.entry),
    onEntry: (listener) => listeners.push(listener),
  };
}

/** The entry with its message cut and its data replaced by cut JSON text when it is large. */
function bounded(raw: PluginLogEntry): { entry: PluginLogEntry; dataText: string } {
  const entry: PluginLogEntry = {
    level: raw.level,
    message: clip(raw.message, PLUGIN_LOG_ENTRY_MAX_CHARS),
    ...(raw.timestamp === undefined ? {} : { timestamp: raw.timestamp }),
  };
  if (raw.data === undefined) return { entry, dataText: "" };
  const dataText = safeJson(raw.data);
  entry.data = dataText.length > PLUGIN_LOG_ENTRY_MAX_CHARS
    ? clip(dataText, PLUGIN_LOG_ENTRY_MAX_CHARS)
    : raw.data;
  return { entry, dataText: clip(dataText, PLUGIN_LOG_ENTRY_MAX_CHARS) };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "undefined";
  } catch {
    return "[unserializable]";
  }
}
