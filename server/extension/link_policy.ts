/**
 * What the hub does when the extension connects and when it goes away. On connect it sends the
 * full state (`sync.full`: plugins, permissions, skip switch), so a new or replacing connection
 * starts from the hub's current view. On disconnect it forgets the tab states the extension
 * reported, since nothing can run in those tabs any more, and fails the `ask` confirmations that
 * were waiting for an answer from the side panel.
 */
import type { Confirmations } from "../calls/confirmations_interface.ts";
import type { ConfigChanges } from "../changes/config_changes_interface.ts";
import type { ExtensionLink } from "../ws/extension_link_interface.ts";
import type { TabStates } from "../plugins/tab_states_interface.ts";

export interface LinkPolicyDeps {
  link: Pick<ExtensionLink, "notify" | "onConnect" | "onDisconnect">;
  /** Gives the state to send on connect. */
  changes: Pick<ConfigChanges, "state">;
  tabs: Pick<TabStates, "clear">;
  confirmations: Pick<Confirmations, "failAll">;
}

/** Registers the connect and disconnect listeners on the link. */
export function applyLinkPolicy(deps: LinkPolicyDeps): void {
  const { link, changes, tabs, confirmations } = deps;
  link.onConnect(() => link.notify("sync.full", changes.state()));
  link.onDisconnect(() => {
    tabs.clear();
    confirmations.failAll("the connection closed");
  });
}
