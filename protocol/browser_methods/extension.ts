/** The hub browser extension itself: its state, its own log, reloading it. */
import * as z from "zod";
import type { BrowserMethodSpec } from "./spec.ts";
import { LOG_LEVELS, type LogLevel } from "../call_contract.ts";

export const EXTENSION_METHODS = {
  "extension.state": { input: z.object({}) },
  "extension.logs": {
    input: z.object({
      level: z.enum(LOG_LEVELS).default("debug").describe(
        "Minimum level to return (default debug: everything).",
      ),
      limit: z.number().int().min(1).max(500).default(100).describe(
        "Return at most this many of the newest entries (1-500, default 100).",
      ),
    }),
  },
  "extension.reload": { input: z.object({}) },
} satisfies Record<string, BrowserMethodSpec>;

/** What each method of this file answers (`extension.state`: see its tool's description). */
export interface ExtensionResults {
  "extension.state": Record<string, unknown>;
  "extension.logs": {
    entries: { time: string; level: LogLevel; message: string }[];
  };
  "extension.reload": { reloading: true; version: string };
}
