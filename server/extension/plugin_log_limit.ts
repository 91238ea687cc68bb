/**
 * The rate limit on plugin log entries. A page decides how much its adapter logs (and a hostile
 * page can forge entries), so every entry must pass three token buckets before it is kept,
 * written to `plugins.log` or sent to MCP sessions: one per plugin in one tab, one per plugin
 * over all its tabs, and one for all plugins together. What does not pass is dropped and counted;
 * `report()` turns the counts into one line per plugin ("dropped 12,345 log lines from plugin x in
 * tab 7 in the last 10 s (limits: …)"). Every map here is bounded, so a flood costs no memory.
 */
import { clip } from "../../protocol/clip.ts";
import { hasToken, type Rate, TokenBuckets } from "../http/token_buckets.ts";

export interface PluginLogLimits {
  /** One plugin in one tab. */
  perTab: Rate;
  /** One plugin in all its tabs. */
  perPlugin: Rate;
  /** All plugins together. */
  total: Rate;
}

export const PLUGIN_LOG_LIMITS: PluginLogLimits = {
  perTab: { perSecond: 20, burst: 200 },
  perPlugin: { perSecond: 50, burst: 500 },
  total: { perSecond: 200, burst: 1_000 },
};

/** Buckets kept per tab (plugin and tab); the one used least recently gives way. */
export const MAX_TAB_BUCKETS = 1_024;
/** Plugins with a bucket, and plugins whose drops are counted by name (the rest together). */
export const MAX_PLUGIN_BUCKETS = 256;
/** Tabs named in one plugin's drop line; the rest are counted as "N more tabs". */
const NAMED_TABS = 5;
/** Tabs counted one by one for a plugin's drop line. */
const COUNTED_TABS = 64;
/** The name drops of plugins beyond MAX_PLUGIN_BUCKETS are counted under. */
export const OTHER_PLUGINS = "(other plugins)";

interface Drops {
  count: number;
  since: number;
  /** Per tab ("?" when the extension did not say which tab). */
  tabs: Map<string, number>;
}

export interface DropReport {
  plugin: string;
  count: number;
  /** The line that says so, without the `[plugin:<name>]` prefix. */
  line: string;
}

export interface PluginLogLimiter {
  /** Whether one entry of `plugin` from `tabId` may pass; counts it as dropped when not. */
  admit(plugin: string, tabId: number | undefined): boolean;
  /** Whether anything was dropped since the last report. */
  dropping(): boolean;
  /** One line per plugin for what was dropped since the last report; clears the counts. */
  report(): DropReport[];
}

const count = (n: number) => n.toLocaleString("en-US");

/** The limits in words, for the drop lines and the docs. */
export function describeLimits(limits: PluginLogLimits): string {
  const rate = (r: Rate, what: string) =>
    `${count(r.perSecond)} a second ${what} (bursts of ${count(r.burst)})`;
  return `limits: ${rate(limits.perTab, "per plugin in one tab")}, ` +
    `${rate(limits.perPlugin, "per plugin")}, ${rate(limits.total, "for all plugins")}`;
}

export function createPluginLogLimiter(
  limits: PluginLogLimits = PLUGIN_LOG_LIMITS,
  clock: () => number = () => performance.now(),
): PluginLogLimiter {
  const tabs = new TokenBuckets(limits.perTab, MAX_TAB_BUCKETS);
  const plugins = new TokenBuckets(limits.perPlugin, MAX_PLUGIN_BUCKETS);
  const all = new TokenBuckets(limits.total, 1);
  let drops = new Map<string, Drops>();

  function drop(plugin: string, tab: string, now: number) {
    const name = drops.has(plugin) || drops.size < MAX_PLUGIN_BUCKETS ? plugin : OTHER_PLUGINS;
    const tally = drops.get(name) ?? { count: 0, since: now, tabs: new Map() };
    drops.set(name, tally);
    tally.count++;
    if (tally.tabs.has(tab) || tally.tabs.size < COUNTED_TABS) {
      tally.tabs.set(tab, (tally.tabs.get(tab) ?? 0) + 1);
    }
  }

  function line(plugin: string, tally: Drops, now: number): string {
    const seconds = Math.max(1, Math.round((now - tally.since) / 1000));
    const counted = [...tally.tabs].sort((x, y) => y[1] - x[1]);
    const shown = counted.slice(0, NAMED_TABS);
    const tab = (id: string) => id === "?" ? "(not named)" : id;
    let where: string;
    if (counted.length === 1 && counted[0][1] === tally.count) where = `tab ${tab(counted[0][0])}`;
    else {
      where = `tabs ${shown.map(([id, n]) => `${tab(id)} (${count(n)})`).join(", ")}`;
      if (shown.reduce((n, [, c]) => n + c, 0) < tally.count) where += " and more tabs";
    }
    return `dropped ${count(tally.count)} log lines from plugin ${plugin} in ${where} in the ` +
      `last ${seconds} s (${describeLimits(limits)})`;
  }

  return {
    admit(name, tabId) {
      const now = clock();
      const plugin = clip(name, 200);
      const tab = tabId === undefined ? "?" : String(tabId);
      // All three are topped up first, so a refusal by one takes no token from the others.
      const perTab = tabs.bucket(`${tab} ${plugin}`, now);
      const perPlugin = plugins.bucket(plugin, now);
      const total = all.bucket("", now);
      if (!hasToken(perTab) || !hasToken(perPlugin) || !hasToken(total)) {
        drop(plugin, tab, now);
        return false;
      }
      perTab.tokens--;
      perPlugin.tokens--;
      total.tokens--;
      return true;
    },
    dropping: () => drops.size > 0,
    report() {
      const now = clock();
      const reports = [...drops].map(([plugin, tally]) => ({
        plugin,
        count: tally.count,
        line: line(plugin, tally, now),
      }));
      drops = new Map();
      return reports;
    },
  };
}
