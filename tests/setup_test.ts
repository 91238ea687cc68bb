/**
 * `hub setup` end to end on a temporary HOME holding realistic settings files of every client it
 * writes into (JSONC with comments and other servers, TOML with other tables): set up, run again
 * (up to date), updated after `hub config rotate-secret` and after a port change, dry-run, removed;
 * every byte outside hub's entry kept. `hub doctor` reports every configured client current.
 * Broken files, symlinks, read-only and world-readable files: tests/setup_files_test.ts.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { exists, freePort } from "./helpers/hub_process.ts";
import {
  assertOnlyEntryChanged,
  type ClientCase,
  entryOf,
  httpTarget,
  hubIn,
  makeHome,
  modeOf,
  placeFixture,
  PROJECT_CASES,
  type SetupClientJson,
  setupJson,
  type TempHome,
  USER_CASES,
} from "./helpers/setup_home.ts";

const ALL = [...USER_CASES, ...PROJECT_CASES];
const USER_IDS = USER_CASES.map((c) => c.id);
const PROJECT_IDS = PROJECT_CASES.map((c) => c.id);

async function secretOf(h: TempHome): Promise<string> {
  return JSON.parse(await Deno.readTextFile(join(h.configDir, "extension", "auth.json"))).secret;
}

/** The files' texts now. */
async function snapshot(h: TempHome, cases = ALL): Promise<Map<ClientCase, string>> {
  const out = new Map<ClientCase, string>();
  for (const c of cases) out.set(c, await Deno.readTextFile(c.path(h)));
  return out;
}

/** Runs setup for the user files and the project files; one report line per file. */
async function setupAll(h: TempHome, args: string[]): Promise<SetupClientJson[]> {
  const user = await setupJson(h, [...USER_IDS, ...args]);
  assertEquals(user.result.code, 0, user.result.stderr + user.result.stdout);
  const project = await setupJson(h, [...PROJECT_IDS, "--project", ...args]);
  assertEquals(project.result.code, 0, project.result.stderr + project.result.stdout);
  return [...user.clients, ...project.clients];
}

function outcomes(clients: SetupClientJson[]): Record<string, string> {
  return Object.fromEntries(clients.map((c) => [c.path, c.outcome]));
}

function expectAll(h: TempHome, outcome: (c: ClientCase) => string): Record<string, string> {
  return Object.fromEntries(ALL.map((c) => [c.path(h), outcome(c)]));
}

/** The entry reaches this hub: HTTP with the port and the secret, or a stdio bridge to the port. */
function assertEntry(c: ClientCase, text: string, port: number, secret: string) {
  const entry = entryOf(c, text);
  assert(entry, `${c.id}: no hub entry in\n${text}`);
  if (c.id === "claude-desktop") {
    // A stdio-only client: the default mode gives it the bridge, which reads the secret itself.
    assertEquals(typeof entry.command, "string", JSON.stringify(entry));
    assert((entry.args as string[]).includes("--stdio"), JSON.stringify(entry));
    assertEquals(JSON.stringify(entry).includes(secret), false, "no secret in a stdio entry");
    return;
  }
  const { url, headers } = httpTarget(entry);
  assertEquals(new URL(url).port, String(port), c.id);
  assertEquals(new URL(url).pathname.replace(/\/$/, ""), "/mcp", c.id);
  const auth = Object.entries(headers).find(([k]) => k.toLowerCase() === "authorization")?.[1];
  assertEquals(auth, `Bearer ${secret}`, c.id);
}

async function doctorMcp(h: TempHome, port: number) {
  const result = await hubIn(h, ["doctor", "--json", "--port", String(port)]);
  const report = JSON.parse(result.stdout);
  return report.checks.find((c: { id: string }) => c.id === "mcp_clients");
}

