import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import type { ConfigSchema } from "../../protocol/plugin_manifest.ts";
import { resolveSettings } from "../../protocol/plugin_settings.ts";
import type { ConfigStore } from "../../core/config/config_store.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import { HubError, restStatus } from "../../protocol/errors.ts";
import { emptyRegistry, registryOf } from "./registry.ts";
import type { Registry } from "./registry_interface.ts";
import { registeredPlugin } from "./_test_registry.ts";
import { type SettingsUpdateDeps, updatePluginSettings } from "./settings_update.ts";

const SCHEMA: ConfigSchema = {
  apiUrl: { type: "url", label: "API" },
  mode: { type: "select", label: "Mode", options: ["fast", "slow"], default: "fast" },
  verbose: { type: "boolean", label: "Verbose" },
};

interface Fake {
  deps: SettingsUpdateDeps;
  config: HubConfig;
  reloads: () => number;
  writes: () => number;
}

/**
 * A registry with plugins "alpha" (with SCHEMA) and "beta" (no settings), a store holding a config
 * in memory, and a reload that re-resolves the settings from that config like the real host does.
 */
function fake(stored: Record<string, Record<string, unknown>> = {}): Fake {
  const config: HubConfig = { ...defaultConfig(), settings: structuredClone(stored) };
  const plugin = (name: string, configSchema?: ConfigSchema) =>
    registeredPlugin(name, {
      configSchema,
      settings: resolveSettings(configSchema, config.settings[name]),
    });
  let plugins = [plugin("alpha", SCHEMA), plugin("beta")];
  const registry = (): Registry => registryOf(plugins);
  let reloads = 0;
  let writes = 0;
  const store: ConfigStore = {
    path: "/fake/config.json",
    exists: () => Promise.resolve(true),
    load: () => Promise.resolve(structuredClone(config)),
    ensure: () => Promise.resolve({ created: false, config: structuredClone(config) }),
    update: (mutate) => {
      writes++;
      mutate(config);
      return Promise.resolve(structuredClone(config));
    },
    remove: () => Promise.resolve(true),
  };
  const deps: SettingsUpdateDeps = {
    registry,
    store,
    reload: () => {
      reloads++;
      plugins = [plugin("alpha", SCHEMA), plugin("beta")];
      return Promise.resolve({ plugins: plugins.length, durationMs: 3 });
    },
  };
  return { deps, config, reloads: () => reloads, writes: () => writes };
}

/** The HubError an update rejects with, as REST answers it (status, code, message). */
async function httpError(
  promise: Promise<unknown>,
): Promise<{ status: number; code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    assert(error instanceof HubError, `expected a HubError, got ${error}`);
    return { status: restStatus(error), code: error.code, message: error.message };
  }
  throw new Error("the update succeeded");
}

// --- request shape ---

