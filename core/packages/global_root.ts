/**
 * Where plugin packages live: the global node_modules folder (`HUB_NPM_ROOT`, set by the npm
 * wrapper's launcher, else `npm root -g`), and the npm prefix that owns it, which is what
 * `npm install --global --prefix` takes.
 */
import { basename, dirname, join, resolve } from "node:path";
import { clip } from "../../protocol/clip.ts";
import { npmErrorText, type NpmRunner } from "../process/npm_runner.ts";
import { packageError } from "./package_error.ts";

const ROOT_TIMEOUT_MS = 30_000;

/** `HUB_NPM_ROOT` when it is set and this process may read it. */
export function npmRootFromEnv(): string | undefined {
  const allowed = Deno.permissions.querySync({ name: "env", variable: "HUB_NPM_ROOT" });
  return allowed.state === "granted"
    ? Deno.env.get("HUB_NPM_ROOT")?.trim() || undefined
    : undefined;
}

/**
 * The global root: `fromEnv()`, else the answer of `npm root -g` (remembered once it succeeded).
 */
export function globalRootFinder(
  npm: NpmRunner,
  fromEnv: () => string | undefined = npmRootFromEnv,
): () => Promise<string> {
  let cached: string | undefined;
  return async () => {
    const given = fromEnv();
    if (given) return resolve(given);
    if (cached) return cached;
    const result = await npm(["root", "--global"], ROOT_TIMEOUT_MS);
    const out = result.stdout.trim();
    if (result.code !== 0 || result.timedOut || !out) {
      throw packageError(
        "NPM_FAILED",
        `"npm root --global" did not name the global package folder (${
          result.timedOut ? "it timed out" : npmErrorText(result, 200)
        }). Check that npm works ("npm root -g"), or set HUB_NPM_ROOT to that folder.`,
      );
    }
    cached = out;
    return out;
  };
}

/**
 * The npm prefix of a global root: `<prefix>/lib/node_modules` (Windows: `<prefix>/node_modules`).
 */
export function prefixOfGlobalRoot(root: string, os: typeof Deno.build.os = Deno.build.os) {
  const dir = resolve(root);
  const parent = dirname(dir);
  if (basename(dir) === "node_modules") {
    if (os === "windows") return parent;
    if (basename(parent) === "lib") return dirname(parent);
  }
  const expected = os === "windows" ? "<prefix>\\node_modules" : "<prefix>/lib/node_modules";
  throw packageError(
    "NPM_FAILED",
    `The global package folder ${clip(dir, 200)} is not laid out like npm's (${expected}), so ` +
      `hub cannot tell npm where to install plugin packages. Set HUB_NPM_ROOT to the folder ` +
      `"npm root -g" prints, or unset it.`,
  );
}

/** The global root of a prefix: where `npm install --global --prefix <prefix>` puts packages. */
export function globalRootOf(prefix: string, os: typeof Deno.build.os = Deno.build.os): string {
  return os === "windows" ? join(prefix, "node_modules") : join(prefix, "lib", "node_modules");
}
