/// <reference lib="deno.ns" />
/**
 * The real hub link over an in-memory WebSocket pair (tests/helpers/socket_pair.ts): the test
 * plays the extension with raw frames on the other end, so what goes over the wire is checked as
 * the extension would see it.
 */
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { type PairSocket, socketPair } from "../../tests/helpers/socket_pair.ts";
import { CLOSE_REPLACED, RpcError } from "../../protocol/rpc.ts";
import { HubError, type HubErrorCode } from "../../protocol/errors.ts";
import type { Logger } from "../log/logger_interface.ts";
import { createExtensionLink } from "./extension_link.ts";
import type { ExtensionHandlers, ExtensionSocketLink } from "./extension_link_interface.ts";

type Frame = Record<string, unknown>;

function recordingLogger() {
  const lines: string[] = [];
  const logger: Logger = {
    debug: (m) => void lines.push(`debug ${m}`),
    info: (m) => void lines.push(`info ${m}`),
    warn: (m) => void lines.push(`warn ${m}`),
    error: (m) => void lines.push(`error ${m}`),
  };
  return { logger, lines };
}

/** A link with counted connect/disconnect events. */
function setup(handlers: ExtensionHandlers = {}) {
  const { logger, lines } = recordingLogger();
  const link = createExtensionLink(handlers, logger);
  const events: string[] = [];
  link.onConnect(() => void events.push("connect"));
  link.onDisconnect(() => void events.push("disconnect"));
  return { link, lines, events };
}

/** The extension's side of one connection: the frames it got (batches as arrays). */
interface ExtensionSide {
  socket: PairSocket;
  received: unknown[];
  next(): Promise<unknown>;
  send(message: Frame): void;
}

/** Attaches a new socket pair to the link and opens it. */
async function connect(link: ExtensionSocketLink): Promise<ExtensionSide> {
  const pair = socketPair();
  link.attach(pair.hub);
  const received: unknown[] = [];
  const waiters: (() => void)[] = [];
  pair.extension.onmessage = (event) => {
    received.push(JSON.parse(event.data));
    waiters.shift()?.();
  };
  await pair.open();
  let read = 0;
  return {
    socket: pair.extension,
    received,
    async next() {
      while (received.length <= read) await new Promise<void>((r) => waiters.push(r));
      return received[read++];
    },
    send: (message) => pair.extension.send(JSON.stringify({ jsonrpc: "2.0", ...message })),
  };
}

/** Lets every frame under way arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** The call error code a promise rejected with (fails if it resolved or threw something else). */
async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(() => undefined, (e) => e);
  assert(error instanceof HubError, `expected a HubError, got ${error}`);
  return { code: error.payload.code, message: error.payload.message };
}

const code = (c: HubErrorCode) => c;

Deno.test("before any extension connects, requests fail EXTENSION_NOT_CONNECTED", async () => {
  const { link } = setup();
  assertEquals(link.isConnected(), false);
  const error = await failure(link.request("plugin.uninstall", { plugin: "p" }));
  assertEquals(error.code, code("EXTENSION_NOT_CONNECTED"));
  assertMatch(error.message, /extension is not connected.*hub status/);
  assertEquals(link.notify("plugins.changed", { reason: "reload" }), false);
});

Deno.test("an opened socket connects: listeners run, requests go out and their answers come back", async () => {
  const { link, lines, events } = setup();
  const pair = socketPair();
  link.attach(pair.hub);
  assertEquals(link.isConnected(), false, "attached is not connected until the socket opens");
  assertEquals(events, []);
  const received: Frame[] = [];
  pair.extension.onmessage = (event) => void received.push(JSON.parse(event.data));
  await pair.open();
  assertEquals(link.isConnected(), true);
  assertEquals(events, ["connect"]);
  assert(lines.includes("info Extension connected"), lines.join("\n"));

  const answer = link.request("plugin.uninstall", { plugin: "p" });
  await settle();
  assertEquals(received, [
    { jsonrpc: "2.0", id: received[0]?.id, method: "plugin.uninstall", params: { plugin: "p" } },
  ]);
  assertEquals(typeof received[0].id, "number");
  pair.extension.send(JSON.stringify({ jsonrpc: "2.0", id: received[0].id, result: { ok: true } }));
  assertEquals(await answer, { ok: true });
});

Deno.test("the extension's error answer fails the call with EXTENSION_ERROR and its code", async () => {
  const { link } = setup();
  const ext = await connect(link);
  const answer = link.request("plugin.uninstall", { plugin: "p" });
  const sent = await ext.next() as Frame;
  ext.send({ id: sent.id, error: { code: -32601, message: "plugin.uninstall is not available" } });
  assertEquals(await failure(answer), {
    code: "EXTENSION_ERROR",
    message: "The extension answered -32601: plugin.uninstall is not available",
  });
});

