/**
 * End to end: `hub start --stdio` (the bridge for MCP clients that spawn hub) as MCP clients use
 * it: the official SDK client spawns the real CLI, which bridges stdin/stdout to a running hub's
 * `/mcp` (or `/mcp/gateway` with `--gateway`). Tools, calls, progress and plugin logs cross the
 * bridge; closing the client ends the bridge and its hub session; without a hub it fails at once;
 * a hub restart on the same port is survived.
 */
import { initializeRequest } from "./helpers/mcp_client.ts";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { isAbsolute, join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { api, listTools } from "./helpers/hub_api.ts";
import {
  exists,
  freePort,
  ROOT,
  runHub,
  startHub,
  taskPermissionFlags,
  withTempDir,
} from "./helpers/hub_process.ts";
import {
  AUTO_DEMO_HUB,
  bridgeCommandArgs,
  type CliHub,
  DEMO_PLUGIN,
  MAIN,
  startCliHub,
  waitUntil,
} from "./helpers/cli_tool_fixture.ts";
import type { Json } from "./helpers/fake_extension.ts";
import { unmarked } from "./helpers/page_content.ts";

let hub: CliHub;

Deno.test.beforeAll(async () => {
  hub = await startCliHub(AUTO_DEMO_HUB);
});

Deno.test.afterAll(async () => {
  assertEquals(await hub?.close(), 0);
});

/** `hub <args>` as a command line: main.ts under the `hub` task's permissions. */
function hubArgs(args: string[]): string[] {
  return ["run", "--quiet", ...taskPermissionFlags(), MAIN, ...args];
}

/** The command line an MCP client config would hold: `hub start --stdio --port N [...]`. */
function bridgeArgs(extra: string[] = [], port = hub.port): string[] {
  return bridgeCommandArgs(port, extra);
}

interface Bridge {
  client: Client;
  transport: StdioClientTransport;
  stderr(): string;
}

/** The official SDK client spawning the bridge, as Claude Desktop and friends do. */
async function connectBridge(extra: string[] = [], target = hub): Promise<Bridge> {
  return await connectCommand(bridgeArgs(extra, target.port), target.dir);
}

/** The SDK client spawning `deno <args>` with HUB_CONFIG_DIR=`configDir`. */
async function connectCommand(
  args: string[],
  configDir: string,
  spawn: { command?: string; env?: Record<string, string>; cwd?: string } = {},
): Promise<Bridge> {
  const transport = new StdioClientTransport({
    command: spawn.command ?? Deno.execPath(),
    args,
    env: {
      HUB_CONFIG_DIR: configDir,
      HUB_SKIP_PKG_DISCOVERY: "1",
      NO_COLOR: "1",
      ...spawn.env,
    },
    cwd: spawn.cwd ?? ROOT,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "stdio-bridge-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

async function mcpClients(): Promise<number> {
  return (await api(hub.hub, "GET", "/health")).body.mcpClients;
}

Deno.test("through the bridge: list tools, call them, get progress and plugin logs; closing ends it", async () => {
  const bridge = await connectBridge();
  const { client } = bridge;
  try {
    assertEquals(await mcpClients(), 1, "the bridge holds one hub session");

    const { tools } = await client.listTools();
    assertEquals(
      tools.map((t) => t.name).sort(),
      (await listTools(hub.hub)).map((t) => t.name).sort(),
      "the same tools as GET /tools",
    );
    const echo = tools.find((t) => t.name === "demo__echo")!;
    assertEquals(echo.inputSchema.required, ["text"]);
    assertMatch(tools.find((t) => t.name === "browser_list_tabs")!.description!, /^\[Disabled\]/);

    const tabs = await client.callTool({ name: "plugin_list_tabs", arguments: {} });
    assertEquals(tabs.isError, undefined, JSON.stringify(tabs));
    assertEquals(tabs.structuredContent, {
      extensionConnected: true,
      plugins: [{
        plugin: "demo",
        state: "ready",
        tabs: [{ tabId: 7, url: "https://example.com/home", title: "Home", ready: true }],
      }],
    });

    // Progress: the extension reports it with tool.progress; the client asked with a token.
    hub.extension.onDispatch(async (p, ext) => {
      ext.progress(p.dispatchId, 1, 3, "first");
      ext.progress(p.dispatchId, 2, 3, "second");
      await new Promise((r) => setTimeout(r, 150));
      return { ok: true, value: { said: p.input.text } };
    });
    const progress: Json[] = [];
    const result = await client.callTool(
      { name: "demo__echo", arguments: { text: "slow" } },
      undefined,
      { onprogress: (p: Json) => progress.push(p) },
    );
    assertEquals(unmarked(result).structuredContent, { said: "slow" });
    assertEquals(progress, [
      { progress: 1, total: 3, message: "first" },
      { progress: 2, total: 3, message: "second" },
    ]);

    // Logs: plugin.log from the extension becomes notifications/message on stdout.
    const logs: Json[] = [];
    client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (n: Json) => void logs.push(n.params),
    );
    // The bridge opens the hub's notification stream in the background after initialize;
    // entries sent before it is open are not delivered, so probe until one arrives.
    await waitUntil(() => {
      if (logs.length > 0) return true;
      hub.extension.notify("plugin.log", {
        plugin: "demo",
        entries: [{ level: "debug", message: "stream check" }],
      });
      return false;
    }, "the first log message through the bridge");
    hub.extension.notify("plugin.log", {
      plugin: "demo",
      entries: [{ level: "warn", message: "from the page", data: { n: 1 } }],
    });
    await waitUntil(() => logs.some((l) => l.level === "warning"), "the warning");
    assertEquals(logs.find((l) => l.level === "warning"), {
      level: "warning",
      logger: "plugin:demo",
      data: { message: "from the page", data: { n: 1 } },
    });

    // A reload announces a new tool list; the notification crosses the bridge too.
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged++);
    assertEquals((await api(hub.hub, "POST", "/reload")).status, 200);
    await waitUntil(() => listChanged > 0, "notifications/tools/list_changed");
    assertMatch(bridge.stderr(), /bridging stdio to http:\/\/127\.0\.0\.1:\d+\/mcp/);
  } finally {
    // The SDK closes the bridge's stdin (then, after 2 s, sends SIGTERM); that the bridge exits
    // with 0 on stdin's end alone is checked with a raw process below.
    const pid = bridge.transport.pid;
    await client.close();
    assert(pid !== null && !(await exists(`/proc/${pid}`)), `bridge process ${pid} is gone`);
  }
  await waitUntil(async () => (await mcpClients()) === 0, "the hub session to close");
});

Deno.test("--gateway bridges /mcp/gateway: exactly hub_list_tools and hub_call", async () => {
  const { client } = await connectBridge(["--gateway"]);
  try {
    const { tools } = await client.listTools();
    assertEquals(tools.map((t) => t.name).sort(), ["hub_call", "hub_list_tools"]);
    hub.extension.onDispatch((p) => ({ ok: true, value: { said: p.input.text } }));
    const result = await client.callTool({
      name: "hub_call",
      arguments: { tool: "demo__echo", arguments: { text: "via gateway" } },
    });
    assertEquals(unmarked(result).structuredContent, { said: "via gateway" });
    const listed = await client.callTool({ name: "hub_list_tools", arguments: { plugin: "demo" } });
    assertEquals(
      (listed.structuredContent as Json).tools.map((t: Json) => t.name),
      ["demo__echo", "demo__other"],
    );
  } finally {
    await client.close();
  }
  await waitUntil(async () => (await mcpClients()) === 0, "the gateway session to close");
});

// The messages go in one write, without waiting for initialize's answer (pipelining): the bridge
// holds them until the session exists, then sends them.
Deno.test("the bridge writes only JSON-RPC on stdout, serves a pipelining client, exits 0 when its stdin closes", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: bridgeArgs(),
    cwd: ROOT,
    env: { HUB_CONFIG_DIR: hub.dir, HUB_SKIP_PKG_DISCOVERY: "1", NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  try {
    let stdout = "";
    const reading = (async () => {
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) stdout += chunk;
    })();
    const stderr = new Response(child.stderr).text();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(
      [
        initializeRequest("raw"),
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        { jsonrpc: "2.0", id: 3, method: "ping" },
      ].map((m) => JSON.stringify(m) + "\n").join(""),
    ));
    await waitUntil(
      () => stdout.includes('"id":2') && stdout.includes('"id":3'),
      "the answers",
      15_000,
    );
    await writer.close();
    const started = performance.now();
    const status = await child.status;
    await reading;
    assertEquals(status.code, 0, await stderr);
    assert(performance.now() - started < 5_000, "exits soon after stdin closes");
    const messages = stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert(messages.every((m) => m.jsonrpc === "2.0"), stdout);
    assertEquals(messages.find((m) => m.id === 1).result.serverInfo !== undefined, true);
    assert(messages.find((m) => m.id === 2)?.result?.tools.length > 0, stdout);
    assertEquals(messages.find((m) => m.id === 3)?.result, {}, stdout);
    assertMatch(await stderr, /hub --stdio: bridging stdio to /);
  } finally {
    clearTimeout(killer);
  }
  await waitUntil(async () => (await mcpClients()) === 0, "the raw session to close");
});

