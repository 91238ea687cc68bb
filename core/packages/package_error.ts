/**
 * The one error of plugin package operations: a machine code (for the side panel and `--json`)
 * and a bounded message that says what was being done, what is wrong and how to fix it.
 */
import { UserError } from "../cli/user_error.ts";
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

/** The longest message a PackageError carries. */
export const MAX_PACKAGE_ERROR_LENGTH = 600;

export class PackageError extends UserError {
  constructor(override readonly code: PackageErrorCode, message: string) {
    super(clip(message.replace(/\s*\n\s*/g, " "), MAX_PACKAGE_ERROR_LENGTH));
    this.name = "PackageError";
  }
}
