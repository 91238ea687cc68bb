/**
 * Attack: a plugin package whose small compressed tarball expands to an adapter far over its limit
 * (one repeated character). The report's bomb was an 836 KB tarball of a 300 MB adapter: installing
 * it made the hub peak at 1.3 GB and keep a 300 MB copy for injection. Here the adapter is three
 * times the adapter limit (15 MB), clearly over it, so the test writes, packs and unpacks (twice,
 * by npm) tens of megabytes, not hundreds, and stays short on a loaded CI machine. Against a real
 * registry (verdaccio) and the real hub: `hub plugin install` and the side panel's `plugin.install`
 * (/ws) both refuse it with PACKAGE_TOO_LARGE, keep nothing where the hub loads packages, and the
 * hub's memory (VmRSS and its peak VmHWM, from /proc) grows by less than the adapter's size (the
 * adapter is never read). The figures are printed.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { FakeExtension } from "../helpers/fake_extension.ts";
import { health } from "../helpers/hub_api.ts";
import { exists, runHub, startHub } from "../helpers/hub_process.ts";
import { packageWorld } from "../helpers/npm_install.ts";
import { buildTestPluginPackage } from "../helpers/plugin_packages.ts";
import { startRegistry, type TestRegistry } from "../helpers/registry.ts";
import { MAX_ADAPTER_BYTES } from "../../protocol/plugin_limits.ts";

const BOMB = "hub-plugin-bomb";
/** Three times the adapter limit: clearly over it, and small enough for a quick test. */
const ADAPTER_MB = (3 * MAX_ADAPTER_BYTES) / (1024 * 1024);

/** The process's resident memory and its peak so far, in MB. */
async function memoryMb(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)![1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/**
 * Writes `mb` megabytes to `path`: each megabyte one repeated character and 4 KB of random hex, so
 * that it compresses about 300 times (npm refuses to unpack a ratio over 1,000), like the reported
 * 836 KB tarball of a 300 MB adapter.
 */
async function writeRepeated(path: string, mb: number): Promise<void> {
  const hex = (bytes: Uint8Array) =>
    [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  const file = await Deno.open(path, { write: true, truncate: true, create: true });
  try {
    for (let i = 0; i < mb; i++) {
      const noise = hex(crypto.getRandomValues(new Uint8Array(2048)));
      const chunk = new TextEncoder().encode("a".repeat(1024 * 1024 - noise.length) + noise);
      for (let written = 0; written < chunk.length;) {
        written += await file.write(chunk.subarray(written));
      }
    }
  } finally {
    file.close();
  }
}

/** Publishes the bomb; returns its tarball's size in bytes, as the registry serves it. */
async function publishBomb(registry: TestRegistry): Promise<number> {
  const work = await Deno.makeTempDir({ prefix: "hub-bomb-" });
  try {
    const dir = await buildTestPluginPackage(work, BOMB, "1.0.0");
    await writeRepeated(join(dir, "dist", "adapter.iife.js"), ADAPTER_MB);
    await registry.publish(dir);
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
  const meta = await (await fetch(`${registry.url}${BOMB}`)).json();
  const tarball = await fetch(meta.versions["1.0.0"].dist.tarball);
  return (await tarball.arrayBuffer()).byteLength;
}

Deno.test({
  name:
    "a package bomb (small tarball, adapter 3x its limit) is refused at install; hub memory stays flat",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const registry = await startRegistry();
    const world = await packageWorld("hub-package-bomb-", registry.env);
    const { configDir, root, env } = world;
    const hub = await startHub({ configDir, env });
    try {
      const tarballBytes = await publishBomb(registry);
      assert(tarballBytes < 5 * 1024 * 1024, `the tarball is ${tarballBytes} bytes`);
      const before = await memoryMb(hub.child.pid);

      const cli = await runHub(["plugin", "install", BOMB], {
        configDir,
        env: { ...env, HUB_PORT: String(hub.port) },
        timeoutMs: 300_000,
      });
      assert(cli.code !== 0, `the CLI install succeeded:\n${cli.stdout}\n${cli.stderr}`);
      assertMatch(
        cli.stdout + cli.stderr,
        new RegExp(
          `hub-plugin-bomb@1\\.0\\.0 is too large to install: dist/adapter\\.iife\\.js is ` +
            `${ADAPTER_MB} MB, over the limit of 5 MB\\. Nothing was installed`,
        ),
      );
      assertEquals(await exists(join(root, BOMB)), false, "nothing kept after the CLI install");

      const ext = await FakeExtension.connect(hub.port, hub.secret);
      let reply;
      try {
        reply = await ext.request("plugin.install", { name: BOMB });
      } finally {
        await ext.close();
      }
      const error = reply.error as { data?: { code?: string }; message?: string } | undefined;
      assertEquals(error?.data?.code, "PACKAGE_TOO_LARGE", JSON.stringify(reply));
      assertMatch(
        String(error?.message),
        new RegExp(`dist/adapter\\.iife\\.js is ${ADAPTER_MB} MB, over the limit`),
      );
      assertEquals(await exists(join(root, BOMB)), false, "nothing kept after the /ws install");
      assertEquals((await health(hub)).status, "ok");

      const after = await memoryMb(hub.child.pid);
      console.log(
        `package bomb: tarball ${(tarballBytes / 1024).toFixed(0)} KB, adapter ${ADAPTER_MB} MB; ` +
          `hub RSS ${before.rss.toFixed(0)} -> ${after.rss.toFixed(0)} MB, ` +
          `peak (VmHWM) ${before.peak.toFixed(0)} -> ${after.peak.toFixed(0)} MB`,
      );
      assert(
        after.peak - before.peak < ADAPTER_MB,
        `the hub's peak grew by ${after.peak - before.peak} MB (the adapter is ${ADAPTER_MB} MB)`,
      );
    } finally {
      await hub.stop();
      await registry.stop();
      await world.remove();
    }
  },
});
