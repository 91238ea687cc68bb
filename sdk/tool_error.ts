/**
 * `ToolError`: how a plugin tool fails on purpose. Its code, category and retryable flag reach the
 * agent unchanged, on every transport, and the audit log.
 */
import {
  type ErrorCategory,
  type ErrorPayload,
  errorPayload,
  type HubErrorCode,
  isErrorCategory,
} from "../protocol/errors.ts";

export interface ToolErrorOptions {
  /** Machine code, UPPER_SNAKE_CASE (default `TOOL_ERROR`). */
  code?: string;
  /** Default `internal`. */
  category?: ErrorCategory;
  /** Whether the same call may succeed later (default: true for timeout/unavailable/rate_limit). */
  retryable?: boolean;
  /** Extra JSON data for the agent. */
  details?: unknown;
}

const RETRYABLE_BY_DEFAULT: ErrorCategory[] = ["timeout", "unavailable", "rate_limit"];

export class ToolError extends Error {
  readonly code: string;
  readonly category: ErrorCategory;
  readonly retryable: boolean;
  readonly details?: unknown;

  constructor(message: string, options: ToolErrorOptions = {}) {
    super(message);
    this.name = "ToolError";
    this.code = options.code ?? "TOOL_ERROR";
    this.category = isErrorCategory(options.category) ? options.category : "internal";
    this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT.includes(this.category);
    this.details = options.details;
  }

  /** The wire form of this error. */
  toPayload(): ErrorPayload {
    const payload: ErrorPayload = {
      code: this.code,
      message: this.message,
      category: this.category,
      retryable: this.retryable,
    };
    if (this.details !== undefined) payload.details = this.details;
    return payload;
  }

  static validation(message: string, code = "INVALID_INPUT") {
    return new ToolError(message, { code, category: "validation" });
  }
  static notFound(message: string, code = "NOT_FOUND") {
    return new ToolError(message, { code, category: "not_found" });
  }
  static auth(message: string, code = "NOT_AUTHENTICATED") {
    return new ToolError(message, { code, category: "auth" });
  }
  static unavailable(message: string, code = "UNAVAILABLE") {
    return new ToolError(message, { code, category: "unavailable" });
  }
  static timeout(message: string, code = "TIMEOUT") {
    return new ToolError(message, { code, category: "timeout" });
  }
  static rateLimit(message: string, code = "RATE_LIMITED") {
    return new ToolError(message, { code, category: "rate_limit" });
  }
}

/** Any thrown value as a wire error: a ToolError keeps its fields, anything else is internal. */
export function toErrorPayload(
  error: unknown,
  fallbackCode: HubErrorCode = "TOOL_FAILED",
): ErrorPayload {
  if (error instanceof ToolError) return error.toPayload();
  // A ToolError from another copy of the SDK (another plugin's bundle) still keeps its fields.
  const e = error as Partial<ToolError> | undefined;
  if (e && e.name === "ToolError" && typeof e.code === "string" && isErrorCategory(e.category)) {
    const payload: ErrorPayload = {
      code: e.code,
      message: String(e.message),
      category: e.category,
      retryable: Boolean(e.retryable),
    };
    if (e.details !== undefined) payload.details = e.details;
    return payload;
  }
  const message = error instanceof Error ? error.message : String(error);
  return errorPayload(fallbackCode, message);
}
