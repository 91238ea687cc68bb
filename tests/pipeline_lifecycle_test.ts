/**
 * End to end: what surrounds a tool call. A newer extension connection replacing the old one,
 * the 25-calls-per-plugin limit, `tool.invocationStart`/`tool.invocationEnd`, the audit log
 * (`GET /audit`, audit.log, `/health` auditSummary) and the MCP session rules.
 */
import { initializeRequest } from "./helpers/mcp_client.ts";
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { FakeExtension } from "./helpers/fake_extension.ts";
import type { StreamableHTTPClientTransport } from "./helpers/mcp_client.ts";
import {
  DEMO_TAB,
  demoFixture,
  errorOf,
  eventually,
  type Json,
  withFixture,
} from "./helpers/pipeline_fixture.ts";

const DEMO = demoFixture("auto", { other: "off" });

Deno.test("a new extension connection replaces the old one, whose pending call fails at once", async () => {
  await withFixture(DEMO, async (f) => {
    const first = f.ext;
    first.onDispatch(() => "hang");
    const pending = f.call("demo__echo", { text: "x" });
    await first.waitFor((m) => m.method === "tool.dispatch");

    const started = performance.now();
    const second = await FakeExtension.connect(f.port, f.secret);
    f.extensions.push(second);
    const reply = await pending;
    assert(performance.now() - started < 1_000, "the pending call failed at once");
    assertEquals(reply.status, 503);
    assertEquals(errorOf(reply.body).code, "EXTENSION_DISCONNECTED");
    assertMatch(errorOf(reply.body).message, /replaced/);

    const closed = await first.closed;
    assertEquals(closed.code, 4000);
    const sync = await second.waitFor((m) => m.method === "sync.full");
    assertEquals(sync.params.plugins.map((p: Json) => p.name), ["demo"]);
    const health = await f.health();
    assertEquals(health.extensionConnected, true);
    assertEquals(health.extensionConnections, 1);
    // Tabs reported over the old connection are gone with it.
    assertEquals(health.pluginDetails[0].tabState, "closed");

    await second.setTabs("demo", [DEMO_TAB]);
    const again = await f.call("demo__echo", { text: "y" });
    assertEquals(again.status, 200);
    assertEquals(again.body.structuredContent, { echo: { text: "y" } });
  });
});

Deno.test("26 concurrent calls to one plugin: 25 run, exactly one gets CONCURRENCY_LIMIT", async () => {
  await withFixture(DEMO, async (f) => {
    f.ext.onDispatch(() => "hang");
    const calls = Array.from({ length: 26 }, (_, i) => f.call("demo__echo", { text: `c${i}` }));
    const first = await Promise.race(calls.map((c, i) => c.then((r) => ({ i, r }))));
    assertEquals(first.r.status, 429);
    const error = errorOf(first.r.body);
    assertEquals(error.code, "CONCURRENCY_LIMIT");
    assertEquals(error.category, "rate_limit");
    assertEquals(error.retryable, true);
    assertMatch(error.message, /limit is 25/);
    assertMatch(error.message, /[Ww]ait for some of them to finish/);

    const hung = () => f.ext.received.filter((m) => m.method === "tool.dispatch");
    await eventually(() => hung().length === 25, "25 dispatches");
    // While they hang, an MCP call gets the same error as an isError result.
    const client = await f.mcp();
    const viaMcp = await client.callTool({ name: "demo__echo", arguments: { text: "mcp" } });
    assertEquals(viaMcp.isError, true);
    assertEquals(errorOf(viaMcp).code, "CONCURRENCY_LIMIT");
    assertEquals(errorOf(viaMcp).category, "rate_limit");
    // Another plugin's limit is separate: hub management tools still run.
    const tabs = await f.call("plugin_list_tabs");
    assertEquals(tabs.status, 200);

    for (const m of hung()) {
      f.ext.sendRaw(JSON.stringify({
        jsonrpc: "2.0",
        id: m.id,
        result: { ok: true, value: { answered: m.params.input.text } },
      }));
    }
    const rest = await Promise.all(calls.filter((_, i) => i !== first.i));
    assertEquals(rest.map((r) => r.status), Array(25).fill(200));

    f.ext.onDispatch((p) => ({ ok: true, value: { after: p.input.text } }));
    const after = await Promise.all([1, 2, 3].map((i) => f.call("demo__echo", { text: `a${i}` })));
    assertEquals(after.map((r) => r.status), [200, 200, 200]);
  });
});

