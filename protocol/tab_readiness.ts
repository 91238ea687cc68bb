/**
 * What a plugin call says when it has no tab to run in. The extension owns tab targeting (it picks
 * the tab, `extension/src/worker/plugin_dispatch.ts`); the hub checks the tab states the extension
 * reported first, to fail fast without a round trip (`server/calls/tab_target.ts`). Both call the
 * one verdict here, `tabVerdict` (no tab open: TAB_CLOSED; none ready: TAB_UNAVAILABLE), and both
 * refuse a tab the caller named with `requestedTabRefusal`, so an agent reads the same code and
 * words whichever side noticed.
 */
import type { HubErrorCode } from "./errors.ts";
import { instanceOfUrl } from "./plugin_settings.ts";

/** The plugin (and instance) a call is for. */
export interface TabTarget {
  displayName: string;
  urlPatterns: string[];
  instance?: { name: string; url: string };
}

/** `Tracker`, or `Tracker (work)` for an instance. */
export function tabLabel(target: TabTarget): string {
  return target.instance ? `${target.displayName} (${target.instance.name})` : target.displayName;
}

/** TAB_CLOSED: no tab of the plugin (or of the instance) is open; says what to open. */
export function noTabMessage(target: TabTarget): string {
  const where = target.instance ? target.instance.url : target.urlPatterns.join(" or ");
  return `No ${tabLabel(target)} tab is open. Open ${where} in the browser (and sign in if ` +
    "needed), then try again.";
}

/** TAB_UNAVAILABLE: a tab is open at `url` but the plugin is not ready there. */
export function notReadyMessage(target: TabTarget, url: string): string {
  return `A ${tabLabel(target)} tab is open (${url}) but the plugin is not ready there, usually ` +
    "because you are not signed in. Sign in in that tab, then try again.";
}

/** An open tab of the plugin: its id and the URL it shows. */
export interface OpenTab {
  tabId: number;
  url: string;
}

/** The error code and message a call is refused with. */
export interface TabRefusal {
  code: HubErrorCode;
  message: string;
}

/**
 * Why a call cannot run in the tab the caller named (`tabId`), or undefined when that tab is one of
 * the plugin's open tabs (`pluginTabs`) and, for an instance call, shows that instance
 * (`instances`: the plugin's instance names and URLs). A tab that is not the plugin's is
 * TAB_NOT_FOUND, listing the ids of `pluginTabs`; a tab of another instance is INVALID_ARGUMENTS.
 */
export function requestedTabRefusal(
  target: TabTarget,
  instances: Record<string, string>,
  tabId: number,
  pluginTabs: readonly OpenTab[],
): TabRefusal | undefined {
  const tab = pluginTabs.find((t) => t.tabId === tabId);
  if (!tab) {
    const valid = pluginTabs.map((t) => t.tabId).join(", ") || "none open";
    return {
      code: "TAB_NOT_FOUND",
      message: `Tab ${tabId} is not a ${target.displayName} tab (valid tabIds: ${valid}). ` +
        "Call plugin_list_tabs for the current ones, or omit tabId.",
    };
  }
  const instance = target.instance;
  if (instance && instanceOfUrl(instances, tab.url) !== instance.name) {
    return {
      code: "INVALID_ARGUMENTS",
      message: `Tab ${tabId} (${tab.url}) does not belong to instance "${instance.name}" ` +
        `(${instance.url}). Pick a tab of that instance (plugin_list_tabs) or omit tabId.`,
    };
  }
  return undefined;
}

/** A tab of the plugin (and instance) as one side sees it: its URL and whether the plugin is ready. */
export interface CandidateTab {
  url: string;
  ready: boolean;
}

/**
 * The tab verdict both sides call: why a call cannot run in any of `candidates` (the plugin's
 * open tabs, of the call's instance when it has one), or undefined when one of them is ready.
 * None open is TAB_CLOSED; none ready is TAB_UNAVAILABLE, naming the first one's URL.
 */
export function tabVerdict(
  target: TabTarget,
  candidates: readonly CandidateTab[],
): TabRefusal | undefined {
  if (candidates.length === 0) return { code: "TAB_CLOSED", message: noTabMessage(target) };
  if (candidates.some((t) => t.ready)) return undefined;
  return { code: "TAB_UNAVAILABLE", message: notReadyMessage(target, candidates[0].url) };
}
