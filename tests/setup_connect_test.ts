/**
 * A real client connects with what `hub setup` wrote. A hub runs on a temp HOME; `hub setup` writes
 * every client's file there (http, gateway and stdio entries); the official MCP SDK client is then
 * configured from each file as read back (URL and headers, or command, args and env: never
 * hard-coded), lists the tools and calls one. The stdio block of `hub start --show-config` runs
 * too, from another folder. `hub doctor` then reports every entry current.
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { freePort, type RunningHub, startHub } from "./helpers/hub_process.ts";
import {
  type ClientCase,
  denoDir,
  entryOf,
  homeEnv,
  httpTarget,
  hubIn,
  makeHome,
  setupJson,
  type TempHome,
  USER_CASES,
} from "./helpers/setup_home.ts";

type Entry = Record<string, unknown>;

/** The SDK client over HTTP, with exactly the URL and headers the entry holds. */
async function connectHttp(entry: Entry): Promise<Client> {
  const { url, headers } = httpTarget(entry);
  const client = new Client({ name: "setup-connect-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return client;
}

/** The SDK client spawning the entry's command and args, as a client would, from another folder. */
async function connectStdio(h: TempHome, entry: Entry): Promise<Client> {
  assertEquals(typeof entry.command, "string", JSON.stringify(entry));
  const transport = new StdioClientTransport({
    command: entry.command as string,
    args: (entry.args ?? []) as string[],
    env: {
      // A client's own environment: the entry must carry whatever else the bridge needs.
      HOME: h.home,
      DENO_DIR: denoDir(),
      PATH: Deno.env.get("PATH") ?? "",
      HUB_SKIP_PKG_DISCOVERY: "1",
      NO_COLOR: "1",
      ...(entry.env ?? {}) as Record<string, string>,
    },
    cwd: h.outside,
    stderr: "pipe",
  });
  const client = new Client({ name: "setup-connect-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** Lists the tools and calls a management tool, directly or through gateway's hub_call. */
async function listAndCall(client: Client, gateway: boolean, label: string): Promise<void> {
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    if (gateway) assertEquals(names, ["hub_list_tools", "hub_call"], label);
    else assert(names.includes("plugin_list_tabs"), `${label}: ${names.join(", ")}`);
    const result = gateway
      ? await client.callTool({
        name: "hub_call",
        arguments: { tool: "plugin_list_tabs", arguments: {} },
      })
      : await client.callTool({ name: "plugin_list_tabs", arguments: {} });
    assertEquals(result.isError, undefined, `${label}: ${JSON.stringify(result)}`);
    assertMatch(JSON.stringify(result.content), /extensionConnected/, label);
  } finally {
    await client.close();
  }
}

async function connectEntry(h: TempHome, c: ClientCase, name: string, gateway: boolean) {
  const entry = entryOf(c, await Deno.readTextFile(c.path(h)), name);
  assert(entry, `${c.id}: no "${name}" entry`);
  const client = typeof entry.command === "string"
    ? await connectStdio(h, entry)
    : await connectHttp(entry);
  await listAndCall(client, gateway, `${c.id} "${name}"`);
}

/** The JSON object after `marker` in `text` (the stdio block `hub start --show-config` prints). */
function jsonAfter(text: string, marker: string): Entry {
  const from = text.indexOf("{", text.indexOf(marker));
  assert(text.includes(marker) && from > 0, text);
  for (let end = text.indexOf("\n}", from); end > 0; end = text.indexOf("\n}", end + 1)) {
    try {
      return JSON.parse(text.slice(from, end + 2));
    } catch {
      // not the end of the block yet
    }
  }
  throw new Error(`no JSON after "${marker}" in:\n${text}`);
}

/**
 * A hub takes 5 new MCP sessions a minute: this one restarts on the same port (which the written
 * entries name) before each sixth session.
 */
class SessionBudget {
  hub: RunningHub | undefined;
  #used = 0;
  constructor(readonly h: TempHome, readonly port: number) {}

  async start(): Promise<void> {
    const h = this.h;
    this.hub = await startHub({
      configDir: h.configDir,
      env: homeEnv(h),
      cwd: h.project,
      port: this.port,
    });
    this.#used = 0;
  }

  /** Call before opening a session. */
  async take(): Promise<void> {
    if (this.#used === 5) {
      await this.hub?.stop();
      await this.start();
    }
    this.#used++;
  }
}

Deno.test("hub setup: the official MCP client connects with what was written", async (t) => {
  const h = await makeHome();
  const budget = new SessionBudget(h, freePort());
  try {
    await budget.start();
    const port = ["--port", String(budget.port)];
    const ids = (cases: ClientCase[]) => cases.map((c) => c.id);

    await t.step("hub setup writes http, gateway and stdio entries", async () => {
      for (
        const args of [
          [...ids(USER_CASES), ...port],
          [...ids(USER_CASES), "--mode", "gateway", "--name", "hub-gateway", ...port],
          [...ids(USER_CASES), "--mode", "stdio", "--name", "hub-stdio", ...port],
        ]
      ) {
        const { result, clients } = await setupJson(h, args);
        assertEquals(result.code, 0, result.stderr + result.stdout);
        assert(clients.every((c) => c.outcome === "added"), JSON.stringify(clients));
      }
    });

    for (const c of USER_CASES) {
      await t.step(
        `${c.id}: http (stdio for Claude Desktop), gateway and stdio connect`,
        async () => {
          await budget.take();
          await connectEntry(h, c, "hub", false);
          await budget.take();
          await connectEntry(h, c, "hub-gateway", true);
          await budget.take();
          await connectEntry(h, c, "hub-stdio", false);
        },
      );
    }

    await t.step("the stdio block of hub start --show-config runs", async () => {
      const shown = await hubIn(h, ["start", "--show-config", ...port]);
      assertEquals(shown.code, 0, shown.stderr);
      const block = jsonAfter(shown.stdout, "Clients that only spawn processes");
      const entry = (block.mcpServers as Record<string, Entry>).hub;
      assert((entry.command as string).startsWith("/"), `an absolute command: ${entry.command}`);
      await budget.take();
      await listAndCall(await connectStdio(h, entry), false, "--show-config stdio");
    });

    await t.step("hub doctor: every configured entry current", async () => {
      const result = await hubIn(h, ["doctor", "--json", ...port]);
      const mcp = JSON.parse(result.stdout).checks.find((c: Entry) => c.id === "mcp_clients");
      assertEquals(mcp.status, "pass", mcp.message);
      // 7 × hub, hub-gateway and hub-stdio; the lines listed are bounded.
      assertMatch(
        mcp.message,
        /^Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Gemini CLI, Codex: 21 hub entries current\n/,
      );
      assertEquals(/STALE|not checked/.test(mcp.message), false, mcp.message);
    });
  } finally {
    await budget.hub?.stop();
    await Deno.remove(h.base, { recursive: true });
  }
});
