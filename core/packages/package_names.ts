/**
 * Names of plugin packages: `@tabhub/hub-plugin-<name>` (official), `hub-plugin-<name>` and
 * `@<scope>/hub-plugin-<name>` (community), and the shorthand `<name>` that stands for the official
 * package first, then the community one. What the user typed is checked here, before npm sees it:
 * npm's name rules for new packages, the plugin name patterns, and an optional version, range or
 * dist-tag after `@`. Pure.
 */
// @ts-types="@types/semver"
import semver from "semver";
import { clipForMessage } from "../../protocol/clip.ts";
import { PLUGIN_NAME_PATTERN } from "../../protocol/plugin_manifest.ts";
import { type PackageError, packageError } from "./package_error.ts";

export const OFFICIAL_SCOPE = "@tabhub";
export const PLUGIN_PREFIX = "hub-plugin-";
/** npm refuses longer package names. */
export const MAX_PACKAGE_NAME_LENGTH = 214;

const PART = "[a-z0-9][a-z0-9._~-]*";
const UNSCOPED = new RegExp(`^${PLUGIN_PREFIX}${PART}$`);
const SCOPED = new RegExp(`^@${PART}/${PLUGIN_PREFIX}${PART}$`);
const DIST_TAG = /^[a-z][a-z0-9._-]{0,63}$/i;

export interface PackageSpec {
  /** Package names to try, in order: two for a shorthand, else the one given. */
  candidates: string[];
  /** A version, range or dist-tag given after `@`. */
  range?: string;
  shorthand: boolean;
}

/** Whether `name` is a plugin package name: `hub-plugin-*` or `@<scope>/hub-plugin-*`. */
export function isPluginPackageName(name: string): boolean {
  return name.length <= MAX_PACKAGE_NAME_LENGTH && (UNSCOPED.test(name) || SCOPED.test(name));
}

/** Published under the official scope. */
export function isOfficial(name: string): boolean {
  return name.startsWith(`${OFFICIAL_SCOPE}/`);
}

/** The packages a shorthand stands for, official first. */
export function shorthandCandidates(name: string): string[] {
  return [`${OFFICIAL_SCOPE}/${PLUGIN_PREFIX}${name}`, `${PLUGIN_PREFIX}${name}`];
}

const FORMS = `a short name ("my-app"), "hub-plugin-<name>" or "@<scope>/hub-plugin-<name>"`;

function invalid(spec: string, why: string): PackageError {
  return packageError(
    "INVALID_NAME",
    `"${clipForMessage(spec)}" is not a plugin package name: ${why}. Use ${FORMS}, optionally ` +
      `with "@<version>".`,
  );
}

/** Splits `name@range` (a scope's leading `@` is part of the name). */
function splitRange(spec: string): [string, string | undefined] {
  const at = spec.indexOf("@", 1);
  return at < 0 ? [spec, undefined] : [spec.slice(0, at), spec.slice(at + 1)];
}

function checkRange(spec: string, range: string): void {
  if (range === "" || (!DIST_TAG.test(range) && semver.validRange(range) === null)) {
    throw invalid(spec, `"${clipForMessage(range, 40)}" is not a version, range or dist-tag`);
  }
}

function checkName(spec: string, name: string): void {
  if (/^[a-z][a-z0-9+.-]*:/i.test(name) || name.startsWith(".") || name.startsWith("/")) {
    throw packageError(
      "INVALID_NAME",
      `"${clipForMessage(spec)}" looks like a path or URL; hub installs plugin packages from ` +
        `the npm registry only. For a plugin folder on this machine run "hub config set ` +
        `localPlugins.add <folder>".`,
    );
  }
  if (name !== name.toLowerCase()) throw invalid(spec, "package names are lowercase");
  if (name.length > MAX_PACKAGE_NAME_LENGTH) {
    throw invalid(spec, `npm names are at most ${MAX_PACKAGE_NAME_LENGTH} characters`);
  }
  if (isPluginPackageName(name)) return;
  const scoped = /^(@[^/]+)\/(.+)$/.exec(name);
  if (scoped && !scoped[2].startsWith(PLUGIN_PREFIX) && PLUGIN_NAME_PATTERN.test(scoped[2])) {
    throw invalid(
      spec,
      `plugin packages are named hub-plugin-<name> (did you mean ` +
        `"${scoped[1]}/${PLUGIN_PREFIX}${scoped[2]}"?)`,
    );
  }
  throw invalid(spec, "it breaks npm's naming rules or the plugin name patterns");
}

/** Parses what the user typed for install or update; throws INVALID_NAME with the fix. */
export function parseSpec(input: string): PackageSpec {
  const spec = input.trim();
  if (spec === "") {
    throw packageError("INVALID_NAME", `Name the plugin package to use: ${FORMS}.`);
  }
  const [name, range] = splitRange(spec);
  if (range !== undefined) checkRange(spec, range);
  const shorthand = !name.startsWith("@") && !name.startsWith(PLUGIN_PREFIX) &&
    PLUGIN_NAME_PATTERN.test(name);
  if (shorthand) {
    const candidates = shorthandCandidates(name);
    if (candidates[0].length > MAX_PACKAGE_NAME_LENGTH) {
      throw invalid(spec, `npm names are at most ${MAX_PACKAGE_NAME_LENGTH} characters`);
    }
    return { candidates, range, shorthand };
  }
  checkName(spec, name);
  return { candidates: [name], range, shorthand };
}

/** The name of a remove or update target, without a version (that would be meaningless there). */
export function parseName(input: string, operation: string): PackageSpec {
  const parsed = parseSpec(input);
  if (parsed.range !== undefined) {
    throw packageError(
      "INVALID_NAME",
      `"${clipForMessage(input.trim())}": ${operation} takes a name without a version ` +
        `(${operation} "${splitRange(input.trim())[0]}").`,
    );
  }
  return parsed;
}
