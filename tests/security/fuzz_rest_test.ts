/**
 * Property-based fuzzing of the REST surface of a real hub (child process): arbitrary JSON bodies
 * on every route, and raw requests with random methods, paths, queries and headers. The hub never
 * answers 500, every error is bounded JSON, it never dies, and its memory settles afterwards.
 * Change SEED here (and only here) to explore other inputs; a failure prints the seed and the
 * shrunk input.
 */
import fc from "fast-check";
import {
  assertProperty,
  FUZZ_TOOLS,
  type FuzzHub,
  fuzzJson,
  fuzzKey,
  fuzzStep,
  FZ_SETTINGS,
  printable,
  PROTO_KEYS,
  settingsMayPass,
  startFuzzHub,
} from "../helpers/fuzz_hub.ts";
import { httpProblem, seen } from "../helpers/fuzz_oracles.ts";
import { rawSend } from "../helpers/raw_http.ts";

const SEED = 130_001;
const BODY_RUNS = 200;
const RAW_RUNS = 250;

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"];
const ROUTES = [
  "/health",
  "/ws-info",
  "/ws",
  "/reload",
  "/extension/reload",
  "/tools",
  "/audit",
  "/plugin-settings",
  "/mcp",
  "/mcp/gateway",
];
const TOOL_NAMES = [...Object.values(FUZZ_TOOLS), "browser__tabs_list", ...PROTO_KEYS];

interface RestCase {
  method: string;
  path: string;
  body?: string;
}

/** `{"arguments": {"tags": [0, 0, …]}}`: each item fails the `string` type. */
const badTags = (n: number) => JSON.stringify({ arguments: { tags: new Array(n).fill(0) } });

const toolPath = fc.oneof(
  fc.constantFrom(...TOOL_NAMES),
  fc.string({ maxLength: 40 }),
).map((name) => `/tools/${encodeURIComponent(name)}/call`);

const callBody: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fuzzJson({ known: ["tags", "note", "text", "tabId", "instance"] })
      .map((args) => JSON.stringify({ arguments: args })),
  },
  { weight: 2, arbitrary: fuzzJson().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 2_000 }).map(badTags) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 1_000_000 }).map(badTags) },
  // Over the 10 MB limit of tool-call bodies.
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 4096 }).map((n) => "x".repeat(10 * 2 ** 20 + n)),
  },
);

const settingsBody = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      plugin: fc.oneof(
        { weight: 6, arbitrary: fc.constant("fz") },
        fc.constantFrom("shut", ...PROTO_KEYS),
        fc.string({ maxLength: 20 }),
      ),
      settings: fc.dictionary(fuzzKey(FZ_SETTINGS), fuzzJson({ bigString: 50_000 }), {
        maxKeys: 4,
      }),
    }).map((b) => JSON.stringify(b)),
  },
  { weight: 1, arbitrary: fuzzJson().map((v) => JSON.stringify(v)) },
  // Over the 1 MB limit of JSON bodies.
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 4096 }).map((n) => "x".repeat(2 ** 20 + n)) },
);

const query = fc.dictionary(
  fc.constantFrom("limit", "success", "plugin", "tool", "x", ...PROTO_KEYS),
  fc.oneof(
    fc.constantFrom("1", "0", "1000", "-1", "1e3", "true", "false", "fz", "shut", "browser"),
    fc.constantFrom(...PROTO_KEYS),
    fc.string({ maxLength: 30 }),
  ),
  { maxKeys: 4 },
).map((q) => {
  const text = new URLSearchParams(q).toString();
  return text ? `?${text}` : "";
});

const restCase: fc.Arbitrary<RestCase> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ method: fc.constant("POST"), path: toolPath, body: callBody }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      method: fc.constant("POST"),
      path: fc.constant("/plugin-settings"),
      body: settingsBody,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      method: fc.constant("GET"),
      path: fc.tuple(fc.constantFrom("/audit", "/tools", "/health", "/ws-info"), query)
        .map(([p, q]) => p + q),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      method: fc.constantFrom(...METHODS),
      path: fc.oneof(fc.constantFrom(...ROUTES), toolPath),
      body: fc.option(fuzzJson({ bigString: 20_000 }).map((v) => JSON.stringify(v)), {
        nil: undefined,
      }),
    }),
  },
);

async function sendRest(fz: FuzzHub, c: RestCase): Promise<string | undefined> {
  const body = c.method === "GET" || c.method === "HEAD" ? undefined : c.body;
  const res = await fetch(`${fz.hub.url}${c.path}`, {
    method: c.method,
    headers: fz.headers({ accept: "application/json, text/event-stream" }),
    body,
    signal: AbortSignal.timeout(60_000),
  });
  const reply = await seen(c.method, c.path, res);
  const problem = httpProblem(reply);
  if (problem) return problem;
  if (c.path === "/plugin-settings" && reply.status === 200) return settingsAccepted(c, reply.body);
  return undefined;
}

