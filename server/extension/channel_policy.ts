/**
 * What the hub does when the extension connects and when it goes away. On connect it sends the
 * full state (`sync.full`: plugins, permissions, skip switch), so a new or replacing connection
 * starts from the hub's current view. On disconnect it forgets the tab states the extension
 * reported, since nothing can run in those tabs any more, and fails the `ask` confirmations that
 * were waiting for an answer from the side panel.
 */
import type { Confirmations } from "../calls/confirmations.ts";
import type { ConfigChanges } from "../changes/config_changes.ts";
import type { ExtensionChannel } from "../ws/extension_channel.ts";
import type { TabStates } from "../plugins/tab_states.ts";

export interface ChannelPolicyDeps {
  channel: Pick<ExtensionChannel, "notify" | "onConnect" | "onDisconnect">;
  /** Gives the state to send on connect. */
  changes: Pick<ConfigChanges, "state">;
  tabs: Pick<TabStates, "clear">;
  confirmations: Pick<Confirmations, "failAll">;
}

/** Registers the connect and disconnect listeners on the channel. */
export function applyChannelPolicy(deps: ChannelPolicyDeps): void {
  const { channel, changes, tabs, confirmations } = deps;
  channel.onConnect(() => channel.notify("sync.full", changes.state()));
  channel.onDisconnect(() => {
    tabs.clear();
    confirmations.failAll("the connection closed");
  });
}
