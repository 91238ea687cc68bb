import { browserTool } from "./browser_tool.ts";

export const extensionReload = browserTool({
  name: "extension_reload",
  displayName: "Reload extension",
  description: "Reload the hub browser extension (for example after its files changed). It " +
    "answers { reloading: true, version } first, then reloads; the link to the hub drops and " +
    "comes back within a few seconds, and calls to browser tools fail with " +
    "EXTENSION_NOT_CONNECTED until it has.",
  method: "extension.reload",
});
