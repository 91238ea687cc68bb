/**
 * The loopback rows of the performance table: the hub of `root` as a child process with one
 * generated plugin and the checkout's own fake extension (tests/helpers/fake_extension.ts), which
 * answers every dispatch at once over a real WebSocket. MCP and REST p50 (sequential) against a
 * bare HTTP→WS→HTTP relay, server CPU per call with 25 in flight, RSS idle and after the burst;
 * then a second hub with 2,000 tools for `tools/list` against a bare server sending the same bytes.
 */
import { join } from "node:path";
import { type Client, connectMcp, initializeRequest } from "../tests/helpers/mcp_client.ts";
import { measure, measureInFlight, percentiles } from "./_stats.ts";
import { cpuMicros, type HubChild, rssMb, startHubChild } from "./_hub_child.ts";
import { startChildServer } from "./_child_server.ts";
import { PLUGINS, writePlugin } from "./_generated_plugins.ts";
import { writeConfig } from "../tests/helpers/hub_api.ts";

const SEQUENTIAL = 2000;
/** The sequential samples are taken in this many interleaved rounds. */
const ROUNDS = 4;
const IN_FLIGHT = 25;
const IN_FLIGHT_CALLS = 5000;
const LIST_SAMPLES = 200;
const SETTLE_MS = 10_000;

export interface LoopbackResults {
  relayP50: number;
  mcpP50: number;
  restP50: number;
  mcpCpuUs: number;
  restCpuUs: number;
  rssIdleMb: number;
  rssAfterMb: number;
  burstCalls: number;
  listTools: number;
  listBytes: number;
  listP50: number;
  listBareP50: number;
}

// deno-lint-ignore no-explicit-any
type FakeExtension = any;

/** The checkout's own fake extension, answering every dispatch with `{ echo }` at once. */
async function connectFake(root: string, port: number, secret: string): Promise<FakeExtension> {
  const { FakeExtension } = await import(join(root, "tests/helpers/fake_extension.ts"));
  const ext = await FakeExtension.connect(port, secret);
  // deno-lint-ignore no-explicit-any
  ext.onDispatch((p: any) => ({ ok: true, value: { echo: p?.input?.query ?? null } }));
  return ext;
}

/** The config of a bench hub: no telemetry, no update checks, then `config`. */
function writeBenchConfig(configDir: string, config: Record<string, unknown>): Promise<void> {
  return writeConfig(configDir, { telemetry: false, updateCheckIntervalMinutes: 0, ...config });
}

/** CPU the process `pid` spends per call while `n` calls run `IN_FLIGHT` at a time, in µs. */
async function cpuPerCall(pid: number, run: () => Promise<unknown>, n = IN_FLIGHT_CALLS) {
  const before = cpuMicros(pid);
  await measureInFlight(run, IN_FLIGHT, n, 0);
  return (cpuMicros(pid) - before) / n;
}

const p50 = (samples: number[]) => percentiles(samples).p50;

/** The bare relay with its own fake extension; `call` makes one relayed call. */
async function startRelay(root: string) {
  const relay = await startChildServer("_bare_relay.ts", []);
  const ext = await connectFake(root, relay.port, "none");
  const body = JSON.stringify({ tool: "tool_1", input: { query: "x" } });
  return {
    call: () => fetch(`${relay.url}/`, { method: "POST", body }).then((r) => r.json()),
    async stop() {
      await ext.close();
      await relay.stop();
    },
  };
}

/**
 * Sequential p50s of the relay, REST and MCP, measured in interleaved rounds so that a change in
 * the machine's load affects all three alike.
 */
async function sequentialP50s(
  root: string,
  rest: () => Promise<unknown>,
  viaMcp: () => Promise<unknown>,
) {
  const relay = await startRelay(root);
  const samples = { relay: [] as number[], rest: [] as number[], mcp: [] as number[] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      samples.relay.push(...await measure(relay.call, SEQUENTIAL / ROUNDS, 25));
      samples.rest.push(...await measure(rest, SEQUENTIAL / ROUNDS, 25));
      samples.mcp.push(...await measure(viaMcp, SEQUENTIAL / ROUNDS, 25));
    }
  } finally {
    await relay.stop();
  }
  return { relay: p50(samples.relay), rest: p50(samples.rest), mcp: p50(samples.mcp) };
}

