import { browserTool } from "./browser_tool.ts";

export const getConsoleLogs = browserTool({
  name: "browser_get_console_logs",
  displayName: "Get console logs",
  description:
    "Read a tab's console: console.log/info/warn/error/debug messages, uncaught errors " +
    '(source "uncaught") and unhandled promise rejections (source "unhandledrejection"), ' +
    "oldest first and newest last: { tabId, url, entries: [{ time (ISO 8601), level (debug, " +
    "log, info, warn, error), text, source? }], total, dropped, note? }. Only messages since " +
    "the page loaded are there, and only on pages loaded after the hub extension was installed " +
    "(otherwise entries is empty and note says to reload the page). The page keeps its last " +
    "1000 entries; dropped counts older ones it no longer holds, total the held entries that " +
    "match level. Texts are formatted like the console (objects as JSON-ish text), each cut at " +
    "2000 characters. Only http(s) pages: others fail with NOT_A_WEB_PAGE.",
  method: "page.console",
});