Deno.test("hub setup: every client set up, kept up to date, rotated, dry-run and removed", async (t) => {
  const h = await makeHome();
  try {
    const originals = new Map<ClientCase, string>();
    for (const c of ALL) originals.set(c, await placeFixture(h, c));
    const created = await hubIn(h, ["config", "rotate-secret", "--confirm"]);
    assertEquals(created.code, 0, created.stderr);
    let secret = await secretOf(h);
    const port = freePort();
    const portArgs = ["--port", String(port)];

    await t.step("set up: added, only hub's entry new, backup of the first version", async () => {
      const clients = await setupAll(h, portArgs);
      assertEquals(outcomes(clients), expectAll(h, () => "added"));
      for (const c of ALL) {
        const text = await Deno.readTextFile(c.path(h));
        assertEntry(c, text, port, secret);
        assertOnlyEntryChanged(c, originals.get(c)!, text);
        assertEquals(await Deno.readTextFile(`${c.path(h)}.hub-backup`), originals.get(c), c.id);
        assertEquals(await modeOf(c.path(h)), 0o600, `${c.id}: the file's mode is kept`);
      }
    });

    await t.step("again: up to date, nothing written", async () => {
      const before = await snapshot(h);
      const clients = await setupAll(h, portArgs);
      assertEquals(outcomes(clients), expectAll(h, () => "up-to-date"));
      assertEquals(await snapshot(h), before);
    });

    await t.step("doctor: every configured client current", async () => {
      const mcp = await doctorMcp(h, port);
      assertEquals(mcp.status, "pass", mcp.message);
      for (const c of ALL) assertMatch(mcp.message, new RegExp(`${c.path(h)} "hub": current`));
    });

    await t.step("rotate-secret: offers hub setup; doctor's fix names it", async () => {
      const rotated = await hubIn(h, ["config", "rotate-secret", "--confirm", ...portArgs]);
      assertEquals(rotated.code, 0, rotated.stderr);
      // The stale ones are named (not Claude Desktop's stdio bridge, which reads the secret).
      assertMatch(rotated.stdout, /old secret \(.*cursor.*\): run "hub setup [^"]*cursor[^"]*"/);
      assertMatch(rotated.stdout, /"hub setup [^"]*codex[^"]*"/);
      assertEquals(/claude-desktop/.test(rotated.stdout), false, rotated.stdout);
      assertEquals(rotated.stdout.includes(await secretOf(h)), false);
      const mcp = await doctorMcp(h, port);
      assertEquals(mcp.status, "warn", mcp.message);
      assertMatch(mcp.message, /STALE: its Bearer secret is not the current one/);
      assertMatch(mcp.fix, /hub setup [a-z-]+/);
    });

    await t.step("after the rotation: the secret updated in place, backup untouched", async () => {
      const before = await snapshot(h);
      secret = await secretOf(h);
      const dry = await hubIn(h, ["setup", "--dry-run", ...USER_IDS, ...portArgs]);
      assertEquals(dry.code, 0, dry.stderr);
      assertMatch(dry.stdout, /^\+.*Bearer /m);
      assertMatch(dry.stdout, /^-.*Bearer /m);
      assertEquals(dry.stdout.includes(secret), false, "the diff shortens the secret");
      assertEquals(await snapshot(h), before, "a dry-run writes nothing");
      const clients = await setupAll(h, portArgs);
      assertEquals(
        outcomes(clients),
        expectAll(h, (c) => c.id === "claude-desktop" ? "up-to-date" : "updated"),
      );
      for (const c of ALL) {
        const text = await Deno.readTextFile(c.path(h));
        assertEntry(c, text, port, secret);
        assertOnlyEntryChanged(c, before.get(c)!, text);
        assertEquals(await Deno.readTextFile(`${c.path(h)}.hub-backup`), originals.get(c), c.id);
      }
      const mcp = await doctorMcp(h, port);
      assertEquals(mcp.status, "pass", mcp.message);
    });

    await t.step("another port: updated in place", async () => {
      const before = await snapshot(h, USER_CASES);
      const other = port + 1;
      const { result, clients } = await setupJson(h, [...USER_IDS, "--port", String(other)]);
      assertEquals(result.code, 0, result.stderr);
      assert(clients.every((c) => c.outcome === "updated"), JSON.stringify(clients));
      for (const c of USER_CASES) {
        const text = await Deno.readTextFile(c.path(h));
        assertEntry(c, text, other, secret);
        assertOnlyEntryChanged(c, before.get(c)!, text);
      }
      await setupAll(h, portArgs);
    });

    await t.step("dry-run: a diff printed, nothing written", async () => {
      const before = await snapshot(h);
      const result = await hubIn(h, ["setup", "--remove", "--dry-run", ...USER_IDS]);
      assertEquals(result.code, 0, result.stderr);
      assertMatch(result.stdout, /^-.*"hub"/m);
      assertMatch(result.stdout, /^-\s*\[mcp_servers\.hub\]/m);
      assertEquals(await snapshot(h), before);
      const json = await setupJson(h, ["--remove", "--dry-run", ...USER_IDS]);
      assertEquals(json.clients.map((c) => c.outcome), USER_IDS.map(() => "removed"));
      assertEquals(await snapshot(h), before);
    });

    await t.step("remove: only hub's entry gone, the rest as the user wrote it", async () => {
      const before = await snapshot(h);
      const user = await setupJson(h, ["--remove", ...USER_IDS]);
      const project = await setupJson(h, ["--remove", "--project", ...PROJECT_IDS]);
      assertEquals(outcomes([...user.clients, ...project.clients]), expectAll(h, () => "removed"));
      for (const c of ALL) {
        const text = await Deno.readTextFile(c.path(h));
        assertEquals(entryOf(c, text), undefined, c.id);
        assertOnlyEntryChanged(c, before.get(c)!, text);
        assertEquals(text, originals.get(c), `${c.id}: back to the user's own bytes`);
      }
      const again = await setupJson(h, ["--remove", ...USER_IDS]);
      assertEquals(again.result.code, 0, again.result.stderr);
      assertEquals(again.clients.map((c) => c.outcome), USER_IDS.map(() => "absent"));
    });
  } finally {
    await Deno.remove(h.base, { recursive: true });
  }
});

