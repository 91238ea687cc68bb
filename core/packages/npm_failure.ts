/**
 * Turns a failed npm call into a package error (`packageError`): npm's error code (E404, ECONNREFUSED, EACCES...) and
 * exit status decide the code, and the message says what was being done, what npm said and what to
 * do. Pure.
 */
import { clip } from "../../protocol/clip.ts";
import {
  NETWORK_CODES,
  npmErrorCode,
  npmErrorText,
  type NpmResult,
} from "../process/npm_runner.ts";
import { type PackageError, packageError } from "./package_error.ts";

export interface NpmFailureContext {
  /** What was being done, as a phrase: `installing hub-plugin-x@1.0.0`. */
  doing: string;
  /** The package the call was about. */
  name: string;
  /** The registry npm is configured with, for messages. */
  registry: string;
  timeoutMs: number;
  /** The npm command a person can run to see the whole output. */
  command: string;
}

/** Whether a failed call could not reach the registry. */
export function isNetworkFailure(result: NpmResult): boolean {
  const code = npmErrorCode(result);
  return code !== undefined && NETWORK_CODES.has(code);
}

/** The package error for a failed (or timed out) npm call. */
export function npmFailure(result: NpmResult, ctx: NpmFailureContext): PackageError {
  const code = npmErrorCode(result);
  const seconds = Math.round(ctx.timeoutMs / 1000);
  if (result.timedOut) {
    return packageError(
      "TIMEOUT",
      `npm did not finish ${ctx.doing} within ${seconds} s and was stopped (registry ` +
        `${ctx.registry}). Check the network and npm's registry and proxy settings, then try ` +
        `again; "${ctx.command}" shows what npm does.`,
    );
  }
  if (code === "E404") {
    return packageError(
      "PACKAGE_NOT_FOUND",
      `${ctx.name} is not published on the npm registry ${ctx.registry} (E404). Check the ` +
        `name ("hub plugin search" lists plugin packages) and npm's registry ("npm config get ` +
        `registry").`,
    );
  }
  if (code === "ETARGET") {
    return packageError(
      "PACKAGE_NOT_FOUND",
      `${ctx.name} has no version that matches (ETARGET) on ${ctx.registry}. "npm view ` +
        `${ctx.name} versions" lists the published ones.`,
    );
  }
  if (code && NETWORK_CODES.has(code)) return unreachable(ctx, code);
  if (code === "E401" || code === "E403") {
    return packageError(
      "NPM_FAILED",
      `The npm registry ${ctx.registry} refused ${ctx.doing} (${code}). Log in with "npm ` +
        `login --registry ${ctx.registry}" or fix the token in your .npmrc.`,
    );
  }
  if (code === "EACCES" || code === "EPERM") {
    return packageError(
      "NPM_FAILED",
      `npm may not write where global packages live while ${ctx.doing} (${code}). Run the ` +
        `command as the user who installed hub and npm, or fix the folder's owner; ` +
        `"${ctx.command}" shows npm's whole output.`,
    );
  }
  if (code === "EINVALIDPACKAGENAME") {
    return packageError("INVALID_NAME", `npm refused the name ${ctx.name}: ${detail(result)}`);
  }
  return packageError(
    "NPM_FAILED",
    `npm failed ${ctx.doing}: ${detail(result)}. Run "${ctx.command}" yourself to see the ` +
      `whole output.`,
  );
}

/** The registry could not be reached (npm's code, or a check that found it down). */
export function unreachable(ctx: Pick<NpmFailureContext, "doing" | "registry">, code: string) {
  return packageError(
    "REGISTRY_UNREACHABLE",
    `Cannot reach the npm registry ${ctx.registry} while ${ctx.doing} (${code}). Check the ` +
      `network and npm's registry and proxy settings ("npm config get registry"), then try ` +
      `again.`,
  );
}

function detail(result: NpmResult): string {
  return clip(npmErrorText(result, 240), 240);
}
