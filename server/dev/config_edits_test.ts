import { join } from "node:path";
import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import type { Logger } from "../log/logger_interface.ts";
import { createConfigEdits, discoveryPart } from "./config_edits.ts";

/**
 * Config edits over a temp config.json. `discovered` is the config the last full discovery read
 * (a reload sets it from the file); an announcement records what it carried, as the hub's does.
 */
async function setup(options: { reloadFails?: boolean } = {}) {
  const dir = await Deno.makeTempDir({ prefix: "hub-config-edits-" });
  const path = join(dir, "config.json");
  let discovered: HubConfig = defaultConfig();
  await Deno.writeTextFile(path, JSON.stringify(discovered));
  const errors: string[] = [];
  const calls: string[] = [];
  const logger = { debug() {}, info() {}, warn() {}, error: (m: string) => errors.push(m) };
  const readFile = (): HubConfig => JSON.parse(Deno.readTextFileSync(path));
  const edits = createConfigEdits({
    path,
    discoveredWith: () => discovered,
    reload() {
      if (options.reloadFails) return Promise.reject(new Error("Reload failed: disk on fire"));
      calls.push("reload");
      discovered = readFile();
      edits.announced(readFile());
      return Promise.resolve();
    },
    announce() {
      calls.push("announce");
      edits.announced(readFile());
    },
    logger: logger as Logger,
  });
  const write = (config: unknown) => Deno.writeTextFile(path, JSON.stringify(config));
  return {
    edits,
    path,
    errors,
    calls,
    write,
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("an edit of the plugin folders or settings is applied by a reload", async () => {
  const s = await setup();
  try {
    await s.write({ ...defaultConfig(), localPlugins: ["/tmp/demo"] });
    assertEquals(await s.edits.check(), "applied");
    await s.write({
      ...defaultConfig(),
      localPlugins: ["/tmp/demo"],
      settings: { demo: { a: 1 } },
    });
    assertEquals(await s.edits.check(), "applied");
    assertEquals(s.calls, ["reload", "reload"]);
    assertEquals(await s.edits.check(), "unchanged", "the same file is not applied twice");
    assertEquals(s.calls.length, 2);
  } finally {
    await s.cleanup();
  }
});

Deno.test("an edit of permissions only is announced, without a reload", async () => {
  const s = await setup();
  try {
    await s.write({
      ...defaultConfig(),
      skipPermissions: true,
      disabledBrowserTools: ["tab_list"],
    });
    assertEquals(await s.edits.check(), "applied");
    assertEquals(s.calls, ["announce"]);
    assertEquals(await s.edits.check(), "unchanged");
  } finally {
    await s.cleanup();
  }
});

Deno.test("an announcement during the debounce does not swallow a localPlugins edit", async () => {
  const s = await setup();
  try {
    await s.write({ ...defaultConfig(), localPlugins: [] });
    // A plugin reload or a side-panel write announces while the hand edit waits for its turn:
    // the announcement carried the edited file, but nothing rediscovered the plugins.
    s.edits.announced({ ...defaultConfig(), localPlugins: [] });
    assertEquals(await s.edits.check(), "unchanged", "nothing differs from the discovery yet");
    await s.write({ ...defaultConfig(), localPlugins: ["/tmp/gone"] });
    s.edits.announced({ ...defaultConfig(), localPlugins: ["/tmp/gone"] });
    assertEquals(await s.edits.check(), "applied");
    assertEquals(s.calls, ["reload"], "the discovery part differs from the last discovery");
  } finally {
    await s.cleanup();
  }
});

Deno.test("the hub's own write, once announced, is not applied again", async () => {
  const s = await setup();
  try {
    const own = { ...defaultConfig(), skipPermissions: true };
    await s.write(own);
    s.edits.announced(own); // the hub wrote it, read it back and announced
    assertEquals(await s.edits.check(), "unchanged");
    assertEquals(s.calls, []);
  } finally {
    await s.cleanup();
  }
});

Deno.test("a broken hand edit is rejected with the reason, nothing reloads", async () => {
  const s = await setup();
  try {
    await Deno.writeTextFile(s.path, '{ "port": ');
    assertEquals(await s.edits.check(), "rejected");
    assertEquals(s.calls, []);
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

Deno.test("a reload that fails rejects the edit and keeps what is in force", async () => {
  const s = await setup({ reloadFails: true });
  try {
    await s.write({ ...defaultConfig(), localPlugins: ["/tmp/demo"] });
    assertEquals(await s.edits.check(), "rejected");
    assertMatch(s.errors[0], /disk on fire/);
  } finally {
    await s.cleanup();
  }
});

Deno.test("the discovery part is the plugin folders, their settings and the allowed folders", () => {
  const base = defaultConfig();
  const same = (c: Partial<HubConfig>) => discoveryPart({ ...base, ...c }) === discoveryPart(base);
  assertEquals(same({ skipPermissions: true, disabledBrowserTools: ["x"], port: 1 }), true);
  assertEquals(same({ permissions: { demo: { permission: "auto", tools: {} } } }), true);
  assertEquals(same({ localPlugins: ["/a"] }), false);
  assertEquals(same({ localPluginDirs: ["/a"] }), false);
  assertEquals(same({ additionalAllowedDirectories: ["/a"] }), false);
  assertEquals(same({ settings: { demo: { a: 1 } } }), false);
});
