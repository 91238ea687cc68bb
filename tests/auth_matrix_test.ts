/**
 * End to end: the guards of every route (Host → Origin → Bearer → route), the health payload, and
 * robustness against malformed requests, against one real `hub start` on port 0.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { type RunningHub, startHub, tempConfigDir } from "./helpers/hub_process.ts";
import { rawRequest, rawSend } from "./helpers/raw_http.ts";
import { SDK_VERSION, STATE_SCHEMA_VERSION, VERSION } from "../protocol/version.ts";

let hub: RunningHub;
let configDir = "";
/** Shaped like a real secret (64 hex) but not the hub's. */
const WRONG_SECRET = "0123456789abcdef".repeat(4);

Deno.test.beforeAll(async () => {
  configDir = await tempConfigDir();
  hub = await startHub({ configDir, env: { HUB_LOG_LEVEL: "debug" } });
});

Deno.test.afterAll(async () => {
  try {
    assertEquals(await hub?.stop(), 0);
  } finally {
    await Deno.remove(configDir, { recursive: true });
  }
});

type Token = "none" | "wrong" | "right";
type OriginKind = "none" | "evil" | "extension";
type HostKind = "good" | "evil";

const ROUTES = [
  { method: "GET", path: "/health" },
  { method: "GET", path: "/ws-info" },
  { method: "POST", path: "/reload" },
  { method: "GET", path: "/nope" },
] as const;
const TOKENS: Token[] = ["none", "wrong", "right"];
const ORIGINS: Record<OriginKind, string | undefined> = {
  none: undefined,
  evil: "https://evil.example",
  extension: "chrome-extension://abcdefghijklmnop",
};
const HOSTS: HostKind[] = ["good", "evil"];

/** The status the guard rules of docs/http.md ("Guards") demand. */
function expectedStatus(path: string, token: Token, origin: OriginKind, host: HostKind): number {
  if (host === "evil") return 403;
  if (origin === "evil") return 403;
  if (token === "wrong") return 401;
  if (token === "none") return path === "/health" ? 200 : 401;
  return path === "/nope" ? 404 : 200;
}

interface Reply {
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
}

function requestHeaders(token: Token, origin: OriginKind): Record<string, string> {
  const headers: Record<string, string> = {};
  if (token !== "none") {
    headers.authorization = `Bearer ${token === "right" ? hub.secret : WRONG_SECRET}`;
  }
  const originValue = ORIGINS[origin];
  if (originValue) headers.origin = originValue;
  return headers;
}

async function send(
  method: string,
  path: string,
  token: Token,
  origin: OriginKind,
  host: HostKind,
): Promise<Reply> {
  const headers = requestHeaders(token, origin);
  if (host === "evil") {
    return await rawRequest(hub.port, {
      method,
      path,
      headers: { Host: "evil.example:80", ...headers },
    });
  }
  const res = await fetch(`${hub.url}${path}`, { method, headers });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}

for (const route of ROUTES) {
  Deno.test(`auth matrix: ${route.method} ${route.path} × token × Origin × Host`, async () => {
    const wrong: string[] = [];
    for (const token of TOKENS) {
      for (const origin of Object.keys(ORIGINS) as OriginKind[]) {
        for (const host of HOSTS) {
          const want = expectedStatus(route.path, token, origin, host);
          const reply = await send(route.method, route.path, token, origin, host);
          const label = `token=${token} origin=${origin} host=${host}`;
          if (reply.status !== want) {
            wrong.push(`${label}: got ${reply.status}, want ${want} (${reply.body})`);
            continue;
          }
          checkBody(route.path, token, host, reply);
        }
      }
    }
    assertEquals(wrong, [], `wrong statuses:\n${wrong.join("\n")}`);
  });
}

/** Beyond the status: error bodies are JSON with the right code, 401s carry WWW-Authenticate. */
function checkBody(path: string, token: Token, host: HostKind, r: Reply) {
  const body = JSON.parse(r.body);
  if (r.status === 403) {
    assertEquals(body.error.code, host === "evil" ? "FORBIDDEN_HOST" : "FORBIDDEN_ORIGIN");
  } else if (r.status === 401) {
    assertEquals(body.error.code, "UNAUTHORIZED");
    assertMatch(r.headers["www-authenticate"] ?? "", /^Bearer\b/);
  } else if (r.status === 404) {
    assertEquals(body.error.code, "NOT_FOUND");
  } else if (path === "/health") {
    if (token === "none") assertEquals(body, { status: "ok" });
    else assertEquals(body.version, VERSION);
  }
}

