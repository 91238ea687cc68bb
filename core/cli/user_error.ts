/**
 * An error the user can fix (bad input, a broken file, a taken port). Its message says what was
 * wrong and how to fix it; the CLI prints it without a stack trace and exits with its `exitCode`
 * (`exitCodeFor`). Anything else is a bug.
 *
 * The one error class of the CLI and of the files, config and packages code it shares with the hub
 * (docs/decisions/016-errors-mapped-once-per-transport.md). A kind that callers tell apart carries
 * a `code`, checked with `isUserError(error, code)`, and is built by a small function next to the
 * code that throws it: `packageError`, `configError`, `unusableFileError`, `unprovenHubError`,
 * `portInUseError`. Errors the hub answers over a transport are `HubError`s instead.
 */

export interface UserErrorOptions {
  /** What kind of user error this is, for callers that treat one kind apart (`isUserError`). */
  code?: string;
  /** The CLI's exit code for it (default 1). */
  exitCode?: number;
  /** What a caller of this kind needs besides the message (an unusable file's path and kind). */
  details?: unknown;
}

export class UserError extends Error {
  readonly code?: string;
  readonly exitCode: number;
  readonly details?: unknown;

  constructor(message: string, options: UserErrorOptions = {}) {
    super(message);
    this.name = "UserError";
    this.code = options.code;
    this.exitCode = options.exitCode ?? 1;
    this.details = options.details;
  }
}

/** Whether `error` is a user error, and of kind `code` when one is given. */
export function isUserError(error: unknown, code?: string): error is UserError {
  return error instanceof UserError && (code === undefined || error.code === code);
}
