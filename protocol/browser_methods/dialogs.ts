/** JavaScript dialogs (alert, confirm, prompt, beforeunload) of a tab. */
import type { BrowserMethodSpec } from "./spec.ts";

export const DIALOG_METHODS = {} satisfies Record<string, BrowserMethodSpec>;

/** What each method of this file answers. */
// deno-lint-ignore ban-types
export type DialogResults = {};
