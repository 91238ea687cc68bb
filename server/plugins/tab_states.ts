/**
 * Each plugin's tab state as the extension reports it (`tab.syncAll`, `tab.stateChanged`):
 * closed / unavailable / ready, with the matching tabs. Forgotten when the extension disconnects,
 * because then nothing can run in those tabs anyway.
 */
import type { TabStateChange } from "../../protocol/events.ts";
import type { PluginTabs, TabStates } from "./tab_states_interface.ts";

const CLOSED: PluginTabs = { state: "closed", tabs: [] };

/**
 * The state follows from the tabs, so a report can never contradict itself: no tabs is closed,
 * any ready tab is ready, matching tabs that are not ready are unavailable.
 */
function normalize(change: TabStateChange): PluginTabs {
  const tabs = change.tabs.map(({ tabId, url, title, ready }) => ({ tabId, url, title, ready }));
  if (tabs.length === 0) return CLOSED;
  return { state: tabs.some((t) => t.ready) ? "ready" : "unavailable", tabs };
}

export function createTabStates(): TabStates {
  let byPlugin = new Map<string, PluginTabs>();
  return {
    of: (plugin) => byPlugin.get(plugin) ?? CLOSED,
    replaceAll(changes) {
      byPlugin = new Map(changes.map((c) => [c.plugin, normalize(c)]));
    },
    set(change) {
      byPlugin.set(change.plugin, normalize(change));
    },
    clear() {
      byPlugin = new Map();
    },
  };
}