Deno.test("hub setup: a missing file is created for the user alone, with no backup", async () => {
  const h = await makeHome();
  try {
    await hubIn(h, ["config", "rotate-secret", "--confirm"]);
    const port = freePort();
    const { result, clients } = await setupJson(h, [...USER_IDS, "--port", String(port)]);
    assertEquals(result.code, 0, result.stderr);
    assertEquals(clients.map((c) => c.outcome), USER_IDS.map(() => "added"));
    for (const c of USER_CASES) {
      assertEquals(await modeOf(c.path(h)), 0o600, c.id);
      assertEquals(await exists(`${c.path(h)}.hub-backup`), false, c.id);
      assertEntry(c, await Deno.readTextFile(c.path(h)), port, await secretOf(h));
    }
    assertEquals(await modeOf(join(h.home, ".cursor")), 0o700);
  } finally {
    await Deno.remove(h.base, { recursive: true });
  }
});

Deno.test("hub setup: detection, --yes, names, modes and a client with no project scope", async (t) => {
  const h = await makeHome();
  try {
    await hubIn(h, ["config", "rotate-secret", "--confirm"]);
    await Deno.mkdir(join(h.home, ".cursor"));
    await Deno.mkdir(join(h.home, ".gemini"));

    await t.step(
      "not a terminal and no --yes: says what it would do, exit 1, nothing written",
      async () => {
        const result = await hubIn(h, ["setup"]);
        assertEquals(result.code, 1);
        assertMatch(result.stdout + result.stderr, /--yes/);
        assertEquals(await exists(join(h.home, ".cursor", "mcp.json")), false);
      },
    );

    await t.step("--yes: the detected clients only", async () => {
      const { result, clients } = await setupJson(h, ["--yes"]);
      assertEquals(result.code, 0, result.stderr);
      assertEquals(clients.map((c) => c.client).sort(), ["cursor", "gemini"]);
      assertEquals(await exists(join(h.home, ".codex", "config.toml")), false);
    });

    await t.step("--name and --mode gateway", async () => {
      const cursor = USER_CASES.find((c) => c.id === "cursor")!;
      const { result } = await setupJson(h, ["cursor", "--mode", "gateway", "--name", "hub-gw"]);
      assertEquals(result.code, 0, result.stderr);
      const text = await Deno.readTextFile(cursor.path(h));
      assertMatch(httpTarget(entryOf(cursor, text, "hub-gw")!).url, /\/mcp\/gateway$/);
      assert(entryOf(cursor, text, "hub"), "the other entry is kept");
    });

    await t.step("--project for a client without a project file: a clear error", async () => {
      const { result, clients } = await setupJson(h, ["windsurf", "--project"]).catch(async () => ({
        result: await hubIn(h, ["setup", "windsurf", "--project"]),
        clients: [],
      }));
      assertEquals(result.code, 1);
      assertMatch(result.stdout + result.stderr + JSON.stringify(clients), /project/);
    });

    await t.step("an unknown client: exit 1", async () => {
      const result = await hubIn(h, ["setup", "notepad"]);
      assertEquals(result.code, 1);
      assertMatch(result.stderr, /notepad/);
    });
  } finally {
    await Deno.remove(h.base, { recursive: true });
  }
});

