/**
 * Security, strict input, against one real `hub start`: malformed or duplicate `Host`/`Origin`
 * headers are 400/403 (never 500, never a pass, never a stack trace in server.log); `GET /ws`
 * without an upgrade is 426; names of `Object.prototype` members (`constructor`, `__proto__`,
 * `toString`…) are refused as keys everywhere a person or a client names one: plugin settings
 * (REST, `/ws`, `hub config set`), permissions, tool names, and config.json itself.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  freePort,
  runHub,
  type RunningHub,
  startHub,
  tempConfigDir,
} from "../helpers/hub_process.ts";
import { api, readConfig, writeConfig } from "../helpers/hub_api.ts";
import { rawRequest, rawSend } from "../helpers/raw_http.ts";
import { FakeExtension } from "../helpers/fake_extension.ts";
import { writePluginFolder } from "../helpers/plugin_cli.ts";
import { connectMcp } from "../helpers/mcp_client.ts";

/** Every own name of Object.prototype, plus `prototype`. */
const PROTO_KEYS = [...Object.getOwnPropertyNames(Object.prototype), "prototype"];

let hub: RunningHub;
let configDir = "";

Deno.test.beforeAll(async () => {
  configDir = await tempConfigDir();
  const plugin = await writePluginFolder(join(configDir, "plugins", "demo"), {
    name: "demo",
    tools: ["echo", "other"],
    hub: { configSchema: { limit: { type: "number", label: "Limit", min: 1, max: 10 } } },
  });
  // Reserved keys written by hand (or by an older hub): dropped on load, with a warning.
  await Deno.mkdir(configDir, { recursive: true });
  await Deno.writeTextFile(
    join(configDir, "config.json"),
    `{"localPlugins": ${JSON.stringify([plugin])},
      "permissions": {"demo": {"permission": "ask", "tools": {"constructor": "auto", "toString": "auto"}},
                      "__proto__": {"permission": "auto"}, "valueOf": {"permission": "auto"}},
      "settings": {"demo": {"limit": 3, "constructor": 5, "__proto__": {"limit": 9}}, "toString": {}}}`,
  );
  hub = await startHub({ configDir, env: { HUB_LOG_LEVEL: "debug" } });
});

