/**
 * End to end: the review fixes. REST calls cancel when the client goes away (during confirmation
 * and during dispatch, without leaking a concurrency slot), MCP sessions of the wrong endpoint,
 * live-client counting and idle expiry, the stdio bridge surviving a hub restart, mark-reviewed
 * never reviving old grants, http(s)-only navigation, and 400 for a malformed WebSocket upgrade.
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import {
  bridgeCommandArgs,
  DEMO_PLUGIN as CLI_DEMO,
  startCliHub,
} from "./helpers/cli_tool_fixture.ts";
import { ROOT, startHub } from "./helpers/hub_process.ts";
import { rawSend } from "./helpers/raw_http.ts";
import {
  delay,
  DEMO_PLUGIN,
  DEMO_TAB,
  demoFixture,
  errorOf,
  eventually,
  type Fixture,
  type Json,
  withFixture,
} from "./helpers/pipeline_fixture.ts";

const ASK = demoFixture("ask");
const AUTO = demoFixture("auto");

const sent = (f: Fixture, method: string) => f.ext.received.filter((m) => m.method === method);

/** `POST /tools/<name>/call` that the test can abort; resolves with the fetch's fate. */
function abortableCall(f: Fixture, name: string, args: Json) {
  const controller = new AbortController();
  const done = fetch(`${f.url}/tools/${name}/call`, {
    method: "POST",
    headers: { authorization: `Bearer ${f.secret}`, "content-type": "application/json" },
    body: JSON.stringify({ arguments: args }),
    signal: controller.signal,
  }).then(async (r) => (await r.body?.cancel(), "answered"), (e: Error) => e.name);
  return { abort: () => controller.abort(), done };
}

Deno.test("REST: aborting during confirmation cancels the call; a late allow dispatches nothing", async () => {
  await withFixture(ASK, async (f) => {
    const asked = f.ext.next("confirmation.request");
    const call = abortableCall(f, "demo__echo", { text: "bye" });
    const { id } = (await asked).params;
    const ended = f.ext.waitFor((m) =>
      m.method === "tool.invocationEnd" && m.params.invocationId === id
    );
    call.abort();
    assertEquals(await call.done, "AbortError");
    const end = (await ended).params;
    assertEquals(end.success, false);
    assertEquals(end.error.code, "CANCELLED");
    assertEquals(end.tool, "demo__echo");

    f.ext.confirm(id, "allow");
    await delay(300);
    assertEquals(sent(f, "tool.dispatch").length, 0, "a late allow runs nothing");
    const [entry] = (await f.api("GET", "/audit")).body;
    assertEquals(entry.tool, "demo__echo");
    assertEquals(entry.success, false);
    assertEquals(entry.error.code, "CANCELLED");
  });
});

Deno.test("REST: aborting during dispatch cancels the call and releases its concurrency slot", async () => {
  await withFixture(AUTO, async (f) => {
    f.ext.onDispatch(() => "hang");
    // Fill every slot of the plugin (25), then let every client go away.
    const calls = Array.from(
      { length: 25 },
      (_, i) => abortableCall(f, "demo__echo", { text: `${i}` }),
    );
    await eventually(() => sent(f, "tool.dispatch").length === 25, "25 dispatches");
    for (const call of calls) call.abort();
    assertEquals(new Set(await Promise.all(calls.map((c) => c.done))), new Set(["AbortError"]));
    await eventually(
      () =>
        sent(f, "tool.invocationEnd").filter((m) => m.params.error?.code === "CANCELLED").length ===
          25,
      "25 CANCELLED invocationEnd",
    );
    assert(sent(f, "tool.invocationEnd").every((m) => m.params.success === false));

    // Were a slot leaked, one of 25 new concurrent calls would be CONCURRENCY_LIMIT.
    f.ext.onDispatch((p) => ({ ok: true, value: { echo: p.input } }));
    const replies = await Promise.all(
      Array.from({ length: 25 }, (_, i) => f.call("demo__echo", { text: `again ${i}` })),
    );
    assertEquals(
      replies.map((r) => r.status),
      Array(25).fill(200),
      JSON.stringify(replies[0].body),
    );
    assertEquals(replies[3].body.structuredContent, { echo: { text: "again 3" } });
  });
});

/** Opens a session with a bare `initialize` (no GET event stream); returns its id. */
async function rawSession(f: Fixture, path: "/mcp" | "/mcp/gateway"): Promise<string> {
  const res = await mcpPost(f, path, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    },
  });
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

Deno.test("MCP: a /mcp/gateway session sent to /mcp is 404 naming /mcp/gateway", async () => {
  await withFixture({ plugins: [DEMO_PLUGIN] }, async (f) => {
    const id = await rawSession(f, "/mcp/gateway");
    const wrong = await mcpPost(f, "/mcp", LIST, id);
    assertEquals(wrong.status, 404);
    assertMatch(JSON.parse(wrong.body).error.message, /\/mcp\/gateway/);
    assertEquals((await mcpPost(f, "/mcp/gateway", LIST, id)).status, 200, "still fine there");
  });
});

