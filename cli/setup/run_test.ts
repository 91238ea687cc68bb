import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/helpers/assert.ts";
import { type ClientFile, setupTarget } from "../../core/mcp_clients/clients.ts";
import { hubEntry } from "../../core/mcp_clients/entry.ts";
import { editJsonEntry } from "../../core/mcp_clients/edit_json.ts";
import { editTomlEntry } from "../../core/mcp_clients/edit_toml.ts";
import { SetupError } from "../../core/mcp_clients/setup_error.ts";
import {
  hideSecret,
  hideSecrets,
  modeFor,
  npxWarning,
  PROJECT_WARNING,
  resultLine,
  setupClient,
  type SetupDeps,
  type SetupPlan,
  transportFor,
} from "./run.ts";

const SECRET = "s".repeat(40);
const ctx = { os: "linux" as const, home: "/h", cwd: "/h/p", env: () => undefined };
const file = (id: Parameters<typeof setupTarget>[0], scope: "user" | "project" = "user") =>
  setupTarget(id, scope, ctx) as ClientFile;

function fakeDeps(files: Record<string, string>, secret = SECRET) {
  const writes: { path: string; text: string; mode?: number; expected?: string }[] = [];
  const deps: SetupDeps = {
    read: (path) => Promise.resolve(path in files ? { text: files[path], mode: 0o600 } : undefined),
    write: (path, text, mode, expected) => {
      writes.push({ path, text, mode, expected });
      files[path] = text;
      return Promise.resolve({});
    },
    permissionsWarning: (path) =>
      Promise.resolve(path.endsWith("open.json") ? "readable by others" : undefined),
    editJson: editJsonEntry,
    editToml: editTomlEntry,
    entry: (f, mode) =>
      hubEntry(f.shape, {
        port: 9515,
        secret,
        mode,
        stdio: { command: "/bin/hub", args: ["start", "--stdio", "--port", "9515"] },
        transport: transportFor(f, mode),
      }),
  };
  return { deps, writes, files };
}

const plan = (over: Partial<SetupPlan> = {}): SetupPlan => ({
  name: "hub",
  remove: false,
  dryRun: false,
  secret: SECRET,
  show: (p) => p.replace("/h/", "~/"),
  ...over,
});

Deno.test("setupClient: adds, then is up to date, then updates with the reason", async () => {
  const { deps, writes, files } = fakeDeps({});
  const cursor = file("cursor");
  const added = await setupClient(cursor, plan(), deps);
  assertEquals([added.outcome, added.mode, added.transport], ["added", "http", "http"]);
  assertEquals(writes.map((w) => [w.path, w.mode, w.expected]), [
    ["/h/.cursor/mcp.json", undefined, ""],
  ]);
  assertEquals(resultLine(added, plan()), "cursor         ~/.cursor/mcp.json  added (http)");
  const again = await setupClient(cursor, plan(), deps);
  assertEquals(again.outcome, "up-to-date");
  assertEquals(writes.length, 1);
  const before = files["/h/.cursor/mcp.json"];
  const rotated = fakeDeps(files, "t".repeat(40));
  const updated = await setupClient(cursor, plan(), rotated.deps);
  assertEquals([updated.outcome, updated.reason], ["updated", "secret changed"]);
  assertEquals(rotated.writes[0].expected, before);
  assertMatch(resultLine(updated, plan()), /updated \(secret changed\)$/);
});

Deno.test("setupClient --dry-run: a diff with the secret shortened, nothing written", async () => {
  const { deps, writes } = fakeDeps({ "/h/.codex/config.toml": "[other]\nx = 1\n" });
  const result = await setupClient(file("codex"), plan({ dryRun: true }), deps);
  assertEquals(result.outcome, "added");
  assertEquals(writes, []);
  assert(result.diff?.startsWith("--- ~/.codex/config.toml\n+++ ~/.codex/config.toml\n"));
  assert(!result.diff?.includes(SECRET));
  assertMatch(result.diff ?? "", /\+Authorization = "Bearer s{8}…"/);
  assertMatch(resultLine(result, plan({ dryRun: true })), /would be added \(http\)$/);
});

