/**
 * End to end through the one tool-call pipeline, on real sockets: a hub in this process, a scripted
 * extension on `/ws` and the official MCP SDK client. Successful calls on every transport (REST,
 * `/mcp`, `/mcp/gateway`), the `tool.dispatch` params the extension receives, progress (timeouts
 * it restarts, the cap, MCP progress notifications), plugin logs as MCP log messages, and the
 * tool list with its change notifications. Errors are in pipeline_errors_test.ts.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  LoggingMessageNotificationSchema,
  ProgressNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { BROWSER_TOOLS as DECLARED_BROWSER_TOOLS } from "../server/browser_tools/mod.ts";
import {
  awaitNotificationStream,
  delay,
  DEMO_PLUGIN,
  errorOf,
  eventually,
  type FixtureOptions,
  type Json,
  withFixture,
} from "./helpers/pipeline_fixture.ts";
import { unmarked } from "./helpers/page_content.ts";

const DEMO: FixtureOptions = {
  plugins: [DEMO_PLUGIN],
  config: { permissions: { demo: { permission: "auto" } } },
  tabs: { demo: [{ tabId: 7, url: "https://example.com/home", title: "Home" }] },
};

/** Every declared browser tool, in declaration order. */
const BROWSER_TOOLS = DECLARED_BROWSER_TOOLS.map((t) => t.name);
const HUB_TOOLS = ["plugin_list_tabs", "plugin_inspect", "plugin_mark_reviewed"];

Deno.test("a plugin tool succeeds on REST, /mcp and /mcp/gateway with the same result", async () => {
  await withFixture(DEMO, async (f) => {
    f.ext.onDispatch((p) => ({ ok: true, value: { said: p.input.text, tool: p.baseTool } }));
    const expected = {
      content: [{ type: "text", text: JSON.stringify({ said: "hi", tool: "echo" }) }],
      structuredContent: { said: "hi", tool: "echo" },
    };

    const rest = await f.call("demo__echo", { text: "hi" });
    assertEquals(rest.status, 200);
    // A plugin tool's result is marked as page content (checked whole and taken off by unmarked);
    // every transport carries the same marked result.
    assertEquals(unmarked(rest.body), expected);

    const full = await f.mcp("/mcp");
    const viaMcp = await full.callTool({ name: "demo__echo", arguments: { text: "hi" } });
    assertEquals(viaMcp.isError, undefined);
    assertEquals(viaMcp.structuredContent, rest.body.structuredContent);
    assertEquals(viaMcp.content, rest.body.content);

    const gateway = await f.mcp("/mcp/gateway");
    const viaGateway = await gateway.callTool({
      name: "hub_call",
      arguments: { tool: "demo__echo", arguments: { text: "hi" } },
    });
    assertEquals(viaGateway.structuredContent, rest.body.structuredContent);
    assertEquals(viaGateway.content, rest.body.content);
  });
});

Deno.test("non-object values come back as JSON text without structuredContent", async () => {
  await withFixture(DEMO, async (f) => {
    const values: unknown[] = ["plain text", 42, [1, 2], null];
    let i = 0;
    f.ext.onDispatch(() => ({ ok: true, value: values[i++] }));
    for (const value of values) {
      const reply = await f.call("demo__echo", { text: "x" });
      assertEquals(reply.status, 200);
      const text = typeof value === "string" ? value : JSON.stringify(value);
      assertEquals(unmarked(reply.body), { content: [{ type: "text", text }] });
    }
  });
});

Deno.test("REST: a body without the arguments envelope is an audited INVALID_ARGUMENTS", async () => {
  await withFixture(DEMO, async (f) => {
    const reply = await f.api("POST", "/tools/demo__echo/call", { text: "hi" });
    assertEquals(reply.status, 400);
    assertEquals(reply.body.isError, true);
    assertEquals(reply.body.structuredContent.error.code, "INVALID_ARGUMENTS");
    assertMatch(reply.body.structuredContent.error.message, /"arguments"/);
    const broken = await f.api("POST", "/tools/demo__echo/call", "{not json");
    assertEquals(broken.body.structuredContent.error.code, "INVALID_ARGUMENTS");
    const unknown = await f.api("POST", "/tools/demo__nope/call", "{not json");
    assertEquals(unknown.status, 404);
    assertEquals(unknown.body.structuredContent.error.code, "TOOL_NOT_FOUND");
    assertEquals(f.ext.received.filter((m) => m.method === "tool.dispatch").length, 0);
    const audit = await f.api("GET", "/audit?tool=demo__echo");
    assertEquals(audit.body.length, 2);
    assertEquals(audit.body[0].error.code, "INVALID_ARGUMENTS");
  });
});