const isInt = (v: unknown) => Number.isInteger(v);
const isStringArray = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === "string");

/** The `/health` payload of docs/http.md: every field and its type (fileWatcher only in dev mode). */
const HEALTH_FIELDS: Record<string, (v: unknown) => boolean> = {
  status: (v) => v === "ok",
  version: (v) => v === VERSION,
  sdkVersion: (v) => v === SDK_VERSION,
  mode: (v) => v === "dev" || v === "production",
  extensionConnected: (v) => v === false,
  extensionConnections: (v) => v === 0,
  mcpClients: (v) => v === 0,
  plugins: (v) => v === 0,
  pluginDetails: (v) => Array.isArray(v) && v.length === 0,
  failedPlugins: (v) => Array.isArray(v),
  toolCount: isInt,
  browserToolCount: isInt,
  pluginToolCount: isInt,
  browserToolNames: isStringArray,
  disabledBrowserTools: isStringArray,
  skipPermissions: (v) => v === false,
  debugger: (v) => v === "auto",
  uptime: (v) => typeof v === "number" && v >= 0,
  pid: isInt,
  reloadCount: isInt,
  lastReloadTimestamp: isInt,
  lastReloadDurationMs: isInt,
  stateSchemaVersion: (v) => v === STATE_SCHEMA_VERSION,
  discoveryErrors: (v) => Array.isArray(v),
  auditSummary: (v) => {
    const a = v as Record<string, Record<string, unknown>>;
    return isInt(a.totalInvocations) && isInt(a.successCount) && isInt(a.failureCount) &&
      isInt(a.last24h?.total) && isInt(a.last24h?.success) && isInt(a.last24h?.failure) &&
      typeof a.avgDurationMs === "number";
  },
};

function checkHealthPayload(body: Record<string, unknown>, mode: "dev" | "production") {
  const expectedKeys = Object.keys(HEALTH_FIELDS);
  if (mode === "dev") expectedKeys.push("fileWatcher");
  assertEquals(Object.keys(body).sort(), expectedKeys.sort());
  for (const [field, ok] of Object.entries(HEALTH_FIELDS)) {
    assert(ok(body[field]), `health.${field} has a wrong value: ${JSON.stringify(body[field])}`);
  }
  assertEquals(body.mode, mode);
  assertEquals(
    body.toolCount,
    (body.browserToolCount as number) + (body.pluginToolCount as number),
  );
}

async function authedJson(url: string, secret: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${secret}` } });
  assertEquals(res.status, 200);
  return await res.json();
}

Deno.test("authenticated /health has every documented field with the right type (production)", async () => {
  const body = await authedJson(`${hub.url}/health`, hub.secret);
  checkHealthPayload(body, "production");
  assert(!("fileWatcher" in body));
  const res = await fetch(`${hub.url}/health`, { headers: { authorization: "Bearer " } });
  assertEquals(res.status, 401, "an empty Bearer token is a wrong token, not an absent one");
  await res.body?.cancel();
});

Deno.test("HUB_DEV=1: /health reports mode dev and a fileWatcher object", async () => {
  const devDir = await tempConfigDir();
  const dev = await startHub({ configDir: devDir, env: { HUB_DEV: "1" } });
  try {
    const body = await authedJson(`${dev.url}/health`, dev.secret);
    checkHealthPayload(body, "dev");
    const fw = body.fileWatcher as Record<string, unknown>;
    assert(isInt(fw.watchedPlugins) && isInt(fw.pendingPlugins) && isInt(fw.pollDetections));
    assert(fw.lastPollAt === null || isInt(fw.lastPollAt), `lastPollAt: ${fw.lastPollAt}`);
    assertEquals(fw.lastEvent, null, "nothing changed yet");
    assertEquals(Object.keys(fw).sort(), [
      "lastEvent",
      "lastPollAt",
      "pendingPlugins",
      "pollDetections",
      "watchedPlugins",
    ]);
  } finally {
    assertEquals(await dev.stop(), 0);
    await Deno.remove(devDir, { recursive: true });
  }
});

Deno.test("/ws-info returns the WebSocket URL of this server", async () => {
  const body = await authedJson(`${hub.url}/ws-info`, hub.secret);
  assertEquals(body, { wsUrl: `ws://127.0.0.1:${hub.port}/ws` });
});

