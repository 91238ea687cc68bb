/**
 * Shared setup for the tool-call pipeline suites: a real in-process hub on a temp config dir with
 * ready-built plugin folders, a scripted extension on `/ws`, official MCP SDK clients, and REST
 * helpers. `withFixture` builds one per test and always tears everything down.
 */
import { join } from "node:path";
import type { HubOptions } from "../../server/hub.ts";
import type { HealthPayload } from "../../protocol/health.ts";
import { type ServedHub, serveInProcessHub } from "./in_process_hub.ts";
import { FakeExtension, type Json } from "./fake_extension.ts";
import { type Client, connectMcp } from "./mcp_client.ts";
import { type PluginFolderOptions, writePluginFolder } from "./plugin_cli.ts";

export type { Json };

export interface Reply {
  status: number;
  headers: Headers;
  body: Json;
}

export interface FixtureOptions {
  /** Plugin folders written under `<dir>/plugins/<name>` and listed in `localPlugins`. */
  plugins?: PluginFolderOptions[];
  /** Fields of config.json written before the hub starts (merged over `localPlugins`). */
  config?: Record<string, unknown>;
  hub?: Partial<HubOptions>;
  /** Connect a FakeExtension right away (default false). */
  extension?: boolean;
  /** Tabs reported per plugin once the extension is connected (all ready unless said). */
  tabs?: Record<string, { tabId: number; url: string; title?: string; ready?: boolean }[]>;
}

/** The usual plugin: `demo` with `echo` (`text` required) and `other`, on example.com. */
export const DEMO_PLUGIN: PluginFolderOptions = { name: "demo", tools: ["echo", "other"] };

/** The demo plugin's tab, reported ready. */
export const DEMO_TAB = { tabId: 7, url: "https://example.com/home" };

/** The demo plugin at `permission` (with per-tool overrides), its tab open and ready. */
export function demoFixture(
  permission: "off" | "ask" | "auto",
  tools?: Record<string, "off" | "ask" | "auto">,
): FixtureOptions {
  return {
    plugins: [DEMO_PLUGIN],
    config: { permissions: { demo: { permission, ...(tools ? { tools } : {}) } } },
    tabs: { demo: [DEMO_TAB] },
  };
}

/** `multi`: one tool, and a url setting `baseUrl` whose instances drive the `instance` parameter. */
export const MULTI_PLUGIN: PluginFolderOptions = {
  name: "multi",
  tools: ["echo"],
  hub: {
    urlPatterns: ["*://*.example.com/*"],
    configSchema: { baseUrl: { type: "url", label: "Base URL" } },
  },
};

export class Fixture {
  readonly clients: Client[] = [];
  readonly extensions: FakeExtension[] = [];
  ext!: FakeExtension;

  constructor(readonly dir: string, readonly served: ServedHub) {}

  get url(): string {
    return this.served.url;
  }
  get port(): number {
    return this.served.port;
  }
  get secret(): string {
    return this.served.secret;
  }
  get configPath(): string {
    return join(this.dir, "config.json");
  }

  /** An authenticated JSON request; the body is parsed as JSON when it is JSON. */
  async api(method: string, path: string, body?: unknown): Promise<Reply> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.secret}`, "content-type": "application/json" },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }

  /** `POST /tools/:name/call` with `{"arguments": args}`. */
  call(name: string, args: Record<string, unknown> = {}): Promise<Reply> {
    return this.api("POST", `/tools/${encodeURIComponent(name)}/call`, { arguments: args });
  }

  async health(): Promise<HealthPayload> {
    const reply = await this.api("GET", "/health");
    if (reply.status !== 200) throw new Error(`GET /health: ${reply.status}`);
    return reply.body;
  }

  async readConfig(): Promise<Json> {
    return JSON.parse(await Deno.readTextFile(this.configPath));
  }

  /** Changes config.json (written as a new file, as the hub's own writes are), then reloads. */
  async editConfig(mutate: (config: Json) => void): Promise<void> {
    const config = await this.readConfig();
    mutate(config);
    const tmp = `${this.configPath}.test-${crypto.randomUUID()}`;
    await Deno.writeTextFile(tmp, JSON.stringify(config, null, 2));
    await Deno.rename(tmp, this.configPath);
    await this.served.hub.reload();
  }

  async connectExtension(): Promise<FakeExtension> {
    const ext = await FakeExtension.connect(this.port, this.secret);
    this.extensions.push(ext);
    await ext.waitFor((m) => m.method === "sync.full");
    return ext;
  }

  async mcp(path: "/mcp" | "/mcp/gateway" = "/mcp"): Promise<Client> {
    const client = await connectMcp(this.url, this.secret, path);
    this.clients.push(client);
    return client;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.clients.map((c) => c.close()));
    await Promise.allSettled(this.extensions.map((e) => e.close()));
    await this.served.stop();
  }
}

/** Writes the plugins and config, starts the hub (and the extension), runs `fn`, cleans up. */
export async function withFixture(
  options: FixtureOptions,
  fn: (f: Fixture) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hub-pipeline-" });
  try {
    const localPlugins: string[] = [];
    for (const plugin of options.plugins ?? []) {
      localPlugins.push(await writePluginFolder(join(dir, "plugins", plugin.name), plugin));
    }
    // The first-start setup keeps an existing config.json, so the hub starts with this one.
    await Deno.writeTextFile(
      join(dir, "config.json"),
      JSON.stringify({ localPlugins, ...options.config }, null, 2),
    );
    const served = await serveInProcessHub(dir, options.hub);
    const fixture = new Fixture(dir, served);
    try {
      if (options.extension || options.tabs) {
        fixture.ext = await fixture.connectExtension();
        for (const [plugin, tabs] of Object.entries(options.tabs ?? {})) {
          await fixture.ext.setTabs(plugin, tabs);
        }
      }
      await fn(fixture);
    } finally {
      await fixture.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Polls `check` until it is true; fails with `what` after `timeoutMs` (tests/helpers/until.ts). */
export { until as eventually } from "./until.ts";

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The `structuredContent.error` of an error result. */
export function errorOf(result: Json): Json {
  return result?.structuredContent?.error;
}

/**
 * Waits until the client's standalone SSE stream (which carries log and list_changed
 * notifications) is open: sends `plugin.log` entries until one reaches the client. The SDK opens
 * that stream in the background after `initialize`, and notifications sent before it is open
 * are not delivered.
 */
export async function awaitNotificationStream(
  ext: FakeExtension,
  plugin: string,
  received: () => number,
): Promise<void> {
  const before = received();
  const deadline = performance.now() + 5_000;
  while (received() === before) {
    if (performance.now() > deadline) {
      throw new Error("Timed out waiting for the MCP notification stream to open");
    }
    ext.notify("plugin.log", { plugin, entries: [{ level: "debug", message: "stream check" }] });
    await delay(100);
  }
}
