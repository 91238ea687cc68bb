/// <reference lib="deno.ns" />
/**
 * The engine on its own: each test builds one end (the extension's or the hub's) whose `send`
 * records frames, feeds it frames, and reads what it sent and logged. Requests, closing and two
 * engines talking to each other are in rpc_engine_requests_test.ts.
 */
import { assert, assertEquals, assertMatch } from "../tests/helpers/assert.ts";
import { extensionEnd, frame, hubEnd } from "../tests/helpers/rpc_end.ts";
import { HUB_TO_EXTENSION_METHODS, type ServerParams } from "./events.ts";
import { RPC_ERRORS, RpcError } from "./rpc.ts";
import type { MethodHandlers } from "./rpc_engine.ts";

const dispatchParams: ServerParams<"tool.dispatch"> = {
  dispatchId: "d-1",
  tool: "test-app__echo",
  kind: "plugin",
  plugin: "test-app",
  baseTool: "echo",
  input: { text: "hi" },
  tabId: 7,
};

Deno.test("a valid request reaches its handler with the parsed params and gets a result", async () => {
  const seen: ServerParams<"tool.dispatch">[] = [];
  const { engine, next } = extensionEnd({
    "tool.dispatch": (params) => {
      seen.push(params);
      return { ok: true, value: { echoed: params.input.text }, tabId: params.tabId };
    },
  });
  engine.receive(
    frame({ id: 11, method: "tool.dispatch", params: { ...dispatchParams, extra: 1 } }),
  );
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: 11,
    result: { ok: true, value: { echoed: "hi" }, tabId: 7 },
  });
  // Unknown fields are dropped by the schema; the handler sees exactly the declared ones.
  assertEquals(seen, [dispatchParams]);
});

Deno.test("an async handler's value is awaited; undefined becomes a null result", async () => {
  const { engine, next } = extensionEnd({
    "plugin.uninstall": async ({ plugin }) => {
      await Promise.resolve();
      return { ok: plugin === "test-app" };
    },
    "tool.dispatch": () => undefined,
  });
  engine.receive(frame({ id: "a", method: "plugin.uninstall", params: { plugin: "test-app" } }));
  assertEquals(await next(), { jsonrpc: "2.0", id: "a", result: { ok: true } });
  engine.receive(frame({ id: 2, method: "tool.dispatch", params: dispatchParams }));
  assertEquals(await next(), { jsonrpc: "2.0", id: 2, result: null });
});

Deno.test("a valid notification reaches its handler and gets no reply", async () => {
  const seen: unknown[] = [];
  const { engine, frames, settle } = extensionEnd({
    "plugins.changed": (params) => void seen.push(params),
  });
  engine.receive(frame({ method: "plugins.changed", params: { reason: "settings" } }));
  await settle();
  assertEquals(seen, [{ reason: "settings" }]);
  assertEquals(frames, []);
});

Deno.test("invalid params get -32602 naming the field, and the handler does not run", async () => {
  let called = 0;
  const { engine, next } = extensionEnd({ "tool.dispatch": () => void called++ });
  engine.receive(
    frame({ id: 3, method: "tool.dispatch", params: { ...dispatchParams, kind: "robot" } }),
  );
  const reply = await next() as { id: unknown; error: { code: number; message: string } };
  assertEquals(reply.id, 3);
  assertEquals(reply.error.code, RPC_ERRORS.INVALID_PARAMS);
  assertMatch(reply.error.message, /^Invalid params for tool\.dispatch: /);
  assertMatch(reply.error.message, /params\.kind/);

  engine.receive(
    frame({ id: 4, method: "tool.dispatch", params: { ...dispatchParams, tabId: 0 } }),
  );
  const second = await next() as { error: { code: number; message: string } };
  assertEquals(second.error.code, RPC_ERRORS.INVALID_PARAMS);
  assertMatch(second.error.message, /params\.tabId/);

  engine.receive(frame({ id: 5, method: "tool.dispatch" })); // params missing altogether
  const third = await next() as { error: { code: number; message: string } };
  assertEquals(third.error.code, RPC_ERRORS.INVALID_PARAMS);
  assertMatch(third.error.message, /params\.dispatchId/);
  assertEquals(called, 0);
});

