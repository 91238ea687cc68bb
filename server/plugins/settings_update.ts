/**
 * `POST /plugin-settings {plugin, settings}`: checks a plugin's settings against its configSchema,
 * stores them in config.json (replacing the plugin's previous settings; a null value clears a key)
 * and reloads so tools see them.
 */
import { settingsErrors } from "../../protocol/plugin_settings.ts";
import type { ConfigStore } from "../config/config_store.ts";
import { HttpError } from "../http/http_error.ts";
import type { ReloadSummary } from "./plugin_host.ts";
import type { Registry } from "./registry.ts";

export interface SettingsUpdateDeps {
  registry(): Registry;
  store: ConfigStore;
  reload(): Promise<ReloadSummary>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export async function updatePluginSettings(body: unknown, deps: SettingsUpdateDeps) {
  if (!isObject(body) || typeof body.plugin !== "string" || !isObject(body.settings)) {
    throw new HttpError(
      400,
      "INVALID_REQUEST",
      'Send {"plugin": "<plugin name>", "settings": {"<key>": <value>, ...}}.',
    );
  }
  const { plugin: name, settings } = body;
  const plugin = deps.registry().plugin(name);
  if (!plugin) {
    const known = deps.registry().plugins.map((p) => p.name).join(", ") || "none";
    throw new HttpError(
      404,
      "PLUGIN_NOT_FOUND",
      `No plugin "${name}" is loaded (plugins: ${known}).`,
    );
  }
  const problems = settingsErrors(plugin.configSchema, settings);
  if (problems.length > 0) {
    throw new HttpError(400, "INVALID_SETTINGS", `Settings of "${name}": ${problems.join("; ")}`);
  }
  const kept = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== null));
  await deps.store.update((config) => {
    if (Object.keys(kept).length === 0) delete config.settings[name];
    else config.settings[name] = kept;
  });
  const reload = await deps.reload();
  return {
    ok: true,
    plugin: name,
    settings: deps.registry().plugin(name)?.settings ?? {},
    ...reload,
  };
}
