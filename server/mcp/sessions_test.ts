/**
 * createMcpSessions on its own: Requests in, Responses out, with a fake catalog and pipeline and a
 * clock the tests move. Sessions are created only by `initialize` and at most `sessionLimit` a
 * minute; unknown, closed or expired ids are 404; bodies over the message limit are refused;
 * `closeAll` ends every session; `toolsChanged` reaches full-mode sessions' event streams.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/helpers/assert.ts";
import { initializeRequest } from "../../tests/helpers/mcp_client.ts";
import type { Pipeline } from "../calls/pipeline_interface.ts";
import { HubError, restStatus } from "../../protocol/errors.ts";
import { silentLogger } from "../log/logger.ts";
import { MAX_MESSAGE_BYTES } from "../../protocol/limits.ts";
import { withTimeout } from "../../protocol/with_timeout.ts";
import { createMcpSessions, SESSION_IDLE_MS } from "./sessions.ts";
import type { McpSessions } from "./sessions_interface.ts";
import type { McpMode } from "./mcp_server.ts";
import { echoCatalog, echoPipeline } from "./_echo_fixture.ts";

const PATH: Record<McpMode, string> = { full: "/mcp", gateway: "/mcp/gateway" };

const catalog = echoCatalog;
const pipeline = echoPipeline;

interface Rig {
  sessions: McpSessions;
  /** Moves the sessions' clock forward. */
  advance(ms: number): void;
}

function rig(sessionLimit = 5, calls: Pipeline = pipeline): Rig {
  let now = 1_000_000;
  const sessions = createMcpSessions({
    catalog,
    pipeline: calls,
    logger: silentLogger,
    clock: () => now,
    sessionLimit,
  });
  return { sessions, advance: (ms) => (now += ms) };
}

function request(
  mode: McpMode,
  method: "GET" | "POST" | "DELETE",
  options: { session?: string; body?: BodyInit } = {},
): Request {
  const headers: Record<string, string> = {
    accept: method === "GET" ? "text/event-stream" : "application/json, text/event-stream",
    "content-type": "application/json",
  };
  if (options.session) headers["mcp-session-id"] = options.session;
  return new Request(`http://127.0.0.1:9515${PATH[mode]}`, {
    method,
    headers,
    body: options.body,
  });
}

const post = (mode: McpMode, message: unknown, session?: string) =>
  request(mode, "POST", { session, body: JSON.stringify(message) });

/** The JSON-RPC messages of an SSE body (its `data:` lines). */
function sseMessages(text: string): { method?: string; result?: unknown; error?: unknown }[] {
  return text.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6)
    .map((l) => JSON.parse(l.slice(6)));
}

/** Initializes a session of `mode` (initialize + notifications/initialized); returns its id. */
async function open(sessions: McpSessions, mode: McpMode = "full"): Promise<string> {
  const res = await sessions.handle(post(mode, initializeRequest("unit")), mode);
  assertEquals(res.status, 200);
  const id = res.headers.get("mcp-session-id");
  assert(id, "initialize answers with a session id");
  assert(sseMessages(await res.text()).some((m) => m.result), "initialize has a result");
  const ready = await sessions.handle(
    post(mode, { jsonrpc: "2.0", method: "notifications/initialized" }, id),
    mode,
  );
  assertEquals(ready.status, 202);
  await ready.body?.cancel();
  return id;
}

async function rpcError(res: Response): Promise<{ status: number; code: number; message: string }> {
  const body = await res.json();
  return { status: res.status, code: body.error.code, message: body.error.message };
}

const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };

Deno.test("sessions: only an initialize creates one; other requests without an id are 400", async () => {
  const { sessions } = rig();
  const call = await sessions.handle(post("full", LIST), "full");
  const refused = await rpcError(call);
  assertEquals([refused.status, refused.code], [400, -32000]);
  assertMatch(refused.message, /send an initialize request first/);
  const get = await rpcError(await sessions.handle(request("full", "GET"), "full"));
  assertEquals(get.status, 400);
  assertMatch(get.message, /Missing mcp-session-id/);
  assertEquals(sessions.count(), 0);

  const id = await open(sessions);
  const listed = await sessions.handle(post("full", LIST, id), "full");
  assertEquals(listed.status, 200);
  assertEquals(listed.headers.get("content-type"), "application/json");
  const reply = await listed.json();
  assertEquals((reply.result as { tools: { name: string }[] }).tools.map((t) => t.name), [
    "demo__echo",
  ]);
  assertEquals(sessions.count(), 1);
  await sessions.closeAll();
});

