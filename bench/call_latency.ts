/**
 * Tool-call overhead of the pipeline (`deno task bench` runs this after `deno bench`): a real hub
 * on loopback, a fake extension that answers every dispatch at once over a real WebSocket, and the
 * official MCP SDK client. Prints p50/p95/p99 per transport, sequential and 25 in flight, and
 * `tools/list` over 2,000 plugin tools. Targets (2-core build machine): overhead p50 ≤ 1.3 ms,
 * tools/list p50 ≤ 5 ms.
 */
import { measure, printTable, type Row } from "./_stats.ts";
import { join } from "node:path";
import { serveInProcessHub } from "../tests/helpers/in_process_hub.ts";
import { FakeExtension } from "../tests/helpers/fake_extension.ts";
import { connectMcp, initializeRequest } from "../tests/helpers/mcp_client.ts";
import { createConfigStore } from "../core/config/config_store.ts";
import { PLUGINS, writePlugin } from "./_generated_plugins.ts";

const SEQUENTIAL = 2000;
const BATCHES = 200;
const IN_FLIGHT = 25;

const dir = await Deno.makeTempDir({ prefix: "hub-bench-calls-" });
const pluginsDir = join(dir, "plugins");
for (let p = 0; p < PLUGINS; p++) await writePlugin(pluginsDir, p);
const configDir = join(dir, "config");
await Deno.mkdir(configDir);
const served = await serveInProcessHub(configDir);
await createConfigStore(join(configDir, "config.json")).update((c) => {
  c.localPluginDirs = [pluginsDir];
  c.permissions["bench-1"] = { permission: "auto", tools: {} };
  c.permissions.browser = { permission: "auto", tools: {} };
});
await served.hub.reload();
const ext = await FakeExtension.connect(served.port, served.secret);
ext.onDispatch((p) => ({ ok: true, value: { echo: p.input.query } }));
await ext.setTabs("bench-1", [{ tabId: 7, url: "https://bench1.example.com/" }]);
const mcp = await connectMcp(served.url, served.secret);
const headers = { authorization: `Bearer ${served.secret}`, "content-type": "application/json" };
const body = JSON.stringify({ arguments: { query: "x" } });

const rest = () =>
  fetch(`${served.url}/tools/bench-1__tool_1/call`, { method: "POST", headers, body })
    .then((r) => r.json());
const viaMcp = () => mcp.callTool({ name: "bench-1__tool_1", arguments: { query: "x" } });
const batch = (call: () => Promise<unknown>) => () =>
  Promise.all(Array.from({ length: IN_FLIGHT }, call));

const rows: Row[] = [];
rows.push(["REST call, sequential", await measure(rest, SEQUENTIAL), 1]);
rows.push(["MCP call, sequential", await measure(viaMcp, SEQUENTIAL), 1]);
rows.push([
  `REST calls, ${IN_FLIGHT} in flight (per batch)`,
  await measure(batch(rest), BATCHES, 20),
  IN_FLIGHT,
]);
rows.push([
  `MCP calls, ${IN_FLIGHT} in flight (per batch)`,
  await measure(batch(viaMcp), BATCHES, 20),
  IN_FLIGHT,
]);
const count = (await mcp.listTools()).tools.length;
const rawList = await rawToolsList();
rows.push([`MCP tools/list, ${count} tools, raw HTTP client (server cost)`, rawList, 0]);
const list = await measure(() => mcp.listTools(), 200, 20);
rows.push([`MCP tools/list, ${count} tools, SDK client (incl. client-side parsing)`, list, 0]);

/** tools/list over plain fetch in an initialized session: what the hub itself spends. */
async function rawToolsList(): Promise<number[]> {
  const h = { ...headers, accept: "application/json, text/event-stream" };
  const post = (extra: Record<string, string>, message: unknown) =>
    fetch(`${served.url}/mcp`, {
      method: "POST",
      headers: { ...h, ...extra },
      body: JSON.stringify(message),
    });
  const init = await post({}, initializeRequest("bench"));
  await init.text();
  const session = {
    "mcp-session-id": init.headers.get("mcp-session-id")!,
    "mcp-protocol-version": "2025-06-18",
  };
  await (await post(session, { jsonrpc: "2.0", method: "notifications/initialized" })).text();
  let id = 2;
  return await measure(
    async () =>
      await (await post(session, { jsonrpc: "2.0", id: id++, method: "tools/list" })).text(),
    200,
    20,
  );
}

printTable(rows);

await mcp.close();
await ext.close();
await served.stop();
await Deno.remove(dir, { recursive: true });
