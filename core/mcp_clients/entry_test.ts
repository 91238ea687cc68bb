import { assertEquals } from "../../tests/helpers/assert.ts";
import { type HubEndpoint, hubEntry, hubUrl } from "./entry.ts";
import type { EntryShape } from "./clients.ts";

const endpoint = (over: Partial<HubEndpoint> = {}): HubEndpoint => ({
  port: 7777,
  secret: "s3cret",
  mode: "http",
  stdio: { command: "/usr/bin/hub", args: ["start", "--stdio", "--port", "7777"] },
  ...over,
});
const auth = { Authorization: "Bearer s3cret" };
const url = "http://127.0.0.1:7777/mcp";

Deno.test("http entries use each client's own keys", () => {
  const shapes: EntryShape[] = ["claude", "cursor", "vscode", "windsurf", "gemini", "codex"];
  assertEquals(Object.fromEntries(shapes.map((s) => [s, hubEntry(s, endpoint())])), {
    claude: { type: "http", url, headers: auth },
    cursor: { url, headers: auth },
    vscode: { type: "http", url, headers: auth },
    windsurf: { serverUrl: url, headers: auth },
    gemini: { httpUrl: url, headers: auth },
    codex: { url, http_headers: auth },
  });
});

Deno.test("gateway mode points at /mcp/gateway", () => {
  assertEquals(hubUrl(1, "gateway"), "http://127.0.0.1:1/mcp/gateway");
  assertEquals(hubEntry("cursor", endpoint({ mode: "gateway" })), {
    url: `${url}/gateway`,
    headers: auth,
  });
});

Deno.test("stdio entries: the bridge command, no secret; VS Code says its type", () => {
  const stdio = endpoint({ mode: "stdio" });
  const args = ["start", "--stdio", "--port", "7777"];
  assertEquals(hubEntry("claude", stdio), { command: "/usr/bin/hub", args });
  assertEquals(hubEntry("codex", stdio), { command: "/usr/bin/hub", args });
  assertEquals(hubEntry("vscode", stdio), { type: "stdio", command: "/usr/bin/hub", args });
  const withEnv = endpoint({
    mode: "stdio",
    stdio: { command: "deno", args: ["run", "main.ts"], env: { HUB_CONFIG_DIR: "/cfg" } },
  });
  assertEquals(hubEntry("gemini", withEnv), {
    command: "deno",
    args: ["run", "main.ts"],
    env: { HUB_CONFIG_DIR: "/cfg" },
  });
});

Deno.test("a stdio-only client in gateway mode bridges with --gateway", () => {
  const entry = hubEntry("claude", endpoint({ mode: "gateway", transport: "stdio" }));
  assertEquals(entry, {
    command: "/usr/bin/hub",
    args: ["start", "--stdio", "--port", "7777", "--gateway"],
  });
  assertEquals(JSON.stringify(entry).includes("s3cret"), false);
});
