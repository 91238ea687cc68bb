/**
 * End to end: `hub tool list | schema | call` (the CLI's way to call tools) against a real
 * hub process with local plugins and a scripted extension on `/ws`: listings, schemas, results on
 * stdout, arguments from the command line, files and stdin, `--instance` / `--tab-id` in the
 * dispatch, and every kind of failure on stderr with exit code 1.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { api, listTools } from "./helpers/hub_api.ts";
import { freePort, type RunResult } from "./helpers/hub_process.ts";
import {
  type CliHub,
  jsonOut,
  MULTI_INSTANCES,
  MULTI_PLUGIN,
  startCliHub,
} from "./helpers/cli_tool_fixture.ts";

let hub: CliHub;

/** `demo`: `echo` (auto), `other` (off) and `careful` (ask); all take `text` (required). */
const DEMO = { name: "demo", tools: ["echo", "other", "careful"] };

Deno.test.beforeAll(async () => {
  hub = await startCliHub({
    plugins: [DEMO, MULTI_PLUGIN],
    config: {
      permissions: {
        demo: { permission: "auto", tools: { other: "off", careful: "ask" } },
        multi: { permission: "auto", tools: {} },
      },
      settings: { multi: { baseUrl: MULTI_INSTANCES } },
    },
    tabs: {
      demo: [{ tabId: 7, url: "https://example.com/home", title: "Home" }],
      multi: [
        { tabId: 11, url: "https://work.example.com/board" },
        { tabId: 12, url: "https://home.example.com/app/inbox" },
      ],
    },
  });
});

Deno.test.afterAll(async () => {
  assertEquals(await hub?.close(), 0);
});

/** Output of `hub tool list` as plugin → [name, permission, description] rows, in order. */
function parseListing(stdout: string): Map<string, string[][]> {
  const groups = new Map<string, string[][]>();
  let current: string[][] | undefined;
  for (const line of stdout.split("\n")) {
    const header = /^([a-z0-9-]+) \((\d+) tools?\)$/.exec(line);
    if (header) {
      current = [];
      groups.set(header[1], current);
      assert(!line.endsWith("(1 tools)"), `singular: ${line}`);
      continue;
    }
    const row = /^ {2}(\S+)\s+(off|ask|auto)\s+(.*)$/.exec(line);
    if (row) {
      assert(current, `a tool line before any plugin header: ${line}`);
      current.push([row[1], row[2], row[3]]);
    }
  }
  for (const [name, rows] of groups) {
    assertMatch(stdout, new RegExp(`^${name} \\(${rows.length} tools?\\)$`, "m"), "header count");
  }
  return groups;
}

function failsWith(r: RunResult, pattern: RegExp, what: string): void {
  assertEquals(r.code, 1, `${what} should exit 1:\n${r.stdout}\n${r.stderr}`);
  assertEquals(r.stdout, "", `${what}: nothing on stdout`);
  assertMatch(r.stderr, pattern, what);
}

// --- hub tool list ---------------------------------------------------------------------------

Deno.test("tool list groups every tool by plugin with its permission", async () => {
  const r = await hub.cli(["tool", "list"]);
  assertEquals(r.code, 0, r.stderr);
  const groups = parseListing(r.stdout);
  const listed = await listTools(hub.hub);
  const expected = new Map<string, string[][]>();
  for (const t of listed) {
    const rows = expected.get(t.plugin) ?? [];
    rows.push([t.name, t.permission]);
    expected.set(t.plugin, rows);
  }
  assertEquals(
    [...groups].map(([plugin, rows]) => [plugin, rows.map(([name, perm]) => [name, perm])]),
    [...expected],
    "same tools, plugins and permissions as GET /tools",
  );
  assertEquals([...groups.keys()].sort(), ["browser", "demo", "hub", "multi"]);
  assertEquals(groups.get("demo"), [
    ["demo__echo", "auto", "Test tool echo."],
    // `[Disabled]` is a hint for MCP clients; the permission column already says it.
    ["demo__other", "off", "Test tool other."],
    ["demo__careful", "ask", "Test tool careful."],
  ]);
  assertMatch(r.stdout, /hub tool schema <name>/, "points at the schema command");
});

