/// <reference lib="deno.ns" />
import { assertEquals, assertMatch } from "../../../tests/helpers/assert.ts";
import { RpcError } from "../../../protocol/rpc.ts";
import { commandFailure, createPackageCommands, routeOf } from "./package_commands.ts";
import { type CommandError, isCommandError } from "../shared/panel_messages.ts";
import type { RpcPeer } from "./rpc_peer.ts";
import type { UpdateCheck } from "../../../protocol/packages.ts";

Deno.test("each package command becomes its hub request", () => {
  const route = (c: Parameters<typeof routeOf>[0]) => {
    const r = routeOf(c);
    return r && [r.method, r.params, r.slow ?? false];
  };
  assertEquals(route({ type: "searchPlugins", query: "  notes " }), ["plugin.search", {
    query: "notes",
  }, true]);
  assertEquals(route({ type: "searchPlugins", query: "" }), ["plugin.search", {}, true]);
  assertEquals(route({ type: "installPlugin", name: "hub-plugin-a" }), [
    "plugin.install",
    { name: "hub-plugin-a" },
    true,
  ]);
  assertEquals(route({ type: "updatePlugin", name: "a" }), ["plugin.updateFromRegistry", {
    name: "a",
  }, true]);
  assertEquals(route({ type: "removePlugin", name: "a" }), ["plugin.remove", { name: "a" }, true]);
  assertEquals(route({ type: "checkUpdates" }), ["plugin.checkUpdates", {}, true]);
  assertEquals(route({ type: "openFolder", path: "/p" }), ["folder.open", { path: "/p" }, false]);
  assertEquals(route({ type: "setPluginSettings", plugin: "a", settings: { n: 1 } }), [
    "config.setPluginSettings",
    { plugin: "a", settings: { n: 1 } },
    false,
  ]);
  assertEquals(route({ type: "reconnect" }), undefined);
});

/** A peer that answers every request with `answer` (or throws it), recording what was asked. */
function fakePeer(answer: (method: string) => unknown) {
  const asked: [string, unknown, boolean][] = [];
  const peer = {
    request: (method: string, params: unknown, signal?: AbortSignal) => {
      asked.push([method, params, signal !== undefined]);
      try {
        return Promise.resolve(answer(method));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  } as unknown as RpcPeer;
  return { peer, asked };
}

Deno.test("results are checked against the protocol; a check's updates are kept", async () => {
  const check: UpdateCheck = { checkedAt: 5, updates: [] };
  const { peer, asked } = fakePeer((method) =>
    method === "plugin.checkUpdates"
      ? check
      : method === "plugin.install"
      ? { name: "hub-plugin-a", plugin: "a", version: "1.0.0" }
      : method === "plugin.search"
      ? { query: "", packages: [{ name: "x" }] } // no version, no official flag
      : { ok: true }
  );
  const seen: UpdateCheck[] = [];
  const commands = createPackageCommands({ peer: () => peer, onUpdates: (c) => seen.push(c) });
  assertEquals(await commands.run({ type: "checkUpdates" }), check);
  assertEquals(seen, [check]);
  assertEquals(await commands.run({ type: "installPlugin", name: "a" }), {
    name: "hub-plugin-a",
    plugin: "a",
    version: "1.0.0",
  });
  assertEquals(
    await commands.run({ type: "setPluginSettings", plugin: "a", settings: {} }),
    undefined,
  );
  const refused = await failure(commands.run({ type: "searchPlugins" }));
  assertEquals(isCommandError(refused), true);
  assertMatch(refused.message, /does not understand/);
  assertEquals(commands.run({ type: "reconnect" }), undefined);
  assertEquals(asked.map(([m, , slow]) => [m, slow]), [
    ["plugin.checkUpdates", true],
    ["plugin.install", true],
    ["config.setPluginSettings", false],
    ["plugin.search", true],
  ]);
});

async function failure(pending: Promise<unknown> | undefined): Promise<CommandError> {
  try {
    await pending;
  } catch (error) {
    return error as CommandError;
  }
  throw new Error("expected the command to fail");
}

Deno.test("a refusal keeps the hub's message and code; no link says so", async () => {
  const { peer } = fakePeer(() => {
    throw new RpcError(-32602, "No package hub-plugin-zzz on the registry", {
      code: "PACKAGE_NOT_FOUND",
    });
  });
  const commands = createPackageCommands({ peer: () => peer, onUpdates: () => {} });
  const error = await failure(commands.run({ type: "installPlugin", name: "zzz" }));
  assertEquals([error.message, error.code], [
    "No package hub-plugin-zzz on the registry",
    "PACKAGE_NOT_FOUND",
  ]);
  const offline = createPackageCommands({ peer: () => undefined, onUpdates: () => {} });
  const down = await failure(offline.run({ type: "checkUpdates" }));
  assertEquals(down.code, "EXTENSION_NOT_CONNECTED");
  assertEquals(commandFailure(new RpcError(-32601, "not available"), "x").code, undefined);
  const timeout = commandFailure(new DOMException("late", "TimeoutError"), "plugin.install");
  assertEquals(timeout.code, "TIMEOUT");
  assertEquals(
    commandFailure(new Error("link closed"), "plugin.remove").message,
    "plugin.remove failed: link closed",
  );
});
