/**
 * The extension's requests to the hub: the config ones answer the side panel's state; the package
 * ones answer the package module's results and reload after a change; every failure becomes one
 * JSON-RPC error in one place (`answer`), a package error a server error with its code in `data`.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { RPC_ERRORS, RpcError } from "../../protocol/rpc.ts";
import type { ConfigStore } from "../../core/config/config_store.ts";
import { defaultConfig } from "../../core/config/schema.ts";
import { hubError } from "../../protocol/errors.ts";
import { registryOf } from "../plugins/registry.ts";
import { registeredPlugin } from "../plugins/_test_registry.ts";
import type { ConfigChanges } from "../changes/config_changes_interface.ts";
import type { Dispatches } from "../calls/dispatches_interface.ts";
import type { Confirmations } from "../calls/confirmations_interface.ts";
import { createPluginLogs } from "./plugin_logs.ts";
import { createTabStates } from "../plugins/tab_states.ts";
import { silentLogger } from "../log/logger.ts";
import { packageError } from "../../core/packages/plugin_packages.ts";
import {
  createExtensionHandlers,
  type ExtensionHandlerDeps,
  progressToExtension,
  RPC_SERVER_ERROR,
  toRpcError,
} from "./handlers.ts";

const STATE = { plugins: [] };

interface Overrides {
  setPermission?: ConfigChanges["setPermission"];
  setSitePermission?: ConfigChanges["setSitePermission"];
  setSiteDefaults?: ConfigChanges["setSiteDefaults"];
  reload?: () => never;
  packages?: Partial<ExtensionHandlerDeps["packages"]>;
  openFolder?: ExtensionHandlerDeps["openFolder"];
}

/** Each package call and reload in order, as `<what> <argument>`. */
type Trail = string[];

function fakePackages(trail: Trail, over: Partial<ExtensionHandlerDeps["packages"]> = {}) {
  const installed = (name: string) => ({ name, plugin: "demo", version: "1.1.0" });
  const removed = (name: string) => ({ name, uninstalled: true, localPluginsRemoved: [] });
  const packages: ExtensionHandlerDeps["packages"] = {
    search: (
      query,
    ) => (trail.push(`search ${query}`), Promise.resolve({ query: query ?? "", packages: [] })),
    install: (name) => (trail.push(`install ${name}`), Promise.resolve(installed(name))),
    update: (name) => (trail.push(`update ${name}`), Promise.resolve(installed(name))),
    remove: (name) => (trail.push(`remove ${name}`), Promise.resolve(removed(name))),
  };
  return { ...packages, ...over };
}

function handlers(over: Overrides) {
  const trail: Trail = [];
  const notes: { method: string; params: unknown }[] = [];
  const config = defaultConfig();
  const store = {
    update: (mutate: (c: typeof config) => void) => Promise.resolve((mutate(config), config)),
  } as unknown as ConfigStore;
  const deps: ExtensionHandlerDeps = {
    tabs: createTabStates(),
    logs: createPluginLogs(silentLogger),
    dispatches: {} as Dispatches,
    confirmations: {} as Confirmations,
    changes: {
      state: () => STATE as unknown as ReturnType<ConfigChanges["state"]>,
      setPermission: over.setPermission ?? (() => Promise.resolve()),
      setSkipPermissions: () => Promise.resolve(),
      setDebugger: () => Promise.resolve(),
      setSitePermission: over.setSitePermission ?? (() => Promise.resolve()),
      setSiteDefaults: over.setSiteDefaults ?? (() => Promise.resolve()),
    },
    settings: {
      registry: () => registryOf([registeredPlugin("demo"), MAIL]),
      store,
      reload: over.reload ??
        (() => (trail.push("reload"), Promise.resolve({ plugins: 1, durationMs: 1 }))),
    },
    link: {
      notify: (method, params) => (notes.push({ method, params }), true),
    },
    clock: () => 42,
    packages: fakePackages(trail, over.packages),
    updates: {
      checkNow: () => (trail.push("checkNow"), Promise.resolve(CHECK)),
      forget: (name) => void trail.push(`forget ${name}`),
    },
    openFolder: over.openFolder ??
      ((path) => (trail.push(`open ${path}`), Promise.resolve({ opened: path }))),
  };
  return { h: createExtensionHandlers(deps), notes, trail, link: deps.link };
}

/** An npm plugin whose plugin name is not its package's shorthand. */
const MAIL = registeredPlugin("mail", {
  source: "npm",
  packageName: "@acme/hub-plugin-email",
  dir: "/npm/lib/node_modules/@acme/hub-plugin-email",
});
const CHECK = {
  checkedAt: 7,
  updates: [{
    name: "hub-plugin-demo",
    plugin: "demo",
    installedVersion: "1.0.0",
    latestVersion: "1.1.0",
  }],
};

async function rpcError(promise: unknown): Promise<RpcError> {
  try {
    await promise;
  } catch (error) {
    assert(error instanceof RpcError, `expected an RpcError, got ${error}`);
    return error;
  }
  throw new Error("the request succeeded");
}

