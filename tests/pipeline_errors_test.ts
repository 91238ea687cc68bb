/**
 * End to end: every error a tool call can end with, on REST (HTTP status per class, docs/http.md
 * "Errors") and on `/mcp` (an `isError` result with `structuredContent.error`), with the same code,
 * category and retryable flag on both. Rejected calls are never dispatched.
 */
import { MAX_ERROR_MESSAGE_CHARS } from "../protocol/errors.ts";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import type { Client } from "./helpers/mcp_client.ts";
import type { FakeExtension } from "./helpers/fake_extension.ts";
import {
  DEMO_PLUGIN,
  DEMO_TAB,
  demoFixture,
  errorOf,
  type Fixture,
  type Json,
  MULTI_PLUGIN,
  withFixture,
} from "./helpers/pipeline_fixture.ts";

const DEMO = demoFixture("auto");

interface Expected {
  code: string;
  status: number;
  category: string;
  retryable: boolean;
  message?: RegExp;
}

function checkError(result: Json, want: Expected, where: string) {
  assertEquals(result.isError, true, `${where}: isError`);
  const error = errorOf(result);
  assertEquals(
    { code: error?.code, category: error?.category, retryable: error?.retryable },
    { code: want.code, category: want.category, retryable: want.retryable },
    `${where}: ${JSON.stringify(result)}`,
  );
  assertEquals(result.content[0].type, "text");
  assert(result.content[0].text.startsWith(`${want.code}: `), `${where}: text names the code`);
  if (want.message) assertMatch(error.message, want.message, where);
}

/** Calls `name` over REST and over `/mcp` and checks both fail with `want`. */
async function expectError(
  f: Fixture,
  client: Client,
  name: string,
  args: Record<string, unknown>,
  want: Expected,
) {
  const rest = await f.call(name, args);
  assertEquals(rest.status, want.status, `REST status of ${want.code}`);
  checkError(rest.body, want, `REST ${name}`);
  const mcp = await client.callTool({ name, arguments: args });
  checkError(mcp, want, `/mcp ${name}`);
}

const dispatches = (ext: FakeExtension) => ext.received.filter((m) => m.method === "tool.dispatch");

/** Answers every confirmation.request with `decision`. */
function answerConfirmations(ext: FakeExtension, decision: "allow" | "deny") {
  ext.onMessage((message) => {
    if (message.method === "confirmation.request") ext.confirm(message.params.id, decision);
  });
}

Deno.test("INVALID_ARGUMENTS (400): schema violations, never dispatched", async () => {
  await withFixture(DEMO, async (f) => {
    const client = await f.mcp();
    const invalid = { code: "INVALID_ARGUMENTS", status: 400, category: "validation" };
    await expectError(f, client, "demo__echo", {}, {
      ...invalid,
      retryable: false,
      message: /text: is required/,
    });
    await expectError(f, client, "demo__echo", { text: 5 }, {
      ...invalid,
      retryable: false,
      message: /text: must be string/,
    });
    await expectError(f, client, "demo__echo", { text: "x", tabId: 0 }, {
      ...invalid,
      retryable: false,
      message: /tabId/,
    });
    const rest = await f.call("demo__echo", {});
    assertEquals(errorOf(rest.body).details, { errors: ["text: is required"] });
    assertEquals(dispatches(f.ext).length, 0);
  });
});

Deno.test("INVALID_ARGUMENTS (400): a plugin with two instances requires `instance`", async () => {
  await withFixture({
    plugins: [MULTI_PLUGIN],
    config: {
      permissions: { multi: { permission: "auto" } },
      settings: {
        multi: { baseUrl: { work: "https://work.example.com", home: "https://home.example.com" } },
      },
    },
    tabs: { multi: [{ tabId: 3, url: "https://work.example.com/" }] },
  }, async (f) => {
    const client = await f.mcp();
    const want = {
      code: "INVALID_ARGUMENTS",
      status: 400,
      category: "validation",
      retryable: false,
    };
    await expectError(f, client, "multi__echo", { text: "x" }, {
      ...want,
      message: /instance: is required/,
    });
    await expectError(f, client, "multi__echo", { text: "x", instance: "play" }, {
      ...want,
      message: /instance: must be one of "work", "home"/,
    });
    // A known instance without an open tab of it is TAB_CLOSED, naming the instance URL.
    await expectError(f, client, "multi__echo", { text: "x", instance: "home" }, {
      code: "TAB_CLOSED",
      status: 503,
      category: "unavailable",
      retryable: true,
      message: /https:\/\/home\.example\.com/,
    });
    assertEquals(dispatches(f.ext).length, 0);
    const ok = await f.call("multi__echo", { text: "x", instance: "work" });
    assertEquals(ok.status, 200);
  });
});

