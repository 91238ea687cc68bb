/**
 * Error categories and the error payload every transport and the audit log share
 * (docs/architecture.md, "Errors"). A plugin's `ToolError` travels from the page to the agent in
 * this shape.
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

/**
 * Every error code the hub and its extension produce themselves, with what it means for an agent
 * (docs/http.md lists them). Build payloads with `hubError`, never inline, so a code has one
 * category and one retryable flag on both sides of the link. A plugin's own codes (its
 * `ToolError`s) are not listed: they travel as the plugin made them.
 */
export const HUB_ERRORS = {
  // A call refused or failed by the hub.
  INVALID_ARGUMENTS: { category: "validation", retryable: false },
  TOOL_NOT_FOUND: { category: "not_found", retryable: false },
  TOOL_DISABLED: { category: "permission", retryable: false },
  PERMISSION_OFF: { category: "permission", retryable: false },
  PERMISSION_DENIED: { category: "permission", retryable: false },
  EXTENSION_NOT_CONNECTED: { category: "unavailable", retryable: true },
  EXTENSION_DISCONNECTED: { category: "unavailable", retryable: true },
  TAB_CLOSED: { category: "unavailable", retryable: true },
  TAB_UNAVAILABLE: { category: "unavailable", retryable: true },
  TAB_NOT_FOUND: { category: "not_found", retryable: false },
  TAB_NAVIGATED: { category: "unavailable", retryable: true },
  TIMEOUT: { category: "timeout", retryable: true },
  CONCURRENCY_LIMIT: { category: "rate_limit", retryable: true },
  CANCELLED: { category: "internal", retryable: true },
  EXTENSION_ERROR: { category: "internal", retryable: false },
  INTERNAL: { category: "internal", retryable: false },
  // Reported from the extension or the page for one call.
  RESULT_TOO_LARGE: { category: "validation", retryable: false },
  PAGE_NOT_SCRIPTABLE: { category: "permission", retryable: false },
  ADAPTER_ERROR: { category: "internal", retryable: false },
  // Plugin management and settings (management tools, REST, the side panel).
  PLUGIN_NOT_FOUND: { category: "not_found", retryable: false },
  VERSION_MISMATCH: { category: "validation", retryable: false },
  INVALID_REQUEST: { category: "validation", retryable: false },
  INVALID_SETTINGS: { category: "validation", retryable: false },
  RELOAD_FAILED: { category: "internal", retryable: false },
  SAVE_FAILED: { category: "internal", retryable: false },
} as const satisfies Record<string, { category: ErrorCategory; retryable: boolean }>;

export type HubErrorCode = keyof typeof HUB_ERRORS;

/** An error payload for one of the hub's own codes. */
export function hubError(code: HubErrorCode, message: string, details?: unknown): ErrorPayload {
  const payload: ErrorPayload = { code, message, ...HUB_ERRORS[code] };
  if (details !== undefined) payload.details = details;
  return payload;
}

/** Checks the shape of an error payload that arrived from elsewhere (the extension, a page). */
export function isErrorPayload(value: unknown): value is ErrorPayload {
  const v = value as ErrorPayload;
  return typeof v === "object" && v !== null && typeof v.code === "string" &&
    typeof v.message === "string" && isErrorCategory(v.category) &&
    typeof v.retryable === "boolean";
}
