/**
 * The official MCP conformance suite (`npm:@modelcontextprotocol/conformance`, pinned in
 * tests/deps/conformance.ts and tests/test.lock) against a real hub: its server scenarios that apply to hub must pass.
 *
 * The suite sends no Bearer token, so it talks to a small proxy in this test that adds
 * `Authorization` and passes everything else (the Host header too) through unchanged; the hub has
 * no test-only route. The hub runs in this process with a higher session limit, because the suite
 * opens more sessions than the production limit of 5 per minute allows. The suite itself runs with
 * network access to loopback only, so it cannot reach anything else.
 *
 * Every scenario of the suite is classified below: applicable (all checks pass), stricter on
 * purpose (the checks hub fails by design, with the reason), or not applicable (with the reason).
 * Each scenario runs against both MCP seams (server/mcp/seam.ts): the fast path, which answers
 * most requests itself, and the SDK alone (hub option `mcpPath: "sdk"`), so the two cannot drift.
 */
import { join } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import { ROOT, runCommand } from "./helpers/hub_process.ts";
import { type ServedHub, serveInProcessHub } from "./helpers/in_process_hub.ts";
import { type AuthProxy, startAuthProxy } from "./helpers/auth_proxy.ts";
import { writePluginFolder } from "./helpers/plugin_cli.ts";
import type { Json } from "./helpers/fake_extension.ts";
import type { McpPath } from "../server/mcp/seam.ts";
import { CONFORMANCE, TEST_TOOL_FLAGS } from "./deps/conformance.ts";

/** Scenarios hub passes in full: each lists the checks that must succeed. */
const APPLICABLE: Record<string, string[]> = {
  "server-initialize": ["server-initialize"],
  "logging-set-level": ["logging-set-level"],
  "ping": ["ping"],
  "tools-list": ["tools-list"],
  // hub answers tools/list with JSON, so the suite reports its SSE-stream check as INFO ("SSE
  // streaming is optional"); resumable call streams are covered by tests/mcp_resume_test.ts.
  "server-sse-multiple-streams": ["server-accepts-multiple-post-streams"],
};

/** Scenarios where hub is stricter on purpose: the checks that pass, and those failed by design. */
const STRICTER: Record<string, { pass: string[]; fail: Record<string, string> }> = {
  "dns-rebinding-protection": {
    pass: ["localhost-host-rebinding-rejected"],
    fail: {
      "localhost-host-valid-accepted": "hub refuses every request that carries a browser Origin " +
        "(403 FORBIDDEN_ORIGIN), even http://localhost: only native clients and the hub extension " +
        "may call it.",
    },
  },
};

const FIXED_NAME = "calls a tool by a fixed name from the suite's reference server; hub's tools " +
  "come from plugins and are named <plugin>__<tool>, so hub cannot offer it (a call answers " +
  "TOOL_NOT_FOUND; some checks then pass by accident and are not counted)";

/** Scenarios that test what hub does not have, with the reason. */
const NOT_APPLICABLE: Record<string, string> = {
  "completion-complete": "hub has no prompts or resource templates, so no completions",
  "tools-call-simple-text": FIXED_NAME,
  "tools-call-image": FIXED_NAME,
  "tools-call-audio": FIXED_NAME,
  "tools-call-embedded-resource": FIXED_NAME,
  "tools-call-mixed-content": FIXED_NAME,
  "tools-call-with-logging": FIXED_NAME,
  "tools-call-error": FIXED_NAME,
  "tools-call-with-progress": FIXED_NAME,
  "json-schema-2020-12": FIXED_NAME,
  "server-sse-polling": `${FIXED_NAME}; resuming a dropped stream is tested in ` +
    "tests/mcp_resume_test.ts",
  "tools-call-sampling": "hub never asks the client for LLM sampling",
  "tools-call-elicitation": "hub never asks the user for input through the client (elicitation)",
  "elicitation-sep1034-defaults": "hub does not use elicitation",
  "elicitation-sep1330-enums": "hub does not use elicitation",
  "resources-list": "hub has no MCP resources",
  "resources-read-text": "hub has no MCP resources",
  "resources-read-binary": "hub has no MCP resources",
  "resources-templates-read": "hub has no MCP resources",
  "resources-subscribe": "hub has no MCP resources",
  "resources-unsubscribe": "hub has no MCP resources",
  "prompts-list": "hub has no MCP prompts",
  "prompts-get-simple": "hub has no MCP prompts",
  "prompts-get-with-args": "hub has no MCP prompts",
  "prompts-get-embedded-resource": "hub has no MCP prompts",
  "prompts-get-with-image": "hub has no MCP prompts",
};

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO";
  errorMessage?: string;
  details?: Json;
}

/** Both seams: the fast path (the default) and the SDK alone. */
const SEAMS: McpPath[] = ["fast", "sdk"];
/** A test name's suffix for a seam; the fast path keeps the plain names. */
const seamLabel = (seam: McpPath) => seam === "fast" ? "" : " (SDK seam)";

