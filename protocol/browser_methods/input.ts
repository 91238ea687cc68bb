/** Pointer input at points and drags (trusted input through the debugger). */
import type { BrowserMethodSpec } from "./spec.ts";

export const INPUT_METHODS = {} satisfies Record<string, BrowserMethodSpec>;

/** What each method of this file answers. */
// deno-lint-ignore ban-types
export type InputResults = {};
