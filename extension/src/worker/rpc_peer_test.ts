/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch, assertRejects } from "../../../tests/helpers/assert.ts";
import type { ServerParams } from "../../../protocol/events.ts";
import { RPC_ERRORS, RpcError } from "../../../protocol/rpc.ts";
import {
  createRpcPeer,
  MAX_REPLY_BYTES,
  type OversizeAnswer,
  type ServerHandlers,
} from "./rpc_peer.ts";

/** A peer whose `send` records frames; `next()` waits for the next one. */
function fakeLink(handlers: ServerHandlers, oversize?: OversizeAnswer) {
  const frames: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  const peer = createRpcPeer(
    (text) => {
      frames.push(JSON.parse(text));
      waiters.shift()?.();
    },
    handlers,
    oversize,
  );
  let read = 0;
  async function next(): Promise<Record<string, unknown>> {
    while (frames.length <= read) await new Promise<void>((resolve) => waiters.push(resolve));
    return frames[read++];
  }
  /** Lets queued handler work run, so "nothing was sent" is a real observation. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { peer, frames, next, settle };
}

const frame = (message: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", ...message });

const dispatchParams: ServerParams<"tool.dispatch"> = {
  dispatchId: "d-1",
  tool: "test-app__echo",
  kind: "plugin",
  plugin: "test-app",
  baseTool: "echo",
  input: { text: "hi" },
  tabId: 7,
};

/** Runs `body` with console.warn captured (the peer warns about bad notifications). */
async function withWarnings(body: (warnings: string[]) => Promise<void>) {
  const original = console.warn;
  const warnings: string[] = [];
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
  try {
    await body(warnings);
  } finally {
    console.warn = original;
  }
}

Deno.test("a valid request reaches its handler with the parsed params and gets a result", async () => {
  const seen: ServerParams<"tool.dispatch">[] = [];
  const { peer, next } = fakeLink({
    "tool.dispatch": (params) => {
      seen.push(params);
      return { ok: true, value: { echoed: params.input.text }, tabId: params.tabId };
    },
  });
  peer.receive(frame({ id: 11, method: "tool.dispatch", params: { ...dispatchParams, extra: 1 } }));
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: 11,
    result: { ok: true, value: { echoed: "hi" }, tabId: 7 },
  });
  // Unknown fields are dropped by the schema; the handler sees exactly the declared ones.
  assertEquals(seen, [dispatchParams]);
});

Deno.test("an async handler's value is awaited; undefined becomes a null result", async () => {
  const { peer, next } = fakeLink({
    "plugin.uninstall": async ({ plugin }) => {
      await Promise.resolve();
      return { ok: plugin === "test-app" };
    },
    "tool.dispatch": () => undefined,
  });
  peer.receive(frame({ id: "a", method: "plugin.uninstall", params: { plugin: "test-app" } }));
  assertEquals(await next(), { jsonrpc: "2.0", id: "a", result: { ok: true } });
  peer.receive(frame({ id: 2, method: "tool.dispatch", params: dispatchParams }));
  assertEquals(await next(), { jsonrpc: "2.0", id: 2, result: null });
});

Deno.test("a valid notification reaches its handler and gets no reply", async () => {
  const seen: unknown[] = [];
  const { peer, frames, settle } = fakeLink({
    "plugins.changed": (params) => void seen.push(params),
  });
  peer.receive(frame({ method: "plugins.changed", params: { reason: "settings" } }));
  await settle();
  assertEquals(seen, [{ reason: "settings" }]);
  assertEquals(frames, []);
});

Deno.test("invalid params get -32602 naming the field, and the handler does not run", async () => {
  let called = 0;
  const { peer, next } = fakeLink({ "tool.dispatch": () => void called++ });
  peer.receive(
    frame({ id: 3, method: "tool.dispatch", params: { ...dispatchParams, kind: "robot" } }),
  );
  const reply = await next() as { id: unknown; error: { code: number; message: string } };
  assertEquals(reply.id, 3);
  assertEquals(reply.error.code, RPC_ERRORS.INVALID_PARAMS);
  assertMatch(reply.error.message, /tool\.dispatch/);
  assertMatch(reply.error.message, /params\.kind/);

  peer.receive(frame({ id: 4, method: "tool.dispatch", params: { ...dispatchParams, tabId: 0 } }));
  const second = await next() as { error: { code: number; message: string } };
  assertEquals(second.error.code, RPC_ERRORS.INVALID_PARAMS);
  assertMatch(second.error.message, /params\.tabId/);

  peer.receive(frame({ id: 5, method: "tool.dispatch" })); // params missing altogether
  const third = await next() as { error: { code: number; message: string } };
  assertEquals(third.error.code, RPC_ERRORS.INVALID_PARAMS);
  assertMatch(third.error.message, /params\.dispatchId/);
  assertEquals(called, 0);
});