Deno.test("gateway: hub_list_tools lists all tools, filters by plugin, refuses unknown plugins", async () => {
  await withFixture(DEMO, async (f) => {
    const gateway = await f.mcp("/mcp/gateway");
    const { tools } = await gateway.listTools();
    assertEquals(tools.map((t: Json) => t.name), ["hub_list_tools", "hub_call"]);

    const all = await gateway.callTool({ name: "hub_list_tools", arguments: {} });
    const rest = await f.api("GET", "/tools");
    assertEquals(all.structuredContent, rest.body, "hub_list_tools equals GET /tools");

    const demo = await gateway.callTool({ name: "hub_list_tools", arguments: { plugin: "demo" } });
    const demoTools = (demo.structuredContent as Json).tools;
    assertEquals(demoTools.map((t: Json) => t.name), ["demo__echo", "demo__other"]);
    for (const tool of demoTools) {
      assertEquals(tool.plugin, "demo");
      assertEquals(tool.permission, "auto");
      assertEquals(tool.inputSchema.properties.tabId.type, "integer");
    }

    const unknown = await gateway.callTool({
      name: "hub_list_tools",
      arguments: { plugin: "nope" },
    });
    assertEquals(unknown.isError, true);
    assertEquals(errorOf(unknown).code, "PLUGIN_NOT_FOUND");
    assertEquals(errorOf(unknown).category, "not_found");
    assertMatch(errorOf(unknown).message, /No plugin "nope"/);

    const direct = await gateway.callTool({ name: "demo__echo", arguments: { text: "x" } });
    assertEquals(direct.isError, true);
    assertEquals(errorOf(direct).code, "TOOL_NOT_FOUND");
    assertMatch(errorOf(direct).message, /through hub_call/);
  });
});

Deno.test("GET /tools lists every tool with schema, plugin and permission; ?plugin filters", async () => {
  await withFixture(DEMO, async (f) => {
    const all = await f.api("GET", "/tools");
    assertEquals(all.status, 200);
    const names = all.body.tools.map((t: Json) => t.name);
    assertEquals(names, ["demo__echo", "demo__other", ...BROWSER_TOOLS, ...HUB_TOOLS]);
    for (const tool of all.body.tools) {
      assertEquals(Object.keys(tool).sort(), [
        "description",
        "inputSchema",
        "name",
        "permission",
        "plugin",
      ]);
      assertEquals(tool.inputSchema.type, "object");
    }

    const browser = await f.api("GET", "/tools?plugin=browser");
    assertEquals(browser.body.tools.map((t: Json) => t.name), BROWSER_TOOLS);
    assert(browser.body.tools.every((t: Json) => t.plugin === "browser"));

    const demo = await f.api("GET", "/tools?plugin=demo");
    assertEquals(demo.body.tools.map((t: Json) => t.name), ["demo__echo", "demo__other"]);

    const unknown = await f.api("GET", "/tools?plugin=nope");
    assertEquals(unknown.status, 404);
  });
});

Deno.test("tool.dispatch carries tool, kind, plugin, baseTool, stripped input, tabId and settings", async () => {
  await withFixture(DEMO, async (f) => {
    const reply = await f.call("demo__echo", { text: "hi", tabId: 7 });
    assertEquals(reply.status, 200);
    const dispatch = await f.ext.waitFor((m) => m.method === "tool.dispatch");
    const { dispatchId, ...params } = dispatch.params;
    assertEquals(typeof dispatchId, "string");
    assertEquals(params, {
      tool: "demo__echo",
      kind: "plugin",
      plugin: "demo",
      baseTool: "echo",
      input: { text: "hi" },
      settings: {},
      tabId: 7,
    });
    assertEquals(unmarked(reply.body).structuredContent, { echo: { text: "hi" } });
  });
});

