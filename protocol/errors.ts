/**
 * Error categories and the error payload every transport and the audit log share
 * (docs/decisions/002-one-error-shape.md). A plugin's `ToolError` travels from the page to the agent in
 * this shape; `HubError` carries it when thrown.
 */
import { clip } from "./clip.ts";

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

/** One row of the error table: what a code means on every transport. */
export interface ErrorRow {
  category: ErrorCategory;
  /** Whether trying the same call again later may succeed. */
  retryable: boolean;
  /** The HTTP status REST answers when the hub itself fails with this code (see `restStatus`). */
  status: number;
}

/**
 * The hub's own refusals and failures of a call. When the extension reports one of these for a
 * call (TAB_CLOSED when a tab closes mid-call…) it keeps its meaning and status; any other code a
 * call reports is the tool's own failure (422).
 */
export const CALL_FAILURES = {
  INVALID_ARGUMENTS: { category: "validation", retryable: false, status: 400 },
  TOOL_NOT_FOUND: { category: "not_found", retryable: false, status: 404 },
  TOOL_DISABLED: { category: "permission", retryable: false, status: 403 },
  PERMISSION_OFF: { category: "permission", retryable: false, status: 403 },
  PERMISSION_DENIED: { category: "permission", retryable: false, status: 403 },
  EXTENSION_NOT_CONNECTED: { category: "unavailable", retryable: true, status: 503 },
  EXTENSION_DISCONNECTED: { category: "unavailable", retryable: true, status: 503 },
  TAB_CLOSED: { category: "unavailable", retryable: true, status: 503 },
  TAB_UNAVAILABLE: { category: "unavailable", retryable: true, status: 503 },
  TAB_NOT_FOUND: { category: "not_found", retryable: false, status: 404 },
  TAB_NAVIGATED: { category: "unavailable", retryable: true, status: 503 },
  // Site permissions and the agent's tab group (docs/security.md): the hub's refusals, which the
  // extension makes for it, as it alone knows the tab's page.
  SITE_NOT_ALLOWED: { category: "permission", retryable: false, status: 403 },
  TAB_NOT_IN_AGENT_GROUP: { category: "permission", retryable: false, status: 403 },
  // Between extension and hub only: the site is `ask`; the hub asks the person and dispatches again.
  SITE_ASK: { category: "permission", retryable: false, status: 403 },
  TIMEOUT: { category: "timeout", retryable: true, status: 504 },
  CONCURRENCY_LIMIT: { category: "rate_limit", retryable: true, status: 429 },
  CANCELLED: { category: "internal", retryable: true, status: 499 },
  EXTENSION_ERROR: { category: "internal", retryable: false, status: 502 },
  INTERNAL: { category: "internal", retryable: false, status: 500 },
} as const satisfies Record<string, ErrorRow>;

/** The status of a failure a tool reported for its call: the tool's, not the hub's. */
export const TOOL_FAILURE_STATUS = 422;

/**
 * Every error code the hub, its extension and the SDK produce themselves, with what it means on
 * every transport (docs/http.md lists them): the category and retryable flag a payload carries and
 * the REST status. Build errors with `hubError`, never inline, so a code has one meaning on both
 * sides of the link. A plugin's own codes (its `ToolError`s) are not listed: they travel as the
 * plugin made them.
 */
