/**
 * Where local plugins may live: under the home directory, the temp directory, the hub's working
 * directory, or a folder listed in `additionalAllowedDirectories`. A plugin elsewhere is refused,
 * so a config edit cannot make the hub load code from an arbitrary place. Symlinks are resolved
 * first, so a link cannot point out of the allowed roots.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { homeDir, resolvePluginPath } from "../config/paths.ts";

export interface RootsInput {
  additionalAllowedDirectories: string[];
  configDir: string;
  cwd?: string;
}

/** The temp directory: `TMPDIR`, else `/tmp`. */
export function tempDir(): string {
  return Deno.env.get("TMPDIR") || "/tmp";
}

function realOrResolved(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The allowed roots, each with symlinks resolved where the folder exists. */
export function allowedRoots(input: RootsInput): string[] {
  const roots = [homeDir(), tempDir(), input.cwd ?? Deno.cwd()];
  for (const dir of input.additionalAllowedDirectories) {
    roots.push(resolvePluginPath(dir, input.configDir));
  }
  return [...new Set(roots.map(realOrResolved))];
}

/**
 * The folders whose files browser tools may read and write (browser_upload_file, browser_save_pdf):
 * the home and temp directories and `additionalAllowedDirectories`, each with symlinks resolved
 * where it exists. Unlike `allowedRoots`, not the hub's working directory.
 */
export function fileRoots(input: Omit<RootsInput, "cwd">): string[] {
  return [...new Set([homeDir(), tempDir()].map(realOrResolved).concat(listedRoots(input)))];
}

/** The folders of `additionalAllowedDirectories` alone, symlinks resolved where they exist. */
export function listedRoots(input: Omit<RootsInput, "cwd">): string[] {
  const dirs = input.additionalAllowedDirectories.map((dir) =>
    realOrResolved(resolvePluginPath(dir, input.configDir))
  );
  return [...new Set(dirs)];
}

export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Why `path` may not hold a plugin, or undefined when it lies under an allowed root. */
export function outsideRootsError(path: string, roots: string[]): string | undefined {
  const real = realOrResolved(path);
  if (roots.some((root) => isInside(real, root))) return undefined;
  return `${path} is outside the folders hub loads local plugins from (${roots.join(", ")}). ` +
    `Move the plugin there, or add its parent folder to "additionalAllowedDirectories" in ` +
    `config.json.`;
}