Deno.test("INVALID_ARGUMENTS (400): browser_navigate_tab takes only http(s) URLs; waitForLoad defaults to true", async () => {
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
    assertEquals(dispatches(f.ext).length, 0, "nothing dispatched");

    const ok = await f.call("browser_navigate_tab", { url: "https://example.com/" });
    assertEquals(ok.status, 200, JSON.stringify(ok.body));
    const [dispatch] = dispatches(f.ext);
    assertEquals(dispatch.params.method, "tabs.navigate");
    assertEquals(dispatch.params.kind, "browser");
    assertEquals(dispatch.params.input, { url: "https://example.com/", waitForLoad: true });
  });
});

Deno.test("TOOL_NOT_FOUND (404) for unknown tools on REST, /mcp and the gateway", async () => {
  await withFixture(DEMO, async (f) => {
    const client = await f.mcp();
    const want = {
      code: "TOOL_NOT_FOUND",
      status: 404,
      category: "not_found",
      retryable: false,
      message: /No tool "demo__nope"/,
    };
    await expectError(f, client, "demo__nope", {}, want);
    const gateway = await f.mcp("/mcp/gateway");
    const viaGateway = await gateway.callTool({
      name: "hub_call",
      arguments: { tool: "demo__nope" },
    });
    checkError(viaGateway, want, "gateway");
  });
});

Deno.test("PERMISSION_OFF (403) for off tools, with the command that turns them on", async () => {
  await withFixture({
    ...DEMO,
    config: { permissions: { demo: { permission: "auto", tools: { other: "off" } } } },
  }, async (f) => {
    const client = await f.mcp();
    await expectError(f, client, "demo__other", { text: "x" }, {
      code: "PERMISSION_OFF",
      status: 403,
      category: "permission",
      retryable: false,
      message: /hub config set tool-permission\.demo\.other ask/,
    });
    // Browser tools default to off too.
    await expectError(f, client, "browser_list_tabs", {}, {
      code: "PERMISSION_OFF",
      status: 403,
      category: "permission",
      retryable: false,
    });
    assertEquals(dispatches(f.ext).length, 0);
  });
});

Deno.test("PERMISSION_DENIED (403) when the user denies an ask tool", async () => {
  await withFixture({
    ...DEMO,
    config: { permissions: { demo: { permission: "ask" } } },
  }, async (f) => {
    answerConfirmations(f.ext, "deny");
    const client = await f.mcp();
    await expectError(f, client, "demo__echo", { text: "x" }, {
      code: "PERMISSION_DENIED",
      status: 403,
      category: "permission",
      retryable: false,
      message: /denied/,
    });
    assertEquals(dispatches(f.ext).length, 0);
  });
});

Deno.test("TOOL_DISABLED (403) for browser tools in disabledBrowserTools", async () => {
  await withFixture({
    extension: true,
    config: {
      permissions: { browser: { permission: "auto" } },
      disabledBrowserTools: ["browser_screenshot_tab"],
    },
  }, async (f) => {
    const client = await f.mcp();
    await expectError(f, client, "browser_screenshot_tab", {}, {
      code: "TOOL_DISABLED",
      status: 403,
      category: "permission",
      retryable: false,
      message: /disabledBrowserTools/,
    });
    assertEquals(dispatches(f.ext).length, 0);
    const listed = await f.api("GET", "/tools?plugin=browser");
    assert(!listed.body.tools.some((t: Json) => t.name === "browser_screenshot_tab"));
    const health = await f.health();
    assertEquals(health.disabledBrowserTools, ["browser_screenshot_tab"]);
    assert(health.browserToolNames.includes("browser_screenshot_tab"));
  });
});

Deno.test("EXTENSION_NOT_CONNECTED (503) for plugin and browser tools without an extension", async () => {
  await withFixture({
    plugins: [DEMO_PLUGIN],
    config: { permissions: { demo: { permission: "auto" }, browser: { permission: "auto" } } },
  }, async (f) => {
    const client = await f.mcp();
    const want = {
      code: "EXTENSION_NOT_CONNECTED",
      status: 503,
      category: "unavailable",
      retryable: true,
      message: /extension is not connected/,
    };
    await expectError(f, client, "demo__echo", { text: "x" }, want);
    await expectError(f, client, "browser_list_tabs", {}, want);
  });
});

Deno.test("TAB_CLOSED, TAB_UNAVAILABLE (503) and TAB_NOT_FOUND (404) from the tab state", async () => {
  await withFixture({ ...DEMO, tabs: undefined, extension: true }, async (f) => {
    const client = await f.mcp();
    await expectError(f, client, "demo__echo", { text: "x" }, {
      code: "TAB_CLOSED",
      status: 503,
      category: "unavailable",
      retryable: true,
      message: /No Plugin demo tab is open. Open \*:\/\/example\.com\/\*/,
    });
    await f.ext.setTabs("demo", [{ ...DEMO_TAB, ready: false }]);
    await expectError(f, client, "demo__echo", { text: "x" }, {
      code: "TAB_UNAVAILABLE",
      status: 503,
      category: "unavailable",
      retryable: true,
      message: /not ready/,
    });
    await f.ext.setTabs("demo", [DEMO_TAB]);
    await expectError(f, client, "demo__echo", { text: "x", tabId: 99 }, {
      code: "TAB_NOT_FOUND",
      status: 404,
      category: "not_found",
      retryable: false,
      message: /Tab 99 .*valid tabIds: 7/,
    });
    assertEquals(dispatches(f.ext).length, 0);
  });
});

