/**
 * Shared setup for the CLI suites that talk to a running hub (`hub tool`, `hub audit`,
 * `hub start --stdio`, the MCP Inspector): a real hub process on a free port with a temp
 * HUB_CONFIG_DIR, ready-built local plugins and a config written before the first start, plus a
 * scripted extension on `/ws` reporting tabs. Also runs `hub` with text on stdin, which `runHub`
 * cannot.
 */
import { join } from "node:path";
import { FakeExtension } from "./fake_extension.ts";
import { api } from "./hub_api.ts";
import {
  ROOT,
  runHub,
  type RunningHub,
  type RunResult,
  startHub,
  taskPermissionFlags,
  tempConfigDir,
} from "./hub_process.ts";
import { type PluginFolderOptions, writePluginFolder } from "./plugin_cli.ts";
import { until } from "./until.ts";

export const MAIN = join(ROOT, "main.ts");

/** `hub start --stdio --port <port> [...]` as `deno` arguments, as an MCP client config holds it. */
export function bridgeCommandArgs(port: number, extra: string[] = []): string[] {
  return [
    "run",
    "--quiet",
    ...taskPermissionFlags(),
    MAIN,
    "start",
    "--stdio",
    "--port",
    `${port}`,
    ...extra,
  ];
}

export type TabList = { tabId: number; url: string; title?: string; ready?: boolean }[];

export interface CliHubOptions {
  /** Plugin folders written under `<config dir>/plugins/<name>` and listed in `localPlugins`. */
  plugins?: PluginFolderOptions[];
  /** More fields of config.json (merged over `localPlugins`). */
  config?: Record<string, unknown>;
  /** Tabs the fake extension reports per plugin (all ready unless said). */
  tabs?: Record<string, TabList>;
  /** Connect the fake extension (default true). */
  extension?: boolean;
}

/** The usual plugin: `demo` with `echo` and `other` (both take `text`, required), on example.com. */
export const DEMO_PLUGIN: PluginFolderOptions = { name: "demo", tools: ["echo", "other"] };

/** The demo plugin allowed (`auto`), with one ready tab: what the MCP-over-CLI suites start. */
export const AUTO_DEMO_HUB: CliHubOptions = {
  plugins: [DEMO_PLUGIN],
  config: { permissions: { demo: { permission: "auto", tools: {} } } },
  tabs: { demo: [{ tabId: 7, url: "https://example.com/home", title: "Home" }] },
};

/** Instances of the `multi` plugin (two, so its tools get a required `instance` parameter). */
export const MULTI_INSTANCES = {
  work: "https://work.example.com",
  home: "https://home.example.com/app",
};

export const MULTI_PLUGIN: PluginFolderOptions = {
  name: "multi",
  tools: ["echo"],
  hub: {
    urlPatterns: ["*://*.example.com/*"],
    configSchema: { baseUrl: { type: "url", label: "Base URL" } },
  },
};

