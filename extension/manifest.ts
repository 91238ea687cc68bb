/**
 * The extension's `manifest.json`. It asks only for what the code uses: `scripting` (inject
 * adapters, run tools), `tabs` (every tab's URL and title for tab states and browser_list_tabs),
 * `alarms` (the wake-up that reconnects a stopped service worker), `webNavigation` (tell a new
 * document from a same-document URL change, so a pushState does not fail a running call),
 * `sidePanel` (the panel the toolbar icon opens), `storage` (the keys of the adapters' private
 * doors, in session storage, so a restarted service worker still reaches them), `notifications` (a confirmation waiting while
 * the panel is closed), `cookies` (browser_get_cookies reads the cookies the browser would send
 * to a tab's URL, HttpOnly ones included) and host access to all sites, because plugins decide
 * at run time which sites they work on.
 *
 * `debugger` (chrome.debugger, the Chrome DevTools Protocol): what only the browser itself can do
 * for an agent: real mouse and keyboard events (pages ignore synthetic ones: `isTrusted`, `:hover`,
 * canvas, drag and drop), `alert`/`confirm`/`prompt` dialogs, file choosers, response bodies,
 * element and full-page screenshots, PDFs, and the console messages V8 keeps. It is attached to a
 * tab only while a call needs it and detached after about 30 s idle; Chromium shows its "started
 * debugging this browser" bar meanwhile. `"debugger": "off"` in the hub's config (or the side
 * panel's switch) never attaches it. `downloads`: browser_list_downloads and the `download` an
 * action reports (chrome.downloads: file name, path, bytes, state). `webRequest`:
 * browser_network_requests records every tab's requests and their status codes without attaching
 * the debugger (it observes only: nothing is blocked or changed). `tabGroups`: the tabs an agent
 * opened, read or acted on join a group titled "hub", so a person sees what it drives. No content script: nothing of
 * the extension is on a page it has no plugin for.
 */
import { VERSION } from "../protocol/version.ts";
import { EXTENSION_ICON_SIZES, iconFile } from "../protocol/extension_files.ts";

/** Chromium wants 1–4 dot-separated integers: "1.2.3-beta.1" becomes "1.2.3". */
export function manifestVersion(version: string): string {
  const match = /^(\d+)(\.\d+){0,3}/.exec(version);
  if (!match) throw new Error(`Version "${version}" has no numeric part for manifest.json.`);
  return match[0];
}

export function buildManifest(version = VERSION): Record<string, unknown> {
  const icons = Object.fromEntries(EXTENSION_ICON_SIZES.map((size) => [size, iconFile(size)]));
  return {
    manifest_version: 3,
    name: "hub",
    version: manifestVersion(version),
    version_name: version,
    description: "Lets AI agents use this browser through your local hub, with your permission.",
    minimum_chrome_version: "125",
    background: { service_worker: "background.js" },
    permissions: [
      "alarms",
      "cookies",
      "debugger",
      "downloads",
      "notifications",
      "scripting",
      "sidePanel",
      "storage",
      "tabGroups",
      "tabs",
      "webNavigation",
      "webRequest",
    ],
    host_permissions: ["<all_urls>"],
    icons,
    action: { default_title: "hub", default_icon: icons },
    side_panel: { default_path: "panel.html" },
  };
}