Deno.test("setupClient: a broken file is refused and left alone", async () => {
  const { deps, writes } = fakeDeps({ "/h/.cursor/mcp.json": '{ "mcpServers": { ' });
  const result = await setupClient(file("cursor"), plan(), deps);
  assertEquals(result.outcome, "refused");
  assertEquals(writes, []);
  assertMatch(resultLine(result, plan()), /refused: .*line/);
});

Deno.test("setupClient: a SetupError from the write is a refusal; a bug is thrown", async () => {
  const { deps } = fakeDeps({});
  deps.write = () => Promise.reject(new SetupError("the file is read-only"));
  const result = await setupClient(file("gemini"), plan(), deps);
  assertEquals([result.outcome, result.error], ["refused", "the file is read-only"]);
  deps.write = () => Promise.reject(new TypeError("bug"));
  await assertRejects(() => setupClient(file("gemini"), plan(), deps), TypeError);
});

Deno.test("setupClient --remove: absent file, then a removal", async () => {
  const { deps, writes, files } = fakeDeps({});
  const absent = await setupClient(file("windsurf"), plan({ remove: true }), deps);
  assertEquals([absent.outcome, absent.mode, writes.length], ["absent", undefined, 0]);
  await setupClient(file("windsurf"), plan(), deps);
  const removed = await setupClient(file("windsurf"), plan({ remove: true }), deps);
  assertEquals(removed.outcome, "removed");
  assert(!files["/h/.codeium/windsurf/mcp_config.json"].includes("hub"));
});

Deno.test("modeFor: stdio-only clients connect over stdio, gateway included", () => {
  const desktop = file("claude-desktop");
  assertEquals(modeFor(desktop, undefined), "stdio");
  assertEquals(modeFor(desktop, "http"), "stdio");
  assertEquals([modeFor(desktop, "gateway"), transportFor(desktop, "gateway")], [
    "gateway",
    "stdio",
  ]);
  assertEquals(modeFor(file("vscode"), undefined), "http");
  assertEquals(transportFor(file("vscode"), "stdio"), "stdio");
});

Deno.test("setupClient: stdio entries carry no secret, so no permission warning", async () => {
  const { deps } = fakeDeps({ "/h/.config/Claude/open.json": "{}" });
  const desktop = { ...file("claude-desktop"), path: "/h/.config/Claude/open.json" };
  const result = await setupClient(desktop, plan({ mode: "gateway" }), deps);
  assertEquals([result.outcome, result.warning], ["added", undefined]);
  assertMatch(resultLine(result, plan()), /added \(gateway over stdio\)$/);
});

Deno.test("setupClient: warnings for a readable file and for a project file with the secret", async () => {
  const { deps } = fakeDeps({ "/h/open.json": "{}" });
  const open = { ...file("cursor"), path: "/h/open.json" };
  assertEquals((await setupClient(open, plan(), deps)).warning, "readable by others");
  const project = await setupClient(file("claude-code", "project"), plan(), deps);
  assertEquals(project.warning, PROJECT_WARNING);
  const stdio = await setupClient(file("vscode", "project"), plan({ mode: "stdio" }), deps);
  assertEquals(stdio.warning, undefined);
});

Deno.test("hideSecret: hub's secret and every Bearer token are shortened", () => {
  assertEquals(
    hideSecret(`a ${SECRET} "Bearer abcdefghijklmnop" Bearer short`, SECRET),
    'a ssssssss… "Bearer abcdefgh…" Bearer short',
  );
});

Deno.test("setupClient: without --mode an update keeps the entry's mode (gateway, stdio)", async () => {
  const cursor = file("cursor");
  for (const mode of ["gateway", "stdio"] as const) {
    const { deps, files } = fakeDeps({});
    await setupClient(cursor, plan({ mode }), fakeDeps(files, "o".repeat(40)).deps);
    const updated = await setupClient(cursor, plan(), deps);
    assertEquals([updated.outcome, updated.mode], [
      mode === "stdio" ? "up-to-date" : "updated",
      mode,
    ]);
    const again = await setupClient(cursor, plan(), deps);
    assertEquals([again.outcome, again.mode], ["up-to-date", mode]);
    // --mode still changes it.
    assertEquals((await setupClient(cursor, plan({ mode: "http" }), deps)).mode, "http");
  }
  const desktop = file("claude-desktop");
  const { deps } = fakeDeps({});
  await setupClient(desktop, plan({ mode: "gateway" }), deps);
  assertEquals((await setupClient(desktop, plan(), deps)).mode, "gateway");
});

