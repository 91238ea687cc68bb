/**
 * `hub setup` as a process, in a temporary home: choosing clients (named, found, asked), exit codes,
 * `--json`, and a refused file next to a written one. The edits themselves are tested in
 * core/mcp_clients/ and tests/setup_test.ts.
 */
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { runHub } from "../../tests/helpers/hub_process.ts";

async function home(): Promise<{ dir: string; env: Record<string, string>; configDir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "hub-setup-cmd-" });
  const env = {
    HOME: dir,
    USERPROFILE: dir,
    APPDATA: `${dir}/AppData`,
    XDG_CONFIG_HOME: `${dir}/.config`,
    CODEX_HOME: `${dir}/.codex`,
    HUB_PORT: "9599",
    // Deno's cache stays where it is (by default it follows HOME).
    DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
  };
  return { dir, env, configDir: `${dir}/hub` };
}

const setup = (args: string[], h: Awaited<ReturnType<typeof home>>) =>
  runHub(["setup", ...args], { configDir: h.configDir, env: h.env, cwd: h.dir });

Deno.test("hub setup: found clients need --yes when there is no terminal; --yes sets them up", async () => {
  const h = await home();
  try {
    await Deno.mkdir(`${h.dir}/.cursor`);
    await Deno.mkdir(`${h.dir}/.gemini`);
    const refused = await setup([], h);
    assertEquals(refused.code, 1);
    assertMatch(refused.stderr, /Found cursor, gemini on this machine; nothing was changed/);
    assert(!(await exists(`${h.dir}/.cursor/mcp.json`)));
    const done = await setup(["--yes"], h);
    assertEquals(done.code, 0, done.stderr);
    assertMatch(done.stdout, /cursor +~\/\.cursor\/mcp\.json {2}added \(http\)/);
    assertMatch(done.stdout, /gemini +~\/\.gemini\/settings\.json {2}added \(http\)/);
    const written = JSON.parse(await Deno.readTextFile(`${h.dir}/.cursor/mcp.json`));
    assertEquals(written.mcpServers.hub.url, "http://127.0.0.1:9599/mcp");
    assertEquals((await Deno.stat(`${h.dir}/.cursor/mcp.json`)).mode! & 0o777, 0o600);
    const again = await setup(["cursor", "--json"], h);
    assertEquals(again.code, 0, again.stderr);
    const report = JSON.parse(again.stdout);
    assertEquals(report.clients.map((c: { outcome: string }) => c.outcome), ["up-to-date"]);
  } finally {
    await Deno.remove(h.dir, { recursive: true });
  }
});

Deno.test("hub setup: a broken file is refused (exit 1, untouched) while the others are done", async () => {
  const h = await home();
  try {
    await Deno.mkdir(`${h.dir}/.cursor`);
    const broken = '{ "mcpServers": { "x": { "url": "u" }, }\n  oops\n}\n';
    await Deno.writeTextFile(`${h.dir}/.cursor/mcp.json`, broken);
    const r = await setup(["cursor", "windsurf", "--json"], h);
    assertEquals(r.code, 1);
    const report = JSON.parse(r.stdout);
    assertEquals(report.clients.map((c: { outcome: string }) => c.outcome), ["refused", "added"]);
    assertMatch(report.clients[0].error, /line|:\d+/);
    assertMatch(r.stderr, /1 of 2 client\(s\) refused \(cursor\)/);
    assertEquals(await Deno.readTextFile(`${h.dir}/.cursor/mcp.json`), broken);
  } finally {
    await Deno.remove(h.dir, { recursive: true });
  }
});

Deno.test("hub setup: bad names, modes and scopes are user errors that change nothing", async () => {
  const h = await home();
  try {
    const cases: [string[], RegExp][] = [
      [["cursr"], /Unknown client "cursr"/],
      [["cursor", "--mode", "sse"], /--mode must be http, gateway or stdio/],
      [["windsurf", "--project"], /windsurf has no project settings file/],
      [["cursor", "--name", "a b"], /--name must be/],
      [[], /No MCP client found on this machine/],
    ];
    for (const [args, message] of cases) {
      const r = await setup(args, h);
      assertEquals(r.code, 1, args.join(" "));
      assertMatch(r.stderr, message);
    }
    assertEquals([...Deno.readDirSync(h.dir)].map((e) => e.name), []);
  } finally {
    await Deno.remove(h.dir, { recursive: true });
  }
});

