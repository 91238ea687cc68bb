/**
 * End to end: `ask` permissions and confirmations through the scripted extension (allow, deny,
 * always allow, disconnect, no answer), skip-permissions, and the review of plugin versions
 * (a new version resets permissions to off until plugin_inspect / plugin_mark_reviewed).
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { writePluginFolder } from "./helpers/plugin_cli.ts";
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
import { unmarked } from "./helpers/page_content.ts";

const ASK = demoFixture("ask", { other: "off" });

const dispatches = (f: Fixture) => f.ext.received.filter((m) => m.method === "tool.dispatch");
const confirmations = (f: Fixture) =>
  f.ext.received.filter((m) => m.method === "confirmation.request");

Deno.test("ask: confirmation.request carries id, tool, plugin and parameters; allow runs the call", async () => {
  await withFixture(ASK, async (f) => {
    const asked = f.ext.next("confirmation.request");
    const call = f.call("demo__echo", { text: "hi", tabId: 7 });
    const request = (await asked).params;
    assertEquals(typeof request.id, "string");
    assertEquals(request.tool, "demo__echo");
    assertEquals(request.plugin, "demo");
    assertEquals(request.parameters, { text: "hi", tabId: 7 });
    assert(request.expiresAt > Date.now(), "expiresAt lies ahead");
    assertEquals(dispatches(f).length, 0, "nothing runs before the answer");

    f.ext.confirm(request.id, "allow");
    const reply = await call;
    assertEquals(reply.status, 200);
    assertEquals(unmarked(reply.body).structuredContent, { echo: { text: "hi" } });
    // The call ran in the extension: its dispatch carries the confirmation's id, and its end is
    // the extension's own reply (no tool.invocationEnd).
    assertEquals(dispatches(f).map((d) => d.params.dispatchId), [request.id]);

    // Over MCP the same.
    const client = await f.mcp();
    const again = f.ext.next("confirmation.request");
    const viaMcp = client.callTool({ name: "demo__echo", arguments: { text: "mcp" } });
    f.ext.confirm((await again).params.id, "allow");
    assertEquals(unmarked(await viaMcp).structuredContent, { echo: { text: "mcp" } });
    // Still ask: each call asks again.
    assertEquals(confirmations(f).length, 2);
  });
});

Deno.test("ask: deny fails the call with PERMISSION_DENIED and nothing is dispatched", async () => {
  await withFixture(ASK, async (f) => {
    const asked = f.ext.next("confirmation.request");
    const call = f.call("demo__echo", { text: "no" });
    f.ext.confirm((await asked).params.id, "deny", true); // alwaysAllow means nothing on deny
    const reply = await call;
    assertEquals(reply.status, 403);
    assertEquals(errorOf(reply.body).code, "PERMISSION_DENIED");
    assertEquals(errorOf(reply.body).category, "permission");
    assertEquals(dispatches(f).length, 0);
    assertEquals((await f.readConfig()).permissions.demo.tools, { other: "off" });
    const [entry] = (await f.api("GET", "/audit")).body;
    assertEquals(entry.error.code, "PERMISSION_DENIED");
  });
});

Deno.test("ask: alwaysAllow runs the call and stores a per-tool auto; later calls are not asked", async () => {
  await withFixture(ASK, async (f) => {
    const asked = f.ext.next("confirmation.request");
    const changed = f.ext.next("plugins.changed");
    const call = f.call("demo__echo", { text: "one" });
    f.ext.confirm((await asked).params.id, "allow", true);
    assertEquals((await call).status, 200);
    assertEquals((await changed).params, { reason: "permissions" });

    const entry = (await f.readConfig()).permissions.demo;
    assertEquals(entry.permission, "ask");
    assertEquals(entry.tools, { other: "off", echo: "auto" });
    const listed = await f.api("GET", "/tools?plugin=demo");
    assertEquals(listed.body.tools.map((t: Json) => t.permission), ["auto", "off"]);

    const next = await f.call("demo__echo", { text: "two" });
    assertEquals(next.status, 200);
    assertEquals(unmarked(next.body).structuredContent, { echo: { text: "two" } });
    assertEquals(confirmations(f).length, 1, "the second call was not asked");
  });
});

Deno.test("ask: an extension disconnect while waiting fails the call at once", async () => {
  await withFixture(ASK, async (f) => {
    const asked = f.ext.next("confirmation.request");
    const call = f.call("demo__echo", { text: "x" });
    await asked;
    const closing = performance.now();
    await f.ext.close();
    const reply = await call;
    assert(performance.now() - closing < 1_000, "failed at once");
    assertEquals(reply.status, 503);
    assertEquals(errorOf(reply.body).code, "EXTENSION_DISCONNECTED");
    assertMatch(errorOf(reply.body).message, /waiting for your confirmation/);
  });
});

Deno.test("ask: without an extension there is nobody to ask (EXTENSION_NOT_CONNECTED)", async () => {
  await withFixture({ ...ASK, tabs: undefined }, async (f) => {
    const reply = await f.call("demo__echo", { text: "x" });
    assertEquals(reply.status, 503);
    assertEquals(errorOf(reply.body).code, "EXTENSION_NOT_CONNECTED");
    assertMatch(errorOf(reply.body).message, /needs your confirmation/);
  });
});

Deno.test("ask: no answer within confirmationMs fails with TIMEOUT; a late answer is ignored", async () => {
  await withFixture({ ...ASK, hub: { timeouts: { confirmationMs: 300 } } }, async (f) => {
    const asked = f.ext.next("confirmation.request");
    const reply = await f.call("demo__echo", { text: "x" });
    assertEquals(reply.status, 504);
    assertEquals(errorOf(reply.body).code, "TIMEOUT");
    assertMatch(errorOf(reply.body).message, /Nobody answered the confirmation/);
    const request = (await asked).params;
    assert(request.expiresAt - Date.now() < 1_000, "expiresAt reflects confirmationMs");

    f.ext.confirm(request.id, "allow", true);
    await delay(100);
    assertEquals(dispatches(f).length, 0);
    assertEquals((await f.readConfig()).permissions.demo.tools, { other: "off" });
    assertEquals((await f.ext.request("config.getState")).error, undefined, "link still fine");
  });
});

async function expectSkipped(f: Fixture) {
  const reply = await f.call("demo__echo", { text: "skip" });
  assertEquals(reply.status, 200);
  assertEquals(confirmations(f).length, 0, "no confirmation with skip-permissions");
  const off = await f.call("demo__other", { text: "x" });
  assertEquals(off.status, 403);
  assertEquals(errorOf(off.body).code, "PERMISSION_OFF", "off stays off");
  const health = await f.health();
  assertEquals(health.skipPermissions, true);
  const listed = await f.api("GET", "/tools?plugin=demo");
  assertEquals(listed.body.tools.map((t: Json) => t.permission), ["auto", "off"]);
}

Deno.test("skip-permissions (hub option): ask tools run without confirmation, off stays off", async () => {
  await withFixture({ ...ASK, hub: { skipPermissions: true } }, async (f) => {
    const sync = await f.ext.waitFor((m) => m.method === "sync.full");
    assertEquals(sync.params.skipPermissions, true);
    await expectSkipped(f);
  });
});

Deno.test("skip-permissions (config skipPermissions: true): the same", async () => {
  await withFixture({
    ...ASK,
    config: { ...ASK.config, skipPermissions: true },
  }, async (f) => {
    await expectSkipped(f);
    await f.editConfig((c) => (c.skipPermissions = false));
    const asked = f.ext.next("confirmation.request");
    const call = f.call("demo__echo", { text: "asks again" });
    f.ext.confirm((await asked).params.id, "allow");
    assertEquals((await call).status, 200);
  });
});

Deno.test("a granted plugin without reviewedVersion gets its installed version recorded on load", async () => {
  await withFixture({
    plugins: [{ ...DEMO_PLUGIN, version: "1.4.0" }, { name: "quiet", tools: ["echo"] }],
    config: { permissions: { demo: { permission: "off", tools: { echo: "ask" } }, quiet: {} } },
  }, async (f) => {
    const config = await f.readConfig();
    assertEquals(config.permissions.demo.reviewedVersion, "1.4.0");
    assertEquals(config.permissions.demo.tools, { echo: "ask" }, "grants are kept");
    assertEquals(config.permissions.quiet.reviewedVersion, undefined, "nothing granted");
  });
});

/** Rewrites the demo plugin folder at another version, with an extra tool `fresh`. */
async function installVersion(f: Fixture, version: string) {
  await writePluginFolder(join(f.dir, "plugins", "demo"), {
    ...DEMO_PLUGIN,
    version,
    tools: ["echo", "other", "fresh"],
  });
}