for (
  const [what, body] of [
    ["a missing body", undefined],
    ["a list", []],
    ["a non-string plugin", { plugin: 1, settings: {} }],
    ["missing settings", { plugin: "alpha" }],
    ["settings that are a list", { plugin: "alpha", settings: [] }],
    ["settings that are null", { plugin: "alpha", settings: null }],
  ] as [string, unknown][]
) {
  Deno.test(`a body with ${what} is a 400 INVALID_REQUEST showing the expected shape`, async () => {
    const f = fake();
    const error = await httpError(updatePluginSettings(body, f.deps));
    assertEquals([error.status, error.code], [400, "INVALID_REQUEST"]);
    assertMatch(error.message, /Send \{"plugin": "<plugin name>", "settings": \{/);
    assertEquals([f.writes(), f.reloads()], [0, 0]);
  });
}

// --- unknown plugin ---

Deno.test("an unknown plugin is a 404 that lists the loaded plugins", async () => {
  const error = await httpError(
    updatePluginSettings({ plugin: "gamma", settings: {} }, fake().deps),
  );
  assertEquals([error.status, error.code], [404, "PLUGIN_NOT_FOUND"]);
  assertEquals(error.message, 'No plugin "gamma" is loaded (plugins: alpha, beta).');
});

Deno.test("the 404 says 'none' when no plugin is loaded", async () => {
  const deps: SettingsUpdateDeps = {
    ...fake().deps,
    registry: emptyRegistry,
  };
  const error = await httpError(updatePluginSettings({ plugin: "x", settings: {} }, deps));
  assertMatch(error.message, /\(plugins: none\)/);
});

// --- invalid settings ---

Deno.test("invalid settings are a 400 INVALID_SETTINGS listing every problem", async () => {
  const f = fake();
  const error = await httpError(
    updatePluginSettings({ plugin: "alpha", settings: { mode: "medium", colour: "red" } }, f.deps),
  );
  assertEquals([error.status, error.code], [400, "INVALID_SETTINGS"]);
  assertEquals(
    error.message,
    'Settings of "alpha": mode: must be one of "fast", "slow"; ' +
      "colour: not a setting of this plugin (settings: apiUrl, mode, verbose)",
  );
});

Deno.test("invalid settings are neither stored nor reloaded", async () => {
  const f = fake({ alpha: { mode: "slow" } });
  await httpError(updatePluginSettings({ plugin: "alpha", settings: { verbose: "yes" } }, f.deps));
  assertEquals([f.writes(), f.reloads(), f.config.settings], [0, 0, { alpha: { mode: "slow" } }]);
});

Deno.test("a setting for a plugin without settings says it has none", async () => {
  const error = await httpError(
    updatePluginSettings({ plugin: "beta", settings: { x: 1 } }, fake().deps),
  );
  assertMatch(error.message, /x: not a setting of this plugin \(it has no settings\)/);
});

Deno.test("Object.prototype names as setting keys are a 400 and nothing is stored", async () => {
  for (const key of [...Object.getOwnPropertyNames(Object.prototype), "prototype"]) {
    const f = fake({ alpha: { mode: "slow" } });
    const settings = JSON.parse(`{${JSON.stringify(key)}: {"mode": "fast"}}`);
    const error = await httpError(updatePluginSettings({ plugin: "alpha", settings }, f.deps));
    assertEquals([error.status, error.code], [400, "INVALID_SETTINGS"], key);
    assertMatch(error.message, new RegExp(`"${key}" is reserved`));
    assertEquals([f.writes(), f.reloads()], [0, 0]);
    assertEquals(Object.getPrototypeOf(f.config.settings.alpha), Object.prototype);
  }
});

Deno.test("a plugin named like an Object.prototype member is a 404, with a bounded message", async () => {
  for (const plugin of ["constructor", "__proto__", "toString", "x".repeat(100_000)]) {
    const error = await httpError(updatePluginSettings({ plugin, settings: {} }, fake().deps));
    assertEquals([error.status, error.code], [404, "PLUGIN_NOT_FOUND"]);
    assert(error.message.length < 300, `${error.message.length} characters`);
  }
});

// --- success ---

Deno.test("valid settings are merged in; a null value clears its key", async () => {
  const f = fake({ alpha: { mode: "slow", verbose: true } });
  await updatePluginSettings(
    { plugin: "alpha", settings: { apiUrl: "https://a.test", mode: null } },
    f.deps,
  );
  assertEquals(f.config.settings.alpha, { verbose: true, apiUrl: "https://a.test" });
});

Deno.test("keys that are not sent keep their stored values", async () => {
  const f = fake({ alpha: { mode: "slow", verbose: true } });
  await updatePluginSettings({ plugin: "alpha", settings: { verbose: false } }, f.deps);
  assertEquals(f.config.settings.alpha, { mode: "slow", verbose: false });
});

Deno.test("settings that are all null remove the plugin's entry", async () => {
  const f = fake({ alpha: { mode: "slow" }, beta: {} });
  await updatePluginSettings({ plugin: "alpha", settings: { mode: null } }, f.deps);
  assertEquals("alpha" in f.config.settings, false);
});

Deno.test("a successful update reloads once and returns the resolved settings", async () => {
  const f = fake();
  const result = await updatePluginSettings(
    { plugin: "alpha", settings: { apiUrl: "https://a.test", verbose: true } },
    f.deps,
  );
  assertEquals(f.reloads(), 1);
  assertEquals(result, {
    ok: true,
    plugin: "alpha",
    settings: { apiUrl: { default: "https://a.test" }, mode: "fast", verbose: true },
    plugins: 2,
    durationMs: 3,
  });
});