Deno.test("an aborted request rejects with the signal's reason; its late answer is ignored", async () => {
  const { link } = setup();
  const ext = await connect(link);
  const controller = new AbortController();
  const answer = link.request("plugin.uninstall", { plugin: "p" }, controller.signal);
  const sent = await ext.next() as Frame;
  const reason = new Error("the caller gave up");
  controller.abort(reason);
  assertEquals(await answer.then(() => "resolved", (e) => e), reason);
  ext.send({ id: sent.id, result: { ok: true } });
  await settle();
  assertEquals(link.isConnected(), true);
  // An already aborted signal sends nothing at all.
  const before = ext.received.length;
  const gone = link.request("plugin.uninstall", { plugin: "q" }, AbortSignal.abort(reason));
  assertEquals(await gone.then(() => "resolved", (e) => e), reason);
  await settle();
  assertEquals(ext.received.length, before);
});

Deno.test("a newer socket replaces the old: its calls fail EXTENSION_DISCONNECTED, it is closed with 4000", async () => {
  const { link, events, lines } = setup();
  const first = await connect(link);
  const waiting = link.request("plugin.uninstall", { plugin: "p" });
  await first.next();
  const second = await connect(link);
  assertEquals(await failure(waiting), {
    code: "EXTENSION_DISCONNECTED",
    message: "replaced by a newer connection",
  });
  await settle();
  assertEquals(first.socket.closed, {
    code: CLOSE_REPLACED,
    reason: "replaced by a newer connection",
  });
  assertEquals(events, ["connect", "disconnect", "connect"]);
  assert(lines.includes("info Extension disconnected (replaced by a newer connection)"));
  assertEquals(link.isConnected(), true);
  // The old socket closing afterwards does not disconnect the new one.
  assertEquals(events.length, 3);
  const answer = link.request("plugin.uninstall", { plugin: "q" });
  const sent = await second.next() as Frame;
  assertEquals((sent.params as Frame).plugin, "q");
  second.send({ id: sent.id, result: { ok: false } });
  assertEquals(await answer, { ok: false });
});

Deno.test("when the extension's socket closes or fails, waiting calls fail EXTENSION_DISCONNECTED", async () => {
  const { link, events, lines } = setup();
  const ext = await connect(link);
  const waiting = link.request("plugin.uninstall", { plugin: "p" });
  await ext.next();
  ext.socket.close(1001, "going away");
  assertEquals(await failure(waiting), {
    code: "EXTENSION_DISCONNECTED",
    message: "connection closed: going away",
  });
  assertEquals(link.isConnected(), false);
  assertEquals(events, ["connect", "disconnect"]);
  assert(lines.includes("info Extension disconnected (connection closed: going away)"));
  assertEquals(
    (await failure(link.request("plugin.uninstall", { plugin: "p" }))).code,
    "EXTENSION_NOT_CONNECTED",
  );

  const again = await connect(link);
  const pending = link.request("plugin.uninstall", { plugin: "p" });
  await again.next();
  again.socket.fail();
  assertEquals(await failure(pending), {
    code: "EXTENSION_DISCONNECTED",
    message: "connection error",
  });
  await settle();
  assertEquals(events, ["connect", "disconnect", "connect", "disconnect"]);
});

Deno.test("disconnect() closes the socket with the code and fails waiting calls with the reason", async () => {
  const { link, events } = setup();
  const ext = await connect(link);
  const waiting = link.request("plugin.uninstall", { plugin: "p" });
  await ext.next();
  link.disconnect(4001, "secret rotated");
  assertEquals(await failure(waiting), {
    code: "EXTENSION_DISCONNECTED",
    message: "secret rotated",
  });
  await settle();
  assertEquals(ext.socket.closed, { code: 4001, reason: "secret rotated" });
  assertEquals(events, ["connect", "disconnect"]);
  link.disconnect(4001, "again"); // nothing connected: nothing happens
  assertEquals(events, ["connect", "disconnect"]);
});

