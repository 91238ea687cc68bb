import { assertEquals } from "../../tests/helpers/assert.ts";
import {
  classify,
  entriesOf,
  hubUrlPort,
  MAX_ENTRIES_PER_FILE,
  type McpEntry,
} from "./mcp_entries.ts";

const SECRET = "a".repeat(64);
const OTHER = "b".repeat(64);
const target = { port: 9515, secret: SECRET };

const entry = (e: Partial<McpEntry>): McpEntry => ({
  name: "hub",
  headers: {},
  args: [],
  env: {},
  ...e,
});
const http = (url: string, auth?: string) =>
  entry({ url, headers: auth === undefined ? {} : { Authorization: auth } });

Deno.test("hub URLs: loopback hosts, /mcp and /mcp/gateway only", () => {
  assertEquals(hubUrlPort("http://127.0.0.1:9515/mcp"), 9515);
  assertEquals(hubUrlPort("http://localhost:9516/mcp/gateway/"), 9516);
  assertEquals(hubUrlPort("http://[::1]:9515/mcp"), 9515);
  assertEquals(hubUrlPort("http://example.com:9515/mcp"), undefined);
  assertEquals(hubUrlPort("http://127.0.0.1:9515/sse"), undefined);
  assertEquals(hubUrlPort("https://127.0.0.1:9515/mcp"), undefined);
  assertEquals(hubUrlPort("not a url"), undefined);
});

Deno.test("HTTP entries: current with the secret, stale with another secret or port", () => {
  assertEquals(
    classify(http("http://127.0.0.1:9515/mcp", `Bearer ${SECRET}`), target)?.kind,
    "current",
  );
  assertEquals(
    classify(http("http://localhost:9515/mcp/gateway", `bearer ${SECRET}`), target)?.kind,
    "current",
  );
  assertEquals(classify(http("http://127.0.0.1:9515/mcp", `Bearer ${OTHER}`), target), {
    kind: "stale",
    why: "its Bearer secret is not the current one",
  });
  assertEquals(classify(http("http://127.0.0.1:9600/mcp", `Bearer ${SECRET}`), target), {
    kind: "stale",
    why: "it uses port 9600, the hub 9515",
  });
  assertEquals(classify(http("http://127.0.0.1:9515/mcp"), target)?.kind, "stale");
  assertEquals(classify(http("https://api.example.com/mcp", "Bearer x"), target), undefined);
});

Deno.test("a verdict never contains the secret", () => {
  for (
    const e of [
      http("http://127.0.0.1:9515/mcp", `Bearer ${OTHER}`),
      http("http://127.0.0.1:9515/mcp", `Bearer ${SECRET}`),
    ]
  ) {
    const text = JSON.stringify(classify(e, target));
    assertEquals(text.includes(SECRET) || text.includes(OTHER), false);
  }
});

Deno.test("headers from variables: resolved from env when possible, else not checked", () => {
  const viaEnv = entry({
    command: "npx",
    args: ["mcp-remote", "http://127.0.0.1:9515/mcp", "--header", "Authorization:${AUTH}"],
    env: { AUTH: `Bearer ${SECRET}` },
  });
  assertEquals(classify(viaEnv, target)?.kind, "current");
  const input = http("http://127.0.0.1:9515/mcp", "Bearer ${input:hub-secret}");
  assertEquals(classify(input, target)?.kind, "unverified");
  const noSecret = http("http://127.0.0.1:9515/mcp", `Bearer ${SECRET}`);
  assertEquals(classify(noSecret, { port: 9515, secret: undefined })?.kind, "unverified");
});

Deno.test("stdio entries: hub start --stdio in its forms; another --port is stale", () => {
  const stdio = (command: string, args: string[], env: Record<string, string> = {}) =>
    classify(entry({ command, args, env }), target);
  assertEquals(stdio("hub", ["start", "--stdio"])?.kind, "current");
  assertEquals(stdio("/usr/local/bin/hub", ["start", "--stdio", "--gateway"])?.kind, "current");
  assertEquals(stdio("npx", ["-y", "@tabhub/hub", "start", "--stdio"])?.kind, "current");
  assertEquals(stdio("C:\\npm\\hub.cmd", ["start", "--stdio", "--port", "9515"])?.kind, "current");
  assertEquals(stdio("hub", ["start", "--stdio", "--port=9600"]), {
    kind: "stale",
    why: "it uses port 9600, the hub 9515",
  });
  assertEquals(stdio("hub", ["start", "--stdio"], { HUB_PORT: "9600" })?.kind, "stale");
  assertEquals(stdio("hub start --stdio", [])?.kind, "current");
  assertEquals(stdio("hub", ["start"]), undefined);
  assertEquals(stdio("other-server", ["start", "--stdio"]), undefined);
});

Deno.test("entries of each format: mcpServers, Claude Code projects, VS Code files", () => {
  const server = { url: "http://127.0.0.1:9515/mcp" };
  assertEquals(
    entriesOf("mcpServers", { mcpServers: { a: server, b: "junk" } }).map((e) => e.name),
    ["a"],
  );
  assertEquals(
    entriesOf("claudeCode", {
      mcpServers: { top: server },
      projects: { "/work/p": { mcpServers: { inner: { command: "hub" } } }, "/x": null },
    }).map((e) => e.name),
    ["top", "/work/p: inner"],
  );
  assertEquals(entriesOf("vscodeMcp", { servers: { v: server } }).map((e) => e.url), [server.url]);
  assertEquals(
    entriesOf("vscodeSettings", { mcp: { servers: { a: server } }, "mcp.servers": { b: server } })
      .map((e) => e.name),
    ["a", "b"],
  );
  assertEquals(
    entriesOf("mcpServers", { mcpServers: { w: { serverUrl: "http://x/mcp" } } })[0].url,
    "http://x/mcp",
  );
  assertEquals(
    entriesOf("mcpServers", { mcpServers: { g: { httpUrl: "http://y/mcp" } } })[0].url,
    "http://y/mcp",
  );
  assertEquals(entriesOf("mcpServers", [1, 2]), []);
});

Deno.test("a file with thousands of entries is read only up to the bound", () => {
  const servers = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`s${i}`, {}]));
  assertEquals(entriesOf("mcpServers", { mcpServers: servers }).length, MAX_ENTRIES_PER_FILE);
});

Deno.test("stdio entries: a command not found here, or another config folder, is stale", () => {
  const found = new Set(["/opt/deno", "hub"]);
  const here = { ...target, configDir: "/cfg", commandExists: (c: string) => found.has(c) };
  const stdio = (command: string, env: Record<string, string> = {}) =>
    classify(entry({ command, args: ["run", "/src/main.ts", "start", "--stdio"], env }), here);
  assertEquals(stdio("/opt/deno")?.kind, "current");
  assertEquals(stdio("/opt/deno", { HUB_CONFIG_DIR: "/cfg" })?.kind, "current");
  assertEquals(stdio("/old/deno"), {
    kind: "stale",
    why: "its command /old/deno is not found on this machine",
  });
  assertEquals(stdio("/opt/deno", { HUB_CONFIG_DIR: "/elsewhere" }), {
    kind: "stale",
    why: "its HUB_CONFIG_DIR is another config folder than the hub's",
  });
  const line = classify(entry({ command: "hub start --stdio" }), here);
  assertEquals(line?.kind, "current", "a whole command line: its first word is the program");
  assertEquals(classify(entry({ command: "/opt/deno" }), here), undefined, "not hub: not judged");
});
