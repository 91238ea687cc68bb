/// <reference lib="deno.ns" />
/**
 * The engine's outgoing side: requests and their answers, notifications, aborts, failed sends and
 * `close`, then a hub end and an extension end talking to each other.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "../tests/helpers/assert.ts";
import { extensionEnd, frame, hubEnd } from "../tests/helpers/rpc_end.ts";
import { EXTENSION_TO_HUB_METHODS, HUB_TO_EXTENSION_METHODS, type ServerParams } from "./events.ts";
import { RpcError } from "./rpc.ts";
import { createRpcEngine, RpcTransportError } from "./rpc_engine.ts";

const change = {
  plugin: "test-app",
  state: "ready" as const,
  tabs: [{ tabId: 3, url: "http://127.0.0.1/", title: "T", ready: true }],
};

/** What a promise settled with, without waiting for it to settle. */
function outcome(promise: Promise<unknown>) {
  const seen: { value?: unknown; error?: unknown; settled: boolean } = { settled: false };
  promise.then(
    (value) => Object.assign(seen, { value, settled: true }),
    (error) => Object.assign(seen, { error, settled: true }),
  );
  return seen;
}

Deno.test("request() sends a numbered request and resolves on the matching response", async () => {
  const { engine, next, frames, messages } = extensionEnd({});
  const first = engine.request("tab.stateChanged", change);
  const second = engine.request("tab.stateChanged", { ...change, state: "closed", tabs: [] });
  const sentFirst = await next();
  const sentSecond = await next();
  assertEquals(sentFirst, {
    jsonrpc: "2.0",
    id: sentFirst.id,
    method: "tab.stateChanged",
    params: change,
  });
  assertEquals(typeof sentFirst.id, "number");
  assert(sentFirst.id !== sentSecond.id);
  assertEquals(frames, messages); // the text sent is the message given along with it
  // Answers out of order land on the right promise; an unknown id is ignored.
  engine.receive(frame({ id: 999, result: "stray" }));
  engine.receive(frame({ id: String(sentFirst.id), result: "a string id is not ours" }));
  engine.receive(frame({ id: sentSecond.id, result: { ok: false } }));
  engine.receive(frame({ id: sentFirst.id, result: { ok: true } }));
  assertEquals(await first, { ok: true });
  assertEquals(await second, { ok: false });
});

Deno.test("request() rejects on an error response with an RpcError: code, message, data", async () => {
  const { engine, next } = extensionEnd({});
  const pending = engine.request("plugin.install", { name: "nope" });
  const sent = await next();
  engine.receive(
    frame({ id: sent.id, error: { code: -32602, message: "no such plugin", data: { n: 1 } } }),
  );
  const error = await pending.then(() => undefined, (e) => e);
  assert(error instanceof RpcError, String(error));
  assertEquals([error.code, error.message, error.data], [-32602, "no such plugin", { n: 1 }]);
  await assertRejects(Promise.reject(error), /no such plugin/);
});

Deno.test("request() rejects at once when send throws or refuses, with a transport error", async () => {
  const { engine, failSends, next, frames } = extensionEnd({});
  failSends("throw");
  const thrown = await engine.request("plugin.remove", { name: "x" }).catch((e) => e);
  assert(thrown instanceof RpcTransportError, String(thrown));
  assertEquals(thrown.message, "socket is closed");
  failSends("refuse");
  const refused = await engine.request("plugin.remove", { name: "x" }).catch((e) => e);
  assert(refused instanceof RpcTransportError, String(refused));
  assertEquals(refused.message, "The link closed before plugin.remove could be sent.");
  // Neither waits any more: answers to their ids are ignored, and the engine goes on.
  failSends(undefined);
  engine.receive(frame({ id: 1, result: "late" }));
  engine.receive(frame({ id: 2, result: "late" }));
  const third = engine.request("plugin.remove", { name: "y" });
  const sent = await next();
  assertEquals(sent.id, 3);
  engine.receive(frame({ id: 3, result: "ok" }));
  assertEquals(await third, "ok");
  assertEquals(frames.length, 1);
});

Deno.test("params that cannot be serialized reject the request as they are, not as a link failure", async () => {
  const { engine, frames } = extensionEnd({});
  const error = await engine.request("plugin.remove", { name: 1n as unknown as string })
    .catch((e) => e);
  assert(error instanceof TypeError && !(error instanceof RpcTransportError), String(error));
  assertMatch(error.message, /BigInt/);
  assertEquals(frames, []);
});

Deno.test("notify() sends a frame without an id and says whether it went out", async () => {
  const { engine, next, failSends, logs } = extensionEnd({});
  assertEquals(engine.notify("tool.progress", { dispatchId: "d", progress: 1, total: 4 }), true);
  assertEquals(await next(), {
    jsonrpc: "2.0",
    method: "tool.progress",
    params: { dispatchId: "d", progress: 1, total: 4 },
  });
  failSends("refuse");
  assertEquals(engine.notify("ping", {}), false);
  failSends("throw");
  assertEquals(engine.notify("ping", {}), false); // logged, never thrown at the caller
  assertEquals(logs, [{
    level: "warn",
    message: "Could not send to the other end: socket is closed",
  }]);
});

