/**
 * Error categories and the error payload every transport and the audit log share (DESIGN.md §4).
 * A plugin's `ToolError` travels from the page to the agent in this shape.
 */
export const ERROR_CATEGORIES = [
  "validation",
  "permission",
  "not_found",
  "unavailable",
  "timeout",
  "rate_limit",
  "auth",
  "internal",
] as const;
export type ErrorCategory = typeof ERROR_CATEGORIES[number];

export interface ErrorPayload {
  /** Machine code, UPPER_SNAKE_CASE, such as `NOT_LOGGED_IN`. */
  code: string;
  message: string;
  category: ErrorCategory;
  /** Whether trying the same call again later may succeed. */
  retryable: boolean;
  /** Extra JSON data a plugin attached. */
  details?: unknown;
}

export function isErrorCategory(value: unknown): value is ErrorCategory {
  return typeof value === "string" && (ERROR_CATEGORIES as readonly string[]).includes(value);
}
