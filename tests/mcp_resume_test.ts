/**
 * Resumable Streamable HTTP: a client whose SSE stream drops in the middle of a slow tool call
 * reconnects with `GET` and `Last-Event-ID` and still gets the result, whether the call finished
 * while it was away or finishes after it came back. Raw requests show the wire format (a priming
 * event with an id and `retry`); the official SDK client shows that real clients resume by
 * themselves. Event ids from another session, or made up, are refused with a 400.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { demoFixture, eventually, type Fixture, withFixture } from "./helpers/pipeline_fixture.ts";
import type { DispatchResult } from "../protocol/events.ts";
import { messagesOf, RawMcpSession, type SseEvent, SseReader } from "./helpers/mcp_raw.ts";
import { Client, connectMcp, StreamableHTTPClientTransport } from "./helpers/mcp_client.ts";
import { RETRY_MS } from "../server/mcp/sessions.ts";
import { unmarked } from "./helpers/page_content.ts";

/** `promise`, or a failure naming `what` after 20 s, so a regression fails instead of hanging. */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 20_000);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The demo tool's dispatches wait until the test releases them. */
function slowTool(f: Fixture): { started: Promise<void>; release: (text: string) => void } {
  let release!: (text: string) => void;
  let started!: () => void;
  const reply = new Promise<DispatchResult>((resolve) => {
    release = (text) => resolve({ ok: true, value: { said: text } });
  });
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  f.ext.onDispatch(() => (started(), reply));
  return { started: startedPromise, release };
}

/** Starts `demo__echo` on a raw session and reads its stream's first event (the priming event). */
async function startCall(session: RawMcpSession) {
  const { id, sse } = await session.request("tools/call", {
    name: "demo__echo",
    arguments: { text: "slow" },
  });
  const priming = await sse.next();
  assert(priming?.id, `the stream starts with an event id: ${JSON.stringify(priming)}`);
  return { id, sse, priming: priming as SseEvent & { id: string } };
}

async function auditCount(f: Fixture): Promise<number> {
  return (await f.api("GET", "/audit?tool=demo__echo")).body.length;
}

Deno.test("a POST stream starts with a priming event: an id, retry, and no data", async () => {
  await withFixture(demoFixture("auto"), async (f) => {
    const tool = slowTool(f); // a call that is not answered at once gets a stream
    const session = await RawMcpSession.open(`${f.url}/mcp`, f.secret);
    const { id, sse, priming } = await startCall(session);
    assertEquals(priming.data, "");
    assertEquals(priming.retry, RETRY_MS);
    tool.release("slow");
    const rest = messagesOf(await sse.rest());
    assertEquals(rest.length, 1);
    assertEquals(rest[0].id, id);
    assertEquals(unmarked(rest[0].result).structuredContent, { said: "slow" });
    await session.close();
  });
});

Deno.test("the result of a call that finished while the stream was down is replayed on GET + Last-Event-ID", async () => {
  await withFixture(demoFixture("auto"), async (f) => {
    const tool = slowTool(f);
    const session = await RawMcpSession.open(`${f.url}/mcp`, f.secret);
    const { id, sse, priming } = await startCall(session);
    await within(tool.started, "the tool call to reach the extension");
    await sse.cancel(); // the connection drops mid-call
    tool.release("while away");
    await eventually(async () => (await auditCount(f)) === 1, "the call to finish");

    const res = await session.resume(priming.id);
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("content-type"), "text/event-stream");
    const events = await new SseReader(res.body!).rest(); // ends: nothing more will come
    const messages = messagesOf(events);
    assertEquals(messages.length, 1, JSON.stringify(events));
    assertEquals(messages[0].id, id);
    assertEquals(unmarked(messages[0].result).structuredContent, { said: "while away" });
    assert(events.at(-1)?.id, "replayed events keep their ids");
    await session.close();
  });
});

Deno.test("a client that reconnects before the call finishes gets the result on the resumed stream", async () => {
  await withFixture(demoFixture("auto"), async (f) => {
    const tool = slowTool(f);
    const session = await RawMcpSession.open(`${f.url}/mcp`, f.secret);
    const { id, sse, priming } = await startCall(session);
    await within(tool.started, "the tool call to reach the extension");
    await sse.cancel();

    const res = await session.resume(priming.id);
    assertEquals(res.status, 200);
    const resumed = new SseReader(res.body!);
    tool.release("after reconnect");
    const messages = messagesOf(await resumed.rest());
    assertEquals(messages.map((m) => m.id), [id]);
    assertEquals(unmarked(messages[0].result).structuredContent, { said: "after reconnect" });
    assertEquals(await auditCount(f), 1, "the call ran once");
    await session.close();
  });
});

