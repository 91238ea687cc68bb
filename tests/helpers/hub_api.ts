/** Authenticated JSON requests to a hub started with `startHub`, and its config file. */
import { join } from "node:path";
import { writeFileAtomic } from "../../core/files/atomic_write.ts";
import type { HealthPayload } from "../../protocol/health.ts";
import { assertEquals } from "./assert.ts";
import { type RunningHub, startHub } from "./hub_process.ts";

export interface ApiReply {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** `method path` with the hub's Bearer secret; a JSON `body` is sent as is (strings unencoded). */
export async function api(
  hub: RunningHub,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiReply> {
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${hub.secret}`, "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed };
}

export async function health(hub: RunningHub): Promise<HealthPayload> {
  const reply = await api(hub, "GET", "/health");
  if (reply.status !== 200) throw new Error(`GET /health: ${reply.status} ${reply.body}`);
  return reply.body as HealthPayload;
}

export interface ListedTool {
  name: string;
  description: string;
  inputSchema: {
    type: string;
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  plugin: string;
  permission: string;
}

export async function listTools(hub: RunningHub, plugin?: string): Promise<ListedTool[]> {
  const query = plugin === undefined ? "" : `?plugin=${encodeURIComponent(plugin)}`;
  const reply = await api(hub, "GET", `/tools${query}`);
  if (reply.status !== 200) throw new Error(`GET /tools${query}: ${reply.status}`);
  return reply.body.tools;
}

/**
 * Writes `<configDir>/config.json` with `config` (hub fills in the defaults) the way the hub does
 * (temp file + rename), so a hub reading it meanwhile, such as a reload already running, sees the
 * old or the new text, never half of it.
 */
export async function writeConfig(configDir: string, config: Record<string, unknown>) {
  await Deno.mkdir(configDir, { recursive: true });
  await writeFileAtomic(join(configDir, "config.json"), JSON.stringify(config, null, 2));
}

// deno-lint-ignore no-explicit-any
export async function readConfig(configDir: string): Promise<any> {
  return JSON.parse(await Deno.readTextFile(join(configDir, "config.json")));
}

/** Polls `check` every 50 ms until it returns true; throws `describe()` after `timeoutMs`. */
export async function eventually(
  check: () => Promise<boolean>,
  describe: () => string | Promise<string>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out: ${await describe()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts a hub, runs `fn` with it, and stops it (asserting a clean exit). */
export async function withHub<T>(
  opts: Parameters<typeof startHub>[0],
  fn: (hub: RunningHub) => Promise<T>,
): Promise<T> {
  const hub = await startHub(opts);
  try {
    return await fn(hub);
  } finally {
    assertEquals(await hub.stop(), 0, hub.output());
  }
}
