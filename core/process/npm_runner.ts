/**
 * Runs the `npm` command for `hub update` and for plugin packages. npm does the networking, under
 * the user's own npm config (registry, proxy, CA, auth), so hub keeps its loopback-only network
 * permission. Every call has a time limit and an output limit, stops npm with the processes it
 * started, and runs in an empty folder (so a project .npmrc where hub was started changes nothing);
 * npm missing is a user error. Also what callers need to read npm's answers: its error code, its
 * error lines, and the registry it is configured with.
 */
import { UserError } from "../cli/user_error.ts";
import { clip } from "../../protocol/clip.ts";
import { type BoundedResult, type ChildLimits, runBounded } from "./bounded_child.ts";

export type NpmResult = BoundedResult;

export type NpmRunner = (args: string[], timeoutMs: number) => Promise<NpmResult>;

const CONFIG_TIMEOUT_MS = 15_000;

/**
 * Flags that make npm fail fast on a registry that is down (its default retries take over a
 * minute) instead of waiting out the caller's time limit.
 */
export const FAIL_FAST_FLAGS = [
  "--fetch-retries=1",
  "--fetch-retry-mintimeout=1000",
  "--fetch-retry-maxtimeout=3000",
  "--fetch-timeout=30000",
];

/**
 * Flags for a read that must come from the registry itself: `cache` is an empty folder, so a warm
 * cache can never answer for a registry that is down.
 */
export function registryReadFlags(cache: string): string[] {
  return ["--prefer-online", `--cache=${cache}`, ...FAIL_FAST_FLAGS];
}

/** npm error codes that mean the registry could not be reached. */
export const NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "ESOCKETTIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNABORTED",
  "ERR_SOCKET_TIMEOUT",
  "FETCH_ERROR",
  "ENOTCACHED",
]);

/** Runs npm (tests pass another command to see how a missing, slow or chatty npm is handled). */
export function npmRunner(command = "npm", options: ChildLimits = {}): NpmRunner {
  return async (args, timeoutMs) => {
    try {
      return await runBounded(command, args, timeoutMs, options);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new UserError(
          `hub needs npm for this, and npm is not on the PATH. Install Node.js (it comes with ` +
            `npm), or fix the PATH, then run the command again.`,
        );
      }
      throw new UserError(`Cannot run npm: ${clip((error as Error).message, 200)}`);
    }
  };
}

export const runNpm: NpmRunner = npmRunner();

/** The last lines npm wrote (its `npm error` lines), one line, bounded. */
export function npmErrorText(result: NpmResult, max = 300): string {
  const lines = (result.stderr + "\n" + result.stdout).split("\n")
    .map((line) => line.replace(/^npm (error|ERR!)\s*/, "").trim())
    .filter((line) => line && !/^A complete log of this run/.test(line) && !/^\s*at /.test(line));
  const text = lines.slice(0, 4).join(" / ") || `exit code ${result.code}`;
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** npm's error code (E404, ECONNREFUSED...), from its JSON answer or its `npm error code` line. */
export function npmErrorCode(result: NpmResult): string | undefined {
  try {
    const code = JSON.parse(result.stdout)?.error?.code;
    if (typeof code === "string") return code;
  } catch {
    // not JSON
  }
  return /^npm (?:error|ERR!) code (\S+)/m.exec(result.stderr)?.[1];
}

/** The registry npm is configured with, for messages; a placeholder when npm cannot say. */
export async function registryOf(npm: NpmRunner): Promise<string> {
  try {
    const result = await npm(["config", "get", "registry"], CONFIG_TIMEOUT_MS);
    const url = result.stdout.trim();
    if (result.code === 0 && /^https?:\/\/\S+$/.test(url)) return clip(url, 200);
  } catch {
    // fall through
  }
  return "(the one npm is configured with)";
}