export const HUB_ERRORS = {
  // A call refused or failed by the hub.
  ...CALL_FAILURES,
  // Reported from the extension or the page for one call.
  RESULT_TOO_LARGE: { category: "validation", retryable: false, status: 422 },
  PAGE_NOT_SCRIPTABLE: { category: "permission", retryable: false, status: 422 },
  ADAPTER_ERROR: { category: "internal", retryable: false, status: 422 },
  // A plugin tool, reported by the SDK in the page (its own failures are the plugin's codes).
  INVALID_OUTPUT: { category: "internal", retryable: false, status: 422 },
  TOOL_FAILED: { category: "internal", retryable: false, status: 422 },
  // Built-in browser tools (docs/browser_tools.md), reported by the extension.
  NOT_A_WEB_PAGE: { category: "validation", retryable: false, status: 422 },
  WINDOW_NOT_FOUND: { category: "not_found", retryable: false, status: 422 },
  NO_HISTORY: { category: "validation", retryable: false, status: 422 },
  SCREENSHOT_TOO_LARGE: { category: "validation", retryable: false, status: 422 },
  SCRIPT_ERROR: { category: "validation", retryable: false, status: 422 },
  SCRIPT_BLOCKED: { category: "permission", retryable: false, status: 422 },
  // Built-in browser tools, reported by the DOM kit in the page.
  INVALID_SELECTOR: { category: "validation", retryable: false, status: 422 },
  ELEMENT_NOT_FOUND: { category: "not_found", retryable: false, status: 422 },
  WAIT_TIMEOUT: { category: "timeout", retryable: false, status: 422 },
  NOT_EDITABLE: { category: "validation", retryable: false, status: 422 },
  NOT_A_SELECT: { category: "validation", retryable: false, status: 422 },
  OPTION_NOT_FOUND: { category: "not_found", retryable: false, status: 422 },
  OPTION_DISABLED: { category: "validation", retryable: false, status: 422 },
  INVALID_KEY: { category: "validation", retryable: false, status: 422 },
  NOT_SCROLLABLE: { category: "validation", retryable: false, status: 422 },
  REF_STALE: { category: "validation", retryable: false, status: 422 },
  PAGE_ERROR: { category: "internal", retryable: false, status: 422 },
  // Built-in browser tools that act through the debugger (trusted input, dialogs, files).
  ELEMENT_COVERED: { category: "validation", retryable: true, status: 422 },
  TAB_HIDDEN: { category: "unavailable", retryable: true, status: 422 },
  DIALOG_OPEN: { category: "validation", retryable: false, status: 422 },
  NO_DIALOG: { category: "validation", retryable: false, status: 422 },
  DEBUGGER_OFF: { category: "permission", retryable: false, status: 422 },
  DEBUGGER_BUSY: { category: "unavailable", retryable: true, status: 422 },
  NOT_A_FILE_INPUT: { category: "validation", retryable: false, status: 422 },
  FILE_NOT_ALLOWED: { category: "permission", retryable: false, status: 422 },
  FILE_TOO_LARGE: { category: "validation", retryable: false, status: 422 },
  REQUEST_NOT_FOUND: { category: "not_found", retryable: false, status: 422 },
  BODY_UNAVAILABLE: { category: "unavailable", retryable: false, status: 422 },
  UNKNOWN_OPERATION: { category: "internal", retryable: false, status: 422 },
  // Plugin management and settings (management tools, REST, the side panel). From a management
  // tool they are that tool's failure (422).
  PLUGIN_NOT_FOUND: { category: "not_found", retryable: false, status: 404 },
  VERSION_MISMATCH: { category: "validation", retryable: false, status: 422 },
  INVALID_REQUEST: { category: "validation", retryable: false, status: 400 },
  INVALID_SETTINGS: { category: "validation", retryable: false, status: 400 },
  RELOAD_FAILED: { category: "internal", retryable: false, status: 500 },
  SAVE_FAILED: { category: "internal", retryable: false, status: 422 },
  // The side panel's "Open folder" (`folder.open` on /ws only: a JSON-RPC server error whose
  // `data.code` is the code; the status is what REST would answer).
  NO_OPENER: { category: "unavailable", retryable: false, status: 503 },
  OPEN_FAILED: { category: "internal", retryable: false, status: 500 },
  // REST only: the guards, the request itself, and endpoints of their own.
  BAD_HOST: { category: "validation", retryable: false, status: 400 },
  BAD_REQUEST: { category: "validation", retryable: false, status: 400 },
  UNAUTHORIZED: { category: "auth", retryable: false, status: 401 },
  FORBIDDEN_HOST: { category: "permission", retryable: false, status: 403 },
  FORBIDDEN_ORIGIN: { category: "permission", retryable: false, status: 403 },
  NOT_FOUND: { category: "not_found", retryable: false, status: 404 },
  METHOD_NOT_ALLOWED: { category: "validation", retryable: false, status: 405 },
  BODY_TOO_LARGE: { category: "validation", retryable: false, status: 413 },
  INVALID_JSON: { category: "validation", retryable: false, status: 400 },
  UPGRADE_REQUIRED: { category: "validation", retryable: false, status: 426 },
  BAD_UPGRADE: { category: "validation", retryable: false, status: 400 },
  RATE_LIMITED: { category: "rate_limit", retryable: true, status: 429 },
  INVALID_NONCE: { category: "validation", retryable: false, status: 400 },
  NOT_LISTENING: { category: "unavailable", retryable: true, status: 503 },
  // The connection guard (server/net/): the server behind it is restarting; a request reached
  // the internal server without coming through the hub's own port.
  SERVER_RESTARTING: { category: "unavailable", retryable: true, status: 503 },
  WRONG_PORT: { category: "permission", retryable: false, status: 403 },
  NO_SECRET: { category: "validation", retryable: false, status: 409 },
  INVALID_QUERY: { category: "validation", retryable: false, status: 400 },
} as const satisfies Record<string, ErrorRow>;

