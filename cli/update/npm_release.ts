/**
 * The npm side of `hub update`: which hub version the registry npm is configured with has
 * published, and installing one globally. Errors say what failed and what to do, in one line.
 */
// @ts-types="@types/semver"
import semver from "semver";
import { UserError } from "../../core/cli/user_error.ts";
import { clip } from "../../protocol/clip.ts";
import { NPM_PACKAGE } from "./install_kind.ts";
import {
  NETWORK_CODES,
  npmErrorCode,
  npmErrorText,
  type NpmResult,
  type NpmRunner,
  registryOf,
  registryReadFlags,
} from "../../core/process/npm_runner.ts";

export const VIEW_TIMEOUT_MS = 60_000;
export const INSTALL_TIMEOUT_MS = 600_000;

/**
 * The latest published version of the hub package. npm asks the registry itself: `cacheDir` is an
 * empty cache folder, so a warm cache can never answer for a registry that is down.
 */
export async function latestPublished(npm: NpmRunner, cacheDir: string): Promise<string> {
  const args = [
    "view",
    NPM_PACKAGE,
    "version",
    "--json",
    ...registryReadFlags(cacheDir),
  ];
  const result = await npm(args, VIEW_TIMEOUT_MS);
  if (result.timedOut) {
    throw new UserError(
      `npm did not answer within ${VIEW_TIMEOUT_MS / 1000} s when asked for the latest ` +
        `${NPM_PACKAGE} (registry ${await registryOf(npm)}). Check the network and npm's ` +
        `registry and proxy settings, then run "hub update" again.`,
    );
  }
  if (result.code !== 0) throw await viewError(npm, result);
  let value: unknown;
  try {
    value = JSON.parse(result.stdout);
  } catch {
    value = undefined;
  }
  if (Array.isArray(value)) value = value.at(-1);
  if (typeof value !== "string" || !semver.valid(value)) {
    throw new UserError(
      `The npm registry ${await registryOf(npm)} gave no valid version for ${NPM_PACKAGE} ` +
        `(npm view printed ${JSON.stringify(clip(result.stdout.trim(), 80))}).`,
    );
  }
  return value;
}

async function viewError(npm: NpmRunner, result: NpmResult): Promise<UserError> {
  const code = npmErrorCode(result);
  const registry = await registryOf(npm);
  if (code === "E404") {
    return new UserError(
      `${NPM_PACKAGE} is not published on the npm registry ${registry} (E404). Is npm set up ` +
        `with the right registry? "npm config get registry" shows it.`,
    );
  }
  if (code && NETWORK_CODES.has(code)) {
    return new UserError(
      `Cannot reach the npm registry ${registry} to look up the latest ${NPM_PACKAGE} ` +
        `(${code}). Check the network and npm's registry and proxy settings ` +
        `("npm config get registry"), then run "hub update" again.`,
    );
  }
  if (code === "E401" || code === "E403") {
    return new UserError(
      `The npm registry ${registry} refused to show ${NPM_PACKAGE} (${code}). Log in with ` +
        `"npm login --registry ${registry}" or fix the token in your .npmrc.`,
    );
  }
  return new UserError(
    `Looking up the latest ${NPM_PACKAGE} on ${registry} failed: ${npmErrorText(result)}`,
  );
}

/** `npm install --global --prefix <prefix> @tabhub/hub@<version>`. */
export async function installGlobal(npm: NpmRunner, prefix: string, version: string) {
  const spec = `${NPM_PACKAGE}@${version}`;
  const command = `npm install --global --prefix "${prefix}" ${spec}`;
  const args = ["install", "--global", `--prefix=${prefix}`, spec, "--no-fund", "--no-audit"];
  const result = await npm(args, INSTALL_TIMEOUT_MS);
  if (result.timedOut) {
    throw new UserError(
      `Installing ${spec} with npm did not finish within ${INSTALL_TIMEOUT_MS / 60_000} ` +
        `minutes and was stopped. Run "${command}" yourself to see what it does.`,
    );
  }
  if (result.code === 0) return;
  const code = npmErrorCode(result);
  const hint = code === "EACCES" || code === "EPERM"
    ? ` You may not write to ${clip(prefix, 200)}: run the command as the user who installed hub.`
    : "";
  throw new UserError(
    `Installing ${spec} with npm failed: ${npmErrorText(result)}.${hint} Run "${command}" ` +
      `yourself to see the whole output.`,
  );
}

/** -1, 0 or 1 as `a` is older than, equal to or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  return semver.compare(a, b);
}