Deno.test("every message goes out at once in a frame of its own, notifications too", async () => {
  const { link } = setup();
  const ext = await connect(link);
  const start = { invocationId: "i", tool: "t", plugin: "p", startedAt: 1 };
  assertEquals(link.notify("tool.invocationStart", start), true);
  assertEquals(await ext.next(), { jsonrpc: "2.0", method: "tool.invocationStart", params: start });
  const dispatch = {
    dispatchId: "d",
    tool: "t",
    kind: "plugin" as const,
    plugin: "p",
    input: {},
  };
  const answer = link.request("tool.dispatch", dispatch);
  const sent = await ext.next() as Frame;
  assertEquals(sent, { jsonrpc: "2.0", id: sent.id, method: "tool.dispatch", params: dispatch });
  ext.send({ id: sent.id, result: { ok: true, value: 1 } });
  assertEquals(await answer, { ok: true, value: 1 });
  const end = { invocationId: "i", tool: "t", plugin: "p", success: false, durationMs: 1 };
  link.notify("tool.invocationEnd", end);
  assertEquals(await ext.next(), { jsonrpc: "2.0", method: "tool.invocationEnd", params: end });
});

Deno.test("the extension's requests reach the handlers; refusals and failures keep their codes", async () => {
  const { link, lines } = setup({
    "tab.stateChanged": ({ plugin }) => {
      if (plugin === "refused") throw new RpcError(-32010, "not now", { retry: true });
      if (plugin === "broken") throw new Error("handler bug");
      return { ok: true };
    },
  });
  const ext = await connect(link);
  const change = (plugin: string) => ({ plugin, state: "closed", tabs: [] });
  ext.send({ id: 1, method: "tab.stateChanged", params: change("p") });
  assertEquals(await ext.next(), { jsonrpc: "2.0", id: 1, result: { ok: true } });
  ext.send({ id: 2, method: "tab.stateChanged", params: change("refused") });
  assertEquals(await ext.next(), {
    jsonrpc: "2.0",
    id: 2,
    error: { code: -32010, message: "not now", data: { retry: true } },
  });
  ext.send({ id: 3, method: "tab.stateChanged", params: change("broken") });
  assertEquals(await ext.next(), {
    jsonrpc: "2.0",
    id: 3,
    error: { code: -32603, message: "handler bug" },
  });
  assert(lines.some((l) => l.startsWith("error tab.stateChanged failed: Error: handler bug")));
  ext.send({ id: 4, method: "tab.stateChanged", params: { plugin: "p" } });
  const invalid = await ext.next() as { id: number; error: { code: number; message: string } };
  assertEquals([invalid.id, invalid.error.code], [4, -32602]);
  assertMatch(invalid.error.message, /^Invalid params for tab\.stateChanged: params\.state/);
  ext.send({ id: 5, method: "folder.open", params: { path: "/" } });
  assertEquals(await ext.next(), {
    jsonrpc: "2.0",
    id: 5,
    error: { code: -32601, message: "folder.open is not available in this version of hub." },
  });
  ext.send({ id: 6, method: "nope" });
  assertEquals((await ext.next() as { error: { code: number } }).error.code, -32601);
  // The hub takes no batches and answers bad JSON; neither closes the link.
  ext.socket.send(JSON.stringify([{ jsonrpc: "2.0", method: "ping" }]));
  assertEquals(await ext.next(), {
    jsonrpc: "2.0",
    id: null,
    error: { code: -32600, message: "Batches are not supported." },
  });
  ext.socket.send("{oops");
  assertEquals((await ext.next() as { error: { code: number } }).error.code, -32700);
  assertEquals(link.isConnected(), true);
});

Deno.test("notifications reach their handler without a reply; setHandlers swaps the handlers", async () => {
  const seen: string[] = [];
  const { link, lines } = setup();
  const ext = await connect(link);
  ext.send({ method: "plugin.log", params: { plugin: "p", entries: [] } });
  ext.send({ id: 1, method: "config.getState", params: {} });
  assertEquals(
    (await ext.next() as { error: { message: string } }).error.message,
    "config.getState is not available in this version of hub.",
  );
  assert(lines.some((l) => l.startsWith("debug Dropped plugin.log from the extension")));

  link.setHandlers({
    "plugin.log": ({ plugin }) => void seen.push(plugin),
    "config.getState": () => ({ state: 1 }),
  });
  ext.send({ method: "plugin.log", params: { plugin: "p", entries: [] } });
  ext.send({ method: "plugin.log", params: { plugin: 7 } });
  ext.send({ id: 2, method: "config.getState" });
  assertEquals(await ext.next(), { jsonrpc: "2.0", id: 2, result: { state: 1 } });
  await settle();
  assertEquals(seen, ["p"]);
  assertEquals(ext.received.length, 2, "notifications get no reply");
  assert(lines.some((l) => /^warn Dropped plugin\.log .*Invalid params/.test(l)), lines.join("\n"));
});