/** Hub with one plugin: idle RSS, sequential p50s, CPU at 25 in flight, RSS after the burst. */
export async function oneToolRows(
  root: string,
  dir: string,
  duringIdle: () => Promise<void>,
): Promise<Omit<LoopbackResults, "listTools" | "listBytes" | "listP50" | "listBareP50">> {
  const plugin = await writePlugin(join(dir, "one"), 1);
  const configDir = join(dir, "config-one");
  await writeBenchConfig(configDir, {
    localPlugins: [plugin],
    permissions: { "bench-1": { permission: "auto", tools: {} } },
  });
  const hub = await startHubChild({ root, configDir });
  const startedAt = performance.now();
  const ext = await connectFake(root, hub.port, hub.secret);
  let mcp: Client | undefined;
  try {
    await ext.setTabs("bench-1", [{ tabId: 7, url: "https://bench1.example.com/" }]);
    await duringIdle();
    await sleepUntil(startedAt + SETTLE_MS);
    const rssIdleMb = await rssMb(hub.pid);
    mcp = await connectMcp(hub.url, hub.secret);
    const { rest, viaMcp, check } = callers(hub, mcp);
    await check();
    const p50s = await sequentialP50s(root, rest, viaMcp);
    const restCpuUs = await cpuPerCall(hub.pid, rest);
    const mcpCpuUs = await cpuPerCall(hub.pid, viaMcp);
    const burstCalls = 2 * (SEQUENTIAL + 25 * ROUNDS) + 2 * IN_FLIGHT_CALLS;
    await sleepUntil(performance.now() + SETTLE_MS);
    const rssAfterMb = await rssMb(hub.pid);
    return {
      relayP50: p50s.relay,
      mcpP50: p50s.mcp,
      restP50: p50s.rest,
      mcpCpuUs,
      restCpuUs,
      rssIdleMb,
      rssAfterMb,
      burstCalls,
    };
  } finally {
    await mcp?.close().catch(() => {});
    await ext.close().catch(() => {});
    await hub.stop();
  }
}

function callers(hub: HubChild, mcp: Client) {
  const headers = { authorization: `Bearer ${hub.secret}`, "content-type": "application/json" };
  const body = JSON.stringify({ arguments: { query: "x" } });
  const rest = async (check = false) => {
    const res = await fetch(`${hub.url}/tools/bench-1__tool_1/call`, {
      method: "POST",
      headers,
      body,
    });
    const text = await res.text();
    if (check && res.status !== 200) throw new Error(`REST call: ${res.status} ${text}`);
  };
  const viaMcp = () => mcp.callTool({ name: "bench-1__tool_1", arguments: { query: "x" } });
  return { rest: () => rest(), viaMcp, check: () => rest(true) } as const;
}

function sleepUntil(when: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, when - performance.now())));
}

/** `tools/list` over 2,000 tools with a raw client, then the same bytes from a bare server. */
export async function toolsListRows(root: string, dir: string) {
  const pluginsDir = join(dir, "many");
  for (let p = 0; p < PLUGINS; p++) await writePlugin(pluginsDir, p);
  const permissions = Object.fromEntries(
    Array.from({ length: PLUGINS }, (_, p) => [`bench-${p}`, { permission: "ask", tools: {} }]),
  );
  const configDir = join(dir, "config-many");
  await writeBenchConfig(configDir, { localPluginDirs: [pluginsDir], permissions });
  const hub = await startHubChild({ root, configDir });
  try {
    const { post, session } = await rawSession(hub);
    let id = 2;
    const once = () => post(session, { jsonrpc: "2.0", id: id++, method: "tools/list" });
    const sample = await once();
    const bytes = new Uint8Array(await sample.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    const listTools = (text.match(/"inputSchema"/g) ?? []).length;
    const listP50 = p50(
      await measure(async () => await (await once()).arrayBuffer(), LIST_SAMPLES),
    );
    const file = join(dir, "tools_list.bin");
    await Deno.writeFile(file, bytes);
    const bare = await startChildServer("_bare_bytes.ts", [
      file,
      sample.headers.get("content-type") ?? "application/json",
    ]);
    const message = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const fromBare = async () =>
      await (await fetch(bare.url, { method: "POST", headers: session, body: message }))
        .arrayBuffer();
    const listBareP50 = p50(await measure(fromBare, LIST_SAMPLES));
    await bare.stop();
    return { listTools, listBytes: bytes.length, listP50, listBareP50 };
  } finally {
    await hub.stop();
  }
}

/** An initialized MCP session over plain fetch: what the hub itself spends per request. */
async function rawSession(hub: HubChild) {
  const base = {
    authorization: `Bearer ${hub.secret}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const post = (headers: Record<string, string>, message: unknown) =>
    fetch(`${hub.url}/mcp`, { method: "POST", headers, body: JSON.stringify(message) });
  const init = await post(base, initializeRequest("hub-perf-table"));
  await init.text();
  const session = {
    ...base,
    "mcp-session-id": init.headers.get("mcp-session-id") ?? "",
    "mcp-protocol-version": "2025-06-18",
  };
  await (await post(session, { jsonrpc: "2.0", method: "notifications/initialized" })).text();
  return { post, session };
}
