/** A tab's network requests, recorded by the extension. */
import type { BrowserMethodSpec } from "./spec.ts";

export const NETWORK_METHODS = {} satisfies Record<string, BrowserMethodSpec>;

/** What each method of this file answers. */
// deno-lint-ignore ban-types
export type NetworkResults = {};
