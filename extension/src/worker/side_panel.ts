/**
 * Everything behind the side panel, in one place: what the hub last synced, the link's state and
 * its diagnosed problem, tab states, recent calls, and confirmations waiting for the person (with
 * the badge and notifications). background.ts feeds it the hub's messages and Chromium's events;
 * panels get the state through panel_hub.ts and their commands run here.
 */
import type { DispatchParams, DispatchResult, ServerParams } from "../../../protocol/events.ts";
import { BROWSER_GROUP } from "../../../protocol/call_contract.ts";
import { createActivityLog } from "./activity_log.ts";
import { createNotificationAlerts } from "./confirmation_alerts.ts";
import { createConfirmationQueue } from "./confirmation_queue.ts";
import type { Connection, LinkStatus } from "./connection.ts";
import type { ExtensionLog } from "./extension_log.ts";
import { readHubAddress } from "./hub_files.ts";
import { diagnose, versionProblem } from "./link_diagnosis.ts";
import { createPanelHub } from "./panel_hub.ts";
import { createPackageCommands } from "./package_commands.ts";
import { createProgressLog } from "./package_progress.ts";
import type { UpdateCheck } from "../../../protocol/packages.ts";
import type {
  HubView,
  LinkProblem,
  PanelCommand,
  PanelState,
  SitesView,
} from "../shared/panel_messages.ts";
import { DEFAULT_SITE_PERMISSION } from "../../../protocol/site_permissions.ts";
import type { PluginStore } from "./plugin_store.ts";
import { createBadge } from "./status_badge.ts";
import { type DebuggerFacts, debuggerView } from "./debugger_panel.ts";
import type { TabTracker } from "./tab_tracker.ts";

export interface SidePanelDeps {
  connection(): Connection;
  store: PluginStore;
  tracker: TabTracker;
  log: ExtensionLog;
  /** The debugger sessions: the panel shows the mode and the tabs attached now. */
  debugger?: DebuggerFacts;
  /** When each site rule last let a call through (site_uses.ts): pattern → ms since epoch. */
  siteUses?: { all(): Promise<Record<string, number>> };
}

type SyncParams = ServerParams<"sync.full">;

/** The Sites section's view of the hub's site fields, each rule with its last use. */
export function sitesView(sync: SyncParams, uses: Record<string, number>): SitesView {
  const rules = Object.entries(sync.sitePermissions ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([pattern, permission]) => {
      const lastUsedAt = Object.hasOwn(uses, pattern) ? uses[pattern] : undefined;
      return { pattern, permission, ...(lastUsedAt !== undefined ? { lastUsedAt } : {}) };
    });
  return {
    rules,
    defaultPermission: sync.defaultSitePermission ?? DEFAULT_SITE_PERMISSION,
    agentTabsOnly: sync.agentTabsOnly ?? false,
  };
}

/** The rules' last uses; none when they cannot be read (the panel then says "never"). */
async function readUses(deps: SidePanelDeps): Promise<Record<string, number>> {
  try {
    return (await deps.siteUses?.all()) ?? {};
  } catch (error) {
    deps.log.warn("Cannot read when the site rules were last used", error);
    return {};
  }
}

/** How soon a change in the activity list reaches open panels. */
export const ACTIVITY_PUSH_MS = 250;