Deno.test("close() rejects every pending request with its error; late answers are ignored", async () => {
  const { engine, next } = extensionEnd({});
  const a = engine.request("plugin.search", { query: "x" });
  const b = engine.request("config.getState", {});
  const sentA = await next();
  await next();
  engine.close(new RpcTransportError("The connection to the hub closed"));
  await assertRejects(a, (e) => e instanceof RpcTransportError && /hub closed/.test(e.message));
  await assertRejects(b, /connection to the hub closed/);
  engine.receive(frame({ id: sentA.id, result: "too late" })); // must not throw
  // The engine still works for new requests afterwards.
  const c = engine.request("plugin.search", {});
  const sentC = await next();
  engine.receive(frame({ id: sentC.id, result: [] }));
  assertEquals(await c, []);
});

Deno.test("an aborted request rejects with the signal's reason and stops waiting", async () => {
  const { engine, next, frames } = hubEnd({});
  const params: ServerParams<"plugin.uninstall"> = { plugin: "p" };

  const before = new AbortController();
  before.abort(new Error("gave up first"));
  await assertRejects(engine.request("plugin.uninstall", params, before.signal), /gave up first/);
  assertEquals(frames, []); // nothing was sent

  const during = new AbortController();
  const pending = outcome(engine.request("plugin.uninstall", params, during.signal));
  const sent = await next();
  during.abort(new Error("gave up"));
  await Promise.resolve();
  assertEquals((pending.error as Error).message, "gave up");
  engine.receive(frame({ id: sent.id, result: { ok: true } })); // ignored

  // Aborting after the answer changes nothing.
  const after = new AbortController();
  const answered = engine.request("plugin.uninstall", params, after.signal);
  const sentAfter = await next();
  engine.receive(frame({ id: sentAfter.id, result: { ok: true } }));
  assertEquals(await answered, { ok: true });
  after.abort(new Error("too late"));
});

Deno.test("a hub end and an extension end answer each other's requests and notifications", async () => {
  const heard: string[] = [];
  // Each side's frames reach the other after the current task, as over a socket.
  const ends: Record<string, { receive(data: unknown): void }> = {};
  const deliver = (to: string) => (text: string) =>
    void setTimeout(() => ends[to].receive(text), 0);
  const logger = { debug: () => {}, warn: () => {}, error: () => {} };
  const hub = createRpcEngine({
    incoming: EXTENSION_TO_HUB_METHODS,
    outgoing: HUB_TO_EXTENSION_METHODS,
    handlers: {
      "tab.stateChanged": ({ plugin, state }) => ({
        ok: plugin === "test-app" && state === "ready",
      }),
      "tool.progress": ({ progress }) => void heard.push(`progress ${progress}`),
      "config.setSkipPermissions": () => {
        throw new RpcError(-32602, "not allowed here", { hint: "use the CLI" });
      },
    },
    send: deliver("extension"),
    name: "hub",
    remote: "the extension",
    logger,
  });
  const extension = createRpcEngine({
    incoming: HUB_TO_EXTENSION_METHODS,
    outgoing: EXTENSION_TO_HUB_METHODS,
    handlers: {
      "tool.dispatch": ({ input }) => ({ ok: true, value: input, tabId: 4 }),
      "plugins.changed": ({ reason }) => void heard.push(`changed ${reason}`),
    },
    send: deliver("hub"),
    name: "the hub extension",
    remote: "the hub",
    logger,
    batches: true,
  });

  Object.assign(ends, { hub, extension });
  const dispatched = await hub.request("tool.dispatch", {
    dispatchId: "d",
    tool: "browser_x",
    kind: "browser",
    plugin: "browser",
    input: { q: 1 },
  });
  assertEquals(dispatched, { ok: true, value: { q: 1 }, tabId: 4 });
  assertEquals(await extension.request("tab.stateChanged", change), { ok: true });

  const refused = await extension.request("config.setSkipPermissions", { enabled: true })
    .catch((e) => e);
  assert(refused instanceof RpcError);
  assertEquals([refused.code, refused.message, refused.data], [
    -32602,
    "not allowed here",
    { hint: "use the CLI" },
  ]);
  const missing = await hub.request("plugin.uninstall", { plugin: "p" }).catch((e) => e);
  assert(missing instanceof RpcError);
  assertEquals(missing.code, -32601);
  assertEquals(
    missing.message,
    "plugin.uninstall is not available in this version of the hub extension.",
  );

  hub.notify("plugins.changed", { reason: "reload" });
  extension.notify("tool.progress", { dispatchId: "d", progress: 2 });
  await new Promise((resolve) => setTimeout(resolve, 10));
  assertEquals(heard.sort(), ["changed reload", "progress 2"]);
});