/** A 200 from /plugin-settings: only `fz` has settings, and only its own fields exist. */
function settingsAccepted(c: RestCase, reply: string): string | undefined {
  const sent = JSON.parse(c.body!);
  if (!settingsMayPass(sent.plugin, sent.settings)) {
    return `POST /plugin-settings accepted ${JSON.stringify(sent).slice(0, 300)}: ` +
      `${reply.slice(0, 300)}`;
  }
  return undefined;
}

interface RawCase {
  method: string;
  target: string;
  headers: [string, string][];
  body: string;
}

const hostValue = (port: number) =>
  fc.oneof(
    fc.constantFrom(`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, "127.0.0.1"),
    fc.constantFrom("a b", "127.0.0.1:99999", "[::1", "", ":", "localhost:", "[]", "evil.example"),
    fc.constantFrom(`127.0.0.1:${port}:1`, "127.0.0.1:-1", "LOCALHOST", "localhost.", "[::1]x"),
    printable(40),
  );

const originValue = fc.oneof(
  fc.constantFrom("chrome-extension://abcdef", "http://evil.example", "null", ""),
  fc.constantFrom("chrome-extension://", "chrome-extension:abc", "CHROME-EXTENSION://a"),
  printable(40),
);

function rawCase(fz: FuzzHub): fc.Arbitrary<RawCase> {
  const secret = fz.hub.secret;
  const header = fc.oneof(
    hostValue(fz.hub.port).map((v): [string, string] => ["Host", v]),
    originValue.map((v): [string, string] => ["Origin", v]),
    fc.constantFrom(`Bearer ${secret}`, "Bearer wrong", "Bearer", `bearer  ${secret} `, "Basic x")
      .map((v): [string, string] => ["Authorization", v]),
    fc.constantFrom("websocket", "h2c", "").map((v): [string, string] => ["Upgrade", v]),
    fc.constantFrom("hub", "hub, wrong", ",", "x").map((v): [string, string] => [
      "Sec-WebSocket-Protocol",
      v,
    ]),
    fc.constantFrom("mcp-session-id", "content-type", "accept", "last-event-id", "x-forwarded-host")
      .chain((name) => printable(60).map((v): [string, string] => [name, v])),
  );
  const path = fc.tuple(
    fc.oneof(
      fc.constantFrom(...ROUTES, "/tools/fz__tagged/call", "/tools/%E0%A4%A/call"),
      fc.array(printable(12).map((s) => s.replace(/[ ?#]/g, "_")), { maxLength: 4 })
        .map((segments) => "/" + segments.join("/")),
    ),
    fc.oneof(fc.constant(""), printable(60).map((q) => "?" + q.replace(/ /g, "+"))),
  ).map(([p, q]) => p + q);
  return fc.record({
    method: fc.oneof(fc.constantFrom(...METHODS), fc.stringMatching(/^[A-Z]{1,8}$/)),
    target: fc.oneof(
      { weight: 6, arbitrary: path },
      { weight: 1, arbitrary: path.map((p) => `http://127.0.0.1:${fz.hub.port}${p}`) },
      { weight: 1, arbitrary: fc.constantFrom("*", "http://evil.example/health") },
    ),
    headers: fc.array(header, { maxLength: 6 }),
    body: fc.oneof(fc.constant(""), fuzzJson({ bigString: 5_000 }).map((v) => JSON.stringify(v))),
  });
}

async function sendRaw(fz: FuzzHub, c: RawCase): Promise<string | undefined> {
  const lines = [`${c.method} ${c.target} HTTP/1.1`];
  const hasHost = c.headers.some(([name]) => name === "Host");
  if (!hasHost) lines.push(`Host: 127.0.0.1:${fz.hub.port}`);
  for (const [name, value] of c.headers) lines.push(`${name}: ${value}`);
  lines.push("Connection: close", `Content-Length: ${new TextEncoder().encode(c.body).length}`);
  const reply = await rawSend(fz.hub.port, lines.join("\r\n") + "\r\n\r\n" + c.body, 30_000);
  return httpProblem({
    method: c.method,
    path: c.target,
    status: reply.status,
    contentType: reply.headers["content-type"] ?? "",
    body: reply.body,
    raw: true,
  });
}

Deno.test("fuzz: REST bodies and raw requests never get a 500 and never kill the hub", async (t) => {
  console.log(`fuzz_rest seed ${SEED}`);
  const fz = await startFuzzHub();
  try {
    await t.step(
      "JSON bodies on every route",
      () =>
        fuzzStep(fz, "REST bodies", () =>
          assertProperty(
            "REST bodies",
            fc.asyncProperty(restCase, async (c) => {
              const problem = await sendRest(fz, c);
              if (problem) throw new Error(problem);
            }),
            { seed: SEED, numRuns: BODY_RUNS },
          )),
    );
    await t.step(
      "raw methods, paths, queries and headers",
      () =>
        fuzzStep(fz, "raw requests", () =>
          assertProperty(
            "raw requests",
            fc.asyncProperty(rawCase(fz), async (c) => {
              const problem = await sendRaw(fz, c);
              if (problem) throw new Error(problem);
            }),
            { seed: SEED, numRuns: RAW_RUNS },
          )),
    );
  } finally {
    await fz.close();
  }
});