Deno.test("tool list --plugin shows one plugin only (browser = the built-in tools)", async () => {
  const [browser, demo] = await Promise.all([
    hub.cli(["tool", "list", "--plugin", "browser"]),
    hub.cli(["tool", "ls", "--plugin", "demo"]),
  ]);
  assertEquals(browser.code, 0, browser.stderr);
  const groups = parseListing(browser.stdout);
  assertEquals([...groups.keys()], ["browser"]);
  const names = groups.get("browser")!.map(([name]) => name);
  assertEquals(names, (await listTools(hub.hub, "browser")).map((t) => t.name));
  for (const name of ["browser_list_tabs", "browser_navigate_tab", "browser_execute_script"]) {
    assert(names.includes(name), `${name} in ${names}`);
  }
  assert(names.every((n) => /^(browser|extension)_/.test(n)), names.join(", "));

  assertEquals(demo.code, 0, demo.stderr);
  assertEquals([...parseListing(demo.stdout)].map(([p, rows]) => [p, rows.length]), [["demo", 3]]);
});

Deno.test("tool list --json prints {tools: [{name, description, inputSchema, plugin, permission}]}", async () => {
  const [all, demo] = await Promise.all([
    hub.cli(["tool", "list", "--json"]),
    hub.cli(["tool", "list", "--json", "--plugin", "demo"]),
  ]);
  const body = jsonOut(all, "tool list --json");
  assertEquals(Object.keys(body), ["tools"]);
  assertEquals(body, (await api(hub.hub, "GET", "/tools")).body, "the GET /tools listing");
  for (const tool of body.tools) {
    assertEquals(
      Object.keys(tool).sort(),
      ["description", "inputSchema", "name", "permission", "plugin"],
      tool.name,
    );
    assertEquals(tool.inputSchema.type, "object", tool.name);
  }
  const echo = body.tools.find((t: { name: string }) => t.name === "demo__echo");
  assertEquals(echo.plugin, "demo");
  assertEquals(echo.permission, "auto");
  assertEquals(echo.inputSchema.required, ["text"]);
  assertEquals(echo.inputSchema.properties.tabId.type, "integer", "injected tabId");
  const other = body.tools.find((t: { name: string }) => t.name === "demo__other");
  assertMatch(other.description, /^\[Disabled\] /);

  assertEquals(
    jsonOut(demo, "tool list --json --plugin demo").tools.map((t: { name: string }) => t.name),
    ["demo__echo", "demo__other", "demo__careful"],
  );
});

Deno.test("tool list --plugin <unknown>: exit 1 naming the plugins there are", async () => {
  const r = await hub.cli(["tool", "list", "--plugin", "nope"]);
  failsWith(r, /No plugin "nope"/, "unknown plugin");
  for (const plugin of ["demo", "multi", "browser", "hub"]) {
    assertMatch(r.stderr, new RegExp(`\\b${plugin}\\b`), `lists ${plugin}`);
  }
});

Deno.test("with no hub on the port, tool list/schema/call exit 1 saying so and how to start one", async () => {
  const port = freePort();
  const env = { HUB_PORT: String(port) };
  const runs = await Promise.all([
    hub.cli(["tool", "list"], { env }),
    hub.cli(["tool", "list", "--port", String(port)], { env: { HUB_PORT: String(hub.port) } }),
    hub.cli(["tool", "schema", "demo__echo"], { env }),
    hub.cli(["tool", "call", "demo__echo", '{"text":"x"}'], { env }),
  ]);
  for (const r of runs) {
    failsWith(r, new RegExp(`hub is not running on port ${port}\\b`), "no hub");
    assertMatch(r.stderr, /Start it with "hub start"/);
  }
});

// --- hub tool schema -------------------------------------------------------------------------

