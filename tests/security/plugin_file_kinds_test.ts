/**
 * Local plugins whose files are not regular files or are too large: tools.json and package.json
 * as a FIFO that nothing writes (its open would block), an adapter and an icon linked to
 * /dev/zero (a read that never ends), and a 300 MB adapter (a sparse file: no disk, no memory).
 * The real hub refuses each file without reading it: that plugin alone fails with the reason under
 * `failedPlugins`, the good plugin beside them loads, POST /reload returns, /health answers, and
 * the hub's memory does not grow by the size of any of them.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { api, health, listTools, writeConfig } from "../helpers/hub_api.ts";
import { startHub, withTempDir } from "../helpers/hub_process.ts";
import { linkToDevZero, replaceWithFifo } from "../helpers/file_kinds.ts";
import { writePluginFolder } from "../helpers/plugin_cli.ts";

/** The hub's resident memory now and at its peak, in MB (/proc). */
async function memoryMb(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)![1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** Each spoiled plugin: its name, how it is spoiled, and the reason it must fail with. */
const SPOILED: [string, (dir: string) => Promise<void>, RegExp][] = [
  [
    "fifotools",
    (d) => replaceWithFifo(join(d, "dist", "tools.json")),
    /tools\.json .*named pipe \(FIFO\)/,
  ],
  [
    "fifopkg",
    (d) => replaceWithFifo(join(d, "package.json")),
    /package\.json .*named pipe \(FIFO\)/,
  ],
  [
    "zeroadapter",
    (d) => linkToDevZero(join(d, "dist", "adapter.iife.js")),
    /adapter\.iife\.js .*character device/,
  ],
  [
    "zeroicon",
    (d) => linkToDevZero(join(d, "icon.svg")),
    /the icon cannot be used: icon\.svg is a character device/,
  ],
  [
    "hugeadapter",
    (d) => Deno.truncate(join(d, "dist", "adapter.iife.js"), 300 * 1024 * 1024),
    /adapter\.iife\.js .*is 300 MB, over the limit of 5 MB; it was not read/,
  ],
];

Deno.test({
  name: "FIFO, /dev/zero and oversized plugin files fail their plugin alone; /reload returns",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withTempDir(async (dir) => {
      const good = await writePluginFolder(join(dir, "plugins", "good"), { name: "good" });
      const spoiled: string[] = [];
      for (const [name] of SPOILED) {
        const extra = name === "zeroicon" ? { icon: "icon.svg" } : {};
        spoiled.push(await writePluginFolder(join(dir, "plugins", name), { name, hub: extra }));
      }
      await writeConfig(dir, { localPlugins: [good] });
      const hub = await startHub({ configDir: dir });
      try {
        const before = await memoryMb(hub.child.pid);
        for (const [i, [, spoil]] of SPOILED.entries()) await spoil(spoiled[i]);
        await writeConfig(dir, { localPlugins: [good, ...spoiled] });
        for (let round = 0; round < 3; round++) {
          const reload = await api(hub, "POST", "/reload");
          assertEquals(reload.status, 200, JSON.stringify(reload.body));
        }
        const state = await health(hub);
        assertEquals(state.plugins, 1, "only the good plugin is loaded");
        assert((await listTools(hub, "good")).length > 0, "the good plugin's tools are listed");
        for (const [i, [name, , reason]] of SPOILED.entries()) {
          const failed = state.failedPlugins.find((f) => f.path === spoiled[i]);
          assert(
            failed,
            `${name} is not among failedPlugins: ${JSON.stringify(state.failedPlugins)}`,
          );
          assertMatch(failed.error, reason, name);
        }
        const after = await memoryMb(hub.child.pid);
        console.log(
          `hub memory over 3 reloads: RSS ${before.rss.toFixed(0)} -> ${
            after.rss.toFixed(0)
          } MB, ` +
            `peak ${before.peak.toFixed(0)} -> ${after.peak.toFixed(0)} MB`,
        );
        assert(after.peak - before.peak < 100, `peak grew by ${after.peak - before.peak} MB`);
      } finally {
        assertEquals(await hub.stop(), 0, hub.output());
      }
    });
  },
});