Deno.test("a new plugin version resets its permissions to off until reviewed", async () => {
  await withFixture({
    plugins: [DEMO_PLUGIN],
    config: {
      permissions: {
        demo: { permission: "auto", tools: { other: "ask" }, reviewedVersion: "1.0.0" },
      },
    },
    tabs: { demo: [DEMO_TAB] },
  }, async (f) => {
    assertEquals((await f.call("demo__echo", { text: "v1" })).status, 200);

    await installVersion(f, "2.0.0");
    const sync = f.ext.next("sync.full");
    assertEquals((await f.api("POST", "/reload")).status, 200);
    const entry = (await f.readConfig()).permissions.demo;
    assertEquals(entry.permission, "off");
    assertEquals(entry.tools, {});
    assertEquals(entry.reviewedVersion, "1.0.0");
    const synced = (await sync).params.plugins[0];
    assertEquals([synced.version, synced.needsReview, synced.permission], ["2.0.0", true, "off"]);

    for (const tool of ["demo__echo", "demo__other", "demo__fresh"]) {
      const reply = await f.call(tool, { text: "v2" });
      assertEquals(reply.status, 403, tool);
      assertEquals(errorOf(reply.body).code, "PERMISSION_OFF");
    }

    const inspect = await f.call("plugin_inspect", { plugin: "demo" });
    assertEquals(inspect.status, 200);
    const info = inspect.body.structuredContent;
    assertEquals(info.version, "2.0.0");
    assertEquals(info.reviewedVersion, "1.0.0");
    assertEquals(info.needsReview, true);
    assertEquals(info.permission, "off");
    assertEquals(info.tools.map((t: Json) => [t.name, t.permission]), [
      ["demo__echo", "off"],
      ["demo__other", "off"],
      ["demo__fresh", "off"],
    ]);

    const stale = await f.call("plugin_mark_reviewed", { plugin: "demo", version: "1.0.0" });
    assertEquals(stale.status, 422);
    assertEquals(errorOf(stale.body).code, "VERSION_MISMATCH");
    assertEquals(errorOf(stale.body).category, "validation");
    assertMatch(errorOf(stale.body).message, /version 2\.0\.0, not 1\.0\.0/);
    assertEquals((await f.readConfig()).permissions.demo.reviewedVersion, "1.0.0");

    const client = await f.mcp();
    const marked = await client.callTool({
      name: "plugin_mark_reviewed",
      arguments: { plugin: "demo", version: "2.0.0" },
    });
    assertEquals(marked.structuredContent, {
      plugin: "demo",
      reviewedVersion: "2.0.0",
      reviewedSource: info.sourceId,
      permission: "off",
    });
    assertEquals((await f.readConfig()).permissions.demo.reviewedVersion, "2.0.0");
    const after = await f.call("plugin_inspect", { plugin: "demo" });
    assertEquals(after.body.structuredContent.needsReview, false);
    assertEquals(
      errorOf((await f.call("demo__echo", { text: "x" })).body).code,
      "PERMISSION_OFF",
      "a review grants nothing",
    );
    const unknown = await f.call("plugin_mark_reviewed", { plugin: "nope" });
    assertEquals(errorOf(unknown.body).code, "PLUGIN_NOT_FOUND");

    // A person turns it back on.
    const set = await f.ext.request("config.setPluginPermission", {
      plugin: "demo",
      permission: "auto",
    });
    assertEquals(set.error, undefined);
    assertEquals((await f.call("demo__fresh", { text: "x" })).status, 200);
  });
});

