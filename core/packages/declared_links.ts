/**
 * The programs and manual pages a package asks npm to link onto the machine (`bin`, `man`,
 * `directories.bin`, `directories.man` in its package.json). Hub installs plugin packages with
 * `--no-bin-links`, so none of them is linked; this lists them so `hub plugin install` can say so.
 * Pure.
 */
import { isPlainObject } from "../../protocol/plain_object.ts";
import { clip } from "../../protocol/clip.ts";

export interface DeclaredLinks {
  /** Program names (`bin` keys; a string `bin` is named after the package). */
  bin: string[];
  /** Manual page files, or the folder of `directories.man`. */
  man: string[];
}

/** At most this many names of each kind are kept (a hostile package may list thousands). */
const MAX_NAMES = 20;

const strings = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string");

function binNames(pkg: Record<string, unknown>): string[] {
  const bin = pkg.bin;
  if (typeof bin === "string") {
    const name = typeof pkg.name === "string" ? pkg.name.replace(/^@[^/]+\//, "") : "(bin)";
    return [name];
  }
  const names = isPlainObject(bin) ? Object.keys(bin) : [];
  const dirs = isPlainObject(pkg.directories) ? strings(pkg.directories.bin) : [];
  return [...names, ...dirs.map((d) => `every program in ${d}`)];
}

function manNames(pkg: Record<string, unknown>): string[] {
  const dirs = isPlainObject(pkg.directories) ? strings(pkg.directories.man) : [];
  return [...strings(pkg.man), ...dirs.map((d) => `every page in ${d}`)];
}

/** What `pkg` (a parsed package.json) declares to link; empty lists when nothing. */
export function declaredLinks(pkg: unknown): DeclaredLinks {
  if (!isPlainObject(pkg)) return { bin: [], man: [] };
  const bounded = (names: string[]) => names.slice(0, MAX_NAMES).map((n) => clip(n, 80));
  return { bin: bounded(binNames(pkg)), man: bounded(manNames(pkg)) };
}
