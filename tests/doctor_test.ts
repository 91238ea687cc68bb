/**
 * `hub doctor` end to end: the real `hub` (main.ts under the task's permission flags) on a temp
 * HUB_CONFIG_DIR, a temp HOME and project folder holding MCP client configs, a real hub started on
 * port 0, and the fake extension over a real WebSocket. Covers each check's passing and failing
 * state that a real setup can produce, `--json`, and the exit codes.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import {
  freePort,
  runHub,
  type RunningHub,
  type RunResult,
  startHub,
  tempConfigDir,
} from "./helpers/hub_process.ts";
import { FakeExtension } from "./helpers/fake_extension.ts";
import { VERSION } from "../protocol/version.ts";
import { startSquatter } from "./helpers/port_squatter.ts";

interface CheckJson {
  id: string;
  title: string;
  status: "pass" | "warn" | "error" | "skip";
  message: string;
  fix?: string;
}

interface ReportJson {
  version: string;
  ok: boolean;
  checks: CheckJson[];
}

const IDS = [
  "runtime",
  "browser",
  "config",
  "secret",
  "server",
  "extension_connected",
  "extension_installed",
  "extension_version",
  "mcp_clients",
  "local_plugins",
  "plugin_packages",
  "site_permissions",
];

/** Deno's cache, passed on explicitly because the children get another HOME. */
function denoDir(): string {
  const cache = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache");
  return Deno.env.get("DENO_DIR") ?? join(cache, "deno");
}

interface Setup {
  configDir: string;
  home: string;
  project: string;
  npmRoot: string;
}

async function setup(): Promise<Setup> {
  const base = await tempConfigDir();
  const s = {
    configDir: join(base, "config"),
    home: join(base, "home"),
    project: join(base, "project"),
    npmRoot: join(base, "npm", "lib", "node_modules"),
  };
  for (const dir of Object.values(s)) await Deno.mkdir(dir, { recursive: true });
  return s;
}

function env(s: Setup, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: s.home,
    DENO_DIR: denoDir(),
    INIT_CWD: s.project,
    XDG_CONFIG_HOME: join(s.home, ".config"),
    ...extra,
  };
}

async function doctor(s: Setup, args: string[], extra: Record<string, string> = {}) {
  const result = await runHub(["doctor", "--json", ...args], {
    configDir: s.configDir,
    env: env(s, extra),
  });
  let report: ReportJson;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    throw new Error(`hub doctor printed no JSON:\n${result.stdout}\n${result.stderr}`);
  }
  const byId = (id: string) => report.checks.find((c) => c.id === id)!;
  return { result, report, byId };
}

/** Every line of the JSON report has the documented shape, in the documented order. */
function assertShape(report: ReportJson, result: RunResult): void {
  assertEquals(report.version, VERSION);
  assertEquals(report.checks.map((c) => c.id), IDS);
  for (const c of report.checks) {
    assert(["pass", "warn", "error", "skip"].includes(c.status), c.status);
    assertEquals(typeof c.title, "string");
    assertEquals(typeof c.message, "string");
    assertEquals(c.fix !== undefined, c.status === "warn" || c.status === "error", c.id);
  }
  assertEquals(report.ok, !report.checks.some((c) => c.status === "error"));
  assertEquals(result.code, report.ok ? 0 : 1, result.stderr);
}

Deno.test("hub doctor: server down, a fresh machine", async () => {
  const s = await setup();
  try {
    const port = freePort();
    const { result, report, byId } = await doctor(s, ["--port", String(port)]);
    assertShape(report, result);
    assertEquals(result.code, 1);
    assertEquals(byId("runtime").status, "pass");
    assertEquals(byId("config").status, "warn");
    assertEquals([byId("secret").status, byId("secret").fix], ["error", "hub start"]);
    assertEquals(byId("server").message, `hub is not running on port ${port}`);
    assertEquals(byId("extension_connected").message, "skipped (hub is not running)");
    assertEquals(byId("extension_installed").status, "error");
    assertEquals(byId("extension_version").status, "skip");
    assertEquals(byId("mcp_clients").status, "warn");
    assertMatch(byId("mcp_clients").fix!, /hub start --show-config/);
    assertEquals(byId("plugin_packages").status, "skip"); // HUB_SKIP_PKG_DISCOVERY=1
    assertEquals(byId("site_permissions").status, "pass", "a new install asks for every site");
    assertMatch(
      result.stderr,
      /^error: hub doctor: fatal check\(s\) failed: auth secret, server health, extension installed\.\n$/,
    );
    const text = await runHub(["doctor", "--port", String(port)], {
      configDir: s.configDir,
      env: env(s),
    });
    assertEquals(text.code, 1);
    assertMatch(text.stdout, /^hub doctor /);
    assertMatch(
      text.stdout,
      /\[FAIL\] server health: hub is not running on port \d+\n {9}fix: hub start\n/,
    );
    assertMatch(text.stdout, /\[skip\] extension connected: skipped \(hub is not running\)/);
  } finally {
    await Deno.remove(join(s.configDir, ".."), { recursive: true });
  }
});