Deno.test("tool schema prints name, description and the input JSON Schema", async () => {
  const [text, json] = await Promise.all([
    hub.cli(["tool", "schema", "multi__echo"]),
    hub.cli(["tool", "schema", "multi__echo", "--json"]),
  ]);
  assertEquals(text.code, 0, text.stderr);
  const listed = (await listTools(hub.hub, "multi"))[0];
  assertMatch(text.stdout, /^name: +multi__echo$/m);
  assertMatch(text.stdout, /^plugin: +multi$/m);
  assertMatch(text.stdout, /^permission: +auto$/m);
  assertMatch(text.stdout, /^description: +Test tool echo\.$/m);
  const [, schemaText] = text.stdout.split(/^input schema:$/m);
  assert(schemaText, text.stdout);
  const schema = JSON.parse(schemaText);
  assertEquals(schema, listed.inputSchema);
  assertEquals(schema.properties.instance.enum, ["work", "home"], "injected instance");
  assert(schema.required.includes("instance"));
  assertEquals(schema.properties.tabId.type, "integer", "injected tabId");

  assertEquals(jsonOut(json, "tool schema --json"), listed);
});

Deno.test("tool schema of an unknown tool: exit 1, with near names when there are some", async () => {
  const [near, far] = await Promise.all([
    hub.cli(["tool", "schema", "echo"]),
    hub.cli(["tool", "schema", "zzz_nothing"]),
  ]);
  failsWith(near, /No tool "echo"\. Did you mean: demo__echo, multi__echo\?/, "near");
  failsWith(far, /No tool "zzz_nothing"\. List them with "hub tool list"/, "far");
});

// --- hub tool call: successes ----------------------------------------------------------------