Deno.test("401 responses carry WWW-Authenticate: Bearer (missing and wrong token)", async () => {
  for (const authorization of [undefined, `Bearer ${WRONG_SECRET}`, `Basic ${hub.secret}`]) {
    const res = await fetch(`${hub.url}/ws-info`, {
      headers: authorization ? { authorization } : {},
    });
    assertEquals(res.status, 401, `authorization=${authorization}`);
    assertMatch(res.headers.get("www-authenticate") ?? "", /^Bearer\b/);
    assertEquals((await res.json()).error.code, "UNAUTHORIZED");
  }
});

Deno.test("Host guard: loopback names with any port pass, everything else is 403", async () => {
  const allowed = ["localhost", "LOCALHOST:1", "127.0.0.1", `127.0.0.1:${hub.port}`, "[::1]:9515"];
  const refused = [
    "evil.example",
    "127.0.0.1.evil.example",
    "localhost.evil.example:80",
    "[::2]:9515",
    "",
  ];
  for (const host of [...allowed, ...refused]) {
    const reply = await rawRequest(hub.port, { path: "/health", headers: { Host: host } });
    assertEquals(reply.status, allowed.includes(host) ? 200 : 403, `Host: "${host}"`);
  }
  const noHost = await rawSend(hub.port, "GET /health HTTP/1.1\r\nConnection: close\r\n\r\n");
  assertEquals(noHost.status, 403, "a request without Host is refused");
});

Deno.test("Origin guard: only chrome-extension:// origins pass; null and web pages get 403", async () => {
  const refused = [
    "null",
    `http://127.0.0.1:${hub.port}`,
    "http://localhost",
    "chrome-extension:x",
  ];
  for (const origin of refused) {
    const res = await fetch(`${hub.url}/health`, { headers: { origin } });
    assertEquals(res.status, 403, `Origin: ${origin}`);
    assertEquals((await res.json()).error.code, "FORBIDDEN_ORIGIN");
  }
  const ok = await fetch(`${hub.url}/ws-info`, {
    headers: { origin: "chrome-extension://xyz", authorization: `Bearer ${hub.secret}` },
  });
  assertEquals(ok.status, 200);
  await ok.body?.cancel();
});

async function assertHealthy(after: string) {
  const res = await fetch(`${hub.url}/health`);
  assertEquals(res.status, 200, `/health after ${after}`);
  assertEquals(await res.json(), { status: "ok" });
}

Deno.test("malformed requests do not take the server down", async () => {
  const garbage = await rawSend(hub.port, "\x00\x01GARBAGE \xff\r\n\r\n");
  assert(garbage.status === undefined || garbage.status === 400, `garbage → ${garbage.status}`);
  await assertHealthy("garbage bytes");

  const huge = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + "a".repeat(1_000_000) +
    "\r\n\r\n";
  const big = await rawSend(hub.port, huge);
  assert(big.status === undefined || big.status >= 400, `huge header → ${big.status}`);
  await assertHealthy("a 1 MB header");

  const conn = await Deno.connect({ hostname: "127.0.0.1", port: hub.port });
  await conn.write(new TextEncoder().encode("POST /reload HTTP/1.1\r\nHost: 127.0.0.1\r\nConte"));
  conn.close();
  await assertHealthy("a request cut off mid-header");

  const res = await fetch(`${hub.url}/reload`, {
    method: "POST",
    headers: { authorization: `Bearer ${hub.secret}`, "content-type": "application/json" },
    body: "{not json",
  });
  assert(res.status === 200 || res.status === 400, `invalid JSON body → ${res.status}`);
  await res.body?.cancel();
  await assertHealthy("an invalid JSON body to /reload");

  const lying = await rawSend(
    hub.port,
    "POST /reload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\nConnection: close\r\n\r\n",
  );
  assert(lying.status === undefined || lying.status === 400, `bad length → ${lying.status}`);
  await assertHealthy("a bad Content-Length");
});

Deno.test("the secret never appears in server.log, even at HUB_LOG_LEVEL=debug", async () => {
  for (const token of [hub.secret, WRONG_SECRET, hub.secret.slice(0, 40)]) {
    const res = await fetch(`${hub.url}/ws-info`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await res.body?.cancel();
  }
  const log = await Deno.readTextFile(join(configDir, "server.log"));
  assertMatch(log, /DEBUG +GET \/ws-info 200/, "debug logging is on, so the check means something");
  assertMatch(log, /DEBUG +GET \/ws-info 401/);
  assert(!log.includes(hub.secret), "server.log contains the secret");
  assert(!log.includes(hub.secret.slice(0, 40)), "server.log contains part of the secret");
  assert(!log.includes(WRONG_SECRET), "server.log contains a presented token");
});
