/**
 * Plugin packages (`deno task bench` runs this): a real npm registry on loopback (verdaccio) with
 * the test plugin published (tests/helpers/plugin_packages.ts: the test-app fixture built by
 * `hub-plugin build`), and a real hub (main.ts) whose HUB_NPM_ROOT is a temp prefix. Measures
 * `hub plugin install` from start to "tool listed by the running hub" (`GET /tools`), and
 * `hub plugin search` latency; both as the CLI command (a new process, as a user runs it) and as
 * the package module's call inside one process (without process start-up). Targets (2-core build
 * machine): install to listed under 5 s, search under 1 s.
 */
import { join } from "node:path";
import { printTable, type Row } from "./_stats.ts";
import { startRegistry } from "../tests/helpers/registry.ts";
import { buildTestPluginPackage } from "../tests/helpers/plugin_packages.ts";
import { runHub, startHub } from "../tests/helpers/hub_process.ts";
import { listTools } from "../tests/helpers/hub_api.ts";
import { globalRoot } from "../tests/helpers/npm_install.ts";
import { createConfigStore } from "../core/config/config_store.ts";
import { createPluginPackages } from "../core/packages/plugin_packages.ts";
import type { NpmResult } from "../core/process/npm_runner.ts";

/** Per way of installing; each install is a new plugin (the hub reloads at most 10 times a minute). */
const INSTALLS = 4;
const SEARCHES = 10;
const name = (way: string, i: number) => `bench-${way}${i}`;

function denoDir(): string {
  const cache = Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/root", ".cache");
  return Deno.env.get("DENO_DIR") ?? join(cache, "deno");
}

const registry = await startRegistry();
const work = await Deno.makeTempDir({ prefix: "hub-bench-packages-" });
const configDir = join(work, "config");
const root = globalRoot(join(work, "prefix"));
await Deno.mkdir(root, { recursive: true });
const env: Record<string, string> = registry.env({
  HUB_NPM_ROOT: root,
  HUB_SKIP_PKG_DISCOVERY: "",
  DENO_DIR: denoDir(),
});
const hub = await startHub({ configDir, env });
env.HUB_PORT = String(hub.port);
const cli = async (args: string[]) => {
  const result = await runHub(args, { configDir, env, timeoutMs: 120_000 });
  if (result.code !== 0) throw new Error(`hub ${args.join(" ")}: ${result.stderr}`);
};
/** npm with the registry's environment, for the in-process module. */
const npm = async (args: string[], timeoutMs: number): Promise<NpmResult> => {
  const child = new Deno.Command("npm", { args, env, stdout: "piped", stderr: "piped" }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const out = await child.output().finally(() => clearTimeout(timer));
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    timedOut: false,
  };
};
const packages = createPluginPackages({
  globalRoot: () => Promise.resolve(root),
  store: createConfigStore(join(configDir, "config.json")),
  npm,
});
const reload = async () => {
  const res = await fetch(`${hub.url}/reload`, {
    method: "POST",
    headers: { authorization: `Bearer ${hub.secret}` },
  });
  await res.body?.cancel();
};
async function untilListed(plugin: string, started: number): Promise<number> {
  const tool = `${plugin}__echo`;
  while (!(await listTools(hub)).some((t) => t.name === tool)) {
    if (performance.now() - started > 60_000) throw new Error(`${tool} was never listed`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - started;
}

try {
  const build = await Deno.makeTempDir({ prefix: "hub-bench-plugin-" });
  let adapterKb = 0;
  for (const way of ["cli", "module"]) {
    for (let i = 0; i < INSTALLS; i++) {
      const dir = await buildTestPluginPackage(build, `hub-plugin-${name(way, i)}`, "1.0.0");
      await registry.publish(dir);
      adapterKb = (await Deno.stat(join(dir, "dist", "adapter.iife.js"))).size / 1024;
    }
  }
  await Deno.remove(build, { recursive: true });

  const cliInstall: number[] = [];
  const moduleInstall: number[] = [];
  for (let i = 0; i < INSTALLS; i++) {
    let started = performance.now();
    await cli(["plugin", "install", name("cli", i)]); // reloads the hub itself
    cliInstall.push(await untilListed(name("cli", i), started));
    started = performance.now();
    await packages.install(name("module", i));
    await reload();
    moduleInstall.push(await untilListed(name("module", i), started));
  }
  const cliSearch: number[] = [];
  const moduleSearch: number[] = [];
  for (let i = 0; i < SEARCHES; i++) {
    let started = performance.now();
    await cli(["plugin", "search", "bench"]);
    cliSearch.push(performance.now() - started);
    started = performance.now();
    const found = await packages.search("bench");
    moduleSearch.push(performance.now() - started);
    if (found.packages.length !== 2 * INSTALLS) throw new Error(JSON.stringify(found));
  }
  const rows: Row[] = [
    [
      `hub plugin install (CLI process) to tool listed, adapter ${adapterKb.toFixed(0)} KB`,
      cliInstall,
      0,
    ],
    ["PluginPackages.install + POST /reload to tool listed (in process)", moduleInstall, 0],
    ["hub plugin search (CLI process)", cliSearch, 0],
    ["PluginPackages.search (in process)", moduleSearch, 0],
  ];
  printTable(rows);
  console.log("\nTargets: install to listed < 5000 ms, search < 1000 ms (p50).");
} finally {
  await hub.stop();
  await registry.stop();
  await Deno.remove(work, { recursive: true });
}