export type HubErrorCode = keyof typeof HUB_ERRORS;

export function isHubErrorCode(code: unknown): code is HubErrorCode {
  return typeof code === "string" && Object.hasOwn(HUB_ERRORS, code);
}

/**
 * The one limit on a hub error message, in characters, on every side and transport: `hubError`
 * cuts a longer message (an unexpected error's text, a long list of problems), and the hub cuts a
 * message the extension or a page reported to it (`server/calls/dispatches.ts`).
 */
export const MAX_ERROR_MESSAGE_CHARS = 4_000;

/** How a HubError differs from its code's row. */
export interface HubErrorOptions {
  /** The tool reported it for its call: REST answers 422 whatever the code. */
  fromTool?: boolean;
  /** The REST status when the code's own does not fit (413 for a call body over the limit). */
  status?: number;
  /** Headers REST answers with (`WWW-Authenticate`, `Retry-After`, `Allow`, `Upgrade`). */
  headers?: Record<string, string>;
}

/**
 * The one error type of the hub, its extension and the SDK: the payload every transport carries,
 * and how REST answers it. Each transport turns it into its own shape in one function (docs/http.md,
 * "Errors"). Build it with `hubError`; wrap a payload that arrived from elsewhere with `new`.
 */
export class HubError extends Error {
  readonly fromTool: boolean;
  readonly status?: number;
  readonly headers: Record<string, string>;

  constructor(readonly payload: ErrorPayload, options: HubErrorOptions = {}) {
    super(payload.message);
    this.name = "HubError";
    this.fromTool = options.fromTool ?? false;
    this.status = options.status;
    this.headers = options.headers ?? {};
  }

  get code(): string {
    return this.payload.code;
  }
}

/**
 * The throw-ready error for one of the hub's own codes, category and retryable flag from the
 * table; the message is cut to `MAX_ERROR_MESSAGE_CHARS`.
 */
export function hubError(
  code: HubErrorCode,
  message: string,
  details?: unknown,
  options?: HubErrorOptions,
): HubError {
  return new HubError(errorPayload(code, clip(message, MAX_ERROR_MESSAGE_CHARS), details), options);
}

/**
 * The plain payload for one of the hub's own codes (what a message to the hub carries). A code the
 * table does not know (a newer page kit's) is an internal failure that is not retryable.
 */
export function errorPayload(code: HubErrorCode, message: string, details?: unknown): ErrorPayload {
  const { category, retryable } = isHubErrorCode(code) ? HUB_ERRORS[code] : HUB_ERRORS.INTERNAL;
  const payload: ErrorPayload = { code, message, category, retryable };
  if (details !== undefined) payload.details = details;
  return payload;
}

/**
 * The HTTP status REST answers an error with: its own when it has one, 422 for a failure the tool
 * reported (a plugin's own codes among them), else its code's row (500 for a code not listed).
 */
export function restStatus(error: HubError): number {
  if (error.status !== undefined) return error.status;
  if (error.fromTool) return TOOL_FAILURE_STATUS;
  return isHubErrorCode(error.code) ? HUB_ERRORS[error.code].status : 500;
}

/** The body of every REST error answer. */
export interface ErrorBody {
  error: { code: string; message: string };
}

/**
 * The body REST answers an error with, `{ "error": { "code", "message" } }`: the handler's
 * `errorResponse` and the connection guard's raw answers (server/net/) both build it here, with
 * the status from `restStatus`, so every error answer on the wire has one shape.
 */
export function errorBody(error: HubError): ErrorBody {
  return { error: { code: error.code, message: error.message } };
}

/** Checks the shape of an error payload that arrived from elsewhere (the extension, a page). */
export function isErrorPayload(value: unknown): value is ErrorPayload {
  const v = value as ErrorPayload;
  return typeof v === "object" && v !== null && typeof v.code === "string" &&
    typeof v.message === "string" && isErrorCategory(v.category) &&
    typeof v.retryable === "boolean";
}
