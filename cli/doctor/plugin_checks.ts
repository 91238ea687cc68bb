/**
 * The plugin checks. Local plugins (the `localPlugins` folders and the plugin folders inside
 * `localPluginDirs`, listed as `hub plugin list` lists them) must hold their built files. Plugin
 * packages must load: with a hub running, its `failedPlugins` and npm `discoveryErrors` say which
 * did not; without one, each installed package gets the checks the hub applies when it loads one.
 */
import { join, resolve } from "node:path";
import type { LocalPlugin } from "../../core/packages/local_plugins.ts";
import type { InstalledPackage } from "../../core/packages/installed_packages.ts";
import { checkPluginPackage } from "../../core/packages/plugin_check.ts";
import type { HealthPayload } from "../../protocol/health.ts";
import { ADAPTER_FILE, TOOLS_FILE } from "../../protocol/plugin_manifest.ts";
import { clip } from "../../protocol/clip.ts";
import { boundLines, type Check, pass, problem, skip } from "./report.ts";

const MAX_LISTED = 10;

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

const bounded = (lines: string[]) => boundLines(lines, MAX_LISTED);

/** What is wrong with one local plugin folder; undefined when it is built. */
async function localProblem(plugin: LocalPlugin, health?: HealthPayload) {
  const missing = [];
  for (const file of [TOOLS_FILE, ADAPTER_FILE]) {
    if (!(await isFile(join(plugin.dir, file)))) missing.push(file);
  }
  if (missing.length > 0) return `has no ${missing.join(" and ")}`;
  const failed = health?.failedPlugins.find((f) => resolve(f.path) === resolve(plugin.dir));
  return failed ? `does not load: ${clip(failed.error, 160)}` : undefined;
}

export async function localPluginsCheck(
  locals: LocalPlugin[],
  health: HealthPayload | undefined,
): Promise<Check> {
  const id = "local_plugins", title = "local plugins";
  if (locals.length === 0) return pass(id, title, "none configured");
  const problems: { dir: string; line: string }[] = [];
  for (const plugin of locals) {
    const why = await localProblem(plugin, health);
    if (why) {
      problems.push({
        dir: plugin.dir,
        line: `${plugin.plugin ?? "?"} (${clip(plugin.dir, 160)}) ${why}`,
      });
    }
  }
  if (problems.length === 0) {
    return pass(
      id,
      title,
      `${locals.length} built: ${locals.map((l) => l.plugin ?? l.dir).join(", ")}`,
    );
  }
  return problem(
    "warn",
    id,
    title,
    [`${problems.length} of ${locals.length} not usable`, ...bounded(problems.map((p) => p.line))]
      .join("\n"),
    `hub-plugin build --dir ${clip(problems[0].dir, 200)}`,
  );
}

/** A package name from a package folder (`…/@scope/hub-plugin-x` or `…/hub-plugin-x`). */
export function packageNameOf(dir: string): string {
  const parts = resolve(dir).split(/[/\\]/);
  const last = parts.at(-1) ?? dir;
  const parent = parts.at(-2) ?? "";
  return parent.startsWith("@") ? `${parent}/${last}` : last;
}

/** The package checker speaks of an install that did not happen; doctor installs nothing. */
function withoutInstallNote(message: string): string {
  return message.replace(/[.;] [Nn]othing was installed[^.]*\./, ".");
}

interface PackageFailure {
  name: string;
  error: string;
}

function packageResult(failures: PackageFailure[], loadedText: string): Check {
  const id = "plugin_packages", title = "plugin packages";
  if (failures.length === 0) return pass(id, title, loadedText);
  return problem(
    "warn",
    id,
    title,
    [
      `${failures.length} did not load`,
      ...bounded(failures.map((f) => `${clip(f.name, 80)}: ${clip(f.error, 200)}`)),
    ].join("\n"),
    `hub plugin remove ${clip(failures[0].name, 120)} --confirm (then install a working version)`,
  );
}

/** From the running hub: failed plugins outside the local folders, and npm discovery errors. */
export function packagesFromHealth(health: HealthPayload, locals: LocalPlugin[]): Check {
  const localDirs = new Set(locals.map((l) => resolve(l.dir)));
  const failures: PackageFailure[] = [
    ...health.failedPlugins.filter((f) => !localDirs.has(resolve(f.path))).map((f) => ({
      name: packageNameOf(f.path),
      error: f.error,
    })),
    ...health.discoveryErrors.filter((e) => e.source === "npm").map((e) => ({
      name: e.specifier,
      error: e.error,
    })),
  ];
  const npm = health.pluginDetails.filter((p) => p.source === "npm").length;
  return packageResult(failures, `${npm} loaded by the running hub`);
}

/** Without a hub: every installed plugin package, checked as the hub checks it when it loads. */
export async function packagesOffline(
  installed: () => Promise<InstalledPackage[]>,
  skipDiscovery: boolean,
): Promise<Check> {
  const id = "plugin_packages", title = "plugin packages";
  if (skipDiscovery) {
    return skip(id, title, "skipped (HUB_SKIP_PKG_DISCOVERY=1: packages are not loaded)");
  }
  let packages: InstalledPackage[];
  try {
    packages = await installed();
  } catch (error) {
    return problem(
      "warn",
      id,
      title,
      `cannot list the global plugin packages: ${clip((error as Error).message, 300)}`,
      "npm root -g (must print the global package folder; or set HUB_NPM_ROOT to it)",
    );
  }
  const failures: PackageFailure[] = [];
  for (const pkg of packages) {
    try {
      await checkPluginPackage(pkg.dir, `${pkg.name}@${pkg.version}`);
    } catch (error) {
      failures.push({ name: pkg.name, error: withoutInstallNote((error as Error).message) });
    }
  }
  const ok = packages.length - failures.length;
  return packageResult(failures, `${ok} installed, all loadable (hub not running)`);
}
