/**
 * What the hub does with each request and notification from the extension (docs/protocol.md,
 * "Extension → hub"). Payloads arrive already validated by the link. Plugin package requests go to
 * the package module the CLI uses too (core/packages); after a change the plugins are reloaded,
 * which announces `plugins.changed` and removes the adapters of plugins that are gone.
 */
import { RPC_ERRORS, RpcError } from "../../protocol/rpc.ts";
import type { PackageProgress } from "../../protocol/packages.ts";
import type { PluginPackages } from "../../core/packages/plugin_packages.ts";
import { isPackageError } from "../../core/packages/package_error.ts";
import { HubError, restStatus } from "../../protocol/errors.ts";
import type { UpdateChecker } from "../plugins/update_checker_interface.ts";
import { isFolderOpenFailure } from "./folder_open.ts";
import type { ExtensionHandlers, ExtensionLink } from "../ws/extension_link_interface.ts";
import type { TabStates } from "../plugins/tab_states_interface.ts";
import type { PluginLogs } from "./plugin_logs_interface.ts";
import type { Dispatches } from "../calls/dispatches_interface.ts";
import type { Confirmations } from "../calls/confirmations_interface.ts";
import type { ConfigChanges } from "../changes/config_changes_interface.ts";
import { type SettingsUpdateDeps, updatePluginSettings } from "../plugins/settings_update.ts";

export interface ExtensionHandlerDeps {
  tabs: TabStates;
  logs: PluginLogs;
  dispatches: Dispatches;
  confirmations: Confirmations;
  /** Permissions, the skip switch, site rules and the side panel's state. */
  changes: Pick<
    ConfigChanges,
    | "state"
    | "setPermission"
    | "setSkipPermissions"
    | "setDebugger"
    | "setSitePermission"
    | "setSiteDefaults"
  >;
  /** What `config.setPluginSettings` needs to check, store and apply settings. */
  settings: SettingsUpdateDeps;
  link: Pick<ExtensionLink, "notify">;
  clock: () => number;
  /** Plugin packages on the npm registry. */
  packages: Pick<PluginPackages, "search" | "install" | "update" | "remove">;
  /** The update check (`plugin.checkUpdates`, and what an update or removal makes stale). */
  updates: Pick<UpdateChecker, "checkNow" | "forget">;
  /** `folder.open` (folder_open.ts). */
  openFolder(path: string): Promise<{ opened: string }>;
}

/**
 * JSON-RPC's server-error code: an operation that failed for a reason the person can act on, with
 * its machine code in `data.code` (`REGISTRY_UNREACHABLE`, `NO_OPENER`, …).
 */
export const RPC_SERVER_ERROR = -32000;

/**
 * JSON-RPC's one error mapper: a thrown error as the RPC error the extension gets. A package or
 * folder operation that failed is a server error with its code in `data`; a HubError the hub could
 * not carry out, the one REST answers 500 (RELOAD_FAILED), is an internal error; anything else
 * (another HubError, whatever its category, or a plain Error) is invalid params, with its message.
 */
export function toRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  if (isPackageError(error) || isFolderOpenFailure(error)) {
    return new RpcError(RPC_SERVER_ERROR, error.message, { code: error.code });
  }
  const internal = error instanceof HubError && restStatus(error) === 500;
  const code = internal ? RPC_ERRORS.INTERNAL_ERROR : RPC_ERRORS.INVALID_PARAMS;
  return new RpcError(code, (error as Error).message);
}

/** Runs a request's work; what it throws reaches the extension through `toRpcError`. */
async function answer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toRpcError(error);
  }
}

/** What the package module reports while npm runs, sent to the extension as `plugin.progress`. */
export function progressToExtension(
  link: Pick<ExtensionLink, "notify">,
): (progress: PackageProgress) => void {
  return (progress) => void link.notify("plugin.progress", progress);
}

type PackageHandlers = Pick<
  ExtensionHandlers,
  | "plugin.search"
  | "plugin.install"
  | "plugin.updateFromRegistry"
  | "plugin.remove"
  | "plugin.removeBySpecifier"
  | "plugin.checkUpdates"
  | "folder.open"
>;

function packageHandlers(deps: ExtensionHandlerDeps): PackageHandlers {
  const { packages, updates } = deps;
  /**
   * A loaded npm plugin's name stands for the package that serves it (the folder npm installed,
   * not what its package.json claims); anything else goes to npm as given.
   */
  const packageOf = (name: string) => {
    const plugin = deps.settings.registry().plugin(name);
    return plugin?.source === "npm" ? plugin.packageName : name;
  };
  /** After a change: what the update check found about the package is stale; reload. */
  const changed = async <T extends { name: string }>(result: T) => {
    updates.forget(result.name);
    await deps.settings.reload();
    return result;
  };
  return {
    "plugin.search": ({ query }) => answer(() => packages.search(query)),
    "plugin.install": ({ name }) => answer(async () => changed(await packages.install(name))),
    "plugin.updateFromRegistry": ({ name }) =>
      answer(async () => changed(await packages.update(packageOf(name)))),
    "plugin.remove": ({ name }) =>
      answer(async () => changed(await packages.remove(packageOf(name)))),
    "plugin.removeBySpecifier": ({ specifier }) =>
      answer(async () => changed(await packages.remove(specifier))),
    "plugin.checkUpdates": () => answer(() => updates.checkNow()),
    "folder.open": ({ path }) => answer(() => deps.openFolder(path)),
  };
}

export function createExtensionHandlers(deps: ExtensionHandlerDeps): ExtensionHandlers {
  const { changes } = deps;
  /** A config change, answered with the side panel's state after it. */
  const thenState = (change: () => Promise<unknown>) =>
    answer(async () => {
      await change();
      return changes.state();
    });
  return {
    ...packageHandlers(deps),
    "tab.syncAll": ({ plugins }) => {
      deps.tabs.replaceAll(plugins);
    },
    "tab.stateChanged": (change) => {
      deps.tabs.set(change);
      return { ok: true };
    },
    "tool.progress": (params) => deps.dispatches.progress(params),
    "plugin.log": ({ plugin, entries, tabId }) => deps.logs.add(plugin, entries, tabId),
    "config.getState": () => changes.state(),
    "config.setToolPermission": ({ plugin, tool, permission }) =>
      thenState(() => changes.setPermission({ plugin, tool }, permission)),
    "config.setPluginPermission": ({ plugin, permission }) =>
      thenState(() => changes.setPermission({ plugin }, permission)),
    "config.setSkipPermissions": ({ enabled }) =>
      thenState(() => changes.setSkipPermissions(enabled)),
    "config.setDebugger": ({ mode }) => thenState(() => changes.setDebugger(mode)),
    "config.setSitePermission": ({ pattern, permission }) =>
      thenState(() => changes.setSitePermission(pattern, permission)),
    "config.setSiteDefaults": (defaults) => thenState(() => changes.setSiteDefaults(defaults)),
    "config.setPluginSettings": ({ plugin, settings }) =>
      answer(() => updatePluginSettings({ plugin, settings }, deps.settings)),
    "confirmation.response": (params) => deps.confirmations.respond(params),
    ping: () => {
      deps.link.notify("pong", { ts: deps.clock() });
    },
  };
}