Deno.test("an unknown method gets -32601 listing the methods", async () => {
  const { engine, next } = extensionEnd({ "tool.dispatch": () => null });
  engine.receive(frame({ id: 6, method: "tabs.explode", params: {} }));
  const reply = await next() as { id: unknown; error: { code: number; message: string } };
  assertEquals(reply.id, 6);
  assertEquals(reply.error.code, RPC_ERRORS.METHOD_NOT_FOUND);
  assertEquals(
    reply.error.message,
    `Unknown method "tabs.explode". Methods: ${Object.keys(HUB_TO_EXTENSION_METHODS).join(", ")}.`,
  );
  // Inherited object keys are not methods either.
  engine.receive(frame({ id: 7, method: "toString", params: {} }));
  assertEquals((await next() as { error: { code: number } }).error.code, -32601);
});

Deno.test("a known method without a handler gets -32601 naming the receiver", async () => {
  const { engine, next } = extensionEnd({});
  engine.receive(frame({ id: 8, method: "plugin.uninstall", params: { plugin: "x" } }));
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: 8,
    error: {
      code: -32601,
      message: "plugin.uninstall is not available in this version of the hub extension.",
    },
  });
});

Deno.test("a notification method sent with an id gets -32601 and its handler does not run", async () => {
  let called = 0;
  const { engine, next } = extensionEnd({ "plugins.changed": () => void called++ });
  engine.receive(frame({ id: 9, method: "plugins.changed", params: { reason: "reload" } }));
  const reply = await next() as { id: unknown; error: { code: number; message: string } };
  assertEquals(reply.id, 9);
  assertEquals(reply.error.code, RPC_ERRORS.METHOD_NOT_FOUND);
  assertEquals(
    reply.error.message,
    'Unknown request "plugins.changed": plugins.changed is a notification; send it without an "id".',
  );
  assertEquals(called, 0);
});

Deno.test("a refused notification is logged, never answered: warn when the sender is broken", async () => {
  let called = 0;
  const { engine, frames, logs, settle } = extensionEnd({
    "plugin.uninstall": () => {
      called++;
      return { ok: true };
    },
    "plugins.changed": () => void called++,
  });
  engine.receive(frame({ method: "plugin.uninstall", params: { plugin: "test-app" } }));
  engine.receive(frame({ method: "plugins.changed", params: { reason: "nope" } }));
  engine.receive(frame({ method: "pong", params: { ts: 1 } })); // no handler
  engine.receive(frame({ method: "tabs.explode" }));
  await settle();
  assertEquals(called, 0);
  assertEquals(frames, []);
  assertEquals(logs.map((l) => l.level), ["warn", "warn", "debug", "debug"]);
  assertMatch(logs[0].message, /^Dropped plugin\.uninstall from the other end: /);
  assertMatch(logs[0].message, /Unknown notification "plugin\.uninstall".*is a request\.$/);
  assertMatch(logs[1].message, /Invalid params for plugins\.changed: params\.reason/);
  assertMatch(logs[2].message, /not available in this version of the hub extension/);
  assertMatch(logs[3].message, /Unknown method "tabs\.explode"/);
});

Deno.test("a handler throwing RpcError keeps its code and data; any other error is -32603", async () => {
  const { engine, next, logs } = extensionEnd({
    "plugin.uninstall": ({ plugin }) => {
      if (plugin === "refused") throw new RpcError(-32010, "not now");
      if (plugin === "data") throw new RpcError(-32011, "with data", { why: "busy" });
      throw new TypeError("boom");
    },
    "tool.dispatch": () => Promise.reject(new Error("async boom")),
  });
  engine.receive(frame({ id: 1, method: "plugin.uninstall", params: { plugin: "refused" } }));
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: 1,
    error: { code: -32010, message: "not now" },
  });
  engine.receive(frame({ id: 2, method: "plugin.uninstall", params: { plugin: "data" } }));
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: 2,
    error: { code: -32011, message: "with data", data: { why: "busy" } },
  });
  engine.receive(frame({ id: 3, method: "plugin.uninstall", params: { plugin: "other" } }));
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: 3,
    error: { code: RPC_ERRORS.INTERNAL_ERROR, message: "boom" },
  });
  engine.receive(frame({ id: 4, method: "tool.dispatch", params: dispatchParams }));
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: 4,
    error: { code: RPC_ERRORS.INTERNAL_ERROR, message: "async boom" },
  });
  // An unexpected error is a bug worth an error line with its stack; a refusal is not.
  assertEquals(logs.map((l) => l.level), ["error", "error"]);
  assertMatch(logs[0].message, /^plugin\.uninstall failed: TypeError: boom/);
  assertMatch(logs[1].message, /^tool\.dispatch failed: Error: async boom/);
});

