/**
 * End to end: `hub audit` against a real hub process after real tool calls (newest first,
 * `--limit`, `--plugin`, `--tool`, `--since`, `--json`), and `--file`, which reads audit.log (and
 * audit.log.1) while the hub runs, after it stopped and after a restart that emptied its memory.
 */
import { join } from "node:path";
import type { AuditEntry } from "../protocol/audit.ts";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { api } from "./helpers/hub_api.ts";
import { freePort, runHub, type RunResult, withTempDir } from "./helpers/hub_process.ts";
import { type CliHub, DEMO_PLUGIN, jsonOut, startCliHub } from "./helpers/cli_tool_fixture.ts";
import { BROWSER_GROUP, splitToolName } from "../protocol/call_contract.ts";

let hub: CliHub;
let lastCallAt = 0;

/** The calls made before the tests, oldest first: [tool, arguments, success]. */
const CALLS: [string, Record<string, unknown>, boolean][] = [
  ["demo__echo", { text: "one" }, true],
  ["demo__other", { text: "x" }, false], // off
  ["browser_list_tabs", {}, false], // browser tools are off by default
  ["plugin_list_tabs", {}, true],
  ["demo__echo", { text: "two" }, true],
];
const NEWEST_FIRST = CALLS.map(([tool]) => tool).reverse();

async function call(tool: string, args: Record<string, unknown>) {
  return await api(hub.hub, "POST", `/tools/${tool}/call`, { arguments: args });
}

Deno.test.beforeAll(async () => {
  hub = await startCliHub({
    plugins: [DEMO_PLUGIN],
    config: { permissions: { demo: { permission: "auto", tools: { other: "off" } } } },
    tabs: { demo: [{ tabId: 7, url: "https://example.com/home", title: "Home" }] },
  });
  hub.extension.onDispatch((p) => ({ ok: true, value: { said: p.input.text } }));
  for (const [tool, args, success] of CALLS) {
    const reply = await call(tool, args);
    assertEquals(reply.status === 200, success, `${tool}: ${JSON.stringify(reply.body)}`);
  }
  lastCallAt = Date.now();
});

Deno.test.afterAll(async () => {
  assertEquals(await hub?.close(), 0);
});

/** The tool of each line of the text output. */
function toolsOf(stdout: string): string[] {
  return stdout.trim().split("\n").map((line) => {
    const m = /^\S+ \S+Z {2}(?:ok {2}|FAIL) +\d+ms {2}(\S+)/.exec(line);
    assert(m, `an audit line: ${line}`);
    return m[1];
  });
}

function failsWith(r: RunResult, pattern: RegExp, what: string): void {
  assertEquals(r.code, 1, `${what} should exit 1:\n${r.stdout}\n${r.stderr}`);
  assertEquals(r.stdout, "", what);
  assertMatch(r.stderr, pattern, what);
}

/** Checks that `entry` has exactly the audit entry fields of docs/http.md, with their types. */
function assertAuditEntry(entry: AuditEntry): void {
  const keys = Object.keys(entry).sort();
  const expected = ["durationMs", "plugin", "success", "timestamp", "tool"];
  assertEquals(keys, entry.success ? expected : [...expected, "error"].sort(), entry.tool);
  assertMatch(entry.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, "ISO 8601 UTC");
  assertEquals(new Date(entry.timestamp).toISOString(), entry.timestamp);
  assert(Number.isInteger(entry.durationMs) && entry.durationMs >= 0, `${entry.durationMs}`);
  assertEquals(typeof entry.success, "boolean");
  if (!entry.success) {
    const error = entry.error!;
    assertEquals(typeof error.code, "string");
    assertEquals(typeof error.message, "string");
    const keys = Object.keys(error).sort();
    assert(
      ["code", "message"].every((k) => keys.includes(k)) &&
        keys.every((k) => ["category", "code", "message"].includes(k)),
      `error fields: ${keys}`,
    );
    if (error.category !== undefined) assertEquals(typeof error.category, "string");
  }
}

