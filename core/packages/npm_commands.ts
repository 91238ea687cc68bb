/**
 * The npm calls behind plugin packages, each with its flags and its time limit: `view` (the
 * version a name or range resolves to on the registry), a global `install` with install scripts
 * and bin/man links disabled, a global `uninstall`, and `search`. Reads go to the registry itself (an empty cache
 * folder and `--prefer-online`), so a registry that is down is never hidden by a warm cache.
 */
// @ts-types="@types/semver"
import semver from "semver";
import { clip } from "../../protocol/clip.ts";
import { FAIL_FAST_FLAGS, npmErrorCode, registryReadFlags } from "../process/npm_runner.ts";
import type { PackageContext } from "./package_context.ts";
import { packageError } from "./package_error.ts";
import { parseSearchOutput } from "./registry_search.ts";

const QUIET = ["--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=error"];

/** The flags of every `npm view`: JSON out, answered by the registry itself. */
function viewFlags(cache: string): string[] {
  return ["--json", ...registryReadFlags(cache), "--no-update-notifier"];
}

/**
 * The version `name@range` (range default: latest) resolves to; undefined when the registry has no
 * such package (E404). Other failures throw.
 */
export async function viewVersion(
  ctx: PackageContext,
  name: string,
  range: string | undefined,
  cache: string,
): Promise<string | undefined> {
  const spec = range === undefined ? name : `${name}@${range}`;
  const args = [
    "view",
    spec,
    "version",
    ...viewFlags(cache),
  ];
  const result = await ctx.npm(args, ctx.lookupMs);
  if (!result.timedOut && result.code !== 0 && npmErrorCode(result) === "E404") return undefined;
  if (result.timedOut || result.code !== 0) {
    throw await ctx.failure(result, {
      doing: `looking up ${spec}`,
      name,
      timeoutMs: ctx.lookupMs,
      command: `npm view ${spec} version`,
    });
  }
  return pickVersion(result.stdout, spec);
}

/** npm prints one version as a JSON string, several (a range) as a list, none as nothing. */
export function pickVersion(stdout: string, spec: string): string {
  let value: unknown;
  try {
    value = stdout.trim() === "" ? [] : JSON.parse(stdout);
  } catch {
    value = undefined;
  }
  const list = Array.isArray(value) ? value : [value];
  const versions = list.filter((v): v is string => typeof v === "string" && !!semver.valid(v));
  if (versions.length === 0) {
    if (Array.isArray(value)) {
      throw packageError(
        "PACKAGE_NOT_FOUND",
        `No published version matches ${clip(spec, 120)}. "npm view ${
          clip(spec.replace(/@[^@/]*$/, ""), 120)
        } versions" lists the published ones.`,
      );
    }
    throw packageError(
      "NPM_FAILED",
      `npm view ${clip(spec, 120)} printed no version (${
        JSON.stringify(clip(stdout.trim(), 80))
      }). Check npm's registry setting ("npm config get registry").`,
    );
  }
  return versions.sort(semver.compare).at(-1)!;
}

/** The dependency fields npm installs from (peer dependencies are installed too). */
const DEPENDENCY_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies"];

/**
 * The dependencies `name@version` declares, as name → spec, all fields merged (each entry tagged
 * with its field for messages: `optionalDependencies.x`).
 */
export async function viewDependencies(
  ctx: PackageContext,
  name: string,
  version: string,
  cache: string,
): Promise<Map<string, string>> {
  const spec = `${name}@${version}`;
  // `name` is always there, so npm prints an object keyed by field (one field alone would be
  // printed bare, and a dependency list could not be told from a package's fields).
  const args = [
    "view",
    spec,
    "name",
    ...DEPENDENCY_FIELDS,
    ...viewFlags(cache),
  ];
  const result = await ctx.npm(args, ctx.lookupMs);
  if (result.timedOut || result.code !== 0) {
    throw await ctx.failure(result, {
      doing: `reading the dependencies of ${spec}`,
      name,
      timeoutMs: ctx.lookupMs,
      command: `npm view ${spec} ${DEPENDENCY_FIELDS.join(" ")}`,
    });
  }
  return parseDependencies(result.stdout, spec);
}

