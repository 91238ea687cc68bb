/**
 * What a plugin call says when it has no tab to run in. The extension owns tab targeting (it picks
 * the tab, `extension/src/worker/plugin_dispatch.ts`); the hub checks the tab states the extension
 * reported first, to fail fast without a round trip (`server/calls/tab_target.ts`). Both build
 * their TAB_CLOSED and TAB_UNAVAILABLE messages here, so an agent reads the same words whichever
 * side noticed.
 */

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