Deno.test.afterAll(async () => {
  try {
    assertEquals(await hub?.stop(), 0);
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

const serverLog = () => Deno.readTextFile(join(configDir, "server.log")).catch(() => "");

function errorCode(body: string): string | undefined {
  try {
    return JSON.parse(body).error?.code;
  } catch {
    return undefined;
  }
}

Deno.test("a malformed Host is 400 and a foreign one 403; never 500, never a stack trace", async () => {
  const before = (await serverLog()).split("\n").length;
  const malformed = [
    "a b",
    "127.0.0.1:99999",
    "[::1",
    "localhost:65536",
    "[::1]:70000",
    "127.0.0.1:0",
    "localhost:80:80",
    "x@127.0.0.1",
    "127.0.0.1/x",
  ];
  for (const host of malformed) {
    const reply = await rawRequest(hub.port, { path: "/health", headers: { Host: host } });
    assertEquals(reply.status, 400, `Host: "${host}" ${reply.body}`);
    assertEquals(errorCode(reply.body), "BAD_HOST", `Host: "${host}"`);
  }
  for (const host of ["evil.example", "[::2]:9515", "a%20b"]) {
    const reply = await rawRequest(hub.port, { path: "/health", headers: { Host: host } });
    assertEquals(reply.status, 403, `Host: "${host}"`);
    assertEquals(errorCode(reply.body), "FORBIDDEN_HOST");
  }
  // A header Deno joins or refuses itself: two Host lines.
  const twice = await rawSend(
    hub.port,
    "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
  );
  assertEquals(twice.status, 400, "two Host headers");
  // A very long malformed host is answered with a bounded message.
  const long = await rawRequest(hub.port, {
    path: "/health",
    headers: { Host: `${"a".repeat(20_000)} b` },
  });
  assertEquals(long.status, 400);
  assert(long.body.length < 1_000, `bounded answer, got ${long.body.length} bytes`);

  const added = (await serverLog()).split("\n").slice(before - 1).filter((l) => l !== "");
  const requests = malformed.length + 3 + 1;
  assert(added.length <= requests, `at most one line per request, got:\n${added.join("\n")}`);
  for (const line of added) {
    assertMatch(line, /DEBUG/, `only debug lines: ${line}`);
    assert(line.length < 300, `a bounded line: ${line.slice(0, 300)}`);
    assert(!/INTERNAL|failed|\bat /.test(line), `no error or stack: ${line}`);
  }
  assertEquals((await fetch(`${hub.url}/health`).then((r) => r.json())).status, "ok");
});

Deno.test("a duplicate or malformed Origin is 403, even with the right secret", async () => {
  const auth = `Authorization: Bearer ${hub.secret}\r\n`;
  const head = (path: string, origins: string[]) =>
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}` +
    origins.map((o) => `Origin: ${o}\r\n`).join("") + "Connection: close\r\n\r\n";
  const cases = [
    ["chrome-extension://abcdefghijklmnop", "http://evil.example"],
    ["http://evil.example", "chrome-extension://abcdefghijklmnop"],
    ["chrome-extension://a", "chrome-extension://b"],
    ["chrome-extension://a, http://evil.example"],
    ["chrome-extension://a http://evil.example"],
    ["chrome-extension://a/path"],
    ["chrome-extension://"],
  ];
  for (const origins of cases) {
    for (const path of ["/health", "/ws-info"]) {
      const reply = await rawSend(hub.port, head(path, origins));
      assertEquals(reply.status, 403, `${path} Origin: ${origins.join(" + ")}`);
      assertEquals(errorCode(reply.body), "FORBIDDEN_ORIGIN");
    }
  }
  const one = await rawSend(hub.port, head("/ws-info", ["chrome-extension://abcdefghijklmnop"]));
  assertEquals(one.status, 200, "a single extension origin still passes");
});

Deno.test("GET /ws without a WebSocket upgrade is 426 with or without credentials", async () => {
  const variants: Record<string, string>[] = [
    {},
    { authorization: `Bearer ${hub.secret}` },
    { "sec-websocket-protocol": `hub, ${hub.secret}` },
    { "sec-websocket-protocol": "hub, wrong" },
  ];
  for (const headers of variants) {
    const res = await fetch(`${hub.url}/ws`, { headers });
    const text = await res.text();
    assertEquals(res.status, 426, JSON.stringify(headers));
    assertEquals(res.headers.get("upgrade"), "websocket");
    assertEquals(JSON.parse(text).error.code, "UPGRADE_REQUIRED");
    assert(!text.includes(hub.secret), "the answer never holds the secret");
  }
  // Host and Origin still come first.
  const evil = await fetch(`${hub.url}/ws`, { headers: { origin: "https://evil.example" } });
  assertEquals(evil.status, 403);
  await evil.body?.cancel();
});

Deno.test("reserved keys in config.json were dropped on load with a warning", async () => {
  const output = hub.output();
  for (const key of ["constructor", "toString", "valueOf"]) {
    assertMatch(output, new RegExp(`"${key}".*reserved`), `a warning names ${key}`);
  }
  const tools = await api(hub, "GET", "/tools?plugin=demo");
  assertEquals(
    tools.body.tools.map((t: { permission: string }) => t.permission),
    ["ask", "ask"],
    "a tools.constructor override grants nothing",
  );
  const health = await api(hub, "GET", "/health");
  assertEquals(health.status, 200);
});

Deno.test("POST /plugin-settings refuses every Object.prototype name as a key", async () => {
  // The route allows 10 requests a minute: every key goes in one body, the problems are listed.
  const before = await Deno.readTextFile(join(configDir, "config.json"));
  const all = `{"plugin": "demo", "settings": {${
    PROTO_KEYS.map((k) => `${JSON.stringify(k)}: 5`).join(", ")
  }}}`;
  const reply = await api(hub, "POST", "/plugin-settings", all);
  assertEquals(reply.status, 400, JSON.stringify(reply.body));
  assertEquals(reply.body.error.code, "INVALID_SETTINGS");
  for (const key of PROTO_KEYS.slice(0, 10)) {
    assertMatch(reply.body.error.message, new RegExp(`"${key}" is reserved`), key);
  }
  assertMatch(reply.body.error.message, /and 3 more problems/);
  // Sent as text, so `__proto__` arrives as an own key of the parsed body.
  const nested = await api(
    hub,
    "POST",
    "/plugin-settings",
    '{"plugin": "demo", "settings": {"__proto__": {"limit": 9}}}',
  );
  assertEquals(nested.status, 400);
  assertMatch(nested.body.error.message, /"__proto__" is reserved/);
  for (const plugin of ["constructor", "__proto__"]) {
    const reply = await api(
      hub,
      "POST",
      "/plugin-settings",
      `{"plugin": ${JSON.stringify(plugin)}, "settings": {"limit": 2}}`,
    );
    assertEquals(reply.status, 404, plugin);
    assertEquals(reply.body.error.code, "PLUGIN_NOT_FOUND");
  }
  assertEquals(await Deno.readTextFile(join(configDir, "config.json")), before, "nothing saved");
  const ok = await api(hub, "POST", "/plugin-settings", { plugin: "demo", settings: { limit: 4 } });
  assertEquals(ok.status, 200, JSON.stringify(ok.body));
  assertEquals((await readConfig(configDir)).settings.demo, { limit: 4 });
});

Deno.test("/ws config requests refuse Object.prototype names as plugin, tool and setting keys", async () => {
  const ext = await FakeExtension.connect(hub.port, hub.secret);
  try {
    await ext.waitFor((m) => m.method === "sync.full");
    const before = await Deno.readTextFile(join(configDir, "config.json"));
    for (const key of PROTO_KEYS) {
      const requests: [string, unknown][] = [
        ["config.setPluginSettings", { plugin: "demo", settings: { [key]: 5 } }],
        ["config.setPluginSettings", { plugin: key, settings: { limit: 5 } }],
        ["config.setToolPermission", { plugin: "demo", tool: key, permission: "auto" }],
        ["config.setToolPermission", { plugin: key, tool: "echo", permission: "auto" }],
        ["config.setToolPermission", { plugin: "browser", tool: key, permission: "auto" }],
        ["config.setPluginPermission", { plugin: key, permission: "auto" }],
      ];
      for (const [method, params] of requests) {
        // JSON.stringify keeps a computed `__proto__` key as an own property.
        const reply = await ext.request(method, params);
        assert(reply.error, `${method} ${JSON.stringify(params)} must fail`);
        assertEquals(reply.error.code, -32602, `${method} ${key}`);
      }
    }
    const settings = await ext.request("config.setPluginSettings", {
      plugin: "demo",
      settings: { constructor: 5 },
    });
    assertMatch(settings.error.message, /reserved/);
    assertEquals(await Deno.readTextFile(join(configDir, "config.json")), before, "nothing saved");
  } finally {
    await ext.close();
  }
});

Deno.test("hub config set refuses Object.prototype names as plugin, tool and setting keys", async () => {
  const dir = await tempConfigDir();
  try {
    await writeConfig(dir, { permissions: { demo: { permission: "ask" } } });
    const before = await Deno.readTextFile(join(dir, "config.json"));
    const env = { HUB_PORT: String(freePort()) };
    const cases: [string, string][] = [
      ["setting.demo.constructor", "5"],
      ["setting.demo.__proto__", '{"limit": 9}'],
      ["setting.demo.toString", "1"],
      ["setting.demo.valueOf", ""],
      ["setting.constructor.limit", "3"],
      ["tool-permission.demo.constructor", "auto"],
      ["tool-permission.demo.toString", "auto"],
      ["tool-permission.browser.hasOwnProperty", "auto"],
      ["tool-permission.constructor.echo", "auto"],
      ["plugin-permission.constructor", "auto"],
      ["plugin-permission.prototype", "auto"],
    ];
    for (const [key, value] of cases) {
      const r = await runHub(["config", "set", key, value], { configDir: dir, env });
      assertEquals(r.code, 1, `config set ${key}: ${r.stdout}${r.stderr}`);
      assertMatch(r.stderr, /reserved/, key);
    }
    assertEquals(await Deno.readTextFile(join(dir, "config.json")), before, "nothing saved");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tools named like Object.prototype members are TOOL_NOT_FOUND on REST and MCP", async () => {
  for (const name of [...PROTO_KEYS, "demo__constructor", "demo____proto__"]) {
    const reply = await api(hub, "POST", `/tools/${encodeURIComponent(name)}/call`, {
      arguments: {},
    });
    assertEquals(reply.status, 404, `${name}: ${JSON.stringify(reply.body)}`);
    assertEquals(reply.body.structuredContent.error.code, "TOOL_NOT_FOUND", name);
  }
  for (const plugin of ["constructor", "__proto__"]) {
    const reply = await api(hub, "GET", `/tools?plugin=${plugin}`);
    assertEquals(reply.status, 404, plugin);
    const audit = await api(hub, "GET", `/audit?plugin=${plugin}&tool=${plugin}`);
    assertEquals(audit.status, 200);
  }
  const client = await connectMcp(hub.url, hub.secret);
  try {
    for (const name of ["constructor", "__proto__", "toString"]) {
      const result = await client.callTool({ name, arguments: {} });
      assertEquals(result.isError, true, name);
      // deno-lint-ignore no-explicit-any
      assertEquals((result.structuredContent as any)?.error?.code, "TOOL_NOT_FOUND", name);
    }
  } finally {
    await client.close();
  }
  assertEquals((await api(hub, "GET", "/health")).status, 200);
});
