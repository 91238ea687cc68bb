/**
 * Before a plugin tool is dispatched: is there a tab it can run in? Checks the plugin's tab state
 * (and the tab or instance the caller asked for) and fails with an error that says what to open,
 * so a call never waits on a tab that is not there.
 */
import { instanceOfUrl } from "../../protocol/plugin_settings.ts";
import type { PluginTabs } from "../extension/tab_states.ts";
import type { RegisteredPlugin } from "../plugins/registry.ts";
import { callError } from "./call_error.ts";

export interface TabRequest {
  tabId?: number;
  instance?: string;
}

/**
 * The instance the call runs for, `{ name, url }`: the requested one, or the only one when the
 * plugin has exactly one. A name the plugin does not have is an INVALID_ARGUMENTS error.
 */
export function resolveInstance(plugin: RegisteredPlugin, requested?: string) {
  const names = Object.keys(plugin.instances);
  if (requested !== undefined && !names.includes(requested)) {
    throw callError(
      "INVALID_ARGUMENTS",
      `${plugin.displayName} has no instance "${requested}" (instances: ${
        names.join(", ") || "none configured"
      }).` + (names.length < 2 ? " Omit instance." : ""),
    );
  }
  const name = requested ?? (names.length === 1 ? names[0] : undefined);
  return name === undefined ? undefined : { name, url: plugin.instances[name] };
}

function where(plugin: RegisteredPlugin, instance?: { name: string; url: string }): string {
  return instance ? instance.url : plugin.urlPatterns.join(" or ");
}

export function checkTabs(plugin: RegisteredPlugin, tabs: PluginTabs, request: TabRequest): void {
  const instance = resolveInstance(plugin, request.instance);
  const label = `${plugin.displayName}${instance ? ` (${instance.name})` : ""}`;
  if (request.tabId !== undefined) {
    const tab = tabs.tabs.find((t) => t.tabId === request.tabId);
    if (!tab) {
      const valid = tabs.tabs.map((t) => t.tabId).join(", ") || "none open";
      throw callError(
        "TAB_NOT_FOUND",
        `Tab ${request.tabId} is not a ${plugin.displayName} tab (valid tabIds: ${valid}). ` +
          "Call plugin_list_tabs for the current ones, or omit tabId.",
      );
    }
    if (instance && instanceOfUrl(plugin.instances, tab.url) !== instance.name) {
      throw callError(
        "INVALID_ARGUMENTS",
        `Tab ${tab.tabId} (${tab.url}) does not belong to instance "${instance.name}" ` +
          `(${instance.url}). Pick a tab of that instance (plugin_list_tabs) or omit tabId.`,
      );
    }
    if (!tab.ready) throw notReady(label, tab.url);
    return;
  }
  const candidates = instance
    ? tabs.tabs.filter((t) => instanceOfUrl(plugin.instances, t.url) === instance.name)
    : tabs.tabs;
  if (candidates.length === 0) {
    throw callError(
      "TAB_CLOSED",
      `No ${label} tab is open. Open ${where(plugin, instance)} in the browser (and sign in ` +
        "if needed), then try again.",
    );
  }
  if (!candidates.some((t) => t.ready)) throw notReady(label, candidates[0].url);
}

function notReady(label: string, url: string) {
  return callError(
    "TAB_UNAVAILABLE",
    `A ${label} tab is open (${url}) but the plugin is not ready there, usually because you ` +
      "are not signed in. Sign in in that tab, then try again.",
  );
}
