/**
 * End to end: the rules of MCP sessions on `/mcp` and `/mcp/gateway`. At most 5 new sessions a
 * minute; unknown, closed or expired ids get 404, as does a session sent to the other endpoint;
 * DELETE closes a session; `mcpClients` counts sessions with a recent request or an open event
 * stream; a session idle for 30 minutes with no open stream expires.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { initializeRequest, type StreamableHTTPClientTransport } from "./helpers/mcp_client.ts";
import {
  DEMO_PLUGIN,
  eventually,
  type Fixture,
  type Json,
  withFixture,
} from "./helpers/pipeline_fixture.ts";

function initialize(url: string, secret: string, path = "/mcp") {
  return fetch(`${url}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${secret}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify(initializeRequest("raw-test")),
  });
}

Deno.test("MCP sessions: 5 initializes a minute, then 429 with Retry-After: 60", async () => {
  await withFixture({}, async (f) => {
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const res = await initialize(f.url, f.secret);
      assertEquals(res.status, 200, `initialize ${i}`);
      const id = res.headers.get("mcp-session-id");
      assert(id, "a session id comes back");
      ids.push(id);
      assertMatch(await res.text(), /"serverInfo"/);
    }
    assertEquals(new Set(ids).size, 5);
    const sixth = await initialize(f.url, f.secret);
    assertEquals(sixth.status, 429);
    assertEquals(sixth.headers.get("retry-after"), "60");
    assertMatch((await sixth.json()).error.message, /at most 5 per minute/);
    assertEquals((await f.health()).mcpClients, 5);
  });
});

Deno.test("MCP sessions: unknown ids get 404; DELETE closes a session", async () => {
  await withFixture({}, async (f) => {
    const headers = (id: string) => ({
      authorization: `Bearer ${f.secret}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-06-18",
    });
    const list = (id: string) =>
      fetch(`${f.url}/mcp`, {
        method: "POST",
        headers: headers(id),
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });

    const unknown = await list(crypto.randomUUID());
    assertEquals(unknown.status, 404);
    assertMatch((await unknown.json()).error.message, /Session not found/);

    const init = await initialize(f.url, f.secret);
    const id = init.headers.get("mcp-session-id")!;
    await init.body?.cancel();
    const initialized = await fetch(`${f.url}/mcp`, {
      method: "POST",
      headers: headers(id),
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    assertEquals(initialized.status, 202);
    await initialized.body?.cancel();
    const ok = await list(id);
    assertEquals(ok.status, 200);
    assertMatch(await ok.text(), /plugin_list_tabs/);
    // A session of /mcp is not one of /mcp/gateway.
    const other = await fetch(`${f.url}/mcp/gateway`, {
      method: "POST",
      headers: headers(id),
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
    });
    assertEquals(other.status, 404);
    await other.body?.cancel();

    const client = await f.mcp();
    assertEquals((await f.health()).mcpClients, 2);
    const deleted = await fetch(`${f.url}/mcp`, { method: "DELETE", headers: headers(id) });
    assertEquals(deleted.status, 200);
    await deleted.body?.cancel();
    const gone = await list(id);
    assertEquals(gone.status, 404);
    await gone.body?.cancel();
    assertEquals((await f.health()).mcpClients, 1);

    // The SDK client ends its own session with DELETE too.
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await eventually(async () => (await f.health()).mcpClients === 0, "mcpClients to drop to 0");
  });
});

/** Opens a session with a bare `initialize` (no GET event stream); returns its id. */
async function rawSession(f: Fixture, path: "/mcp" | "/mcp/gateway"): Promise<string> {
  const res = await mcpPost(f, path, initializeRequest("raw"));
  assertEquals(res.status, 200, res.body);
  const id = res.headers.get("mcp-session-id");
  assert(id, "initialize returns a session id");
  return id;
}

async function mcpPost(f: Fixture, path: string, body: Json, session?: string) {
  const res = await fetch(`${f.url}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${f.secret}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(session ? { "mcp-session-id": session } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };

Deno.test("MCP sessions: a /mcp/gateway session sent to /mcp is 404 naming /mcp/gateway", async () => {
  await withFixture({ plugins: [DEMO_PLUGIN] }, async (f) => {
    const id = await rawSession(f, "/mcp/gateway");
    const wrong = await mcpPost(f, "/mcp", LIST, id);
    assertEquals(wrong.status, 404);
    assertMatch(JSON.parse(wrong.body).error.message, /\/mcp\/gateway/);
    assertEquals((await mcpPost(f, "/mcp/gateway", LIST, id)).status, 200, "still fine there");
  });
});

Deno.test("MCP sessions: mcpClients counts an open event stream, and drops after close() without DELETE", async () => {
  let offset = 0;
  const clock = () => Date.now() + offset;
  await withFixture({ plugins: [DEMO_PLUGIN], hub: { clock } }, async (f) => {
    const client = await f.mcp();
    assertEquals((await f.health()).mcpClients, 1);
    // Past the 60 s "recent request" window, only the open GET stream keeps the client counted.
    offset += 61_000;
    await eventually(async () => (await f.health()).mcpClients === 1, "the GET stream to count");
    offset += 61_000;
    assertEquals((await f.health()).mcpClients, 1, "the stream alone counts");
    await client.close(); // aborts the stream; no DELETE is sent
    offset += 61_000;
    await eventually(async () => (await f.health()).mcpClients === 0, "mcpClients to drop to 0");
  });
});

Deno.test("MCP sessions: a session idle for 31 minutes with no open stream expires (404)", async () => {
  let offset = 0;
  const clock = () => Date.now() + offset;
  await withFixture({ plugins: [DEMO_PLUGIN], hub: { clock } }, async (f) => {
    const id = await rawSession(f, "/mcp");
    assertEquals((await mcpPost(f, "/mcp", LIST, id)).status, 200);
    offset += 29 * 60_000;
    assertEquals((await mcpPost(f, "/mcp", LIST, id)).status, 200, "29 idle minutes are fine");
    offset += 31 * 60_000;
    const expired = await mcpPost(f, "/mcp", LIST, id);
    assertEquals(expired.status, 404);
    assertMatch(JSON.parse(expired.body).error.message, /expired after 30 idle minutes/);
    assertEquals((await f.health()).mcpClients, 0);
  });
});
