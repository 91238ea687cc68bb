/**
 * `POST /plugin-settings {plugin, settings}`: checks settings against the plugin's configSchema,
 * merges them into its stored settings in config.json (keys not sent stay; a null value clears a
 * key) and reloads so tools see them.
 */
import { settingsErrors } from "../../protocol/plugin_settings.ts";
import { ownValue } from "../../protocol/safe_keys.ts";
import { clipForMessage } from "../../protocol/clip.ts";
import type { ConfigStore } from "../../core/config/config_store.ts";
import { hubError } from "../../protocol/errors.ts";
import type { ReloadSummary } from "./plugin_host_interface.ts";
import type { Registry } from "./registry_interface.ts";
import { isPlainObject } from "../../protocol/plain_object.ts";

export interface SettingsUpdateDeps {
  registry(): Registry;
  store: ConfigStore;
  reload(): Promise<ReloadSummary>;
}

export async function updatePluginSettings(body: unknown, deps: SettingsUpdateDeps) {
  if (!isPlainObject(body) || typeof body.plugin !== "string" || !isPlainObject(body.settings)) {
    throw hubError(
      "INVALID_REQUEST",
      'Send {"plugin": "<plugin name>", "settings": {"<key>": <value>, ...}}.',
    );
  }
  const { plugin: name, settings } = body;
  const plugin = deps.registry().plugin(name);
  if (!plugin) {
    const known = deps.registry().plugins.map((p) => p.name).join(", ") || "none";
    throw hubError(
      "PLUGIN_NOT_FOUND",
      `No plugin "${clipForMessage(name)}" is loaded (plugins: ${known}).`,
    );
  }
  const problems = settingsErrors(plugin.configSchema, settings);
  if (problems.length > 0) {
    throw hubError("INVALID_SETTINGS", `Settings of "${name}": ${problems.join("; ")}`);
  }
  // Every key is now an own field of the plugin's schema, never an Object.prototype name.
  await deps.store.update((config) => {
    const merged = { ...ownValue(config.settings, name) };
    for (const [key, value] of Object.entries(settings)) {
      if (value === null) delete merged[key];
      else merged[key] = value;
    }
    if (Object.keys(merged).length === 0) delete config.settings[name];
    else config.settings[name] = merged;
  });
  const reload = await deps.reload();
  return {
    ok: true,
    plugin: name,
    settings: deps.registry().plugin(name)?.settings ?? {},
    ...reload,
  };
}
