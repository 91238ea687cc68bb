/**
 * How this hub was installed, which decides how it is updated. The npm wrapper starts hub with
 * `HUB_INSTALL=npm` and `HUB_NPM_PACKAGE_DIR=<its package folder>`; without them hub runs from
 * source files (a git checkout, possibly behind a `deno install` command) or is a compiled binary.
 */
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../../core/cli/user_error.ts";
import { clip } from "../../protocol/clip.ts";

export const NPM_PACKAGE = "@tabhub/hub";

export type InstallKind =
  /** `npm i -g`: `prefix` is the global prefix the package lives in (`--prefix` of npm). */
  | { kind: "npm-global"; packageDir: string; prefix: string }
  /** npx, or a project's node_modules: npm runs it, but not from a global install. */
  | { kind: "npm-local"; packageDir: string }
  /** Source files in a git checkout (`deno task`, or `deno install` from that checkout). */
  | { kind: "checkout"; root: string }
  /** Source files outside git (a copy, or a `deno install` of a URL). */
  | { kind: "source"; root: string }
  /** A `deno compile` binary. */
  | { kind: "compiled"; binary: string };

export interface InstallFacts {
  env(name: string): string | undefined;
  /** The URL of this hub's source root (the folder of main.ts). */
  sourceRoot: string;
  /** The running executable (`deno`, or the compiled binary). */
  execPath: string;
  os: typeof Deno.build.os;
  exists(path: string): Promise<boolean>;
}

export async function detectInstall(facts: InstallFacts): Promise<InstallKind> {
  const install = facts.env("HUB_INSTALL");
  if (install === "npm") return npmInstall(facts.env("HUB_NPM_PACKAGE_DIR"), facts.os);
  if (install) {
    throw new UserError(
      `HUB_INSTALL is "${clip(install, 40)}", which hub does not know (only "npm", set by the ` +
        `npm package). Unset it, or reinstall hub with "npm i -g ${NPM_PACKAGE}".`,
    );
  }
  if (!/^deno(\.exe)?$/i.test(basename(facts.execPath))) {
    return { kind: "compiled", binary: facts.execPath };
  }
  if (!facts.sourceRoot.startsWith("file:")) return { kind: "source", root: facts.sourceRoot };
  const root = fileURLToPath(facts.sourceRoot).replace(/[\\/]$/, "");
  return (await facts.exists(join(root, ".git")))
    ? { kind: "checkout", root }
    : { kind: "source", root };
}

/**
 * A global install lives in `<prefix>/lib/node_modules/@tabhub/hub` (Windows:
 * `<prefix>/node_modules/@tabhub/hub`); anything else is npx or a project's node_modules.
 */
export function npmInstall(
  packageDir: string | undefined,
  os: typeof Deno.build.os,
): InstallKind {
  if (!packageDir) {
    throw new UserError(
      `HUB_INSTALL=npm is set but HUB_NPM_PACKAGE_DIR is not: the "hub" command of the npm ` +
        `package sets both. Run hub through that command, or reinstall it with ` +
        `"npm i -g ${NPM_PACKAGE}".`,
    );
  }
  const dir = resolve(packageDir);
  const nodeModules = dirname(dirname(dir));
  if (`${basename(dirname(dir))}/${basename(dir)}` !== NPM_PACKAGE) {
    throw new UserError(
      `HUB_NPM_PACKAGE_DIR (${clip(dir, 200)}) is not a folder of the ${NPM_PACKAGE} package ` +
        `(…/node_modules/${NPM_PACKAGE}). Run hub through the "hub" command of the npm ` +
        `package, or reinstall it with "npm i -g ${NPM_PACKAGE}".`,
    );
  }
  const parent = dirname(nodeModules);
  const isNpx = /[\\/]_npx[\\/]/.test(dir);
  if (basename(nodeModules) !== "node_modules" || isNpx) {
    return { kind: "npm-local", packageDir: dir };
  }
  if (os === "windows") return { kind: "npm-global", packageDir: dir, prefix: parent };
  if (basename(parent) === "lib") {
    return { kind: "npm-global", packageDir: dir, prefix: dirname(parent) };
  }
  return { kind: "npm-local", packageDir: dir };
}

/** What to run to update an install that `hub update` cannot update itself. */
export function manualUpdate(install: InstallKind, version: string, latest?: string): string {
  const pkg = `${NPM_PACKAGE}@${latest ?? "latest"}`;
  switch (install.kind) {
    case "npm-global":
      return `npm i -g --prefix "${install.prefix}" ${pkg}`;
    case "npm-local":
      return /[\\/]_npx[\\/]/.test(install.packageDir)
        ? `hub ${version} runs through npx: "npx ${pkg}" runs the newest one.`
        : `hub ${version} is installed in a project (${clip(install.packageDir, 200)}), not ` +
          `globally: run "npm i ${pkg}" in that project, or install it globally with ` +
          `"npm i -g ${pkg}".`;
    case "checkout":
      return `hub ${version} runs from the git checkout ${clip(install.root, 200)}, not from ` +
        `the npm package. Update it with "git -C ${quote(install.root)} pull", then restart ` +
        `the hub ("deno task start" there; a hub command made with "deno install" from this ` +
        `checkout runs the new files at once). Or switch to the npm package: ` +
        `"npm i -g ${NPM_PACKAGE}".`;
    case "source":
      return `hub ${version} runs from ${clip(install.root, 200)} (installed with "deno ` +
        `install", not from the npm package). Get a newer hub (git clone it, or ` +
        `"npm i -g ${NPM_PACKAGE}") and re-run the "deno install" command of its README.`;
    case "compiled":
      return `hub ${version} is the compiled binary ${clip(install.binary, 200)}. Replace it ` +
        `with the binary of a newer release (or build one with "deno task compile:hub" in an ` +
        `updated checkout), or switch to the npm package: "npm i -g ${NPM_PACKAGE}".`;
  }
}

function quote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `"${path}"`;
}
