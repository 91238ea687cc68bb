/**
 * A plugin package's own dependencies must come from the registry: a version range or a dist-tag.
 * A git, URL, file, folder or alias (`npm:`) dependency is refused before anything is downloaded,
 * because npm fetches it from elsewhere, and builds a git dependency by running its `prepare`
 * script even with install scripts disabled. Pure.
 */
// @ts-types="@types/semver"
import semver from "semver";
import { clip } from "../../protocol/clip.ts";
import { packageError } from "./package_error.ts";

/** A dist-tag: letters, digits, `.`, `_` and `-`, starting with a letter (`latest`, `next`). */
const DIST_TAG = /^[A-Za-z][\w.-]{0,63}$/;

/** Whether npm resolves `spec` on the registry: a version, a semver range or a dist-tag. */
export function isRegistrySpec(spec: string): boolean {
  const trimmed = spec.trim();
  if (trimmed.length > 256) return false;
  if (DIST_TAG.test(trimmed)) return true;
  // A range holds no `:`, `/` or `@` (those are git, URL, path and alias specs).
  return !/[:/\\@]/.test(trimmed) && semver.validRange(trimmed) !== null;
}

/**
 * Throws NOT_A_HUB_PLUGIN naming the first dependency (as `field.name`) that is not a registry
 * spec. `label` names the package: `hub-plugin-x@1.0.0`.
 */
export function checkDependencies(label: string, deps: Map<string, string>): void {
  for (const [where, spec] of deps) {
    if (isRegistrySpec(spec)) continue;
    throw packageError(
      "NOT_A_HUB_PLUGIN",
      `${label} cannot be installed: its dependency ${clip(where, 120)} is ` +
        `${JSON.stringify(clip(spec, 120))}, which npm would fetch from outside the registry ` +
        `(git, a URL, a file or folder, or an alias), possibly running its build scripts. ` +
        `Nothing was installed; hub installs only plugins whose dependencies are version ` +
        `ranges on the registry. Ask the plugin's author to publish such a version.`,
    );
  }
}
