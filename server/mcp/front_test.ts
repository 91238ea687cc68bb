/**
 * McpFront on its own: JSON answers for what is ready at once, an SSE stream (priming event,
 * progress, result, all stored) for what is not, cancellation and session close, a resume that
 * takes a running call's stream over, and the tools/list bytes kept per catalog state.
 * fastRequest: what the front leaves to the SDK.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import type { Catalog } from "../calls/catalog_interface.ts";
import type { Pipeline } from "../calls/pipeline_interface.ts";
import { EventStores } from "./event_store.ts";
import { McpFront, STREAM_AFTER_MS } from "./front.ts";
import { fastRequest, RESUMABLE_PROTOCOL } from "./fast_request.ts";
import { ToolListCache } from "./tool_list_cache.ts";
import { messagesOf, SseReader } from "../../tests/helpers/mcp_raw.ts";

type Call = Parameters<Pipeline["call"]>[0];

function rig(reply: (call: Call) => Promise<unknown> = (c) => Promise.resolve({ echo: c.args })) {
  let listed = [{ name: "demo__echo", description: "Echo", inputSchema: { type: "object" } }];
  const calls: Call[] = [];
  const catalog = { list: () => listed } as unknown as Catalog;
  const pipeline: Pipeline = {
    call: (call) => {
      calls.push(call);
      return reply(call).then((value) => ({ ok: true, value }) as never);
    },
  };
  const events = new EventStores().open();
  const lists = new ToolListCache();
  const front = new McpFront({
    catalog,
    pipeline,
    mode: "full",
    sessionId: "s1",
    events,
    lists,
    retryMs: 1_000,
  });
  const replaceList = () => (listed = [...listed]);
  return { front, calls, events, lists, catalog, replaceList };
}

function post(body: unknown, version = RESUMABLE_PROTOCOL, accept?: string): Request {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: {
      accept: accept ?? "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-session-id": "s1",
      "mcp-protocol-version": version,
    },
    body: JSON.stringify(body),
  });
}

function answer(front: McpFront, body: unknown, version?: string): Promise<Response> {
  const answered = front.answer(post(body, version), body);
  assert(answered, "the front answers it");
  return answered;
}

const call = (id: number, params: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params,
});

/** A reply the test releases. */
function gate() {
  let release!: (value: unknown) => void;
  const promise = new Promise<unknown>((resolve) => (release = resolve));
  return { promise, release };
}

Deno.test("a call ready at once, tools/list and ping are one JSON body each", async () => {
  const { front, calls } = rig();
  const res = await answer(front, call(1, { name: "demo__echo", arguments: { a: 1 } }));
  assertEquals(res.headers.get("content-type"), "application/json");
  assertEquals(res.headers.get("mcp-session-id"), "s1");
  const body = await res.json();
  assertEquals(body.id, 1);
  assertEquals(body.result.structuredContent, { echo: { a: 1 } });
  assertEquals([calls[0].name, calls[0].args], ["demo__echo", { a: 1 }]);

  const list = await (await answer(front, { jsonrpc: "2.0", id: "l", method: "tools/list" }))
    .json();
  assertEquals(list, {
    jsonrpc: "2.0",
    id: "l",
    result: {
      tools: [{ name: "demo__echo", description: "Echo", inputSchema: { type: "object" } }],
    },
  });
  const again = await answer(front, { jsonrpc: "2.0", id: "m", method: "tools/list" });
  assertEquals(Number(again.headers.get("content-length")), (await again.clone().text()).length);
  assertEquals((await again.json()).result, list.result, "the cached bytes serve again intact");
  const ping = await (await answer(front, { jsonrpc: "2.0", id: 3, method: "ping" })).json();
  assertEquals(ping, { jsonrpc: "2.0", id: 3, result: {} });
});

Deno.test("malformed tools/call params get -32602 with a short message", async () => {
  const { front, calls } = rig();
  const body = await (await answer(front, call(2, { name: "x", arguments: [1] }))).json();
  assertEquals(body.error.code, -32602);
  assert(body.error.message.includes("arguments must be a JSON object"), body.error.message);
  assertEquals(calls.length, 0);
});

Deno.test("tools/list bytes are serialized once per catalog state", () => {
  const { lists, catalog, replaceList } = rig();
  const first = lists.bytes("full", catalog);
  assert(lists.bytes("full", catalog) === first, "same state, same bytes");
  replaceList();
  assert(lists.bytes("full", catalog) !== first, "a new state is serialized again");
  const gateway = JSON.parse(new TextDecoder().decode(lists.bytes("gateway", catalog)));
  assertEquals(gateway.tools.map((t: { name: string }) => t.name), ["hub_list_tools", "hub_call"]);
});

