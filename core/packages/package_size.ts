/**
 * The size of a staged plugin package, unpacked: every file under its folder (its own
 * node_modules included), counted without following links and without reading any file. A tiny
 * compressed tarball can expand to hundreds of megabytes, so the install refuses a package over
 * MAX_PACKAGE_BYTES or MAX_PACKAGE_FILES before it lands where the hub loads plugins, and refuses
 * one whose adapter, tools.json or package.json is over its own limit (protocol/plugin_limits.ts).
 * The walk stops as soon as a limit is passed.
 */
import { join } from "node:path";
import {
  MAX_ADAPTER_BYTES,
  MAX_PACKAGE_BYTES,
  MAX_PACKAGE_FILES,
  MAX_PACKAGE_JSON_BYTES,
  MAX_TOOLS_FILE_BYTES,
} from "../../protocol/plugin_limits.ts";
import { ADAPTER_FILE, TOOLS_FILE } from "../../protocol/plugin_manifest.ts";
import { type PackageError, packageError } from "./package_error.ts";
import { formatBytes } from "../files/bounded_read.ts";

export interface PackageLimits {
  maxBytes: number;
  maxFiles: number;
  /** Per file, by its path inside the package (`/`-separated). */
  perFile: Record<string, number>;
}

export const PLUGIN_PACKAGE_LIMITS: PackageLimits = {
  maxBytes: MAX_PACKAGE_BYTES,
  maxFiles: MAX_PACKAGE_FILES,
  perFile: {
    [ADAPTER_FILE]: MAX_ADAPTER_BYTES,
    [TOOLS_FILE]: MAX_TOOLS_FILE_BYTES,
    "package.json": MAX_PACKAGE_JSON_BYTES,
  },
};

function tooLarge(label: string, why: string): PackageError {
  return packageError(
    "PACKAGE_TOO_LARGE",
    `${label} is too large to install: ${why}. Nothing was installed. A hub plugin needs only its ` +
      `built files; ask its author for a smaller build (docs/plugins.md, "Size limits").`,
  );
}

/**
 * Walks `dir` (the staged package) and throws PACKAGE_TOO_LARGE when it passes a limit; `label`
 * names the package in the message. Returns the totals otherwise.
 */
export async function checkPackageSize(
  dir: string,
  label: string,
  limits: PackageLimits = PLUGIN_PACKAGE_LIMITS,
): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  const folders = [""];
  while (folders.length > 0) {
    const rel = folders.pop()!;
    for await (const entry of Deno.readDir(join(dir, rel))) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (++files > limits.maxFiles) {
        throw tooLarge(label, `it holds more than ${limits.maxFiles} files and folders`);
      }
      if (entry.isDirectory) {
        folders.push(path);
        continue;
      }
      const size = (await Deno.lstat(join(dir, path))).size; // a link counts as itself
      const fileLimit = limits.perFile[path];
      if (fileLimit !== undefined && size > fileLimit) {
        throw tooLarge(
          label,
          `${path} is ${formatBytes(size)}, over the limit of ${formatBytes(fileLimit)}`,
        );
      }
      bytes += size;
      if (bytes > limits.maxBytes) {
        throw tooLarge(label, `unpacked it is over the limit of ${formatBytes(limits.maxBytes)}`);
      }
    }
  }
  return { bytes, files };
}