Deno.test("tool.dispatch carries the chosen instance {name, url} and the resolved settings", async () => {
  const instances = { work: "https://work.example.com", home: "https://home.example.com/app" };
  await withFixture({
    plugins: [{
      name: "multi",
      tools: ["echo"],
      hub: {
        urlPatterns: ["*://*.example.com/*"],
        configSchema: {
          baseUrl: { type: "url", label: "Base URL" },
          mode: { type: "select", label: "Mode", options: ["fast", "slow"], default: "fast" },
        },
      },
    }],
    config: {
      permissions: { multi: { permission: "auto" } },
      settings: { multi: { baseUrl: instances } },
    },
    tabs: {
      multi: [
        { tabId: 11, url: "https://work.example.com/board" },
        { tabId: 12, url: "https://home.example.com/app/inbox" },
      ],
    },
  }, async (f) => {
    const tools = await f.api("GET", "/tools?plugin=multi");
    const schema = tools.body.tools[0].inputSchema;
    assertEquals(schema.properties.instance.enum, ["work", "home"]);
    assert(schema.required.includes("instance"));

    const reply = await f.call("multi__echo", { text: "hi", instance: "home" });
    assertEquals(reply.status, 200);
    const dispatch = await f.ext.waitFor((m) => m.method === "tool.dispatch");
    assertEquals(dispatch.params.instance, { name: "home", url: instances.home });
    assertEquals(dispatch.params.input, { text: "hi" });
    assertEquals(dispatch.params.settings, { baseUrl: instances, mode: "fast" });
    assertEquals(dispatch.params.tabId, undefined);

    const wrongTab = await f.call("multi__echo", { text: "hi", instance: "home", tabId: 11 });
    assertEquals(wrongTab.status, 400);
    assertEquals(errorOf(wrongTab.body).code, "INVALID_ARGUMENTS");
    assertMatch(errorOf(wrongTab.body).message, /does not belong to instance "home"/);
  });
});

Deno.test("browser tools dispatch with kind browser and the extension method", async () => {
  await withFixture({ extension: true }, async (f) => {
    f.ext.onDispatch((p) => ({ ok: true, value: { tabs: [], method: p.method } }));
    const listed = await f.call("browser_list_tabs");
    assertEquals(listed.status, 403, "browser tools are off until allowed");
    await f.editConfig((c) => ((c.permissions ??= {}).browser = { permission: "auto" }));

    const reply = await f.call("browser_list_tabs");
    assertEquals(reply.status, 200);
    assertEquals(reply.body.structuredContent, { tabs: [], method: "tabs.list" });
    const dispatch = await f.ext.waitFor((m) => m.method === "tool.dispatch");
    assertEquals(dispatch.params.kind, "browser");
    assertEquals(dispatch.params.plugin, "browser");
    assertEquals(dispatch.params.tool, "browser_list_tabs");
    assertEquals(dispatch.params.method, "tabs.list");
    assertEquals(dispatch.params.baseTool, undefined);
  });
});

Deno.test("each tool.progress restarts the timeout, so a long call with progress succeeds", async () => {
  await withFixture(
    { ...DEMO, hub: { timeouts: { timeoutMs: 300, maxMs: 10_000 } } },
    async (f) => {
      f.ext.onDispatch(async (p, ext) => {
        // 900 ms in all, three times the timeout, with a progress report every 100 ms.
        for (let i = 1; i <= 9; i++) {
          await delay(100);
          ext.progress(p.dispatchId, i, 9, `step ${i}`);
        }
        return { ok: true, value: { done: true } };
      });
      const started = performance.now();
      const reply = await f.call("demo__echo", { text: "slow" });
      assertEquals(reply.status, 200, JSON.stringify(reply.body));
      assertEquals(unmarked(reply.body).structuredContent, { done: true });
      assert(performance.now() - started >= 800, "the call outlived its 300 ms timeout");
    },
  );
});

Deno.test("without progress a call times out; with progress it still ends at maxMs", async () => {
  await withFixture({ ...DEMO, hub: { timeouts: { timeoutMs: 300, maxMs: 1_200 } } }, async (f) => {
    f.ext.onDispatch(() => "hang");
    const quiet = await f.call("demo__echo", { text: "x" });
    assertEquals(quiet.status, 504);
    assertEquals(errorOf(quiet.body).code, "TIMEOUT");
    assertMatch(errorOf(quiet.body).message, /did not answer within 0.3 s/);

    let reporting = true;
    f.ext.onDispatch(async (p, ext) => {
      while (reporting) {
        ext.progress(p.dispatchId, 1);
        await delay(100);
      }
      return "hang" as const;
    });
    const started = performance.now();
    const capped = await f.call("demo__echo", { text: "x" });
    const elapsed = performance.now() - started;
    reporting = false;
    assertEquals(capped.status, 504);
    assertEquals(errorOf(capped.body).code, "TIMEOUT");
    assertEquals(errorOf(capped.body).category, "timeout");
    assertMatch(errorOf(capped.body).message, /longer than the 1.2 s maximum/);
    assert(elapsed >= 1_100, `ended at the cap, after ${Math.round(elapsed)} ms`);
  });
});

