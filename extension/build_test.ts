/// <reference lib="deno.ns" />
import { join } from "node:path";
import { assertEquals } from "../tests/helpers/assert.ts";
import { buildExtension, DIST } from "./build.ts";
import { buildManifest, manifestVersion } from "./manifest.ts";
import { VERSION } from "../protocol/version.ts";

Deno.test("extension/dist is the build of the current sources (run: deno task build:extension)", async () => {
  const built = await buildExtension();
  for (const [name, data] of Object.entries(built)) {
    const committed = await Deno.readFile(join(DIST, name)).catch(() => new Uint8Array());
    const expected = typeof data === "string" ? new TextEncoder().encode(data) : data;
    assertEquals(
      committed.length === expected.length && committed.every((b, i) => b === expected[i]),
      true,
      `extension/dist/${name} is stale: run "deno task build:extension" and commit the result`,
    );
  }
});

Deno.test("the service worker bundles only the parts of zod it uses", async () => {
  const code = (await buildExtension())["background.js"] as string;
  // `import { z } from "zod"` anywhere in its imports bundles all of zod (every locale, JSON
  // Schema import, the compiler: +290 KB); `import * as z from "zod"` keeps what is used.
  assertEquals(code.includes("Zeichen"), false, "zod's German messages are in background.js");
  // The extension never makes JSON Schema: protocol/no_json_schema.ts leaves zod's generator out.
  assertEquals(code.includes("draft-2020-12"), false, "zod's JSON Schema generator is in");
  // The debugger tools of issue 30 (input, dialogs, network, downloads, files) took the worker
  // past 250,000 characters; whole zod would still add far more than the margin left.
  assertEquals(code.length < 300_000, true, `background.js has ${code.length} characters`);
});

/** chrome.* namespaces that need a manifest permission of the same name. */
const GATED = [
  "alarms",
  "scripting",
  "webNavigation",
  "storage",
  "sidePanel",
  "notifications",
  "debugger",
  "cookies",
  "downloads",
  "webRequest",
  "tabGroups",
];

/**
 * Namespaces the worker reaches through an object given `chrome` (a fake in unit tests), so the
 * bundle says `<object>.tabGroups.` rather than `chrome.tabGroups.` (agent_group.ts).
 */
const INJECTED = ["tabGroups"];

Deno.test("the manifest asks for exactly the permissions the service worker uses", async () => {
  const code = (await buildExtension())["background.js"] as string;
  const used = GATED.filter((api) =>
    code.includes(`chrome.${api}.`) || (INJECTED.includes(api) && code.includes(`.${api}.`))
  );
  const permissions = buildManifest().permissions as string[];
  // "tabs" gates no namespace: it grants every tab's url and title, which the code reads.
  assertEquals(permissions.filter((p) => p !== "tabs").sort(), used.sort());
  assertEquals(permissions.includes("tabs") && /\.url\b/.test(code), true);
});

Deno.test("the manifest's shape", () => {
  const manifest = buildManifest();
  assertEquals(manifest.manifest_version, 3);
  assertEquals(manifest.version_name, VERSION);
  assertEquals(manifest.permissions, [
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
  ]);
  assertEquals(manifest.host_permissions, ["<all_urls>"]);
  assertEquals(manifest.background, { service_worker: "background.js" });
});

Deno.test("no content script: nothing of the extension runs in pages it has no plugin for", () => {
  assertEquals(buildManifest().content_scripts, undefined);
});

Deno.test("manifest versions keep only the numeric part Chromium accepts", () => {
  assertEquals(manifestVersion("1.2.3"), "1.2.3");
  assertEquals(manifestVersion("1.2.3-beta.1"), "1.2.3");
  assertEquals(manifestVersion("2"), "2");
});