async function writeClientConfigs(s: Setup, secret: string, port: number): Promise<void> {
  await Deno.mkdir(join(s.home, ".cursor"), { recursive: true });
  await Deno.writeTextFile(
    join(s.home, ".cursor", "mcp.json"),
    JSON.stringify({
      mcpServers: {
        hub: {
          url: `http://127.0.0.1:${port}/mcp`,
          headers: { Authorization: `Bearer ${"0".repeat(64)}` },
        },
      },
    }),
  );
  await Deno.mkdir(join(s.project, ".vscode"), { recursive: true });
  await Deno.writeTextFile(
    join(s.project, ".vscode", "mcp.json"),
    `{
  // the hub, in gateway mode
  "servers": {
    "hub": {
      "type": "http",
      "url": "http://localhost:${port}/mcp/gateway",
      "headers": { "Authorization": "Bearer ${secret}" },
    },
  },
}`,
  );
}

Deno.test("hub doctor: a running hub, the extension, client configs, plugins", async (t) => {
  const s = await setup();
  let hub: RunningHub | undefined;
  try {
    // A local plugin that was never built, and a package plugin that cannot load.
    const local = join(s.project, "my-plugin");
    await Deno.mkdir(local);
    await Deno.writeTextFile(
      join(local, "package.json"),
      JSON.stringify({
        name: "my-plugin",
        version: "1.0.0",
        hub: { urlPatterns: ["https://x.test/*"] },
      }),
    );
    await Deno.writeTextFile(
      join(s.configDir, "config.json"),
      JSON.stringify({ localPlugins: [local] }, null, 2),
      { mode: 0o600 },
    );
    const broken = join(s.npmRoot, "hub-plugin-x");
    await Deno.mkdir(broken);
    await Deno.writeTextFile(
      join(broken, "package.json"),
      JSON.stringify({
        name: "hub-plugin-x",
        version: "1.0.0",
        hub: { urlPatterns: ["https://y.test/*"] },
      }),
    );
    const discovery = { HUB_NPM_ROOT: s.npmRoot, HUB_SKIP_PKG_DISCOVERY: "" };
    hub = await startHub({ configDir: s.configDir, env: env(s, discovery) });
    const port = String(hub.port);
    await writeClientConfigs(s, hub.secret, hub.port);

    await t.step("no extension connected: fatal; plugins and clients reported", async () => {
      const { result, report, byId } = await doctor(s, ["--port", port], discovery);
      assertShape(report, result);
      assertEquals(result.code, 1);
      assertEquals(byId("secret").status, "pass");
      assertEquals(byId("server").message, `hub ${VERSION} answers on port ${port}`);
      assertEquals(byId("extension_connected").status, "error");
      assertMatch(byId("extension_connected").fix!, /Load unpacked/);
      assertEquals(byId("extension_installed").status, "pass");
      assertEquals(byId("extension_version").status, "pass");
      const mcp = byId("mcp_clients");
      assertEquals(mcp.status, "warn");
      assertMatch(
        mcp.message,
        /Cursor .*\.cursor\/mcp\.json "hub": STALE: its Bearer secret is not the current one/,
      );
      assertMatch(mcp.message, /VS Code .*\.vscode\/mcp\.json "hub": current/);
      assertMatch(mcp.fix!, /"hub setup (--project )?cursor"/);
      assertEquals(byId("local_plugins").status, "warn");
      assertEquals(byId("local_plugins").fix, `hub-plugin build --dir ${local}`);
      assertEquals(byId("plugin_packages").status, "warn");
      assertMatch(byId("plugin_packages").message, /1 did not load\nhub-plugin-x: /);
      assertEquals(result.stdout.includes(hub!.secret), false);
      assertEquals(result.stderr.includes(hub!.secret), false);
    });

    const ext = await FakeExtension.connect(hub.port, hub.secret);
    try {
      await t.step("extension connected: no fatal check, warnings alone exit 0", async () => {
        const { result, report, byId } = await doctor(s, ["--port", port], discovery);
        assertShape(report, result);
        assertEquals(byId("extension_connected").status, "pass");
        assertEquals(report.ok, true);
        assertEquals(result.code, 0);
      });

      await t.step("the installed extension is another version: fatal", async () => {
        const manifestPath = join(s.configDir, "extension", "manifest.json");
        const manifest = JSON.parse(await Deno.readTextFile(manifestPath));
        await Deno.writeTextFile(
          manifestPath,
          JSON.stringify({ ...manifest, version: "0.0.1", version_name: "0.0.1" }),
        );
        const { result, byId } = await doctor(s, ["--port", port], discovery);
        assertEquals(result.code, 1);
        assertEquals(byId("extension_version").status, "error");
        assertEquals(
          byId("extension_version").message,
          `the installed extension is 0.0.1, the CLI ${VERSION}`,
        );
      });
    } finally {
      await ext.close();
    }

    await t.step("a stranger on the port gets no secret", async () => {
      // The hub's own port is taken by the hub; a squatter elsewhere stands in for one.
      const squatter = startSquatter("garbage");
      try {
        const { result, byId } = await doctor(s, ["--port", String(squatter.port)], discovery);
        assertEquals(result.code, 1);
        assertMatch(byId("server").message, /did not prove it knows the hub secret/);
        assertEquals(
          byId("extension_connected").message,
          "skipped (no answer from a hub on the port)",
        );
        assertEquals(
          squatter.leaks(hub!.secret).some((leak) => leak.includes(": authorization: ")),
          false,
        );
      } finally {
        await squatter.stop();
      }
    });

    await hub.stop();
    hub = undefined;

    await t.step("hub stopped: the offline package scan finds the broken package", async () => {
      const { result, byId } = await doctor(s, ["--port", port], discovery);
      assertEquals(result.code, 1);
      assertEquals(byId("server").status, "error");
      assertEquals(byId("extension_connected").status, "skip");
      assertEquals(byId("plugin_packages").status, "warn");
      assertMatch(
        byId("plugin_packages").message,
        /hub-plugin-x: hub-plugin-x@1\.0\.0 is not a hub plugin/,
      );
      assertEquals(byId("local_plugins").status, "warn");
    });

    await t.step("a bad secret and a broken config are fatal, with their fixes", async () => {
      await Deno.writeTextFile(join(s.configDir, "extension", "auth.json"), '{"secret":"nope"}');
      await Deno.writeTextFile(join(s.configDir, "config.json"), '{ "port": 1, }');
      const { result, report, byId } = await doctor(s, ["--port", port], discovery);
      assertShape(report, result);
      assertEquals(byId("secret").status, "error");
      assertEquals(byId("secret").fix, "hub config rotate-secret --confirm");
      assertEquals(byId("config").status, "error");
      assertMatch(byId("config").message, /invalid JSON at line 1, column 14/);
      assertEquals(byId("local_plugins").status, "skip");
    });
  } finally {
    await hub?.stop();
    await Deno.remove(join(s.configDir, ".."), { recursive: true });
  }
});

