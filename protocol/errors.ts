/**
 * Error categories and the error payload every transport and the audit log share
 * (docs/decisions/002-one-error-shape.md). A plugin's `ToolError` travels from the page to the agent in
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
  // A plugin tool, reported by the SDK in the page (its own failures are the plugin's codes).
  INVALID_OUTPUT: { category: "internal", retryable: false },
  TOOL_FAILED: { category: "internal", retryable: false },
  // Built-in browser tools (docs/browser_tools.md), reported by the extension.
  NOT_A_WEB_PAGE: { category: "validation", retryable: false },
  WINDOW_NOT_FOUND: { category: "not_found", retryable: false },
  NO_HISTORY: { category: "validation", retryable: false },
  SCREENSHOT_TOO_LARGE: { category: "validation", retryable: false },
  SCRIPT_ERROR: { category: "validation", retryable: false },
  SCRIPT_BLOCKED: { category: "permission", retryable: false },
  // Built-in browser tools, reported by the DOM kit in the page.
  INVALID_SELECTOR: { category: "validation", retryable: false },
  ELEMENT_NOT_FOUND: { category: "not_found", retryable: false },
  WAIT_TIMEOUT: { category: "timeout", retryable: false },
  NOT_EDITABLE: { category: "validation", retryable: false },
  NOT_A_SELECT: { category: "validation", retryable: false },
  OPTION_NOT_FOUND: { category: "not_found", retryable: false },
  OPTION_DISABLED: { category: "validation", retryable: false },
  INVALID_KEY: { category: "validation", retryable: false },
  PAGE_ERROR: { category: "internal", retryable: false },
  UNKNOWN_OPERATION: { category: "internal", retryable: false },
  // Plugin management and settings (management tools, REST, the side panel).
  PLUGIN_NOT_FOUND: { category: "not_found", retryable: false },
  VERSION_MISMATCH: { category: "validation", retryable: false },
  INVALID_REQUEST: { category: "validation", retryable: false },
  INVALID_SETTINGS: { category: "validation", retryable: false },
  RELOAD_FAILED: { category: "internal", retryable: false },
  SAVE_FAILED: { category: "internal", retryable: false },
} as const satisfies Record<string, { category: ErrorCategory; retryable: boolean }>;

export type HubErrorCode = keyof typeof HUB_ERRORS;

export function isHubErrorCode(code: unknown): code is HubErrorCode {
  return typeof code === "string" && Object.hasOwn(HUB_ERRORS, code);
}

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
