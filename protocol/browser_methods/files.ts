/** Files into and out of a page: uploads and PDFs. */
import type { BrowserMethodSpec } from "./spec.ts";

export const FILE_METHODS = {} satisfies Record<string, BrowserMethodSpec>;

/** What each method of this file answers. */
// deno-lint-ignore ban-types
export type FileResults = {};
