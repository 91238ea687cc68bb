/**
 * End to end: what surrounds a tool call. A newer extension connection replacing the old one,
 * the 25-calls-per-plugin limit, which calls send `tool.invocationEnd`, the audit log
 * (`GET /audit`, audit.log, `/health` auditSummary), and REST calls cancelled when their client
 * goes away. The MCP session rules are in mcp_sessions_test.ts.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { FakeExtension } from "./helpers/fake_extension.ts";
import {
  delay,
  DEMO_TAB,
  demoFixture,
  errorOf,
  eventually,
  type Fixture,
  type Json,
  withFixture,
} from "./helpers/pipeline_fixture.ts";
import { unmarked } from "./helpers/page_content.ts";

const DEMO = demoFixture("auto", { other: "off" });
const ASK = demoFixture("ask");
const AUTO = demoFixture("auto");

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
    assertEquals(unmarked(again.body).structuredContent, { echo: { text: "y" } });
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

Deno.test("a call the extension answers is told by its dispatch and reply; only other ends are sent", async () => {
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
      () => f.ext.received.some((m) => m.method === "tool.invocationEnd"),
      "the refusal's invocationEnd",
    );
    // Frames arrive in order: an end for either dispatched call would have come first.
    const ends = f.ext.received.filter((m) => m.method === "tool.invocationEnd");
    const dispatches = f.ext.received.filter((m) => m.method === "tool.dispatch");
    assertEquals(f.ext.received.filter((m) => m.method === "tool.invocationStart"), []);
    assertEquals(dispatches.length, 2);
    assertEquals(new Set(dispatches.map((d) => d.params.dispatchId)).size, 2);
    assertEquals(ends.length, 1, "a refusal ends without a start; unknown tools send nothing");
    const end = ends[0].params;
    assertEquals([end.tool, end.plugin, end.success], ["demo__other", "demo", false]);
    assertEquals(end.error.code, "PERMISSION_OFF");
    assert(Number.isFinite(end.durationMs) && end.durationMs >= 0);
    assert(!dispatches.some((d) => d.params.dispatchId === end.invocationId));
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
    assertEquals(unmarked(replies[3].body).structuredContent, { echo: { text: "again 3" } });
  });
});