/** Runs `hub <args>` with `stdin` written to its standard input, then closed. */
export async function runHubWithStdin(
  args: string[],
  opts: { configDir: string; env?: Record<string, string>; stdin: string; timeoutMs?: number },
): Promise<RunResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...taskPermissionFlags(), MAIN, ...args],
    cwd: ROOT,
    env: {
      HUB_CONFIG_DIR: opts.configDir,
      HUB_SKIP_PKG_DISCOVERY: "1",
      NO_COLOR: "1",
      ...opts.env,
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
  }, opts.timeoutMs ?? 60_000);
  try {
    const write = (async () => {
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(opts.stdin));
      await writer.close();
    })();
    const [stdout, stderr, status] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.status,
      write,
    ]);
    return { code: status.code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/** A running hub, its config dir, and the fake extension. */
export class CliHub {
  ext: FakeExtension | undefined;

  constructor(
    readonly dir: string,
    public hub: RunningHub,
    readonly tabs: Record<string, TabList>,
  ) {}

  get port(): number {
    return this.hub.port;
  }
  get url(): string {
    return this.hub.url;
  }
  get secret(): string {
    return this.hub.secret;
  }

  /** The extension; fails when it is not connected. */
  get extension(): FakeExtension {
    if (!this.ext) throw new Error("the fake extension is not connected");
    return this.ext;
  }

  /** `hub <args>` against this hub (HUB_PORT and HUB_CONFIG_DIR point at it). */
  cli(args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}) {
    const env = { HUB_PORT: String(this.port), ...opts.env };
    if (opts.stdin !== undefined) {
      return runHubWithStdin(args, { configDir: this.dir, env, stdin: opts.stdin });
    }
    return runHub(args, { configDir: this.dir, env });
  }

  /** Connects the fake extension, waits for `sync.full`, and reports the tabs again. */
  async connectExtension(): Promise<FakeExtension> {
    const ext = await FakeExtension.connect(this.port, this.secret);
    await ext.waitFor((m) => m.method === "sync.full");
    for (const [plugin, tabs] of Object.entries(this.tabs)) await ext.setTabs(plugin, tabs);
    this.ext = ext;
    return ext;
  }

  /** Closes the fake extension and waits until the hub has noticed. */
  async disconnectExtension(): Promise<void> {
    await this.ext?.close();
    this.ext = undefined;
    await waitUntil(
      async () => (await api(this.hub, "GET", "/health")).body.extensionConnected === false,
      "the hub to notice the extension left",
    );
  }

  /** How many messages the extension has received so far (a mark for `dispatchesSince`). */
  mark(): number {
    return this.ext?.received.length ?? 0;
  }

  /** The `tool.dispatch` requests the extension received after `mark`. */
  dispatchesSince(mark: number) {
    return (this.ext?.received ?? []).slice(mark).filter((m) => m.method === "tool.dispatch");
  }

  /** Stops the hub (the extension first); returns the hub's exit code. */
  async stopHub(): Promise<number> {
    await this.ext?.close();
    this.ext = undefined;
    return await this.hub.stop();
  }

  /** Starts the hub again on the same config dir (a new port), with the extension if asked. */
  async restart(extension = true): Promise<void> {
    this.hub = await startHub({ configDir: this.dir });
    if (extension) await this.connectExtension();
  }

  /** Stops everything and removes the config dir; returns the hub's exit code. */
  async close(): Promise<number> {
    try {
      return await this.stopHub();
    } finally {
      await Deno.remove(this.dir, { recursive: true });
    }
  }
}

/** Writes the plugins and config, starts the hub and (by default) the extension with its tabs. */
export async function startCliHub(options: CliHubOptions = {}): Promise<CliHub> {
  const dir = await tempConfigDir();
  try {
    const localPlugins: string[] = [];
    for (const plugin of options.plugins ?? []) {
      localPlugins.push(await writePluginFolder(join(dir, "plugins", plugin.name), plugin));
    }
    // The first start keeps an existing config.json, so the hub starts with this one.
    await Deno.writeTextFile(
      join(dir, "config.json"),
      JSON.stringify({ localPlugins, ...options.config }, null, 2),
    );
    const hub = await startHub({ configDir: dir });
    const cliHub = new CliHub(dir, hub, options.tabs ?? {});
    if (options.extension ?? true) {
      try {
        await cliHub.connectExtension();
      } catch (error) {
        await hub.stop();
        throw error;
      }
    }
    return cliHub;
  } catch (error) {
    await Deno.remove(dir, { recursive: true });
    throw error;
  }
}

/** `until` with the 10 s these CLI suites allow (child processes answer slower). */
export function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  return until(check, what, timeoutMs);
}

/** The JSON an exit-0 command printed; fails with its output otherwise. */
// deno-lint-ignore no-explicit-any
export function jsonOut(r: RunResult, what: string): any {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`${what} did not print JSON:\n${r.stdout}\n${r.stderr}`);
  }
}
