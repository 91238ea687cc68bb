/**
 * End to end with a third-party MCP client: the MCP Inspector's CLI mode (`npx -y
 * @modelcontextprotocol/inspector --cli <url> --transport http --header "Authorization: Bearer …"`)
 * against a running hub's `/mcp` and `/mcp/gateway`.
 *
 * The version is pinned: on this machine's Node 20, an unpinned `npx @modelcontextprotocol/inspector`
 * resolves (by the packages' `engines` field) to 0.15.0, whose CLI cannot send headers, so it cannot
 * authenticate. 2.12.0 (the `latest` tag) declares Node >= 22.19 but runs here (npm only warns).
 * Its state files are pointed into a temp dir so the run leaves `~/.mcp-inspector` alone.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { listTools } from "./helpers/hub_api.ts";
import { runCommand, type RunResult, tempConfigDir } from "./helpers/hub_process.ts";
import { AUTO_DEMO_HUB, type CliHub, jsonOut, startCliHub } from "./helpers/cli_tool_fixture.ts";
import type { Json } from "./helpers/fake_extension.ts";
import { unmarked } from "./helpers/page_content.ts";

const INSPECTOR = Deno.env.get("HUB_TEST_INSPECTOR") ?? "@modelcontextprotocol/inspector@2.12.0";

let hub: CliHub;
let work = "";

Deno.test.beforeAll(async () => {
  work = await tempConfigDir();
  hub = await startCliHub(AUTO_DEMO_HUB);
});

Deno.test.afterAll(async () => {
  try {
    assertEquals(await hub?.close(), 0);
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});

/** `npx -y <inspector> <args>` in a temp dir, with the inspector's own files kept in it. */
function npxInspector(args: string[], timeoutMs = 120_000): Promise<RunResult> {
  const command = new Deno.Command("npx", {
    args: ["-y", INSPECTOR, ...args],
    cwd: work,
    env: {
      MCP_STORAGE_DIR: `${work}/storage`,
      MCP_CATALOG_PATH: `${work}/mcp.json`,
      MCP_CLIENT_CONFIG_PATH: `${work}/client.json`,
      NO_COLOR: "1",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
  return runCommand(`npx ${INSPECTOR} ${args.join(" ")}`, command, timeoutMs);
}

/** The inspector CLI against `<hub>/<path>` with the hub's Bearer secret. */
function inspect(path: string, args: string[], secret = hub.secret): Promise<RunResult> {
  return npxInspector([
    "--cli",
    `${hub.url}${path}`,
    "--transport",
    "http",
    "--header",
    `Authorization: Bearer ${secret}`,
    ...args,
  ]);
}

Deno.test({
  name: "pre-warm: npx fetches the MCP Inspector (slow only the first time)",
  async fn() {
    const r = await npxInspector(["--cli", "--help"], 300_000);
    assertEquals(r.code, 0, r.stderr);
    assert(r.stdout.includes("--header"), `the inspector CLI takes --header:\n${r.stdout}`);
  },
});

Deno.test("inspector: tools/list on /mcp lists the hub's tools", async () => {
  const listed = jsonOut(await inspect("/mcp", ["--method", "tools/list"]), "tools/list");
  const names = listed.tools.map((t: Json) => t.name);
  assertEquals(names.sort(), (await listTools(hub.hub)).map((t) => t.name).sort());
  for (const name of ["demo__echo", "plugin_list_tabs", "browser_list_tabs"]) {
    assert(names.includes(name), `${name} in ${names}`);
  }
  const echo = listed.tools.find((t: Json) => t.name === "demo__echo");
  assertEquals(echo.inputSchema.required, ["text"]);
});

Deno.test("inspector: tools/call plugin_list_tabs on /mcp returns the tabs", async () => {
  const result = jsonOut(
    await inspect("/mcp", ["--method", "tools/call", "--tool-name", "plugin_list_tabs"]),
    "tools/call plugin_list_tabs",
  );
  assert(!result.isError, JSON.stringify(result));
  assertEquals(result.structuredContent, {
    extensionConnected: true,
    plugins: [{
      plugin: "demo",
      state: "ready",
      tabs: [{ tabId: 7, url: "https://example.com/home", title: "Home", ready: true }],
    }],
  });
  assertEquals(JSON.parse(result.content[0].text), result.structuredContent);
});

Deno.test("inspector: /mcp/gateway lists exactly hub_list_tools and hub_call, and hub_call runs a tool", async () => {
  const listed = jsonOut(await inspect("/mcp/gateway", ["--method", "tools/list"]), "gateway list");
  assertEquals(listed.tools.map((t: Json) => t.name).sort(), ["hub_call", "hub_list_tools"]);

  hub.extension.onDispatch((p) => ({ ok: true, value: { said: p.input.text } }));
  const called = jsonOut(
    await inspect("/mcp/gateway", [
      "--method",
      "tools/call",
      "--tool-name",
      "hub_call",
      "--tool-arg",
      "tool=demo__echo",
      'arguments={"text":"from the inspector"}',
    ]),
    "gateway hub_call",
  );
  assert(!called.isError, JSON.stringify(called));
  assertEquals(unmarked(called).structuredContent, { said: "from the inspector" });
});

Deno.test("inspector: a wrong secret is refused (the header is what authenticates)", async () => {
  const r = await inspect("/mcp", ["--method", "tools/list"], "0".repeat(64));
  assert(r.code !== 0, `exit ${r.code}:\n${r.stdout}`);
  assert(!r.stdout.includes("plugin_list_tabs"), r.stdout);
});