Deno.test("a resume while the old stream still looks open (half-open connection) takes the stream over", async () => {
  await withFixture(demoFixture("auto"), async (f) => {
    const tool = slowTool(f);
    const session = await RawMcpSession.open(`${f.url}/mcp`, f.secret);
    const { id, sse: old, priming } = await startCall(session);
    await within(tool.started, "the tool call to reach the extension");
    const res = await session.resume(priming.id); // no 409: the client knows better than the server
    assertEquals(res.status, 200);
    tool.release("taken over");
    const messages = messagesOf(await new SseReader(res.body!).rest());
    assertEquals(messages.map((m) => m.id), [id]);
    assertEquals(await old.rest(), [], "the old stream ends without the result");
    await session.close();
  });
});

Deno.test("a resumed stream counts as a connected client while open, and stops counting when it ends", async () => {
  let now = Date.now();
  await withFixture({ ...demoFixture("auto"), hub: { clock: () => now } }, async (f) => {
    const tool = slowTool(f);
    const session = await RawMcpSession.open(`${f.url}/mcp`, f.secret);
    const { sse, priming } = await startCall(session);
    await within(tool.started, "the tool call to reach the extension");
    await sse.cancel();
    const resumed = new SseReader((await session.resume(priming.id)).body!); // the call still runs
    now += 61_000; // past the "recent request" window: only open streams count
    assertEquals((await f.health()).mcpClients, 1, "the open resumed stream is a connected client");

    tool.release("done");
    assertEquals(messagesOf(await resumed.rest()).length, 1);
    const again = await session.resume(priming.id); // finished: replayed here, then it ends
    assertEquals(messagesOf(await new SseReader(again.body!).rest()).length, 1);
    now += 61_000;
    await eventually(async () => (await f.health()).mcpClients === 0, "streams to stop counting");
    await session.close();
  });
});

Deno.test("a flood of log notifications while away keeps at most 1,000 events and never pushes out a result", async () => {
  // The store's own bound is under test: the plugin log rate limit (which drops most of such a
  // flood before it is stored) is lifted here.
  const unlimited = { perSecond: 1e9, burst: 1e9 };
  const limits = { perTab: unlimited, perPlugin: unlimited, total: unlimited };
  const fixture = demoFixture("auto");
  await withFixture({ ...fixture, hub: { ...fixture.hub, pluginLogLimits: limits } }, async (f) => {
    const tool = slowTool(f);
    const session = await RawMcpSession.open(`${f.url}/mcp`, f.secret);
    const get = await fetch(session.url, {
      headers: session.headers({ accept: "text/event-stream" }),
    });
    const notices = new SseReader(get.body!);
    f.ext.notify("plugin.log", { plugin: "demo", entries: [{ level: "info", message: "first" }] });
    const first = await notices.next();
    assert(first?.id, "GET-stream events have ids");
    await notices.cancel();

    const { id, sse, priming } = await startCall(session);
    await within(tool.started, "the tool call to reach the extension");
    await sse.cancel();
    tool.release("kept");
    await eventually(async () => (await auditCount(f)) === 1, "the call to finish");
    for (let batch = 0; batch < 3; batch++) {
      const entries = Array.from({ length: 500 }, (_, i) => ({
        level: "info",
        message: `flood ${batch * 500 + i}`,
      }));
      f.ext.notify("plugin.log", { plugin: "demo", entries });
    }
    await f.ext.request("config.getState"); // the flood before it has been handled

    const replayed = new SseReader((await session.resume(first.id)).body!);
    const seen: string[] = [];
    while (!seen.at(-1)?.includes("flood 1499")) {
      const event = await replayed.next();
      assert(event, `the replay ended early after ${seen.length} events`);
      seen.push(event.data);
    }
    await replayed.cancel();
    assert(seen.length <= 1_000, `${seen.length} events replayed`);
    assert(!seen.some((d) => d.includes('"flood 0"')), "the oldest notifications were dropped");

    const result = messagesOf(await new SseReader((await session.resume(priming.id)).body!).rest());
    assertEquals(result.map((m) => [m.id, unmarked(m.result).structuredContent]), [[id, {
      said: "kept",
    }]]);
    await session.close();
  });
});

