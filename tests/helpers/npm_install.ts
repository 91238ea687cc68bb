/**
 * The user's side of the npm packages, for the tests that install them: `npm i -g --prefix <temp>`
 * (timed), the installed commands run with only the environment given (a PATH with node and npm
 * but no Deno), and an installed hub started with `hub start --background` that is stopped again
 * even when a test fails.
 */
import { join } from "node:path";
import { globalRootOf } from "../../core/packages/global_root.ts";
import { runNpm } from "../../npm/npm_command.ts";
import { pathWithout } from "../../npm/package_checks.ts";
import { runCommand, type RunResult } from "./hub_process.ts";

/** What a PATH without Deno keeps: node and npm for the launchers, the tools `hub stop` uses. */
export const NO_DENO_COMMANDS = ["node", "npm", "ps", "kill", "sh"];
const INSTALL_TIMEOUT_MS = 5 * 60_000;
const COMMAND_TIMEOUT_MS = 90_000;

/** A folder of links to NO_DENO_COMMANDS under `dir`, for PATH: node and npm but no Deno. */
export function noDenoPath(dir: string): Promise<string> {
  return pathWithout(dir, NO_DENO_COMMANDS);
}

/** Where `npm i -g --prefix <prefix>` puts packages (`<prefix>/lib/node_modules`; Windows apart). */
export function globalRoot(prefix: string): string {
  return globalRootOf(prefix);
}

/** Where `npm i -g --prefix <prefix>` puts the commands of packages. */
export function globalBin(prefix: string): string {
  return Deno.build.os === "windows" ? prefix : join(prefix, "bin");
}

/**
 * `npm install --global --prefix <prefix> <spec>` with `env` added to this process's environment;
 * returns how long it took. Throws with npm's last lines when it fails or takes over 5 minutes.
 */
export async function npmInstallGlobal(
  prefix: string,
  spec: string,
  env: Record<string, string>,
): Promise<{ seconds: number }> {
  const started = performance.now();
  await runNpm(["install", "--global", "--prefix", prefix, spec], {
    env,
    timeoutMs: INSTALL_TIMEOUT_MS,
  });
  return { seconds: (performance.now() - started) / 1000 };
}

/**
 * Runs an installed command (a path) with exactly `env`, nothing inherited, so it sees only the
 * PATH given there. Throws with its output when it is still running after `timeoutMs`.
 */
export async function runInstalled(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  const result = await runCommand(
    `${command} ${args.join(" ")}`,
    new Deno.Command(command, {
      args,
      env,
      clearEnv: true,
      cwd: options.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }),
    options.timeoutMs ?? COMMAND_TIMEOUT_MS,
  );
  return { code: result.code, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

/** A hub the installed `hub` started in the background. */
export interface BackgroundHub {
  port: number;
  url: string;
  /** The Bearer secret, from `<config dir>/extension/auth.json`. */
  secret: string;
  /** `hub stop`; when that fails, signals the pid from `server.pid`. Idempotent. */
  stop(): Promise<RunResult | undefined>;
}

/**
 * `<bin>/hub start --background --port <port>` with `env` (which names HUB_CONFIG_DIR). Throws
 * with the command's output when it fails.
 */
export async function startInstalledHub(
  bin: string,
  port: number,
  env: Record<string, string>,
): Promise<BackgroundHub> {
  const hub = join(bin, "hub");
  const configDir = env.HUB_CONFIG_DIR;
  if (!configDir) throw new Error("startInstalledHub: env must name HUB_CONFIG_DIR");
  const start = await runInstalled(hub, ["start", "--background", "--port", String(port)], {
    DO_NOT_TRACK: "1", // no telemetry from tests
    ...env,
  });
  let stopped = false;
  const handle: BackgroundHub = {
    port,
    url: `http://127.0.0.1:${port}`,
    secret: "",
    async stop() {
      if (stopped) return undefined;
      stopped = true;
      const result = await runInstalled(hub, ["stop", "--port", String(port)], env)
        .catch((error) => ({ code: -1, stdout: "", stderr: (error as Error).message }));
      if (result.code !== 0) await killFromPidFile(configDir);
      return result;
    },
  };
  if (start.code !== 0) {
    await handle.stop();
    throw new Error(
      `"hub start --background" exited with ${start.code}.\nstdout:\n${start.stdout}\n` +
        `stderr:\n${start.stderr}`,
    );
  }
  const auth = JSON.parse(await Deno.readTextFile(join(configDir, "extension", "auth.json")));
  handle.secret = auth.secret;
  return handle;
}

/** The last resort when `hub stop` failed: SIGTERM, then SIGKILL, the pid in `server.pid`. */
async function killFromPidFile(configDir: string): Promise<void> {
  let pid: number | undefined;
  try {
    const text = (await Deno.readTextFile(join(configDir, "server.pid"))).trim();
    pid = /^\d+$/.test(text) ? Number(text) : JSON.parse(text).pid;
  } catch {
    return; // no pid file: nothing was started, or it already ended
  }
  if (!pid) return;
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    try {
      Deno.kill(pid, signal);
    } catch {
      return; // gone
    }
    await new Promise((r) => setTimeout(r, 2_000));
  }
}

/** A temp npm prefix and config folder whose hub installs packages from a test registry. */
export interface PackageWorld {
  work: string;
  configDir: string;
  prefix: string;
  /** The global package root inside `prefix` (HUB_NPM_ROOT). */
  root: string;
  /** The registry's environment, pointing npm and the hub's package discovery at `prefix`. */
  env: Record<string, string>;
  /** Removes the temp folder. */
  remove(): Promise<void>;
}

/** Makes a PackageWorld under a new temp folder; `registryEnv` is the test registry's `env()`. */
export async function packageWorld(
  prefixName: string,
  registryEnv: (extra: Record<string, string>) => Record<string, string>,
): Promise<PackageWorld> {
  const work = await Deno.makeTempDir({ prefix: prefixName });
  const prefix = join(work, "prefix");
  const root = globalRoot(prefix);
  await Deno.mkdir(root, { recursive: true });
  const env = registryEnv({
    HUB_NPM_ROOT: root,
    NPM_CONFIG_PREFIX: prefix,
    HUB_SKIP_PKG_DISCOVERY: "0",
  });
  return {
    work,
    configDir: join(work, "config"),
    prefix,
    root,
    env,
    remove: () => Deno.remove(work, { recursive: true }).catch(() => {}),
  };
}
