/**
 * The plugin author's path end to end, against a real npm registry on loopback (verdaccio): with
 * `@tabhub/hub` and `@tabhub/sdk` built from this checkout, published and installed, the installed
 * `hub plugin create` scaffolds a plugin, the published SDK's types check it, the installed
 * `hub-plugin` builds it, it is published as `hub-plugin-demo` and installed with `npm i -g` beside
 * hub, the running hub lists it with `source: "npm"`, and its tool answers in a real Chromium tab.
 */
import { delimiter, join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { eventually } from "../helpers/hub_api.ts";
import { freePort, ROOT } from "../helpers/hub_process.ts";
import {
  type BackgroundHub,
  npmInstallGlobal,
  runInstalled,
  startInstalledHub,
} from "../helpers/npm_install.ts";
import { startRegistry, type TestRegistry } from "../helpers/registry.ts";
import { browserGate } from "../helpers/browser_gate.ts";
import { launchWithExtension } from "../helpers/extension_browser.ts";
import { startTestWebApp } from "../fixtures/web_app/server.ts";
import { absolutePathHits } from "../../npm/package_checks.ts";
import { sdkRange, VERSION } from "../../protocol/version.ts";
import type { HealthPayload, PluginDetail } from "../../protocol/health.ts";
import { type InstalledHub, installHub, publishHub, publishSdk } from "./published_packages.ts";
import { unmarked } from "../helpers/page_content.ts";

const PLUGIN = "demo";
const PACKAGE = `hub-plugin-${PLUGIN}`;
const TOOL = `${PLUGIN}__get_page_info`;
const gate = browserGate(import.meta.url);

const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

/** An authenticated JSON request to the background hub. */
async function api(hub: BackgroundHub, method: string, path: string, body?: unknown) {
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${hub.secret}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

async function health(hub: BackgroundHub): Promise<HealthPayload> {
  const reply = await api(hub, "GET", "/health");
  assertEquals(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

async function demoDetail(hub: BackgroundHub): Promise<PluginDetail | undefined> {
  return (await health(hub)).pluginDetails.find((p) => p.name === PLUGIN);
}

/**
 * A file that type-checks only with the SDK's real declarations: were `@tabhub/sdk` untyped, the
 * expected error would not come and `deno check` would fail on the unused directive.
 */
const TYPES_PROBE = `import { defineTool, z } from "@tabhub/sdk";

// @ts-expect-error: a tool's name is a string.
defineTool({ name: 42, description: "probe", input: z.object({}), handle: () => ({}) });
export const probe: string = z.string().parse("ok");
`;

interface Author {
  dir: string;
  /** The author's environment: the installed hub's bin and no Deno on PATH, the registry. */
  env: Record<string, string>;
  /** The author has Deno too: `deno task` runs the scaffold's tasks. */
  task(name: string): ReturnType<typeof runInstalled>;
}

/**
 * The author's machine: their own HOME whose .npmrc names the registry. The SDK was published
 * seconds ago; Deno refuses npm versions younger than 24 hours unless exempt, and the scaffold's
 * deno.json exempts `npm:@tabhub/sdk`, so this proves a plugin builds on the day of an SDK release.
 */
async function author(
  registry: TestRegistry,
  installed: InstalledHub,
  work: string,
): Promise<Author> {
  const dir = join(work, "author");
  const home = join(work, "author-home");
  await Deno.mkdir(home, { recursive: true });
  await Deno.writeTextFile(
    join(home, ".npmrc"),
    await Deno.readTextFile(registry.npmrc),
  );
  const env = registry.env({
    HOME: home,
    PATH: [installed.bin, installed.noDenoPath].join(delimiter),
    // The author's own hub config; no hub listens on this port, so the build reloads nothing.
    HUB_CONFIG_DIR: join(work, "author-config"),
    HUB_PORT: String(freePort()),
    DENO_DIR: join(work, "author-deno-dir"),
    NO_COLOR: "1",
  });
  const pluginDir = join(dir, PLUGIN);
  return {
    dir,
    env,
    task: (name) =>
      runInstalled(Deno.execPath(), ["task", "--quiet", name], env, {
        cwd: pluginDir,
        timeoutMs: 180_000,
      }),
  };
}

async function scaffold(a: Author, installed: InstalledHub, work: string): Promise<string> {
  await Deno.mkdir(a.dir, { recursive: true });
  const create = await runInstalled(
    join(installed.bin, "hub"),
    ["plugin", "create", PLUGIN, "--domain", "127.0.0.1", "--display", "Demo"],
    a.env,
    { cwd: a.dir },
  );
  assertEquals(create.code, 0, create.stderr);
  const dir = join(a.dir, PLUGIN);
  const denoJson = await readJson(join(dir, "deno.json"));
  assertEquals(denoJson.imports["@tabhub/sdk"], `npm:@tabhub/sdk@${sdkRange()}`);
  const pkg = await readJson(join(dir, "package.json"));
  assertEquals([pkg.name, pkg.hub.urlPatterns], [PACKAGE, ["*://127.0.0.1/*"]]);
  assertEquals(await absolutePathHits(dir, [ROOT, work, installed.prefix]), []);
  return dir;
}

async function typeCheck(registry: TestRegistry, a: Author, dir: string): Promise<void> {
  const probe = join(dir, "src", "types_probe.ts");
  await Deno.writeTextFile(probe, TYPES_PROBE);
  try {
    const check = await a.task("check");
    assertEquals(check.code, 0, `${check.stdout}\n${check.stderr}`);
  } finally {
    await Deno.remove(probe);
  }
  // Deno installed the SDK this checkout published, and the test registry served it.
  const sdk = await readJson(join(dir, "node_modules", "@tabhub", "sdk", "package.json"));
  assertEquals(sdk.version, VERSION);
  await registry.waitForLog(/<-- 200, .*'GET \/@tabhub(%2f|\/)sdk/i);
}

async function build(a: Author, dir: string): Promise<void> {
  // As an author does before a first release.
  const pkg = await readJson(join(dir, "package.json"));
  await Deno.writeTextFile(
    join(dir, "package.json"),
    JSON.stringify({ ...pkg, version: "1.0.0" }, null, 2) + "\n",
  );
  const result = await a.task("build");
  assertEquals(result.code, 0, `${result.stdout}\n${result.stderr}`);
  assertMatch(result.stdout, new RegExp(`Built ${PLUGIN} 1\\.0\\.0: 1 tool`));
  const tools = await readJson(join(dir, "dist", "tools.json"));
  assertEquals([tools.plugin, tools.version, tools.sdkVersion], [PLUGIN, "1.0.0", VERSION]);
  assert((await Deno.stat(join(dir, "dist", "adapter.iife.js"))).size > 0);
}

async function listedWithSourceNpm(
  hub: BackgroundHub,
  installed: InstalledHub,
  env: Record<string, string>,
) {
  const reload = await api(hub, "POST", "/reload");
  assertEquals(reload.status, 200, JSON.stringify(reload.body));
  const detail = await demoDetail(hub);
  assert(detail, `${PLUGIN} is not loaded: ${JSON.stringify(await health(hub)).slice(0, 1500)}`);
  assertEquals([detail.source, detail.toolCount, detail.sdkVersion], ["npm", 1, VERSION]);
  const status = await runInstalled(join(installed.bin, "hub"), ["status"], env);
  assertEquals(status.code, 0, status.stderr);
  assertMatch(status.stdout, new RegExp(`^\\s+${PLUGIN}\\s+\\S+\\s+1 tool\\s+npm$`, "m"));
  const tools = await api(hub, "GET", `/tools?plugin=${PLUGIN}`);
  assertEquals(tools.status, 200);
  assertEquals(
    tools.body.tools.map((t: { name: string; permission: string }) => [t.name, t.permission]),
    [[TOOL, "off"]],
  );
}

async function answersInChromium(
  hub: BackgroundHub,
  installed: InstalledHub,
  env: Record<string, string>,
) {
  const allow = await runInstalled(
    join(installed.bin, "hub"),
    ["config", "set", `plugin-permission.${PLUGIN}`, "auto"],
    env,
  );
  assertEquals(allow.code, 0, allow.stderr);
  let permission: string | undefined;
  await eventually(async () => {
    permission = (await api(hub, "GET", `/tools?plugin=${PLUGIN}`)).body.tools?.[0]?.permission;
    return permission === "auto";
  }, () => `${TOOL} never became auto (it is ${permission})`);
  const app = await startTestWebApp();
  const browser = await launchWithExtension(join(env.HUB_CONFIG_DIR, "extension"));
  try {
    await eventually(
      async () => (await health(hub)).extensionConnected,
      () => "the extension the installed hub wrote never connected to it",
      30_000,
    );
    const page = await browser.context.newPage();
    await page.goto(app.url);
    let detail: PluginDetail | undefined;
    await eventually(async () => {
      detail = await demoDetail(hub);
      return detail?.tabState === "ready";
    }, () => `the ${PLUGIN} tab never became ready: ${JSON.stringify(detail)}`);
    const call = await api(hub, "POST", `/tools/${TOOL}/call`, {
      arguments: { includeHeadings: true },
    });
    assertEquals(call.status, 200, JSON.stringify(call.body));
    assertEquals(unmarked(call.body).structuredContent, {
      title: "Test app",
      url: app.url,
      headings: ["Test app"],
    });
  } finally {
    await browser.close();
    await app.close();
  }
}

Deno.test({
  name: "distribution: a plugin scaffolded, built, published and installed with npm runs in hub",
  // Chromium, the hub and the registry outlive single steps; the finally block closes them.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const started = performance.now();
    const registry = await startRegistry();
    const work = await Deno.makeTempDir({ prefix: "hub-dist-plugin-" });
    let hub: BackgroundHub | undefined;
    try {
      // The SDK first: plugins resolve it from the registry.
      await publishSdk(registry, work);
      await publishHub(registry, work);
      const installed = await installHub(registry, work);
      const env = registry.env({
        PATH: installed.noDenoPath,
        HUB_CONFIG_DIR: join(work, "config"),
        DENO_DIR: join(work, "deno-dir"),
        NO_COLOR: "1",
      });
      const port = freePort();
      env.HUB_PORT = String(port);
      hub = await startInstalledHub(installed.bin, port, env);
      const a = await author(registry, installed, work);
      let pluginDir = "";

      await t.step("hub plugin create: a project with no absolute path", async () => {
        pluginDir = await scaffold(a, installed, work);
      });
      await t.step("deno task check: the published SDK's types resolve", async () => {
        await typeCheck(registry, a, pluginDir);
      });
      await t.step("deno task build: the installed hub-plugin builds it", async () => {
        await build(a, pluginDir);
      });
      await t.step(`published as ${PACKAGE} and installed with npm i -g`, async () => {
        await registry.publish(pluginDir);
        const { seconds } = await npmInstallGlobal(installed.prefix, PACKAGE, registry.env());
        console.log(`npm i -g ${PACKAGE}: ${seconds.toFixed(1)} s`);
        const pkg = await readJson(join(installed.root, PACKAGE, "package.json"));
        assertEquals([pkg.name, pkg.version], [PACKAGE, "1.0.0"]);
      });
      await t.step('the running hub lists it with source "npm"', async () => {
        await listedWithSourceNpm(hub!, installed, env);
      });
      await t.step({
        name: "its tool answers in a real Chromium tab",
        ignore: gate.ignore,
        fn: async () => {
          gate.check();
          await answersInChromium(hub!, installed, env);
        },
      });
    } finally {
      await hub?.stop();
      await registry.stop();
      await Deno.remove(work, { recursive: true }).catch(() => {});
      console.log(
        `distribution plugin suite: ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    }
  },
});