Deno.test({
  name: "a new plugin version never runs with the old version's grants, even during the reload",
  fn: async () => {
    await withFixture({
      plugins: [DEMO_PLUGIN],
      config: { permissions: { demo: { permission: "auto", reviewedVersion: "1.0.0" } } },
      tabs: { demo: [DEMO_TAB] },
    }, async (f) => {
      await installVersion(f, "2.0.0");
      // Another writer holds the config lock for a moment (as `hub config set` does).
      const lock = `${f.configPath}.lock`;
      await Deno.writeTextFile(lock, "other-writer");
      const reload = f.api("POST", "/reload");
      try {
        await eventually(async () => {
          const tools = await f.api("GET", "/tools?plugin=demo");
          return tools.body.tools.some((t: Json) => t.name === "demo__fresh");
        }, "the 2.0.0 registry");
        const reply = await f.call("demo__fresh", { text: "unreviewed" });
        assertEquals(dispatches(f).length, 0, "nothing of 2.0.0 was dispatched");
        assertEquals(errorOf(reply.body)?.code, "PERMISSION_OFF");
      } finally {
        await Deno.remove(lock);
        assertEquals((await reload).status, 200);
      }
    });
  },
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
      reviewedSource: `local:${await Deno.realPath(join(f.dir, "plugins", "demo"))}`,
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
    assertEquals(dispatches(f).length, 0);
  });
});

Deno.test({
  name: "a call cancelled while it waits for confirmation is audited as CANCELLED",
  fn: async () => {
    await withFixture(ASK, async (f) => {
      const client = await f.mcp();
      const controller = new AbortController();
      const asked = f.ext.next("confirmation.request");
      const call = client.callTool(
        { name: "demo__echo", arguments: { text: "x" } },
        undefined,
        { signal: controller.signal },
      ).catch((e: Error) => e);
      await asked;
      controller.abort("the user pressed stop");
      assert((await call) instanceof Error, "the client saw its cancel");
      const end = await f.ext.waitFor((m) => m.method === "tool.invocationEnd");
      assertEquals(end.params.error.code, "CANCELLED");
      const [entry] = (await f.api("GET", "/audit")).body;
      assertEquals(entry.error.code, "CANCELLED");
    });
  },
});
