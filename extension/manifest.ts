/**
 * The extension's `manifest.json`. It asks only for what the code uses: `scripting` (inject
 * adapters, run tools), `tabs` (every tab's URL and title for tab states and browser_list_tabs),
 * `alarms` (the wake-up that reconnects a stopped service worker), `webNavigation` (tell a new
 * document from a same-document URL change, so a pushState does not fail a running call),
 * `sidePanel` (the panel the toolbar icon opens), `notifications` (a confirmation waiting while
 * the panel is closed), `cookies` (browser_get_cookies reads the cookies the browser would send
 * to a tab's URL, HttpOnly ones included) and host access to all sites, because plugins decide
 * at run time which sites they work on.
 *
 * One content script: `console_capture.js` runs in every site's top frame at `document_start`,
 * in the page's MAIN world, so it wraps `console` before the page's own scripts run and records
 * messages, uncaught errors and unhandled rejections for browser_get_console_logs (a bounded
 * buffer in the page; nothing leaves the page unless that tool reads it).
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
    minimum_chrome_version: "120",
    background: { service_worker: "background.js" },
    permissions: [
      "alarms",
      "cookies",
      "notifications",
      "scripting",
      "sidePanel",
      "tabs",
      "webNavigation",
    ],
    host_permissions: ["<all_urls>"],
    content_scripts: [{
      matches: ["<all_urls>"],
      js: ["console_capture.js"],
      run_at: "document_start",
      world: "MAIN",
      all_frames: false,
    }],
    icons,
    action: { default_title: "hub", default_icon: icons },
    side_panel: { default_path: "panel.html" },
  };
}
