/**
 * The checks that read only this machine: the Deno runtime, config.json, the secret in
 * extension/auth.json, and the installed extension's manifest and version. Each returns its check
 * line and what later checks need (the config, the secret).
 */
import { join } from "node:path";
import { parseConfig } from "../../core/config/config_store.ts";
import { defaultConfig, type HubConfig } from "../../core/config/schema.ts";
import { parseSecret } from "../../core/config/secret.ts";
import { MAX_AUTH_FILE_BYTES, MAX_CONFIG_FILE_BYTES } from "../../core/config/file_limits.ts";
import { clip } from "../../protocol/clip.ts";
import { readForCheck } from "./file_read.ts";
import { type Check, pass, problem, skip } from "./report.ts";
import { parseBoundedJson } from "../../core/files/json_depth.ts";

export function runtimeCheck(denoVersion: string, installedByNpm: boolean): Check {
  const major = Number(denoVersion.split(".")[0]);
  if (Number.isInteger(major) && major >= 2) {
    return pass("runtime", "runtime", `Deno ${denoVersion}`);
  }
  return problem(
    "error",
    "runtime",
    "runtime",
    `Deno ${clip(denoVersion, 40)} is too old: hub needs Deno 2 or newer`,
    installedByNpm ? "hub update" : "deno upgrade",
  );
}

/** config.json: a missing file is a warning (defaults apply), a broken one an error. */
export async function configCheck(path: string): Promise<{ check: Check; config?: HubConfig }> {
  const id = "config", title = "config file";
  const read = await readForCheck(path, { id, title }, {
    mode: "600",
    remake: "hub start (it writes a config.json with the defaults)",
  }, MAX_CONFIG_FILE_BYTES);
  if (read.kind === "failed") return { check: read.check };
  if (read.kind === "missing") {
    return {
      check: problem("warn", id, title, `${path} does not exist (defaults apply)`, "hub start"),
      config: defaultConfig(),
    };
  }
  try {
    const parsed = await parseConfig(path, read.file.text);
    return { check: pass(id, title, path), config: parsed.config };
  } catch (error) {
    return {
      check: problem(
        "error",
        id,
        title,
        (error as Error).message,
        `edit ${path} at the spot named above, or "hub config reset --confirm" (discards settings)`,
      ),
    };
  }
}

/** auth.json: exists, holds 64 hex characters, and (POSIX) only its owner may read it. */
export async function secretCheck(
  path: string,
  os: typeof Deno.build.os = Deno.build.os,
): Promise<{ check: Check; secret?: string }> {
  const id = "secret", title = "auth secret";
  const read = await readForCheck(path, { id, title }, {
    mode: "600",
    remake: 'hub start (it makes a new secret; "hub start --show-config" prints it for clients)',
  }, MAX_AUTH_FILE_BYTES);
  if (read.kind === "failed") return { check: read.check };
  if (read.kind === "missing") {
    return { check: problem("error", id, title, `${path} does not exist`, "hub start") };
  }
  let secret: string;
  try {
    secret = parseSecret(path, read.file.text);
  } catch (error) {
    return {
      check: problem(
        "error",
        id,
        title,
        (error as Error).message,
        "hub config rotate-secret --confirm",
      ),
    };
  }
  if (os !== "windows") {
    const mode = read.file.info.mode; // from the same look as the text: no second stat
    if (mode !== null && (mode & 0o077) !== 0) {
      const octal = (mode & 0o777).toString(8).padStart(3, "0");
      return {
        check: problem(
          "warn",
          id,
          title,
          `${path} is readable by other users (mode 0${octal})`,
          `chmod 600 ${path}`,
        ),
        secret,
      };
    }
  }
  return { check: pass(id, title, `${path} holds a valid secret`), secret };
}

export interface ManifestInfo {
  version?: string;
}

/** `<config dir>/extension/manifest.json` exists and parses; its version for the next check. */
export async function extensionInstalledCheck(
  extensionDir: string,
): Promise<{ check: Check; manifest?: ManifestInfo }> {
  const id = "extension_installed", title = "extension installed";
  const path = join(extensionDir, "manifest.json");
  const read = await readForCheck(path, { id, title }, {
    mode: "644",
    remake: "hub stop && hub start (it rewrites the extension files)",
  });
  if (read.kind === "failed") return { check: read.check };
  if (read.kind === "missing") {
    return {
      check: problem(
        "error",
        id,
        title,
        `${path} does not exist`,
        "hub start (it installs the extension)",
      ),
    };
  }
  let manifest: unknown;
  try {
    manifest = parseBoundedJson(read.file.text);
  } catch (error) {
    return {
      check: problem(
        "error",
        id,
        title,
        `${path} is not valid JSON (${clip((error as Error).message, 120)})`,
        "hub stop && hub start (rewrites the extension files)",
      ),
    };
  }
  const m = (manifest ?? {}) as { version_name?: unknown; version?: unknown };
  const version = [m.version_name, m.version].find((v) => typeof v === "string") as
    | string
    | undefined;
  return { check: pass(id, title, extensionDir), manifest: { version } };
}

export function extensionVersionCheck(
  manifest: ManifestInfo | undefined,
  cliVersion: string,
): Check {
  const id = "extension_version", title = "extension version";
  if (!manifest) return skip(id, title, "skipped (extension not installed)");
  if (manifest.version === cliVersion) return pass(id, title, `${cliVersion}, same as the CLI`);
  return problem(
    "error",
    id,
    title,
    `the installed extension is ${
      clip(manifest.version ?? "(no version)", 40)
    }, the CLI ${cliVersion}`,
    'hub stop && hub start (updates the extension files), then click "Reload" on hub in chrome://extensions',
  );
}