Deno.test("with no hub on the port the bridge exits non-zero at once, saying how to start one", async () => {
  const port = freePort();
  const started = performance.now();
  const r = await runHub(["start", "--stdio", "--port", String(port)], {
    configDir: hub.dir,
    timeoutMs: 15_000,
  });
  const took = performance.now() - started;
  assert(r.code !== 0, `exit code ${r.code}`);
  assertEquals(r.stdout, "", "nothing on stdout: an MCP client would read it as protocol");
  assertMatch(r.stderr, new RegExp(`No hub is running on port ${port}\\b`));
  assertMatch(r.stderr, /hub start --background/);
  assert(took < 10_000, `took ${Math.round(took)} ms`);

  const [viaEnv, gatewayAlone] = await Promise.all([
    runHub(["start", "--stdio", "--gateway"], {
      configDir: hub.dir,
      env: { HUB_PORT: String(port) },
      timeoutMs: 15_000,
    }),
    runHub(["start", "--gateway", "--port", String(port)], {
      configDir: hub.dir,
      timeoutMs: 15_000,
    }),
  ]);
  assert(viaEnv.code !== 0);
  assertEquals(viaEnv.stdout, "");
  assertMatch(viaEnv.stderr, new RegExp(`No hub is running on port ${port}\\b`));
  assertEquals(gatewayAlone.code, 1);
  assertMatch(gatewayAlone.stderr, /--gateway only goes with --stdio/);
});