Deno.test("TIMEOUT (504) when the extension does not answer in time", async () => {
  await withFixture({ ...DEMO, hub: { timeouts: { timeoutMs: 300, maxMs: 5_000 } } }, async (f) => {
    f.ext.onDispatch(() => "hang");
    const client = await f.mcp();
    await expectError(f, client, "demo__echo", { text: "x" }, {
      code: "TIMEOUT",
      status: 504,
      category: "timeout",
      retryable: true,
      message: /did not answer within/,
    });
  });
});

Deno.test("a plugin ToolError keeps its code, category and details (422)", async () => {
  await withFixture(DEMO, async (f) => {
    const toolError = {
      code: "NOT_LOGGED_IN",
      message: "Sign in to Example first.",
      category: "auth" as const,
      retryable: true,
      details: { login: "https://example.com/login" },
    };
    f.ext.onDispatch(() => ({ ok: false, error: toolError }));
    const client = await f.mcp();
    await expectError(f, client, "demo__echo", { text: "x" }, {
      code: "NOT_LOGGED_IN",
      status: 422,
      category: "auth",
      retryable: true,
    });
    const rest = await f.call("demo__echo", { text: "x" });
    assertEquals(errorOf(rest.body), toolError);
    assertEquals(rest.body.content, [{
      type: "text",
      text: "NOT_LOGGED_IN: Sign in to Example first.",
    }]);
  });
});

Deno.test("a huge error message from the page is cut, in the result and the audit entry", async () => {
  await withFixture(DEMO, async (f) => {
    const message = "x".repeat(MAX_ERROR_MESSAGE_CHARS + 50_000);
    f.ext.onDispatch(() => ({
      ok: false,
      error: { code: "SCRIPT_ERROR", message, category: "validation", retryable: false },
    }));
    const rest = await f.call("demo__echo", { text: "x" });
    assertEquals(rest.status, 422);
    const cut = errorOf(rest.body).message as string;
    assert(cut.length < MAX_ERROR_MESSAGE_CHARS + 200, `message length ${cut.length}`);
    assertMatch(
      cut,
      /…\[truncated: showed 4000 of 54000 characters\. The error message was cut\.\]$/,
    );
    const [entry] = (await f.api("GET", "/audit?limit=1")).body;
    assertEquals(entry.error.message, cut);
  });
});

Deno.test("hub codes reported by the extension keep their status; malformed results are 502", async () => {
  await withFixture(DEMO, async (f) => {
    f.ext.onDispatch(() => ({
      ok: false,
      error: {
        code: "TAB_CLOSED",
        message: "The tab closed.",
        category: "unavailable",
        retryable: true,
      },
    }));
    const closed = await f.call("demo__echo", { text: "x" });
    assertEquals(closed.status, 503);
    assertEquals(errorOf(closed.body).code, "TAB_CLOSED");

    f.ext.onDispatch(() => ({ ok: "yes" }) as Json);
    const malformed = await f.call("demo__echo", { text: "x" });
    assertEquals(malformed.status, 502);
    assertEquals(errorOf(malformed.body).code, "EXTENSION_ERROR");
    assertMatch(errorOf(malformed.body).message, /malformed result/);
  });
});

Deno.test("EXTENSION_DISCONNECTED (503) well under a second after the extension drops mid-call", async () => {
  await withFixture(DEMO, async (f) => {
    f.ext.onDispatch(() => "hang");
    const pending = f.call("demo__echo", { text: "x" });
    await f.ext.waitFor((m) => m.method === "tool.dispatch");
    const closing = performance.now();
    await f.ext.close();
    const reply = await pending;
    const elapsed = performance.now() - closing;
    assertEquals(reply.status, 503);
    checkError(reply.body, {
      code: "EXTENSION_DISCONNECTED",
      status: 503,
      category: "unavailable",
      retryable: true,
    }, "REST");
    assert(elapsed < 1_000, `failed ${Math.round(elapsed)} ms after the close`);

    // The same over MCP, with a new extension.
    const ext = await f.connectExtension();
    await ext.setTabs("demo", [DEMO_TAB]);
    ext.onDispatch(() => "hang");
    const client = await f.mcp();
    const call = client.callTool({ name: "demo__echo", arguments: { text: "x" } });
    await ext.waitFor((m) => m.method === "tool.dispatch");
    await ext.close();
    checkError(await call, {
      code: "EXTENSION_DISCONNECTED",
      status: 503,
      category: "unavailable",
      retryable: true,
    }, "/mcp");
  });
});
