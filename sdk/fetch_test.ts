/// <reference lib="deno.ns" />
import { assert, assertEquals, assertMatch, assertRejects } from "../tests/helpers/assert.ts";
import { categoryForStatus, fetchJson, fetchText, pageFetch } from "./fetch.ts";
import { ToolError } from "./tool_error.ts";

/** Runs `fn` against a local server on a free port, and always shuts the server down. */
async function withServer(
  handler: (request: Request) => Response | Promise<Response>,
  fn: (base: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

/** The ToolError a promise rejects with. */
async function toolError(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    assert(error instanceof ToolError, `expected a ToolError, got ${error}`);
    return error;
  }
  throw new Error("the call succeeded");
}

const status = (code: number, body = "") => () => new Response(body, { status: code });

// --- categoryForStatus ---

const table: [number, string][] = [
  [400, "validation"],
  [401, "auth"],
  [403, "auth"],
  [404, "not_found"],
  [408, "timeout"],
  [410, "not_found"],
  [422, "validation"],
  [429, "rate_limit"],
  [500, "unavailable"],
  [502, "unavailable"],
  [503, "unavailable"],
  [504, "timeout"],
  [200, "internal"],
  [302, "internal"],
];

Deno.test("categoryForStatus maps each HTTP status to its error category", () => {
  assertEquals(
    table.map(([s]) => [s, categoryForStatus(s)]),
    table,
  );
});

// --- fetchJson / pageFetch against a local server ---

Deno.test("fetchJson returns the parsed body of a 200 answer", async () => {
  await withServer(() => Response.json({ items: [1, 2] }), async (base) => {
    assertEquals(await fetchJson(`${base}/items`), { items: [1, 2] });
  });
});

Deno.test("fetchJson asks for JSON and labels a string body as JSON", async () => {
  let seen: [string | null, string | null, string] = [null, null, ""];
  await withServer(async (request) => {
    seen = [
      request.headers.get("accept"),
      request.headers.get("content-type"),
      await request.text(),
    ];
    return Response.json({});
  }, async (base) => {
    await fetchJson(base, { method: "POST", body: '{"a":1}' });
  });
  assertEquals(seen, ["application/json", "application/json", '{"a":1}']);
});

Deno.test("a 401 answer is an auth error with code HTTP_401 and the body snippet", async () => {
  await withServer(status(401, "Please log in"), async (base) => {
    const error = await toolError(fetchJson(`${base}/me`));
    assertEquals([error.code, error.category, error.retryable], ["HTTP_401", "auth", false]);
    assertMatch(
      error.message,
      /GET http:\/\/127\.0\.0\.1:\d+\/me answered HTTP 401: Please log in/,
    );
    assertEquals((error.details as { status: number }).status, 401);
  });
});

Deno.test("a 404 answer is a not_found error", async () => {
  await withServer(status(404), async (base) => {
    const error = await toolError(pageFetch(`${base}/missing`));
    assertEquals([error.code, error.category], ["HTTP_404", "not_found"]);
  });
});

Deno.test("a 429 answer is a retryable rate_limit error", async () => {
  await withServer(status(429, "slow down"), async (base) => {
    const error = await toolError(pageFetch(base));
    assertEquals([error.code, error.category, error.retryable], ["HTTP_429", "rate_limit", true]);
  });
});

Deno.test("a 500 answer is a retryable unavailable error", async () => {
  await withServer(status(500), async (base) => {
    const error = await toolError(pageFetch(base, { method: "DELETE" }));
    assertEquals([error.code, error.category, error.retryable], ["HTTP_500", "unavailable", true]);
    assertMatch(error.message, /^DELETE /);
  });
});

Deno.test("a long error body is cut to a snippet", async () => {
  await withServer(status(400, "x".repeat(1000)), async (base) => {
    const error = await toolError(pageFetch(base));
    assert(error.message.endsWith("…"));
    assert(error.message.length < 400);
  });
});

Deno.test("a 200 answer that is not JSON is an INVALID_RESPONSE error", async () => {
  await withServer(() => new Response("<html>login</html>"), async (base) => {
    const error = await toolError(fetchJson(base));
    assertEquals([error.code, error.category], ["INVALID_RESPONSE", "internal"]);
    assertMatch(error.message, /did not answer JSON: <html>login<\/html>/);
  });
});

Deno.test("a server slower than timeoutMs gives a retryable TIMEOUT error", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await withServer(async () => {
    await released;
    return new Response("late");
  }, async (base) => {
    try {
      const error = await toolError(pageFetch(base, { timeoutMs: 50 }));
      assertEquals([error.code, error.category, error.retryable], ["TIMEOUT", "timeout", true]);
      assertMatch(error.message, /timed out after 50 ms/);
    } finally {
      release();
    }
  });
});

Deno.test("an abort by the caller's own signal is a NETWORK_ERROR, not a timeout", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await withServer(async () => {
    await released;
    return new Response("late");
  }, async (base) => {
    const controller = new AbortController();
    try {
      const pending = toolError(pageFetch(base, { signal: controller.signal }));
      setTimeout(() => controller.abort(), 20);
      const error = await pending;
      assertEquals(error.code, "NETWORK_ERROR");
    } finally {
      release();
    }
  });
});

// Documents a finding: a signal that is already aborted is never forwarded to fetch.
Deno.test("a caller signal that is already aborted stops the request", async () => {
  let requests = 0;
  await withServer(() => {
    requests++;
    return new Response("ok");
  }, async (base) => {
    await assertRejects(pageFetch(base, { signal: AbortSignal.abort() }), ToolError);
  });
  assertEquals(requests, 0);
});

Deno.test("a refused connection is a NETWORK_ERROR in the unavailable category", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const error = await toolError(pageFetch(`http://127.0.0.1:${port}/x`));
  assertEquals([error.code, error.category, error.retryable], [
    "NETWORK_ERROR",
    "unavailable",
    true,
  ]);
  assertMatch(error.message, new RegExp(`Request to http://127\\.0\\.0\\.1:${port}/x failed`));
});

Deno.test("fetchText returns the body of a 2xx answer", async () => {
  await withServer(() => new Response("hello"), async (base) => {
    assertEquals(await fetchText(base), "hello");
  });
});

Deno.test("pageFetch rejects with a ToolError, never a raw fetch error", async () => {
  await assertRejects(pageFetch("http://127.0.0.1:1/"), ToolError);
});

Deno.test("the timeout also covers reading the body (headers came, the body stalls)", async () => {
  let stalled: ReadableStreamDefaultController<Uint8Array> | undefined;
  const handler = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          stalled = controller;
          controller.enqueue(new TextEncoder().encode("{"));
        },
      }),
    );
  await withServer(handler, async (base) => {
    const error = await toolError(fetchText(`${base}/`, { timeoutMs: 100 }));
    assertEquals([error.code, error.category], ["TIMEOUT", "timeout"]);
    stalled?.close();
  });
});