Deno.test("hub setup: an old hub entry (bare hub command, another port) is replaced in place", async () => {
  const h = await makeHome();
  try {
    await hubIn(h, ["config", "rotate-secret", "--confirm"]);
    const desktop = USER_CASES.find((c) => c.id === "claude-desktop")!;
    const codex = USER_CASES.find((c) => c.id === "codex")!;
    const oldDesktop = (await placeFixture(h, desktop)).replace(
      '        "memory": {',
      '        "hub": { "command": "hub", "args": ["start", "--stdio", "--port", "9999"] },\n' +
        '        "memory": {',
    );
    await Deno.writeTextFile(desktop.path(h), oldDesktop);
    const oldCodex = (await placeFixture(h, codex)).replace(
      "[profiles.fast]",
      '[mcp_servers.hub]\nurl = "http://127.0.0.1:9999/mcp"\n\n' +
        '[mcp_servers.hub.http_headers]\nAuthorization = "Bearer old"\n\n[profiles.fast]',
    );
    await Deno.writeTextFile(codex.path(h), oldCodex);
    const port = freePort();
    const { result, clients } = await setupJson(h, [
      "claude-desktop",
      "codex",
      "--port",
      `${port}`,
    ]);
    assertEquals(result.code, 0, result.stderr);
    assertEquals(clients.map((c) => c.outcome), ["updated", "updated"]);
    const secret = await secretOf(h);
    for (const [c, before] of [[desktop, oldDesktop], [codex, oldCodex]] as const) {
      const text = await Deno.readTextFile(c.path(h));
      assertEntry(c, text, port, secret);
      assertOnlyEntryChanged(c, before, text);
      assertEquals(await Deno.readTextFile(`${c.path(h)}.hub-backup`), before);
    }
    const command = entryOf(desktop, await Deno.readTextFile(desktop.path(h)))!.command as string;
    assert(command.startsWith("/"), `a command that exists, by absolute path: ${command}`);
    assert((await Deno.stat(command)).isFile);
  } finally {
    await Deno.remove(h.base, { recursive: true });
  }
});

Deno.test("hub setup: one line per client, with the path under ~", async () => {
  const h = await makeHome();
  try {
    await hubIn(h, ["config", "rotate-secret", "--confirm"]);
    const first = await hubIn(h, ["setup", "cursor", "claude-desktop"]);
    assertEquals(first.code, 0, first.stderr);
    assertMatch(first.stdout, /^cursor +~\/\.cursor\/mcp\.json +added \(http\)$/m);
    assertMatch(
      first.stdout,
      /^claude-desktop +~\/\.config\/Claude\/claude_desktop_config\.json +added \(stdio\)$/m,
    );
    const again = await hubIn(h, ["setup", "cursor"]);
    assertMatch(again.stdout, /^cursor +~\/\.cursor\/mcp\.json +up to date$/m);
    const removed = await hubIn(h, ["setup", "--remove", "cursor"]);
    assertMatch(removed.stdout, /^cursor +~\/\.cursor\/mcp\.json +removed$/m);
  } finally {
    await Deno.remove(h.base, { recursive: true });
  }
});

Deno.test("hub setup: CODEX_HOME names Codex's folder", async () => {
  const h = await makeHome();
  try {
    await hubIn(h, ["config", "rotate-secret", "--confirm"]);
    const codexHome = join(h.base, "codex-home");
    const result = await hubIn(h, ["setup", "codex", "--json"], { CODEX_HOME: codexHome });
    assertEquals(result.code, 0, result.stderr);
    assertEquals(JSON.parse(result.stdout).clients[0].path, join(codexHome, "config.toml"));
    assert(await exists(join(codexHome, "config.toml")));
    assertEquals(await exists(join(h.home, ".codex")), false);
  } finally {
    await Deno.remove(h.base, { recursive: true });
  }
});