Deno.test("hideSecrets: other servers' tokens, keys and passwords are shortened in every line", () => {
  assertEquals(
    hideSecrets(`"GITHUB_TOKEN": "ghp_REALTOKEN123456", "X-Api-Key": 'sk-live-abcdefgh'`, SECRET),
    `"GITHUB_TOKEN": "ghp_…", "X-Api-Key": 'sk-l…'`,
  );
  assertEquals(hideSecrets(`DB_PASSWORD = "hunter2hunter2"`, undefined), `DB_PASSWORD = "hunt…"`);
  assertEquals(
    hideSecrets(`"url": "https://x.dev/mcp?api_key=abcdefghijkl&x=1"`, undefined),
    `"url": "https://x.dev/mcp?api_key=abcd…&x=1"`,
  );
  const auth = `"Authorization": "Bearer ${SECRET}"`;
  assertEquals(hideSecrets(auth, SECRET), `"Authorization": "Bearer ${SECRET.slice(0, 8)}…"`);
  assertEquals(
    hideSecrets(`"command": "npx", "keyboard": "on"`, SECRET),
    `"command": "npx", "keyboard": "on"`,
  );
});

Deno.test("setupClient --dry-run: the diff hides other servers' secrets in context lines", async () => {
  const cursor = file("cursor");
  const text = JSON.stringify(
    { mcpServers: { gh: { command: "gh", env: { GITHUB_TOKEN: "ghp_REALTOKEN123456" } } } },
    null,
    2,
  );
  const { deps } = fakeDeps({ [cursor.path]: text });
  const result = await setupClient(cursor, plan({ dryRun: true }), deps);
  assert(result.diff?.includes(`"GITHUB_TOKEN": "ghp_…"`), result.diff);
  assert(!result.diff?.includes("REALTOKEN"));
  assert(!result.diff?.includes(SECRET));
});

Deno.test("npxWarning: only a command in npx's cache; said for stdio entries only", async () => {
  const npx = "/h/.npm/_npx/1a2b/node_modules/deno/bin/deno";
  assertMatch(npxWarning(npx) ?? "", /npx's cache, which npm may delete/);
  assertEquals(npxWarning("/h/.deno/bin/deno"), undefined);
  assertMatch(
    npxWarning("C:\\Users\\me\\AppData\\Local\\npm-cache\\_npx\\1\\deno.exe") ?? "",
    /npm/,
  );
  const stdioWarning = npxWarning(npx);
  const { deps } = fakeDeps({});
  const stdio = await setupClient(file("cursor"), plan({ mode: "stdio", stdioWarning }), deps);
  assertEquals(stdio.warning, stdioWarning);
  const http = await setupClient(file("gemini"), plan({ stdioWarning }), deps);
  assertEquals(http.warning, undefined);
});

Deno.test("setupClient: a file holding the secret is written private; write warnings are shown", async () => {
  const { deps, writes } = fakeDeps({});
  const how: (boolean | undefined)[] = [];
  const write = deps.write;
  deps.write = async (path, text, mode, expected, options) => {
    how.push(options?.private);
    await write(path, text, mode, expected);
    return { warnings: ["made private: was 0644"] };
  };
  const http = await setupClient(file("cursor"), plan(), deps);
  assertEquals(http.warning, "made private: was 0644");
  await setupClient(file("gemini"), plan({ mode: "stdio" }), deps);
  assertEquals([how, writes.length], [[true, false], 2]);
});

Deno.test("setupClient --dry-run: a file others can read would be made private", async () => {
  const { deps } = fakeDeps({ "/h/.cursor/mcp.json": "{}" });
  deps.read = (path) => Promise.resolve({ text: path ? "{}" : "", mode: 0o100644 });
  const result = await setupClient(file("cursor"), plan({ dryRun: true }), deps);
  assertEquals(result.warning, "would be made private: was 0644");
  const stdio = await setupClient(file("cursor"), plan({ dryRun: true, mode: "stdio" }), deps);
  assertEquals(stdio.warning, undefined);
});