Deno.test("a throwing notification handler is logged and the link keeps working", async () => {
  const { engine, next, logs, settle } = extensionEnd({
    "plugins.changed": () => {
      throw new Error("handler broke");
    },
    "plugin.uninstall": () => ({ ok: true }),
  });
  engine.receive(frame({ method: "plugins.changed", params: { reason: "reload" } }));
  await settle();
  assertEquals(logs.map((l) => l.level), ["error"]);
  assertMatch(logs[0].message, /plugins\.changed failed/);
  engine.receive(frame({ id: 1, method: "plugin.uninstall", params: { plugin: "p" } }));
  assertEquals(await next(), { jsonrpc: "2.0", id: 1, result: { ok: true } });
});

Deno.test("invalid JSON gets -32700 with id null; other bad frames get an error too", async () => {
  const { engine, next } = extensionEnd({});
  engine.receive("{not json");
  const reply = await next() as { id: unknown; error: { code: number } };
  assertEquals(reply.id, null);
  assertEquals(reply.error.code, RPC_ERRORS.PARSE_ERROR);

  engine.receive(JSON.stringify({ id: 4, method: "plugin.uninstall" })); // no jsonrpc
  const invalid = await next() as { id: unknown; error: { code: number } };
  assertEquals(invalid.id, 4);
  assertEquals(invalid.error.code, RPC_ERRORS.INVALID_REQUEST);

  engine.receive(new Uint8Array([1, 2, 3]));
  const binary = await next() as { id: unknown; error: { code: number } };
  assertEquals(binary, { jsonrpc: "2.0", id: null, error: binary.error });
  assertEquals(binary.error.code, RPC_ERRORS.INVALID_REQUEST);
});

Deno.test("with batches on, each element of a batch is handled in order; bad ones answered", async () => {
  const seen: string[] = [];
  const { engine, next, settle } = extensionEnd({
    "tool.invocationStart": ({ invocationId }) => void seen.push(`start ${invocationId}`),
    "tool.dispatch": ({ dispatchId }) => {
      seen.push(`dispatch ${dispatchId}`);
      return { ok: true, value: 1 };
    },
  });
  const start = { invocationId: "i", tool: "t", plugin: "p", startedAt: 1 };
  engine.receive(JSON.stringify([
    { jsonrpc: "2.0", method: "tool.invocationStart", params: start },
    { jsonrpc: "2.0", id: 1, method: "tool.dispatch", params: dispatchParams },
    { nope: true },
  ]));
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: null,
    error: { code: -32600, message: '"jsonrpc" must be "2.0".' },
  });
  assertEquals(await next(), { jsonrpc: "2.0", id: 1, result: { ok: true, value: 1 } });
  await settle();
  assertEquals(seen, ["start i", "dispatch d-1"]);
});

Deno.test("with batches off (the hub), a batch is refused with -32600 and nothing runs", async () => {
  let called = 0;
  const { engine, next, settle } = hubEnd({ ping: () => void called++ });
  engine.receive(JSON.stringify([{ jsonrpc: "2.0", method: "ping" }]));
  assertEquals(await next(), {
    jsonrpc: "2.0",
    id: null,
    error: { code: -32600, message: "Batches are not supported." },
  });
  await settle();
  assertEquals(called, 0);
});

