/** The browser's downloads. */
import * as z from "zod";
import type { BrowserMethodSpec } from "./spec.ts";

/** A download's state, as Chromium's downloads API names it. */
export const DOWNLOAD_STATES = ["in_progress", "complete", "interrupted"] as const;
export type DownloadState = (typeof DOWNLOAD_STATES)[number];

/** How many downloads `downloads.list` answers by default, and at most. */
export const DEFAULT_DOWNLOADS = 20;
export const MAX_DOWNLOADS = 200;
/** A download's URL is cut to this many characters (a data: URL can be megabytes). */
export const DOWNLOAD_URL_CHARS = 2048;

export const DOWNLOAD_METHODS = {
  "downloads.list": {
    input: z.object({
      state: z.enum(DOWNLOAD_STATES).optional().describe(
        "Only downloads in this state: in_progress, complete or interrupted. Omit for all.",
      ),
      limit: z.number().int().min(1).max(MAX_DOWNLOADS).default(DEFAULT_DOWNLOADS).describe(
        `Most downloads to list, newest first (default ${DEFAULT_DOWNLOADS}, at most ` +
          `${MAX_DOWNLOADS}).`,
      ),
    }),
  },
} satisfies Record<string, BrowserMethodSpec>;

/**
 * What an acting tool adds to its result as `download` when its action started one: the file's
 * base name (empty while the browser has not chosen it yet, e.g. a Save-as dialog is open), the
 * URL, the state when the tool answered, and the bytes received by then.
 */
export interface DownloadReport {
  filename: string;
  url: string;
  state: DownloadState;
  bytes: number;
}

/** One download as `downloads.list` describes it. */
export interface DownloadEntry {
  id: number;
  url: string;
  /** The file's base name ("" until the browser has chosen it). */
  filename: string;
  /** The file's full path ("" until chosen). */
  path: string;
  bytesReceived: number;
  /** null when the server did not say. */
  totalBytes: number | null;
  state: DownloadState;
  /** Why it was interrupted (Chromium's reason, e.g. NETWORK_FAILED, USER_CANCELED). */
  error?: string;
  /** ISO 8601. */
  startedAt: string;
  /** The tab whose action started it, when hub saw that action. */
  tabId?: number;
}

/** What each method of this file answers. */
export type DownloadResults = {
  "downloads.list": { downloads: DownloadEntry[] };
};
