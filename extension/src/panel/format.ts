/**
 * Pure text formatting for the side panel: tool parameters a person can read (hidden characters
 * escaped, long values folded behind a preview and a visible "show all"), countdowns, relative
 * times and durations. No DOM here, so it is unit-tested.
 */
import { visibleText } from "../../../protocol/visible_text.ts";
import { splitToolName } from "../../../protocol/call_contract.ts";

/** Values longer than this (characters) or taller than FOLD_LINES are folded behind a preview. */
export const FOLD_CHARS = 160;
export const FOLD_LINES = 6;
/** How much of a folded value the preview shows. */
export const PREVIEW_CHARS = 100;
export const PREVIEW_LINES = 3;

export interface ShownValue {
  /** `text`: a string, shown as is; `json`: anything else, as (pretty) JSON. */
  kind: "text" | "json";
  /** The whole value as text, as received: the view escapes it as it draws (dom.ts). */
  text: string;
  /** The same, hidden characters escaped (see protocol/visible_text.ts): what a person reads. */
  full: string;
  /** Set when the value is folded: the start of `text` to show before "show all", with "…". */
  preview?: string;
  /** Set when the value (or, for a parameter, its key) held characters that do not show. */
  hidden?: true;
}

export interface ShownParameter extends ShownValue {
  /** The key as received (the view escapes it on one line). */
  rawKey: string;
  /** The key on one line, hidden characters (line breaks too) escaped. */
  key: string;
}

/** Length of `text` once its hidden characters are escaped (line breaks kept). */
function shownLength(text: string): number {
  return visibleText(text, { lines: true }).length;
}

/** The longest start of `text` whose escaped form is at most `max` characters. */
function cutShown(text: string, max: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    used += shownLength(char);
    if (used > max) break;
    end += char.length;
  }
  return text.slice(0, end);
}

/** Short JSON stays on one line; longer objects and arrays are pretty-printed. */
export const COMPACT_JSON_CHARS = 60;

/** JSON text of a value (see COMPACT_JSON_CHARS); anything unserializable is described. */
export function jsonText(value: unknown): string {
  if (value === undefined) return "undefined";
  try {
    const compact = JSON.stringify(value);
    if (compact === undefined) return String(value);
    return compact.length <= COMPACT_JSON_CHARS ? compact : JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/**
 * The start of `text` that fits PREVIEW_CHARS (counted escaped) and PREVIEW_LINES, with "…" when
 * cut.
 */
export function previewOf(text: string): string {
  const lines = text.split("\n");
  let preview = lines.slice(0, PREVIEW_LINES).join("\n");
  if (shownLength(preview) > PREVIEW_CHARS) preview = cutShown(preview, PREVIEW_CHARS);
  return preview.length < text.length ? `${preview.trimEnd()}…` : preview;
}

/** Whether `text` folds: longer than FOLD_CHARS once escaped, or taller than FOLD_LINES. */
export function isLong(text: string): boolean {
  return shownLength(text) > FOLD_CHARS || text.split("\n").length > FOLD_LINES;
}

/**
 * How one parameter value is shown: strings as text, the rest as JSON, hidden characters escaped
 * (line breaks kept); long ones folded.
 */
export function showValue(value: unknown): ShownValue {
  const text = typeof value === "string" ? value : jsonText(value);
  const full = visibleText(text, { lines: true });
  const shown: ShownValue = { kind: typeof value === "string" ? "text" : "json", text, full };
  if (full !== text) shown.hidden = true;
  if (isLong(text)) shown.preview = previewOf(text);
  return shown;
}

/** Every parameter in the order the caller sent them; keys are one line, escaped the same way. */
export function showParameters(parameters: Record<string, unknown>): ShownParameter[] {
  return Object.entries(parameters).map(([rawKey, value]) => {
    const key = visibleText(rawKey);
    const shown: ShownParameter = { rawKey, key, ...showValue(value) };
    if (key !== rawKey) shown.hidden = true;
    return shown;
  });
}

/** "1,234 chars" style count for the fold's summary. */
export function charCount(text: string): string {
  return `${text.length.toLocaleString("en-US")} chars`;
}

/** The fold's control: "Show all 2,000 chars (1,900 not shown above)". */
export function foldSummary(value: ShownValue): string {
  const shownChars = value.preview === undefined
    ? value.full.length
    : shownLength(value.preview.replace(/…$/, ""));
  const left = Math.max(0, value.full.length - shownChars);
  return `Show all ${charCount(value.full)} (${left.toLocaleString("en-US")} not shown above)`;
}

/** Time left until `expiresAt` as "4:59" (minutes:seconds), "0:00" once it passed. */
export function countdown(expiresAt: number, now: number): string {
  const left = Math.max(0, Math.ceil((expiresAt - now) / 1000));
  const minutes = Math.floor(left / 60);
  const seconds = left % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

/** Spoken form of the same: "4 minutes 59 seconds". */
export function countdownWords(expiresAt: number, now: number): string {
  const left = Math.max(0, Math.ceil((expiresAt - now) / 1000));
  const minutes = Math.floor(left / 60);
  const seconds = left % 60;
  const parts: string[] = [];
  if (minutes > 0) parts.push(`${minutes} minute${minutes === 1 ? "" : "s"}`);
  if (seconds > 0 || minutes === 0) parts.push(`${seconds} second${seconds === 1 ? "" : "s"}`);
  return parts.join(" ");
}

/** "just now", "42 s ago", "3 min ago", "2 h ago", or a date for older times. */
export function relativeTime(at: number, now: number): string {
  const seconds = Math.floor((now - at) / 1000);
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(at).toISOString().slice(0, 10);
}

/** "850 ms", "1.2 s", "2 min 5 s". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

/** A plugin tool's own name: `test-app__echo` → `echo` (config keys use it). */
export function baseToolName(plugin: string, tool: string): string {
  const split = splitToolName(tool);
  return split?.plugin === plugin ? split.tool : tool;
}

/** "1 tab" / "3 tabs". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