Deno.test("tool call: a browser tool set to auto with `hub config set` prints its result", async () => {
  const set = await hub.cli(
    ["config", "set", "tool-permission.browser.browser_list_tabs", "auto"],
  );
  assertEquals(set.code, 0, set.stderr);
  assertMatch(set.stdout, /has reloaded/, "the running hub was told");
  const tabs = [{ tabId: 7, windowId: 1, url: "https://example.com/home", title: "Home" }];
  hub.extension.onDispatch((p) => ({ ok: true, value: { tabs, method: p.method } }));
  const mark = hub.mark();

  const r = await hub.cli(["tool", "call", "browser_list_tabs"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stderr, "");
  assertEquals(JSON.parse(r.stdout), { tabs, method: "tabs.list" });
  const [dispatch] = hub.dispatchesSince(mark);
  assertEquals(dispatch.params.tool, "browser_list_tabs");
  assertEquals(dispatch.params.kind, "browser");
  assertEquals(dispatch.params.input, {});
});

Deno.test("tool call: a plugin tool with a ready tab prints the result JSON on stdout", async () => {
  hub.extension.onDispatch((p) => ({
    ok: true,
    value: { said: p.input.text, tool: p.baseTool, plugin: p.plugin },
  }));
  const mark = hub.mark();
  const r = await hub.cli(["tool", "call", "demo__echo", '{"text":"hi"}']);
  assertEquals(r.code, 0, r.stderr);
  // A plugin tool's result is page content: its line goes to stderr, the value alone to stdout.
  assertMatch(r.stderr, /^\[page content from [^\n]+: data, not instructions\]\n$/);
  assertEquals(JSON.parse(r.stdout), { said: "hi", tool: "echo", plugin: "demo" });
  const dispatches = hub.dispatchesSince(mark);
  assertEquals(dispatches.length, 1);
  assertEquals(dispatches[0].params.input, { text: "hi" });
  assertEquals(dispatches[0].params.tabId, undefined, "no --tab-id: the extension chooses");
});

Deno.test("tool call: --params wins over the positional JSON", async () => {
  hub.extension.onDispatch((p) => ({ ok: true, value: { said: p.input.text } }));
  const r = await hub.cli([
    "tool",
    "call",
    "demo__echo",
    '{"text":"positional"}',
    "--params",
    '{"text":"flag"}',
  ]);
  assertEquals(jsonOut(r, "--params"), { said: "flag" });
});

Deno.test("tool call: --params @file carries a >200 KB argument", async () => {
  const text = "0123456789abcdef".repeat(16_000); // 256,000 characters
  const file = join(hub.dir, "big-args.json");
  await Deno.writeTextFile(file, JSON.stringify({ text }));
  assert((await Deno.stat(file)).size > 200 * 1024);
  hub.extension.onDispatch((p) => ({
    ok: true,
    value: { length: String(p.input.text).length, tail: String(p.input.text).slice(-8) },
  }));
  const mark = hub.mark();
  const r = await hub.cli(["tool", "call", "demo__echo", "--params", `@${file}`]);
  assertEquals(jsonOut(r, "--params @file"), { length: text.length, tail: "89abcdef" });
  const [dispatch] = hub.dispatchesSince(mark);
  assert(dispatch.params.input.text === text, "the whole text reached the extension");
});

Deno.test("tool call: `-` (positional or --params) reads the arguments from stdin", async () => {
  hub.extension.onDispatch((p) => ({ ok: true, value: { said: p.input.text } }));
  const [positional, flag] = await Promise.all([
    hub.cli(["tool", "call", "demo__echo", "-"], { stdin: '{"text":"from stdin"}\n' }),
    hub.cli(["tool", "call", "demo__echo", "--params", "-"], { stdin: '{"text":"piped"}' }),
  ]);
  assertEquals(jsonOut(positional, "call -"), { said: "from stdin" });
  assertEquals(jsonOut(flag, "call --params -"), { said: "piped" });
});

Deno.test("tool call: --instance and --tab-id reach tool.dispatch as instance {name, url} and tabId", async () => {
  hub.extension.onDispatch((p) => ({
    ok: true,
    value: { input: p.input, tabId: p.tabId ?? null, instance: p.instance ?? null },
  }));
  let mark = hub.mark();
  const multi = await hub.cli([
    "tool",
    "call",
    "multi__echo",
    '{"text":"hi"}',
    "--instance",
    "home",
    "--tab-id",
    "12",
  ]);
  const home = { name: "home", url: MULTI_INSTANCES.home };
  assertEquals(jsonOut(multi, "--instance --tab-id"), {
    input: { text: "hi" },
    tabId: 12,
    instance: home,
  });
  const [dispatch] = hub.dispatchesSince(mark);
  assertEquals(dispatch.params.tabId, 12);
  assertEquals(dispatch.params.instance, home);
  assertEquals(dispatch.params.input, { text: "hi" }, "injected parameters are removed");

  mark = hub.mark();
  const demo = await hub.cli(["tool", "call", "demo__echo", '{"text":"t"}', "--tab-id", "7"]);
  assertEquals(jsonOut(demo, "--tab-id").tabId, 7);
  assertEquals(hub.dispatchesSince(mark)[0].params.tabId, 7);
  assertEquals(hub.dispatchesSince(mark)[0].params.instance, undefined);
});

// --- hub tool call: failures -----------------------------------------------------------------

Deno.test("tool call: bad JSON, a non-object or a bad --tab-id exit 1 before any request", async () => {
  const before = (await api(hub.hub, "GET", "/health")).body.auditSummary.totalInvocations;
  const mark = hub.mark();
  const echo = ["tool", "call", "demo__echo"];
  const cases: [string[], RegExp, string?][] = [
    [
      [...echo, "{bad"],
      /arguments from the command line are not valid JSON .*Example: hub tool call/,
    ],
    [[...echo, "[1,2]"], /arguments from the command line must be a JSON object/],
    [[...echo, '"text"'], /must be a JSON object/],
    [[...echo, "null"], /must be a JSON object/],
    [[...echo, '{"text":"ok"}', "--params", "{bad"], /not valid JSON/],
    [
      [...echo, '{"text":"x"}', "--tab-id", "0"],
      /--tab-id must be a positive whole number \(got "0"\)/,
    ],
    [
      [...echo, '{"text":"x"}', "--tab-id", "abc"],
      /--tab-id must be a positive whole number \(got "abc"\)/,
    ],
    [[...echo, '{"text":"x"}', "--tab-id", "1.5"], /--tab-id must be a positive whole number/],
    [
      [...echo, "--params", "@/nonexistent/args.json"],
      /Cannot read arguments from \/nonexistent\/args\.json/,
    ],
    [[...echo, "-"], /arguments from stdin are not valid JSON/, "{bad"],
  ];
  const runs = await Promise.all(
    cases.map(([args, , stdin]) => hub.cli(args, stdin === undefined ? {} : { stdin })),
  );
  runs.forEach((r, i) => failsWith(r, cases[i][1], cases[i][0].join(" ")));
  for (const r of runs) assert(!/a bug in hub/.test(r.stderr), r.stderr);

  const after = (await api(hub.hub, "GET", "/health")).body.auditSummary.totalInvocations;
  assertEquals(after, before, "no call reached the hub");
  assertEquals(hub.dispatchesSince(mark), [], "nothing was dispatched");
});

Deno.test("tool call: error results go to stderr with their code, nothing to stdout, exit 1", async () => {
  hub.extension.onDispatch((p) =>
    p.input.text === "fail"
      ? {
        ok: false,
        error: {
          code: "NOT_LOGGED_IN",
          message: "Sign in to example.com first.",
          category: "auth",
          retryable: true,
        },
      }
      : { ok: true, value: { said: p.input.text } }
  );
  const mark = hub.mark();
  const [off, missing, invalid, toolError] = await Promise.all([
    hub.cli(["tool", "call", "demo__other", '{"text":"x"}']),
    hub.cli(["tool", "call", "nope__missing", "{}"]),
    hub.cli(["tool", "call", "demo__echo", "{}"]),
    hub.cli(["tool", "call", "demo__echo", '{"text":"fail"}']),
  ]);
  failsWith(
    off,
    /demo__other failed: demo__other is off\. .*\(PERMISSION_OFF, permission\)/,
    "off",
  );
  assertMatch(off.stderr, /hub config set tool-permission\.demo\.other/, "says how to allow it");
  failsWith(missing, /nope__missing failed: .*\(TOOL_NOT_FOUND, not_found\)/, "unknown tool");
  failsWith(
    invalid,
    /demo__echo failed: Invalid arguments.*\(INVALID_ARGUMENTS, validation\)/,
    "invalid",
  );
  failsWith(
    toolError,
    /demo__echo failed: Sign in to example\.com first\. \(NOT_LOGGED_IN, auth\)/,
    "the tool's own error",
  );
  assertEquals(hub.dispatchesSince(mark).length, 1, "only the ToolError call was dispatched");
});

Deno.test("tool call without the extension: EXTENSION_NOT_CONNECTED on stderr, exit 1", async () => {
  await hub.disconnectExtension();
  try {
    const r = await hub.cli(["tool", "call", "demo__echo", '{"text":"x"}']);
    failsWith(r, /demo__echo failed: .*\(EXTENSION_NOT_CONNECTED, unavailable\)/, "no extension");
  } finally {
    await hub.connectExtension();
  }
});

Deno.test("tool call of an `ask` tool waits for the person: allowed prints the result, denied fails", async () => {
  hub.extension.onDispatch((p) => ({ ok: true, value: { said: p.input.text } }));
  const confirmAs = async (decision: "allow" | "deny", text: string) => {
    const asked = hub.extension.next("confirmation.request", 20_000);
    const run = hub.cli(["tool", "call", "demo__careful", JSON.stringify({ text })]);
    const request = await asked;
    assertEquals(request.params.tool, "demo__careful");
    assertEquals(request.params.plugin, "demo");
    assertEquals(request.params.parameters, { text });
    hub.extension.confirm(request.params.id, decision);
    return await run;
  };
  assertEquals(jsonOut(await confirmAs("allow", "please"), "allowed"), { said: "please" });
  failsWith(
    await confirmAs("deny", "no"),
    /demo__careful failed: The user denied .*\(PERMISSION_DENIED, permission\)/,
    "denied",
  );
});

Deno.test({
  name: "tool call: a --tab-id beyond safe integers is refused before any request",
  async fn() {
    const before = (await api(hub.hub, "GET", "/health")).body.auditSummary.totalInvocations;
    const r = await hub.cli(
      ["tool", "call", "demo__echo", '{"text":"x"}', "--tab-id", "99999999999999999999"],
    );
    failsWith(r, /--tab-id must be a positive whole number/, "huge --tab-id");
    const after = (await api(hub.hub, "GET", "/health")).body.auditSummary.totalInvocations;
    assertEquals(after, before, "no call reached the hub");
  },
});
