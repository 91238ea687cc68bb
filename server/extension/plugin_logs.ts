/**
 * Plugin log entries that arrive from pages (`plugin.log`): rate-limited per plugin in each tab,
 * per plugin and for all plugins together (plugin_log_limit.ts), then kept in a ring per plugin
 * (its size is `logBufferSize` in `/health`), written as `[plugin:<name>]` lines by the plugin
 * logger (`plugins.log`, apart from the hub's own `server.log`), and handed to listeners (MCP
 * sessions forward them as `notifications/message`). A page decides what it logs, so every entry
 * is cut to a bounded size first, each ring is bounded in entries and in bytes, and only so many
 * plugins keep a ring: the memory they take has a fixed ceiling. What the limit drops is counted:
 * every DROP_REPORT_MS one line per plugin says how many (in `plugins.log` and to the sessions),
 * and `server.log` gets a short note at most every HUB_DROP_NOTE_MS, so a flooding page can
 * neither fill the disk nor rotate the hub's own history away.
 */
import type { PluginLogEntry } from "../../protocol/events.ts";
import { clip } from "../../protocol/clip.ts";
import { touch } from "../../core/cache/lru.ts";
import type { Logger } from "../log/logger_interface.ts";
import {
  createPluginLogLimiter,
  type DropReport,
  PLUGIN_LOG_LIMITS,
  type PluginLogLimits,
} from "./plugin_log_limit.ts";
import type { PluginLogs } from "./plugin_logs_interface.ts";

export const PLUGIN_LOG_BUFFER = 200;
/** Characters kept of an entry's message, and of its data as JSON. */
export const PLUGIN_LOG_ENTRY_MAX_CHARS = 2_000;
/** Characters of all the entries of one plugin's ring together (about). */
export const PLUGIN_LOG_RING_MAX_CHARS = 256 * 1024;
/** Plugins that keep a ring; the one that logged least recently gives way to a new one. */
export const PLUGIN_LOG_MAX_PLUGINS = 64;
/** Drops are reported this long after the first one (one line per plugin). */
export const DROP_REPORT_MS = 10_000;
/** `server.log` hears of dropped plugin log lines at most this often. */
export const HUB_DROP_NOTE_MS = 10 * 60_000;
/** Plugins named in a `server.log` note; the rest are counted. */
const NOTE_PLUGINS = 5;

export interface PluginLogsOptions {
  /** Entries kept per plugin; default PLUGIN_LOG_BUFFER. */
  capacity?: number;
  limits?: PluginLogLimits;
  /** The hub's own log (`server.log`), for the notes on dropped lines; default: the plugin logger. */
  hubLogger?: Logger;
  /** Milliseconds; default Date.now. */
  clock?: () => number;
  reportMs?: number;
}

interface Ring {
  entries: { entry: PluginLogEntry; chars: number }[];
  chars: number;
}

/** `logger` writes the plugins' lines (`plugins.log`). */
export function createPluginLogs(logger: Logger, options: PluginLogsOptions = {}): PluginLogs {
  const capacity = options.capacity ?? PLUGIN_LOG_BUFFER;
  const clock = options.clock ?? Date.now;
  const limiter = createPluginLogLimiter(options.limits ?? PLUGIN_LOG_LIMITS, clock);
  const notes = dropNotes(options.hubLogger ?? logger, clock);
  const rings = new Map<string, Ring>();
  const listeners: ((plugin: string, entry: PluginLogEntry) => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** The plugin's ring; the map's order is least recently logged first. */
  const ringOf = (plugin: string): Ring =>
    touch(rings, plugin, () => ({ entries: [], chars: 0 }), PLUGIN_LOG_MAX_PLUGINS);

  function keep(ring: Ring, plugin: string, raw: PluginLogEntry) {
    const { entry, dataText } = bounded(raw);
    const chars = entry.message.length + dataText.length;
    ring.entries.push({ entry, chars });
    ring.chars += chars;
    logger[entry.level](`[plugin:${plugin}] ${entry.message}${dataText ? ` ${dataText}` : ""}`);
    for (const listener of listeners) listener(plugin, entry);
  }

  function reportDrops() {
    clearTimeout(timer);
    timer = undefined;
    const reports = limiter.report();
    for (const { plugin, line } of reports) {
      logger.warn(`[plugin:${plugin}] ${line}`);
      const entry: PluginLogEntry = { level: "warn", message: `hub: ${line}` };
      for (const listener of listeners) listener(plugin, entry);
    }
    notes.add(reports);
  }

  return {
    add(name, entries, tabId) {
      const plugin = clip(name, 200);
      const admitted = entries.filter(() => limiter.admit(plugin, tabId));
      if (limiter.dropping() && timer === undefined) {
        const id = setTimeout(reportDrops, options.reportMs ?? DROP_REPORT_MS);
        Deno.unrefTimer(id); // a pending report never keeps a stopping hub alive
        timer = id;
      }
      if (admitted.length === 0) return;
      const ring = ringOf(plugin);
      for (const raw of admitted) keep(ring, plugin, raw);
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
    close() {
      reportDrops();
      notes.flush();
    },
  };
}

/**
 * The notes `server.log` gets about dropped plugin log lines: at most one every HUB_DROP_NOTE_MS
 * (the counts in between are carried into the next one, or into the one `flush` writes).
 */
function dropNotes(hubLogger: Logger, clock: () => number) {
  let pending = new Map<string, number>();
  let since = 0;
  let notedAt = -Infinity;

  function write() {
    if (pending.size === 0) return;
    const counts = [...pending].sort((a, b) => b[1] - a[1]);
    const named = counts.slice(0, NOTE_PLUGINS)
      .map(([plugin, n]) => `${n.toLocaleString("en-US")} from plugin ${plugin}`);
    const more = counts.length - named.length;
    hubLogger.warn(
      `Plugin log lines over the rate limit were dropped since ${new Date(since).toISOString()}: ` +
        `${named.join(", ")}${
          more > 0 ? ` and ${more} more plugins` : ""
        } (details in plugins.log)`,
    );
    pending = new Map();
    notedAt = clock();
  }

  return {
    add(reports: DropReport[]) {
      if (reports.length === 0) return;
      if (pending.size === 0) since = clock();
      for (const { plugin, count } of reports) {
        pending.set(plugin, (pending.get(plugin) ?? 0) + count);
      }
      if (clock() - notedAt >= HUB_DROP_NOTE_MS) write();
    },
    flush: write,
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