let dir = "";
const hubs: Partial<Record<McpPath, { hub: ServedHub; proxy: AuthProxy }>> = {};

Deno.test.beforeAll(async () => {
  dir = await Deno.makeTempDir({ prefix: "hub-conformance-" });
  const demo = await writePluginFolder(join(dir, "plugins", "demo"), {
    name: "demo",
    tools: ["echo"],
  });
  for (const seam of SEAMS) {
    const configDir = join(dir, seam);
    await Deno.mkdir(configDir);
    await Deno.writeTextFile(
      join(configDir, "config.json"),
      JSON.stringify({ localPlugins: [demo] }),
    );
    const hub = await serveInProcessHub(configDir, { mcpSessionLimit: 100, mcpPath: seam });
    hubs[seam] = { hub, proxy: startAuthProxy(hub.url, hub.secret) };
  }
});

Deno.test.afterAll(async () => {
  for (const served of Object.values(hubs)) {
    await served.proxy.close();
    await served.hub.stop();
  }
  await Deno.remove(dir, { recursive: true });
});

/** `conformance <args>` from the pinned package, with network access to loopback only. */
function conformance(args: string[], outDir?: string) {
  const write = outDir ? [`--allow-write=${outDir}`] : [];
  const command = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-net=127.0.0.1,localhost",
      "--allow-read",
      "--allow-env",
      "--allow-sys",
      ...TEST_TOOL_FLAGS,
      ...write,
      CONFORMANCE,
      ...args,
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
  return runCommand(`conformance ${args.join(" ")}`, command, 120_000);
}

/** Runs one server scenario through the proxy of a seam's hub and returns its checks. */
async function runScenario(scenario: string, seam: McpPath): Promise<Check[]> {
  const out = await Deno.makeTempDir({ dir, prefix: "results-" });
  const proxyUrl = hubs[seam]!.proxy.url;
  const r = await conformance(
    ["server", "--url", `${proxyUrl}/mcp`, "--scenario", scenario, "-o", out],
    out,
  );
  const [result] = [...Deno.readDirSync(out)];
  assert(result, `no results for ${scenario} (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(await Deno.readTextFile(join(out, result.name, "checks.json")));
}

function describe(checks: Check[]): string {
  return checks.filter((c) => c.status !== "INFO")
    .map((c) => `${c.status} ${c.id}${c.errorMessage ? `: ${c.errorMessage}` : ""}`).join("\n");
}

Deno.test("every server scenario of the suite is classified: applicable, stricter or not", async () => {
  const r = await conformance(["list", "--server"]);
  assertEquals(r.code, 0, r.stderr);
  const listed = [...r.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]).sort();
  const classified = [APPLICABLE, STRICTER, NOT_APPLICABLE].flatMap((o) => Object.keys(o)).sort();
  assertEquals(listed, classified);
});

for (const seam of SEAMS) {
  testSeam(seam);
}

function testSeam(seam: McpPath) {
  const label = seamLabel(seam);
  for (const [scenario, expected] of Object.entries(APPLICABLE)) {
    Deno.test(`conformance${label}: ${scenario} passes`, async () => {
      const checks = await runScenario(scenario, seam);
      const judged = checks.filter((c) => c.status !== "INFO");
      assertEquals(judged.filter((c) => c.status !== "SUCCESS"), [], describe(checks));
      for (const id of expected) {
        assert(judged.some((c) => c.id === id), `check ${id} ran:\n${describe(checks)}`);
      }
    });
  }

  for (const [scenario, { pass, fail }] of Object.entries(STRICTER)) {
    Deno.test(`conformance${label}: ${scenario} passes except where hub is stricter on purpose`, async () => {
      const checks = await runScenario(scenario, seam);
      const judged = checks.filter((c) => c.status !== "INFO");
      assertEquals(
        judged.map((c) => [c.id, c.status]).sort(),
        [
          ...pass.map((id) => [id, "SUCCESS"]),
          ...Object.keys(fail).map((id) => [id, "FAILURE"]),
        ].sort(),
        describe(checks),
      );
    });
  }

  Deno.test(`conformance${label}: the Origin hub refuses in dns-rebinding-protection is refused as FORBIDDEN_ORIGIN`, async () => {
    const checks = await runScenario("dns-rebinding-protection", seam);
    const valid = checks.find((c) => c.id === "localhost-host-valid-accepted");
    assertEquals(valid?.details?.statusCode, 403);
    assertEquals(valid?.details?.body?.error?.code, "FORBIDDEN_ORIGIN");
    const evil = checks.find((c) => c.id === "localhost-host-rebinding-rejected");
    assertEquals(evil?.details?.body?.error?.code, "FORBIDDEN_HOST");
  });

  Deno.test(`conformance${label}: tools-list saw the plugin tool and the built-in tools`, async () => {
    const checks = await runScenario("tools-list", seam);
    const tools: string[] = checks.find((c) => c.id === "tools-list")?.details?.tools ?? [];
    assert(tools.includes("demo__echo"), tools.join(", "));
    assert(tools.includes("plugin_list_tabs"), tools.join(", "));
  });
}