Deno.test("a permission change answers the side panel's new state", async () => {
  const { h } = handlers({});
  const state = await h["config.setToolPermission"]!({
    plugin: "demo",
    tool: "a",
    permission: "ask",
  });
  assertEquals(state, STATE);
});

Deno.test("site rules and site defaults from the side panel answer its new state", async () => {
  const seen: unknown[] = [];
  const { h } = handlers({
    setSitePermission: (
      pattern,
      permission,
    ) => (seen.push([pattern, permission]), Promise.resolve()),
    setSiteDefaults: (defaults) => (seen.push(defaults), Promise.resolve()),
  });
  const params = { pattern: "example.com", permission: "off" as const };
  assertEquals(await h["config.setSitePermission"]!(params), STATE);
  assertEquals(await h["config.setSitePermission"]!({ ...params, permission: null }), STATE);
  assertEquals(await h["config.setSiteDefaults"]!({ agentTabsOnly: true }), STATE);
  assertEquals(seen, [["example.com", "off"], ["example.com", null], { agentTabsOnly: true }]);
});

Deno.test("an invalid site pattern is INVALID_PARAMS with the problem", async () => {
  const problem = 'The site pattern "a/b" must be a host';
  const { h } = handlers({
    setSitePermission: () => Promise.reject(hubError("INVALID_ARGUMENTS", problem)),
  });
  const error = await rpcError(
    h["config.setSitePermission"]!({ pattern: "a/b", permission: "ask" }),
  );
  assertEquals([error.code, error.message], [RPC_ERRORS.INVALID_PARAMS, problem]);
});

Deno.test("a target that does not exist is INVALID_PARAMS with the domain's message", async () => {
  const { h } = handlers({
    setPermission: () => Promise.reject(hubError("INVALID_ARGUMENTS", "No x.")),
  });
  const error = await rpcError(
    h["config.setPluginPermission"]!({ plugin: "x", permission: "ask" }),
  );
  assertEquals([error.code, error.message], [RPC_ERRORS.INVALID_PARAMS, "No x."]);
});

Deno.test("settings the plugin refuses are INVALID_PARAMS", async () => {
  const { h } = handlers({});
  const error = await rpcError(h["config.setPluginSettings"]!({ plugin: "nope", settings: {} }));
  assertEquals(error.code, RPC_ERRORS.INVALID_PARAMS);
  assertEquals(error.message, 'No plugin "nope" is loaded (plugins: demo, mail).');
});

Deno.test("a failure the hub could not carry out (a reload) is INTERNAL_ERROR", async () => {
  const { h } = handlers({
    reload: () => {
      throw hubError("RELOAD_FAILED", "Reload failed: broken config.json");
    },
  });
  const error = await rpcError(h["config.setPluginSettings"]!({ plugin: "demo", settings: {} }));
  assertEquals([error.code, error.message], [
    RPC_ERRORS.INTERNAL_ERROR,
    "Reload failed: broken config.json",
  ]);
});

Deno.test("any other error is INVALID_PARAMS with its message", async () => {
  const { h } = handlers({ setPermission: () => Promise.reject(new Error("locked")) });
  const error = await rpcError(
    h["config.setToolPermission"]!({ plugin: "demo", tool: "a", permission: "off" }),
  );
  assertEquals([error.code, error.message], [RPC_ERRORS.INVALID_PARAMS, "locked"]);
});

Deno.test("toRpcError: an RpcError passes through as it is", () => {
  const given = new RpcError(RPC_ERRORS.METHOD_NOT_FOUND, "no such method", { why: 1 });
  assert(toRpcError(given) === given);
});

Deno.test("toRpcError: a package or folder-open failure is a server error with its code", () => {
  const cases = [
    packageError("REGISTRY_UNREACHABLE", "npm is down."),
    hubError("NO_OPENER", "No program opens folders here."),
    hubError("OPEN_FAILED", "The opener failed."),
  ];
  for (const failure of cases) {
    const error = toRpcError(failure);
    assertEquals([error.code, error.message, error.data], [
      RPC_SERVER_ERROR,
      failure.message,
      { code: failure.code },
    ]);
  }
});

Deno.test("toRpcError: only a failure REST answers 500 (the hub could not do it) is INTERNAL_ERROR", () => {
  const internal = [hubError("RELOAD_FAILED", "Reload failed."), hubError("INTERNAL", "bug")];
  for (const failure of internal) {
    assertEquals(toRpcError(failure).code, RPC_ERRORS.INTERNAL_ERROR, failure.code);
  }
  // As before the one error type: other codes of category "internal" were never internal errors
  // here, nor a validation failure, nor a plain Error.
  const params = [
    hubError("CANCELLED", "stopped"),
    hubError("EXTENSION_ERROR", "bad answer"),
    hubError("SAVE_FAILED", "disk full"),
    hubError("INVALID_SETTINGS", "bad settings"),
    hubError("PLUGIN_NOT_FOUND", "no such plugin"),
    new Error("locked"),
  ];
  for (const failure of params) {
    const error = toRpcError(failure);
    assertEquals([error.code, error.message], [RPC_ERRORS.INVALID_PARAMS, failure.message]);
  }
});

