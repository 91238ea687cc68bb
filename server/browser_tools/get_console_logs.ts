import { browserTool } from "./browser_tool.ts";

export const getConsoleLogs = browserTool({
  name: "browser_get_console_logs",
  displayName: "Get console logs",
  description:
    "Read a tab's console: console.log/info/warn/error/debug messages, uncaught errors " +
    '(source "uncaught") and unhandled promise rejections (source "unhandledrejection"), ' +
    "oldest first and newest last: { tabId, url, entries: [{ time (ISO 8601), level (debug, " +
    "log, info, warn, error), text, source? }], total, dropped, note? }. Messages since the " +
    "page loaded, as the browser keeps them (its last 1000; dropped is 0: the browser does not " +
    "count older ones); total counts the kept entries that match level. The extension attaches " +
    "the browser's debugger to the tab for this call only (the browser shows a 'debugging' bar " +
    "meanwhile). Texts are formatted like the console (objects as JSON-ish text), each cut at " +
    "2000 characters. Only http(s) pages: others fail with NOT_A_WEB_PAGE.",
  method: "page.console",
  pageContent: true,
});