Deno.test("sessions: at most sessionLimit creations a minute, then 429 with Retry-After", async () => {
  const { sessions, advance } = rig(2);
  await open(sessions);
  await open(sessions, "gateway");
  const third = await sessions.handle(post("full", initializeRequest("unit")), "full");
  assertEquals(third.headers.get("retry-after"), "60");
  const refused = await rpcError(third);
  assertEquals(refused.status, 429);
  assertMatch(refused.message, /at most 2 per minute/);
  assertEquals(sessions.count(), 2, "the refused initialize made no session");
  advance(61_000);
  await open(sessions);
  await sessions.closeAll();
});

Deno.test("sessions: unknown ids and ids of the other endpoint are 404", async () => {
  const { sessions } = rig();
  const unknown = await rpcError(
    await sessions.handle(post("full", LIST, crypto.randomUUID()), "full"),
  );
  assertEquals([unknown.status, unknown.code], [404, -32001]);
  assertMatch(unknown.message, /Session not found/);

  const id = await open(sessions, "gateway");
  const wrong = await rpcError(await sessions.handle(post("full", LIST, id), "full"));
  assertEquals(wrong.status, 404);
  assertMatch(wrong.message, /belongs to \/mcp\/gateway/);
  const right = await sessions.handle(post("gateway", LIST, id), "gateway");
  assertEquals(right.status, 200);
  await right.body?.cancel();
  await sessions.closeAll();
});

Deno.test("sessions: a body over the message limit is refused before it is parsed (413)", async () => {
  const { sessions } = rig();
  const id = await open(sessions);
  const big = JSON.stringify({ ...LIST, params: { pad: "x".repeat(MAX_MESSAGE_BYTES) } });
  const isTooLarge = (error: unknown) =>
    error instanceof HubError && restStatus(error) === 413 && error.code === "BODY_TOO_LARGE";
  // Declared by Content-Length, and streamed without one.
  const declared = post("full", LIST, id);
  declared.headers.set("content-length", String(MAX_MESSAGE_BYTES + 1));
  await assertRejects(sessions.handle(declared, "full"), isTooLarge);
  const streamed = request("full", "POST", {
    session: id,
    body: new Blob([big]).stream(),
  });
  await assertRejects(sessions.handle(streamed, "full"), isTooLarge);
  const creation = request("full", "POST", { body: new Blob([big]).stream() });
  await assertRejects(sessions.handle(creation, "full"), isTooLarge);
  // The session is unharmed.
  const listed = await sessions.handle(post("full", LIST, id), "full");
  assertEquals(listed.status, 200);
  await listed.body?.cancel();
  await sessions.closeAll();
});

Deno.test("sessions: idle ones expire after SESSION_IDLE_MS; recent ones count as clients", async () => {
  const { sessions, advance } = rig();
  const id = await open(sessions);
  assertEquals(sessions.count(), 1);
  advance(61_000);
  assertEquals(sessions.count(), 0, "no request for a minute and no stream: not counted");
  advance(SESSION_IDLE_MS);
  const expired = await rpcError(await sessions.handle(post("full", LIST, id), "full"));
  assertEquals(expired.status, 404);
  await sessions.closeAll();
});

Deno.test("sessions: DELETE closes one; closeAll closes every session", async () => {
  const { sessions } = rig();
  const [a, b, c] = [await open(sessions), await open(sessions), await open(sessions, "gateway")];
  const deleted = await sessions.handle(request("full", "DELETE", { session: a }), "full");
  assertEquals(deleted.status, 200);
  await deleted.body?.cancel();
  assertEquals((await sessions.handle(post("full", LIST, a), "full")).status, 404);
  assertEquals(sessions.count(), 2);

  await sessions.closeAll();
  assertEquals(sessions.count(), 0);
  for (const [id, mode] of [[b, "full"], [c, "gateway"]] as const) {
    const gone = await rpcError(await sessions.handle(post(mode, LIST, id), mode));
    assertEquals(gone.status, 404, mode);
  }
});

/** Reads an SSE stream until a message with `method` arrives, or `ms` pass (undefined). */
async function nextNotification(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  method: string,
  ms: number,
): Promise<unknown> {
  let text = "";
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const chunk = await withTimeout(reader.read(), deadline - Date.now(), undefined);
    if (!chunk || chunk.done) return undefined;
    text += new TextDecoder().decode(chunk.value);
    const found = sseMessages(text).find((m) => m.method === method);
    if (found) return found;
  }
  return undefined;
}

