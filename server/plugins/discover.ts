/**
 * Plugin discovery (docs/plugins.md, "How the hub finds and loads plugins"): global packages
 * `hub-plugin-*` and `@<scope>/hub-plugin-*`, folders in `localPlugins`, and the immediate children
 * of `localPluginDirs` that hold a plugin. Finds folders only; loading them is load_plugin.ts.
 * Problems become `discoveryErrors` entries; discovery itself never fails.
 */
import { join } from "node:path";
import type { DiscoveryError } from "../../protocol/health.ts";
import { resolvePluginPath } from "../../core/config/paths.ts";
import type { HubConfig } from "../../core/config/schema.ts";
import { allowedRoots, outsideRootsError } from "../../core/plugin_source/allowed_roots.ts";
import type { NpmRoot } from "./npm_root.ts";
import { readBoundedText, unusableFile } from "../../core/files/bounded_read.ts";
import { MAX_PACKAGE_JSON_BYTES } from "../../protocol/plugin_limits.ts";

export interface Candidate {
  source: "npm" | "local";
  dir: string;
  /** How the user named it: the package name, or the config entry. */
  specifier: string;
}

export interface DiscoverInput {
  config: HubConfig;
  configDir: string;
  /** undefined: do not look for global packages (HUB_SKIP_PKG_DISCOVERY=1). */
  npmRoot?: NpmRoot;
  cwd?: string;
}

export interface DiscoveryResult {
  candidates: Candidate[];
  errors: DiscoveryError[];
}

/** Whether `path` is a folder (false when it is missing or unreadable). */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

async function listDir(path: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) names.push(entry.name);
  return names.sort();
}

async function npmCandidates(npmRoot: NpmRoot, out: DiscoveryResult): Promise<void> {
  let root: string;
  try {
    root = await npmRoot();
  } catch (error) {
    out.errors.push({ source: "npm", specifier: "npm root -g", error: (error as Error).message });
    return;
  }
  if (!(await isDirectory(root))) return; // no global packages installed yet
  for (const name of await listDir(root)) {
    if (name.startsWith("hub-plugin-")) {
      const dir = join(root, name);
      if (await isDirectory(dir)) out.candidates.push({ source: "npm", dir, specifier: name });
    } else if (name.startsWith("@") && (await isDirectory(join(root, name)))) {
      for (const inner of await listDir(join(root, name))) {
        const dir = join(root, name, inner);
        if (inner.startsWith("hub-plugin-") && (await isDirectory(dir))) {
          out.candidates.push({ source: "npm", dir, specifier: `${name}/${inner}` });
        }
      }
    }
  }
}

/** Whether a folder's package.json declares a hub plugin (broken JSON that mentions one counts). */
async function looksLikePlugin(dir: string): Promise<boolean> {
  let text: string;
  try {
    text = await readBoundedText(join(dir, "package.json"), { maxBytes: MAX_PACKAGE_JSON_BYTES });
  } catch (error) {
    return unusableFile(error) !== undefined; // loading it says why (a FIFO, too large)
  }
  try {
    const pkg = JSON.parse(text);
    return typeof pkg === "object" && pkg !== null && "hub" in pkg;
  } catch {
    return /"hub"\s*:/.test(text);
  }
}

async function localCandidates(input: DiscoverInput, out: DiscoveryResult): Promise<void> {
  const roots = allowedRoots({ ...input.config, configDir: input.configDir, cwd: input.cwd });
  const refuse = (specifier: string, error: string) =>
    out.errors.push({ source: "local", specifier, error });
  for (const entry of input.config.localPlugins) {
    const dir = resolvePluginPath(entry, input.configDir);
    if (!(await isDirectory(dir))) {
      refuse(
        entry,
        `${dir} is not a folder. Fix the path, or remove it with ` +
          `"hub config set localPlugins.remove ${entry}".`,
      );
      continue;
    }
    const outside = outsideRootsError(dir, roots);
    if (outside) refuse(entry, outside);
    else out.candidates.push({ source: "local", dir, specifier: entry });
  }
  for (const entry of input.config.localPluginDirs) {
    const parent = resolvePluginPath(entry, input.configDir);
    if (!(await isDirectory(parent))) {
      refuse(entry, `${parent} (in localPluginDirs) is not a folder. Fix or remove the entry.`);
      continue;
    }
    const outside = outsideRootsError(parent, roots);
    if (outside) {
      refuse(entry, outside);
      continue;
    }
    for (const name of await listDir(parent)) {
      const dir = join(parent, name);
      if (!(await isDirectory(dir)) || !(await looksLikePlugin(dir))) continue;
      const inner = outsideRootsError(dir, roots); // a symlinked child may point elsewhere
      if (inner) refuse(dir, inner);
      else out.candidates.push({ source: "local", dir, specifier: dir });
    }
  }
}

/** Finds every plugin folder; local folders come after packages so they can override them. */
export async function discoverPlugins(input: DiscoverInput): Promise<DiscoveryResult> {
  const out: DiscoveryResult = { candidates: [], errors: [] };
  if (input.npmRoot) await npmCandidates(input.npmRoot, out);
  await localCandidates(input, out);
  return { candidates: uniqueFolders(out.candidates), errors: out.errors };
}

/** One candidate per real folder: the same folder listed twice (or via a link) is one plugin. */
function uniqueFolders(candidates: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter((c) => {
    let key: string;
    try {
      key = Deno.realPathSync(c.dir);
    } catch {
      key = c.dir;
    }
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
