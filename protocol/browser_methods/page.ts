/** What a page holds besides its DOM: console messages, cookies, and running a script. */
import * as z from "zod";
import { tabIdField } from "./fields.ts";
import type { BrowserMethodSpec } from "./spec.ts";
import { LOG_LEVELS } from "../call_contract.ts";

export const PAGE_METHODS = {
  "page.console": {
    input: z.object({
      tabId: tabIdField,
      level: z.enum(LOG_LEVELS).default("debug").describe(
        "Minimum level to return (default debug: everything; console.log counts as info).",
      ),
      limit: z.number().int().min(1).max(1000).default(100).describe(
        "Return at most this many of the newest matching entries (1-1000, default 100).",
      ),
      clear: z.boolean().default(false).describe(
        "Empty the tab's log (every level) after reading it, so the next call sees only new " +
          "messages (default false).",
      ),
    }),
  },
  "cookies.get": {
    input: z.object({
      tabId: tabIdField,
      name: z.string().min(1).optional().describe("Return only cookies with this exact name."),
    }),
  },
  "scripting.execute": {
    input: z.object({
      code: z.string().min(1).describe('An expression or statements, e.g. "document.title".'),
      tabId: tabIdField,
    }),
  },
} satisfies Record<string, BrowserMethodSpec>;

/**
 * The levels of a console message, the one list: `log` is console.log, which the level filter
 * (LOG_LEVELS) counts as `info`, as DevTools does.
 */
export const CONSOLE_LEVELS = ["debug", "log", "info", "warn", "error"] as const;
export type ConsoleLevel = typeof CONSOLE_LEVELS[number];

/** One console message; `time` is ISO 8601. */
export interface ConsoleLine {
  time: string;
  level: ConsoleLevel;
  text: string;
  source?: "uncaught" | "unhandledrejection";
}

/** One cookie as `cookies.get` describes it (`expires`: ISO 8601, null for session cookies). */
export interface CookieSummary {
  name: string;
  value: string;
  domain: string;
  path: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: string;
  session: boolean;
  expires: string | null;
}

/** What each method of this file answers. */
export interface PageResults {
  "page.console": {
    tabId: number;
    url: string;
    entries: ConsoleLine[];
    total: number;
    dropped: number;
    note?: string;
  };
  "cookies.get": { tabId: number; url: string; cookies: CookieSummary[] };
  "scripting.execute": { tabId: number; value: unknown };
}