Deno.test("sessions: toolsChanged reaches the event streams of full-mode sessions only", async () => {
  const { sessions, advance } = rig();
  const full = await open(sessions);
  const gateway = await open(sessions, "gateway");
  const fullStream = await sessions.handle(request("full", "GET", { session: full }), "full");
  const gatewayStream = await sessions.handle(
    request("gateway", "GET", { session: gateway }),
    "gateway",
  );
  assertEquals([fullStream.status, gatewayStream.status], [200, 200]);
  const fullReader = fullStream.body!.getReader();
  const gatewayReader = gatewayStream.body!.getReader();
  advance(10 * 60_000);
  assertEquals(sessions.count(), 2, "an open event stream keeps a session counted");

  sessions.toolsChanged();
  const changed = "notifications/tools/list_changed";
  assertEquals(await nextNotification(fullReader, changed, 5_000), {
    jsonrpc: "2.0",
    method: changed,
  });
  assertEquals(await nextNotification(gatewayReader, changed, 300), undefined);

  await fullReader.cancel();
  await gatewayReader.cancel();
  assertEquals(sessions.count(), 0, "closed streams count no more after the recent window");
  await sessions.closeAll();
});

/** A pipeline whose calls never answer; it keeps each call's abort signal. */
function hangingPipeline(): { pipeline: Pipeline; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    signals,
    pipeline: {
      call: (request) => {
        signals.push(request.signal!);
        return new Promise(() => {});
      },
    },
  };
}

const SLOW_CALL = {
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name: "demo__echo", arguments: {} },
};

/** Starts a call that never answers; returns its stream's reader once it streams. */
async function startSlowCall(sessions: McpSessions, id: string) {
  const res = await sessions.handle(post("full", SLOW_CALL, id), "full");
  assertEquals(res.headers.get("content-type"), "text/event-stream");
  return res.body!.getReader();
}

/** Reads a stream to its end (it must end: the test fails on a hang). */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  while (!(await reader.read()).done) { /* events before the end are not checked here */ }
}

// Deno's sanitizers check these tests: a keep-alive or sweep interval left running fails them.
Deno.test("sessions: DELETE and closeAll abort running calls and end their streams", async () => {
  const hanging = hangingPipeline();
  const { sessions } = rig(5, hanging.pipeline);
  const [a, b] = [await open(sessions), await open(sessions)];
  const streamA = await startSlowCall(sessions, a);
  const streamB = await startSlowCall(sessions, b);
  const deleted = await sessions.handle(request("full", "DELETE", { session: a }), "full");
  assertEquals(deleted.status, 200);
  assert(hanging.signals[0].aborted, "DELETE aborts the session's running call");
  assert(!hanging.signals[1].aborted, "the other session's call runs on");
  await drain(streamA);

  await sessions.closeAll();
  assert(hanging.signals[1].aborted, "closeAll aborts running calls");
  await drain(streamB);
});

Deno.test("sessions: an idle session that expires aborts its running call", async () => {
  const hanging = hangingPipeline();
  const { sessions, advance } = rig(5, hanging.pipeline);
  const id = await open(sessions);
  const stream = await startSlowCall(sessions, id);
  advance(SESSION_IDLE_MS + 1);
  await (await sessions.handle(post("full", LIST), "full")).body?.cancel(); // runs the expiry
  assert(hanging.signals[0].aborted, "expiry aborts the call");
  await drain(stream);
  await sessions.closeAll();
});

Deno.test("sessions: a cancel in a POST the SDK refuses does not abort the call", async () => {
  const hanging = hangingPipeline();
  const { sessions } = rig(5, hanging.pipeline);
  const id = await open(sessions);
  const stream = await startSlowCall(sessions, id);
  const cancel = {
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: SLOW_CALL.id },
  };
  const jsonOnly = post("full", cancel, id);
  jsonOnly.headers.set("accept", "application/json");
  assertEquals((await rpcError(await sessions.handle(jsonOnly, "full"))).status, 406);
  const badVersion = post("full", cancel, id);
  badVersion.headers.set("mcp-protocol-version", "1999-01-01");
  assertEquals((await rpcError(await sessions.handle(badVersion, "full"))).status, 400);
  assert(!hanging.signals[0].aborted, "refused cancels abort nothing");

  const accepted = await sessions.handle(post("full", cancel, id), "full");
  assertEquals(accepted.status, 202);
  await accepted.body?.cancel();
  assert(hanging.signals[0].aborted, "an accepted cancel aborts the call");
  await sessions.closeAll();
  await drain(stream);
});
