/**
 * Property-based fuzzing of `/mcp` and `/mcp/gateway` on a real hub (child process): JSON-RPC
 * shaped messages (valid and invalid methods, params of every type, ids of every type, batches)
 * inside an initialized session, with a bogus or foreign session id, and without one. The hub
 * never answers 500 or a JSON-RPC internal error (-32603), errors stay bounded, it never dies,
 * and its memory settles afterwards. The same fuzz runs against both MCP seams (server/mcp/seam.ts):
 * the fast path, and the SDK alone, so the two cannot drift. Change SEED here (and only here) to
 * explore other inputs.
 */
import fc from "fast-check";
import {
  assertProperty,
  FUZZ_TOOLS,
  type FuzzHub,
  fuzzJson,
  fuzzStep,
  PROTO_KEYS,
  startFuzzHub,
} from "../helpers/fuzz_hub.ts";
import { httpProblem, seen } from "../helpers/fuzz_oracles.ts";
import { initializeRequest } from "../helpers/mcp_client.ts";
import type { McpPath } from "../../server/mcp/seam.ts";

const SEED = 130_002;
const RUNS = 300;
const PROTOCOL_VERSION = "2025-06-18";

const MCP_METHODS = [
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "logging/setLevel",
  "completion/complete",
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
];
const TOOLS = [
  ...Object.values(FUZZ_TOOLS),
  "hub_list_tools",
  "hub_call",
  "browser__tabs_list",
  ...PROTO_KEYS,
];

const anyId = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(null, 1.5, -0, 1e308, 2 ** 53 + 7, true, "", "x".repeat(100_000)),
  fc.constant({}),
  fc.constant([1]),
);

/** Arguments of a tool call: any JSON (arrays and scalars included), or the gateway's shape. */
const toolArguments = fc.oneof(
  { weight: 4, arbitrary: fuzzJson({ known: ["tags", "note", "text", "tool", "arguments"] }) },
  {
    weight: 2,
    arbitrary: fc.record({
      tool: fc.oneof(fc.constantFrom(...TOOLS), fc.anything()),
      arguments: fuzzJson({ known: ["tags", "note", "text"] }),
    }, { requiredKeys: [] }),
  },
  { weight: 1, arbitrary: fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }) },
);

const callParams = fc.record({
  name: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TOOLS) }, fc.jsonValue()),
  arguments: toolArguments,
  _meta: fc.oneof(
    fc.record({ progressToken: fc.oneof(fc.string(), fc.integer(), fc.jsonValue()) }),
    fc.jsonValue(),
  ),
}, { requiredKeys: [] });

const params = fc.oneof(
  { weight: 3, arbitrary: callParams },
  { weight: 2, arbitrary: fuzzJson({ known: ["name", "arguments", "level", "cursor", "uri"] }) },
  {
    weight: 1,
    arbitrary: fc.record({ level: fc.oneof(fc.constantFrom("debug", "error"), fc.jsonValue()) }),
  },
);

const message = fc.record({
  jsonrpc: fc.oneof({ weight: 6, arbitrary: fc.constant("2.0") }, fc.jsonValue()),
  id: anyId,
  method: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...MCP_METHODS) },
    fc.string({ maxLength: 30 }),
    fc.jsonValue(),
  ),
  params,
}, { requiredKeys: [] });

const payload: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: message },
  { weight: 2, arbitrary: fc.array(message, { minLength: 1, maxLength: 4 }) },
  { weight: 1, arbitrary: fuzzJson() },
  { weight: 1, arbitrary: fc.constant([]) },
);

type SessionKind = "own" | "none" | "bogus" | "foreign";

interface McpCase {
  endpoint: "/mcp" | "/mcp/gateway";
  session: SessionKind;
  protocolVersion: string | undefined;
  body: unknown;
}

const mcpCase: fc.Arbitrary<McpCase> = fc.record({
  endpoint: fc.constantFrom("/mcp" as const, "/mcp/gateway" as const),
  session: fc.oneof(
    { weight: 6, arbitrary: fc.constant<SessionKind>("own") },
    fc.constantFrom<SessionKind>("none", "bogus", "foreign"),
  ),
  protocolVersion: fc.oneof(
    { weight: 6, arbitrary: fc.constant(PROTOCOL_VERSION) },
    fc.constantFrom(undefined, "1999-01-01", "2025-03-26", "x"),
  ),
  body: payload,
});

/** An initialized session on `endpoint`; returns its id. */
async function openSession(fz: FuzzHub, endpoint: string): Promise<string> {
  const post = (extra: Record<string, string>, body: unknown) =>
    fetch(`${fz.hub.url}${endpoint}`, {
      method: "POST",
      headers: fz.headers({ accept: "application/json, text/event-stream", ...extra }),
      body: JSON.stringify(body),
    });
  const init = await post({}, initializeRequest("fuzz"));
  await init.text();
  const id = init.headers.get("mcp-session-id");
  if (init.status !== 200 || !id) throw new Error(`initialize on ${endpoint}: ${init.status}`);
  const done = await post(
    { "mcp-session-id": id, "mcp-protocol-version": PROTOCOL_VERSION },
    { jsonrpc: "2.0", method: "notifications/initialized" },
  );
  await done.text();
  return id;
}

async function sendMcp(
  fz: FuzzHub,
  sessions: Record<string, string>,
  c: McpCase,
): Promise<string | undefined> {
  const other = c.endpoint === "/mcp" ? "/mcp/gateway" : "/mcp";
  const sessionId = {
    own: sessions[c.endpoint],
    foreign: sessions[other],
    bogus: crypto.randomUUID(),
    none: undefined,
  }[c.session];
  const headers = fz.headers({ accept: "application/json, text/event-stream" });
  if (sessionId) headers["mcp-session-id"] = sessionId;
  if (c.protocolVersion) headers["mcp-protocol-version"] = c.protocolVersion;
  const res = await fetch(`${fz.hub.url}${c.endpoint}`, {
    method: "POST",
    headers,
    body: JSON.stringify(c.body),
    signal: AbortSignal.timeout(60_000),
  });
  return httpProblem(await seen("POST", `${c.endpoint} (${c.session} session)`, res));
}

for (const seam of ["fast", "sdk"] as McpPath[]) {
  const label = seam === "fast" ? "" : " (SDK seam)";
  Deno.test(`fuzz${label}: MCP messages never get a 500 or an internal error, and never kill the hub`, (t) =>
    fuzzMcp(t, seam));
}

async function fuzzMcp(t: Deno.TestContext, seam: McpPath) {
  console.log(`fuzz_mcp seed ${SEED}, ${seam} seam`);
  const fz = await startFuzzHub({ mcpPath: seam });
  try {
    const sessions = {
      "/mcp": await openSession(fz, "/mcp"),
      "/mcp/gateway": await openSession(fz, "/mcp/gateway"),
    };
    await t.step(
      "JSON-RPC messages on /mcp and /mcp/gateway",
      () =>
        fuzzStep(fz, "MCP messages", () =>
          assertProperty(
            "MCP messages",
            fc.asyncProperty(mcpCase, async (c) => {
              const problem = await sendMcp(fz, sessions, c);
              if (problem) throw new Error(problem);
            }),
            { seed: SEED, numRuns: RUNS },
          )),
    );
  } finally {
    await fz.close();
  }
}
