/**
 * `extension.reload` (extension_reload): reloads the extension. The reload waits a moment so this
 * answer reaches the hub first; the new service worker then reconnects by itself.
 */
import type { BrowserMethod } from "./browser_method.ts";

export const extensionReload: BrowserMethod<"extension.reload"> = async (
  _input,
  { log, state, reload },
) => {
  const version = (await state()).extensionVersion;
  log.info("Reloading the extension for extension_reload");
  reload();
  return { reloading: true, version };
};
