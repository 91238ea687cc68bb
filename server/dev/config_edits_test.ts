import { join } from "node:path";
import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import type { Logger } from "../log/logger.ts";
import { createConfigEdits } from "./config_edits.ts";

/** Config edits over a temp config.json; `inForce` is what the hub runs with. */
async function setup(options: { reloadFails?: boolean } = {}) {
  const dir = await Deno.makeTempDir({ prefix: "hub-config-edits-" });
  const path = join(dir, "config.json");
  let inForce: HubConfig = defaultConfig();
  await Deno.writeTextFile(path, JSON.stringify(inForce));
  const errors: string[] = [];
  let reloads = 0;
  const logger = { debug() {}, info() {}, warn() {}, error: (m: string) => errors.push(m) };
  const edits = createConfigEdits({
    path,
    current: () => inForce,
    reload() {
      if (options.reloadFails) return Promise.reject(new Error("Reload failed: disk on fire"));
      reloads++;
      inForce = JSON.parse(Deno.readTextFileSync(path));
      return Promise.resolve();
    },
    logger: logger as Logger,
  });
  const write = (config: unknown) => Deno.writeTextFile(path, JSON.stringify(config));
  return {
    edits,
    path,
    errors,
    write,
    reloads: () => reloads,
    setInForce: (c: HubConfig) => (inForce = c),
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("a valid hand edit is applied through the reload path", async () => {
  const s = await setup();
  try {
    await s.write({ ...defaultConfig(), skipPermissions: true });
    assertEquals(await s.edits.check(), "applied");
    assertEquals(s.reloads(), 1);
    assertEquals(await s.edits.check(), "unchanged", "the same file is not applied twice");
    assertEquals(s.reloads(), 1);
  } finally {
    await s.cleanup();
  }
});

Deno.test("a broken hand edit is rejected with the reason, nothing reloads", async () => {
  const s = await setup();
  try {
    await Deno.writeTextFile(s.path, '{ "port": ');
    assertEquals(await s.edits.check(), "rejected");
    assertEquals(s.reloads(), 0);
    assertMatch(s.errors[0], /rejected the edit of .*config\.json: Cannot read .*invalid JSON/);
    assertMatch(s.errors[0], /last good config stays in force/);
    await s.write({ ...defaultConfig(), port: "not a port" });
    assertEquals(await s.edits.check(), "rejected");
    assertMatch(s.errors[1], /port/);
  } finally {
    await s.cleanup();
  }
});

Deno.test("a removed config.json is rejected", async () => {
  const s = await setup();
  try {
    await Deno.remove(s.path);
    assertEquals(await s.edits.check(), "rejected");
    assertMatch(s.errors[0], /the file was removed/);
  } finally {
    await s.cleanup();
  }
});

Deno.test("the hub's own write, once announced, is not applied again", async () => {
  const s = await setup();
  try {
    const own = { ...defaultConfig(), skipPermissions: true };
    await s.write(own);
    s.setInForce(own); // the hub wrote it, read it back and announced
    s.edits.markApplied();
    assertEquals(await s.edits.check(), "unchanged");
    assertEquals(s.reloads(), 0);
  } finally {
    await s.cleanup();
  }
});

Deno.test("a reload that fails rejects the edit and keeps what is in force", async () => {
  const s = await setup({ reloadFails: true });
  try {
    await s.write({ ...defaultConfig(), skipPermissions: true });
    assertEquals(await s.edits.check(), "rejected");
    assertMatch(s.errors[0], /disk on fire/);
  } finally {
    await s.cleanup();
  }
});
