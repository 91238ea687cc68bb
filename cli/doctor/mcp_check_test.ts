import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import {
  commandExists,
  type FileAccess,
  MAX_CONFIG_BYTES,
  mcpClientsCheck,
  scanClientFiles,
  setupCommands,
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
  assertEquals(
    check.fix,
    'run "hub setup cursor" and "hub setup --name gw cursor" (it updates hub\'s entry in ' +
      "place), then restart that client",
  );
  const text = JSON.stringify(check);
  assertEquals(text.includes(SECRET) || text.includes(old), false);
});

Deno.test("no client set up: a warning whose fix is hub setup", async () => {
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
  assertMatch(check.fix!, /^run "hub setup" to connect your MCP clients/);
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

Deno.test("stale fix: hub setup per scope; by hand for a file setup does not write", async () => {
  const project: ClientFile = { ...cursor, scope: "project", path: "/p/.cursor/mcp.json" };
  const stale = JSON.stringify({ mcpServers: { hub: hubHttp("e".repeat(64)) } });
  const all = [claude, cursor, project, vscode];
  const scan = await scanClientFiles(
    all,
    target,
    fakeFs({
      [claude.path]: stale,
      [cursor.path]: stale,
      [project.path]: stale,
      [vscode.path]: JSON.stringify({ "mcp.servers": { hub: hubHttp("e".repeat(64)) } }),
    }),
  );
  assertEquals(setupCommands(all), [
    "hub setup claude-code cursor",
    "hub setup --project cursor",
  ]);
  assertEquals(
    mcpClientsCheck(scan, all.length).fix,
    'run "hub setup claude-code cursor" and "hub setup --project cursor" (it updates hub\'s ' +
      "entry in place); replace the hub entry in /c/Code/User/settings.json with the block " +
      '"hub start --show-config" prints, then restart that client',
  );
});

Deno.test("stale fix: an entry with another name is updated with --name", async () => {
  const stale = JSON.stringify({
    mcpServers: { hub: hubHttp("e".repeat(64)), browser: hubHttp("e".repeat(64)) },
  });
  const scan = await scanClientFiles([cursor], target, fakeFs({ [cursor.path]: stale }));
  assertEquals(
    mcpClientsCheck(scan, 1).fix,
    'run "hub setup cursor" and "hub setup --name browser cursor" (it updates hub\'s entry in ' +
      "place), then restart that client",
  );
});

Deno.test("codex: config.toml entries are read (url + http_headers, stdio); broken TOML says where", async () => {
  const codex: ClientFile = {
    ...row,
    client: "Codex",
    id: "codex",
    path: "/h/.codex/config.toml",
    format: "codexToml",
    shape: "codex",
  };
  const toml = [
    'model = "o3"',
    "[mcp_servers.hub]",
    'url = "http://127.0.0.1:9515/mcp"',
    `http_headers = { Authorization = "Bearer ${SECRET}" }`,
    "[mcp_servers.old]",
    'url = "http://127.0.0.1:9515/mcp/gateway"',
    "[mcp_servers.old.http_headers]",
    'Authorization = "Bearer nope"',
    "[mcp_servers.bridge]",
    'command = "/usr/local/bin/hub"',
    'args = ["start", "--stdio", "--port", "9515"]',
    "[mcp_servers.other]",
    'command = "npx"',
  ].join("\n");
  const scan = await scanClientFiles([codex], target, fakeFs({ [codex.path]: toml }));
  assertEquals(scan.findings.map((f) => `${f.name} ${f.verdict.kind}`), [
    "hub current",
    "old stale",
    "bridge current",
  ]);
  const broken = await scanClientFiles(
    [codex],
    target,
    fakeFs({ [codex.path]: "[mcp_servers\nx" }),
  );
  assertMatch(broken.problems[0].why, /^not valid TOML at line 1, column \d+$/);
  assertEquals(
    mcpClientsCheck(scan, 1).fix,
    'run "hub setup --name old --mode gateway codex" (it updates hub\'s entry in place), then ' +
      "restart that client",
  );
});

Deno.test("commandExists: absolute paths, PATH folders, Windows extensions", () => {
  const files = new Set(["/usr/bin/deno", "/opt/hub", "C:\\npm\\hub.CMD"]);
  const isFile = (p: string) => files.has(p);
  const env = (vars: Record<string, string>) => (n: string) => vars[n];
  const unix = env({ PATH: "/usr/local/bin:/usr/bin:rel" });
  assertEquals(commandExists("/opt/hub", unix, "linux", isFile), true);
  assertEquals(commandExists("/opt/gone", unix, "linux", isFile), false);
  assertEquals(commandExists("deno", unix, "linux", isFile), true);
  assertEquals(commandExists("hub", unix, "linux", isFile), false);
  assertEquals(commandExists("./hub", unix, "linux", isFile), true, "relative: not judged");
  const win = env({ Path: "C:\\npm", PATHEXT: ".EXE;.CMD" });
  assertEquals(commandExists("hub", win, "windows", isFile), true);
  assertEquals(commandExists("deno", win, "windows", isFile), false);
});