Deno.test("tool.invocationStart and tool.invocationEnd pair up by invocationId", async () => {
  await withFixture(DEMO, async (f) => {
    await f.call("demo__echo", { text: "ok" });
    f.ext.onDispatch(() => ({
      ok: false,
      error: { code: "BROKEN", message: "It broke.", category: "internal", retryable: false },
    }));
    await f.call("demo__echo", { text: "fails" });
    await f.call("demo__other", { text: "off" });
    await f.call("demo__missing", {});

    await eventually(
      () => f.ext.received.filter((m) => m.method === "tool.invocationEnd").length === 3,
      "three invocationEnd notifications",
    );
    const starts = f.ext.received.filter((m) => m.method === "tool.invocationStart");
    const ends = f.ext.received.filter((m) => m.method === "tool.invocationEnd");
    assertEquals(starts.length, 3, "unknown tools start no invocation");
    for (const [i, start] of starts.entries()) {
      const end = ends[i].params;
      assertEquals(end.invocationId, start.params.invocationId);
      assertEquals(end.tool, start.params.tool);
      assertEquals(end.plugin, "demo");
      assertEquals(typeof start.params.startedAt, "number");
      assert(Number.isFinite(end.durationMs) && end.durationMs >= 0);
    }
    assertEquals(new Set(starts.map((s) => s.params.invocationId)).size, 3);
    assertEquals(ends.map((e) => e.params.success), [true, false, false]);
    assertEquals(ends[0].params.error, undefined);
    assertEquals(ends[1].params.error, {
      code: "BROKEN",
      message: "It broke.",
      category: "internal",
      retryable: false,
    });
    assertEquals(ends[2].params.error.code, "PERMISSION_OFF");
    // The dispatch of a call happens between its start and its end.
    const order = f.ext.received.map((m) => m.method);
    assert(order.indexOf("tool.invocationStart") < order.indexOf("tool.dispatch"));
    assert(order.indexOf("tool.dispatch") < order.indexOf("tool.invocationEnd"));
  });
});

Deno.test("every call to an existing tool is audited, newest first; unknown tools are not", async () => {
  await withFixture(DEMO, async (f) => {
    const client = await f.mcp();
    await f.call("demo__echo", { text: "one" }); // success
    await f.call("demo__echo", {}); // validation
    await client.callTool({ name: "demo__other", arguments: { text: "x" } }); // permission off
    await f.call("demo__nope", {}); // unknown: not audited
    await f.call("browser_list_tabs"); // browser tool, off
    await client.callTool({ name: "plugin_list_tabs", arguments: {} }); // management tool

    const audit = await f.api("GET", "/audit");
    assertEquals(audit.status, 200);
    const entries: Json[] = audit.body;
    assertEquals(
      entries.map((e) => [e.tool, e.plugin, e.success, e.error?.code]),
      [
        ["plugin_list_tabs", "hub", true, undefined],
        ["browser_list_tabs", "browser", false, "PERMISSION_OFF"],
        ["demo__other", "demo", false, "PERMISSION_OFF"],
        ["demo__echo", "demo", false, "INVALID_ARGUMENTS"],
        ["demo__echo", "demo", true, undefined],
      ],
    );
    for (const entry of entries) {
      assertMatch(entry.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert(Number.isInteger(entry.durationMs) && entry.durationMs >= 0);
      const keys = ["durationMs", "plugin", "success", "timestamp", "tool"];
      assertEquals(Object.keys(entry).sort(), entry.success ? keys : [...keys, "error"].sort());
    }
    assertEquals(Object.keys(entries[1].error).sort(), ["category", "code", "message"]);
    assertEquals(entries[1].error.category, "permission");
    assertEquals(entries[3].error.category, "validation");
    assert(
      Date.parse(entries[0].timestamp) >= Date.parse(entries[4].timestamp),
      "newest first",
    );

    const tools = (r: Json) => r.body.map((e: Json) => e.tool);
    assertEquals(tools(await f.api("GET", "/audit?plugin=demo")), [
      "demo__other",
      "demo__echo",
      "demo__echo",
    ]);
    assertEquals(tools(await f.api("GET", "/audit?tool=demo__echo")), ["demo__echo", "demo__echo"]);
    assertEquals((await f.api("GET", "/audit?tool=demo__echo&success=false")).body.length, 1);
    assertEquals((await f.api("GET", "/audit?success=true")).body.length, 2);
    assertEquals(tools(await f.api("GET", "/audit?limit=1")), ["plugin_list_tabs"]);
    assertEquals((await f.api("GET", "/audit?plugin=nope")).body, []);
    for (const bad of ["limit=0", "limit=501", "limit=ten", "success=maybe"]) {
      const reply = await f.api("GET", `/audit?${bad}`);
      assertEquals(reply.status, 400, bad);
      assertEquals(reply.body.error.code, "INVALID_QUERY");
    }
    assertEquals((await f.api("GET", "/audit?limit=500")).status, 200);

    const summary = (await f.health()).auditSummary;
    assertEquals(summary.totalInvocations, 5);
    assertEquals(summary.successCount, 2);
    assertEquals(summary.failureCount, 3);
    assertEquals(summary.last24h, { total: 5, success: 2, failure: 3 });
    assert(typeof summary.avgDurationMs === "number" && summary.avgDurationMs >= 0);

    // audit.log holds the same entries as NDJSON, oldest first.
    const file = join(f.dir, "audit.log");
    const lines = async () =>
      (await Deno.readTextFile(file).catch(() => "")).split("\n").filter((l) => l !== "");
    await eventually(async () => (await lines()).length === 5, "5 lines in audit.log");
    assertEquals((await lines()).map((l) => JSON.parse(l)), [...entries].reverse());
  });
});

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