Deno.test("ping is answered with pong and the hub's time", () => {
  const { h, notes } = handlers({});
  h.ping!(undefined);
  assertEquals(notes, [{ method: "pong", params: { ts: 42 } }]);
});

Deno.test("plugin.search answers what the package module found", async () => {
  const { h, trail } = handlers({});
  assertEquals(await h["plugin.search"]!({ query: "mail" }), { query: "mail", packages: [] });
  assertEquals(trail, ["search mail"], "a search changes nothing: no reload");
});

Deno.test("install, update and remove answer the module's result, then reload (which announces)", async () => {
  const { h, trail } = handlers({});
  assertEquals(await h["plugin.install"]!({ name: "demo" }), {
    name: "demo",
    plugin: "demo",
    version: "1.1.0",
  });
  assertEquals(trail.splice(0), ["install demo", "forget demo", "reload"]);
  await h["plugin.updateFromRegistry"]!({ name: "hub-plugin-demo" });
  assertEquals(trail.splice(0), ["update hub-plugin-demo", "forget hub-plugin-demo", "reload"]);
  assertEquals(await h["plugin.remove"]!({ name: "hub-plugin-x" }), {
    name: "hub-plugin-x",
    uninstalled: true,
    localPluginsRemoved: [],
  });
  assertEquals(trail.splice(0), ["remove hub-plugin-x", "forget hub-plugin-x", "reload"]);
  await h["plugin.removeBySpecifier"]!({ specifier: "@acme/hub-plugin-email" });
  assertEquals(trail.splice(0), [
    "remove @acme/hub-plugin-email",
    "forget @acme/hub-plugin-email",
    "reload",
  ]);
});

Deno.test("a loaded npm plugin's name stands for its package in update and remove", async () => {
  const { h, trail } = handlers({});
  await h["plugin.updateFromRegistry"]!({ name: "mail" });
  await h["plugin.remove"]!({ name: "mail" });
  assertEquals(trail.filter((t) => !t.startsWith("forget") && t !== "reload"), [
    "update @acme/hub-plugin-email",
    "remove @acme/hub-plugin-email",
  ]);
});

Deno.test("a package error is a server error with its code in data; nothing is reloaded", async () => {
  const message =
    'The registry https://registry.test/ cannot be reached (ECONNREFUSED). Check "npm config get registry".';
  const { h, trail } = handlers({
    packages: {
      install: () => Promise.reject(packageError("REGISTRY_UNREACHABLE", message)),
    },
  });
  const error = await rpcError(h["plugin.install"]!({ name: "demo" }));
  assertEquals([error.code, error.message, error.data], [
    RPC_SERVER_ERROR,
    message,
    { code: "REGISTRY_UNREACHABLE" },
  ]);
  assertEquals(trail, [], "a failed install leaves everything as it was");
});

Deno.test("plugin.checkUpdates runs a check now and answers what it found", async () => {
  const { h, trail } = handlers({});
  assertEquals(await h["plugin.checkUpdates"]!({}), CHECK);
  assertEquals(trail, ["checkNow"]);
});

Deno.test("progress from the package module reaches the extension as plugin.progress", () => {
  const { notes, link } = handlers({});
  const send = progressToExtension(link);
  send({ operation: "install", name: "demo", message: "Installing hub-plugin-demo", done: false });
  send({ operation: "install", name: "demo", message: "Installed", done: true });
  assertEquals(notes.map((n) => [n.method, (n.params as { done: boolean }).done]), [
    ["plugin.progress", false],
    ["plugin.progress", true],
  ]);
});

Deno.test("folder.open: a refused path is INVALID_PARAMS, a missing opener a server error", async () => {
  const refusing = handlers({
    openFolder: () => Promise.reject(hubError("INVALID_ARGUMENTS", "Refusing to open /etc.")),
  });
  const refused = await rpcError(refusing.h["folder.open"]!({ path: "/etc" }));
  assertEquals([refused.code, refused.message], [
    RPC_ERRORS.INVALID_PARAMS,
    "Refusing to open /etc.",
  ]);
  const noOpener = handlers({
    openFolder: () =>
      Promise.reject(
        hubError("NO_OPENER", "no desktop opener (xdg-open) found; the folder is /p"),
      ),
  });
  const missing = await rpcError(noOpener.h["folder.open"]!({ path: "/p" }));
  assertEquals([missing.code, missing.data], [RPC_SERVER_ERROR, { code: "NO_OPENER" }]);
  const { h } = handlers({});
  assertEquals(await h["folder.open"]!({ path: "/plugins/demo" }), { opened: "/plugins/demo" });
});