Deno.test("an unknown method gets -32601", async () => {
  const { peer, next } = fakeLink({ "tool.dispatch": () => null });
  peer.receive(frame({ id: 6, method: "tabs.explode", params: {} }));
  const reply = await next() as { id: unknown; error: { code: number; message: string } };
  assertEquals(reply.id, 6);
  assertEquals(reply.error.code, RPC_ERRORS.METHOD_NOT_FOUND);
  assertMatch(reply.error.message, /tabs\.explode/);
  // Inherited object keys are not methods either.
  peer.receive(frame({ id: 7, method: "toString", params: {} }));
  assertEquals((await next() as { error: { code: number } }).error.code, -32601);
});

Deno.test("a known method without a handler gets -32601", async () => {
  const { peer, next } = fakeLink({});
  peer.receive(frame({ id: 8, method: "plugin.uninstall", params: { plugin: "x" } }));
  assertEquals((await next() as { error: { code: number } }).error.code, -32601);
});

Deno.test("a notification method sent with an id gets -32601 and its handler does not run", async () => {
  let called = 0;
  const { peer, next } = fakeLink({ "plugins.changed": () => void called++ });
  peer.receive(frame({ id: 9, method: "plugins.changed", params: { reason: "reload" } }));
  const reply = await next() as { id: unknown; error: { code: number; message: string } };
  assertEquals(reply.id, 9);
  assertEquals(reply.error.code, RPC_ERRORS.METHOD_NOT_FOUND);
  assertMatch(reply.error.message, /plugins\.changed is a notification/);
  assertEquals(called, 0);
});

Deno.test("a request method sent as a notification is refused without running (logged, no id to answer)", async () => {
  await withWarnings(async (warnings) => {
    let called = 0;
    const { peer, frames, settle } = fakeLink({
      "plugin.uninstall": () => {
        called++;
        return { ok: true };
      },
    });
    peer.receive(frame({ method: "plugin.uninstall", params: { plugin: "test-app" } }));
    await settle();
    assertEquals(called, 0);
    // A notification has no id to answer, so the refusal is only logged.
    assertEquals(frames, []);
    assertEquals(warnings.length, 1);
    assertMatch(warnings[0], /Unknown notification "plugin\.uninstall".*is a request/);
  });
});

Deno.test("a handler throwing RpcError keeps its code; any other error is -32603", async () => {
  const { peer, next } = fakeLink({
    "plugin.uninstall": ({ plugin }) => {
      if (plugin === "refused") throw new RpcError(-32010, "not now");
      throw new TypeError("boom");
    },
    "tool.dispatch": () => Promise.reject(new Error("async boom")),
  });
  peer.receive(frame({ id: 1, method: "plugin.uninstall", params: { plugin: "refused" } }));
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: 1,
    error: { code: -32010, message: "not now" },
  });
  peer.receive(frame({ id: 2, method: "plugin.uninstall", params: { plugin: "other" } }));
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: 2,
    error: { code: RPC_ERRORS.INTERNAL_ERROR, message: "boom" },
  });
  peer.receive(frame({ id: 3, method: "tool.dispatch", params: dispatchParams }));
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: 3,
    error: { code: RPC_ERRORS.INTERNAL_ERROR, message: "async boom" },
  });
});

Deno.test("a throwing notification handler is logged and the link keeps working", async () => {
  await withWarnings(async (warnings) => {
    const { peer, next, settle } = fakeLink({
      "plugins.changed": () => {
        throw new Error("handler broke");
      },
      "plugin.uninstall": () => ({ ok: true }),
    });
    peer.receive(frame({ method: "plugins.changed", params: { reason: "reload" } }));
    await settle();
    assert(warnings.some((w) => w.includes("plugins.changed failed")), warnings.join("\n"));
    peer.receive(frame({ id: 1, method: "plugin.uninstall", params: { plugin: "p" } }));
    assertEquals(await next(), { jsonrpc: "2.0", id: 1, result: { ok: true } });
  });
});

