import { browserTool } from "./browser_tool.ts";
import { DOWNLOAD_URL_CHARS } from "../../protocol/browser_methods/downloads.ts";

export const listDownloads = browserTool({
  name: "browser_list_downloads",
  displayName: "List downloads",
  description: "List the browser's downloads, newest first: { downloads: [{ id, url, filename " +
    "(the file's base name), path (its full path), bytesReceived, totalBytes (null when the " +
    "server did not say), state (in_progress, complete or interrupted), error? (why it was " +
    "interrupted, e.g. NETWORK_FAILED), startedAt (ISO 8601), tabId? (the tab whose hub " +
    "action started it) }] }. filename and path are empty until the browser has chosen the " +
    `file (e.g. while a Save-as dialog is open); URLs are cut at ${DOWNLOAD_URL_CHARS} ` +
    "characters. A tool whose action starts a download also reports it as download: " +
    "{ filename, url, state, bytes }.",
  method: "downloads.list",
});
