/**
 * One version for everything a release ships: protocol/version.ts VERSION is the hub's, the npm
 * wrapper's, the SDK's and the extension's. The places that cannot import it (JSON files) are
 * checked against it here.
 */
import { join } from "node:path";
import { VERSION } from "../protocol/version.ts";
import { buildManifest } from "../extension/manifest.ts";

/** A file that carries a version, and the version it has (undefined: it has none). */
export interface VersionedFile {
  path: string;
  version: string | undefined;
}

/** One line for each file whose version differs from `expected`. */
export function versionMismatches(files: VersionedFile[], expected = VERSION): string[] {
  return files
    .filter((file) => file.version !== expected)
    .map((file) =>
      `${file.path} has version ${JSON.stringify(file.version ?? "(none)")} instead of ` +
      `${expected} (protocol/version.ts)`
    );
}

async function versionOf(path: string, field: string): Promise<string | undefined> {
  try {
    const value = JSON.parse(await Deno.readTextFile(path))[field];
    return typeof value === "string" ? value : undefined;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * The versions in this repository that must equal VERSION: the deno.json of the root and of each
 * workspace member that names itself (test fixtures do not), the extension manifest the build
 * writes, and the built one in extension/dist/.
 */
export async function repositoryVersions(root: string): Promise<VersionedFile[]> {
  const rootConfig = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
  const files: VersionedFile[] = [{
    path: "deno.json",
    version: await versionOf(join(root, "deno.json"), "version"),
  }];
  for (const member of (rootConfig.workspace ?? []) as string[]) {
    const path = join(member, "deno.json").replace(/^\.\//, "");
    const config = JSON.parse(await Deno.readTextFile(join(root, path)));
    if (typeof config.name === "string") files.push({ path, version: config.version });
  }
  files.push({
    path: "extension/manifest.ts",
    version: buildManifest().version_name as string | undefined,
  });
  files.push({
    path: "extension/dist/manifest.json",
    version: await versionOf(join(root, "extension", "dist", "manifest.json"), "version_name"),
  });
  return files;
}