Deno.test("MCP: a call with onprogress gets notifications/progress; one without gets none", async () => {
  await withFixture(DEMO, async (f) => {
    f.ext.onDispatch(async (p, ext) => {
      for (let i = 1; i <= 3; i++) {
        ext.progress(p.dispatchId, i, 3, `step ${i}`);
        await delay(20);
      }
      return { ok: true, value: { done: true } };
    });
    const client = await f.mcp();
    const seen: Json[] = [];
    const result = await client.callTool(
      { name: "demo__echo", arguments: { text: "x" } },
      undefined,
      { onprogress: (p: Json) => seen.push(p) },
    );
    assertEquals(unmarked(result).structuredContent, { done: true });
    assertEquals(seen, [1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })));

    // A second client records every progress notification it gets, for any token.
    const other = await f.mcp();
    const stray: Json[] = [];
    other.setNotificationHandler(ProgressNotificationSchema, (n: Json) => void stray.push(n));
    const plain = await other.callTool({ name: "demo__echo", arguments: { text: "x" } });
    assertEquals(unmarked(plain).structuredContent, { done: true });
    await delay(50);
    assertEquals(stray, []);
  });
});

Deno.test("plugin.log reaches MCP clients as notifications/message and fills the log buffer", async () => {
  await withFixture(DEMO, async (f) => {
    const client = await f.mcp();
    const messages: Json[] = [];
    client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n: Json) => void messages.push(n.params),
    );
    await awaitNotificationStream(f.ext, "demo", () => messages.length);
    const bufferBefore = (await f.health()).pluginDetails[0].logBufferSize;
    assert(bufferBefore >= 1);

    messages.length = 0;
    f.ext.notify("plugin.log", {
      plugin: "demo",
      entries: [
        { level: "warn", message: "slow page", data: { ms: 900 } },
        { level: "info", message: "loaded" },
      ],
    });
    await eventually(() => messages.length >= 2, "two log notifications");
    assertEquals(messages, [
      {
        level: "warning",
        logger: "plugin:demo",
        data: { message: "slow page", data: { ms: 900 } },
      },
      { level: "info", logger: "plugin:demo", data: "loaded" },
    ]);
    assertEquals((await f.health()).pluginDetails[0].logBufferSize, bufferBefore + 2);
  });
});

Deno.test("tools/list on /mcp: plugin, browser and management tools, off ones marked [Disabled]", async () => {
  await withFixture({
    ...DEMO,
    config: { permissions: { demo: { permission: "auto", tools: { other: "off" } } } },
  }, async (f) => {
    const client = await f.mcp();
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t: Json) => [t.name, t]));
    assertEquals(
      tools.map((t: Json) => t.name),
      ["demo__echo", "demo__other", ...BROWSER_TOOLS, ...HUB_TOOLS],
    );
    const echo = byName.get("demo__echo") as Json;
    assertEquals(echo.description, "Test tool echo.");
    assertEquals(echo.inputSchema.required, ["text"]);
    assertEquals(echo.inputSchema.properties.tabId.minimum, 1);
    assertEquals((byName.get("demo__other") as Json).description, "[Disabled] Test tool other.");
    assertMatch((byName.get("browser_list_tabs") as Json).description, /^\[Disabled\] /);
    assert(!(byName.get("plugin_inspect") as Json).description.startsWith("[Disabled]"));
  });
});

Deno.test("tools/list_changed reaches /mcp clients after POST /reload and a permission change", async () => {
  await withFixture(DEMO, async (f) => {
    const client = await f.mcp();
    let changes = 0;
    const logs: Json[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n: Json) => void logs.push(n));
    await awaitNotificationStream(f.ext, "demo", () => logs.length);

    const reload = await f.api("POST", "/reload");
    assertEquals(reload.status, 200);
    await eventually(() => changes === 1, "list_changed after POST /reload");

    const set = await f.ext.request("config.setToolPermission", {
      plugin: "demo",
      tool: "echo",
      permission: "off",
    });
    assertEquals(set.error, undefined);
    await eventually(() => changes === 2, "list_changed after config.setToolPermission");
    const { tools } = await client.listTools();
    const echo = tools.find((t: Json) => t.name === "demo__echo") as Json;
    assertMatch(echo.description, /^\[Disabled\] /);
  });
});
