/**
 * The extension's requests to the hub: the config ones answer the side panel's state, and every
 * failure becomes one JSON-RPC error in one place (`answer`).
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { RPC_ERRORS, RpcError } from "../../protocol/rpc.ts";
import type { ConfigStore } from "../../core/config/config_store.ts";
import { defaultConfig } from "../../core/config/schema.ts";
import { DomainError } from "../domain_error.ts";
import { registryOf } from "../plugins/registry.ts";
import { registeredPlugin } from "../plugins/_test_registry.ts";
import type { ConfigChanges } from "../config_changes.ts";
import type { Dispatcher } from "../calls/dispatcher.ts";
import type { Confirmations } from "../calls/confirmations.ts";
import { createPluginLogs } from "./plugin_logs.ts";
import { createTabStates } from "./tab_states.ts";
import { silentLogger } from "../log/logger.ts";
import { createExtensionHandlers, type HandlerDeps } from "./handlers.ts";

const STATE = { plugins: [] };

function handlers(over: { setPermission?: ConfigChanges["setPermission"]; reload?: () => never }) {
  const notes: { method: string; params: unknown }[] = [];
  const config = defaultConfig();
  const store = {
    update: (mutate: (c: typeof config) => void) => Promise.resolve((mutate(config), config)),
  } as unknown as ConfigStore;
  const deps: HandlerDeps = {
    tabs: createTabStates(),
    logs: createPluginLogs(silentLogger),
    dispatcher: {} as Dispatcher,
    confirmations: {} as Confirmations,
    changes: {
      state: () => STATE as unknown as ReturnType<ConfigChanges["state"]>,
      setPermission: over.setPermission ?? (() => Promise.resolve()),
      setSkipPermissions: () => Promise.resolve(),
    },
    settings: {
      registry: () => registryOf([registeredPlugin("demo")]),
      store,
      reload: over.reload ?? (() => Promise.resolve({ plugins: 1, durationMs: 1 })),
    },
    link: {
      notify: (method, params) => (notes.push({ method, params }), true),
    },
    clock: () => 42,
  };
  return { h: createExtensionHandlers(deps), notes };
}

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

Deno.test("a target that does not exist is INVALID_PARAMS with the domain's message", async () => {
  const { h } = handlers({
    setPermission: () => Promise.reject(new DomainError("invalid", "INVALID_ARGUMENTS", "No x.")),
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
  assertEquals(error.message, 'No plugin "nope" is loaded (plugins: demo).');
});

Deno.test("a failure the hub could not carry out (a reload) is INTERNAL_ERROR", async () => {
  const { h } = handlers({
    reload: () => {
      throw new DomainError("failed", "RELOAD_FAILED", "Reload failed: broken config.json");
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

Deno.test("ping is answered with pong and the hub's time", () => {
  const { h, notes } = handlers({});
  h.ping!(undefined);
  assertEquals(notes, [{ method: "pong", params: { ts: 42 } }]);
});

Deno.test("methods this version does not have are METHOD_NOT_FOUND", async () => {
  const { h } = handlers({});
  const error = await rpcError(Promise.resolve().then(() => h["plugin.install"]!({} as never)));
  assertEquals(error.code, RPC_ERRORS.METHOD_NOT_FOUND);
});
