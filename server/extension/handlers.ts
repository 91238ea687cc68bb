/**
 * What the hub does with each request and notification from the extension (docs/protocol.md,
 * "Extension → hub"). Payloads arrive already validated by the link.
 */
import { RPC_ERRORS, RpcError } from "../../protocol/rpc.ts";
import { DomainError } from "../domain_error.ts";
import type { ExtensionHandlers, ExtensionLink } from "./link.ts";
import type { TabStates } from "./tab_states.ts";
import type { PluginLogs } from "./plugin_logs.ts";
import type { Dispatcher } from "../calls/dispatcher.ts";
import type { Confirmations } from "../calls/confirmations.ts";
import type { ConfigChanges } from "../config_changes.ts";
import { type SettingsUpdateDeps, updatePluginSettings } from "../plugins/settings_update.ts";

export interface HandlerDeps {
  tabs: TabStates;
  logs: PluginLogs;
  dispatcher: Dispatcher;
  confirmations: Confirmations;
  /** Permissions, the skip switch and the side panel's state. */
  changes: Pick<ConfigChanges, "state" | "setPermission" | "setSkipPermissions">;
  /** What `config.setPluginSettings` needs to check, store and apply settings. */
  settings: SettingsUpdateDeps;
  link: Pick<ExtensionLink, "notify">;
  clock: () => number;
}

/**
 * Turns a thrown error into the JSON-RPC error the extension gets, in one place: a domain failure
 * the hub could not carry out (`failed`) is an internal error; anything else is reported as
 * invalid params, with its message.
 */
async function answer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RpcError) throw error;
    const internal = error instanceof DomainError && error.kind === "failed";
    const code = internal ? RPC_ERRORS.INTERNAL_ERROR : RPC_ERRORS.INVALID_PARAMS;
    throw new RpcError(code, (error as Error).message);
  }
}

const NOT_YET = "is not available in this version of hub; use the hub command line " +
  '("hub --help") for plugin packages.';

function notYet(method: string): () => never {
  return () => {
    throw new RpcError(RPC_ERRORS.METHOD_NOT_FOUND, `${method} ${NOT_YET}`);
  };
}

export function createExtensionHandlers(deps: HandlerDeps): ExtensionHandlers {
  const { changes } = deps;
  return {
    "tab.syncAll": ({ plugins }) => {
      deps.tabs.replaceAll(plugins);
    },
    "tab.stateChanged": (change) => {
      deps.tabs.set(change);
      return { ok: true };
    },
    "tool.progress": (params) => deps.dispatcher.progress(params),
    "plugin.log": ({ plugin, entries }) => deps.logs.add(plugin, entries),
    "config.getState": () => changes.state(),
    "config.setToolPermission": ({ plugin, tool, permission }) =>
      answer(async () => {
        await changes.setPermission({ plugin, tool }, permission);
        return changes.state();
      }),
    "config.setPluginPermission": ({ plugin, permission }) =>
      answer(async () => {
        await changes.setPermission({ plugin }, permission);
        return changes.state();
      }),
    "config.setSkipPermissions": ({ enabled }) =>
      answer(async () => {
        await changes.setSkipPermissions(enabled);
        return changes.state();
      }),
    "config.setPluginSettings": ({ plugin, settings }) =>
      answer(() => updatePluginSettings({ plugin, settings }, deps.settings)),
    "confirmation.response": (params) => deps.confirmations.respond(params),
    ping: () => {
      deps.link.notify("pong", { ts: deps.clock() });
    },
    "plugin.search": notYet("plugin.search"),
    "plugin.install": notYet("plugin.install"),
    "plugin.updateFromRegistry": notYet("plugin.updateFromRegistry"),
    "plugin.remove": notYet("plugin.remove"),
    "plugin.checkUpdates": notYet("plugin.checkUpdates"),
    "plugin.removeBySpecifier": notYet("plugin.removeBySpecifier"),
    "folder.open": notYet("folder.open"),
  };
}
