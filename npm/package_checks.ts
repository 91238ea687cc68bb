/**
 * Checks and measurements of a built or installed npm package, for the package tests: absolute
 * paths that leaked into its files, its installed size without the Deno binary, and a PATH on
 * which there is no Deno.
 */
import { basename, delimiter, join, relative } from "node:path";

/** Absolute paths of a build machine: `/home/…`, `/tmp/…`, `/work/…`, `/root/…`, `/Users/…`. */
const MACHINE_PATH = /(?<![\w.-])\/(?:home|tmp|work|root|Users)\/[\w.@-]/;
const TEXT_FILE = /\.(?:[cm]?js|ts|json|md|html|css|txt)$/;
const MAX_HITS = 20;

async function* filesUnder(dir: string, skip: (path: string) => boolean): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (skip(path)) continue;
    if (entry.isDirectory) yield* filesUnder(path, skip);
    else if (entry.isFile) yield path;
  }
}

/**
 * `file:line: text` for each line of a text file under `dir` (node_modules excluded) that names
 * one of `forbidden` or a build machine's absolute path (at most MAX_HITS lines).
 */
export async function absolutePathHits(dir: string, forbidden: string[]): Promise<string[]> {
  const hits: string[] = [];
  const skip = (path: string) => basename(path) === "node_modules";
  for await (const path of filesUnder(dir, skip)) {
    if (!TEXT_FILE.test(path)) continue;
    const lines = (await Deno.readTextFile(path)).split("\n");
    lines.forEach((line, i) => {
      const named = forbidden.find((f) => line.includes(f));
      const match = named ?? MACHINE_PATH.exec(line)?.[0];
      if (match && hits.length < MAX_HITS) {
        const at = line.indexOf(match);
        hits.push(`${relative(dir, path)}:${i + 1}: …${line.slice(Math.max(0, at - 40), at + 60)}`);
      }
    });
  }
  return hits;
}

export interface InstalledSize {
  /** Every file of the installed package and its dependencies, without the Deno binary. */
  bytes: number;
  /** The Deno binary (the `@deno/<platform>` package, and the copy in `deno/` if any). */
  denoBytes: number;
}

/** The size on disk of an installed package folder, with the Deno binary counted apart. */
export async function installedSize(packageDir: string): Promise<InstalledSize> {
  const size: InstalledSize = { bytes: 0, denoBytes: 0 };
  const isDeno = (path: string) => {
    const parts = relative(packageDir, path).split(/[\\/]/);
    const i = parts.lastIndexOf("node_modules");
    const inPackage = parts.slice(i + 1);
    return inPackage[0] === "@deno" ||
      (inPackage[0] === "deno" && /^deno(\.exe)?$/.test(inPackage[1] ?? ""));
  };
  const seen = new Set<string>(); // a hard link (deno's postinstall makes one) counts once
  for await (const path of filesUnder(packageDir, () => false)) {
    const stat = await Deno.lstat(path);
    const inode = `${stat.dev}:${stat.ino}`;
    if (stat.ino !== null && seen.has(inode)) continue;
    seen.add(inode);
    if (isDeno(path)) size.denoBytes += stat.size;
    else size.bytes += stat.size;
  }
  return size;
}

function findOnPath(command: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    const candidate = join(dir, command);
    try {
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/**
 * Makes `<dir>/bin` with links to `commands` (found on this PATH) and returns it: a PATH that has
 * node and npm but no Deno. Throws when a command is missing here.
 */
export async function pathWithout(dir: string, commands: string[]): Promise<string> {
  const bin = join(dir, "bin");
  await Deno.mkdir(bin, { recursive: true });
  const path = Deno.env.get("PATH") ?? "";
  for (const command of commands) {
    const target = findOnPath(command, path);
    if (!target) throw new Error(`Cannot build a test PATH: "${command}" is not on PATH.`);
    await Deno.symlink(target, join(bin, command));
  }
  return bin;
}
