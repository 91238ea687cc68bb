/**
 * The error a tool call fails with, on every transport: a code, category and retryable flag
 * (docs/http.md lists them), plus the HTTP status REST answers with. Library code throws it; each transport
 * turns it into its own shape in one place.
 */
import {
  type ErrorPayload,
  hubError,
  type HubErrorCode,
  isErrorPayload,
} from "../../protocol/errors.ts";
import { clip } from "../../protocol/clip.ts";
import { DomainError } from "../domain_error.ts";

/** Characters of a hub error message; a longer one (an unexpected error's text) is cut. */
export const MAX_CALL_ERROR_CHARS = 2_000;

/**
 * The REST status of the hub's own call failures. Codes not listed here (a plugin's own codes, and
 * those the page or the extension report for one call, such as RESULT_TOO_LARGE) are the tool's
 * failure: 422.
 */
const STATUS: Partial<Record<HubErrorCode, number>> = {
  INVALID_ARGUMENTS: 400,
  TOOL_DISABLED: 403,
  PERMISSION_OFF: 403,
  PERMISSION_DENIED: 403,
  TOOL_NOT_FOUND: 404,
  TAB_NOT_FOUND: 404,
  CONCURRENCY_LIMIT: 429,
  EXTENSION_NOT_CONNECTED: 503,
  EXTENSION_DISCONNECTED: 503,
  TAB_CLOSED: 503,
  TAB_UNAVAILABLE: 503,
  TAB_NAVIGATED: 503,
  TIMEOUT: 504,
  CANCELLED: 499,
  EXTENSION_ERROR: 502,
  INTERNAL: 500,
};

export class CallError extends Error {
  constructor(
    readonly payload: ErrorPayload,
    readonly fromTool = false,
    /** The HTTP status when the code's usual one does not fit (413 for a body over the limit). */
    readonly status?: number,
  ) {
    super(payload.message);
    this.name = "CallError";
  }

  /** 422 for errors the tool itself reported, otherwise by the hub's code. */
  get httpStatus(): number {
    return this.status ??
      (this.fromTool ? 422 : STATUS[this.payload.code as HubErrorCode] ?? 500);
  }
}

/** Throws-ready error for one of the hub's own codes; the message is cut to a bounded length. */
export function callError(code: HubErrorCode, message: string, details?: unknown): CallError {
  return new CallError(hubError(code, clip(message, MAX_CALL_ERROR_CHARS), details));
}

/** INVALID_ARGUMENTS for a request whose body was unusable, with the status REST answers. */
export function badRequestError(request: { message: string; status: number }): CallError {
  const { payload } = callError("INVALID_ARGUMENTS", request.message);
  return new CallError(payload, false, request.status);
}

/** Why a call ended when its signal aborted: the CallError it carries, else CANCELLED. */
export function abortError(signal: AbortSignal, tool: string): CallError {
  return signal.reason instanceof CallError
    ? signal.reason
    : callError("CANCELLED", `The caller cancelled ${tool}.`);
}

/**
 * An error the extension answered a dispatch with: the hub's call failures (TAB_CLOSED when a tab
 * closes mid-call…) keep their meaning and status; anything else is the tool's own failure.
 */
export function extensionCallError(payload: ErrorPayload): CallError {
  return new CallError(payload, !Object.hasOwn(STATUS, payload.code));
}

/**
 * Any thrown value as a CallError. A domain failure inside a management tool is that tool's
 * reported error, like a plugin's ToolError; unexpected errors become INTERNAL with their message.
 */
export function toCallError(error: unknown): CallError {
  if (error instanceof CallError) return error;
  if (error instanceof DomainError) return new CallError(error.payload, true);
  if (isErrorPayload(error)) return new CallError(error, true);
  return callError("INTERNAL", `Internal error: ${(error as Error)?.message ?? String(error)}`);
}
