import { z } from "zod";
import type { BrowserTool } from "./browser_tool.ts";

export const extensionGetLogs: BrowserTool = {
  name: "extension_get_logs",
  displayName: "Get extension logs",
  description: "Read the hub browser extension's own log (connection changes, failed " +
    "injections, tabs opened or closed by tools), oldest first and newest last: " +
    "{ entries: [{ time (ISO 8601), level, message }] }. The extension keeps the last 500 " +
    "entries since it last started; long messages are cut.",
  input: z.object({
    level: z.enum(["debug", "info", "warn", "error"]).default("debug").describe(
      "Minimum level to return (default debug: everything).",
    ),
    limit: z.number().int().min(1).max(500).default(100).describe(
      "Return at most this many of the newest entries (1-500, default 100).",
    ),
  }),
  method: "extension.logs",
};
