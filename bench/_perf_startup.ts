/**
 * Start-up and code-size rows of the performance table. Cold start: `deno run <start flags>
 * <root>/main.ts start` with a config dir that does not exist yet, timed from spawn until `/health`
 * answers ok (first-run work included: config, secret, extension install); warm start: the same
 * with a config dir an earlier start created. The same for the npm package as npm installs it
 * (`npm/build.ts`, its dependencies linked from the checkout's node_modules): `deno run <flags.json>
 * main.js start`, as its launcher runs it, and through that Node launcher (`bin/hub.cjs start`,
 * what a user types), whose wall time adds Node's own start. Sizes: the adapter of a plugin
 * scaffolded with `hub plugin create` and built with `hub-plugin build` of that checkout, and its
 * extension's service worker bundle.
 */
import { dirname, join } from "node:path";
import {
  cpuMicros,
  freePort,
  type HubChildOptions,
  spawnHub,
  taskFlags,
  waitHealthy,
} from "./_hub_child.ts";
import { HUB_CHILD_ENV } from "../tests/helpers/hub_process.ts";
import { percentiles } from "./_stats.ts";

const STARTS = 5;

/**
 * Milliseconds from spawn until `/health` is ok, and the CPU the hub process used until then (less
 * sensitive to other load on the machine than the wall time); then stops the hub.
 */
async function timeStart(
  root: string,
  configDir: string,
  command?: HubChildOptions["command"],
): Promise<[number, number]> {
  const began = performance.now();
  const spawned = spawnHub({ root, configDir, command });
  let exited = false;
  void spawned.child.status.then(() => (exited = true));
  try {
    await waitHealthy(spawned.port, () => exited);
    return [performance.now() - began, cpuMicros(spawned.child.pid) / 1000];
  } catch (error) {
    throw new Error(`${(error as Error).message}. Output:\n${spawned.output().slice(-3000)}`);
  } finally {
    await spawned.stop();
  }
}

/** Medians of 5 cold and 5 warm starts: wall and CPU milliseconds. */
export async function startRows(root: string, dir: string, command?: HubChildOptions["command"]) {
  const cold: [number, number][] = [];
  for (let i = 0; i < STARTS; i++) {
    cold.push(await timeStart(root, join(dir, `cold-${i}`), command));
  }
  const warmDir = join(dir, "cold-0");
  const warm: [number, number][] = [];
  for (let i = 0; i < STARTS; i++) warm.push(await timeStart(root, warmDir, command));
  const median = (runs: [number, number][], i: 0 | 1) => percentiles(runs.map((r) => r[i])).p50;
  return {
    coldMs: median(cold, 0),
    coldCpuMs: median(cold, 1),
    warmMs: median(warm, 0),
    warmCpuMs: median(warm, 1),
  };
}

/** The start rows of the checkout's npm package, run by Deno directly and by its Node launcher. */
export async function packageStartRows(root: string, dir: string) {
  const pkg = join(dir, "npm-package");
  await run("npm/build.ts", ["run", "-A", join(root, "npm", "build.ts"), pkg], root, {});
  await linkDependencies(root, pkg);
  const flags = JSON.parse(await Deno.readTextFile(join(pkg, "flags.json"))).hub as string[];
  const config = `--config=${join(pkg, "deno.json")}`;
  const deno = {
    program: Deno.execPath(),
    args: ["run", config, ...flags, join(pkg, "main.js"), "start"],
  };
  const launcher = { program: "node", args: [join(pkg, "bin", "hub.cjs"), "start"] };
  return {
    deno: await startRows(root, join(dir, "package-deno"), deno),
    launcher: await startRows(root, join(dir, "package-node"), launcher),
  };
}

/**
 * The package's node_modules without an install: each package of the checkout's node_modules,
 * and `deno`, which the launcher runs, as the npm package this Deno came from.
 */
async function linkDependencies(root: string, pkg: string) {
  const modules = join(pkg, "node_modules");
  await Deno.mkdir(modules);
  for await (const entry of Deno.readDir(join(root, "node_modules"))) {
    if (entry.name !== "deno") {
      await Deno.symlink(join(root, "node_modules", entry.name), join(modules, entry.name));
    }
  }
  const denoPackage = dirname(Deno.execPath());
  const manifest = await Deno.readTextFile(join(denoPackage, "package.json")).catch(() => "{}");
  if (JSON.parse(manifest).name !== "deno") {
    throw new Error(`${Deno.execPath()} is not the binary of the deno npm package`);
  }
  await Deno.symlink(denoPackage, join(modules, "deno"));
}

async function run(label: string, args: string[], cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { ...HUB_CHILD_ENV, ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) {
    const text = new TextDecoder().decode(out.stderr).slice(-2000);
    throw new Error(`${label} exited with ${out.code}: ${text}`);
  }
}

/** The service worker file named by the checkout's built extension manifest. */
async function workerFile(root: string): Promise<string> {
  const dist = join(root, "extension", "dist");
  const manifest = JSON.parse(await Deno.readTextFile(join(dist, "manifest.json")));
  return join(dist, manifest.background?.service_worker ?? "background.js");
}

/** Adapter of a freshly scaffolded and built plugin, and the worker bundle, in KB. */
export async function sizeRows(root: string, dir: string) {
  const work = join(dir, "scaffold");
  const configDir = join(dir, "config-scaffold");
  await Deno.mkdir(work, { recursive: true });
  const env = { HUB_CONFIG_DIR: configDir, INIT_CWD: work, HUB_PORT: String(freePort()) };
  const hubFlags = taskFlags(root, "hub", "main.ts");
  await run(
    "hub plugin create",
    [
      "run",
      ...hubFlags,
      join(root, "main.ts"),
      "plugin",
      "create",
      "size-probe",
      "--domain",
      "app.example.com",
    ],
    root,
    env,
  );
  const pluginDir = join(work, "size-probe");
  const cliFlags = taskFlags(root, "hub-plugin", "plugin_cli/main.ts");
  await run(
    "hub-plugin build",
    [
      "run",
      ...cliFlags,
      join(root, "plugin_cli", "main.ts"),
      "build",
      "--dir",
      pluginDir,
    ],
    root,
    env,
  );
  const kb = async (file: string) => (await Deno.stat(file)).size / 1024;
  return {
    adapterKb: await kb(join(pluginDir, "dist", "adapter.iife.js")),
    workerKb: await kb(await workerFile(root)),
  };
}
