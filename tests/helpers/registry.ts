/**
 * A real npm registry (verdaccio) on a loopback port, with temp storage, for end-to-end tests of
 * publishing and installing. Our own package names (`@tabhub/*`, `hub-plugin-*`,
 * `@<scope>/hub-plugin-*`) exist only here: they are never fetched from an uplink. Every other name
 * (deno, zod, semver...) is proxied to the public registry. npm and Deno are pointed at it only
 * through the environment of the test's child processes (`env()`), never the machine's config.
 */
import { join } from "node:path";
import { freePort, runCommand } from "./hub_process.ts";
import { verdaccioBin } from "./registry_install.ts";

export const UPLINK = "https://registry.npmjs.org/";
const START_TIMEOUT_MS = 30_000;
const PUBLISH_TIMEOUT_MS = 180_000;
const LOG_LINES_KEPT = 2_000;
const USER = "hub-test";

export interface TestRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  port: number;
  /** A temp npmrc with the registry and a publish token. */
  npmrc: string;
  /** verdaccio's storage folder. */
  storage: string;
  /**
   * The environment for a child process that must use this registry (npm and Deno), merged over
   * the inherited one: registry, npmrc, a temp npm cache and a temp HOME holding the same
   * `.npmrc`; any inherited `npm_config_*` variable is blanked (npm skips empty ones). With that
   * HOME a Deno child also starts with an empty DENO_DIR (a fresh machine); pass `DENO_DIR` in
   * `extra` to share a cache.
   */
  env(extra?: Record<string, string>): Record<string, string>;
  /** `npm publish` of the package folder `dir`; throws with npm's output when it fails. */
  publish(dir: string): Promise<void>;
  /** Everything verdaccio logged so far (its last 2,000 lines). */
  logs(): string;
  /** Waits until verdaccio's log matches `pattern` (it logs a little after it answers). */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Kills verdaccio but keeps its files, the npmrc and the npm cache: a registry gone down. */
  down(): Promise<void>;
  /** Kills verdaccio and removes the temp folders. */
  stop(): Promise<void>;
}

export async function startRegistry(): Promise<TestRegistry> {
  const bin = await verdaccioBin();
  const root = await Deno.makeTempDir({ prefix: "hub-registry-" });
  try {
    return await startIn(root, bin);
  } catch (error) {
    await Deno.remove(root, { recursive: true }).catch(() => {});
    throw error;
  }
}

async function startIn(root: string, bin: string): Promise<TestRegistry> {
  const storage = join(root, "storage");
  const home = join(root, "home");
  await Deno.mkdir(home);
  await Deno.mkdir(join(root, "cache"));
  let server: Verdaccio | undefined;
  for (let attempt = 1; !server; attempt++) {
    const port = freePort();
    await Deno.writeTextFile(join(root, "config.yaml"), verdaccioConfig(root, port));
    const candidate = spawnVerdaccio(bin, join(root, "config.yaml"), port);
    try {
      await waitForPing(candidate);
      server = candidate;
    } catch (error) {
      await candidate.kill();
      // Another process may have taken the port between freePort() and verdaccio's listen.
      if (attempt >= 3 || !/EADDRINUSE/.test(candidate.logs())) throw error;
    }
  }
  const url = `http://127.0.0.1:${server.port}/`;
  try {
    const token = await createUser(url);
    const npmrc = join(root, "npmrc");
    const text = `registry=${url}\n//127.0.0.1:${server.port}/:_authToken=${token}\n` +
      "update-notifier=false\nfund=false\naudit=false\n";
    await Deno.writeTextFile(npmrc, text);
    await Deno.writeTextFile(join(home, ".npmrc"), text);
    return handle({ server, url, npmrc, storage, home, root });
  } catch (error) {
    await server.kill();
    throw error;
  }
}