Deno.test("invalid JSON gets -32700 with id null; other bad frames get an error too", async () => {
  const { peer, next } = fakeLink({});
  peer.receive("{not json");
  const reply = await next() as { id: unknown; error: { code: number } };
  assertEquals(reply.id, null);
  assertEquals(reply.error.code, RPC_ERRORS.PARSE_ERROR);

  peer.receive(JSON.stringify({ id: 4, method: "plugin.uninstall" })); // no jsonrpc
  const invalid = await next() as { id: unknown; error: { code: number } };
  assertEquals(invalid.id, 4);
  assertEquals(invalid.error.code, RPC_ERRORS.INVALID_REQUEST);

  peer.receive(new Uint8Array([1, 2, 3]));
  const binary = await next() as { id: unknown; error: { code: number } };
  assertEquals(binary, { jsonrpc: "2.0", id: null, error: binary.error });
  assertEquals(binary.error.code, RPC_ERRORS.INVALID_REQUEST);
});

Deno.test("request() sends a numbered request and resolves on the matching response", async () => {
  const { peer, next } = fakeLink({});
  const change = {
    plugin: "test-app",
    state: "ready" as const,
    tabs: [{ tabId: 3, url: "http://127.0.0.1/", title: "T", ready: true }],
  };
  const first = peer.request("tab.stateChanged", change);
  const second = peer.request("tab.stateChanged", { ...change, state: "closed", tabs: [] });
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
  // Answers out of order land on the right promise; an unknown id is ignored.
  peer.receive(frame({ id: 999, result: "stray" }));
  peer.receive(frame({ id: sentSecond.id, result: { ok: false } }));
  peer.receive(frame({ id: sentFirst.id, result: { ok: true } }));
  assertEquals(await first, { ok: true });
  assertEquals(await second, { ok: false });
});

Deno.test("request() rejects on an error response, with the hub's message", async () => {
  const { peer, next } = fakeLink({});
  const pending = peer.request("plugin.install", { name: "nope" });
  const sent = await next();
  peer.receive(frame({ id: sent.id, error: { code: -32602, message: "no such plugin" } }));
  await assertRejects(pending, /no such plugin/);
});

Deno.test("request() rejects at once when send throws", async () => {
  const peer = createRpcPeer(() => {
    throw new Error("socket is closed");
  }, {});
  await assertRejects(peer.request("plugin.remove", { name: "x" }), /socket is closed/);
});

Deno.test("notify() sends a frame without an id", async () => {
  const { peer, next } = fakeLink({});
  peer.notify("tool.progress", { dispatchId: "d", progress: 1, total: 4 });
  assertEquals(await next(), {
    jsonrpc: "2.0",
    method: "tool.progress",
    params: { dispatchId: "d", progress: 1, total: 4 },
  });
});

Deno.test("close() rejects every pending request with the reason; late answers are ignored", async () => {
  const { peer, next } = fakeLink({});
  const a = peer.request("plugin.search", { query: "x" });
  const b = peer.request("config.getState", {});
  const sentA = await next();
  await next();
  peer.close("The connection to the hub closed");
  await assertRejects(a, /connection to the hub closed/);
  await assertRejects(b, /connection to the hub closed/);
  peer.receive(frame({ id: sentA.id, result: "too late" })); // must not throw
  // The peer still works for new requests afterwards.
  const c = peer.request("plugin.search", {});
  const sentC = await next();
  peer.receive(frame({ id: sentC.id, result: [] }));
  assertEquals(await c, []);
});

Deno.test("an answer too large for one frame is replaced by the oversize answer, or an error", async () => {
  const huge = "x".repeat(MAX_REPLY_BYTES);
  const handlers: ServerHandlers = { "plugin.uninstall": () => ({ ok: true, huge }) };
  const request = frame({ id: 1, method: "plugin.uninstall", params: { plugin: "x" } });

  const seen: [string, number][] = [];
  const replaced = fakeLink(handlers, (method, bytes) => {
    seen.push([method, bytes]);
    return { ok: false };
  });
  replaced.peer.receive(request);
  assertEquals((await replaced.next()).result, { ok: false });
  assertEquals(seen[0][0], "plugin.uninstall");
  assert(seen[0][1] > MAX_REPLY_BYTES);

  const plain = fakeLink(handlers);
  plain.peer.receive(request);
  const reply = await plain.next();
  assertEquals((reply.error as { code: number }).code, -32603);
  assertMatch((reply.error as { message: string }).message, /plugin\.uninstall.*limit/);
});