Deno.test("the official SDK client resumes a dropped call stream by itself and gets the result", async () => {
  await withFixture(demoFixture("auto"), async (f) => {
    const tool = slowTool(f);
    let dropped!: () => void;
    const droppedOnce = new Promise<void>((resolve) => (dropped = resolve));
    const gets: (string | null)[] = [];
    // Cuts the tools/call response stream right after its priming event, like a lost connection.
    const cutting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const headers = new Headers(init?.headers);
      if (init?.method === "GET") gets.push(headers.get("last-event-id"));
      if (init?.method !== "POST" || !String(init.body).includes('"tools/call"') || !res.body) {
        return res;
      }
      const reader = res.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { value, done } = await reader.read();
          if (done) return controller.close();
          controller.enqueue(value);
          if (new TextDecoder().decode(value).includes("retry:")) {
            await reader.cancel();
            controller.error(new TypeError("connection reset (test)"));
            dropped();
          }
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const client = new Client({ name: "resume-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${f.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${f.secret}` } },
        fetch: cutting,
      }),
    );
    try {
      const call = client.callTool({ name: "demo__echo", arguments: { text: "x" } });
      await within(droppedOnce, "the test to cut the call's stream");
      await within(tool.started, "the tool call to reach the extension");
      tool.release("resumed by the SDK");
      const result = await call;
      assertEquals(unmarked(result).structuredContent, { said: "resumed by the SDK" });
      assert(
        gets.some((id) => id !== null),
        `the client reconnected with Last-Event-ID: ${JSON.stringify(gets)}`,
      );
    } finally {
      await client.close();
    }
  });
});

Deno.test("Last-Event-ID from another session, made up or oversized is refused with 400", async () => {
  await withFixture(demoFixture("auto"), async (f) => {
    const a = await RawMcpSession.open(`${f.url}/mcp`, f.secret, "a");
    const b = await RawMcpSession.open(`${f.url}/mcp`, f.secret, "b");
    const tool = slowTool(f);
    const { sse, priming } = await startCall(a);
    tool.release("done");
    await sse.rest();

    for (const lastEventId of [priming.id, "made-up", "x.1._GET_stream", "e".repeat(5_000)]) {
      const res = await b.resume(lastEventId);
      const body = await res.json();
      assertEquals(res.status, 400, lastEventId.slice(0, 40));
      assertEquals(body.error.code, -32000);
      assert(body.error.message.includes("Last-Event-ID is unknown to this session"), body);
    }
    // The owner still resumes it (a finished stream: the result again, then the end).
    const own = await a.resume(priming.id);
    assertEquals(own.status, 200);
    assertEquals(messagesOf(await new SseReader(own.body!).rest()).length, 1);
    assertEquals((await f.health()).status, "ok");
    await a.close();
    await b.close();
  });
});

Deno.test("the SDK client still works with the hub's priming events (list, call, notifications)", async () => {
  await withFixture(demoFixture("auto"), async (f) => {
    const client = await connectMcp(f.url, f.secret);
    try {
      const { tools } = await client.listTools();
      assert(tools.some((t) => t.name === "demo__echo"));
      const result = await client.callTool({ name: "demo__echo", arguments: { text: "hi" } });
      assertEquals(unmarked(result).structuredContent, { echo: { text: "hi" } });
    } finally {
      await client.close();
    }
  });
});

Deno.test("a call answered at once is one JSON body; tools/list and ping too", async () => {
  await withFixture(demoFixture("auto"), async (f) => {
    const session = await RawMcpSession.open(`${f.url}/mcp`, f.secret);
    for (
      const [method, params] of [
        ["tools/call", { name: "demo__echo", arguments: { text: "now" } }],
        ["tools/list", {}],
        ["ping", undefined],
      ] as const
    ) {
      const res = await session.post({ jsonrpc: "2.0", id: method, method, params });
      assertEquals(res.headers.get("content-type"), "application/json", method);
      const body = await res.json();
      assertEquals([body.id, "result" in body], [method, true], method);
    }
    await session.close();
  });
});
