/**
 * The side panel's plugin package commands, forwarded to the hub over the link: search, install,
 * update, remove, the update check, opening a local plugin's folder, and saving settings. Each
 * answers with the hub's result (checked against the protocol's schema), or fails with a
 * `CommandError` carrying the hub's message and, when it gave one, its error code.
 */
import type { z } from "zod";
import { RpcError } from "../../../protocol/rpc.ts";
import {
  installResultSchema,
  removeResultSchema,
  searchResultSchema,
  type UpdateCheck,
  updateCheckSchema,
} from "../../../protocol/packages.ts";
import { EXTENSION_TO_HUB_METHODS, type ExtensionRequestMethod } from "../../../protocol/events.ts";
import {
  type CommandError,
  commandError,
  PACKAGE_TIMEOUT_MS,
  type PanelCommand,
} from "../shared/panel_messages.ts";
import type { RpcPeer } from "./rpc_peer.ts";

export interface PackageCommandDeps {
  peer(): RpcPeer | undefined;
  /** A check the panel asked for found these (the hub's next sync says the same). */
  onUpdates(check: UpdateCheck): void;
}

type PackageCommand = Extract<
  PanelCommand,
  {
    type:
      | "searchPlugins"
      | "installPlugin"
      | "updatePlugin"
      | "removePlugin"
      | "checkUpdates"
      | "openFolder"
      | "setPluginSettings";
  }
>;

interface Route {
  method: ExtensionRequestMethod;
  params: Record<string, unknown>;
  result?: z.ZodType;
  /** npm runs behind it: wait longer. */
  slow?: boolean;
}

/** An npm operation on one package, named as the panel gave it. */
function byName(method: ExtensionRequestMethod, name: string, result: z.ZodType): Route {
  return { method, params: { name }, result, slow: true };
}

/** The hub request a panel command becomes, or undefined when it is not a package command. */
export function routeOf(command: PanelCommand): Route | undefined {
  switch (command.type) {
    case "searchPlugins": {
      const query = command.query?.trim();
      const params = query ? { query } : {};
      return { method: "plugin.search", params, result: searchResultSchema, slow: true };
    }
    case "installPlugin":
      return byName("plugin.install", command.name, installResultSchema);
    case "updatePlugin":
      return byName("plugin.updateFromRegistry", command.name, installResultSchema);
    case "removePlugin":
      return byName("plugin.remove", command.name, removeResultSchema);
    case "checkUpdates":
      return { method: "plugin.checkUpdates", params: {}, result: updateCheckSchema, slow: true };
    case "openFolder":
      return {
        method: "folder.open",
        params: { path: command.path },
        result: EXTENSION_TO_HUB_METHODS["folder.open"].result,
      };
    case "setPluginSettings":
      return {
        method: "config.setPluginSettings",
        params: { plugin: command.plugin, settings: command.settings },
      };
    default:
      return undefined;
  }
}

/** Limits what a hub error puts in front of the person. */
const MAX_MESSAGE = 2_000;

/** The panel's error for a failed hub request: the hub's words and code, or why it failed. */
export function commandFailure(error: unknown, method: string): CommandError {
  if (error instanceof RpcError) {
    const data = error.data as { code?: unknown } | undefined;
    const code = typeof data?.code === "string" ? data.code : undefined;
    return commandError(error.message.slice(0, MAX_MESSAGE), code);
  }
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return commandError(
      `The hub did not answer ${method} within ${PACKAGE_TIMEOUT_MS / 60_000} minutes. ` +
        "Its log (hub logs) says what npm is doing; try again once it is done.",
      "TIMEOUT",
    );
  }
  const message = (error as Error)?.message ?? String(error);
  return commandError(`${method} failed: ${message}`.slice(0, MAX_MESSAGE));
}

export function createPackageCommands(deps: PackageCommandDeps) {
  /** Runs `command` when it is a package command; undefined when it is not one. */
  function run(command: PanelCommand): Promise<unknown> | undefined {
    const route = routeOf(command);
    return route ? send(command as PackageCommand, route) : undefined;
  }

  async function send(command: PackageCommand, route: Route): Promise<unknown> {
    const peer = deps.peer();
    if (!peer) {
      throw commandError(
        'Not connected to the hub. Start it ("hub start") and try again.',
        "EXTENSION_NOT_CONNECTED",
      );
    }
    const signal = route.slow ? AbortSignal.timeout(PACKAGE_TIMEOUT_MS) : undefined;
    let answer: unknown;
    try {
      answer = await peer.request(route.method, route.params as never, signal);
    } catch (error) {
      throw commandFailure(error, route.method);
    }
    if (!route.result) return undefined;
    const parsed = route.result.safeParse(answer);
    if (!parsed.success) {
      throw commandError(
        `The hub answered ${route.method} with something this extension does not understand. ` +
          "Are hub and extension the same version? Run hub start to update the extension.",
      );
    }
    if (command.type === "checkUpdates") deps.onUpdates(parsed.data as UpdateCheck);
    return parsed.data;
  }

  return { run };
}
