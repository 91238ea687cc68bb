/**
 * `hub plugin configure <name> [--set key=value]...`: a plugin's settings (its `configSchema`),
 * asked for one by one on a terminal or given with `--set`, checked by type, saved under
 * `settings.<plugin>` of config.json (the same change as `hub config set setting.<plugin>.<key>`),
 * then a running hub reloads so that its tools see them.
 */
import { dirname, join } from "node:path";
import { UserError } from "../../core/cli/user_error.ts";
import { cliConfigStore } from "../../core/client/client_context.ts";
import { readJsonFile } from "../../core/files/json_file.ts";
import { MAX_PACKAGE_JSON_BYTES } from "../../protocol/plugin_limits.ts";
import { listLocalPlugins } from "../../core/packages/local_plugins.ts";
import { parseName } from "../../core/packages/package_names.ts";
import { findInstalled } from "../../core/packages/package_remove.ts";
import { clipForMessage } from "../../protocol/clip.ts";
import { parsePluginPackage, type PluginManifest } from "../../protocol/plugin_manifest.ts";
import { settingsErrors } from "../../protocol/plugin_settings.ts";
import { ownValue } from "../../protocol/safe_keys.ts";
import { visibleText } from "../../protocol/visible_text.ts";
import { parseSetCommand } from "../config/keys.ts";
import { pluginCommandContext, reloadRunningHub } from "./context.ts";
import { type Ask, parseSetFlags, promptSettings, type SettingValue } from "./settings_input.ts";

export interface ConfigureOptions {
  set?: string[];
  port?: string;
}

/** The plugin `name` names (a plugin or package name): a local folder first, as the hub loads it. */
async function findPlugin(name: string, ctx: ReturnType<typeof pluginCommandContext>) {
  const spec = parseName(name, "configure");
  const plugin = spec.shorthand ? name.trim() : undefined;
  const store = cliConfigStore(ctx.paths);
  const locals = await listLocalPlugins(await store.load(), dirname(store.path));
  const local = locals.find((l) =>
    (plugin !== undefined && l.plugin === plugin) ||
    (l.packageName !== undefined && spec.candidates.includes(l.packageName))
  );
  const dir = local?.dir ??
    findInstalled(await ctx.packages.installed().catch(() => []), spec.candidates, plugin)?.dir;
  if (!dir) {
    throw new UserError(
      `No plugin "${clipForMessage(name.trim())}" is installed or in localPlugins. "hub plugin ` +
        `list" shows the plugins; "hub plugin install <name>" installs one.`,
    );
  }
  try {
    return parsePluginPackage(
      await readJsonFile(join(dir, "package.json"), MAX_PACKAGE_JSON_BYTES),
    );
  } catch (error) {
    throw new UserError(`Cannot read the plugin in ${dir}: ${(error as Error).message}`);
  }
}

const terminalAsk: Ask = (question) => prompt(question);

export async function pluginConfigureCommand(
  name: string,
  options: ConfigureOptions,
  ask: Ask | undefined = Deno.stdin.isTerminal() ? terminalAsk : undefined,
) {
  const ctx = pluginCommandContext();
  const manifest = await findPlugin(name, ctx);
  const schema = manifest.configSchema ?? {};
  if (Object.keys(schema).length === 0) {
    return console.log(`Plugin "${manifest.name}" has no settings.`);
  }
  const store = cliConfigStore(ctx.paths);
  const current = ownValue((await store.load()).settings, manifest.name) ?? {};
  let changes: Record<string, SettingValue>;
  if (options.set?.length) changes = parseSetFlags(schema, options.set);
  else if (ask) {
    console.log(
      `Settings of ${
        visibleText(manifest.displayName)
      } (${manifest.name}). Enter keeps the value in ` +
        `[brackets], "-" clears it.`,
    );
    changes = promptSettings(schema, current, ask, (line) => console.log(line));
  } else {
    throw new UserError(
      `No terminal to ask on: give the settings with --set key=value (settings of ` +
        `${manifest.name}: ${Object.keys(schema).join(", ")}).`,
    );
  }
  if (Object.keys(changes).length === 0) return console.log("Nothing changed.");
  await save(manifest, changes, store, ctx.paths.dir);
  await reloadRunningHub(options.port, ctx.paths);
}

async function save(
  manifest: PluginManifest,
  changes: Record<string, SettingValue>,
  store: ReturnType<typeof cliConfigStore>,
  configDir: string,
) {
  const problems = settingsErrors(manifest.configSchema, changes);
  if (problems.length > 0) {
    throw new UserError(`Settings of "${manifest.name}": ${problems.join("; ")}`);
  }
  const setContext = { cwd: configDir, configDir, force: false, isDirectory: () => false };
  const applied = Object.entries(changes).map(([key, value]) =>
    parseSetCommand(
      `setting.${manifest.name}.${key}`,
      value === null ? "" : JSON.stringify(value),
      setContext,
    )
  );
  await Deno.mkdir(configDir, { recursive: true, mode: 0o700 });
  await store.update((config) => applied.forEach((change) => change.apply(config)));
  console.log(`Saved in ${store.path}: ${applied.map((c) => c.summary).join("; ")}.`);
}