Deno.test("MCP: mcpClients counts an open event stream, and drops after close() without DELETE", async () => {
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

Deno.test("MCP: a session idle for 31 minutes with no open stream expires (404)", async () => {
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

Deno.test("stdio bridge: the same client keeps working across a hub restart on the same port", async () => {
  const hub = await startCliHub({
    plugins: [CLI_DEMO],
    config: { permissions: { demo: { permission: "auto", tools: {} } } },
    extension: false,
  });
  const port = hub.port;
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: bridgeCommandArgs(port),
    env: { HUB_CONFIG_DIR: hub.dir, HUB_SKIP_PKG_DISCOVERY: "1", NO_COLOR: "1" },
    cwd: ROOT,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "review-fixes", version: "1.0.0" });
  try {
    await client.connect(transport);
    const before = (await client.listTools()).tools.map((t) => t.name).sort();
    assert(before.includes("demo__echo"));

    assertEquals(await hub.stopHub(), 0);
    hub.hub = await startHub({ configDir: hub.dir, port });
    assertEquals(hub.port, port);

    const after = (await client.listTools()).tools.map((t) => t.name).sort();
    assertEquals(after, before, stderr);
    const tabs = await client.callTool({ name: "plugin_list_tabs", arguments: {} });
    assertEquals(tabs.isError, undefined, JSON.stringify(tabs) + stderr);
    assertEquals((tabs.structuredContent as Json).extensionConnected, false);
    assertMatch(stderr, /lost this session/);
  } finally {
    await client.close();
    assertEquals(await hub.close(), 0);
  }
});

Deno.test("plugin_mark_reviewed never revives grants of an earlier reviewed version", async () => {
  await withFixture({
    plugins: [DEMO_PLUGIN], // version 1.0.0
    config: { permissions: { demo: { permission: "auto", reviewedVersion: "0.9.0" } } },
    tabs: { demo: [DEMO_TAB] },
  }, async (f) => {
    const loaded = (await f.readConfig()).permissions.demo;
    assertEquals([loaded.permission, loaded.reviewedVersion], ["off", "0.9.0"], "reset at load");

    const refused = await f.call("demo__echo", { text: "x" });
    assertEquals(refused.status, 403);
    assertEquals(errorOf(refused.body).code, "PERMISSION_OFF");
    assertMatch(errorOf(refused.body).message, /version 1\.0\.0 since it was reviewed/);
    assertMatch(errorOf(refused.body).message, /plugin_mark_reviewed/);

    const marked = await f.call("plugin_mark_reviewed", { plugin: "demo" });
    assertEquals(marked.body.structuredContent, {
      plugin: "demo",
      reviewedVersion: "1.0.0",
      permission: "off",
    });
    const entry = (await f.readConfig()).permissions.demo;
    assertEquals([entry.permission, entry.reviewedVersion], ["off", "1.0.0"]);
    assertEquals(errorOf((await f.call("demo__echo", { text: "x" })).body).code, "PERMISSION_OFF");

    // Old grants written back without a reload (a reset that never happened): still not revived.
    const stale = { permission: "auto", tools: { echo: "auto" }, reviewedVersion: "0.9.0" };
    const config = await f.readConfig();
    config.permissions.demo = stale;
    await Deno.writeTextFile(f.configPath, JSON.stringify(config, null, 2));
    const again = await f.call("plugin_mark_reviewed", { plugin: "demo" });
    assertEquals(again.body.structuredContent.permission, "off");
    const final = (await f.readConfig()).permissions.demo;
    assertEquals([final.permission, final.tools, final.reviewedVersion], ["off", {}, "1.0.0"]);
    assertEquals(sent(f, "tool.dispatch").length, 0);
  });
});

Deno.test("browser_navigate_tab takes only http(s) URLs; waitForLoad defaults to true", async () => {
  await withFixture({
    extension: true,
    config: { permissions: { browser: { permission: "auto" } } },
  }, async (f) => {
    f.ext.onDispatch((p) => ({ ok: true, value: { url: p.input.url, title: "Example" } }));
    for (const url of ["javascript:alert(1)", "file:///etc/passwd"]) {
      const bad = await f.call("browser_navigate_tab", { url });
      assertEquals(bad.status, 400, url);
      assertEquals(errorOf(bad.body).code, "INVALID_ARGUMENTS", url);
    }
    assertEquals(sent(f, "tool.dispatch").length, 0, "nothing dispatched");

    const ok = await f.call("browser_navigate_tab", { url: "https://example.com/" });
    assertEquals(ok.status, 200, JSON.stringify(ok.body));
    const [dispatch] = sent(f, "tool.dispatch");
    assertEquals(dispatch.params.method, "tabs.navigate");
    assertEquals(dispatch.params.kind, "browser");
    assertEquals(dispatch.params.input, { url: "https://example.com/", waitForLoad: true });
  });
});

Deno.test("/ws: an upgrade without Sec-WebSocket-Key is 400 BAD_UPGRADE; the hub keeps serving", async () => {
  await withFixture({}, async (f) => {
    const request = [
      "GET /ws HTTP/1.1",
      `Host: 127.0.0.1:${f.port}`,
      "Upgrade: websocket",
      "Connection: Upgrade, close", // close: the server ends the connection after answering
      "Sec-WebSocket-Version: 13",
      `Sec-WebSocket-Protocol: hub, ${f.secret}`,
    ].join("\r\n") + "\r\n\r\n";
    const reply = await rawSend(f.port, request, 5_000);
    assertEquals(reply.status, 400, JSON.stringify(reply));
    const body = JSON.parse(
      reply.body.slice(reply.body.indexOf("{"), reply.body.lastIndexOf("}") + 1),
    );
    assertEquals(body.error.code, "BAD_UPGRADE");
    assertMatch(body.error.message, /sec-websocket-key/i);
    assertEquals((await f.health()).extensionConnected, false);
  });
});
