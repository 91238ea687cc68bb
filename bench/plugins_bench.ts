/**
 * Plugin platform benchmarks: discovery + reload of 100 generated plugins × 20 tools (target
 * ≤ 300 ms on the 2-core build machine), the first validation of every tool (validators compile
 * lazily), and GET /tools over all 2000 tools. Run with `deno task bench`.
 */
import { join } from "node:path";
import { SDK_VERSION } from "../protocol/version.ts";
import { createInProcessHub } from "../tests/helpers/in_process_hub.ts";
import { createConfigStore } from "../server/config/config_store.ts";

const PLUGINS = 100;
const TOOLS = 20;
/** A built adapter with zod is ~380 KB; the generated ones have that size too. */
const ADAPTER = `/* generated */(()=>{${"x".repeat(380 * 1024)}})();\n`;

function toolSchema(p: number, t: number) {
  return {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1, description: `search text ${p}.${t}` },
      limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
      mode: { type: "string", enum: ["fast", "full", `m${t}`] },
      tags: { type: "array", items: { type: "string" } },
      [`option_${t}`]: { type: "boolean" },
    },
    required: ["query"],
  };
}

async function writePlugin(root: string, p: number): Promise<string> {
  const name = `bench-${p}`;
  const dir = join(root, name);
  await Deno.mkdir(join(dir, "dist"), { recursive: true });
  const pkg = {
    name: `hub-plugin-${name}`,
    version: "1.0.0",
    hub: {
      displayName: `Bench ${p}`,
      urlPatterns: [`*://bench${p}.example.com/*`],
      configSchema: { instances: { type: "url", label: "Instances" } },
    },
  };
  const tools = Array.from({ length: TOOLS }, (_, t) => ({
    name: `tool_${t}`,
    displayName: `Tool ${t}`,
    description: `Benchmark tool ${t} of plugin ${p}`,
    inputSchema: toolSchema(p, t),
  }));
  await Deno.writeTextFile(join(dir, "package.json"), JSON.stringify(pkg));
  await Deno.writeTextFile(
    join(dir, "dist/tools.json"),
    JSON.stringify({ sdkVersion: SDK_VERSION, plugin: name, version: "1.0.0", tools }),
  );
  await Deno.writeTextFile(join(dir, "dist/adapter.iife.js"), ADAPTER + `// ${p}\n`);
  return dir;
}

const dir = await Deno.makeTempDir({ prefix: "hub-bench-plugins-" });
addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
const pluginsDir = join(dir, "plugins");
for (let p = 0; p < PLUGINS; p++) await writePlugin(pluginsDir, p);
const configDir = join(dir, "config");
await createConfigStore(join(configDir, "config.json")).update((c) => {
  c.localPluginDirs = [pluginsDir];
  // Half the plugins get two instances, so their tools carry an `instance` enum.
  for (let p = 0; p < PLUGINS; p += 2) {
    c.settings[`bench-${p}`] = {
      instances: { work: "https://a.example", home: "https://b.example" },
    };
  }
});
// Global packages are discovered too (`npm root -g` runs once, at startup, then is cached).
const { hub, secret } = await createInProcessHub(configDir, { skipPackageDiscovery: false });
if (hub.plugins.registry().plugins.length !== PLUGINS) {
  throw new Error(`expected ${PLUGINS} plugins, got ${hub.plugins.registry().plugins.length}`);
}
const headers = { authorization: `Bearer ${secret}`, host: "127.0.0.1" };

Deno.bench(`plugins: discovery + reload of ${PLUGINS} plugins × ${TOOLS} tools`, async () => {
  await hub.reload();
});

Deno.bench(`plugins: GET /tools listing ${PLUGINS * TOOLS} tools (in process)`, async () => {
  const res = await hub.handler(new Request("http://127.0.0.1/tools", { headers }));
  await res.body?.cancel();
});

Deno.bench({
  name: `plugins: first validation of all ${PLUGINS * TOOLS} tools after a reload (compiles)`,
  n: 5,
  warmup: 0,
  async fn(b) {
    await hub.reload(); // keeps compiled validators of unchanged schemas: force fresh ones
    const registry = hub.plugins.registry();
    const { ValidatorCache } = await import("../server/plugins/validators.ts");
    const cache = new ValidatorCache();
    const validators = registry.plugins.flatMap((p) =>
      p.tools.map((t) => cache.validator(t.inputSchema))
    );
    b.start();
    for (const v of validators) v.validate({ query: "x", instance: "work" });
    b.end();
  },
});
