/**
 * The exact versions of the npm packages the hub imports, taken from deno.lock: the npm package
 * depends on the same versions the repository is tested with.
 */

interface DenoLock {
  specifiers?: Record<string, string>;
}

/**
 * `{ name: version }` for each package in `names`, from the lockfile's `specifiers` (`"npm:zod@^4.1.0":
 * "4.6.7"`; a peer-dependency suffix such as `1.32.2_zod@4.6.7` is dropped). Throws when a name
 * has no entry or more than one version, saying how to fix it.
 */
export function pinnedVersions(names: string[], lockText: string): Record<string, string> {
  const lock = JSON.parse(lockText) as DenoLock;
  const specifiers = Object.entries(lock.specifiers ?? {});
  const pinned: Record<string, string> = {};
  for (const name of [...names].sort()) {
    const versions = new Set(
      specifiers
        .filter(([specifier]) => specifierName(specifier) === name)
        .map(([, resolved]) => resolved.split("_")[0]),
    );
    if (versions.size === 0) {
      throw new Error(
        `Cannot pin "${name}" for the npm package: deno.lock has no entry for it. Add it to ` +
          `deno.json "imports" and run "deno install".`,
      );
    }
    if (versions.size > 1) {
      throw new Error(
        `Cannot pin "${name}" for the npm package: deno.lock resolves it to several versions ` +
          `(${[...versions].join(", ")}). Use one version range for it in deno.json.`,
      );
    }
    pinned[name] = [...versions][0];
  }
  return pinned;
}

/** `npm:@scope/name@^1` → `@scope/name`; anything that is not an npm specifier → undefined. */
function specifierName(specifier: string): string | undefined {
  if (!specifier.startsWith("npm:")) return undefined;
  const rest = specifier.slice("npm:".length);
  const at = rest.indexOf("@", 1);
  return at === -1 ? rest : rest.slice(0, at);
}
