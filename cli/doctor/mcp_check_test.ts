import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import {
  type FileAccess,
  MAX_CONFIG_BYTES,
  mcpClientsCheck,
  scanClientFiles,
} from "./mcp_check.ts";
import type { ClientFile } from "../../core/mcp_clients/clients.ts";

const SECRET = "c".repeat(64);
const target = { port: 9515, secret: SECRET };

/** Files by path: text, a size alone (too big), or an Error (unreadable). */
function fakeFs(files: Record<string, string | number | Error>): FileAccess {
  return {
    size(path) {
      const f = files[path];
      if (f === undefined) return Promise.resolve(undefined);
      if (f instanceof Error) return Promise.reject(f);
      return Promise.resolve(typeof f === "number" ? f : f.length);
    },
    readText: (path) => Promise.resolve(String(files[path])),
  };
}

const row = { scope: "user", transports: ["http", "stdio"] } as const;
const claude: ClientFile = {
  ...row,
  client: "Claude Code",
  id: "claude-code",
  path: "/h/.claude.json",
  format: "claudeCode",
  shape: "claude",
};
const cursor: ClientFile = {
  ...row,
  client: "Cursor",
  id: "cursor",
  path: "/h/.cursor/mcp.json",
  format: "mcpServers",
  shape: "cursor",
};
const vscode: ClientFile = {
  ...row,
  client: "VS Code",
  path: "/c/Code/User/settings.json",
  format: "vscodeSettings",
  shape: "vscode",
};
const files = [claude, cursor, vscode];

const hubHttp = (secret: string, port = 9515) => ({
  type: "http",
  url: `http://127.0.0.1:${port}/mcp`,
  headers: { Authorization: `Bearer ${secret}` },
});

Deno.test("current entries in JSON and JSONC files pass, by client and file", async () => {
  const scan = await scanClientFiles(
    files,
    target,
    fakeFs({
      [claude.path]: JSON.stringify({
        projects: { "/p": { mcpServers: { hub: hubHttp(SECRET) } } },
      }),
      [vscode.path]: `{
      // my settings
      "editor.tabSize": 2,
      "mcp": { "servers": { "hub": { "command": "hub", "args": ["start", "--stdio"] } } },
    }`,
    }),
  );
  const check = mcpClientsCheck(scan, files.length);
  assertEquals(check.status, "pass");
  assertEquals(check.message.split("\n"), [
    "Claude Code, VS Code: 2 hub entries current",
    'Claude Code /h/.claude.json "/p: hub": current (HTTP with the current secret)',
    'VS Code /c/Code/User/settings.json "hub": current (stdio bridge (reads the secret itself))',
  ]);
});

Deno.test("a stale entry is a warning that names the file; the secret never shows", async () => {
  const old = "d".repeat(64);
  const scan = await scanClientFiles(
    files,
    target,
    fakeFs({
      [claude.path]: JSON.stringify({ mcpServers: { hub: hubHttp(SECRET) } }),
      [cursor.path]: JSON.stringify({
        mcpServers: { hub: hubHttp(old), gw: hubHttp(SECRET, 9999) },
      }),
    }),
  );
  const check = mcpClientsCheck(scan, files.length);
  assertEquals(check.status, "warn");
  assertMatch(check.message, /^2 stale hub entries/);
  assertMatch(
    check.message,
    /Cursor \/h\/\.cursor\/mcp\.json "hub": STALE: its Bearer secret is not/,
  );
  assertMatch(check.message, /"gw": STALE: it uses port 9999, the hub 9515/);
  assertMatch(
    check.fix!,
    /^replace the hub entry in \/h\/\.cursor\/mcp\.json with the block "hub start --show-config"/,
  );
  const text = JSON.stringify(check);
  assertEquals(text.includes(SECRET) || text.includes(old), false);
});

Deno.test("no client set up: a warning whose fix is hub start --show-config", async () => {
  const scan = await scanClientFiles(
    files,
    target,
    fakeFs({
      [cursor.path]: JSON.stringify({ mcpServers: { other: { command: "uvx", args: ["x"] } } }),
    }),
  );
  const check = mcpClientsCheck(scan, files.length);
  assertEquals(check.status, "warn");
  assertEquals(check.message, "no MCP client is set up for this hub (looked in 3 files)");
  assertMatch(check.fix!, /hub start --show-config/);
});

Deno.test("too big, unreadable and broken files are warnings, never a crash", async () => {
  const scan = await scanClientFiles(
    files,
    target,
    fakeFs({
      [claude.path]: MAX_CONFIG_BYTES + 1,
      [cursor.path]: new Error("Permission denied"),
      [vscode.path]: '{ "mcp": { "servers": { ',
    }),
  );
  assertEquals(scan.findings, []);
  assertEquals(scan.problems.map((p) => p.why), [
    "skipped: 5.0 MB, over 5 MB",
    "cannot be read (Permission denied)",
    "not valid JSON at line 1, column 25 (close brace expected)",
  ]);
  assertEquals(mcpClientsCheck(scan, 3).status, "warn");
  const withGood = await scanClientFiles(
    [cursor, vscode],
    target,
    fakeFs({
      [cursor.path]: JSON.stringify({ mcpServers: { hub: hubHttp(SECRET) } }),
      [vscode.path]: "{ broken",
    }),
  );
  const check = mcpClientsCheck(withGood, 2);
  assertEquals(check.status, "warn");
  assertMatch(check.fix!, /^fix or remove \/c\/Code\/User\/settings\.json/);
});

Deno.test("the list of findings is bounded", async () => {
  const servers = Object.fromEntries(
    Array.from({ length: 50 }, (_, i) => [`hub${i}`, hubHttp(SECRET)]),
  );
  const scan = await scanClientFiles(
    [cursor],
    target,
    fakeFs({
      [cursor.path]: JSON.stringify({ mcpServers: servers }),
    }),
  );
  const lines = mcpClientsCheck(scan, 1).message.split("\n");
  assertEquals(lines.length, 13);
  assertEquals(lines.at(-1), "…and 39 more");
});
