/**
 * The extension's `manifest.json`. It asks only for what the code uses: `scripting` (inject
 * adapters, run tools), `tabs` (every tab's URL and title for tab states and browser_list_tabs),
 * `alarms` (the wake-up that reconnects a stopped service worker), `webNavigation` (tell a new
 * document from a same-document URL change, so a pushState does not fail a running call) and host
 * access to all sites,
 * because plugins decide at run time which sites they work on.
 */
import { VERSION } from "../protocol/version.ts";

/** Chromium wants 1–4 dot-separated integers: "1.2.3-beta.1" becomes "1.2.3". */
export function manifestVersion(version: string): string {
  const match = /^(\d+)(\.\d+){0,3}/.exec(version);
  if (!match) throw new Error(`Version "${version}" has no numeric part for manifest.json.`);
  return match[0];
}

export function buildManifest(version = VERSION): Record<string, unknown> {
  return {
    manifest_version: 3,
    name: "hub",
    version: manifestVersion(version),
    version_name: version,
    description: "Lets AI agents use this browser through your local hub, with your permission.",
    minimum_chrome_version: "120",
    background: { service_worker: "background.js" },
    permissions: ["alarms", "scripting", "tabs", "webNavigation"],
    host_permissions: ["<all_urls>"],
    action: { default_title: "hub" },
  };
}
