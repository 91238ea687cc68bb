/**
 * config.json and auth.json that are not regular files: a named pipe (FIFO) that nothing writes,
 * whose open would block the hub for good, and a link to /dev/zero, whose read never ends. A
 * running hub refuses them (it never opens them), keeps serving its last good config and secret,
 * answers /health all along, answers POST /reload with the reason, and takes a good file again.
 * `hub start` with such a file stops at once with a clear error; dev mode's config watcher
 * rejects the edit with the reason and goes on.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { api, eventually, health, writeConfig } from "../helpers/hub_api.ts";
import { runHub, type RunningHub, startHub, withTempDir } from "../helpers/hub_process.ts";
import { linkToDevZero, replaceWithFifo } from "../helpers/file_kinds.ts";

const DISABLED = ["browser_screenshot_tab"];

/** The process's resident memory and its peak so far, in MB, from /proc. */
async function memoryMb(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)![1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** /health answers several times over more than the live files' look interval (100 ms). */
async function keepsAnswering(hub: RunningHub, disabled: string[]): Promise<void> {
  for (let i = 0; i < 6; i++) {
    assertEquals((await health(hub)).disabledBrowserTools, disabled);
    await new Promise((r) => setTimeout(r, 60));
  }
}

const SPOILERS: [string, (path: string) => Promise<void>, RegExp][] = [
  ["a FIFO", replaceWithFifo, /is a named pipe \(FIFO\), not a regular file/],
  ["a link to /dev/zero", linkToDevZero, /is a character device \(such as \/dev\/zero\)/],
];

Deno.test({
  name: "a running hub refuses config.json and auth.json as a FIFO or /dev/zero and keeps serving",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withTempDir(async (dir) => {
      await writeConfig(dir, { disabledBrowserTools: DISABLED });
      const configPath = join(dir, "config.json");
      const authPath = join(dir, "extension", "auth.json");
      const hub = await startHub({ configDir: dir });
      try {
        const before = await memoryMb(hub.child.pid);
        const authText = await Deno.readTextFile(authPath);
        for (const [label, spoil, reason] of SPOILERS) {
          await spoil(configPath);
          // Each /health reads the live config, which looks at the file again every 100 ms.
          const refused = async () =>
            (await health(hub)) &&
            hub.output().split("\n").some((l) => l.includes(configPath) && reason.test(l));
          await eventually(
            refused,
            () => `no refusal of ${label}:\n${hub.output()}`,
          );
          await keepsAnswering(hub, DISABLED);
          const reload = await api(hub, "POST", "/reload");
          assert(reload.status >= 400, `${label}: reload ${reload.status}`);
          assertMatch(JSON.stringify(reload.body), reason);
          // A good file again, with a change: the hub takes it.
          await writeConfig(dir, { disabledBrowserTools: [] });
          await eventually(
            async () => (await health(hub)).disabledBrowserTools.length === 0,
            () => `${label}: the good config.json was not taken`,
          );
          await writeConfig(dir, { disabledBrowserTools: DISABLED });
          await eventually(
            async () => (await health(hub)).disabledBrowserTools.length === 1,
            () => `${label}: the restored config.json was not taken`,
          );

          await spoil(authPath);
          await eventually(
            async () =>
              (await health(hub)) && hub.output().includes(`previous contents of ${authPath}`),
            () => `no refusal of auth.json as ${label}:\n${hub.output()}`,
          );
          await keepsAnswering(hub, DISABLED); // with the secret it had
          await Deno.remove(authPath);
          await Deno.writeTextFile(authPath, authText, { mode: 0o600 });
          assertEquals((await api(hub, "POST", "/reload")).status, 200);
        }
        const after = await memoryMb(hub.child.pid);
        console.log(
          `hub memory: RSS ${before.rss.toFixed(0)} -> ${after.rss.toFixed(0)} MB, ` +
            `peak ${before.peak.toFixed(0)} -> ${after.peak.toFixed(0)} MB`,
        );
        assert(after.peak - before.peak < 100, `peak grew by ${after.peak - before.peak} MB`);
      } finally {
        assertEquals(await hub.stop(), 0, hub.output());
      }
    });
  },
});

Deno.test({
  name: "hub start with config.json or auth.json as a FIFO or /dev/zero stops with a clear error",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    for (const file of ["config.json", join("extension", "auth.json")]) {
      for (const [label, spoil, reason] of SPOILERS) {
        await withTempDir(async (dir) => {
          await writeConfig(dir, {});
          await Deno.mkdir(join(dir, "extension"), { recursive: true });
          await spoil(join(dir, file));
          const out = await runHub(["start", "--port", "0"], { configDir: dir, timeoutMs: 30_000 });
          assert(out.code !== 0, `${file} as ${label}: exit ${out.code}`);
          assertMatch(out.stderr + out.stdout, reason, `${file} as ${label}`);
          assertMatch(out.stderr + out.stdout, /move it away \(mv /i, `${file} as ${label}`);
        });
      }
    }
  },
});

Deno.test({
  name:
    "dev mode rejects config.json as a FIFO with the reason, keeps serving, then takes a good file",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withTempDir(async (dir) => {
      await writeConfig(dir, { disabledBrowserTools: DISABLED });
      const configPath = join(dir, "config.json");
      const hub = await startHub({ configDir: dir, args: ["--dev"] });
      try {
        await replaceWithFifo(configPath);
        await eventually(
          () => Promise.resolve(/Dev mode: rejected the edit .*FIFO/.test(hub.output())),
          () => `dev mode did not reject the FIFO:\n${hub.output()}`,
        );
        await keepsAnswering(hub, DISABLED);
        await writeConfig(dir, { disabledBrowserTools: [] });
        await eventually(
          async () => (await health(hub)).disabledBrowserTools.length === 0,
          () => `the good config.json was not taken:\n${hub.output()}`,
        );
      } finally {
        assertEquals(await hub.stop(), 0, hub.output());
      }
    });
  },
});
