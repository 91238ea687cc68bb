/**
 * End to end: the `/ws` JSON-RPC link as the extension sees it, on a real WebSocket. Auth by
 * subprotocol, malformed upgrades, ping/pong, sync.full, tab reports reaching `/health` and
 * `plugin_list_tabs`, the config requests (persisted to config.json, bad input refused with
 * -32602), plugins.changed, malformed frames (answered, never fatal) and `POST /extension/reload`.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "./helpers/assert.ts";
import { FakeExtension } from "./helpers/fake_extension.ts";
import { rawSend } from "./helpers/raw_http.ts";
import { BROWSER_TOOLS } from "../server/browser_tools/mod.ts";
import {
  DEMO_PLUGIN,
  eventually,
  type Fixture,
  type FixtureOptions,
  type Json,
  MULTI_PLUGIN,
  withFixture,
} from "./helpers/pipeline_fixture.ts";

const DEMO: FixtureOptions = {
  plugins: [DEMO_PLUGIN],
  config: { permissions: { demo: { permission: "ask" } } },
  extension: true,
};

/** Sends ping and waits for the pong; proves the connection still works. */
async function pingPong(ext: FakeExtension) {
  const pong = ext.next("pong", 5_000);
  ext.notify("ping", {});
  assertEquals(typeof (await pong).params.ts, "number");
}

/** The link and the HTTP server both still work. */
async function stillAlive(f: Fixture, ext: FakeExtension) {
  await pingPong(ext);
  assertEquals((await f.health()).extensionConnected, true);
}

/** The next reply with id null (the answer to a frame whose id could not be read). */
function nextNullReply(ext: FakeExtension) {
  const seen = ext.received.length;
  return ext.waitFor((m) => m.id === null && ext.received.indexOf(m) >= seen);
}