function handle(
  r: { server: Verdaccio; url: string; npmrc: string; storage: string; home: string; root: string },
): TestRegistry {
  const env = (extra: Record<string, string> = {}) => ({
    ...blankedNpmConfig(),
    NPM_CONFIG_REGISTRY: r.url,
    NPM_CONFIG_USERCONFIG: r.npmrc,
    NPM_CONFIG_CACHE: join(r.root, "cache"),
    NPM_CONFIG_UPDATE_NOTIFIER: "false",
    NPM_CONFIG_FUND: "false",
    NPM_CONFIG_AUDIT: "false",
    HOME: r.home,
    ...extra,
  });
  return {
    url: r.url,
    port: r.server.port,
    npmrc: r.npmrc,
    storage: r.storage,
    env,
    publish: (dir) => publish(dir, env()),
    logs: r.server.logs,
    async waitForLog(pattern, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(r.server.logs())) {
        if (Date.now() > deadline) {
          throw new Error(
            `verdaccio did not log ${pattern} within ${timeoutMs} ms. Its last log lines:\n` +
              tail(r.server.logs()),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    down: () => r.server.kill(),
    async stop() {
      await r.server.kill();
      await Deno.remove(r.root, { recursive: true }).catch(() => {});
    },
  };
}

/** Inherited npm_config_* variables (npm exec and npx set some) would override ours: blank them. */
function blankedNpmConfig(): Record<string, string> {
  const blank: Record<string, string> = {};
  for (const key of Object.keys(Deno.env.toObject())) {
    if (/^npm_config_/i.test(key)) blank[key] = "";
  }
  return blank;
}

function verdaccioConfig(root: string, port: number): string {
  const local = "    access: $all\n    publish: $authenticated\n    unpublish: $authenticated\n";
  const proxied = local + "    proxy: npmjs\n";
  // First match wins. Our names are local only (no proxy): never fetched from the internet.
  const packages = [
    ["@tabhub/*", local],
    ["hub-plugin-*", local],
    ["@*/hub-plugin-*", local],
    ["@*/*", proxied],
    ["**", proxied],
  ];
  return [
    `storage: ${JSON.stringify(join(root, "storage"))}`,
    "auth:",
    "  htpasswd:",
    `    file: ${JSON.stringify(join(root, "htpasswd"))}`,
    "    max_users: 100",
    "uplinks:",
    "  npmjs:",
    `    url: ${UPLINK}`,
    "    timeout: 60s",
    "packages:",
    ...packages.map(([pattern, rules]) => `  '${pattern}':\n${rules}`.trimEnd()),
    "max_body_size: 200mb",
    `listen: 127.0.0.1:${port}`,
    "web:\n  enable: false",
    "log:\n  type: stdout\n  format: pretty\n  level: http",
    "",
  ].join("\n");
}

interface Verdaccio {
  port: number;
  exited: () => boolean;
  logs: () => string;
  kill: () => Promise<void>;
}

function spawnVerdaccio(bin: string, config: string, port: number): Verdaccio {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("node", {
      args: [bin, "--config", config, "--listen", `127.0.0.1:${port}`],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    throw new Error(`Cannot start verdaccio with node: ${(error as Error).message}`);
  }
  const lines: string[] = [];
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    let rest = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop()!;
      lines.push(...parts);
      if (lines.length > LOG_LINES_KEPT) lines.splice(0, lines.length - LOG_LINES_KEPT);
    }
    if (rest) lines.push(rest);
  };
  const pumped = Promise.all([collect(child.stdout), collect(child.stderr)]);
  let exited = false;
  const status = child.status.finally(() => (exited = true));
  return {
    port,
    exited: () => exited,
    logs: () => lines.join("\n"),
    async kill() {
      if (!exited) {
        try {
          child.kill("SIGTERM");
        } catch {
          // exited meanwhile
        }
      }
      const timer = setTimeout(() => !exited && child.kill("SIGKILL"), 5_000);
      await status.finally(() => clearTimeout(timer));
      await pumped;
    },
  };
}

/** Waits until `GET /-/ping` answers 200; throws with verdaccio's last log lines. */
async function waitForPing(v: Verdaccio): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${v.port}/-/ping`, {
        signal: AbortSignal.timeout(2_000),
      });
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (v.exited() || Date.now() > deadline) {
      const why = v.exited() ? "exited" : `did not answer /-/ping within ${START_TIMEOUT_MS} ms`;
      throw new Error(`verdaccio on port ${v.port} ${why}. Its last log lines:\n${tail(v.logs())}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Registers a user (htpasswd) and returns its token: publishing needs one. */
async function createUser(url: string): Promise<string> {
  const res = await fetch(`${url}-/user/org.couchdb.user:${USER}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: USER, password: `${USER}-password`, type: "user", roles: [] }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await res.json().catch(() => ({}));
  if (res.status !== 201 || typeof body.token !== "string") {
    throw new Error(
      `verdaccio did not create user ${USER}: HTTP ${res.status} ${JSON.stringify(body)}`,
    );
  }
  return body.token;
}

async function publish(dir: string, env: Record<string, string>): Promise<void> {
  const child = new Deno.Command("npm", {
    args: ["publish", "--access", "public", "--loglevel=warn"],
    cwd: dir,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), PUBLISH_TIMEOUT_MS);
  const out = await child.output().finally(() => clearTimeout(timer));
  if (out.success) return;
  const dec = new TextDecoder();
  throw new Error(
    `npm publish of ${dir} failed (exit ${out.code}${out.signal ? `, ${out.signal}` : ""}):\n` +
      tail(dec.decode(out.stderr) + dec.decode(out.stdout)),
  );
}

function tail(text: string, lines = 30): string {
  return text.trim().split("\n").slice(-lines).join("\n");
}

/** Runs `npm <args>` against the test registry (only through the child's environment). */
export function registryNpm(registry: TestRegistry, args: string[], timeoutMs = 60_000) {
  const command = new Deno.Command("npm", {
    args,
    env: registry.env(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
  return runCommand(`npm ${args.join(" ")}`, command, timeoutMs);
}