Deno.test("hub doctor: browser tools and the default site permission both auto warn", async () => {
  const s = await setup();
  const configPath = join(s.configDir, "config.json");
  const writeConfig = (config: unknown) =>
    Deno.writeTextFile(configPath, JSON.stringify(config, null, 2), { mode: 0o600 });
  let hub: RunningHub | undefined;
  try {
    await writeConfig({
      permissions: { browser: { permission: "auto" } },
      defaultSitePermission: "auto",
    });
    const port = String(freePort());
    const down = await doctor(s, ["--port", port]);
    const check = down.byId("site_permissions");
    assertEquals(check.status, "warn");
    assertMatch(check.message, /^browser tools are auto and defaultSitePermission is auto: /);
    assertEquals(check.fix, "hub config set defaultSitePermission ask");
    const text = await runHub(["doctor", "--port", port], { configDir: s.configDir, env: env(s) });
    assertMatch(
      text.stdout,
      /\[warn\] site permissions: browser tools are auto .*\n {9}fix: hub config set defaultSitePermission ask\n/,
    );

    // Browser tools ask, but the running hub skips permissions (its environment): it says so.
    await writeConfig({
      permissions: { browser: { permission: "ask" } },
      defaultSitePermission: "auto",
    });
    assertEquals((await doctor(s, ["--port", port])).byId("site_permissions").status, "pass");
    hub = await startHub({
      configDir: s.configDir,
      env: env(s, { HUB_DANGEROUSLY_SKIP_PERMISSIONS: "1" }),
    });
    const skipping = (await doctor(s, ["--port", String(hub.port)])).byId("site_permissions");
    assertEquals(skipping.status, "warn");
    assertMatch(skipping.message, /^browser tools are ask, and skip-permissions is on and /);
  } finally {
    await hub?.stop();
    await Deno.remove(join(s.configDir, ".."), { recursive: true });
  }
});
