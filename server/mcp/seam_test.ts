/**
 * The two MCP seams (seam.ts) side by side: the same session traffic through the fast path and
 * through the SDK alone gives the same JSON-RPC answers. The fast path answers `tools/list`,
 * `tools/call` and `ping` itself as JSON; the SDK answers them on an SSE stream.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { initializeRequest } from "../../tests/helpers/mcp_client.ts";
import { silentLogger } from "../log/logger.ts";
import { createMcpSessions } from "./sessions.ts";
import type { McpSessions } from "./sessions_interface.ts";
import type { McpPath } from "./seam.ts";
import { echoCatalog, echoPipeline } from "./_echo_fixture.ts";

const catalog = echoCatalog;
const pipeline = echoPipeline;

const post = (message: unknown, session?: string) =>
  new Request("http://127.0.0.1:9515/mcp", {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": "2025-06-18",
      ...(session ? { "mcp-session-id": session } : {}),
    },
    body: JSON.stringify(message),
  });

/** The JSON-RPC messages of a response, JSON or SSE. */
async function messagesOf(res: Response): Promise<unknown[]> {
  const text = await res.text();
  if (res.headers.get("content-type")?.includes("text/event-stream")) {
    return text.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6)
      .map((l) => JSON.parse(l.slice(6)));
  }
  return [JSON.parse(text)];
}

async function open(sessions: McpSessions): Promise<string> {
  const res = await sessions.handle(post(initializeRequest("seam")), "full");
  const id = res.headers.get("mcp-session-id");
  assert(id, "initialize answers with a session id");
  await res.body?.cancel();
  const ready = await sessions.handle(
    post({ jsonrpc: "2.0", method: "notifications/initialized" }, id),
    "full",
  );
  await ready.body?.cancel();
  return id;
}

const TRAFFIC = [
  { jsonrpc: "2.0", id: 1, method: "ping" },
  { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "demo__echo", arguments: {} } },
  { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "demo__echo", arguments: [] } },
];

/** What each message of TRAFFIC gets through `path`, and how it was sent. */
async function answers(path: McpPath) {
  const sessions = createMcpSessions({ catalog, pipeline, logger: silentLogger, mcpPath: path });
  try {
    const id = await open(sessions);
    const out = [];
    for (const message of TRAFFIC) {
      const res = await sessions.handle(post(message, id), "full");
      out.push({
        status: res.status,
        type: res.headers.get("content-type"),
        messages: await messagesOf(res),
      });
    }
    return out;
  } finally {
    await sessions.closeAll();
  }
}

Deno.test("both MCP seams give the same answers; only the fast one answers as JSON", async () => {
  const fast = await answers("fast");
  const sdk = await answers("sdk");
  assertEquals(fast.map((a) => a.messages), sdk.map((a) => a.messages));
  assertEquals(fast.map((a) => a.status), sdk.map((a) => a.status));
  assert(fast.every((a) => a.type?.startsWith("application/json")), JSON.stringify(fast));
  assert(sdk.every((a) => a.type?.startsWith("text/event-stream")), JSON.stringify(sdk));
});