Deno.test("hub config rotate-secret names the clients to set up again; hub setup updates them", async () => {
  const h = await home();
  try {
    await Deno.mkdir(`${h.dir}/.codeium/windsurf`, { recursive: true });
    assertEquals((await setup(["windsurf", "codex"], h)).code, 0);
    const rotate = await runHub(["config", "rotate-secret", "--confirm"], {
      configDir: h.configDir,
      env: h.env,
      cwd: h.dir,
    });
    assertEquals(rotate.code, 0, rotate.stderr);
    assertMatch(
      rotate.stdout,
      /still hold the old secret \(windsurf, codex\): run "hub setup windsurf codex"/,
    );
    const again = await setup(["windsurf", "codex"], h);
    assertEquals(again.code, 0, again.stderr);
    assertMatch(again.stdout, /windsurf .* updated \(secret changed\)/);
    assertMatch(again.stdout, /codex .* updated \(secret changed\)/);
  } finally {
    await Deno.remove(h.dir, { recursive: true });
  }
});

Deno.test("hub setup: after a rotation the fix keeps the entry's --name and mode", async () => {
  const h = await home();
  try {
    const file = `${h.dir}/.cursor/mcp.json`;
    await Deno.mkdir(`${h.dir}/.cursor`);
    assertEquals((await setup(["cursor", "--name", "browser", "--mode", "gateway"], h)).code, 0);
    const rotate = await runHub(["config", "rotate-secret", "--confirm"], {
      configDir: h.configDir,
      env: h.env,
      cwd: h.dir,
    });
    assertEquals(rotate.code, 0, rotate.stderr);
    assertMatch(rotate.stdout, /run "hub setup --name browser --mode gateway cursor"/);
    // Without --mode too, the update keeps the entry's mode.
    const again = await setup(["--name", "browser", "cursor"], h);
    assertEquals(again.code, 0, again.stderr);
    assertMatch(again.stdout, /cursor .* updated \(secret changed\)/);
    const servers = JSON.parse(await Deno.readTextFile(file)).mcpServers;
    assertEquals(Object.keys(servers), ["browser"]);
    assertMatch(servers.browser.url, /\/mcp\/gateway$/);
  } finally {
    await Deno.remove(h.dir, { recursive: true });
  }
});

Deno.test("hub setup --json: an early error is JSON too; --force replaces a foreign entry", async () => {
  const h = await home();
  try {
    const bad = await setup(["nosuch", "--json"], h);
    assertEquals(bad.code, 1);
    const out = JSON.parse(bad.stdout);
    assertEquals(out.clients, []);
    assertMatch(out.error, /nosuch/);
    const file = `${h.dir}/.cursor/mcp.json`;
    await Deno.mkdir(`${h.dir}/.cursor`);
    const theirs = JSON.stringify({ mcpServers: { hub: { command: "their-hub" } } });
    await Deno.writeTextFile(file, theirs);
    const refused = await setup(["cursor"], h);
    assertEquals(refused.code, 1);
    assertEquals(await Deno.readTextFile(file), theirs);
    const forced = await setup(["cursor", "--force"], h);
    assertEquals(forced.code, 0, forced.stderr);
    assertMatch(JSON.parse(await Deno.readTextFile(file)).mcpServers.hub.url, /\/mcp$/);
  } finally {
    await Deno.remove(h.dir, { recursive: true });
  }
});

Deno.test("hub setup --dry-run: a file's hidden characters are escaped in the diff", async () => {
  const h = await home();
  try {
    await Deno.mkdir(`${h.dir}/.cursor`);
    const text = '{\n  // \u001b[31mred\u202e\n  "mcpServers": {}\n}\n';
    await Deno.writeTextFile(`${h.dir}/.cursor/mcp.json`, text);
    const r = await setup(["cursor", "--dry-run"], h);
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /\/\/ ⟨U\+001B⟩\[31mred⟨U\+202E⟩/);
    assertEquals(await Deno.readTextFile(`${h.dir}/.cursor/mcp.json`), text);
  } finally {
    await Deno.remove(h.dir, { recursive: true });
  }
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