Deno.test("/ws refuses an upgrade without the hub subprotocol or with a wrong secret", async () => {
  await withFixture({}, async (f) => {
    await assertRejects(FakeExtension.connect(f.port, f.secret, []));
    await assertRejects(FakeExtension.connect(f.port, f.secret, ["hub"]));
    await assertRejects(FakeExtension.connect(f.port, f.secret, ["hub", "0".repeat(64)]));
    await assertRejects(FakeExtension.connect(f.port, f.secret, [f.secret, "hub"]));
    const raw = await fetch(`${f.url}/ws`, { headers: { authorization: `Bearer ${f.secret}` } });
    assertEquals(raw.status, 426, "not an upgrade: 426 before auth");
    await raw.body?.cancel();
    assertEquals((await f.health()).extensionConnected, false);

    const ext = await f.connectExtension();
    assertEquals(ext.socket.protocol, "hub", "the server selects the hub protocol");
    await pingPong(ext);
    assertEquals((await f.health()).extensionConnections, 1);
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

Deno.test("sync.full on connect and again after POST /reload", async () => {
  await withFixture(DEMO, async (f) => {
    const sync = await f.ext.waitFor((m) => m.method === "sync.full");
    assertEquals(sync.params.skipPermissions, false);
    assertEquals(sync.params.disabledBrowserTools, []);
    assertEquals(sync.params.browserTools.length, BROWSER_TOOLS.length);
    assertEquals(sync.params.browserPermission, "off");
    const [demo] = sync.params.plugins;
    assertEquals(demo.name, "demo");
    assertEquals(demo.version, "1.0.0");
    assertEquals(demo.permission, "ask");
    assertEquals(demo.needsReview, false);
    assertEquals(demo.urlPatterns, ["*://example.com/*"]);
    assertMatch(demo.adapterFile, /^demo-.+\.js$/);
    assertEquals(demo.tools.map((t: Json) => [t.name, t.permission]), [
      ["demo__echo", "ask"],
      ["demo__other", "ask"],
    ]);

    const again = f.ext.next("sync.full");
    const changed = f.ext.next("plugins.changed");
    assertEquals((await f.api("POST", "/reload")).status, 200);
    assertEquals((await again).params.plugins.length, 1);
    assertEquals((await changed).params, { reason: "reload" });
  });
});

Deno.test("tab.syncAll and tab.stateChanged show in /health and plugin_list_tabs", async () => {
  await withFixture({
    plugins: [MULTI_PLUGIN, DEMO_PLUGIN],
    config: {
      settings: {
        multi: { baseUrl: { work: "https://work.example.com", home: "https://home.example.com" } },
      },
    },
    extension: true,
  }, async (f) => {
    f.ext.notify("tab.syncAll", {
      plugins: [
        {
          plugin: "multi",
          state: "ready",
          tabs: [
            { tabId: 1, url: "https://work.example.com/a", title: "Work", ready: true },
            { tabId: 2, url: "https://home.example.com/b", title: "Home", ready: false },
          ],
        },
        {
          plugin: "demo",
          state: "unavailable",
          tabs: [{ tabId: 3, url: "https://example.com/", title: "Demo", ready: false }],
        },
      ],
    });
    const details = async () =>
      Object.fromEntries((await f.health()).pluginDetails.map((p) => [p.name, p]));
    await eventually(async () => (await details()).multi.tabState === "ready", "tab.syncAll");
    const synced = await details();
    assertEquals(synced.demo.tabState, "unavailable");
    assertEquals(synced.multi.tabs, [
      { tabId: 1, url: "https://work.example.com/a", title: "Work", ready: true },
      { tabId: 2, url: "https://home.example.com/b", title: "Home", ready: false },
    ]);

    const listed = await f.call("plugin_list_tabs");
    assertEquals(listed.status, 200);
    assertEquals(listed.body.structuredContent, {
      extensionConnected: true,
      plugins: [
        {
          plugin: "demo",
          state: "unavailable",
          tabs: [{ tabId: 3, url: "https://example.com/", title: "Demo", ready: false }],
        },
        {
          plugin: "multi",
          state: "ready",
          tabs: [
            {
              tabId: 1,
              url: "https://work.example.com/a",
              title: "Work",
              ready: true,
              instance: "work",
            },
            {
              tabId: 2,
              url: "https://home.example.com/b",
              title: "Home",
              ready: false,
              instance: "home",
            },
          ],
        },
      ],
    });

    const reply = await f.ext.request("tab.stateChanged", {
      plugin: "demo",
      state: "closed",
      tabs: [],
    });
    assertEquals(reply.result, { ok: true });
    assertEquals((await details()).demo.tabState, "closed");
    assertEquals((await details()).demo.tabs, []);
    const one = await f.call("plugin_list_tabs", { plugin: "demo" });
    assertEquals(one.body.structuredContent.plugins, [{
      plugin: "demo",
      state: "closed",
      tabs: [],
    }]);

    await f.ext.close();
    await eventually(async () => (await details()).multi.tabState === "closed", "tabs forgotten");
  });
});

Deno.test("config.getState answers with the plugins, tools and permissions", async () => {
  await withFixture(DEMO, async (f) => {
    const reply = await f.ext.request("config.getState");
    assertEquals(reply.error, undefined);
    const sync = await f.ext.waitFor((m) => m.method === "sync.full");
    assertEquals(reply.result, sync.params);
    const withParams = await f.ext.request("config.getState", {});
    assertEquals(withParams.result.plugins[0].name, "demo");
  });
});

/** The demo plugin with one setting (`limit`, 1–10) for config.setPluginSettings. */
const WITH_SETTINGS = {
  ...DEMO,
  plugins: [{
    ...DEMO_PLUGIN,
    hub: { configSchema: { limit: { type: "number", label: "Limit", min: 1, max: 10 } } },
  }],
};

Deno.test("config.set* requests persist to config.json, answer with the state and announce it", async () => {
  await withFixture(WITH_SETTINGS, async (f) => {
    const changed = f.ext.next("plugins.changed");
    const tool = await f.ext.request("config.setToolPermission", {
      plugin: "demo",
      tool: "echo",
      permission: "auto",
    });
    assertEquals(tool.error, undefined);
    assertEquals(tool.result.plugins[0].tools[0], {
      name: "demo__echo",
      displayName: "echo",
      description: "Test tool echo.",
      permission: "auto",
      override: "auto",
    });
    assertEquals((await changed).params, { reason: "permissions" });
    assertEquals((await f.readConfig()).permissions.demo.tools, { echo: "auto" });
    assertEquals((await f.readConfig()).permissions.demo.reviewedVersion, "1.0.0");

    const plugin = await f.ext.request("config.setPluginPermission", {
      plugin: "demo",
      permission: "off",
    });
    assertEquals(plugin.result.plugins[0].permission, "off");
    assertEquals((await f.readConfig()).permissions.demo.permission, "off");
    const browser = await f.ext.request("config.setToolPermission", {
      plugin: "browser",
      tool: "browser_list_tabs",
      permission: "ask",
    });
    assertEquals(browser.error, undefined);
    assertEquals((await f.readConfig()).permissions.browser.tools, { browser_list_tabs: "ask" });

    const skip = await f.ext.request("config.setSkipPermissions", { enabled: true });
    assertEquals(skip.result.skipPermissions, true);
    assertEquals((await f.readConfig()).skipPermissions, true);
    assertEquals((await f.health()).skipPermissions, true);

    const debuggerSync = f.ext.next("sync.full");
    const off = await f.ext.request("config.setDebugger", { mode: "off" });
    assertEquals(off.result.debugger, "off");
    assertEquals((await f.readConfig()).debugger, "off");
    assertEquals((await debuggerSync).params.debugger, "off");
    assertEquals((await f.health()).debugger, "off");

    const sync = f.ext.next("sync.full");
    const settings = await f.ext.request("config.setPluginSettings", {
      plugin: "demo",
      settings: { limit: 5 },
    });
    assertEquals(settings.error, undefined);
    assertEquals(settings.result.ok, true);
    assertEquals(settings.result.settings, { limit: 5 });
    assertEquals((await f.readConfig()).settings.demo, { limit: 5 });
    assertEquals((await sync).params.plugins[0].settings, { limit: 5 });
  });
});

Deno.test("config.set* with bad input gets -32602 naming the problem and changes nothing", async () => {
  await withFixture(WITH_SETTINGS, async (f) => {
    const before = await Deno.readTextFile(f.configPath);
    const cases: [string, Json, RegExp][] = [
      ["config.setToolPermission", { plugin: "nope", tool: "echo", permission: "auto" }, /nope/],
      [
        "config.setToolPermission",
        { plugin: "demo", tool: "missing", permission: "auto" },
        /no tool "missing".*echo, other/,
      ],
      [
        "config.setToolPermission",
        { plugin: "demo", tool: "demo__echo", permission: "auto" },
        /without the plugin prefix/,
      ],
      [
        "config.setToolPermission",
        { plugin: "browser", tool: "browser_fly", permission: "auto" },
        /No browser tool "browser_fly"/,
      ],
      [
        "config.setToolPermission",
        { plugin: "demo", tool: "echo", permission: "always" },
        /params\.permission/,
      ],
      ["config.setPluginPermission", { plugin: "nope", permission: "ask" }, /No plugin "nope"/],
      ["config.setPluginPermission", { plugin: "demo", permission: 1 }, /params\.permission/],
      ["config.setSkipPermissions", { enabled: "yes" }, /params\.enabled/],
      ["config.setSkipPermissions", {}, /params\.enabled/],
      ["config.setDebugger", { mode: "on" }, /params\.mode/],
      ["config.setPluginSettings", { plugin: "demo", settings: { limit: 50 } }, /at most 10/],
      ["config.setPluginSettings", { plugin: "demo", settings: { colour: 1 } }, /colour/],
      ["config.setPluginSettings", { plugin: "nope", settings: {} }, /No plugin "nope"/],
      ["config.setPluginSettings", { plugin: "demo", settings: [] }, /params\.settings/],
    ];
    for (const [method, params, message] of cases) {
      const reply = await f.ext.request(method, params);
      assertEquals(reply.error?.code, -32602, `${method} ${JSON.stringify(params)}`);
      assertMatch(reply.error.message, message);
    }
    assertEquals(await Deno.readTextFile(f.configPath), before);
    await stillAlive(f, f.ext);
  });
});

Deno.test("malformed frames get JSON-RPC errors and leave the link and server working", async () => {
  await withFixture(DEMO, async (f) => {
    const ext = f.ext;

    let reply = nextNullReply(ext);
    ext.sendRaw("{ not json");
    assertEquals((await reply).error.code, -32700);
    await stillAlive(f, ext);

    reply = nextNullReply(ext);
    ext.sendRaw(JSON.stringify([{ jsonrpc: "2.0", method: "ping" }]));
    assertEquals((await reply).error.code, -32600);
    assertMatch((await reply).error.message, /Batch/);
    await stillAlive(f, ext);

    reply = nextNullReply(ext);
    ext.sendRaw(JSON.stringify({ jsonrpc: "1.0", method: "ping" }));
    assertEquals((await reply).error.code, -32600);
    const wrongVersion = ext.waitFor((m) => m.id === "v1");
    ext.sendRaw(JSON.stringify({ jsonrpc: "1.0", id: "v1", method: "config.getState" }));
    assertEquals((await wrongVersion).error.code, -32600, "the reply keeps a readable id");
    await stillAlive(f, ext);

    const unknown = await ext.request("teleport", {});
    assertEquals(unknown.error.code, -32601);
    assertMatch(unknown.error.message, /Unknown method "teleport"/);
    const refused = await ext.request("folder.open", { path: "/" });
    assertEquals(refused.error.code, -32602);
    assertMatch(refused.error.message, /^Refusing to open "\/"/);
    await stillAlive(f, ext);

    const badParams = await ext.request("tab.stateChanged", { plugin: 5, state: "open" });
    assertEquals(badParams.error.code, -32602);
    assertMatch(badParams.error.message, /params\.plugin/);
    assertMatch(badParams.error.message, /params\.state/);
    // A bad notification is dropped without a reply.
    ext.notify("tool.progress", { dispatchId: 1 });
    ext.notify("no.such.notification", {});
    await stillAlive(f, ext);

    // A frame over the 10 MB limit closes the link from its header (tests/security/ws_frame_limit_test.ts).
    const big = JSON.stringify({
      jsonrpc: "2.0",
      method: "plugin.log",
      params: { plugin: "demo", entries: [{ level: "info", message: "x".repeat(10_500_000) }] },
    });
    const closed = new Promise((resolve) => ext.socket.addEventListener("close", resolve));
    ext.sendRaw(big);
    await closed;
    assert(ext.socket.readyState === WebSocket.CLOSED);
    assertEquals((await f.health()).pluginDetails[0].logBufferSize, 0, "the big frame was dropped");
  });
});

Deno.test({
  name: "a notification method sent as a request is told to drop the id",
  fn: async () => {
    await withFixture({ extension: true }, async (f) => {
      for (const method of ["ping", "tab.syncAll", "tool.progress"]) {
        const reply = await f.ext.request(method, {});
        assertEquals(reply.error?.code, -32601);
        assertMatch(reply.error.message, /notification/, method);
      }
    });
  },
});

Deno.test("POST /extension/reload: 503 without an extension, 200 and extension.reload with one", async () => {
  await withFixture({}, async (f) => {
    const without = await f.api("POST", "/extension/reload");
    assertEquals(without.status, 503);
    assertEquals(without.body.error.code, "EXTENSION_NOT_CONNECTED");

    const ext = await f.connectExtension();
    const notified = ext.next("extension.reload");
    const reply = await f.api("POST", "/extension/reload");
    assertEquals(reply.status, 200);
    assertEquals(reply.body, { ok: true });
    assertEquals((await notified).params, {});
  });
});