Deno.test("a bridge without the hub's secret (another config dir) fails with a clear message", async () => {
  await withTempDir(async (other) => {
    const r = await runHub(["start", "--stdio", "--port", String(hub.port)], {
      configDir: other,
      timeoutMs: 15_000,
    });
    assertEquals(r.code, 1, r.stderr);
    assertEquals(r.stdout, "");
    assertMatch(r.stderr, /No secret in .*auth\.json.*same HUB_CONFIG_DIR as the hub/);
  });
});

Deno.test("hub status without the hub's secret (another config dir) says so, without crashing", async () => {
  await withTempDir(async (other) => {
    const r = await runHub(["status", "--port", String(hub.port)], { configDir: other });
    assertEquals(r.code, 1, r.stderr);
    assertMatch(r.stderr, /no secret in .*auth\.json.*same HUB_CONFIG_DIR as the hub/);
    assert(!/a bug in hub/.test(r.stderr), r.stderr);
  });
});

Deno.test("without --port or HUB_PORT the bridge finds the hub through the config's port", async () => {
  await withTempDir(async (dir) => {
    // Another config dir that shares the hub's secret and names its port.
    await Deno.mkdir(join(dir, "extension"));
    await Deno.copyFile(
      join(hub.dir, "extension", "auth.json"),
      join(dir, "extension", "auth.json"),
    );
    await Deno.writeTextFile(join(dir, "config.json"), JSON.stringify({ port: hub.port }));
    const { client, stderr } = await connectCommand(hubArgs(["start", "--stdio"]), dir);
    try {
      assert((await client.listTools()).tools.some((t) => t.name === "plugin_list_tabs"));
      assertMatch(stderr(), new RegExp(`bridging stdio to http://127\\.0\\.0\\.1:${hub.port}/mcp`));
    } finally {
      await client.close();
    }
  });
});