export function createSidePanel(deps: SidePanelDeps) {
  const manifest = chrome.runtime.getManifest();
  const extensionVersion = manifest.version_name ?? manifest.version;
  let sync: SyncParams | undefined;
  let problem: LinkProblem | undefined;
  let diagnosing = 0;
  const showBadge = createBadge();

  const changed = () => {
    showBadge(deps.connection().status(), queue.list().length);
    panels.changed();
  };
  // Calls change nothing on the badge: only an open panel hears of them, a few times a second
  // at most under load (each push sends the whole state).
  const activity = createActivityLog(() => panels.changed(ACTIVITY_PUSH_MS));
  const alerts = createNotificationAlerts({
    panelOpen: () => panels.isOpen(),
    respond: (id, decision) => respond(id, decision, false),
    log: deps.log,
  });
  const queue = createConfirmationQueue({ onChange: changed, alerts, names });
  const progress = createProgressLog(changed);
  /** The newest update check: the hub's (sync.full) or one the panel asked for. */
  let updates: UpdateCheck | undefined;
  const noteUpdates = (check: UpdateCheck | undefined) => {
    if (check && check.checkedAt >= (updates?.checkedAt ?? -1)) updates = check;
  };
  const packages = createPackageCommands({
    peer: () => deps.connection().peer(),
    onUpdates: (check) => {
      noteUpdates(check);
      changed();
    },
  });
  const panels = createPanelHub({
    state,
    run,
    onOpen: () => alerts.hideAll(),
    warn: deps.log.warn,
  });
  deps.debugger?.onChange(() => panels.changed());

  function names(tool: string, plugin: string) {
    const tools = plugin === BROWSER_GROUP ? sync?.browserTools : deps.store.get(plugin)?.tools;
    return {
      toolDisplayName: tools?.find((t) => t.name === tool)?.displayName,
      pluginDisplayName: plugin === BROWSER_GROUP ? "Browser" : deps.store.get(plugin)?.displayName,
    };
  }

  function hubView(uses: Record<string, number>): HubView | undefined {
    if (!sync) return undefined;
    return {
      version: sync.hubVersion,
      skipPermissions: sync.skipPermissions,
      skipPermissionsForced: sync.skipPermissionsForced,
      browserPermission: sync.browserPermission,
      plugins: deps.store.all(),
      browserTools: sync.browserTools,
      disabledBrowserTools: sync.disabledBrowserTools,
      ...(updates ? { updates } : {}),
      sites: sitesView(sync, uses),
    };
  }

  async function state(): Promise<PanelState> {
    const status = deps.connection().status();
    const states = await deps.tracker.states();
    const connected = status.state === "connected";
    const linkProblem = connected
      ? (sync ? versionProblem(sync.hubVersion, extensionVersion) : undefined)
      : problem;
    return {
      extensionVersion,
      link: {
        state: status.state,
        ...(status.port !== undefined ? { port: status.port } : {}),
        ...(status.connectedAt !== undefined ? { connectedAt: status.connectedAt } : {}),
        ...(linkProblem ? { problem: linkProblem } : {}),
      },
      ...(connected && sync ? { hub: hubView(await readUses(deps)) } : {}),
      tabs: Object.fromEntries(states.map((s) => [s.plugin, s])),
      activity: activity.list(),
      confirmations: queue.list(),
      progress: progress.list(),
      ...(deps.debugger ? { debugger: await debuggerView(deps.debugger) } : {}),
    };
  }

  /** Sends the person's answer to the hub and takes the request off the queue. */
  function respond(id: string, decision: "allow" | "deny", alwaysAllow: boolean) {
    const peer = deps.connection().peer();
    if (!queue.has(id) || !peer) {
      throw new Error(
        "This request is no longer waiting: it was answered elsewhere, cancelled " +
          "by the agent, or it expired.",
      );
    }
    peer.notify("confirmation.response", { id, decision, ...(alwaysAllow ? { alwaysAllow } : {}) });
    deps.log.info(
      `${decision === "allow" ? "Allowed" : "Denied"} call ${id}` +
        (alwaysAllow ? " (always allow)" : ""),
    );
    queue.settle(id);
    activity.answered(id);
  }

  async function run(command: PanelCommand): Promise<unknown> {
    if (command.type === "reconnect") return deps.connection().takeOver();
    if (command.type === "confirm") {
      return respond(command.id, command.decision, command.alwaysAllow === true);
    }
    const forwarded = packages.run(command);
    if (forwarded) return await forwarded;
    const peer = deps.connection().peer();
    if (!peer) {
      throw new Error(
        "Not connected to the hub, so the change cannot be saved. Start the hub " +
          '("hub start") and try again.',
      );
    }
    const { type, ...params } = command;
    const method = `config.${type as "setPluginPermission"}` as const;
    await peer.request(method, params as never);
  }

  /** The link's state changed: show it, and find out why when it is down. */
  function linkChanged(status: LinkStatus) {
    if (status.state === "connected") problem = undefined;
    if (status.state === "disconnected") {
      queue.clear();
      activity.interrupted();
      progress.clear();
      const attempt = ++diagnosing;
      void diagnose(status, {
        extensionVersion,
        readAddress: readHubAddress,
        fetch: (...args) => fetch(...args),
      }).then((found) => {
        if (attempt !== diagnosing) return;
        if (found?.kind !== problem?.kind) deps.log.info(`Not connected: ${found?.message}`);
        problem = found;
        changed();
      });
    }
    changed();
  }

  return {
    accept: (port: chrome.runtime.Port) => panels.accept(port),
    notifications: alerts,
    linkChanged,
    /** Tabs, readiness or plugins changed. */
    tabsChanged: () => panels.changed(),
    synced(params: SyncParams) {
      sync = params;
      noteUpdates(params.updates);
      changed();
    },
    /** `plugin.progress`: what a running package operation is doing. */
    progress: (p: ServerParams<"plugin.progress">) => progress.add(p),
    /** A call the extension runs started (`tool.dispatch`), or one the hub runs. */
    callStarted(p: DispatchParams | ServerParams<"tool.invocationStart">) {
      const id = "dispatchId" in p ? p.dispatchId : p.invocationId;
      const startedAt = "startedAt" in p ? p.startedAt : Date.now();
      queue.settle(id); // a dispatch under a confirmation's id: the call was allowed
      activity.started({ id, tool: p.tool, plugin: p.plugin, startedAt });
    },
    /** The extension's reply to a dispatch: how the call ended, unless the hub says otherwise. */
    callReplied: (id: string, result: DispatchResult, replace = false) =>
      activity.replied(id, result, { replace }),
    invocationEnd(p: ServerParams<"tool.invocationEnd">) {
      queue.settle(p.invocationId); // answered elsewhere, cancelled or timed out
      activity.ended(p);
    },
    confirmationRequest(p: ServerParams<"confirmation.request">) {
      activity.waiting(p);
      queue.add(p);
    },
    state,
  };
}

export type SidePanel = ReturnType<typeof createSidePanel>;