Deno.test("a slow call is a stream: priming event, then the result, both stored", async () => {
  const slow = gate();
  const { front, events } = rig(() => slow.promise);
  const started = performance.now();
  const res = await answer(front, call(4, { name: "demo__echo", arguments: {} }));
  assert(performance.now() - started >= STREAM_AFTER_MS - 5, "streams only after the wait");
  assertEquals(res.headers.get("content-type"), "text/event-stream");
  const sse = new SseReader(res.body!);
  const priming = await sse.next();
  assertEquals([priming?.data, priming?.retry], ["", 1_000]);
  slow.release({ late: true });
  const messages = messagesOf(await sse.rest());
  assertEquals(messages.map((m) => [m.id, m.result.structuredContent]), [[4, { late: true }]]);
  const point = events.resumePoint(priming!.id!);
  assert(point?.finished, "the stored stream is complete for a resume");
});

Deno.test("progress streams at once; clients before 2025-11-25 get no priming event", async () => {
  const slow = gate();
  const { front } = rig((c) => (c.onProgress?.({ progress: 1, total: 2 }), slow.promise));
  const params = { name: "demo__echo", arguments: {}, _meta: { progressToken: "p" } };
  const res = await answer(front, call(5, params), "2025-06-18");
  const sse = new SseReader(res.body!);
  const progress = await sse.next();
  assert(progress?.id, "events carry ids");
  assertEquals(JSON.parse(progress.data).params, { progressToken: "p", progress: 1, total: 2 });
  slow.release("done");
  assertEquals(messagesOf(await sse.rest()).map((m) => m.id), [5]);
});

Deno.test("notifications/cancelled aborts the call and no response is sent", async () => {
  const slow = gate();
  const { front, calls } = rig(() => slow.promise);
  const res = await answer(front, call(6, { name: "demo__echo", arguments: {} }));
  const sse = new SseReader(res.body!);
  await sse.next(); // priming
  front.noteCancels({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: 6, reason: "stop" },
  });
  assert(calls[0].signal?.aborted, "the pipeline's signal is aborted");
  slow.release("too late");
  // Let the released call finish before the session ends, so a result it sent would be read.
  await new Promise((resolve) => setTimeout(resolve, 0));
  front.close(); // the session ends: the open stream ends, without a response
  assertEquals(await sse.rest(), []);
});

Deno.test("a second call with the id of a running one is refused (-32600); the first runs on", async () => {
  const slow = gate();
  const { front, calls } = rig(() => slow.promise);
  const first = new SseReader((await answer(front, call(9, { name: "a", arguments: {} }))).body!);
  await first.next(); // priming
  const again = await (await answer(front, call(9, { name: "a", arguments: {} }))).json();
  assertEquals(again.id, 9);
  assertEquals(again.error.code, -32600);
  assert(again.error.message.length < 120, "a short message");
  assertEquals(calls.length, 1, "the duplicate never reached the pipeline");
  front.noteCancels({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: 9 },
  });
  assert(calls[0].signal?.aborted, "the cancel reaches the running call");
  front.close();
  assertEquals(await first.rest(), []);
});

Deno.test("a resume takes a running call's stream over; close() aborts what still runs", async () => {
  const slow = gate();
  const { front, events, calls } = rig(() => slow.promise);
  const old = new SseReader((await answer(front, call(7, { name: "a", arguments: {} }))).body!);
  const priming = await old.next();
  const point = events.resumePoint(priming!.id!)!;
  const get = new Request("http://127.0.0.1/mcp", { headers: { accept: "text/event-stream" } });
  const resumed = front.resume(point, get);
  assert(resumed, "a running stream of the front is resumed by the front");
  assertEquals(await old.rest(), [], "the old connection ends");
  slow.release({ after: "resume" });
  const messages = messagesOf(await new SseReader(resumed.body!).rest());
  assertEquals(messages.map((m) => m.result.structuredContent), [{ after: "resume" }]);

  const hang = rig(() => new Promise(() => {}));
  const stream = new SseReader((await answer(hang.front, call(8, { name: "a" }))).body!);
  await stream.next();
  hang.front.close();
  assert(hang.calls[0].signal?.aborted, "close aborts running calls");
  assertEquals(await stream.rest(), []);
  assertEquals(calls.length, 1);
});

Deno.test("fastRequest leaves batches, unusual messages and refused headers to the SDK", () => {
  const ok = call(1, { name: "a" });
  assert(fastRequest(post(ok), ok), "a plain tools/call is the front's");
  const others: [string, unknown, Request?][] = [
    ["a batch", [ok]],
    ["another method", { ...ok, method: "logging/setLevel" }],
    ["an extra key", { ...ok, extra: 1 }],
    ["a fractional id", { ...ok, id: 1.5 }],
    ["a task-augmented call", call(1, { name: "a", task: {} })],
    [
      "a related task",
      call(1, { name: "a", _meta: { "io.modelcontextprotocol/related-task": {} } }),
    ],
    ["a bad progress token", call(1, { name: "a", _meta: { progressToken: true } })],
    ["params not an object", call(1, [1])],
    ["a bad cursor", { jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: 1 } }],
    ["Accept without SSE", ok, post(ok, RESUMABLE_PROTOCOL, "application/json")],
    ["an unknown protocol version", ok, post(ok, "1999-01-01")],
  ];
  for (const [what, body, req] of others) {
    assertEquals(fastRequest(req ?? post(body), body), undefined, what);
  }
});
