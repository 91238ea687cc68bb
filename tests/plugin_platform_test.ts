/**
 * End to end: the plugin author's first steps. `hub plugin create` scaffolds a project that
 * type-checks and builds; it refuses missing flags, bad names and occupied folders. `hub-plugin
 * build` registers the folder once and reloads a running hub, and refuses broken projects with a
 * message naming the problem while leaving dist/ as it was.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { exists, ROOT, runHub, startHub, withTempDir } from "./helpers/hub_process.ts";
import { health, listTools, readConfig } from "./helpers/hub_api.ts";
import { runPluginCli, simplePluginSource, writePluginProject } from "./helpers/plugin_cli.ts";
import { SDK_VERSION } from "../protocol/version.ts";

/** `hub plugin create <args>` in `cwd` (no terminal: stdin is null). */
function create(args: string[], configDir: string, cwd: string) {
  return runHub(["plugin", "create", ...args], { configDir, cwd, env: { INIT_CWD: cwd } });
}

async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("hub plugin create: the scaffold type-checks, builds, registers and loads in a hub", async () => {
  await withTempDir(async (root) => {
    const configDir = join(root, "config");
    const cwd = join(root, "work");
    await Deno.mkdir(cwd);
    const created = await create(["my-app", "--domain", "app.example.com"], configDir, cwd);
    assertEquals(created.code, 0, created.stderr);
    const dir = join(cwd, "my-app");
    assertMatch(created.stdout, /Created plugin "my-app"/);
    for (const file of ["package.json", "deno.json", "src/index.ts", "README.md"]) {
      assert(await exists(join(dir, file)), `${file} was created`);
    }
    const pkg = JSON.parse(await Deno.readTextFile(join(dir, "package.json")));
    assertEquals(pkg.name, "hub-plugin-my-app");
    assertEquals(pkg.hub.urlPatterns, ["*://app.example.com/*", "*://*.app.example.com/*"]);
    assertEquals(pkg.hub.displayName, "My App");

    // The scaffold maps @tabhub/sdk to a range on npm (a test cannot publish it there), so point
    // it at this checkout's SDK, as its README tells contributors on a checkout to do.
    const denoJsonPath = join(dir, "deno.json");
    const scaffoldDenoJson = await Deno.readTextFile(denoJsonPath);
    const denoJson = JSON.parse(scaffoldDenoJson);
    assertMatch(denoJson.imports["@tabhub/sdk"], /^npm:@tabhub\/sdk@\^\d+\.\d+$/);
    denoJson.imports["@tabhub/sdk"] = join(ROOT, "sdk", "mod.ts");
    await Deno.writeTextFile(denoJsonPath, JSON.stringify(denoJson, null, 2));
    const check = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "src/index.ts"],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(check.code, 0, new TextDecoder().decode(check.stderr));
    // The build checks the scaffold's own range against the SDK it bundles.
    await Deno.writeTextFile(denoJsonPath, scaffoldDenoJson);

    const built = await runPluginCli(["build", "--dir", dir], { configDir });
    assertEquals(built.code, 0, built.stderr);
    assertMatch(built.stdout, /Built my-app 0\.1\.0: 1 tool/);
    assert(!built.stderr.includes("warning:"), built.stderr);
    assertMatch(built.stdout, /Registered .*my-app in localPlugins/);
    assertMatch(built.stdout, /No hub answered on 127\.0\.0\.1:\d+/);
    assert(await exists(join(dir, "dist", "tools.json")));
    assert(await exists(join(dir, "dist", "adapter.iife.js")));
    assertEquals((await readConfig(configDir)).localPlugins, [dir]);
    const mode = (await Deno.stat(join(configDir, "config.json"))).mode! & 0o777;
    assertEquals(mode.toString(8), "600", "the build created config.json with mode 0600");

    const hub = await startHub({ configDir });
    try {
      const tools = await listTools(hub);
      const tool = tools.find((t) => t.name === "my-app__get_page_info");
      assert(tool, `GET /tools lists my-app__get_page_info: ${JSON.stringify(tools)}`);
      assertEquals(tool.plugin, "my-app");
      assertEquals(tool.permission, "off");
      assertMatch(tool.description, /^\[Disabled\] Returns the title and URL/);
      assertEquals(tool.inputSchema.type, "object");
      assertEquals(tool.inputSchema.properties.tabId.type, "integer");
      assertEquals(tool.inputSchema.properties.tabId.minimum, 1);
      assertEquals(tool.inputSchema.properties.includeHeadings.type, "boolean");
      assert(!("instance" in tool.inputSchema.properties), "no instances: no instance parameter");
      assert(!(tool.inputSchema.required ?? []).includes("tabId"), "tabId is optional");

      const h = await health(hub);
      assertEquals(h.pluginDetails, [{
        name: "my-app",
        displayName: "My App",
        toolCount: 1,
        tools: ["my-app__get_page_info"],
        tabState: "closed",
        tabs: [],
        source: "local",
        sdkVersion: SDK_VERSION,
        logBufferSize: 0,
      }]);
      assertEquals(h.plugins, 1);
      assertEquals(h.pluginToolCount, 1);
      assertEquals(h.toolCount, h.pluginToolCount + h.browserToolCount);
      assertEquals(h.failedPlugins, []);
      assertEquals(h.discoveryErrors, []);
    } finally {
      assertEquals(await hub.stop(), 0);
    }
  });
});

