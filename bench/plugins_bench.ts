/**
 * Plugin platform benchmarks: discovery + reload of 100 generated plugins × 20 tools (target
 * ≤ 300 ms on the 2-core build machine), the first validation of every tool (validators compile
 * lazily), and GET /tools over all 2000 tools. Run with `deno task bench`.
 */
import { join } from "node:path";
import { createInProcessHub } from "../tests/helpers/in_process_hub.ts";
import { createConfigStore } from "../core/config/config_store.ts";

import { PLUGINS, TOOLS, writePlugin } from "./_generated_plugins.ts";

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
    const { loadValidators, ValidatorCache } = await import("../server/plugins/validators.ts");
    await loadValidators(); // the pipeline does this before the first call
    const cache = new ValidatorCache();
    const validators = registry.plugins.flatMap((p) =>
      p.tools.map((t) => cache.validator(t.inputSchema))
    );
    b.start();
    for (const v of validators) v.validate({ query: "x", instance: "work" });
    b.end();
  },
});
