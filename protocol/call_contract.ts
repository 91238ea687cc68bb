/**
 * The call contract: what every side of a tool call (the page's adapter, the extension, the hub)
 * agrees on about one call. The tool's full name, the result envelope and its reader, the argument
 * check of a zod input, the result-size check, the progress shape, the group names, the log levels
 * and the result limits live here once; each side imports them instead of declaring its own
 * (docs/architecture.md, "Life of a tool call", says which side owns each check).
 *
 * Bundled into every plugin adapter (sdk/_adapter.ts), so it stays small: it imports only the
 * error table, the message limit and zod's types.
 */
import { type ErrorPayload, errorPayload, isErrorPayload } from "./errors.ts";
import { MAX_MESSAGE_BYTES } from "./limits.ts";
import type { z } from "zod";

/** Between a plugin's name and its tool's in a full tool name: `<plugin>__<tool>`. */
export const TOOL_NAME_SEPARATOR = "__";

/** The full name of a plugin's tool, as agents see it: `toolName("jira", "search")` = `jira__search`. */
export function toolName(plugin: string, tool: string): string {
  return plugin + TOOL_NAME_SEPARATOR + tool;
}

/**
 * A full tool name's plugin and base tool name, split at the first separator (plugin names hold
 * no underscore); undefined when the name has no plugin part (a built-in browser tool's name).
 */
export function splitToolName(name: string): { plugin: string; tool: string } | undefined {
  const at = name.indexOf(TOOL_NAME_SEPARATOR);
  if (at <= 0) return undefined;
  return { plugin: name.slice(0, at), tool: name.slice(at + TOOL_NAME_SEPARATOR.length) };
}

/** The group (plugin-like name) of the built-in browser tools, in permissions, lists and logs. */
export const BROWSER_GROUP = "browser";
/** The group of the hub's own management tools. */
export const MANAGEMENT_GROUP = "hub";

/** Levels of a plugin's, the extension's and the hub's log entries, lowest first. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = typeof LOG_LEVELS[number];

/** True when `value` is one of LOG_LEVELS. */
export function isLogLevel(value: unknown): value is LogLevel {
  return (LOG_LEVELS as readonly unknown[]).includes(value);
}

/**
 * The one check of a call's arguments against a zod input (built-in and management tools): the
 * parsed input with defaults applied, or every problem as a `path: message` line (each side bounds
 * them for its answer). The hub runs it before a call goes anywhere (`Catalog.check`); the
 * extension runs it again on the input it is handed (`parseBrowserInput`).
 */
export function checkInput(
  schema: z.ZodType,
  input: unknown,
): { ok: true; input: unknown } | { ok: false; problems: string[] } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, input: result.data };
  const problems = result.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`);
  return { ok: false, problems };
}

/** What a running call reports, from the plugin's `reportProgress` to the agent. */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * How a call ended, from the page up to the hub: a value, or an error payload. The extension adds
 * the tab the call ran in.
 */
export type CallResult =
  | {
    ok: true;
    value: unknown;
    tabId?: number;
    /**
     * The origin of the page the call read or acted on (`https://app.example.com`): the audit
     * log's `site`, and the page-content marker of a reading tool's or plugin tool's result.
     */
    origin?: string;
  }
  | { ok: false; error: ErrorPayload };

/** An origin in a call result is at most this long (scheme, host, port). */
export const MAX_ORIGIN_CHARS = 2100;

/**
 * Reads a call result that came over a boundary (the page's answer in the extension, the
 * extension's answer in the hub): a clean copy with only the contract's keys, or what is wrong.
 * A success must carry a `value` key and any `tabId` must be a safe integer. Never throws.
 */