Deno.test("hub plugin create refuses missing flags, bad names and a non-empty folder", async () => {
  await withTempDir(async (root) => {
    const configDir = join(root, "config");
    const cwd = join(root, "work");
    await Deno.mkdir(cwd);

    const none = await create([], configDir, cwd);
    assertEquals(none.code, 1, none.stdout);
    assertMatch(none.stderr, /Missing <name> and --domain <domain> \(no terminal/);
    const noDomain = await create(["my-app"], configDir, cwd);
    assertEquals(noDomain.code, 1);
    assertMatch(noDomain.stderr, /Missing --domain <domain>/);
    assert(!noDomain.stderr.includes("<name>"), noDomain.stderr);

    const upper = await create(["My_App", "--domain", "a.example.com"], configDir, cwd);
    assertEquals(upper.code, 1);
    assertMatch(upper.stderr, /"My_App" is not a valid plugin name.*lowercase/);
    const reserved = await create(["browser", "--domain", "a.example.com"], configDir, cwd);
    assertEquals(reserved.code, 1);
    assertMatch(reserved.stderr, /"browser" is reserved/);
    const badDomain = await create(["ok-name", "--domain", "not a domain"], configDir, cwd);
    assertEquals(badDomain.code, 1);
    assertMatch(badDomain.stderr, /--domain: "not a domain" is not a domain/);
    assertEquals(await listDir(cwd), [], "nothing was created");

    await Deno.mkdir(join(cwd, "taken"));
    await Deno.writeTextFile(join(cwd, "taken", "package.json"), "mine");
    const existing = await create(["taken", "--domain", "a.example.com"], configDir, cwd);
    assertEquals(existing.code, 1);
    assertMatch(existing.stderr, /taken already exists and is not empty/);
    assertEquals(await listDir(join(cwd, "taken")), ["package.json"]);
    assertEquals(await Deno.readTextFile(join(cwd, "taken", "package.json")), "mine");
  });
});

Deno.test("hub-plugin build with a running hub: the hub reloads and serves the tools", async () => {
  await withTempDir(async (root) => {
    const configDir = join(root, "config");
    const dir = await writePluginProject(join(root, "echo"), {
      name: "echo",
      source: simplePluginSource(["say", "shout"]),
    });
    const hub = await startHub({ configDir });
    try {
      const env = { HUB_PORT: String(hub.port) };
      const before = (await health(hub)).reloadCount;
      const first = await runPluginCli(["build", "--dir", dir], { configDir, env });
      assertEquals(first.code, 0, first.stderr);
      assertMatch(first.stdout, /Built echo 0\.1\.0: 2 tools/);
      assertMatch(first.stdout, /The hub reloaded and serves 2 tools of "echo"\./);
      const h = await health(hub);
      assertEquals(h.reloadCount, before + 1);
      assertEquals(h.pluginDetails.map((p) => p.name), ["echo"]);
      assertEquals((await listTools(hub, "echo")).map((t) => t.name), ["echo__say", "echo__shout"]);

      const second = await runPluginCli(["build", "--dir", dir], { configDir, env });
      assertEquals(second.code, 0, second.stderr);
      assert(!second.stdout.includes("Registered"), second.stdout);
      assertMatch(second.stdout, /The hub reloaded and serves 2 tools/);
      assertEquals((await health(hub)).reloadCount, before + 2);
      assertEquals((await readConfig(configDir)).localPlugins, [dir], "registered once");
    } finally {
      assertEquals(await hub.stop(), 0);
    }
  });
});

interface Refusal {
  what: string;
  source?: string;
  hub?: Record<string, unknown>;
  expect: RegExp[];
}

const SCHEDULE_SOURCE = `import { definePlugin, defineTool, z } from "@tabhub/sdk";
export default definePlugin({
  tools: [defineTool({
    name: "schedule",
    description: "Schedules a thing.",
    input: z.object({ when: z.string().transform((s) => new Date(s)) }),
    handle: () => ({}),
  })],
});
`;

const REFUSALS: Refusal[] = [
  {
    what: "a reserved plugin name",
    hub: { name: "browser" },
    expect: [/"browser" is reserved/, /hub\.name/],
  },
  {
    what: "an invalid URL pattern",
    hub: { urlPatterns: ["https://app.example.com"] },
    expect: [/hub\.urlPatterns\.0/, /"https:\/\/app\.example\.com" is not a valid match pattern/],
  },
  {
    what: "an unknown hub key",
    hub: { urlPattern: ["*://example.com/*"] },
    expect: [/unknown key "hub\.urlPattern"/, /urlPatterns/],
  },
  {
    what: "a missing entry file",
    hub: { entry: "src/main.ts" },
    expect: [/entry file .*src\/main\.ts does not exist/, /hub\.entry/],
  },
  {
    what: "a TypeScript syntax error",
    source: `${simplePluginSource(["ok"])}const broken: number = ;\n`,
    // The broken line is the one after the valid source.
    expect: [
      /does not compile/,
      new RegExp(`src/index\\.ts:${simplePluginSource(["ok"]).split("\n").length}:\\d+`),
    ],
  },
  {
    what: "top-level code that touches document",
    source: `const title = document.title;\n${simplePluginSource(["ok"])}`,
    expect: [/document is not defined/, /top-level code once, outside the browser/],
  },
];

async function snapshot(dir: string): Promise<string> {
  const dist = join(dir, "dist");
  const names = await listDir(dist);
  const parts = await Promise.all(names.map(async (n) => {
    const info = await Deno.stat(join(dist, n));
    return `${n}:${info.mtime?.getTime()}:${await Deno.readTextFile(join(dist, n))}`;
  }));
  return parts.join("\n");
}

Deno.test("hub-plugin build refuses broken projects, names the problem and keeps dist/", async () => {
  await withTempDir(async (root) => {
    const configDir = join(root, "config");
    const dir = join(root, "refuse");
    const good = simplePluginSource(["ok"]);

    // A .transform() in an input: refused before anything is written.
    await writePluginProject(dir, { name: "refuse", source: SCHEDULE_SOURCE });
    const transform = await runPluginCli(["build", "--dir", dir], { configDir });
    assertEquals(transform.code, 1, transform.stdout);
    assertMatch(transform.stderr, /Tool "schedule": input field "when" uses .*\.transform\(\)/);
    assertMatch(transform.stderr, /JSON Schema cannot express/);
    assert(!(await exists(join(dir, "dist"))), "a failed first build creates no dist/");
    assert(!(await exists(join(configDir, "config.json"))), "and registers nothing");

    await writePluginProject(dir, { name: "refuse", source: good });
    const ok = await runPluginCli(["build", "--dir", dir], { configDir });
    assertEquals(ok.code, 0, ok.stderr);
    const before = await snapshot(dir);

    for (const refusal of REFUSALS) {
      await writePluginProject(dir, {
        name: "refuse",
        source: refusal.source ?? good,
        hub: refusal.hub,
      });
      const r = await runPluginCli(["build", "--dir", dir], { configDir });
      assertEquals(r.code, 1, `${refusal.what}: ${r.stdout}${r.stderr}`);
      for (const pattern of refusal.expect) assertMatch(r.stderr, pattern, refusal.what);
      assert(!r.stderr.includes("a bug in"), `${refusal.what} is a user error: ${r.stderr}`);
      assertEquals(await snapshot(dir), before, `${refusal.what}: dist/ is unchanged`);
    }
  });
});
