/** The browser's downloads. */
import type { BrowserMethodSpec } from "./spec.ts";

export const DOWNLOAD_METHODS = {} satisfies Record<string, BrowserMethodSpec>;

/** What each method of this file answers. */
// deno-lint-ignore ban-types
export type DownloadResults = {};