export function readCallResult(raw: unknown): { result: CallResult } | { problem: string } {
  const r = raw as Record<string, unknown> | null;
  if (typeof r !== "object" || r === null || Array.isArray(r)) {
    return { problem: `expected an object with "ok", got ${describe(raw)}` };
  }
  if (r.ok === true) {
    const tabId = r.tabId as number | undefined;
    if (tabId !== undefined && !Number.isSafeInteger(tabId)) {
      return { problem: `"tabId" must be an integer, got ${describe(tabId)}` };
    }
    if (!("value" in r)) return { problem: `"value" is missing beside "ok": true` };
    const origin = r.origin;
    if (origin !== undefined && (typeof origin !== "string" || origin.length > MAX_ORIGIN_CHARS)) {
      return { problem: `"origin" must be a string of at most ${MAX_ORIGIN_CHARS} characters` };
    }
    return {
      result: {
        ok: true,
        value: r.value,
        ...(tabId === undefined ? {} : { tabId }),
        ...(origin === undefined ? {} : { origin }),
      },
    };
  }
  if (r.ok === false) {
    const error = r.error as ErrorPayload;
    if (!isErrorPayload(error) || error.code === "") {
      return {
        problem: `"error" must be { code, message, category, retryable }, got ${describe(error)}`,
      };
    }
    const { code, message, category, retryable, details } = error;
    const copy: ErrorPayload = { code, message, category, retryable };
    if (details !== undefined) copy.details = details;
    return { result: { ok: false, error: copy } };
  }
  return { problem: `"ok" must be true or false, got ${describe(r.ok)}` };
}

/** A short text of a value for a problem; never throws (a cycle or a BigInt gives its type). */
function describe(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = `a value of type ${typeof value} that is not JSON`;
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Room in a reply frame for what wraps a result (the JSON-RPC id, `ok`, `tabId`, escaping). */
export const RESULT_ENVELOPE_BYTES = 64 * 1024;

/**
 * The largest call result, in bytes of the extension's reply frame: the message limit less the
 * envelope. A bigger result fails the call with RESULT_TOO_LARGE instead of breaking the link.
 */
export const MAX_RESULT_BYTES = MAX_MESSAGE_BYTES - RESULT_ENVELOPE_BYTES;

/**
 * The page's early check, in characters of the result's JSON: half the message limit (so text of
 * two-byte characters still fits one frame), in whole megabytes, so the message says "5 MB".
 */
export const MAX_PAGE_RESULT_CHARS = Math.floor(MAX_MESSAGE_BYTES / 2 / 1e6) * 1e6;

/** How one side words RESULT_TOO_LARGE, given the size and the limit in megabytes. */
export type ResultSizeWords = (sizeMb: string, limitMb: number) => string;

/**
 * The one result-size check: RESULT_TOO_LARGE when `size` (bytes or characters, as `limit`) is
 * over `limit`, in the caller's own words (the page's advice differs from the extension's). The
 * extension runs it on each reply frame with MAX_RESULT_BYTES; the page runs it first with
 * MAX_PAGE_RESULT_CHARS.
 */
export function resultSizeError(
  size: number,
  limit: number,
  words: ResultSizeWords,
): ErrorPayload | undefined {
  if (size <= limit) return undefined;
  return errorPayload("RESULT_TOO_LARGE", words((size / 1e6).toFixed(1), Math.floor(limit / 1e6)));
}

/** The extension's words for a reply frame over MAX_RESULT_BYTES (a built-in or plugin tool). */
export const replyTooLargeWords: ResultSizeWords = (sizeMb, limitMb) =>
  `The result is ${sizeMb} MB; results are limited to ${limitMb} MB. ` +
  "Ask for less (a part of the page, fewer items).";

/** The page's words for a plugin tool's result over MAX_PAGE_RESULT_CHARS. */
export function pageTooLargeWords(tool: string): ResultSizeWords {
  return (sizeMb, limitMb) =>
    `Tool "${tool}" returned ${sizeMb} MB of JSON; the limit is ${limitMb} MB. ` +
    "Return less (page through results, or summarize).";
}
