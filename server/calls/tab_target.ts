/**
 * Before a plugin tool is dispatched: is there a tab it can run in? The extension owns tab
 * targeting: it picks the tab and fails the call itself when there is none. This check is a
 * fast-fail on the tab states the extension reported (`tab.syncAll`, `tab.stateChanged`), so a
 * call never makes a round trip, or waits, for a tab that is not there; its TAB_CLOSED and
 * TAB_UNAVAILABLE messages, and its refusal of a named tab, are the extension's own
 * (protocol/tab_readiness.ts). It also resolves the instance the call runs for, once per call.
 */
import { hubError } from "../../protocol/errors.ts";
import { instanceOfUrl } from "../../protocol/plugin_settings.ts";
import { requestedTabRefusal, type TabTarget, tabVerdict } from "../../protocol/tab_readiness.ts";
import type { PluginTabs } from "../plugins/tab_states_interface.ts";
import type { RegisteredPlugin } from "../plugins/registry_interface.ts";

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
    throw hubError(
      "INVALID_ARGUMENTS",
      `${plugin.displayName} has no instance "${requested}" (instances: ${
        names.join(", ") || "none configured"
      }).` + (names.length < 2 ? " Omit instance." : ""),
    );
  }
  const name = requested ?? (names.length === 1 ? names[0] : undefined);
  return name === undefined ? undefined : { name, url: plugin.instances[name] };
}

/** The instance a call runs for: its name and URL. */
export type ResolvedInstance = NonNullable<ReturnType<typeof resolveInstance>>;

/**
 * Checks that the plugin has a tab the call can run in (the requested one, or any of the
 * instance's) and returns the instance the call runs for; throws the HubError to answer.
 */
export function checkTabs(
  plugin: RegisteredPlugin,
  tabs: PluginTabs,
  request: TabRequest,
): ResolvedInstance | undefined {
  const instance = resolveInstance(plugin, request.instance);
  const target: TabTarget = {
    displayName: plugin.displayName,
    urlPatterns: plugin.urlPatterns,
    instance,
  };
  if (request.tabId !== undefined) {
    const refusal = requestedTabRefusal(target, plugin.instances, request.tabId, tabs.tabs);
    if (refusal) throw hubError(refusal.code, refusal.message);
    const tab = tabs.tabs.find((t) => t.tabId === request.tabId)!;
    const verdict = tabVerdict(target, [tab]);
    if (verdict) throw hubError(verdict.code, verdict.message);
    return instance;
  }
  const candidates = instance
    ? tabs.tabs.filter((t) => instanceOfUrl(plugin.instances, t.url) === instance.name)
    : tabs.tabs;
  const verdict = tabVerdict(target, candidates);
  if (verdict) throw hubError(verdict.code, verdict.message);
  return instance;
}
