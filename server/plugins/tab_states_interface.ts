/**
 * What the hub's parts read and write of each plugin's tab state (closed / unavailable / ready,
 * with the matching tabs). Declared apart from the implementation (./tab_states.ts), so calls/,
 * management/, the extension handlers and health.ts depend on this shape only.
 */
import type { PluginTab } from "../../protocol/health.ts";
import type { TabState, TabStateChange } from "../../protocol/events.ts";

export interface PluginTabs {
  state: TabState;
  tabs: PluginTab[];
}

export interface TabStates {
  of(plugin: string): PluginTabs;
  /** Replaces everything (the extension's full report on connect). */
  replaceAll(changes: TabStateChange[]): void;
  set(change: TabStateChange): void;
  clear(): void;
}