/** npm's answer to `view <spec> name <fields> --json`: a bare name, or an object of fields. */
export function parseDependencies(stdout: string, spec: string): Map<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(stdout.trim() || "null");
  } catch {
    value = undefined;
  }
  const found = new Map<string, string>();
  if (typeof value === "string") return found; // only the name: no dependencies
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw packageError(
      "NPM_FAILED",
      `npm view ${clip(spec, 120)} printed no dependency list (${
        JSON.stringify(clip(stdout.trim(), 80))
      }). Check npm's registry setting ("npm config get registry").`,
    );
  }
  for (const field of DEPENDENCY_FIELDS) {
    const deps = (value as Record<string, unknown>)[field];
    if (!deps || typeof deps !== "object") continue;
    for (const [dep, range] of Object.entries(deps)) {
      found.set(`${field}.${dep}`, typeof range === "string" ? range : JSON.stringify(range));
    }
  }
  return found;
}

/**
 * npm refuses dependencies from git, URLs, files and folders (npm 11.x and later; older npm
 * ignores these flags, and hub checks a plugin's own dependencies before it installs anyway).
 */
const REGISTRY_ONLY = [
  "--allow-git=none",
  "--allow-remote=none",
  "--allow-file=none",
  "--allow-directory=none",
];

/**
 * Never link a package's `bin` or `man` entries: a plugin package must not put programs on the
 * user's PATH (a `bin` named `git` would run instead of git). npm skips every bin and man link with
 * this flag; a bin whose name is already a real file in npm's bin folder still makes npm refuse
 * the install (EEXIST), which leaves the machine as it was.
 */
export const NO_LINKS = "--no-bin-links";

/**
 * `npm install --global --prefix <prefix> --ignore-scripts --no-bin-links <name>@<version>`.
 */
export async function installGlobal(
  ctx: PackageContext,
  opts: { prefix: string; name: string; version: string; cache: string; offline?: boolean },
): Promise<void> {
  const spec = `${opts.name}@${opts.version}`;
  const args = [
    "install",
    "--global",
    `--prefix=${opts.prefix}`,
    "--ignore-scripts",
    NO_LINKS,
    ...REGISTRY_ONLY,
    `--cache=${opts.cache}`,
    ...(opts.offline ? ["--prefer-offline"] : ["--prefer-online", ...FAIL_FAST_FLAGS]),
    ...QUIET,
    spec,
  ];
  const result = await ctx.npm(args, ctx.changeMs);
  if (result.code === 0 && !result.timedOut) return;
  throw await ctx.failure(result, {
    doing: `installing ${spec}`,
    name: opts.name,
    timeoutMs: ctx.changeMs,
    command: `npm install --global --prefix "${opts.prefix}" --ignore-scripts ${NO_LINKS} ${spec}`,
  });
}

/** `npm uninstall --global --prefix <prefix> <name>`. */
export async function uninstallGlobal(ctx: PackageContext, prefix: string, name: string) {
  const args = ["uninstall", "--global", `--prefix=${prefix}`, ...QUIET, name];
  const result = await ctx.npm(args, ctx.changeMs);
  if (result.code === 0 && !result.timedOut) return;
  throw await ctx.failure(result, {
    doing: `removing ${name}`,
    name,
    timeoutMs: ctx.changeMs,
    command: `npm uninstall --global --prefix "${prefix}" ${name}`,
  });
}

/** `npm search --json -- <terms>`: npm's raw result entries. */
export async function searchRegistry(ctx: PackageContext, terms: string[], cache: string) {
  const args = [
    "search",
    "--json",
    "--searchlimit=250",
    ...registryReadFlags(cache),
    "--no-update-notifier",
    "--",
    ...terms,
  ];
  const result = await ctx.npm(args, ctx.lookupMs);
  const words = terms.join(" ");
  if (!result.timedOut && result.code !== 0 && npmErrorCode(result) === "E404") {
    throw packageError(
      "NPM_FAILED",
      `The npm registry npm uses does not offer search (E404). Check npm's registry setting ` +
        `("npm config get registry"), or install a plugin by name: "hub plugin install <name>".`,
    );
  }
  if (result.timedOut || result.code !== 0) {
    throw await ctx.failure(result, {
      doing: `searching for "${clip(words, 80)}"`,
      name: "the search",
      timeoutMs: ctx.lookupMs,
      command: `npm search ${words}`,
    });
  }
  const entries = parseSearchOutput(result.stdout);
  if (!entries) {
    throw packageError(
      "NPM_FAILED",
      `npm search printed no result list (${JSON.stringify(clip(result.stdout.trim(), 80))}). ` +
        `Does the registry npm uses support search? "npm search ${words}" shows its answer.`,
    );
  }
  return entries;
}
