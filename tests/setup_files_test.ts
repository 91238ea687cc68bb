/**
 * `hub setup` on settings files it must not edit, or must edit carefully, in a temporary HOME:
 * files that do not parse (refused with line:column, untouched), a servers key that is not an
 * object, a symlink out of the home (refused unless --follow-symlinks, the link kept) and one
 * inside it, a read-only file, a world-readable file (written, with a warning), an oversized file.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { exists } from "./helpers/hub_process.ts";
import { MAX_CLIENT_FILE_BYTES } from "../core/mcp_clients/client_file.ts";
import {
  type ClientCase,
  entryOf,
  hubIn,
  makeHome,
  modeOf,
  placeFixture,
  setupJson,
  type TempHome,
  USER_CASES,
} from "./helpers/setup_home.ts";

const byId = (id: string) => USER_CASES.find((c) => c.id === id)!;

async function withHome(fn: (h: TempHome) => Promise<void>): Promise<void> {
  const h = await makeHome();
  try {
    const created = await hubIn(h, ["config", "rotate-secret", "--confirm"]);
    assertEquals(created.code, 0, created.stderr);
    await fn(h);
  } finally {
    await Deno.remove(h.base, { recursive: true });
  }
}

/** Setup of `c` is refused: exit 1, the reason matches `why`, the file and its mtime untouched. */
async function assertRefused(h: TempHome, c: ClientCase, why: RegExp, extra: string[] = []) {
  const path = c.path(h);
  const before = await Deno.readFile(path);
  const mtime = (await Deno.stat(path)).mtime;
  const { result, clients } = await setupJson(h, [c.id, ...extra]);
  assertEquals(result.code, 1, result.stdout);
  assertEquals(clients.length, 1);
  assertEquals(clients[0].outcome, "refused");
  assertMatch(clients[0].error ?? "", why);
  assertEquals(await Deno.readFile(path), before, "untouched");
  assertEquals((await Deno.stat(path)).mtime, mtime);
  assertEquals(await exists(`${path}.hub-backup`), false, "no backup of a refused file");
  const text = await hubIn(h, ["setup", c.id, ...extra]);
  assertEquals(text.code, 1);
  assertMatch(text.stdout + text.stderr, /refused/);
}

Deno.test("hub setup: a JSONC file that does not parse is refused, saying where", async () => {
  await withHome(async (h) => {
    const c = byId("cursor");
    await Deno.mkdir(join(h.home, ".cursor"));
    await Deno.writeTextFile(
      c.path(h),
      '{\n  "mcpServers": {\n    "a": { "url": "x" }\n    "b": 1\n}\n',
    );
    await assertRefused(h, c, /line 4, column \d+/);
  });
});

Deno.test("hub setup: a servers key that is not an object is refused", async () => {
  await withHome(async (h) => {
    const c = byId("gemini");
    await Deno.mkdir(join(h.home, ".gemini"));
    await Deno.writeTextFile(c.path(h), '{ "theme": "GitHub", "mcpServers": ["nope"] }\n');
    await assertRefused(h, c, /mcpServers/);
  });
});

Deno.test("hub setup: a TOML file that does not parse is refused, saying where", async () => {
  await withHome(async (h) => {
    const c = byId("codex");
    await Deno.mkdir(join(h.home, ".codex"));
    await Deno.writeTextFile(c.path(h), 'model = "gpt-5"\n\n[mcp_servers.x\ncommand = "npx"\n');
    await assertRefused(h, c, /line 3, column \d+/);
  });
});

Deno.test("hub setup: an oversized file is refused", async () => {
  await withHome(async (h) => {
    const c = byId("windsurf");
    await Deno.mkdir(join(h.home, ".codeium", "windsurf"), { recursive: true });
    const filler = `{ "mcpServers": {}, "pad": "${"x".repeat(MAX_CLIENT_FILE_BYTES)}" }\n`;
    await Deno.writeTextFile(c.path(h), filler);
    await assertRefused(h, c, /over the limit/);
  });
});

Deno.test("hub setup: a symlink out of the home is refused unless --follow-symlinks", async () => {
  await withHome(async (h) => {
    const c = byId("cursor");
    const target = join(h.outside, "mcp.json");
    const text = await placeFixture(h, c);
    await Deno.rename(c.path(h), target);
    await Deno.symlink(target, c.path(h));
    await assertRefused(h, c, /symlink|link/i);
    assertEquals(await Deno.readTextFile(target), text);

    const { result, clients } = await setupJson(h, [c.id, "--follow-symlinks"]);
    assertEquals(result.code, 0, result.stderr);
    assertEquals(clients[0].outcome, "added");
    assert((await Deno.lstat(c.path(h))).isSymlink, "the link itself is kept");
    assert(entryOf(c, await Deno.readTextFile(target)), "the entry is in the link's target");
  });
});

Deno.test("hub setup: a symlink inside the home is followed, the link kept", async () => {
  await withHome(async (h) => {
    const c = byId("gemini");
    const dotfiles = join(h.home, "dotfiles");
    await Deno.mkdir(dotfiles);
    await placeFixture(h, c);
    await Deno.rename(c.path(h), join(dotfiles, "settings.json"));
    await Deno.symlink(join(dotfiles, "settings.json"), c.path(h));
    const { result, clients } = await setupJson(h, [c.id]);
    assertEquals(result.code, 0, result.stderr);
    assertEquals(clients[0].outcome, "added");
    assert((await Deno.lstat(c.path(h))).isSymlink);
    assert(entryOf(c, await Deno.readTextFile(join(dotfiles, "settings.json"))));
  });
});

Deno.test("hub setup: a read-only file is refused with a clear error, nothing written", async () => {
  await withHome(async (h) => {
    const c = byId("vscode");
    await placeFixture(h, c, 0o400);
    await assertRefused(h, c, /read-only|not writable|permission/i);
    assertEquals(await modeOf(c.path(h)), 0o400);
  });
});

Deno.test("hub setup: a group- or world-readable file holding the secret is made private, saying what it was", async () => {
  await withHome(async (h) => {
    const c = byId("claude-code");
    await placeFixture(h, c, 0o644);
    const { result, clients } = await setupJson(h, [c.id]);
    assertEquals(result.code, 0, result.stderr);
    assertEquals(clients[0].outcome, "added");
    assertMatch(clients[0].warning ?? "", /made private: was 0644/);
    assertEquals(await modeOf(c.path(h)), 0o600);

    const cursor = byId("cursor");
    await placeFixture(h, cursor, 0o640);
    const text = await hubIn(h, ["setup", cursor.id]);
    assertEquals(text.code, 0, text.stderr);
    assertMatch(text.stdout + text.stderr, /made private: was 0640/);
    assertEquals(await modeOf(cursor.path(h)), 0o600);
  });
});