Deno.test("when the hub stops under a connected bridge, requests fail with an error instead of hanging", async () => {
  const other = await startCliHub({ extension: false });
  try {
    const { client } = await connectBridge([], other);
    try {
      assert((await client.listTools()).tools.length > 0);
      assertEquals(await other.stopHub(), 0);
      const outcome = await Promise.race([
        client.listTools().then(() => "answered", (e: Error) => e.message),
        new Promise<string>((r) => setTimeout(() => r("hung"), 10_000)),
      ]);
      assertMatch(outcome, new RegExp(`hub on port ${other.port} did not take the request`));
    } finally {
      await client.close();
    }
  } finally {
    await other.close();
  }
});

Deno.test({
  name: "the stdio config printed by `hub start --show-config --port N` reaches the hub on port N",
  async fn() {
    const shown = await runHub(["start", "--show-config", "--port", String(hub.port)], {
      configDir: hub.dir,
      timeoutMs: 15_000,
    });
    assertEquals(shown.code, 0, shown.stderr);
    assert(shown.stdout.includes(`http://127.0.0.1:${hub.port}/mcp`), shown.stdout);
    const block = shown.stdout.split(/Clients that only spawn processes.*\n/)[1].split("\n\n")[0];
    const entry = JSON.parse(block).mcpServers.hub;
    // A command that exists, by absolute path (this checkout: deno with main.ts), spawned as a
    // client would: as printed, from another folder; HUB_PORT is not set.
    assert(isAbsolute(entry.command), entry.command);
    const elsewhere = await Deno.makeTempDir();
    const { client } = await connectCommand(entry.args, hub.dir, {
      command: entry.command,
      env: entry.env ?? {},
      cwd: elsewhere,
    });
    try {
      assert((await client.listTools()).tools.some((t) => t.name === "plugin_list_tabs"));
    } finally {
      await client.close();
      await Deno.remove(elsewhere, { recursive: true });
    }
  },
});

Deno.test("the same bridge client keeps working across a hub restart on the same port", async () => {
  const own = await startCliHub({
    plugins: [DEMO_PLUGIN],
    config: { permissions: { demo: { permission: "auto", tools: {} } } },
    extension: false,
  });
  const port = own.port;
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: bridgeCommandArgs(port),
    env: { HUB_CONFIG_DIR: own.dir, HUB_SKIP_PKG_DISCOVERY: "1", NO_COLOR: "1" },
    cwd: ROOT,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "bridge-restart", version: "1.0.0" });
  try {
    await client.connect(transport);
    const before = (await client.listTools()).tools.map((t) => t.name).sort();
    assert(before.includes("demo__echo"));

    assertEquals(await own.stopHub(), 0);
    own.hub = await startHub({ configDir: own.dir, port });
    assertEquals(own.port, port);

    // Three requests at once find the session lost: one new session serves them all.
    const [list, again, tabs] = await Promise.all([
      client.listTools(),
      client.listTools(),
      client.callTool({ name: "plugin_list_tabs", arguments: {} }),
    ]);
    for (const after of [list, again]) {
      assertEquals(after.tools.map((t) => t.name).sort(), before, stderr);
    }
    assertEquals(tabs.isError, undefined, JSON.stringify(tabs) + stderr);
    assertEquals((tabs.structuredContent as Json).extensionConnected, false);
    assertEquals(stderr.match(/lost this session/g)?.length, 1, stderr);
  } finally {
    await client.close();
    assertEquals(await own.close(), 0);
  }
});