Deno.test("audit shows the calls newest first, failures with their code", async () => {
  const r = await hub.cli(["audit"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(toolsOf(r.stdout), NEWEST_FIRST);
  const lines = r.stdout.trim().split("\n");
  assertMatch(lines[0], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}ok {2} +\d+ms {2}demo__echo$/);
  assertMatch(lines[2], / {2}FAIL +\d+ms {2}browser_list_tabs {2}PERMISSION_OFF: /);
  assertMatch(lines[3], / {2}FAIL +\d+ms {2}demo__other {2}PERMISSION_OFF: demo__other is off/);
  const fromHub = (await api(hub.hub, "GET", "/audit")).body as AuditEntry[];
  assertEquals(toolsOf(r.stdout), fromHub.map((e) => e.tool), "the order of GET /audit");
});

Deno.test("audit --limit, --plugin and --tool select entries", async () => {
  const [limit, demo, browser, hubTools, echo, both] = await Promise.all([
    hub.cli(["audit", "--limit", "2"]),
    hub.cli(["audit", "--plugin", "demo"]),
    hub.cli(["audit", "--plugin", "browser"]),
    hub.cli(["audit", "--plugin", "hub"]),
    hub.cli(["audit", "--tool", "demo__echo"]),
    hub.cli(["audit", "--plugin", "demo", "--tool", "demo__other", "--limit", "5"]),
  ]);
  assertEquals(toolsOf(limit.stdout), NEWEST_FIRST.slice(0, 2));
  assertEquals(toolsOf(demo.stdout), ["demo__echo", "demo__other", "demo__echo"]);
  assertEquals(toolsOf(browser.stdout), ["browser_list_tabs"]);
  assertEquals(toolsOf(hubTools.stdout), ["plugin_list_tabs"]);
  assertEquals(toolsOf(echo.stdout), ["demo__echo", "demo__echo"]);
  assertEquals(toolsOf(both.stdout), ["demo__other"]);
});

Deno.test("audit --json prints an array of entries with the documented fields", async () => {
  const [all, failures] = await Promise.all([
    hub.cli(["audit", "--json"]),
    hub.cli(["audit", "--json", "--tool", "demo__other"]),
  ]);
  const entries = jsonOut(all, "audit --json") as AuditEntry[];
  assert(Array.isArray(entries));
  assertEquals(entries, (await api(hub.hub, "GET", "/audit?limit=20")).body);
  assertEquals(entries.map((e) => e.tool), NEWEST_FIRST);
  entries.forEach(assertAuditEntry);
  assertEquals(entries.map((e) => e.plugin), ["demo", "hub", "browser", "demo", "demo"]);
  assertEquals(entries.map((e) => e.success), [true, true, false, false, true]);
  const times = entries.map((e) => Date.parse(e.timestamp));
  assert(times.every((t, i) => i === 0 || times[i - 1] >= t), "newest first");

  const [off] = jsonOut(failures, "audit --json --tool") as AuditEntry[];
  assertEquals(off.error?.code, "PERMISSION_OFF");
  assertEquals(off.error?.category, "permission");
  assertMatch(off.error!.message, /demo__other is off/);
});

Deno.test("audit --since takes s/m/h/d and rejects anything else", async () => {
  const [tenMinutes, day, bad, noUnit] = await Promise.all([
    hub.cli(["audit", "--since", "10m", "--json"]),
    hub.cli(["audit", "--since", "1d"]),
    hub.cli(["audit", "--since", "10x"]),
    hub.cli(["audit", "--since", "10"]),
  ]);
  assertEquals(jsonOut(tenMinutes, "--since 10m").map((e: AuditEntry) => e.tool), NEWEST_FIRST);
  assertEquals(toolsOf(day.stdout), NEWEST_FIRST);
  failsWith(bad, /--since "10x" is not a duration: .*30s, 10m, 2h, 7d/, "--since 10x");
  failsWith(noUnit, /--since "10" is not a duration/, "--since 10");

  // Everything is older than one second once a second has passed.
  await new Promise((r) => setTimeout(r, Math.max(0, lastCallAt + 1_100 - Date.now())));
  const [recentText, recentJson] = await Promise.all([
    hub.cli(["audit", "--since", "1s"]),
    hub.cli(["audit", "--since", "1s", "--json"]),
  ]);
  assertEquals(recentText.code, 0, recentText.stderr);
  assertEquals(recentText.stdout.trim(), "No tool calls recorded since start.");
  assertEquals(jsonOut(recentJson, "--since 1s"), []);
});

Deno.test("audit --limit above 500 needs --file; --limit must be a whole number >= 1", async () => {
  const [big, zero, word, bigFile] = await Promise.all([
    hub.cli(["audit", "--limit", "600"]),
    hub.cli(["audit", "--limit", "0"]),
    hub.cli(["audit", "--limit", "ten"]),
    hub.cli(["audit", "--limit", "600", "--file", "--json"]),
  ]);
  failsWith(big, /--limit 600: the running hub keeps the last 500 calls; use --file/, "600");
  failsWith(zero, /--limit must be a whole number of at least 1 \(got "0"\)/, "0");
  failsWith(word, /--limit must be a whole number/, "ten");
  assertEquals(jsonOut(bigFile, "--limit 600 --file").length, CALLS.length);
});

Deno.test("audit --file reads audit.log while the hub runs, after it stopped and after a restart", async () => {
  const running = jsonOut(await hub.cli(["audit", "--json"]), "audit --json") as AuditEntry[];
  const fileWhileRunning = jsonOut(await hub.cli(["audit", "--file", "--json"]), "--file");
  assertEquals(fileWhileRunning, running, "audit.log has the same entries");

  const oldPort = hub.port;
  assertEquals(await hub.stopHub(), 0);
  const [stopped, stoppedText, memory] = await Promise.all([
    hub.cli(["audit", "--file", "--json"]),
    hub.cli(["audit", "--file", "--tool", "demo__echo"]),
    hub.cli(["audit"], { env: { HUB_PORT: String(oldPort) } }),
  ]);
  assertEquals(jsonOut(stopped, "--file after stop"), running);
  assertEquals(toolsOf(stoppedText.stdout), ["demo__echo", "demo__echo"]);
  failsWith(
    memory,
    new RegExp(`hub is not running on port ${oldPort}\\. .*"hub audit --file"`),
    "audit without a hub",
  );

  await hub.restart();
  hub.extension.onDispatch((p) => ({ ok: true, value: { said: p.input.text } }));
  assertEquals((await call("demo__echo", { text: "three" })).status, 200);
  const [afterRestart, fileAfterRestart, fileDemo] = await Promise.all([
    hub.cli(["audit", "--json"]),
    hub.cli(["audit", "--file", "--json", "--limit", "600"]),
    hub.cli(["audit", "--file", "--plugin", "demo", "--limit", "2"]),
  ]);
  const memoryEntries = jsonOut(afterRestart, "audit after restart") as AuditEntry[];
  assertEquals(memoryEntries.map((e) => e.tool), ["demo__echo"], "memory starts empty");
  const fileEntries = jsonOut(fileAfterRestart, "--file after restart") as AuditEntry[];
  assertEquals(fileEntries, [...memoryEntries, ...running], "audit.log survives restarts");
  fileEntries.forEach(assertAuditEntry);
  assertEquals(toolsOf(fileDemo.stdout), ["demo__echo", "demo__echo"]);
});

Deno.test("audit --file reads audit.log.1 then audit.log, newest first, with --since and --limit", async () => {
  await withTempDir(async (dir) => {
    const now = Date.now();
    const entry = (minutesAgo: number, tool: string, success = true): AuditEntry => ({
      timestamp: new Date(now - minutesAgo * 60_000).toISOString(),
      tool,
      plugin: splitToolName(tool)?.plugin ?? BROWSER_GROUP,
      success,
      durationMs: 3,
      ...(success ? {} : {
        error: { code: "TAB_CLOSED", message: "No tab is open.", category: "unavailable" },
      }),
    });
    const rotated = [entry(180, "demo__a"), entry(120, "demo__b", false)];
    const current = [entry(30, "browser_list_tabs"), entry(5, "demo__c"), entry(0.2, "demo__d")];
    const ndjson = (list: AuditEntry[]) => list.map((e) => JSON.stringify(e) + "\n").join("");
    await Deno.writeTextFile(join(dir, "audit.log.1"), ndjson(rotated));
    await Deno.writeTextFile(join(dir, "audit.log"), ndjson(current) + "not json\n");
    const env = { HUB_PORT: String(freePort()) }; // no hub anywhere: --file needs none
    const audit = (...args: string[]) =>
      runHub(["audit", "--file", ...args], { configDir: dir, env });

    const [all, hour, twenty, limited, text] = await Promise.all([
      audit("--json"),
      audit("--json", "--since", "1h"),
      audit("--json", "--since", "20m"),
      audit("--json", "--since", "1d", "--limit", "2"),
      audit(),
    ]);
    const newestFirst = [...rotated, ...current].reverse();
    assertEquals(jsonOut(all, "--file --json"), newestFirst);
    assertMatch(all.stderr, /skipped 1 unreadable line/, "a broken line is reported, not fatal");
    assertEquals(jsonOut(hour, "--since 1h"), newestFirst.slice(0, 3));
    assertEquals(jsonOut(twenty, "--since 20m"), newestFirst.slice(0, 2));
    assertEquals(jsonOut(limited, "--since 1d --limit 2"), newestFirst.slice(0, 2));
    assertEquals(toolsOf(text.stdout), newestFirst.map((e) => e.tool));
    assertMatch(text.stdout, /FAIL +3ms {2}demo__b {2}TAB_CLOSED: No tab is open\./);
  });
  await withTempDir(async (empty) => {
    const r = await runHub(["audit", "--file"], { configDir: empty });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout.trim(), "No tool calls recorded in the audit log.");
  });
});
