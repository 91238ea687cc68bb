/**
 * The error a tool call fails with, on every transport: a code, category and retryable flag
 * (DESIGN.md §4), plus the HTTP status REST answers with. Library code throws it; each transport
 * turns it into its own shape in one place.
 */
import {
  type ErrorPayload,
  hubError,
  type HubErrorCode,
  isErrorPayload,
} from "../../protocol/errors.ts";

const STATUS: Partial<Record<string, number>> = {
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
  constructor(readonly payload: ErrorPayload, readonly fromTool = false) {
    super(payload.message);
    this.name = "CallError";
  }

  /** 422 for errors the tool itself reported, otherwise by the hub's code. */
  get httpStatus(): number {
    return this.fromTool ? 422 : STATUS[this.payload.code] ?? 500;
  }
}

/** Throws-ready error for one of the hub's own codes. */
export function callError(code: HubErrorCode, message: string, details?: unknown): CallError {
  return new CallError(hubError(code, message, details));
}

/** Why a call ended when its signal aborted: the CallError it carries, else CANCELLED. */
export function abortError(signal: AbortSignal, tool: string): CallError {
  return signal.reason instanceof CallError
    ? signal.reason
    : callError("CANCELLED", `The caller cancelled ${tool}.`);
}

/** Any thrown value as a CallError; unexpected ones become INTERNAL with their message. */
export function toCallError(error: unknown): CallError {
  if (error instanceof CallError) return error;
  if (isErrorPayload(error)) return new CallError(error, true);
  return callError("INTERNAL", `Internal error: ${(error as Error)?.message ?? String(error)}`);
}
