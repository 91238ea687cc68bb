/**
 * `downloads.list` (browser_list_downloads): the browser's downloads, newest first, from
 * chrome.downloads (no debugger, no tab). `tabId` is there for downloads a hub action started.
 */
import type { BrowserMethod } from "./browser_method.ts";

export const downloadsList: BrowserMethod<"downloads.list"> = async (input, { downloads }) => ({
  downloads: await downloads.list({ state: input.state, limit: input.limit }),
});
