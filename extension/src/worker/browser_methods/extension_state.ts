/**
 * `extension.state` (extension_get_state): a compact summary of what the side panel shows — the
 * extension and hub versions, the link, each plugin's permission, tab state and matching tabs, and
 * how many confirmations and calls are pending.
 */
import type { PanelState } from "../../shared/panel_messages.ts";
import type { BrowserMethod } from "./browser_method.ts";

/** At most this many tabs per plugin are listed (`tabCount` has the total). */
export const MAX_TABS_PER_PLUGIN = 20;
const MAX_TITLE = 200;

function pluginSummaries(state: PanelState) {
  const synced = state.hub?.plugins ?? [];
  const names = [...new Set([...synced.map((p) => p.name), ...Object.keys(state.tabs)])];
  return names.map((name) => {
    const plugin = synced.find((p) => p.name === name);
    const tabs = state.tabs[name]?.tabs ?? [];
    return {
      name,
      version: plugin?.version ?? null,
      permission: plugin?.permission ?? null,
      tabState: state.tabs[name]?.state ?? "closed",
      tabCount: tabs.length,
      tabs: tabs.slice(0, MAX_TABS_PER_PLUGIN).map((t) => ({
        tabId: t.tabId,
        url: t.url,
        title: t.title.slice(0, MAX_TITLE),
        ready: t.ready,
      })),
      tools: plugin?.tools.length ?? 0,
    };
  });
}

export function stateSummary(state: PanelState) {
  const { link, hub } = state;
  return {
    extensionVersion: state.extensionVersion,
    link: {
      state: link.state,
      port: link.port ?? null,
      problem: link.problem
        ? { kind: link.problem.kind, message: link.problem.message, fix: link.problem.fix }
        : null,
    },
    hubVersion: hub?.version ?? null,
    skipPermissions: hub?.skipPermissions ?? null,
    plugins: pluginSummaries(state),
    pendingConfirmations: state.confirmations.length,
    runningCalls: state.activity.filter((a) => a.state === "running").length,
  };
}

export const extensionState: BrowserMethod<"extension.state"> = async (_input, { state }) =>
  stateSummary(await state());
