/**
 * The one error of plugin package operations: a user error with a machine code (for the side panel
 * and `--json`) and a bounded message that says what was being done, what is wrong and how to fix
 * it. A failure the hub runs for the extension reaches it as a JSON-RPC server error with that code.
 */
import { isUserError, UserError } from "../cli/user_error.ts";
import { clip } from "../../protocol/clip.ts";

export const PACKAGE_ERROR_CODES = [
  "REGISTRY_UNREACHABLE",
  "PACKAGE_NOT_FOUND",
  "NOT_A_HUB_PLUGIN",
  "INCOMPATIBLE_SDK",
  "PACKAGE_TOO_LARGE",
  "INVALID_NAME",
  "NPM_FAILED",
  "TIMEOUT",
  "NOT_INSTALLED",
] as const;
export type PackageErrorCode = typeof PACKAGE_ERROR_CODES[number];

/** The longest message a package error carries. */
export const MAX_PACKAGE_ERROR_LENGTH = 600;

/** A failed package operation: a user error whose code is one of PACKAGE_ERROR_CODES. */
export type PackageError = UserError & { readonly code: PackageErrorCode };

/** The error of a package operation, its message on one line and at most 600 characters. */
export function packageError(code: PackageErrorCode, message: string): PackageError {
  const oneLine = clip(message.replace(/\s*\n\s*/g, " "), MAX_PACKAGE_ERROR_LENGTH);
  return new UserError(oneLine, { code }) as PackageError;
}

/** Whether `error` is a package operation's failure (callers keep it, or answer its code). */
export function isPackageError(error: unknown): error is PackageError {
  return isUserError(error) && (PACKAGE_ERROR_CODES as readonly unknown[]).includes(error.code);
}
