/**
 * What the hub does with each request and notification from the extension (SPEC "Events",
 * extension to server). Payloads arrive already validated by the link.
 */
import { RPC_ERRORS, RpcError } from "../../protocol/rpc.ts";
import { HttpError } from "../http/http_error.ts";
import type { ExtensionHandlers } from "./link.ts";
import type { TabStates } from "./tab_states.ts";
import type { PluginLogs } from "./plugin_logs.ts";
import type { Dispatcher } from "../calls/dispatcher.ts";
import type { Confirmations } from "../calls/confirmations.ts";
import type { Permission } from "../../core/config/schema.ts";
import type { PermissionTarget } from "../permissions/permission_update.ts";

export interface HandlerDeps {
  tabs: TabStates;
  logs: PluginLogs;
  dispatcher: Dispatcher;
  confirmations: Confirmations;
  /** The state the side panel shows. */
  state(): unknown;
  /** Throws a message when the target does not exist. */
  setPermission(target: PermissionTarget, permission: Permission): Promise<void>;
  setSkipPermissions(enabled: boolean): Promise<void>;
  setPluginSettings(plugin: string, settings: Record<string, unknown>): Promise<unknown>;
  pong(): void;
}

/** Turns a thrown error into the JSON-RPC error the extension gets. */
async function answer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RpcError) throw error;
    const code = error instanceof HttpError && error.status >= 500
      ? RPC_ERRORS.INTERNAL_ERROR
      : RPC_ERRORS.INVALID_PARAMS;
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
    "config.getState": () => deps.state(),
    "config.setToolPermission": ({ plugin, tool, permission }) =>
      answer(async () => {
        await deps.setPermission({ plugin, tool }, permission);
        return deps.state();
      }),
    "config.setPluginPermission": ({ plugin, permission }) =>
      answer(async () => {
        await deps.setPermission({ plugin }, permission);
        return deps.state();
      }),
    "config.setSkipPermissions": ({ enabled }) =>
      answer(async () => {
        await deps.setSkipPermissions(enabled);
        return deps.state();
      }),
    "config.setPluginSettings": ({ plugin, settings }) =>
      answer(() => deps.setPluginSettings(plugin, settings)),
    "confirmation.response": (params) => deps.confirmations.respond(params),
    ping: () => deps.pong(),
    "plugin.search": notYet("plugin.search"),
    "plugin.install": notYet("plugin.install"),
    "plugin.updateFromRegistry": notYet("plugin.updateFromRegistry"),
    "plugin.remove": notYet("plugin.remove"),
    "plugin.checkUpdates": notYet("plugin.checkUpdates"),
    "plugin.removeBySpecifier": notYet("plugin.removeBySpecifier"),
    "folder.open": notYet("folder.open"),
  };
}