Deno.test("the hub's end names itself in refusals and handles extension methods", async () => {
  const { engine, next } = hubEnd({
    "tab.stateChanged": ({ plugin }) => ({ ok: plugin === "p" }),
  });
  engine.receive(frame({ id: 1, method: "tab.stateChanged", params: { plugin: "p" } }));
  const bad = await next() as { error: { code: number; message: string } };
  assertEquals(bad.error.code, -32602);
  assertMatch(bad.error.message, /params\.state/);
  engine.receive(
    frame({
      id: 2,
      method: "tab.stateChanged",
      params: { plugin: "p", state: "closed", tabs: [] },
    }),
  );
  assertEquals(await next(), { jsonrpc: "2.0", id: 2, result: { ok: true } });
  engine.receive(frame({ id: 3, method: "folder.open", params: { path: "/" } }));
  assertEquals(
    (await next() as { error: { message: string } }).error.message,
    "folder.open is not available in this version of hub.",
  );
});

Deno.test("handlers given as a getter are read at each message", async () => {
  let handlers: MethodHandlers<typeof HUB_TO_EXTENSION_METHODS> = {};
  const { engine, next } = extensionEnd(() => handlers);
  engine.receive(frame({ id: 1, method: "plugin.uninstall", params: { plugin: "p" } }));
  assertEquals((await next() as { error: { code: number } }).error.code, -32601);
  handlers = { "plugin.uninstall": () => ({ ok: true }) };
  engine.receive(frame({ id: 2, method: "plugin.uninstall", params: { plugin: "p" } }));
  assertEquals(await next(), { jsonrpc: "2.0", id: 2, result: { ok: true } });
});

Deno.test("an answer too large for one frame is replaced by the oversize answer, or an error", async () => {
  const limit = 1_000;
  // 600 "é" are 600 UTF-16 units but 1,200 bytes: the limit counts bytes.
  const handlers = { "plugin.uninstall": () => ({ ok: true, text: "é".repeat(600) }) };
  const request = frame({ id: 1, method: "plugin.uninstall", params: { plugin: "x" } });

  const seen: [string, number][] = [];
  const replaced = extensionEnd(handlers, {
    maxReplyBytes: limit,
    oversize: (method, bytes) => {
      seen.push([method, bytes]);
      return { ok: false };
    },
  });
  replaced.engine.receive(request);
  assertEquals(await replaced.next(), { jsonrpc: "2.0", id: 1, result: { ok: false } });
  assertEquals(seen.length, 1);
  assertEquals(seen[0][0], "plugin.uninstall");
  const full = JSON.stringify({ jsonrpc: "2.0", id: 1, result: handlers["plugin.uninstall"]() });
  assertEquals(seen[0][1], new TextEncoder().encode(full).length);
  assert(seen[0][1] > limit);

  // No hook, or a hook that has nothing to say for this method: a JSON-RPC error.
  for (const oversize of [undefined, () => undefined]) {
    const plain = extensionEnd(handlers, { maxReplyBytes: limit, oversize });
    plain.engine.receive(request);
    const reply = await plain.next();
    assertEquals((reply.error as { code: number }).code, -32603);
    assertEquals(
      (reply.error as { message: string }).message,
      `The answer to plugin.uninstall is ${seen[0][1]} bytes; the limit is ${limit}.`,
    );
  }

  // Just under the limit goes out as it is.
  const fits = extensionEnd({ "plugin.uninstall": () => ({ ok: true, text: "é".repeat(300) }) }, {
    maxReplyBytes: limit,
    oversize: () => "not used",
  });
  fits.engine.receive(request);
  assertEquals(((await fits.next()).result as { ok: boolean }).ok, true);
});

Deno.test("a result that cannot be serialized is answered with -32603", async () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const { engine, next } = extensionEnd({ "plugin.uninstall": () => cyclic });
  engine.receive(frame({ id: 1, method: "plugin.uninstall", params: { plugin: "x" } }));
  const reply = await next() as { id: number; error: { code: number; message: string } };
  assertEquals(reply.id, 1);
  assertEquals(reply.error.code, -32603);
  assertMatch(reply.error.message, /circular/i);
});
