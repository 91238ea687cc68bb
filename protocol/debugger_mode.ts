/**
 * Whether the extension may attach Chromium's debugger (`chrome.debugger`) to tabs: `auto`
 * attaches to a tab when a call needs it (trusted input, dialogs, PDFs…) and detaches when idle;
 * `off` never attaches, so tools fall back to DOM events or fail with DEBUGGER_OFF. The one
 * definition the config file, `sync.full`, the side panel and the worker share.
 */
import * as z from "zod";

export const DEBUGGER_MODES = ["auto", "off"] as const;
export type DebuggerMode = typeof DEBUGGER_MODES[number];

/** The mode in a config file or a `/ws` message. */
export const debuggerModeSchema = z.enum(DEBUGGER_MODES);

export function isDebuggerMode(value: unknown): value is DebuggerMode {
  return (DEBUGGER_MODES as readonly unknown[]).includes(value);
}
